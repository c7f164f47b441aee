"""The floor-wide shift report and hold from the casino's server (issue 28, ``pitdesk report shift
--pg``, ``pitdesk hold --pg``), read from the sums the server keeps as rows arrive (issue 35,
finding 5: app/store/pg/floor_sums.py), not from logs rebuilt: each pit's figures are made by the
workstation's own code over its sums (the hold, ``hold(..., lines_from=ServerLines)``; each
table shift's money, ``trays.shift_money``), so they are its own report's, to the cent, and the
floor's are added from every pit's tables as a pit's are from its tables (``hold.summed``).

The floor report states each pit's tables: rounds, wagers, wins and losses, banking, money and
the shift's counts (payout slips and their voids, alarms, approval requests, aggregate-limit
applications, progressive hits). What a pit's report lists from its procedures (void rounds,
irregularities, deck and dice changes against their deadlines: the engine's verdicts replayed
over every row) is its own report's: the floor report names each pit's own reports of the shift
printed, with the chain head each printed."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from app.engine.inventory import ShiftMoney
from app.store.pg.floor_counts import COUNT_KEYS, NO_TABLE
from app.store.pg.floor_money import server_lines
from app.store.pg.floor_sums import PitSums, floor_sums

from .hold import HoldError, HoldLine, HoldReport, Total, as_json as hold_json, hold, line_json, summed, total_json, \
    total_of
from .shift_figures import NOT_OPENED, Issued, ReportError, banking_of, digest_of, money_json, pit_money
from .shifts import DEFAULT, Shift, ShiftPlan
from .theoretical import Expectation

NO_COUNTS = dict.fromkeys(COUNT_KEYS, 0)


@dataclass
class FloorTable:
    """One table of a pit, as the floor report states it."""
    table: str
    profiles: tuple[str, ...]
    rounds: int                  # settled rounds counted (a settlement sent back is not)
    sent_back: int
    lines: list[HoldLine]
    total: Total
    banking: list[dict]          # per banking mode: rounds, house_net
    money: ShiftMoney            # its table shifts opened in the shift, added (NOT_OPENED: none)
    counts: dict[str, int]       # app/store/pg/floor_counts.py COUNT_KEYS


class _Summed:
    """A pit's figures or the floor's: its tables' (``tables``) added, as a pit's are."""

    @property
    def lines(self) -> list[HoldLine]:
        return summed([t.lines for t in self.tables])

    @property
    def total(self) -> Total:
        return total_of(self.lines)

    @property
    def rounds(self) -> int:
        return sum(t.rounds for t in self.tables)

    @property
    def money(self) -> ShiftMoney:
        return pit_money(self.tables)

    def count(self, key: str) -> int:
        return sum(t.counts[key] for t in self.tables)


@dataclass
class FloorPit(_Summed):
    """One workstation's pit over the shift, from the server's sums."""
    db_id: str
    name: str | None
    where: str
    events: int
    head: tuple[int, str] | None
    tables: list[FloorTable]
    own_reports: list[dict]

    @property
    def head_text(self) -> str:
        return f"{self.head[0]}:{self.head[1]}" if self.head else "0:(no event before the shift's end)"

    @property
    def label(self) -> str:
        """As a person reads it: "Pit 3 (9f1c2a3b…)", or its id if it has no name."""
        return f"{self.name} ({self.db_id[:8]}…)" if self.name and self.name != self.db_id else self.db_id

    @property
    def short(self) -> str:
        """For a table with many columns: its name, or the first eight of its id (its whole id is
        in the chain heads' table)."""
        return self.name if self.name and self.name != self.db_id else f"{self.db_id[:8]}…"


@dataclass
class FloorReport(_Summed, Issued):
    shift: Shift
    pits: list[FloorPit]             # the workstations with events in the shift
    quiet: list[str]                 # those with none
    made: datetime
    verified: Any = None             # the server's check (app/store/pg/floor_verdict.py)
    number: int | None = None
    copy_of: int | None = None
    printed_by: str | None = None
    printed_at: datetime | None = None

    @property
    def tables(self) -> list[FloorTable]:
        return [t for p in self.pits for t in p.tables]

    @property
    def events(self) -> int:
        return sum(p.events for p in self.pits)

    @property
    def heads(self) -> dict[str, dict | None]:
        """Each workstation's chain head at the shift's end, as its own ``--json`` gives it."""
        return {p.db_id: {"seq": p.head[0], "hash": p.head[1]} if p.head else None for p in self.pits}


def as_named(name: str | None, ws: str) -> tuple:
    """A pit's place in the floor's lists: by its registered name as a person counts ("Pit 2"
    before "Pit 10"), those without a name after, by id."""
    return (name is None, [(0, int(x), "") if x.isdigit() else (1, 0, x) for x in re.split(r"(\d+)", name or "")], ws)


def _table_key(t: str) -> tuple:
    return (t == NO_TABLE, len(t), t)


def floor_pit(sums: PitSums, shift: Shift) -> FloorPit:
    """A workstation's pit from its sums: its hold by the workstation's own code, every table it
    knows or the shift's rows name, in the pit report's order (a rowless table is listed)."""
    h: HoldReport = hold(None, shift.start, shift.end, lines_from=sums.lines)
    names = set(sums.lines.table_ids(None)) | {t.table for t in h.tables} | set(sums.money) | set(sums.counts)
    tables = []
    for t in sorted(names, key=_table_key):
        th = h.table_hold(t)
        tables.append(FloorTable(
            t, th.profiles if th else (), th.rounds if th else 0, th.sent_back if th else 0, th.lines if th else [],
            th.total if th else Total(0, 0, 0, Expectation()), sums.banking.get(t, []),
            sums.money.get(t, NOT_OPENED), {**NO_COUNTS, **sums.counts.get(t, {})}))
    return FloorPit(sums.workstation, sums.name, sums.where, sums.events, sums.head, tables, sums.own_reports)


def read_floor_report(url: str, day: date, name: str, plan: ShiftPlan = DEFAULT, made: datetime | None = None,
                      walked: tuple = ()) -> tuple[FloorReport, tuple | None, list]:
    """The floor's report of shift ``name`` starting on ``day`` from the server's sums; the first
    row where those differ from what was checked (or None) and the marks to remember if none does
    (app/store/pg/floor_sums.py); ReportError if no workstation logged an event in the shift."""
    shift = plan.shift_named(name, day)
    sums, difference, marks = floor_sums(url, shift.start, shift.end, shift.name, walked)
    pits = sorted((floor_pit(s, shift) for s in sums if s.events), key=lambda p: as_named(p.name, p.db_id))
    if not pits:
        raise ReportError(f"no workstation the server holds logged an event in the {shift.label} shift "
                          f"({shift.hours}): nothing to report")
    return (FloorReport(shift, pits, [s.workstation for s in sums if not s.events], made or datetime.now()),
            difference, marks)


def _iso(t: datetime) -> str:
    return t.isoformat(timespec="seconds")


def _figures_json(rounds: int, tables: list[FloorTable], lines: list[HoldLine], total: Total) -> dict:
    """A pit's figures (or the floor's), with the keys of a workstation report's ``pit``."""
    return {"rounds": rounds, "sent_back": sum(t.sent_back for t in tables),
            "wagers": {ln.wager: line_json(ln) for ln in lines}, "total": total_json(total),
            "banking": banking_of(tables),
            **{k: sum(t.counts[k] for t in tables) for k in COUNT_KEYS},
            "money": money_json(pit_money(tables))}


def _table_json(t: FloorTable) -> dict:
    return {"table": t.table, "profiles": list(t.profiles), "rounds": t.rounds, "sent_back": t.sent_back,
            "wagers": {ln.wager: line_json(ln) for ln in t.lines}, "total": total_json(t.total),
            "banking": banking_of([t]), **t.counts, "money": money_json(t.money)}


def _pit_json(p: FloorPit) -> dict:
    return {"db": p.where, "db_id": p.db_id, "name": p.name, "events": p.events,
            "chain_head": {"seq": p.head[0], "hash": p.head[1]} if p.head else None,
            "own_reports": p.own_reports, "pit": _figures_json(p.rounds, p.tables, p.lines, p.total),
            "tables": [_table_json(t) for t in p.tables]}


def floor_json(floor: FloorReport) -> dict:
    """The floor report as JSON: ``pits``, each workstation's figures with the keys of its own
    report's ``pit`` and ``tables`` (its counts as numbers), its chain head and its own reports
    of the shift printed; ``quiet``; ``floor``, the pits' tables added; ``verified``."""
    return {"report": "shift", "scope": "floor", "shift": floor.shift.name, "date": f"{floor.shift.start:%Y-%m-%d}",
            "from": _iso(floor.shift.start), "to": _iso(floor.shift.end), "made": _iso(floor.made),
            "interim": floor.interim, "events": floor.events, "pits": [_pit_json(p) for p in floor.pits],
            "quiet": floor.quiet, "floor": _figures_json(floor.rounds, floor.tables, floor.lines, floor.total),
            **({"verified": floor.verified.as_json()} if floor.verified is not None else {})}


def floor_digest(floor: FloorReport) -> str:
    """The digest of what the floor report says: its shift, whether interim, every pit's figures,
    events, chain head and own reports, and the quiet ones. The same digest printed again is a
    COPY (app/store/pg/floor_reports.py); a workstation more, or one event more in any pit's
    shift, makes another. One marked NOT VERIFIED is never a COPY of one that passed the check."""
    content = {k: v for k, v in floor_json(floor).items() if k not in ("made", "verified")}
    if floor.not_verified:
        content["not_verified"] = floor.verified.words()
    return digest_of(content)


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
    for ws, where, lines, name in sorted(pits, key=lambda p: as_named(p[3], p[0])):
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
