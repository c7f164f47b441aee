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

A fill or credit slip on paper (``fill|credit --number N --pdf FILE``): the slip as the log has it,
both copies, its table's citation at the foot (app/reports/tray_slip.py); read as ``show`` reads,
so nobody signs in and nothing is logged.

The count room's file (``drop --csv FILE``, parsed by app/workstation/count_room.py): a header ``table,denomination,count`` and one line per
table and note value (``T1,$100,12``): every line is checked first (a table not on the floor, a note
value not in ``[chips] currency``, a count that is not a whole number, a table and value given twice,
a table with no closed shift, a drop counted already), and the file is refused naming the line and
the fault, or all its tables' drops are written in one append.
"""

from __future__ import annotations

import json
from pathlib import Path

from .common import InputError, _pin, _read_text

ACTIONS = ("open", "close", "fill", "credit", "buy-in", "drop", "show")


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
    signed.add_argument("--as", dest="name", metavar="NAME", help="who acts, signing in with a PIN (every action "
                                                                  "but show and a slip's --pdf)")
    signed.add_argument("--with", dest="others", action="append", default=[], metavar="NAME",
                        help="a second signer, their PIN on the next line of stdin (repeatable)")
    signed.add_argument("--pin-stdin", action="store_true", help="read the PINs from stdin, one per line")
    count = "the chips by value, as '20 x $100, 40 x $25'"

    for action, text in (("open", "count the opener: the dealer --as, a supervisor --with"),
                         ("close", "count the closer: the dealer --as, a supervisor --with")):
        p = isub.add_parser(action, parents=[floor, signed], help=text, description=text)
        p.add_argument("--table", required=True, metavar="TABLE")
        p.add_argument("--count", required=action == "close", metavar="COUNT",
                       help=count + (" (an opener without it: the last closer carried over)" if action == "open" else ""))
    for kind in ("fill", "credit"):
        p = isub.add_parser(
            kind, parents=[floor, signed], help=f"ask for a {kind}, approve or deny it, sign it, void it",
            description=f"With --table, --count and --reason: a {kind} asked for at the table (a numbered slip and "
                        f"a request in the approvals queue). With --number N: the slip approved (--approve, by a "
                        f"supervisor), denied (--deny REASON), signed at the cage (--sign cage: a cashier --as, "
                        f"security --with) or at the table (--sign table: the dealer and a supervisor), or voided "
                        f"(--void REASON, by a supervisor). A fill is signed at the cage first, a credit at the "
                        f"table first. With --number N --pdf FILE alone: the slip as the log has it now, both "
                        f"copies (ORIGINAL for the drop box, DUPLICATE for the cage), as a PDF; nothing is written "
                        f"to the log and nobody signs in.")
        p.add_argument("--table", metavar="TABLE")
        p.add_argument("--count", metavar="COUNT", help=count)
        p.add_argument("--reason", metavar="TEXT", help="why it is asked for; or the approval's reason")
        p.add_argument("--number", type=int, metavar="N", help=f"the {kind} slip's number")
        act = p.add_mutually_exclusive_group()
        act.add_argument("--approve", action="store_true")
        act.add_argument("--deny", metavar="REASON")
        act.add_argument("--sign", choices=("cage", "table"))
        act.add_argument("--void", metavar="REASON")
        act.add_argument("--pdf", metavar="FILE", help=f"the {kind} slip --number N on paper, as a PDF (no --as)")
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
    if getattr(args, "pdf", None):
        _pdf_first(args)
    elif act is not None and not args.name:
        raise InputError(f"inventory {args.inventory_command} is signed: --as NAME (its PIN on stdin)")
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
        elif getattr(args, "pdf", None):
            out = _slip_pdf(ws, args)
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
        room = _count_room(ws, args.csv)

        def many(others):
            from app.workstation.errors import FieldsRefused
            try:
                ws.inventory.drops(room.drops(), signers=others, source=Path(args.csv).name)
            except FieldsRefused as e:
                raise InputError(str(room.refusal(e))) from None
            out = {"tables": [_table_json(ws, t) for t in room.counts]}
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


def _count_room(ws, path: str):
    """The count room's file checked line by line (app/workstation/count_room.py)."""
    from app.workstation.count_room import CountRoomError, parse
    text = _read_text(path, "count room file")
    try:
        return parse(text, ws.tables(), ws.config.currency.denominations, path)
    except CountRoomError as e:
        raise InputError(str(e)) from None


def _pdf_first(args) -> None:
    """``--pdf``'s arguments, refused before the log is opened: a copy of a slip is read, never signed."""
    from app.reports.whole_file import unwritable
    kind = args.inventory_command
    if args.number is None:
        raise InputError(f"--pdf puts a {kind} slip on paper: name it with --number N")
    if args.number < 1:
        raise InputError(f"--number: a slip's number is 1 or more, got {args.number}")
    if args.table or args.count or args.reason:
        raise InputError(f"--pdf prints {kind} slip {args.number} as the log has it: no --table, --count or --reason")
    if args.name or args.others or args.pin_stdin:
        raise InputError(f"--pdf prints a copy of {kind} slip {args.number}, as show reads: nobody signs in (no "
                         "--as, --with or --pin-stdin)")
    why = unwritable(args.pdf)
    if why:
        raise InputError(f"--pdf {args.pdf}: {why}")


def _slip_pdf(ws, args) -> dict:
    """``--number N --pdf FILE``: the slip's two copies as a PDF, its table's citation at the foot
    (app/reports/tray_slip.py), written whole or not at all."""
    from datetime import datetime

    from .report_command import _app
    kind = args.inventory_command
    row, rule = ws.reads.tray_slip(kind, args.number)
    app = _app()  # noqa: F841  (kept alive while drawing)
    from app.reports.tray_slip import write_slip_pdf
    try:
        path = write_slip_pdf(row, args.pdf, rule=rule, printed=datetime.now().replace(microsecond=0))
    except OSError as e:
        raise InputError(f"--pdf {args.pdf}: {e.strerror or e}; no file written") from None
    out = _slip_json(row)
    out["pdf"] = str(Path(path).resolve())
    out["text"] = f"{kind} slip {args.number} ({row['status']}) on paper: {out['pdf']} (ORIGINAL and DUPLICATE)"
    return out


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
