"""``pitdesk simulate shift|device|floor``: the simulators of app/simulate from the command line.

``simulate shift``: a whole shift played through the workstation into an audit database, a JSON
summary out (``--plant``: rare hands planted, for tests; ``--walk AMOUNT``: chips walked off a
tray before its closer, for tests, so the money's alarms are seen).
``simulate device``: one simulated table device on a pseudo-terminal or a TCP port until SIGINT
or SIGTERM. Stdout gets exactly one JSON line, where the device is; stderr gets the injections
and, on exit, the device's counters. Fault names on stdin, one a line, are injected at once
(read always: from a pipe, a file or a terminal); a bad name is reported on stderr and the
device carries on.
``simulate floor``: a demo pit, simulated devices watched through the real workstation code.

Bad arguments exit 2 with a message naming the fault.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading

from app.simulate.device_kinds import FAULTS, KINDS as DEVICE_KINDS, SimError, applies

from .common import EXIT_BAD_INPUT

PLANTED_WALK = 10_000   # --plant walks one $100 chip off a tray: over the $25 alarm (docs/inventory.md)


def add_parser(sub) -> None:
    sim = sub.add_parser("simulate", help="simulated shifts through the workstation, and simulated devices")
    ssub = sim.add_subparsers(dest="simulate_command", metavar="ACTION", required=True)
    sh = ssub.add_parser(
        "shift", help="play a shift at N tables in simulated time and log it",
        description="Play --rounds settled rounds at each of --tables tables, in simulated time from --start "
                    "(a round every 1.5 to 3 minutes; the command itself does not wait), through the workstation's "
                    "own code into the audit database --db (new or empty): its people sign in and record the "
                    "tables' events, settle and release the rounds, decide the approvals and acknowledge the "
                    "alarms, as the application lets them. The tables cycle over the rule profiles; every hand is "
                    "dealt from a shuffled deck at its true odds, irregularities and device faults come at fixed "
                    "rates. --plant (for tests) plants rare hands now and then, so that the approvals and W-2G "
                    "slips they bring turn up in a short shift, and walks a $100 chip off one table's tray (as "
                    "--walk 100) so that its difference alarms are seen; the log's first note says so, and its hold "
                    "means nothing. Each table's money is played too: its opener, cash buy-ins, fills and credits past "
                    "the tray's water marks (approved at the desk, signed at the cage and the table), the closer "
                    "counted as the tray the rounds expect and the drop box counted, so the win by count is the "
                    "rounds' win to the cent. --walk AMOUNT (for tests) walks chips of that worth off one table's "
                    "tray before its closer, so that the tray_difference and win_difference alarms (past the "
                    "threshold) name the table and the amount. The same --seed and --start give the same events. "
                    "Prints a JSON summary (with each table's money). The simulated users (admin, floor-N, pit-1, "
                    "dealer-TN, cage-1, security-1, count-1, count-2) all have PIN 2468.")
    sh.add_argument("--tables", type=int, required=True, metavar="N", help="tables in the pit (at least 1)")
    sh.add_argument("--rounds", type=int, required=True, metavar="M",
                    help="settled rounds at each table (at least 1); void rounds are played again")
    sh.add_argument("--db", required=True, metavar="PATH", help="the audit database to create (new or empty)")
    sh.add_argument("--start", metavar="'YYYY-MM-DD HH:MM'",
                    help="simulated time of the first event (default: now)")
    sh.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    sh.add_argument("--irregularity-rate", type=float, default=None, metavar="P",
                    help="a round's chance of an irregularity, 0 to 1 (default 0.03)")
    sh.add_argument("--walk", type=_amount, default=None, metavar="AMOUNT",
                    help="walk chips of AMOUNT dollars (as 100 or $12.50) off one table's tray before its closer "
                         "(for tests: the closer is short by them; the alarms and the summary's 'walked' say where)")
    sh.add_argument("--plant", action="store_true",
                    help="plant rare hands now and then and walk a $100 chip off one tray (for tests: the shift's hold "
                         "then means nothing)")

    dv = ssub.add_parser(
        "device", help="a simulated shuffler, shoe, progressive controller or RNG on a PTY or TCP port",
        description="Run one simulated table device speaking the pitdesk link protocol (docs/devices.md) "
                    "until SIGINT or SIGTERM. Prints one JSON line saying where it is: with --port, PATH "
                    "becomes a symlink to a pseudo-terminal; with --listen, a TCP server (port 0: any free "
                    "port) for one workstation at a time. Fault names read from stdin, one a line, are "
                    "injected at once.")
    dv.add_argument("kind", metavar="DEVICE", choices=DEVICE_KINDS, help="shuffler, shoe, progressive or rng")
    where = dv.add_mutually_exclusive_group(required=True)
    where.add_argument("--port", metavar="PATH", help="symlink to create to the device's pseudo-terminal")
    where.add_argument("--listen", metavar="HOST:PORT", help="TCP address to listen on, e.g. 127.0.0.1:0")
    dv.add_argument("--faults", default="", metavar="LIST",
                    help="comma-separated faults drawn at random, from jam, miscount, misread (the shuffler's "
                         "hand read wrong), garbage, bad-crc, drop, silence, slow, or 'all' (those the device "
                         "has); default none")
    dv.add_argument("--serial", help="the serial the device reports (default SHF-1, SHO-1, PRG-1 or RNG-1)")
    dv.add_argument("--seed", type=int, help="random seed (default: a different run each time)")
    dv.add_argument("--pace", type=float, default=1.0,
                    help="multiplies the time between the device's messages (default 1: every 1 to 3 s)")
    dv.add_argument("--fault-rate", type=float, default=0.1, metavar="P",
                    help="probability that a round brings one of --faults (default 0.1)")
    dv.add_argument("--silence", default="5-12", metavar="MIN-MAX",
                    help="seconds a silence fault lasts (default 5-12)")
    fl = ssub.add_parser(
        "floor", help="a demo pit: simulated devices at N tables, watched live through the real workstation code",
        description="Start a shuffler, shoe, progressive controller and RNG display for each of --tables tables "
                    "(profiles section6 and nj in turn), each on its own TCP port (or pseudo-terminal with --pty "
                    "DIR), open every table as a dealer and floor supervisor would, and follow the devices "
                    "through the links, the procedures and a new audit database. Prints the tables every "
                    "--every seconds and a JSON summary at the end (--seconds, Ctrl-C or SIGTERM).")
    fl.add_argument("--tables", type=int, required=True, metavar="N", help="tables in the pit (at least 1)")
    fl.add_argument("--db", metavar="PATH",
                    help="the audit database to create (default: a new file under the data folder's demo/)")
    fl.add_argument("--seconds", type=float, metavar="S", help="stop after S seconds (default: until Ctrl-C)")
    fl.add_argument("--faults", default="", metavar="LIST",
                    help="faults the devices draw at random (jam, miscount, misread, garbage, bad-crc, drop, "
                         "silence, slow, or 'all'); default none")
    fl.add_argument("--fault-rate", type=float, default=0.05, metavar="P",
                    help="probability that a device's round brings one of --faults (default 0.05)")
    fl.add_argument("--pty", metavar="DIR", help="serve the devices on pseudo-terminals linked in DIR, not TCP")
    fl.add_argument("--every", type=float, default=2.0, metavar="S", help="seconds between status prints")
    fl.add_argument("--json", action="store_true", help="status as one JSON line per table")
    fl.add_argument("--seed", type=int, help="random seed of the devices")


def _amount(text: str) -> int:
    """An amount in dollars as typed ("100", "$12.50", "1,000") -> cents; argparse names the fault."""
    import argparse
    import re
    m = re.fullmatch(r"\$?(\d{1,3}(?:,\d{3})+|\d{1,9})(?:\.(\d{1,2}))?", text.strip())
    if m is None:
        raise argparse.ArgumentTypeError(f"an amount in dollars, as 100 or $12.50, got {text!r}")
    return int(m.group(1).replace(",", "")) * 100 + int((m.group(2) or "0").ljust(2, "0"))


def run(args) -> int:
    if args.simulate_command == "device":
        return _device(args)
    if args.simulate_command == "floor":
        return _floor(args)
    from app.simulate.shift import ShiftError, parse_start, run_shift
    from app.store.log import StoreError

    try:
        start = parse_start(args.start) if args.start is not None else None
        rate = {} if args.irregularity_rate is None else {"irregularity_rate": args.irregularity_rate}
        # --plant walks a chip too (issue 34): one $100 chip off a tray, past the $25 alarm, unless --walk says
        walk = args.walk if args.walk is not None else (PLANTED_WALK if args.plant else None)
        summary = run_shift(args.db, args.tables, args.rounds, start, args.seed, plant=args.plant, walk=walk,
                            **rate)
    except (ShiftError, StoreError) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except KeyError as e:  # the install key is unreadable
        print(f"pitdesk: error: {e.args[0]}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(json.dumps(summary, indent=2))
    return 0


def _floor(args) -> int:
    from datetime import datetime
    from pathlib import Path

    from app.simulate.live_floor import FloorError, run_floor
    from app.store import paths
    from app.store.log import StoreError

    faults = tuple(f.strip() for f in args.faults.split(",") if f.strip())
    if faults == ("all",):
        faults = tuple(FAULTS)
    bad = [f for f in faults if f not in FAULTS]
    try:
        if bad:
            raise FloorError(f"--faults: unknown fault {bad[0]!r} (one of: {', '.join(FAULTS)})")
        if not 0 <= args.fault_rate <= 1:
            raise FloorError(f"--fault-rate: a probability from 0 to 1, got {args.fault_rate:g}")
        if args.seconds is not None and not args.seconds > 0:
            raise FloorError(f"--seconds: a positive number of seconds, got {args.seconds:g}")
        if not args.every > 0:
            raise FloorError(f"--every: a positive number of seconds, got {args.every:g}")
        pty_dir = Path(args.pty) if args.pty else None
        if pty_dir is not None and not pty_dir.is_dir():
            raise FloorError(f"--pty: {pty_dir} is not a folder")
        db = Path(args.db) if args.db else paths.data_dir() / "demo" / f"floor-{datetime.now():%Y%m%d-%H%M%S}.db"
        run_floor(args.tables, db, args.seconds, faults, args.fault_rate, args.seed, pty_dir, args.every, args.json)
    except (FloorError, StoreError) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


# -- simulate device ---------------------------------------------------------------------------
def parse_listen(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise SimError(f"expected HOST:PORT, got {text!r}", "listen")
    return host, int(port)


def parse_faults(text: str, kind: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if names == ["all"]:
        return [f for f in FAULTS if applies(f, kind)]
    return names  # SimDevice names the bad one


def parse_span(text: str, option: str) -> tuple[float, float]:
    lo, _, hi = text.partition("-")
    try:
        span = (float(lo), float(hi or lo))
    except ValueError:
        raise SimError(f"expected seconds MIN-MAX, got {text!r}", option) from None
    if not 0 < span[0] <= span[1]:
        raise SimError(f"expected seconds MIN-MAX, more than 0, got {text!r}", option)
    return span


def _read_faults(served, stop: threading.Event) -> None:
    """Fault names from stdin, one a line; os.read, not sys.stdin, so that exiting never waits on
    the buffered reader's lock."""
    tail = b""
    while not stop.is_set():
        try:
            data = os.read(0, 1024)
        except OSError:
            return
        if not data:
            return
        lines = (tail + data).split(b"\n")
        tail = lines.pop()
        for raw in lines:
            name = raw.decode(errors="replace").strip()
            if not name or name.startswith("#"):
                continue
            try:
                served.inject(name)
            except SimError as e:
                print(f"pitdesk: error: {e}", file=sys.stderr, flush=True)
            else:
                print(f"pitdesk: injected {name}", file=sys.stderr, flush=True)


def _device(args) -> int:
    from app.simulate.sim_device import SimDevice
    try:
        silence = parse_span(args.silence, "silence")
        listen = parse_listen(args.listen) if args.listen is not None else None
        device = SimDevice(args.kind, args.serial, parse_faults(args.faults, args.kind), seed=args.seed,
                           pace=args.pace, fault_rate=args.fault_rate, silence=silence)
        served = device.serve_tcp(*listen) if listen else device.serve_pty(args.port)
    except SimError as e:
        print(f"pitdesk: error: --{e.option}: {e}" if e.option else f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    print(json.dumps(served.info), flush=True)
    threading.Thread(target=_read_faults, args=(served, stop), name="sim-stdin", daemon=True).start()
    while not stop.wait(0.2) and served.alive:
        pass
    served.stop()
    print(json.dumps({"stopped": served.info, "stats": served.stats}), file=sys.stderr, flush=True)
    if served.error is not None:
        print(f"pitdesk: error: the device stopped: {served.error!r}", file=sys.stderr)
        return 1
    return 0
