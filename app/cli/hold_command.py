"""``pitdesk hold``: the actual hold against the theoretical, per table and wager type, and for
the pit (app/workstation/hold.py, docs/hold.md). Read-only on the database.

The log is checked first and the hold read in the snapshot checked (app/store/figures_check.py):
a log that fails its check gives no hold (exit 1 naming the row and the kind) unless
``--unverified`` asks for it, then marked NOT VERIFIED (the JSON's ``verified``)."""

from __future__ import annotations

import json
import sys
from datetime import datetime

from app.engine import words

from .common import EXIT_BAD_INPUT, InputError, _db, in_years, refuse_floor, refuse_unverified

FORMATS = ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d")


def add_parser(sub) -> None:
    h = sub.add_parser("hold", help="the hold per table and wager type: actual against theoretical",
                       description="What the house kept of what was wagered against it, per table and wager type "
                                   "and for the pit, from the settled rounds as logged, beside the theoretical hold "
                                   "the engine computes for the table's profile and pay tables (exact, or for the "
                                   "base game an estimate with its 95%% interval). Reads the database only.")
    src = h.add_mutually_exclusive_group()
    src.add_argument("--db", help="the audit database (default: the user data directory)")
    src.add_argument("--pg", metavar="postgresql://USER@HOST/DB",
                     help="the floor: every workstation's hold from the casino's server, and their sum (--json; "
                          "docs/casino.md)")
    h.add_argument("--from", dest="start", metavar="DATETIME",
                   help="from this time on (local, 'YYYY-MM-DD HH:MM' or 'YYYY-MM-DD'; default: the log's start)")
    h.add_argument("--to", dest="end", metavar="DATETIME", help="up to, not including, this time (default: now and on)")
    h.add_argument("--table", metavar="T", help="one table (default: every table, and the pit)")
    h.add_argument("--json", action="store_true", help="print JSON instead of a table")
    h.add_argument("--unverified", action="store_true",
                   help="show the hold even when the log fails its check, marked NOT VERIFIED (without it: exit 1 "
                        "naming the row and the kind)")


def _read_time(text: str) -> datetime:
    for fmt in FORMATS:
        try:
            return datetime.strptime(text.strip(), fmt)
        except ValueError:
            pass
    return datetime.fromisoformat(text.strip())


def parse_time(text: str, flag: str) -> datetime:
    """``--from``/``--to``: a date and time in the years a log can hold (``in_years``, as the
    shift report's ``--date``), or InputError naming the fault."""
    try:
        t = in_years(flag, text, _read_time(text))
    except InputError:
        raise
    except ValueError:
        raise InputError(f"{flag} {text!r} is not a date and time (expected 'YYYY-MM-DD HH:MM' or "
                         "'YYYY-MM-DD')") from None
    # the log keeps the workstation's local time: a time with an offset is read as that local time
    return t.astimezone().replace(tzinfo=None) if t.tzinfo is not None else t


def run(args) -> int:
    from app.store.reading import NotALog, missing
    from app.workstation.hold import HoldError, as_json, check_period, read_hold
    from app.workstation.theoretical import TheoryUnavailable
    start = parse_time(args.start, "--from") if args.start else None
    end = parse_time(args.end, "--to") if args.end else None
    if args.pg is not None:
        return _floor(args, start, end)
    db = _db(args)
    try:
        check_period(start, end)
        if not db.exists():
            raise FileNotFoundError(missing(db))
        report = read_hold(db, start, end, args.table)
    except (HoldError, NotALog, FileNotFoundError, TheoryUnavailable) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not report.verified.ok and not args.unverified:
        return refuse_unverified("the hold", report.verified)
    data = as_json(report)
    if args.json:
        print(json.dumps({"db": str(db), **data}, indent=2))
    else:
        print(("NOT VERIFIED: " + report.verified.words() + "\n") if not report.verified.ok else "", end="")
        print(text(data))
    return 0


def _floor(args, start: datetime | None, end: datetime | None) -> int:
    """``--pg``: every workstation's hold from the casino's server, and the floor's sum."""
    from app.store.pg import server
    from app.workstation.floor_report import floor_hold_json, read_floor_hold
    from app.workstation.hold import HoldError, check_period
    from app.store.pg.chain_marks import remember
    from app.store.pg.floor_verdict import ServerVerified, check_server
    from app.workstation.theoretical import TheoryUnavailable
    try:
        check_period(start, end)
        # issue 35, finding 1: only from chains that pass the server's check, from where the last one passed
        verified = check_server(args.pg, incremental=True)
        if not verified.ok and not args.unverified:
            return refuse_floor("the floor's hold", verified)
        holds, differs, marks = read_floor_hold(args.pg, start, end, args.table, verified.walked)
        if verified.ok and differs is not None:
            # the sums the server keeps differ from the events they come from (issue 35, finding 5)
            verified = ServerVerified(differs[0], differs[1], verified.workstations)
            if not args.unverified:
                return refuse_floor("the floor's hold", verified)
        if verified.ok:
            remember(args.pg, marks)   # the next check walks on from here
    except server.BadUrl as e:
        raise InputError(str(e)) from None
    except (HoldError, TheoryUnavailable, server.Unreachable, server.NoSchema, server.Refused) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    data = floor_hold_json(holds, start, end, args.table, verified)
    if not verified.ok and not args.json:
        print("NOT VERIFIED: " + verified.words())
    print(json.dumps(data, indent=2) if args.json else floor_text(data), end="" if not args.json else "\n")
    return 0


# -- the readable table ----------------------------------------------------------------------------
_money = words.money


def _pct(x: float | None) -> str:
    return "n/a" if x is None else f"{100 * x:.3f}%"


def _theory(d: dict) -> str:
    th = d.get("theoretical")
    if d.get("theoretical_hold") is None:
        return "n/a"
    if th and th["basis"] == "estimate":
        lo, hi = th["interval_95"]
        return f"{_pct(d['theoretical_hold'])} est. ({_pct(lo)} to {_pct(hi)})"
    return _pct(d["theoretical_hold"])


def _block(title: str, wagers: dict, total: dict) -> list[str]:
    head = f"  {'wager':<16}{'wagered':>16}{'house net':>15}{'commission':>13}{'fees':>11}{'actual':>12}  theoretical"
    out = [title, head]
    for w, d in wagers.items():
        out.append(f"  {w:<16}{_money(d['wagered']):>16}{_money(d['house_net']):>15}{_money(d['commission']):>13}"
                   f"{_money(d['collection_fees']):>11}{_pct(d['actual_hold']):>12}  {_theory(d)}")
    out.append(f"  {'total':<16}{_money(total['wagered']):>16}{_money(total['house_net']):>15}{'':>13}{'':>11}"
               f"{_pct(total['actual_hold']):>12}  {_theory(total)}")
    return out


def text(data: dict) -> str:
    period = f"{data['from'] or 'the start of the log'} to {data['to'] or 'now'}"
    lines = [f"Hold from {period}: {data['rounds']} rounds"
             + (f" ({data['sent_back']} sent back by a denial, not counted)" if data["sent_back"] else ""), ""]
    for t in data["tables"]:
        profiles = f" ({', '.join(t['profiles'])})" if t["profiles"] else ""
        lines += _block(f"{t['table']}{profiles}: {t['rounds']} rounds", t["wagers"], t["total"])
        lines.append("")
    if data["table"] is None:
        lines += _block("Pit", data["pit"]["wagers"], data["pit"]["total"])
    lines.append("")
    lines.append("theoretical: exact from the enumeration of every hand, or 'est.' (the base game: the house way "
                 "against itself, simulated) with its 95% interval; n/a: not a wager (envy) or not priced "
                 "(a player bank's take)")
    return "\n".join(lines).rstrip() + "\n"


def floor_text(data: dict) -> str:
    """The floor's hold as a person reads it: each workstation's own table (as ``pitdesk hold``
    prints it there), then the floor's sum."""
    lines: list[str] = []
    for p in data["pits"]:
        lines.append(f"== workstation {p['db_id']} ({p['db']}) ==")
        lines += text({**p, "table": data["table"]}).rstrip().split("\n")[:-2]   # its note once, below
        lines.append("")
    f = data["floor"]
    lines += _block(f"Floor: {f['rounds']} rounds at {len(data['pits'])} workstations", f["wagers"], f["total"])
    lines += ["", "theoretical: exact from the enumeration of every hand, or 'est.' (the base game: the house way "
                  "against itself, simulated) with its 95% interval; n/a: not a wager (envy) or not priced "
                  "(a player bank's take)"]
    return "\n".join(lines).rstrip() + "\n"
