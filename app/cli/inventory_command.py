"""``pitdesk inventory open|close|fill|credit|buy-in|drop|show``: the pit's money from the command
line, as the window does it (issue 34, docs/inventory.md; the workstation's inventory desk,
app/workstation/desks/inventory.py).

The floor is a configuration (``--config FILE``) or the demo floor (``--demo --db PATH``), as
``pitdesk round settle`` opens it. Who acts signs in with ``--as NAME``; a second signer (the
supervisor who counter-signs an opener, security at the cage, the second of the count team) is
``--with NAME``. Their PINs are read from the terminal, or one per line from stdin (``--pin-stdin``,
or whenever stdin is not a terminal): ``--as``'s first, then each ``--with``'s in the order given.
A refusal exits 2 naming the fault, with nothing of the action written (a refused PIN is logged
and counted, as every sign-in's is).

The count room's file (``drop --csv FILE``): a header ``table,denomination,count`` and one line per
table and note value (``T1,$100,12``): every line is checked first (a table not on the floor, a note
value not in ``[chips] currency``, a count that is not a whole number, a table and value given twice,
a table with no closed shift, a drop counted already), and the file is refused naming the line and
the fault, or all its tables' drops are written in one append.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

from .common import InputError, _pin, _read_text

ACTIONS = ("open", "close", "fill", "credit", "buy-in", "drop", "show")
CSV_HEADER = ("table", "denomination", "count")


def add_parser(sub) -> None:
    import argparse
    iv = sub.add_parser(
        "inventory", help="the pit's money: openers, closers, fills, credits, buy-ins, the drop, the win",
        description="The table inventory as the window keeps it (docs/inventory.md): each action signed in with "
                    "--as NAME (and --with NAME for a second signer), the PINs read from the terminal, or one per "
                    "line from stdin in the order --as, --with ... A refusal exits 2 naming the fault, with "
                    "nothing written.")
    isub = iv.add_subparsers(dest="inventory_command", metavar="ACTION", required=True)
    floor = argparse.ArgumentParser(add_help=False)
    src = floor.add_mutually_exclusive_group(required=True)
    src.add_argument("--config", metavar="FILE", help="the workstation's configuration: the floor's tables and its "
                                                      "[chips] (docs/workstation-config.md)")
    src.add_argument("--demo", action="store_true", help="the demo floor's tables T1-T7 and chips; needs --db")
    floor.add_argument("--db", metavar="PATH", help="the audit database (default: the configuration's)")
    floor.add_argument("--json", action="store_true", help="print the result as JSON (cents)")
    signed = argparse.ArgumentParser(add_help=False)
    signed.add_argument("--as", dest="name", required=True, metavar="NAME", help="who acts, signing in with a PIN")
    signed.add_argument("--with", dest="others", action="append", default=[], metavar="NAME",
                        help="a second signer, their PIN on the next line of stdin (repeatable)")
    signed.add_argument("--pin-stdin", action="store_true", help="read the PINs from stdin, one per line")
    count = "the chips by value, as '20 x $100, 40 x $25'"

    for action, text in (("open", "count the opener: the dealer --as, a supervisor --with"),
                         ("close", "count the closer: the dealer --as, a supervisor --with")):
        p = isub.add_parser(action, parents=[floor, signed], help=text, description=text)
        p.add_argument("--table", required=True, metavar="TABLE")
        p.add_argument("--count", required=True, metavar="COUNT", help=count)
    for kind in ("fill", "credit"):
        p = isub.add_parser(
            kind, parents=[floor, signed], help=f"ask for a {kind}, approve or deny it, sign it, void it",
            description=f"With --table, --count and --reason: a {kind} asked for at the table (a numbered slip and "
                        f"a request in the approvals queue). With --number N: the slip approved (--approve, by a "
                        f"supervisor), denied (--deny REASON), signed at the cage (--sign cage: a cashier --as, "
                        f"security --with) or at the table (--sign table: the dealer and a supervisor), or voided "
                        f"(--void REASON, by a supervisor). A fill is signed at the cage first, a credit at the "
                        f"table first.")
        p.add_argument("--table", metavar="TABLE")
        p.add_argument("--count", metavar="COUNT", help=count)
        p.add_argument("--reason", metavar="TEXT", help="why it is asked for; or the approval's reason")
        p.add_argument("--number", type=int, metavar="N", help=f"the {kind} slip's number")
        act = p.add_mutually_exclusive_group()
        act.add_argument("--approve", action="store_true")
        act.add_argument("--deny", metavar="REASON")
        act.add_argument("--sign", choices=("cage", "table"))
        act.add_argument("--void", metavar="REASON")
    p = isub.add_parser("buy-in", parents=[floor, signed], help="chips sold for cash at the table",
                        description="Chips sold for cash: they leave the tray, the cash goes in the drop box.")
    p.add_argument("--table", required=True, metavar="TABLE")
    p.add_argument("--amount", required=True, metavar="DOLLARS", help="the cash, as 500 or 1,250.00")
    p.add_argument("--seat", type=int, metavar="1-7")
    p.add_argument("--player", default="", metavar="NAME")
    p = isub.add_parser(
        "drop", parents=[floor, signed], help="the drop box's count, signed by two of the count team",
        description="The drop box's notes for a table's last closed shift (or --shift SEQ, its opener's row), "
                    "or the count room's file for several tables at once (--csv FILE: a header "
                    "'table,denomination,count', one line per table and note value; every line checked before "
                    "anything is written).")
    p.add_argument("--table", metavar="TABLE")
    p.add_argument("--count", metavar="COUNT", help="the notes by value, as '12 x $100, 30 x $20'")
    p.add_argument("--shift", type=int, metavar="SEQ", help="the shift's opener row (show --json: 'shift')")
    p.add_argument("--csv", metavar="FILE", help="the count room's file")
    p = isub.add_parser("show", parents=[floor], help="each table's money and the pending slips",
                        description="Each table (or --table): open or closed, its opener, fills, credits, "
                                    "buy-ins, the rounds' flow, the tray expected, closer, drop, win and "
                                    "difference; the fills and credits pending.")
    p.add_argument("--table", metavar="TABLE")


def run(args) -> int:
    from app.workstation.errors import WorkstationError
    from .round_command import _open

    if args.demo and not args.db:
        raise InputError("--demo needs --db PATH: the demo floor's database")
    if args.config and args.db and not Path(args.db).exists():
        raise InputError(f"no audit database at {args.db}")
    act = _ACTIONS[args.inventory_command]
    try:
        ws = _open(args)
    except WorkstationError as e:
        raise InputError(str(e)) from None
    try:
        table = getattr(args, "table", None)
        if table is not None and table not in ws.tables():
            raise InputError(f"--table: no table {table!r} on this floor (tables: {', '.join(ws.tables())})")
        if args.inventory_command == "show":
            out = _show(ws, args)
        else:
            work = act(ws, args)         # the arguments checked before any PIN is read
            try:
                out = _signed(ws, args, work)
            finally:
                if ws.people.session() is not None:
                    ws.people.sign_out()
        text = out.pop("text", "")
        print(json.dumps(out, indent=2) if args.json else text)
        return 0
    except WorkstationError as e:
        raise InputError(str(e)) from None
    finally:
        ws.close()


def _signed(ws, args, work):
    """``work(others)`` as ``--as`` signed in, ``others`` the (name, PIN) of each ``--with``."""
    try:
        pin = _pin(args, f"{args.name}'s PIN: ")
        others = [(n, _pin(args, f"{n}'s PIN: ")) for n in args.others]
    except ValueError as e:
        raise InputError(str(e)) from None
    ws.people.sign_in(args.name, pin)
    return work(others)


def _need(args, *names: str, action: str) -> None:
    for n in names:
        if getattr(args, n.lstrip("-").replace("-", "_")) in (None, ""):
            raise InputError(f"{action} needs {n}")


# -- the actions: each checks its arguments and returns the work to do once signed in ----------------
def _tray(ws, args):
    def work(others):
        if args.inventory_command == "open":
            ws.inventory.open_tray(args.table, args.count, signers=others)
        else:
            ws.inventory.close_tray(args.table, args.count, signers=others)
        what = "opener" if args.inventory_command == "open" else "closer"
        return _table_out(ws, args.table, f"table {args.table}: the {what} counted")
    return work


def _slip_action(ws, args):
    kind = args.inventory_command
    if args.number is None:
        if args.approve or args.deny or args.sign or args.void:
            raise InputError(f"--approve, --deny, --sign and --void name the {kind} slip with --number N")
        _need(args, "--table", "--count", "--reason", action=f"asking for a {kind}")

        def ask(others):
            if others:
                raise InputError(f"a {kind} is asked for by one person: no --with")
            ws.inventory.request(args.table, kind, args.count, args.reason)
            with ws.reading():
                row = ws.log.query("SELECT * FROM tray_slips WHERE kind = ? AND table_id = ? ORDER BY seq DESC "
                                   "LIMIT 1", (kind, args.table))[0]
            return _slip_out(row, f"{kind} slip {row['number']} asked for at {args.table}: it waits for a "
                                  "supervisor's approval")
        return ask
    if args.table or args.count:
        raise InputError(f"--number names the {kind} slip: its table and count are the slip's")
    if not (args.approve or args.deny or args.sign or args.void):
        raise InputError(f"--number {args.number}: say what is done with it: --approve, --deny REASON, "
                         "--sign cage|table or --void REASON")
    if args.reason and not args.approve:
        raise InputError("--reason goes with a request or --approve (--deny and --void take their own reason)")
    if args.number < 1:
        raise InputError(f"--number: a slip's number is 1 or more, got {args.number}")

    def act(others):
        from app.store import trays
        from app.workstation.errors import Refused
        if args.sign:
            ws.inventory.sign(kind, args.number, args.sign, signers=others)
            done = f"signed at the {args.sign}"
        elif args.void:
            if len(others) > 1:
                raise InputError("a void is counter-signed by one supervisor at most: one --with")
            ws.inventory.void(kind, args.number, args.void, signer=others[0] if others else None)
            done = "VOID"
        else:
            if len(others) > 1:
                raise InputError("a decision is counter-signed by one person at most: one --with")
            with ws.reading():
                row = trays.slip(ws.log, kind, args.number)
            if row is None:
                raise Refused(f"no {kind} slip {args.number}")
            if row["request"] is None:
                raise Refused(f"{kind} slip {args.number} has no request in the approvals queue")
            ws.decisions.decide(row["request"], "approved" if args.approve else "denied",
                                (args.reason or "") if args.approve else args.deny,
                                signer=others[0] if others else None)
            done = "approved" if args.approve else "denied: VOID"
        with ws.reading():
            row = trays.slip(ws.log, kind, args.number)
        return _slip_out(row, f"{kind} slip {args.number} {done}; now {row['status']}")
    return act


def _buy_in(ws, args):
    from app.engine.money import MoneyError, dollars, parse_dollars
    try:
        cents = parse_dollars(args.amount)
    except MoneyError as e:
        raise InputError(f"--amount: {e}") from None

    def work(others):
        if others:
            raise InputError("a buy-in is recorded by one person: no --with")
        ws.inventory.buy_in(args.table, cents, seat=args.seat, player=args.player)
        return _table_out(ws, args.table, f"table {args.table}: a buy-in of {dollars(cents)}"
                          + (f" at seat {args.seat}" if args.seat else ""))
    return work


def _drop(ws, args):
    if args.csv:
        if args.table or args.count or args.shift is not None:
            raise InputError("--csv names its tables and counts: no --table, --count or --shift with it")
        lines, counts = _count_room(ws, args.csv)

        def many(others):
            from app.workstation.errors import FieldsRefused
            try:
                ws.inventory.drops(list(counts.items()), signers=others, source=Path(args.csv).name)
            except FieldsRefused as e:
                (table, why), = e.fields.items()
                raise InputError(f"{args.csv}:{lines[table]}: {why}; nothing written") from None
            out = {"tables": [_table_json(ws, t) for t in counts]}
            out["text"] = "\n".join(f"table {t['table']}: the drop counted, {_words(t['money'])}"
                                    for t in out["tables"])
            return out
        return many
    _need(args, "--table", "--count", action="a drop (or --csv FILE)")

    def one(others):
        ws.inventory.drop(args.table, args.count, signers=others, opener=args.shift)
        seq = args.shift
        if seq is None:
            with ws.reading():
                seq = ws.log.query("SELECT opener FROM drops WHERE table_id = ? ORDER BY seq DESC LIMIT 1",
                                   (args.table,))[0]["opener"]
        return _table_out(ws, args.table, f"table {args.table}: the drop counted", shift=seq)
    return one


_NOTE = re.compile(r"\$?\s*\d[\d,]*(\.\d{1,2})?")


def _count_room(ws, path: str) -> tuple[dict[str, int], dict[str, dict[int, int]]]:
    """The count room's file checked line by line: each table's first line and its notes by value."""
    from app.engine.chips import MOST_CHIPS
    from app.engine.money import MoneyError, dollars, parse_dollars
    text = _read_text(path, "count room file")
    currency = ws.config.currency.denominations
    reader = csv.reader(text.splitlines())
    header = None
    first: dict[str, int] = {}
    counts: dict[str, dict[int, int]] = {}
    seen: dict[tuple[str, int], int] = {}
    for fields in reader:
        n = reader.line_num
        if not any(f.strip() for f in fields):
            continue
        fields = [f.strip() for f in fields]
        if header is None:
            if tuple(f.lower() for f in fields) != CSV_HEADER:
                raise InputError(f"{path}:{n}: the first line is the header 'table,denomination,count', got "
                                 f"{','.join(fields)!r}")
            header = fields
            continue
        if len(fields) != 3:
            raise InputError(f"{path}:{n}: a line is table,denomination,count (3 fields), got {len(fields)}")
        table, note, count = fields
        if table not in ws.tables():
            raise InputError(f"{path}:{n}: no table {table!r} on this floor (tables: {', '.join(ws.tables())})")
        try:
            if not _NOTE.fullmatch(note):
                raise MoneyError(f"{note!r} is not a note's value")
            value = parse_dollars(note)
        except MoneyError as e:
            raise InputError(f"{path}:{n}: {e}") from None
        if value not in currency:
            raise InputError(f"{path}:{n}: no {dollars(value)} note in [chips] currency "
                             f"({', '.join(dollars(v) for v in currency)})")
        if not re.fullmatch(r"\d+", count) or int(count) > MOST_CHIPS:
            raise InputError(f"{path}:{n}: the count of {dollars(value)} notes is a whole number from 0 to "
                             f"{MOST_CHIPS}, got {count!r}")
        if (table, value) in seen:
            raise InputError(f"{path}:{n}: table {table}'s {dollars(value)} notes are counted twice (line "
                             f"{seen[table, value]} and line {n})")
        seen[table, value] = n
        first.setdefault(table, n)
        counts.setdefault(table, {})[value] = int(count)
    if header is None:
        raise InputError(f"{path}: empty; the first line is the header 'table,denomination,count'")
    if not counts:
        raise InputError(f"{path}: no table's count after the header")
    return first, counts


# -- what is printed ----------------------------------------------------------------------------------
def _show(ws, args) -> dict:
    from app.engine.money import dollars
    tables = [args.table] if args.table else list(ws.tables())
    out = {"tables": [_table_json(ws, t) for t in tables]}
    with ws.reading():
        pending = [_slip_json(r) for r in ws.inventory.pending() if not args.table or r["table_id"] == args.table]
    out["pending"] = pending
    lines = []
    for t in out["tables"]:
        if t["shift"] is None:
            lines.append(f"{t['table']}: never opened")
            continue
        lines.append(f"{t['table']}: {'open' if t['open'] else 'closed'} (shift {t['shift']}, opened "
                     f"{t['opened'][:16].replace('T', ' ')}), {_words(t['money'])}")
    for s in pending:
        lines.append(f"{s['kind']} slip {s['number']} at {s['table']}: {dollars(s['cents'])}, {s['status']}")
    out["text"] = "\n".join(lines)
    return out


def _table_out(ws, table: str, text: str, shift: int | None = None) -> dict:
    out = _table_json(ws, table, shift)
    out["text"] = f"{text}; {_words(out['money'])}"
    return out


def _table_json(ws, table: str, shift: int | None = None) -> dict:
    from app.store import trays
    with ws.reading():
        if shift is None:
            opener, money = ws.inventory.money(table)
        else:
            opener, money = trays.opener(ws.log, shift), trays.shift_money(ws.log, shift)
        slips = ws.log.query("SELECT * FROM tray_slips WHERE opener = ? ORDER BY kind DESC, number",
                             (opener["seq"],)) if opener else []
        buy_ins = ws.log.query("SELECT seq, time, seat, cents, player, recorded_by FROM buy_ins WHERE opener = ? "
                               "ORDER BY seq", (opener["seq"],)) if opener else []
    if opener is None:
        return {"table": table, "open": False, "shift": None, "opened": None, "opener_count": None,
                "money": None, "slips": [], "buy_ins": []}
    from app.engine.inventory import win_over_drop
    m = money.as_json()
    m["rounds_tray"] = money.rounds_tray
    m["win_over_drop"] = win_over_drop(money.win, money.drop)     # "18.2%", integer arithmetic; "-" unknown
    return {"table": table, "open": opener["closer"] is None, "shift": opener["seq"], "opened": opener["time"],
            "opener_count": {str(v): n for v, n in trays.count_of(opener).items()},
            "signed_by": [list(x) for x in trays.signers_of(opener["signed_by"])],
            "money": m, "slips": [_slip_json(s) for s in slips], "buy_ins": buy_ins}


def _slip_json(row: dict) -> dict:
    from app.store import trays
    return {"kind": row["kind"], "number": row["number"], "table": row["table_id"], "status": row["status"],
            "cents": row["cents"], "count": {str(v): n for v, n in trays.count_of(row).items()},
            "reason": row["reason"], "request": row["request"], "shift": row["opener"],
            "requested": row["requested"], "requested_by": row["requested_by"],
            "approved_by": row["approved_by"], "cage_signed": row["cage_signed"],
            "cage_signers": [list(x) for x in trays.signers_of(row["cage_signers"])],
            "table_signed": row["table_signed"],
            "table_signers": [list(x) for x in trays.signers_of(row["table_signers"])],
            "voided": row["voided"], "void_reason": row["void_reason"]}


def _slip_out(row: dict, text: str) -> dict:
    out = _slip_json(row)
    out["text"] = text
    return out


def _words(m: dict | None) -> str:
    from app.engine.money import dollars
    if m is None:
        return "never opened"

    def d(k):
        return "-" if m[k] is None else dollars(m[k])
    return (f"opener {d('opener')}, fills {d('fills')}, credits {d('credits')}, buy-ins {d('buy_ins')}, "
            f"rounds {m['rounds']} (tray {d('rounds_tray')}, house net {d('rounds_house_net')}), "
            f"expected tray {d('expected_closer')}, closer {d('closer')}, drop {d('drop')}, win {d('win')} "
            f"({m['win_over_drop']} of the drop), difference {d('difference')}")


_ACTIONS = {"open": _tray, "close": _tray, "fill": _slip_action, "credit": _slip_action, "buy-in": _buy_in,
            "drop": _drop, "show": None}
