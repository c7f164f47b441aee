"""``pitdesk simulate shift``: a whole shift into an audit database, a JSON summary out.

Bad arguments exit 2 with a message naming the fault.
"""

from __future__ import annotations

import json
import sys

EXIT_BAD_INPUT = 2


def add_parsers(sub) -> None:
    sim = sub.add_parser("simulate", help="simulated shifts through the real engine, into an audit database")
    ssub = sim.add_subparsers(dest="simulate_command", metavar="ACTION", required=True)
    sh = ssub.add_parser(
        "shift", help="play a shift at N tables in simulated time and log it",
        description="Play --rounds settled rounds at each of --tables tables, in simulated time from --start "
                    "(a round every 1.5 to 3 minutes; the command itself does not wait), through the engine "
                    "and into the audit database --db (new or empty): every profile, banking mode, side bet, "
                    "deal and position method, deck and dice change, irregularity and approval kind turns up "
                    "over a shift. The same --seed and --start give the same events. Prints a JSON summary. "
                    "The simulated users (admin, floor-N, pit-1, dealer-TN) all have PIN 2468.")
    sh.add_argument("--tables", type=int, required=True, metavar="N", help="tables in the pit (at least 1)")
    sh.add_argument("--rounds", type=int, required=True, metavar="M",
                    help="settled rounds at each table (at least 1); void rounds are played again")
    sh.add_argument("--db", required=True, metavar="PATH", help="the audit database to create (new or empty)")
    sh.add_argument("--start", metavar="'YYYY-MM-DD HH:MM'",
                    help="simulated time of the first event (default: now)")
    sh.add_argument("--seed", type=int, default=0, help="random seed (default 0)")


def run(args) -> int:
    from app.store.log import StoreError

    from .shift import ShiftError, parse_start, run_shift

    try:
        start = parse_start(args.start) if args.start is not None else None
        summary = run_shift(args.db, args.tables, args.rounds, start, args.seed)
    except (ShiftError, StoreError) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyError as e:  # the install key is unreadable
        print(f"pitdesk: error: {e.args[0]}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(json.dumps(summary, indent=2))
    return 0
