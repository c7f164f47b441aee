"""The hold: per table and for the pit, over a period, what the house kept of what was wagered
against it, beside what the engine says it should keep.

``hold(conn, start, end, table=None)`` reads the settled rounds as logged (app/store/hold_lines.py)
and gives, per table and per wager type: ``wagered`` (the stakes of the wagers the house took
action on), ``house_won``, ``house_lost``, ``commission``, ``collection_fees`` and
``to_meter`` (cents, from the ledger lines to and from the house), ``house_net`` (their sum:
won + commission + fees - lost - to_meter), the actual hold (house_net / wagered) and the
theoretical hold (app/workstation/theoretical.py) of the same wagers at the same stakes and
profiles. The pit is the sum of the tables. Fractions stay exact until they are printed.

The wager types, and whose action each is (the ledger says who pays whom):
- ``base``: the base wager in a round the house banks (000(l)); commission on its wins;
- ``bank``: a round banked by a player or a co-bank (000(m)(12)-(15)): the base wagers against
  the bank are its ``wagered``, the house's take is the commission on the players' wins against
  the bank, the vigorish on the bank's surplus, and in a co-bank its half of the surplus or of
  the shortfall (000(m)(13));
- ``dealer_wager``: the house's own wager against a player bank (000(m)(11), (14));
- ``collection_fee``: 002's posted fees (002 COLLECTION PROCEDURES); in 002 the player-dealer,
  not the house, takes the base, Fortune, Ace-High and envy action (002 TYPE OF GAME), so those
  wagers are nobody's action of the house's;
- ``fortune``, ``fortune_toke`` (003 GENERAL RULES 6), ``insurance``, ``three_card``,
  ``seven_card``, ``ace_high``, ``additional`` (000(p)), ``progressive`` (000(q)): the side
  wagers, banked by the house in every mode but 002's;
- ``envy``: paid by the house for another player's hand (000(r)); not a wager, nothing wagered.

The progressive's ``house_net`` is the table inventory's (000(q)(2), (5)): the wagers kept less
the wins paid from the inventory and what went to the meter (the rate of progression, and the
house funding the meter back to its reset, 000(q)(6)); wins paid off the meter are the meter's.
Its theoretical hold is docs/analysis.md's, at the minimum reset meter.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

from app.store import hold_lines as store
from app.store.figures_check import checked
from app.store.reading import log_meta, read_db

from .theoretical import NOT_PRICED, Expectation, Theoretical, expectation, theoretical

# the order the hold is shown in
WAGER_TYPES = ("base", "bank", "dealer_wager", "collection_fee", "fortune", "fortune_toke", "envy", "insurance",
               "three_card", "seven_card", "ace_high", "additional", "progressive")
LABELS = {"base": "Base", "bank": "Player bank", "dealer_wager": "Dealer's wager", "collection_fee": "Collection fees",
          "fortune": "Fortune", "fortune_toke": "Toke bets", "envy": "Envy", "insurance": "Insurance",
          "three_card": "Three-card", "seven_card": "Seven-card", "ace_high": "Ace-High", "additional": "Additional",
          "progressive": "Progressive"}
PLAYER_BANKS = ("player", "co-bank")
PLAYER_DEALER = "player-dealer"
_RENAME = {"dealer wager": "dealer_wager", "collection fee": "collection_fee"}


class HoldError(ValueError):
    """A bad request for the hold; the message names the fault."""


def wager_type(wager: str, banking: str) -> str | None:
    """The hold's wager type of a logged wager in a round of ``banking``; None where the house
    takes no action on it (the player-dealer's, 002 TYPE OF GAME)."""
    if banking == PLAYER_DEALER:
        return "collection_fee" if wager == "collection fee" else None
    if banking in PLAYER_BANKS and wager in ("base", "bank"):
        return "bank"   # 000(m)(12): the base wagers are the bank's action
    if wager in ("bank", "player-dealer"):
        return None
    return _RENAME.get(wager, wager)


@dataclass
class HoldLine:
    """One wager type's figures (cents) at a table or the pit."""

    wager: str
    wagered: int = 0
    house_won: int = 0
    house_lost: int = 0
    commission: int = 0
    collection_fees: int = 0
    to_meter: int = 0
    expected: Expectation | None = None       # None: not priced
    unpriced: int = 0                         # cents wagered at stakes or profiles not priced

    @property
    def house_net(self) -> int:
        return self.house_won + self.commission + self.collection_fees - self.house_lost - self.to_meter

    @property
    def actual_hold(self) -> Fraction | None:
        return Fraction(self.house_net, self.wagered) if self.wagered > 0 else None

    @property
    def theoretical(self) -> Theoretical | None:
        if self.expected is None or self.unpriced:
            return None
        return theoretical(self.expected, self.wagered)

    def add(self, other: HoldLine) -> None:
        self.wagered += other.wagered
        self.house_won += other.house_won
        self.house_lost += other.house_lost
        self.commission += other.commission
        self.collection_fees += other.collection_fees
        self.to_meter += other.to_meter
        self.unpriced += other.unpriced
        if other.expected is not None:
            if self.expected is None:
                self.expected = Expectation()
            self.expected += other.expected
        elif other.wagered:
            self.unpriced += other.wagered

    def note(self) -> str:
        if self.wager in NOT_PRICED:
            return NOT_PRICED[self.wager]
        if self.unpriced:
            return "some of these wagers were at stakes or profiles the engine does not price"
        return ""


@dataclass
class Total:
    """A table's or the pit's totals; the theoretical hold over the wager types priced."""

    wagered: int
    house_net: int
    priced_wagered: int
    expected: Expectation

    @property
    def actual_hold(self) -> Fraction | None:
        return Fraction(self.house_net, self.wagered) if self.wagered > 0 else None

    @property
    def theoretical(self) -> Theoretical | None:
        return theoretical(self.expected, self.priced_wagered)


def _total(lines: list[HoldLine]) -> Total:
    e = Expectation()
    priced = 0
    for ln in lines:
        if ln.theoretical is not None:
            e += ln.expected
            priced += ln.wagered
    return Total(sum(ln.wagered for ln in lines), sum(ln.house_net for ln in lines), priced, e)


@dataclass
class TableHold:
    table: str
    profiles: tuple[str, ...]
    rounds: int
    sent_back: int
    lines: list[HoldLine]
    first: datetime | None
    last: datetime | None

    @property
    def total(self) -> Total:
        return _total(self.lines)

    def line(self, wager: str) -> HoldLine | None:
        return next((ln for ln in self.lines if ln.wager == wager), None)


@dataclass
class HoldReport:
    start: datetime | None
    end: datetime | None
    table: str | None
    tables: list[TableHold]
    pit: list[HoldLine] = field(default_factory=list)
    verified: Any = None     # the check of the record it was read from (app/store/figures_check.py)

    @property
    def rounds(self) -> int:
        return sum(t.rounds for t in self.tables)

    @property
    def sent_back(self) -> int:
        return sum(t.sent_back for t in self.tables)

    @property
    def total(self) -> Total:
        return _total(self.pit)

    def table_hold(self, table: str) -> TableHold | None:
        return next((t for t in self.tables if t.table == table), None)


def _iso(t: datetime | None) -> str | None:
    return t.isoformat(timespec="seconds") if t is not None else None


def check_period(start: datetime | None, end: datetime | None) -> None:
    if start is not None and end is not None and start >= end:
        raise HoldError(f"the period starts at {_iso(start)}, not before its end {_iso(end)}: "
                        "--from must be before --to")


def hold(conn, start: datetime | None = None, end: datetime | None = None, table: str | None = None,
         lines_from=store) -> HoldReport:
    """The hold of every table (or of ``table``) over ``start <= time < end`` (None: open).
    ``lines_from``: where the rows are summed, a workstation's own log (app/store/hold_lines.py)
    or the casino's server's money read models (app/store/pg/floor_money.py ``ServerLines``)."""
    check_period(start, end)
    known = lines_from.table_ids(conn)
    if table is not None and table not in known:
        raise HoldError(f"no table {table!r} in this log (tables: {', '.join(known) or 'none'})")
    s, e = _iso(start), _iso(end)
    lines: dict[str, dict[str, HoldLine]] = {}
    profiles: dict[str, set[str]] = {}

    def line(t: str, w: str) -> HoldLine:
        return lines.setdefault(t, {}).setdefault(w, HoldLine(w))

    for r in lines_from.stakes(conn, s, e, table):
        profiles.setdefault(r["table_id"], set()).add(r["profile"])
        w = wager_type(r["wager"], r["banking"])
        if w is None or r["wager"] == "bank":
            continue   # the player-dealer's action; the bank's own result (no stake of its own)
        ln = line(r["table_id"], w)
        cents = r["stake"] * r["count"]
        ln.wagered += cents
        x = expectation(r["profile"], w, r["stake"], r["count"]) if w not in NOT_PRICED else None
        if x is None:
            ln.unpriced += cents
        else:
            if ln.expected is None:
                ln.expected = Expectation()
            ln.expected += x
    for r in lines_from.house_lines(conn, s, e, table):
        profiles.setdefault(r["table_id"], set()).add(r["profile"])
        w = wager_type(r["wager"], r["banking"]) or _RENAME.get(r["wager"], r["wager"])  # never drop the house's money
        ln = line(r["table_id"], w)
        ln.commission += r["commission"]
        ln.collection_fees += r["fees"]
        ln.house_won += r["won"]
        ln.house_lost += r["lost"]
        ln.to_meter += r["to_meter"]
    for by_wager in lines.values():
        for w, ln in by_wager.items():
            if w in NOT_PRICED:
                ln.expected = None
                ln.unpriced = 0
    tables = []
    for r in lines_from.rounds(conn, s, e, table):
        t = r["table_id"]
        ls = sorted(lines.get(t, {}).values(), key=lambda ln: _order(ln.wager))
        tables.append(TableHold(t, tuple(sorted(profiles.get(t, ()))), r["rounds"], r["sent_back"], ls,
                                datetime.fromisoformat(r["first"]) if r["first"] else None,
                                datetime.fromisoformat(r["last"]) if r["last"] else None))
    if table is not None and not tables:
        tables.append(TableHold(table, (), 0, 0, [], None, None))   # asked for, and quiet all period
    return HoldReport(start, end, table, tables, summed([t.lines for t in tables]))


def summed(line_lists: list[list[HoldLine]]) -> list[HoldLine]:
    """The lines of several tables (or pits) added up per wager type, in the hold's order: the
    pit's of its tables, the floor's of its pits (app/workstation/floor_report.py)."""
    pit: dict[str, HoldLine] = {}
    for lines in line_lists:
        for ln in lines:
            p = pit.setdefault(ln.wager, HoldLine(ln.wager, expected=None))
            p.add(ln)
    for w, p in pit.items():
        if w in NOT_PRICED:
            p.expected, p.unpriced = None, 0
    return sorted(pit.values(), key=lambda ln: _order(ln.wager))


def total_of(lines: list[HoldLine]) -> Total:
    """The totals of a set of lines (a table's, the pit's, the floor's)."""
    return _total(lines)


def _order(wager: str) -> tuple[int, str]:
    return (WAGER_TYPES.index(wager), wager) if wager in WAGER_TYPES else (len(WAGER_TYPES), wager)


def read_hold(db: Path, start: datetime | None = None, end: datetime | None = None,
              table: str | None = None, verify: bool = True) -> HoldReport:
    """``hold`` over the audit database at ``db``, read-only (app/store/reading.py): nothing is
    written beside it, the live workstation's WAL is read, a missing file is not created. With
    ``verify`` the log is checked first and the hold read in the snapshot checked (issue 35,
    finding 1: app/store/figures_check.py); ``report.verified`` says what the check found."""
    check_period(start, end)

    def work(conn, access):
        log_meta(conn, Path(db))
        return hold(conn, start, end, table)

    if not verify:
        return read_db(Path(db), work)[0]
    verified, report = checked(db, work)
    report.verified = verified
    return report


# -- JSON ----------------------------------------------------------------------------------------
def _frac(x: Fraction | None) -> float | None:
    return None if x is None else round(float(x), 6)


def line_json(ln: HoldLine) -> dict:
    th = ln.theoretical
    out = {"wagered": ln.wagered, "house_won": ln.house_won, "house_lost": ln.house_lost,
           "commission": ln.commission, "collection_fees": ln.collection_fees, "to_meter": ln.to_meter,
           "house_net": ln.house_net, "actual_hold": _frac(ln.actual_hold),
           "theoretical_hold": _frac(th.hold) if th else None}
    if th is not None:
        out["theoretical"] = th.as_json()
    elif ln.note():
        out["theoretical_note"] = ln.note()
    return out


def total_json(t: Total) -> dict:
    th = t.theoretical
    out = {"wagered": t.wagered, "house_net": t.house_net, "actual_hold": _frac(t.actual_hold),
           "theoretical_hold": _frac(th.hold) if th else None, "priced_wagered": t.priced_wagered}
    if th is not None:
        out["theoretical"] = th.as_json()
    return out


def as_json(r: HoldReport) -> dict:
    return {
        "from": _iso(r.start), "to": _iso(r.end), "table": r.table,
        "rounds": r.rounds, "sent_back": r.sent_back,
        "tables": [{"table": t.table, "profiles": list(t.profiles), "rounds": t.rounds, "sent_back": t.sent_back,
                    "first": _iso(t.first), "last": _iso(t.last),
                    "wagers": {ln.wager: line_json(ln) for ln in t.lines}, "total": total_json(t.total)}
                   for t in r.tables],
        "pit": {"wagers": {ln.wager: line_json(ln) for ln in r.pit}, "total": total_json(r.total)},
        **({"verified": r.verified.as_json()} if r.verified is not None else {}),
    }


__all__ = ["HoldError", "HoldLine", "HoldReport", "TableHold", "Total", "WAGER_TYPES", "LABELS", "hold", "read_hold",
           "as_json", "wager_type"]
