"""``pitdesk round replay EVENTS.jsonl``: a table's state from its procedure events (docs/table-events.md).
``pitdesk round settle --table T1 ROUND.json``: a round file settled into a live log through the
workstation, as the window settles it (docs/workstation.md, "Rounds")."""

from __future__ import annotations

import json
import sys
from dataclasses import asdict
from datetime import datetime
from pathlib import Path

from app.rules.resources import DEFAULT_PROFILE, profile

from .common import EXIT_BAD_INPUT, InputError, _json, _pin, _read_text


def add_parser(sub) -> None:
    rp = sub.add_parser("round", help="follow a table through its events; settle a round into the log")
    rsub = rp.add_subparsers(dest="round_command", metavar="ACTION", required=True)
    rr = rsub.add_parser("replay", help="rebuild a table's state from its events (JSON lines)",
                         description="Each line of EVENTS.jsonl is an event: {\"type\", \"time\" (ISO 8601), "
                                     "\"actor\", \"role\", ...}. Prints the resulting state and what is due, or "
                                     "the first refused event and why (exit 2).")
    rr.add_argument("events_file", metavar="EVENTS.jsonl")
    rr.add_argument("--profile", default=DEFAULT_PROFILE)
    rs = rsub.add_parser(
        "settle", help="settle a round file at a table of the floor, into its audit log",
        description="Settle ROUND.json (docs/round-format.md) at TABLE as the workstation's round panel does: "
                    "signed in as NAME (the PIN is read from the terminal, or from stdin when it is not a "
                    "terminal or with --pin-stdin), the round is entered at the table, checked against the "
                    "table's profile, limits and the procedures' bank rotation, settled exactly as 'pitdesk settle' "
                    "settles the file, and logged with its approval requests and the meter in one append. Prints "
                    "what the window shows, as JSON: each wager's result, the ledger with each line's rule, the net "
                    "by party, the approvals it needs and where the round stands ('pending' until they are "
                    "approved in the window; 'ready' to release its payouts), and under 'logged' the settlement "
                    "as logged. A refused round exits 2 naming the fault, with nothing logged.")
    rs.add_argument("round_file", metavar="ROUND.json")
    rs.add_argument("--table", required=True, metavar="TABLE", help="the table's id on the floor (T1)")
    src = rs.add_mutually_exclusive_group(required=True)
    src.add_argument("--config", metavar="FILE", help="the workstation's configuration: the floor's tables, their "
                                                      "profiles and limits (docs/workstation-config.md)")
    src.add_argument("--demo", action="store_true",
                     help="the demo floor's tables T1-T7 (README); on a new database the demo people are added, as "
                          "'pitdesk gui --demo' does; needs --db")
    rs.add_argument("--db", metavar="PATH", help="the audit database (default: the configuration's, else the user "
                                                 "data folder's pitdesk.db)")
    rs.add_argument("--as", dest="name", required=True, metavar="NAME",
                    help="who settles it: a dealer, floor supervisor or pit manager, signing in with a PIN")
    rs.add_argument("--pin-stdin", action="store_true", help="read the PIN from stdin")


def run(args) -> int:
    if args.round_command == "settle":
        return _settle(args)
    return _replay(args)


def _replay(args) -> int:
    from app.engine.deadlines import due
    from app.engine.procedure import Event, Refused, replay

    path = args.events_file
    rules = profile(args.profile).rules
    lines = _read_text(path, "events file").splitlines()
    events = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            events.append((n, Event.from_json(_json(line, f"{path}:{n}"))))
        except Refused as e:
            raise InputError(f"{path}:{n}: {e}") from None
    state, refused = replay([e for _, e in events], rules)
    out = {"state": state.as_json()}
    if state.last_time is not None:
        out["due"] = due(state, rules, state.last_time)
    if refused:
        i, event, reason = refused
        out["refused"] = {"line": events[i][0], "type": event.type, "reason": reason}
        print(json.dumps(out, indent=2))
        return EXIT_BAD_INPUT
    print(json.dumps(out, indent=2))
    return 0


def _settle(args) -> int:
    from app.workstation.errors import WorkstationError

    path = args.round_file
    obj = _json(_read_text(path, "round file"), path)
    if not isinstance(obj, dict):
        raise InputError(f"{path}: a round file is a JSON object (docs/round-format.md)")
    if args.demo and not args.db:
        raise InputError("--demo needs --db PATH: the demo floor's database to settle into")
    try:
        ws = _open(args)
    except WorkstationError as e:
        raise InputError(str(e)) from None
    try:
        if args.table not in ws.tables():
            raise InputError(f"--table: no table {args.table!r} on this floor (tables: {', '.join(ws.tables())})")
        try:
            pin = _pin(args, f"{args.name}'s PIN: ")
        except ValueError as e:
            raise InputError(str(e)) from None
        try:
            ws.people.sign_in(args.name, pin)
            ws.rounds.load(args.table, obj)
            out = ws.rounds.settle(args.table)
        except WorkstationError as e:
            raise InputError(f"{path}: {e}") from None
        finally:
            if ws.people.session() is not None:
                ws.people.sign_out()
        print(json.dumps(round_json(out.result), indent=2))
        if out.result.status == "pending":
            print(f"pitdesk: round {out.result.settlement} at {args.table} waits for approval: "
                  f"{out.result.status_text}", file=sys.stderr)
        return 0
    finally:
        ws.close()


def _open(args):
    from app.workstation.workstation import Workstation
    if args.demo:
        from app.simulate.demo import DEMO_TABLES, PREFIX, add_demo_users, carry_over, demo_config
        # the demo's tables and profiles (a kept demo log carried over to them, as the window's demo
        # does); its simulated devices are not started (no links here)
        tables = carry_over(Path(args.db))
        urls = {f"{PREFIX[cls]}-{t}": f"demo://{PREFIX[cls]}-{t}" for t, _, _, classes in DEMO_TABLES
                for cls in classes}
        ws = Workstation(demo_config(urls, tables), Path(args.db))
        try:
            add_demo_users(ws)
        except BaseException:
            ws.close()
            raise
        return ws
    from app.workstation.config import load
    return Workstation(load(args.config), args.db)


def round_json(result) -> dict:
    """A settled round as the window shows it (app/workstation/readouts.py ``RoundResult``)."""
    def plain(v):
        if isinstance(v, datetime):
            return v.isoformat()
        if isinstance(v, dict):
            return {k: plain(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [plain(x) for x in v]
        return v
    return plain(asdict(result))
