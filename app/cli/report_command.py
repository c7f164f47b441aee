"""``pitdesk report shift``: the shift report, to a PDF, a printer or JSON (docs/reports.md).

    pitdesk report shift --db PATH --date YYYY-MM-DD --shift NAME --out FILE.pdf
    pitdesk report shift --db PATH --date YYYY-MM-DD --shift NAME --print PRINTER
    pitdesk report shift --db PATH --date YYYY-MM-DD --shift NAME --json
    pitdesk report shift --pg URL --date YYYY-MM-DD --shift NAME (--json | --out FILE.pdf | --print PRINTER)
                                                                     (the floor: docs/casino.md)

A report written or printed is logged in the audit database with its own number (and says COPY
of No. N when report N of its shift said the same: the same figures, rows and chain head; a
report that says anything else is an original); ``--json`` only reads. It is logged as printed (``report_printed``)
only once it is made: the PDF drawn, written beside its path, fsynced and renamed into place
(app/reports/whole_file.py), or the pages taken by the printer. Anything that stops it first (a
write error, SIGTERM, Ctrl-C) logs ``report_failed`` with its number and why, and leaves no file
(issue 26). Exit 2, naming the fault, with nothing logged: a missing database, an unknown shift, a
date that is not one or outside 2000-2100, a shift with no events, a printer that does not exist,
an unreadable configuration, an ``--out`` that is a folder or in a folder that does not exist.
"""

from __future__ import annotations

import getpass
import json
import os
import signal
import socket
import sys
import threading
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path

from .common import EXIT_BAD_INPUT, InputError, _db, _pin, in_years, refuse_floor, refuse_unverified


def add_parser(sub) -> None:
    r = sub.add_parser("report", help="the shift report: PDF, printer or JSON")
    rsub = r.add_subparsers(dest="report_command", metavar="REPORT", required=True)
    s = rsub.add_parser("shift", help="the report of one shift, per table and for the pit",
                        description="The paper record of a shift: per table and for the pit, the rounds, wagers, "
                                    "wins and losses by wager type, commission and fees, banks, aggregate limits, "
                                    "the progressive meter, payout slips, deck and dice changes against their due "
                                    "times, irregularities, alarms, approvals, actual against theoretical hold, "
                                    "and the audit chain's head at the shift's end. A PDF or a print is logged with "
                                    "the report's own number; --json only reads.")
    src = s.add_mutually_exclusive_group()
    src.add_argument("--db", help="the audit database (default: the user data directory)")
    src.add_argument("--pg", metavar="postgresql://USER@HOST/DB",
                     help="the floor: every workstation's report from the casino's server, and their sum; a PDF or "
                          "a print is numbered and recorded by the server (docs/casino.md)")
    s.add_argument("--date", required=True, metavar="YYYY-MM-DD", help="the day the shift starts on")
    s.add_argument("--shift", required=True, metavar="NAME", help="the shift's name (default shifts: grave, day, "
                                                                  "swing; a configuration's [[shifts]] otherwise)")
    out = s.add_mutually_exclusive_group(required=True)
    out.add_argument("--out", metavar="FILE.pdf", help="write the report as a PDF")
    out.add_argument("--print", dest="printer", metavar="PRINTER", help="print the report on this printer")
    out.add_argument("--json", action="store_true", help="print the report's figures as JSON (nothing logged)")
    s.add_argument("--paper", choices=("letter", "a4"), default="letter", help="the paper size (default: letter)")
    s.add_argument("--config", metavar="FILE", help="the workstation's configuration, for its shifts and tables")
    s.add_argument("--as", dest="name", metavar="NAME",
                   help="who prints it: a user of the log, signed in with a PIN (from the terminal, or a line on "
                        "stdin); without it the report says the system user who ran the command")
    s.add_argument("--pin-stdin", action="store_true", help="read the PIN from stdin even on a terminal")
    s.add_argument("--unverified", action="store_true",
                   help="make the report even when the log fails its check: NOT VERIFIED across every page, logged "
                        "as such (without it: exit 1 naming the row and the kind, nothing printed or logged)")


def _day(text: str) -> date:
    try:
        day = date.fromisoformat(text.strip())
    except ValueError:
        raise InputError(f"--date {text!r} is not a date (expected YYYY-MM-DD)") from None
    return in_years("--date", text, day)


def _out_path(text: str) -> Path:
    """``--out``, refused before anything is read or written if it cannot be a file: a folder, or
    in a folder that does not exist or cannot be written (app/reports/whole_file.py)."""
    from app.reports.whole_file import unwritable
    why = unwritable(text)
    if why:
        raise InputError(f"--out {text}: {why}")
    return Path(text)


def _printers() -> list[str]:
    from app.qt import QPrinterInfo
    return [p.printerName() for p in QPrinterInfo.availablePrinters()]


def _app():
    """A Qt application for drawing fonts and pages (no window: offscreen where no display is)."""
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from app.qt import QApplication
    return QApplication.instance() or QApplication(["pitdesk"])


def run(args) -> int:
    from app.store.reading import NotALog, missing
    from app.workstation.shift_figures import ReportError, as_json, read_shift_report
    from app.workstation.shifts import DEFAULT, ShiftError
    day = _day(args.date)
    if args.out is not None:
        _out_path(args.out)
    if args.pg is not None and args.name:
        raise InputError("--as signs in to a workstation's log; the floor's report is recorded on the casino's "
                         "server under the login of --pg, with the system user who ran it")
    db = None if args.pg is not None else _db(args)
    plan, tables = DEFAULT, None
    try:
        if args.config:
            from app.workstation.config import load
            from app.workstation.errors import ConfigError
            try:
                cfg = load(args.config)
            except ConfigError as e:
                raise InputError(str(e)) from None
            plan, tables = cfg.shifts, [t.id for t in cfg.tables]
        if db is None:
            return _floor(args, day, plan)
        if not db.exists():
            raise FileNotFoundError(missing(db))
        plan.shift_named(args.shift, day)          # an unknown shift before the database is read
        report = read_shift_report(db, day, args.shift, plan, tables)
    except (ShiftError, ReportError, NotALog, FileNotFoundError) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if report.not_verified and not args.unverified:
        return refuse_unverified(f"the {report.shift.label} shift's report", report.verified)
    if args.json:
        print(json.dumps(as_json(report), indent=2))
        return 0
    app = _app()  # noqa: F841  (kept alive while drawing)
    if args.printer is not None:
        names = _printers()
        if args.printer not in names:
            print(f"pitdesk: error: --print: no printer named {args.printer!r} (printers: "
                  f"{', '.join(names) or 'none'})", file=sys.stderr)
            return EXIT_BAD_INPUT
    return _issue(args, db, report)


def _floor(args, day: date, plan) -> int:
    """``--pg``: every workstation's report from the casino's server and the floor's sum."""
    from app.store.pg import server
    from app.workstation.floor_report import floor_json, read_floor_report
    plan.shift_named(args.shift, day)          # an unknown shift before the server is asked
    if not args.json:
        app = _app()  # noqa: F841  (kept alive while drawing)
        if args.printer is not None and args.printer not in _printers():
            raise InputError(f"--print: no printer named {args.printer!r} (printers: "
                             f"{', '.join(_printers()) or 'none'})")
    from app.store.pg.chain_marks import remember
    from app.store.pg.floor_verdict import ServerVerified, check_server
    what = f"the floor's {args.shift} shift report"
    try:
        # issue 35, finding 1: only from chains that pass the server's check, walked on from the
        # last check that passed (app/store/pg/chain_marks.py), and sums that match their events
        verified = check_server(args.pg, incremental=True)
        if not verified.ok and not args.unverified:
            return refuse_floor(what, verified)
        floor, differs, marks = read_floor_report(args.pg, day, args.shift, plan, walked=verified.walked)
        if verified.ok and differs is not None:
            verified = ServerVerified(differs[0], differs[1], verified.workstations)
            if not args.unverified:
                return refuse_floor(what, verified)
        if verified.ok:
            remember(args.pg, marks)   # the next check walks on from here
    except server.BadUrl as e:
        raise InputError(str(e)) from None
    except (server.Unreachable, server.NoSchema, server.Refused) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    floor.verified = verified
    if args.json:
        print(json.dumps(floor_json(floor), indent=2))
        return 0
    return _issue_floor(args, floor)


def _not_made(what: str, e: BaseException, failed, cannot: tuple, verb: str, place: str = "") -> int:
    """A report numbered but not made: ``failed(why)`` records it as failed (an error of ``cannot``
    if even that fails), one line says so; the exit code (a signal's, or 2)."""
    said = f"{verb}{place} as failed"
    try:
        failed(_why(e))
    except cannot as why:
        said = f"and it could not be {verb} as failed: {why}"
    print(f"pitdesk: error: {what} was not made: {_why(e)} ({said})", file=sys.stderr)
    if isinstance(e, Terminated):
        return 128 + signal.SIGTERM
    if isinstance(e, KeyboardInterrupt):
        return 128 + signal.SIGINT
    return EXIT_BAD_INPUT


def _issue_floor(args, floor) -> int:
    """The floor's report numbered by the server, made, then recorded there as printed (or as
    failed, with why): as ``_issue`` does with a workstation's log (app/store/pg/floor_reports.py)."""
    import hashlib

    from app.reports.floor_report import floor_pdf_bytes, print_floor
    from app.reports.whole_file import write_then_log
    from app.store.pg import floor_reports, server
    from app.workstation.floor_report import floor_digest
    where_to = f"printer {args.printer}" if args.printer else f"file {Path(args.out).resolve()}"
    place = server.where(server.check_url(args.pg, "--pg"))
    verified = floor.verified
    actor = f"{getpass.getuser()}@{socket.gethostname()}"
    now = datetime.now().replace(microsecond=0)
    heads = floor.heads     # as each pit's own --json says it
    shift, day = floor.shift.name, floor.shift.start.date()
    digest = floor_digest(floor)        # a COPY is the same content printed again
    finding = verified.words() if verified is not None and not verified.ok else None

    def record(status: str, **more) -> None:
        floor_reports.record(args.pg, floor.number, status, shift=shift, day=day, copy_of=floor.copy_of,
                             digest=digest, interim=floor.interim, where_to=where_to, made_by=actor, printed_at=now, heads=heads,
                             finding=finding, **more)

    signals = _Signals()
    with signals.installed():     # from here a SIGTERM or Ctrl-C is recorded as a failed report
        for _ in range(3):        # made again with the next number if another floor report took it meanwhile
            try:
                numbered = floor_reports.next_number(args.pg, shift, day, digest)
            except (server.Unreachable, server.NoSchema, server.Refused) as e:
                print(f"pitdesk: error: {e}", file=sys.stderr)
                return EXIT_BAD_INPUT
            floor.number, floor.copy_of, floor.printed_by, floor.printed_at = numbered.number, numbered.copy_of, actor, now
            try:
                signals.check()
                if args.printer:
                    from app.qt import QPrinter, QPrinterInfo
                    printer = QPrinter(QPrinterInfo.printerInfo(args.printer), QPrinter.PrinterMode.HighResolution)
                    pages = print_floor(floor, place, printer, args.paper)
                    record("printed", pages=pages)
                else:
                    data, pages = floor_pdf_bytes(floor, place, args.paper)
                    signals.check()                 # stopped while it was drawn: nothing is written
                    write_then_log(args.out, data, lambda: record("printed", pages=pages,
                                                                  pdf_sha256=hashlib.sha256(data).hexdigest()))
                break
            except floor_reports.NumberTaken:
                continue
            except (OSError, server.Unreachable, server.Refused, server.NoSchema, KeyboardInterrupt, Terminated) as e:
                return _not_made(f"floor report No. {floor.number}", e, lambda why: record("failed", why=why),
                                 (server.Unreachable, server.Refused, server.NoSchema, floor_reports.NumberTaken),
                                 "recorded", " on the server")
        else:
            print("pitdesk: error: other floor reports kept taking the report's number; try again", file=sys.stderr)
            return EXIT_BAD_INPUT
    print(json.dumps({"number": floor.number, "copy": floor.copy, "copy_of": floor.copy_of, "scope": "floor", "shift": floor.shift.label,
                      "pages": pages, "where": where_to, "printed_by": actor, "server": place,
                      "workstations": heads, "quiet": floor.quiet,
                      **({"verified": verified.as_json()} if verified is not None else {})}, indent=2))
    if signals.pending is not None:     # asked to stop once the report was made and recorded: it was
        return 128 + signals.pending
    return 0


class Terminated(BaseException):
    """SIGTERM while the report was made: it is logged as failed (as Ctrl-C's KeyboardInterrupt is)."""


class _Signals:
    """SIGTERM and Ctrl-C while a report is made, noted and acted on between its steps (``check``):
    an exception raised inside Qt's drawing can end the process with a crash instead, and a report
    renamed into place but not yet logged must never be left so. One noted while the finished
    report is written and logged ends the command once it is logged."""

    def __init__(self) -> None:
        self.pending: int | None = None

    def _note(self, signum, _frame) -> None:
        self.pending = signum

    @contextmanager
    def installed(self):
        if threading.current_thread() is not threading.main_thread():
            yield self      # main() called from a thread (a test): no handler can be set there
            return
        before = {s: signal.signal(s, self._note) for s in (signal.SIGTERM, signal.SIGINT)}
        try:
            yield self
        finally:
            for s, handler in before.items():
                signal.signal(s, handler)

    def check(self) -> None:
        if self.pending == signal.SIGINT:
            raise KeyboardInterrupt
        if self.pending is not None:
            raise Terminated(signal.Signals(self.pending).name)


def _why(e: BaseException) -> str:
    if isinstance(e, Terminated):
        return f"stopped by {e} while it was being made"
    if isinstance(e, KeyboardInterrupt):
        return "interrupted (Ctrl-C) while it was being made"
    return str(e) or type(e).__name__


def _issue(args, db: Path, report) -> int:
    from app.reports.shift_report import pdf_bytes, print_report
    from app.reports.whole_file import write_then_log
    from app.store.log import AuditLog, StoreError
    from app.store.users import UserError, Users
    from app.workstation.shift_figures import NumberTaken, log_failed, log_printed, number_report
    where = f"printer {args.printer}" if args.printer else f"file {Path(args.out).resolve()}"
    try:
        log = AuditLog(db)
    except (StoreError, KeyError) as e:
        print(f"pitdesk: error: the report's number cannot be logged: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    signals = _Signals()
    with log:
        now = datetime.now().replace(microsecond=0)
        if args.name:
            try:
                pin = _pin(args, f"{args.name}'s PIN: ")
                session = Users(log).sign_in(args.name, pin, now)
            except (ValueError, UserError) as e:
                print(f"pitdesk: error: --as {args.name}: {e}", file=sys.stderr)
                return EXIT_BAD_INPUT
            actor, role = session.name, session.role
        else:
            actor, role = f"{getpass.getuser()}@{socket.gethostname()}", "system user"
        with signals.installed():     # from here a SIGTERM or Ctrl-C is logged as a failed report
            for _ in range(3):      # made again with the next number if another workstation took it meanwhile
                number_report(db, report, actor, now)
                try:
                    signals.check()
                    if args.printer:
                        from app.qt import QPrinter, QPrinterInfo
                        printer = QPrinter(QPrinterInfo.printerInfo(args.printer),
                                           QPrinter.PrinterMode.HighResolution)
                        pages = print_report(report, printer, args.paper)   # the printer took it: printed
                        log_printed(log, report, where, actor, role, now, number=report.number)
                    else:
                        data, pages = pdf_bytes(report, args.paper)
                        signals.check()                 # stopped while it was drawn: nothing is written
                        write_then_log(args.out, data,      # made, but not logged: removed, not issued
                                       lambda: log_printed(log, report, where, actor, role, now, number=report.number))
                    break
                except NumberTaken:
                    continue
                except (OSError, StoreError, KeyboardInterrupt, Terminated) as e:
                    return _not_made(f"report No. {report.number}", e,
                                     lambda why: log_failed(log, report, where, actor, role, now, why),
                                     (StoreError,), "logged")
            else:
                print("pitdesk: error: other workstations kept taking the report's number; try again",
                      file=sys.stderr)
                return EXIT_BAD_INPUT
    print(json.dumps({"number": report.number, "copy": report.copy, "copy_of": report.copy_of,
                      "shift": report.shift.label,
                      "pages": pages, "where": where, "printed_by": actor,
                      "chain_head": report.head_text,
                      "verified": report.verified.as_json() if report.verified is not None else None}, indent=2))
    if signals.pending is not None:     # asked to stop once the report was made and logged: it was
        return 128 + signals.pending
    return 0
