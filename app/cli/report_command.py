"""``pitdesk report shift``: the shift report, to a PDF, a printer or JSON (docs/reports.md).

    pitdesk report shift --db PATH --date YYYY-MM-DD --shift NAME --out FILE.pdf
    pitdesk report shift --db PATH --date YYYY-MM-DD --shift NAME --print PRINTER
    pitdesk report shift --db PATH --date YYYY-MM-DD --shift NAME --json

A report written or printed is logged in the audit database with its own number (and says COPY
when its shift was printed before); ``--json`` only reads. Exit 2, naming the fault, with nothing
logged: a missing database, an unknown shift, a date that is not one, a shift with no events, a
printer that does not exist, an unreadable configuration.
"""

from __future__ import annotations

import getpass
import json
import os
import socket
import sys
from datetime import date, datetime
from pathlib import Path

from .common import EXIT_BAD_INPUT, InputError, _db, _pin


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
    s.add_argument("--db", help="the audit database (default: the user data directory)")
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


def _day(text: str) -> date:
    try:
        return date.fromisoformat(text.strip())
    except ValueError:
        raise InputError(f"--date {text!r} is not a date (expected YYYY-MM-DD)") from None


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
    db = _db(args)
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
        if not db.exists():
            raise FileNotFoundError(missing(db))
        plan.shift_named(args.shift, day)          # an unknown shift before the database is read
        report = read_shift_report(db, day, args.shift, plan, tables)
    except (ShiftError, ReportError, NotALog, FileNotFoundError) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
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


def _issue(args, db: Path, report) -> int:
    from app.reports.shift_report import print_report, write_pdf
    from app.store.log import AuditLog, StoreError
    from app.store.users import UserError, Users
    from app.workstation.shift_figures import log_failed, log_printed
    where = f"printer {args.printer}" if args.printer else f"file {Path(args.out).resolve()}"
    try:
        log = AuditLog(db)
    except (StoreError, KeyError) as e:
        print(f"pitdesk: error: the report's number cannot be logged: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
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
        log_printed(log, report, where, actor, role, now)
        try:
            if args.printer:
                from app.qt import QPrinter, QPrinterInfo
                printer = QPrinter(QPrinterInfo.printerInfo(args.printer), QPrinter.PrinterMode.HighResolution)
                pages = print_report(report, printer, args.paper)
            else:
                _, pages = write_pdf(report, args.out, args.paper)
        except OSError as e:
            log_failed(log, report, where, actor, role, now, str(e))
            print(f"pitdesk: error: report No. {report.number} was not made: {e} (logged as failed)",
                  file=sys.stderr)
            return EXIT_BAD_INPUT
    print(json.dumps({"number": report.number, "copy": report.copy, "shift": report.shift.label,
                      "pages": pages, "where": where, "printed_by": actor,
                      "chain_head": report.head_text}, indent=2))
    return 0
