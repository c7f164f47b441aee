"""The shift report: the paper record of a shift, per table and for the pit (docs/reports.md).

``shift_report(conn, shift)`` reads the store's read models only (app/store/shiftlog.py and the
hold, app/workstation/hold.py) and adds no rule of its own: every figure is a sum of logged
cents, every list a set of logged rows. The pit's figures are the sums of its tables'.

A printed report is logged (``report_printed``): its own number, one more than the last report's
(so a gap in the numbers shows a report that went missing), the shift, who printed it and where,
the chain head printed on it, and the digest of what it says (``content_digest``: its figures,
rows and chain head). A report printed again with the same digest as one printed before is a
COPY of that one, and says so with that one's number (``copy_of``); a report whose figures
differ from every one printed before (an interim report made later in the shift) is a new
original, however many of its shift were printed before.

The chain head is the last event logged before the shift's end: its sequence number and hash, as
``pitdesk audit verify --head SEQ:HASH`` takes it. A history rewritten after the report was
printed no longer ends at that head.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import Any

from app.engine.inventory import SLIP_KINDS, ShiftMoney, sum_money
from app.store import rows, shiftlog, trays
from app.store.figures_check import checked
from app.store.reading import log_meta, read_db

from .hold import LABELS, HoldLine, TableHold, Total, hold, line_json, total_json
from .pace import hours as pace_hours
from .pace import pit_hours
from .ratings import by_player, ratings
from .shifts import DEFAULT, Shift, ShiftPlan
from .theoretical import Expectation

# the wager types the report lists, in its order (the issue's: base, Fortune, envy, toke,
# insurance, three-card, seven-card, Ace-High, additional, progressive, with the banks and fees)
BANKING = ("house", "player", "co-bank", "player-dealer")
BANKING_LABEL = {"house": "House banks", "player": "Player bank", "co-bank": "Co-bank",
                 "player-dealer": "Player-dealer (002)"}


NO_TABLE = "(no table)"      # the section of rows logged without a table (a pit-wide alarm)


NOT_OPENED = ShiftMoney(shifts=0)    # a table with no opener in the shift: zeros, nothing counted


def pit_money(tables) -> ShiftMoney:
    """The money of ``tables`` (TableSections) added: those with a shift opened in the report's
    shift (a table never opened adds nothing, and leaves the pit's win known); NOT_OPENED if none."""
    opened = [t.money for t in tables if t.money.shifts]
    return sum_money(opened) if opened else NOT_OPENED


def money_json(m: ShiftMoney) -> dict:
    """``ShiftMoney.as_json()`` and how many of the table's shifts it adds (0: not opened)."""
    return {**m.as_json(), "shifts": m.shifts}


class ReportError(ValueError):
    """A report that cannot be made; the message names the fault (exit 2 on the command line)."""


@dataclass
class TableSection:
    table: str
    profiles: tuple[str, ...]
    rounds: int                      # settled rounds counted (a settlement sent back is not)
    void_rounds: int
    sent_back: int
    lines: list[HoldLine]
    total: Total
    banking: list[dict]              # per banking mode: rounds, house_net
    aggregate_limits: list[dict]     # approval requests of kind aggregate_limit
    meter: dict | None               # start, end, resets; None: no meter at this table
    hits: list[dict]                 # progressive hits (approval requests), in the order made
    slips: list[dict]
    decks: list[dict]
    dice: list[dict]
    irregularities: list[dict]
    alarms: list[dict]
    approvals: list[dict]
    # the pit's money (issue 34): the table's shifts opened within the report's shift, added
    # (inventory.sum_money); a table with no opener in it: ShiftMoney(shifts=0), zeros and nothing
    # counted (closer, drop, win and difference None)
    money: ShiftMoney = field(default_factory=lambda: NOT_OPENED)
    tray_slips: list[dict] = field(default_factory=list)    # its fill and credit slips requested in the shift
    pace: list = field(default_factory=list)          # its clock hours with rounds (pace.PaceHour, issue 36)

    @property
    def late(self) -> int:
        return sum(1 for d in self.decks if d["late"]) + sum(1 for d in self.dice if d["late"])


class Issued:
    """What a report printed says of itself (a pit's and the floor's, app/workstation/floor_report.py):
    NOT VERIFIED, COPY, INTERIM. Needs ``verified``, ``copy_of``, ``made`` and ``shift``."""

    @property
    def not_verified(self) -> bool:
        """Read from a record that failed its check (printed only when asked, marked NOT VERIFIED)."""
        return self.verified is not None and not self.verified.ok

    @property
    def copy(self) -> bool:
        """A reprint: the same content as a report printed before (``copy_of``)."""
        return self.copy_of is not None

    @property
    def interim(self) -> bool:
        """Made before the shift ended: its figures are the shift so far, and it says so on every page."""
        return self.made < self.shift.end


@dataclass
class ShiftReport(Issued):
    shift: Shift
    db: str
    db_id: str
    tables: list[TableSection]
    pit_lines: list[HoldLine]
    pit_total: Total
    head: tuple[int, str] | None
    events: int                      # events logged in the shift
    made: datetime                   # when the figures were read
    number: int | None = None        # the report's own number once logged as printed
    copy_of: int | None = None       # a reprint: the number of the report first printed with its content
    printed_by: str | None = None
    printed_at: datetime | None = None
    verified: Any = None             # the check of the record it was read from (app/store/figures_check.py)
    ratings: list = field(default_factory=list)     # the rated players of the shift (ratings.Player, issue 36)

    @property
    def rounds(self) -> int:
        return sum(t.rounds for t in self.tables)

    @property
    def void_rounds(self) -> int:
        return sum(t.void_rounds for t in self.tables)

    @property
    def head_text(self) -> str:
        return f"{self.head[0]}:{self.head[1]}" if self.head else "0:(no event before the shift's end)"

    @property
    def money(self) -> ShiftMoney:
        """The pit's money: its tables' that had a shift opened in the report's shift, added
        (``NOT_OPENED`` if none had)."""
        return pit_money(self.tables)

    @property
    def tray_slips(self) -> list[dict]:
        """Every table's fill and credit slips, fills first, each kind in number order."""
        return sorted((s for t in self.tables for s in t.tray_slips), key=lambda s: (s["kind"] != "fill", s["number"]))

    @property
    def unused_numbers(self) -> dict[str, list[int]]:
        """Per kind, the numbers missing between the first and the last slip of the shift."""
        return {k: trays.unused_numbers([s["number"] for s in self.tray_slips if s["kind"] == k]) for k in SLIP_KINDS}

    def section(self, table: str) -> TableSection | None:
        return next((t for t in self.tables if t.table == table), None)


def _iso(t: datetime) -> str:
    return t.isoformat(timespec="seconds")


def shift_report(conn, shift: Shift, tables: list[str] | None = None, made: datetime | None = None,
                 db: str = "", db_id: str = "") -> ShiftReport:
    """The report of ``shift`` over the log on ``conn`` (read-only is enough). ``tables``: the
    floor's tables in its order (every table the log knows otherwise; a quiet table is listed)."""
    s, e = _iso(shift.start), _iso(shift.end)
    made = made or datetime.now()
    at = made.isoformat()           # LATE as of the moment the report speaks for (shiftlog._late)
    if shiftlog.events_in(conn, s, e) == 0:
        raise ReportError(f"no events in the {shift.label} shift ({shift.hours}): nothing to report")
    h = hold(conn, shift.start, shift.end)
    by: dict[tuple[str, str | None], list[dict]] = {}
    for name, found in (("rounds", shiftlog.rounds(conn, s, e)), ("banking", shiftlog.banking(conn, s, e)),
                        ("meter", shiftlog.meter(conn, s, e)), ("approvals", shiftlog.approvals(conn, s, e)),
                        ("slips", shiftlog.slips(conn, s, e)), ("decks", shiftlog.decks(conn, s, e, as_of=at)),
                        ("dice", shiftlog.dice(conn, s, e, as_of=at)),
                        ("irregularities", shiftlog.irregularities(conn, s, e)),
                        ("alarms", shiftlog.alarms(conn, s, e))):
        for r in found:
            by.setdefault((name, r["table_id"] if r["table_id"] is not None else NO_TABLE), []).append(r)
    # the floor's tables in its order, then any other table the shift's rows name (a table taken
    # off the floor, rows of no table): nothing logged in the shift is left out of the pit's sums
    known = list(tables or [])
    if not tables:
        from app.store.hold_lines import table_ids
        known = sorted(table_ids(conn), key=lambda x: (len(x), x))
    for t in [x.table for x in h.tables] + sorted({k[1] for k in by} - {NO_TABLE}) + \
            ([NO_TABLE] if any(k[1] == NO_TABLE for k in by) else []):
        if t not in known:
            known.append(t)
    money: dict[str, list[ShiftMoney]] = {}
    for o in trays.shifts_opened(conn, s, e):
        money.setdefault(o["table_id"], []).append(trays.shift_money(conn, o["seq"]))
    tray_slips: dict[str, list[dict]] = {}
    for slip in trays.slips(conn, s, e):
        tray_slips.setdefault(slip["table_id"], []).append(slip)
    paces: dict[str, list] = {}
    for ph in pace_hours(conn, shift.start, shift.end):
        paces.setdefault(ph.table, []).append(ph)
    for t in sorted(set(money) | set(tray_slips)):
        if t not in known:
            known.append(t)
    sections = []
    for t in known:
        th: TableHold | None = h.table_hold(t)
        rounds = (by.get(("rounds", t)) or [{"settled": 0, "void": 0}])[0]
        approvals = by.get(("approvals", t), [])
        meter = (by.get(("meter", t)) or [None])[0]
        sections.append(TableSection(
            t, th.profiles if th else (), th.rounds if th else 0, rounds["void"] or 0, th.sent_back if th else 0,
            th.lines if th else [], th.total if th else Total(0, 0, 0, Expectation()),
            by.get(("banking", t), []), [a for a in approvals if a["kind"] == "aggregate_limit"], meter,
            [a for a in approvals if a["kind"] == "progressive_meter_payout"], by.get(("slips", t), []),
            by.get(("decks", t), []), by.get(("dice", t), []), by.get(("irregularities", t), []),
            by.get(("alarms", t), []), approvals,
            sum_money(money[t]) if t in money else NOT_OPENED, tray_slips.get(t, []), paces.get(t, [])))
    rated = by_player(ratings(conn, shift.start, shift.end), min(made, shift.end), shift.start, shift.end)
    return ShiftReport(shift, db, db_id, sections, h.pit, h.total, shiftlog.chain_head(conn, e),
                       shiftlog.events_in(conn, s, e), made, ratings=rated)


def read_shift_report(db: Path, day: date, name: str, plan: ShiftPlan = DEFAULT, tables: list[str] | None = None,
                      made: datetime | None = None, verify: bool = True) -> ShiftReport:
    """The report of shift ``name`` starting on ``day``, read-only from the database at ``db``
    (app/store/reading.py: nothing written beside it, the live workstation's WAL read). With
    ``verify`` the log is checked first and the report read in the snapshot checked (issue 35,
    finding 1: app/store/figures_check.py); ``report.verified`` says what the check found."""
    shift = plan.shift_named(name, day)

    def work(conn, access):
        meta = log_meta(conn, Path(db))
        return shift_report(conn, shift, tables, made, str(db), meta["db_id"])

    if not verify:
        return read_db(Path(db), work)[0]
    verified, report = checked(db, work)
    report.verified = verified
    return report


# -- the report's number, logged ---------------------------------------------------------------------
class NumberTaken(Exception):
    """Another workstation logged a report with the number this one was made with, meanwhile: it is
    made again with the next (app/cli/report_command.py)."""


def next_number(numbers: list[int]) -> int:
    return max(numbers, default=0) + 1


# what a report says that is not its content: the number and COPY it is printed with, when it was
# made (a reprint made later says the same), the path it was read from
NOT_CONTENT = ("number", "copy", "copy_of", "made", "db", "verified")


def digest_of(content: dict) -> str:
    """The sha256 of ``content`` as canonical JSON (sorted keys, no spaces)."""
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def content_digest(report: ShiftReport) -> str:
    """The digest of what ``report`` says: every figure and row of ``as_json``, the shift, whether
    it is interim and the chain head, without its number, COPY, the moment it was made or the path
    read. Two reports with one digest say the same; a report that differs in one cent, one row or
    one event logged in its shift has another."""
    content = {k: v for k, v in as_json(report).items() if k not in NOT_CONTENT}
    if report.not_verified:      # a report marked NOT VERIFIED is never a COPY of one that passed
        content["not_verified"] = report.verified.words()
    return digest_of(content)


def copy_of(printed: list[dict], report: ShiftReport, scope: str = "pit", digest: str | None = None) -> int | None:
    """The number of the report of ``report``'s shift and scope first printed with the same
    content (``digest``, else ``content_digest(report)``): ``report`` printed now is a COPY of it.
    None: no report printed before said the same (a report logged before digests were recorded
    is never the same), so it is an original with a number of its own."""
    digest = digest or content_digest(report)
    for p in printed:
        if p.get("shift") == report.shift.name and p.get("date") == f"{report.shift.start:%Y-%m-%d}" \
                and p.get("scope", "pit") == scope and p.get("digest") == digest:
            return p.get("copy_of") or p["number"]
    return None


def printed_record(report: ShiftReport, number: int, copy_of_: int | None, where: str, scope: str = "pit",
                   digest: str | None = None) -> dict:
    """The ``report_printed`` event's data."""
    return {"kind": "shift", "number": number, "shift": report.shift.name, "date": f"{report.shift.start:%Y-%m-%d}",
            "from": _iso(report.shift.start), "to": _iso(report.shift.end), "scope": scope,
            "copy": copy_of_ is not None, "copy_of": copy_of_, "digest": digest or content_digest(report),
            "where": where, "head": report.head_text, "rounds": report.rounds,
            **({"verified": False, "finding": report.verified.as_json()["finding"]} if report.not_verified else {})}


def number_report(db: Path | str, report: ShiftReport, actor: str, when: datetime, scope: str = "pit") -> ShiftReport:
    """Give ``report`` the number it will be logged with (one more than any report numbered before,
    printed or failed) and COPY if a report of its shift printed before said the same (``copy_of``),
    read from ``db`` without writing:
    the report is made first and logged as printed only once it is made (``log_printed(...,
    number=...)``, which refuses a number taken meanwhile)."""
    digest = content_digest(report)

    def work(conn, _access):
        return next_number(shiftlog.report_numbers(conn)), copy_of(shiftlog.reports_printed(conn), report, scope, digest)

    (report.number, report.copy_of), _ = read_db(Path(db), work)
    report.printed_by, report.printed_at = actor, when
    return report


def log_printed(log, report: ShiftReport, where: str, actor: str, role: str, when: datetime,
                scope: str = "pit", number: int | None = None) -> ShiftReport:
    """Log the report as printed through the open audit log ``log`` (app/store/log.py): numbered
    one more than the last report, COPY if a report of its shift printed before said the same
    (``copy_of``). The number is decided
    inside the writer's transaction, so two workstations printing at once never share one. The
    report gets its number, COPY, who and when. With ``number`` (a report already made with the
    number ``number_report`` gave it), NumberTaken if that is no longer the next, nothing logged."""
    digest = content_digest(report)

    def prepare(conn, data):
        given = next_number(shiftlog.report_numbers(conn))
        original = copy_of(shiftlog.reports_printed(conn), report, scope, digest)
        if number is not None and (given != number or original != report.copy_of):
            raise NumberTaken(f"report No. {number} was numbered by another workstation meanwhile")
        data.update(printed_record(report, given, original, where, scope, digest))

    data = log.write([rows.report_printed(when, actor, role, prepare)])[0].data
    report.number, report.copy_of = data["number"], data["copy_of"]
    report.printed_by, report.printed_at = actor, when
    return report


def log_failed(log, report: ShiftReport, where: str, actor: str, role: str, when: datetime, reason: str) -> int:
    """A report numbered but not printed (the printer refused, the file could not be written): the
    number's gap explained in the log."""
    return log.append_many([rows.report_failed(when, actor, role, report.number, report.shift.name,
                                               f"{report.shift.start:%Y-%m-%d}", where, reason)])[0]


# -- JSON --------------------------------------------------------------------------------------------
def _section_json(t: TableSection) -> dict:
    return {"table": t.table, "profiles": list(t.profiles), "rounds": t.rounds, "void_rounds": t.void_rounds,
            "sent_back": t.sent_back,
            "wagers": {ln.wager: line_json(ln) for ln in t.lines}, "total": total_json(t.total),
            "banking": {b["banking"]: {"rounds": b["rounds"], "house_net": b["house_net"]} for b in t.banking},
            "aggregate_limits": t.aggregate_limits, "meter": t.meter, "hits": t.hits, "slips": t.slips,
            "decks": t.decks, "dice": t.dice, "late_changes": t.late, "irregularities": t.irregularities,
            "alarms": t.alarms, "approvals": t.approvals, "money": money_json(t.money),
            "tray_slips": [tray_slip_json(x) for x in t.tray_slips],
            "pace": [{k: v for k, v in h.as_json().items() if k != "table"} for h in t.pace]}


def tray_slip_json(row: dict) -> dict:
    """A fill or credit slip as the report lists it: its read model's row, the counts and the
    signers as JSON rather than text."""
    out = dict(row)
    out["count"] = {str(v): n for v, n in sorted(trays.count_of(row).items())}
    for end in ("cage", "table"):
        out[f"{end}_signers"] = [list(x) for x in trays.signers_of(row.get(f"{end}_signers"))]
    return out


def banking_of(tables) -> dict:
    """The banking modes of ``tables`` (each with ``banking``, a list of rows), added: {mode: rounds, house_net}."""
    out: dict[str, dict] = {}
    for t in tables:
        for b in t.banking:
            o = out.setdefault(b["banking"], {"rounds": 0, "house_net": 0})
            o["rounds"] += b["rounds"]
            o["house_net"] += b["house_net"]
    return out


def pit_banking(report: ShiftReport) -> dict:
    return banking_of(report.tables)


def as_json(r: ShiftReport) -> dict:
    return {
        "report": "shift", "db": r.db, "db_id": r.db_id, "shift": r.shift.name, "date": f"{r.shift.start:%Y-%m-%d}",
        "from": _iso(r.shift.start), "to": _iso(r.shift.end), "events": r.events,
        "chain_head": {"seq": r.head[0], "hash": r.head[1]} if r.head else None,
        "number": r.number, "copy": r.copy, "copy_of": r.copy_of, "interim": r.interim, "made": _iso(r.made),
        "pit": {"rounds": r.rounds, "void_rounds": r.void_rounds,
                "sent_back": sum(t.sent_back for t in r.tables),
                "wagers": {ln.wager: line_json(ln) for ln in r.pit_lines}, "total": total_json(r.pit_total),
                "banking": pit_banking(r),
                "slips": sum(len(t.slips) for t in r.tables),
                "void_slips": sum(1 for t in r.tables for s in t.slips if s["status"] == "VOID"),
                "late_changes": sum(t.late for t in r.tables),
                "irregularities": sum(len(t.irregularities) for t in r.tables),
                "alarms": sum(len(t.alarms) for t in r.tables),
                "approvals": sum(len(t.approvals) for t in r.tables),
                "aggregate_limits": sum(len(t.aggregate_limits) for t in r.tables),
                "money": money_json(r.money), "tray_slips": len(r.tray_slips),
                "void_tray_slips": sum(1 for x in r.tray_slips if x["status"] == "VOID"),
                "unused_numbers": r.unused_numbers},
        "tables": [_section_json(t) for t in r.tables],
        # the pit's clock hours: its tables' rounds and wagers added (issue 36)
        "pace": [h.as_json() for h in pit_hours(r.tables)],
        # the rated players of the shift, each card's ratings added (issue 36, docs/ratings.md)
        "ratings": [p.as_json() for p in r.ratings],
        **({"verified": r.verified.as_json()} if r.verified is not None else {}),
    }


__all__ = ["ShiftReport", "TableSection", "ReportError", "shift_report", "read_shift_report", "log_printed", "log_failed",
           "as_json", "LABELS", "BANKING", "BANKING_LABEL", "next_number", "copy_of",
           "content_digest", "digest_of"]
