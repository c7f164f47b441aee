"""The progressive view's record models: the controllers' hits and the meter's record.

Each column only words what the workstation's readout says (app/workstation/progressive_readout.py):
where a hit stands beside its colour, money in dollars, each figure with the paragraph the
readout gives it. Nothing here decides a rule.
"""

from __future__ import annotations

from app.engine.words import signed

from .records import Column, RecordModel
from .theme import AMBER, LEVEL_MARK, NONE, OK, RED, money
from .widgets import seat_text, stamp, when

HIT_LEVEL = {"PENDING": AMBER, "PAID": OK, "DENIED": RED}


def hit_state(h) -> str:
    return f"{LEVEL_MARK[HIT_LEVEL.get(h.state, NONE)]} {h.state}"


def clock(t) -> str:
    return "" if t is None else f"{t:%H:%M:%S}"


def hit_pays(h) -> str:
    """What the profile pays: one figure, or one per wager where the $1 and $5 tables differ."""
    if not h.payouts:
        return "not a line of the profile's pay tables"
    p = h.payout
    if len({x.amount for x in h.payouts}) == 1:
        return f"{money(p.amount)} · {p.pays}"
    return " · ".join(f"{money(x.amount)} on {money(x.wager)}" for x in h.payouts)


def hit_meter(h) -> str:
    """Off the meter or from the table inventory, and what the meter is left at."""
    p = h.payout
    if p is None:
        return ""
    if not p.from_meter:
        return "no, from the table inventory"
    if p.reset is not None:
        return f"yes · reset to {money(p.reset)}"
    return f"yes · leaves {money(p.meter_after)}"


def hit_rules(h) -> str:
    """The paragraphs of the figures shown: the pay table's line, off the meter, the reset."""
    p = h.payout
    if p is None:
        return h.order_rule
    rules = [p.amount_rule, p.deduct_rule] + ([p.reset_rule] if p.reset is not None else [])
    return "; ".join(dict.fromkeys(rules))


def hit_says(h) -> str:
    if h.reported is None:
        return ""
    if h.agrees is False:
        return f"{LEVEL_MARK[RED]} {money(h.reported)} NOT THE PAY TABLE'S"
    return money(h.reported)


def hit_reset(h) -> str:
    if h.reset is None:
        return "not yet"
    low = "" if h.reset.cents >= h.reset_cents else f", under the profile's {money(h.reset_cents)}"
    return f"{money(h.reset.cents)} at {clock(h.reset.time)}{low}"


def hit_validated(h) -> str:
    if h.decided_by:
        return f"{signed(h.decided_by, h.decided_role, h.countersigned_by, h.countersigned_role)} {clock(h.decided)}"
    return f"waits for a {h.role_needed} · {h.validate_rule}"


class HitModel(RecordModel):
    """Every controller's hits, in the order each controller reported them (000(q)(3))."""
    columns = (
        Column("State", hit_state, sort=lambda h: ("PENDING", "DENIED", "PAID").index(h.state)
               if h.state in ("PENDING", "DENIED", "PAID") else 3, level=lambda h: HIT_LEVEL.get(h.state, NONE),
               bold=True),
        Column("Table", lambda h: h.table),
        Column("#", lambda h: str(h.order), sort=lambda h: h.order, numeric=True,
               tip=lambda h: f"the controller's hit number {h.order}, in the order it reported them ({h.order_rule})"),
        Column("Reported", lambda h: clock(h.time), sort=lambda h: stamp(h.time), tip=lambda h: when(h.time)),
        Column("Seat", lambda h: seat_text(h.seat), sort=lambda h: h.seat or 0),
        Column("Hand", lambda h: h.line.replace("_", " ") or "—"),
        Column("Controller says", hit_says, sort=lambda h: h.reported or 0, numeric=True, bold=True,
               level=lambda h: RED if h.agrees is False else None),
        Column("Pays (profile)", hit_pays, sort=lambda h: h.payout.amount if h.payout else 0, bold=True),
        Column("Off the meter", hit_meter),
        Column("Rules", hit_rules),
        Column("Reset", hit_reset, sort=lambda h: stamp(h.reset.time) if h.reset else 0.0,
               level=lambda h: RED if h.reset is not None and h.reset.cents < h.reset_cents else None,
               tip=lambda h: f"{hit_reset(h)} ({h.reset_rule}; the profile's reset amount {money(h.reset_cents)})"),
        Column("Validated by", hit_validated, sort=lambda h: stamp(h.decided)),
        Column("Why", lambda h: h.decision_reason or "", done=True),
        Column("Controller", lambda h: h.serial),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda h: h.request, parent=parent)


class RecordRow:
    """A line of a controller's meter record, with the controller and its table."""
    __slots__ = ("serial", "table", "m")

    def __init__(self, serial: str, table: str, m):
        self.serial, self.table, self.m = serial, table, m

    def __eq__(self, other) -> bool:
        return isinstance(other, RecordRow) and (self.serial, self.table, self.m) == (other.serial, other.table,
                                                                                      other.m)

    def __hash__(self) -> int:
        return hash((self.serial, self.m))

    @property
    def key(self) -> tuple:
        return (self.serial, self.m.time, self.m.what, self.m.seq)


def record_meter(r: RecordRow) -> str:
    if r.m.cents is None:
        return "—"
    return f"{LEVEL_MARK[RED]} {money(r.m.cents)}" if r.m.below_reset else money(r.m.cents)


class MeterRecordModel(RecordModel):
    """The meter at the start and end of each shift and at every reset: an auditor's record."""
    columns = (
        Column("Time", lambda r: f"{r.m.time:%Y-%m-%d %H:%M:%S}", sort=lambda r: stamp(r.m.time)),
        Column("Shift", lambda r: r.m.shift),
        Column("Reading", lambda r: r.m.what, bold=True),
        Column("Table", lambda r: r.table),
        Column("Meter", record_meter, sort=lambda r: r.m.cents if r.m.cents is not None else -1, numeric=True,
               bold=True, level=lambda r: RED if r.m.below_reset else None),
        Column("Log row", lambda r: f"#{r.m.seq}" if r.m.seq else "", sort=lambda r: r.m.seq or 0, numeric=True),
        Column("Logged", lambda r: when(r.m.read_at), sort=lambda r: stamp(r.m.read_at)),
        Column("Note", lambda r: r.m.note, stretch=True),
        Column("Rule", lambda r: r.m.rule),
        Column("Controller", lambda r: r.serial),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda r: r.key, parent=parent)
