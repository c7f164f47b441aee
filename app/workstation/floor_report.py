"""The floor-wide shift report and hold from the casino's server (issue 28, ``pitdesk report shift
--pg``, ``pitdesk hold --pg``): every workstation's own report, made by the workstation's own code
over its log as the server holds it (app/store/pg/rebuild.py), and the floor's sum.

Its JSON keeps the workstation report's shape: ``pits``, one entry per workstation with events in
the shift, each as that workstation's own ``--json`` report (its ``db`` names the server and the
workstation), and ``floor``, the sum, with the keys of a report's ``pit``: its figures are added
from every pit's tables as a pit's are from its tables (``hold.summed``), so they are the sum of
the pits' to the cent."""

from __future__ import annotations

from datetime import date, datetime

from app.store.pg.floor_money import server_lines
from app.store.pg.rebuild import rebuilt_logs

from .hold import HoldError, HoldReport, as_json as hold_json, hold, summed, total_of
from .shift_figures import ReportError, ShiftReport, as_json, content_digest, digest_of, shift_report
from .shifts import DEFAULT, ShiftPlan


def read_floor_report(url: str, day: date, name: str, plan: ShiftPlan = DEFAULT,
                      made: datetime | None = None) -> tuple[list[ShiftReport], list[str]]:
    """Each workstation's report of shift ``name`` starting on ``day``, and the workstations that
    logged nothing in it; ReportError if none did."""
    shift = plan.shift_named(name, day)
    made = made or datetime.now()
    reports, quiet = [], []
    for log in rebuilt_logs(url):
        try:
            reports.append(shift_report(log.conn, shift, None, made, log.where, log.workstation))
            reports[-1].name = log.name
        except ReportError:
            quiet.append(log.workstation)   # this workstation logged nothing in the shift
    if not reports:
        raise ReportError(f"no workstation the server holds logged an event in the {shift.label} shift "
                          f"({shift.hours}): nothing to report")
    return reports, quiet


def floor_figures(reports: list[ShiftReport], verified=None) -> ShiftReport:
    """The floor as one report: every pit's tables, their lines summed as one pit's; ``verified``
    the server's check of the chains it was read from (app/store/pg/floor_verdict.py): one that
    failed marks it NOT VERIFIED."""
    tables = [t for r in reports for t in r.tables]
    lines = summed([t.lines for t in tables])
    first = reports[0]
    floor = ShiftReport(first.shift, "floor", "floor", tables, lines, total_of(lines), None,
                        sum(r.events for r in reports), first.made)
    floor.verified = verified
    return floor


def floor_digest(reports: list[ShiftReport], quiet: list[str], verified=None) -> str:
    """The digest of what the floor report says: its shift, whether interim, each workstation's
    own report's content (``content_digest``: its figures, rows and chain head) and the quiet
    ones. The same digest printed again is a COPY (app/store/pg/floor_reports.py); a workstation
    more, or one event more in any pit's shift, makes another. One marked NOT VERIFIED is never a
    COPY of one that passed the server's check."""
    first = reports[0]
    content = {"scope": "floor", "shift": first.shift.name, "date": f"{first.shift.start:%Y-%m-%d}",
               "interim": first.interim, "pits": {r.db_id: content_digest(r) for r in reports},
               "quiet": sorted(quiet)}
    if verified is not None and not verified.ok:
        content["not_verified"] = verified.words()
    return digest_of(content)


def floor_json(reports: list[ShiftReport], quiet: list[str], verified=None) -> dict:
    first = as_json(reports[0])
    floor = as_json(floor_figures(reports))
    # each workstation numbers its own slips: the floor's unused numbers are each pit's, together
    floor["pit"]["unused_numbers"] = {k: {r.db_id: r.unused_numbers[k] for r in reports if r.unused_numbers[k]}
                                      for k in floor["pit"]["unused_numbers"]}
    return {"report": "shift", "scope": "floor", "shift": first["shift"], "date": first["date"],
            "from": first["from"], "to": first["to"], "made": first["made"], "interim": first["interim"],
            "events": floor["events"], "pits": [{**as_json(r), "name": r.name} for r in reports], "quiet": quiet,
            "floor": floor["pit"], **({"verified": verified.as_json()} if verified is not None else {})}


def read_floor_hold(url: str, start: datetime | None, end: datetime | None, table: str | None = None,
                    walked: tuple = ()) -> tuple[list[tuple[str, str, HoldReport, str | None]], tuple | None, list]:
    """Each workstation's hold over the period, as ``pitdesk hold`` reads its own log but from the
    sums the server keeps as rows arrive (app/store/pg/floor_money.py; issue 35, finding 5):
    (its id, where it was read, its hold, its registered name); with ``table``, the workstations
    that have that table, HoldError if none has; and the first row where the server's sums differ
    from what was checked ((workstation, finding), None if none does: app/store/pg/floor_money.py
    ``server_lines``, ``walked`` the chain check's) and the marks to remember if none does."""
    out = []
    pits, difference, marks = server_lines(url, start, end, table, walked)
    for ws, where, lines, name in pits:
        try:
            out.append((ws, where, hold(None, start, end, table, lines_from=lines), name))
        except HoldError:
            if table is None:
                raise
    if table is not None and not out:
        raise HoldError(f"no workstation the server holds has a table {table!r}")
    return out, difference, marks


def floor_hold_json(holds: list[tuple[str, str, HoldReport, str | None]], start: datetime | None, end: datetime | None,
                    table: str | None, verified=None) -> dict:
    """``pits``: each workstation's ``pitdesk hold --json``; ``floor``: the pit's keys over every
    pit's tables, with their rounds; ``verified``: the server's check of the chains."""
    tables = [t for _, _, h, _ in holds for t in h.tables]
    floor = hold_json(HoldReport(start, end, table, tables, summed([t.lines for t in tables])))
    return {"scope": "floor", "from": floor["from"], "to": floor["to"], "table": table,
            "pits": [{"db": where, "db_id": ws, "name": name, **hold_json(h)} for ws, where, h, name in holds],
            "floor": {"rounds": floor["rounds"], "sent_back": floor["sent_back"], **floor["pit"]},
            **({"verified": verified.as_json()} if verified is not None else {})}


def pit_label(r: ShiftReport) -> str:
    """A floor report's pit as a person reads it: "Pit 3 (9f1c2a3b…)", or its id if it has no name."""
    return f"{r.name} ({r.db_id[:8]}…)" if r.name and r.name != r.db_id else r.db_id
