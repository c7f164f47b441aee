"""The hold view's two lists: the tables (and the pit) and one table's wager types.

Each row is a figure the workstation computed (app/workstation/hold.py): cents from the log's
ledger lines and stakes, the actual hold as house net over wagered, the theoretical hold as
the engine priced it. Nothing here adds a rule; a model only says how a figure reads. A hold is
shown in percent to two places, its six places and exact basis in the cell's tip.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from app.engine import words
from app.workstation.hold import LABELS, Total
from app.workstation.theoretical import Expectation

from .records import Column, RecordModel
from .theme import money

PIT = "PIT"


def percent(x: Fraction | None, places: int = 2) -> str:
    """``Fraction(77656, 1000000)`` -> ``7.77%``; None -> an em dash."""
    if x is None:
        return "—"
    return f"{float(x) * 100:.{places}f}%"


def theoretical_text(th) -> str:
    """The theoretical hold as a supervisor reads it: an estimate says so, with its interval."""
    if th is None:
        return "—"
    if th.basis == "estimate" and th.interval is not None:
        lo, hi = th.interval
        return f"{percent(th.hold)} ±{(hi - lo) / 2 * 100:.2f} est."
    return percent(th.hold)


def theoretical_tip(th, note: str = "") -> str:
    if th is None:
        return note or "not priced"
    where = "; ".join(th.sources)
    if th.basis == "estimate":
        lo, hi = th.interval
        return (f"{float(th.hold):.6f}, an ESTIMATE from simulating the house way against itself, 95% "
                f"interval {lo:.6f} to {hi:.6f} ({where})")
    return f"{float(th.hold):.6f} exactly ({th.hold.numerator}/{th.hold.denominator}; {where})"


def _hold_sort(x: Fraction | None) -> float:
    return float(x) if x is not None else float("-inf")


@dataclass(frozen=True)
class TableRow:
    """A table's totals over the period, or the pit's (``table == PIT``)."""
    table: str
    profiles: tuple[str, ...]
    rounds: int
    sent_back: int
    total: object              # app.workstation.hold.Total

    @property
    def label(self) -> str:
        return "The pit" if self.table == PIT else self.table


def table_rows(report, floor: list[str] = ()) -> list[TableRow]:
    """The pit first, then every table: those of ``floor`` in its order (a table with no round in
    the period shows its zeros), then any other the log settled rounds at."""
    profiles = tuple(sorted({p for t in report.tables for p in t.profiles}))
    rows = [TableRow(PIT, profiles, report.rounds, report.sent_back, report.total)]
    held = {t.table: t for t in report.tables}
    for name in floor:
        t = held.pop(name, None)
        rows.append(TableRow(name, t.profiles, t.rounds, t.sent_back, t.total) if t is not None
                    else TableRow(name, (), 0, 0, Total(0, 0, 0, Expectation())))
    rows += [TableRow(t.table, t.profiles, t.rounds, t.sent_back, t.total) for t in held.values()]
    return rows


class HoldTablesModel(RecordModel):
    columns = (
        Column("Table", lambda r: r.label, sort=lambda r: (r.table != PIT, r.table), bold=True),
        Column("Rounds", lambda r: f"{r.rounds:,}", sort=lambda r: r.rounds, numeric=True,
               tip=lambda r: f"{r.rounds} rounds settled" + (f"; {r.sent_back} settlements sent back by a "
                                                              "denial, not counted" if r.sent_back else "")),
        Column("Wagered", lambda r: money(r.total.wagered), sort=lambda r: r.total.wagered, numeric=True),
        Column("House net", lambda r: money(r.total.house_net), sort=lambda r: r.total.house_net, numeric=True,
               bold=True),
        Column("Actual hold", lambda r: percent(r.total.actual_hold), sort=lambda r: _hold_sort(r.total.actual_hold),
               numeric=True, bold=True,
               tip=lambda r: "house net / wagered" + (f" = {float(r.total.actual_hold):.6f}"
                                                       if r.total.actual_hold is not None else ": nothing wagered")),
        Column("Theoretical hold", lambda r: theoretical_text(r.total.theoretical),
               sort=lambda r: _hold_sort(r.total.theoretical.hold if r.total.theoretical else None), numeric=True,
               tip=lambda r: theoretical_tip(r.total.theoretical, "nothing priced was wagered")
               + f" (over {money(r.total.priced_wagered)} of the wagers, the wager types priced)"),
        Column("Profiles", lambda r: (f"{len(r.profiles)} profiles" if r.table == PIT and len(r.profiles) > 2
                                      else ", ".join(r.profiles)) or "—",
               tip=lambda r: ", ".join(r.profiles) or "no round in this period", stretch=True),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda r: r.table, parent=parent)


class HoldLinesModel(RecordModel):
    """One table's (or the pit's) wager types, in the order app/workstation/hold.py gives them."""
    columns = (
        Column("Wager", lambda ln: LABELS.get(ln.wager, ln.wager), bold=True,
               sort=lambda ln: ln.wager, tip=lambda ln: words.kind(ln.wager)),
        Column("Wagered", lambda ln: money(ln.wagered), sort=lambda ln: ln.wagered, numeric=True),
        Column("House won", lambda ln: money(ln.house_won), sort=lambda ln: ln.house_won, numeric=True),
        Column("House lost", lambda ln: money(ln.house_lost), sort=lambda ln: ln.house_lost, numeric=True),
        Column("Commission", lambda ln: money(ln.commission), sort=lambda ln: ln.commission, numeric=True),
        Column("Fees", lambda ln: money(ln.collection_fees), sort=lambda ln: ln.collection_fees, numeric=True,
               tip=lambda ln: "collection fees, charged at 002's tables (002 COLLECTION PROCEDURES)"),
        Column("To meter", lambda ln: money(ln.to_meter), sort=lambda ln: ln.to_meter, numeric=True,
               tip=lambda ln: "the house's lines to the progressive meter less the meter's to it (each table's "
                             "own paragraph on the meter, as its rounds' ledgers cite it)"),
        Column("House net", lambda ln: money(ln.house_net), sort=lambda ln: ln.house_net, numeric=True, bold=True,
               tip=lambda ln: "won + commission + fees - lost - to meter"),
        Column("Actual", lambda ln: percent(ln.actual_hold), sort=lambda ln: _hold_sort(ln.actual_hold),
               numeric=True, bold=True,
               tip=lambda ln: f"house net / wagered = {float(ln.actual_hold):.6f}" if ln.actual_hold is not None
               else "nothing wagered"),
        Column("Theoretical", lambda ln: theoretical_text(ln.theoretical),
               sort=lambda ln: _hold_sort(ln.theoretical.hold if ln.theoretical else None), numeric=True,
               tip=lambda ln: theoretical_tip(ln.theoretical, ln.note())),
        Column("Note", lambda ln: ln.note() or ("estimate" if ln.theoretical is not None
                                                 and ln.theoretical.basis == "estimate" else ""), stretch=True),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda ln: ln.wager, parent=parent)


__all__ = ["HoldTablesModel", "HoldLinesModel", "TableRow", "table_rows", "percent", "theoretical_text", "PIT"]
