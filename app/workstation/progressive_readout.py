"""The progressive controllers as the supervisor and the auditor read them.

One ``ControllerReadout`` per progressive controller on the floor: its serial, the tables it
serves, its link and lock-out, the lights and the round's progressive wagers, the meter now and
its series since a given time, the hits in the order the controller reported them with where
each stands and what the profile pays for it, and the meter's record at the start and end of
every shift and at every reset. Every figure carries the paragraph it rests on, in the table's
own rule text (000 or 001; the two say the same in different words).

Nothing here computes a rule: what a hit pays and what it does to the meter is
``app.engine.progressive.progressive_payout``, the function the settlement uses; the shifts are
the workstation's (app/workstation/shifts.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from app.devices.mapping import line_key
from app.engine.money import dollars
from app.engine.procedure import IN_ROUND
from app.engine.profile import RuleProfile
from app.engine.progressive import ProgressivePayout, progressive_payout
from app.store import meters
from app.store.log import AuditLog
from app.store.meters import MeterRow, clock_seconds

__all__ = ["clock_seconds"]   # the series' time axis, for the view
from .acceptors import AcceptorCheck, locked_in
from .shifts import DEFAULT, ShiftPlan

# the paragraphs, per rule text: 000 (q) and 001 11.14 say the same things
CITES = {
    "000": {"order": "000(q)(3)", "lights": "000(q)(2), (3)(i)", "pays": "000(q)(4)", "when_paid": "000(q)(7)",
            "deduct": "000(q)(5)", "reset": "000(q)(6)", "validate": "000(q)(3)(iii)", "lockout": "000(q)(2)",
            "rate": "000(q)(5)"},
    "001": {"order": "001 11.14(c)", "lights": "001 11.14(b), (c)1; 11.7(d)", "pays": "001 11.14(d)",
            "when_paid": "001 11.14(g)", "deduct": "001 11.14(e)", "reset": "001 11.14(f)",
            "validate": "001 11.14(c)3", "lockout": "001 11.14(b)", "rate": "001 11.14(e)"},
}
PENDING, PAID, DENIED = "PENDING", "PAID", "DENIED"
_STATE = {"pending": PENDING, "approved": PAID, "denied": DENIED}
# a shift's boundary reading is kept once the boundary is this far behind: the devices stamp their
# rows with their arrival, and a row stamped before the boundary cannot arrive after this
_SETTLED = timedelta(minutes=1)


def cites(rules: RuleProfile) -> dict[str, str]:
    return CITES.get(rules.rule_text, CITES["000"])


@dataclass(frozen=True)
class MeterPoint:
    seq: int                  # the meter_reading row
    time: datetime
    cents: int
    source: str               # controller (the meter changed) or reset (000(q)(6))


@dataclass(frozen=True)
class MeterSeries:
    """A controller's readings as columns, in the log's order: the rows, their times as seconds on
    the log's own clock (app/store/meters.py ``clock_seconds``), the meter in cents."""
    seq: tuple[int, ...] = ()
    seconds: tuple[float, ...] = ()
    cents: tuple[int, ...] = ()

    def __len__(self) -> int:
        return len(self.seq)


@dataclass(frozen=True)
class HitPayout:
    """What the profile pays for the hit on one of its progressive pay tables."""
    paytable: str             # progressive-1 ($1.00 wager), progressive-5 ($5.00)
    wager: int                # cents
    pays: str                 # the line as the table says it: "100% of meter", "$200.00"
    pays_rule: str            # 000(q)(4): the pay table
    amount: int               # cents
    amount_rule: str          # 000(q)(7) for a percent of the meter (the meter when paid), else the table's
    from_meter: bool          # 000(q)(5): deducted from the meter
    deduct_rule: str
    meter_after: int          # after the deduction, and the reset after the top award
    reset: int | None         # the profile's reset amount put back after the top award (000(q)(6))
    reset_rule: str


@dataclass(frozen=True)
class HitInfo:
    order: int                # 1, 2, ...: the order the controller reported its hits in (000(q)(3))
    order_rule: str
    request: int              # the approval request: what decide() takes
    time: datetime
    serial: str
    table: str
    seat: int | None
    line: str                 # as the controller named it
    line_key: str | None      # the pay tables' line; None: not a line of the profile's tables
    reported: int | None      # cents the controller said the hit pays
    state: str                # PENDING until a supervisor approves (PAID) or denies (DENIED) it
    validate_rule: str        # 000(q)(3)(iii): a supervisor validates a payout off the meter
    role_needed: str
    decided_by: str | None
    decided_role: str | None
    decided: datetime | None
    decision_reason: str | None
    meter: int | None         # the meter when the controller reported the hit
    payouts: tuple[HitPayout, ...]   # per pay table of the profile holding the line
    agrees: bool | None       # the controller's figure is the pay table's (None: no line to compare)
    reset: MeterPoint | None  # the controller's reset that followed the hit
    reset_rule: str
    reset_cents: int          # the profile's reset amount
    countersigned_by: str | None = None     # who counter-signed the decision at the decider's session
    countersigned_role: str | None = None

    @property
    def payout(self) -> HitPayout | None:
        """The pay table's figure the controller's agrees with, else the first."""
        for p in self.payouts:
            if p.amount == self.reported:
                return p
        return self.payouts[0] if self.payouts else None


@dataclass(frozen=True)
class MeterRecord:
    """One line of the auditor's record: the meter at a shift's start or end, or a reset."""
    time: datetime            # the boundary, or the reset's time
    shift: str                # "swing 2026-11-23"
    what: str                 # "start of shift", "end of shift", "reset"
    cents: int | None         # None: no reading of the controller before it
    seq: int | None           # the meter_reading row it comes from
    read_at: datetime | None  # when that reading was logged
    note: str
    rule: str
    below_reset: bool = False  # a reset under the profile's reset amount


@dataclass(frozen=True)
class ControllerReadout:
    serial: str
    tables: tuple[str, ...]   # the tables it serves
    profile: str
    rule_text: str
    link: str                 # connecting, online, degraded, offline (docs/devices.md)
    wagers_open: bool         # the procedures take progressive wagers (closed while it is offline)
    locked: bool | None       # the lock-out (000(q)(2)); None: not reported since the start
    lockout_rule: str
    lit: tuple[int, ...] | None       # the seats whose acceptor light is lit; None: not reported
    round: int
    round_wagers: tuple[int, ...] | None  # the seats with a progressive wager this round; None: no round
    acceptors: AcceptorCheck | None   # the lights against the wagers, once locked in this round
    meter: int | None         # cents now (the last reading)
    meter_time: datetime | None
    reset_cents: int          # the profile's reset amount (000(q)(6))
    since: datetime | None
    start: MeterPoint | None  # the meter as it stood at ``since``
    series: MeterSeries       # the readings logged after ``after`` (all since ``since`` when 0), a page
    hits: tuple[HitInfo, ...]
    record: tuple[MeterRecord, ...]
    last_seq: int             # the next read's ``after`` for this controller: the log's last row when
                              # read, or the last reading of a page when ``more`` follow
    more: bool                # the page was full: more readings wait to be read
    cites: dict


def _point(r: MeterRow | None) -> MeterPoint | None:
    return MeterPoint(r.seq, r.time, r.cents, r.source) if r is not None else None


def _payouts(rules: RuleProfile, key: str | None, meter: int | None) -> tuple[HitPayout, ...]:
    if key is None or meter is None:
        return ()
    c = cites(rules)
    out = []
    for name in ("progressive_1", "progressive_5"):
        table = rules.paytables.get(name)
        paid: ProgressivePayout | None = progressive_payout(table, key, meter, rules.progressive_reset_cents) \
            if table is not None else None
        if paid is None:
            continue
        percent = table.pays[key].meter_percent is not None
        out.append(HitPayout(paid.table, paid.wager, paid.pays, c["pays"], paid.amount,
                             c["when_paid"] if percent else c["pays"], paid.from_meter, c["deduct"],
                             paid.meter_after, paid.reset, c["reset"]))
    return tuple(out)


class MeterBook:
    """What the readout needs again and again, kept so that a view reading twice a second does not
    scan the log each time: the controllers' resets and hits (folded in from the rows logged since
    the last look, by row number), and the meter at shift boundaries that can no longer change."""

    def __init__(self, log: AuditLog):
        self.log = log
        self._kept: dict[tuple[str, datetime, bool], MeterRow | None] = {}
        self._scanned = 0
        self._resets: dict[str, list[MeterRow]] = {}
        self._hits: dict[str, list[int]] = {}     # table -> the requests of its controller's hits, in order
        self._from: dict[datetime, int] = {}      # a time -> a row at or before the first logged then

    def catch_up(self, upto: int) -> None:
        if upto <= self._scanned:
            return
        for table, row in meters.resets_after(self.log, self._scanned, upto):
            self._resets.setdefault(table, []).append(row)
        for table, request in meters.hits_after(self.log, self._scanned, upto):
            self._hits.setdefault(table, []).append(request)
        self._scanned = upto

    def resets(self, table: str, start: datetime | None = None, end: datetime | None = None) -> list[MeterRow]:
        return [r for r in self._resets.get(table, ()) if (start is None or r.time >= start)
                and (end is None or r.time < end)]

    def at(self, table: str, when: datetime, now: datetime, before: bool = False) -> MeterRow | None:
        """The meter as it stood at ``when`` (``before``: strictly before it, for a shift's end)."""
        key = (table, when, before)
        if key in self._kept:
            return self._kept[key]
        row = meters.reading_at(self.log, table, when - timedelta(microseconds=1) if before else when)
        if when + _SETTLED <= now:
            self._kept[key] = row
        return row

    def hit_infos(self, table: str, rules: RuleProfile, since: datetime | None = None) -> tuple[HitInfo, ...]:
        """The controller's hits at ``table``, in the order reported: those at or after ``since``
        and every one still pending, whenever reported."""
        c = cites(rules)
        requests = self._hits.get(table, [])
        if since is not None:
            # the hits logged from ``since`` on are the last ones; before them, only those pending
            first = self._from.get(since)
            if first is None:
                first = self._from[since] = meters.first_seq_at(self.log, since)
            recent = [q for q in requests if q > first]
            older = [q for q in requests if q not in set(recent)]
            shown = sorted(meters.pending(self.log, older) | set(recent))
        else:
            shown = list(requests)
        order = {q: n for n, q in enumerate(requests, start=1)}
        resets = self._resets.get(table, [])
        out = []
        for h in meters.hits(self.log, shown):
            if since is not None and h.time < since and h.status != "pending":
                continue
            before = meters.reading_before(self.log, table, h.request)
            meter = before.cents if before is not None else None
            key = line_key(h.line) if h.line else None
            tables = [t for name, t in rules.paytables.items() if name.startswith("progressive")]
            if key is not None and not any(key in t.pays for t in tables):
                key = None
            payouts = _payouts(rules, key, meter)
            agrees = None if not payouts or h.cents is None else any(p.amount == h.cents for p in payouts)
            n = order[h.request]
            nxt = requests[n] if n < len(requests) else None
            reset = next((r for r in resets if r.seq > h.request and (nxt is None or r.seq < nxt)), None)
            out.append(HitInfo(n, c["order"], h.request, h.time, h.serial, table, h.seat, h.line, key, h.cents,
                               _STATE.get(h.status, h.status.upper()), c["validate"], h.role_needed, h.decided_by,
                               h.decided_role, h.decided, h.decision_reason, meter, payouts, agrees, _point(reset),
                               c["reset"], rules.progressive_reset_cents, h.countersigned_by,
                               h.countersigned_role))
        return tuple(out)

    def record(self, table: str, rules: RuleProfile, start: datetime, end: datetime,
               now: datetime, plan: ShiftPlan = DEFAULT) -> tuple[MeterRecord, ...]:
        """The meter at the start and end of every shift overlapping ``[start, end)`` (the end of
        a shift not yet over is not there yet), and every reset, in time order."""
        c = cites(rules)
        usual = rules.progressive_reset_cents
        out: list[MeterRecord] = []
        for s in plan.shifts_between(start, end):
            for what, when, before in (("start of shift", s.start, False), ("end of shift", s.end, True)):
                if when > now:
                    continue
                r = self.at(table, when, now, before)
                note = "" if r is not None else "no reading of the controller yet"
                out.append(MeterRecord(when, s.label, what, r.cents if r else None, r.seq if r else None,
                                       r.time if r else None, note, c["rate"]))
            for z in self.resets(table, s.start, s.end):
                low = z.cents < usual
                note = ("the profile's reset amount" if z.cents == usual else
                        f"under the profile's reset amount of {dollars(usual)}" if low else
                        f"over the profile's reset amount of {dollars(usual)}")
                out.append(MeterRecord(z.time, s.label, "reset", z.cents, z.seq, z.time, note, c["reset"], low))
        order = {"end of shift": 0, "start of shift": 1, "reset": 2}   # at one moment: the shift ends, the next starts
        return tuple(sorted(out, key=lambda m: (m.time, order[m.what])))


def readouts(log: AuditLog, book: MeterBook, setups, rules_of, states, links: dict[str, str], heard,
             now: datetime, since: datetime | None, after: int | Mapping[str, int], record_from: datetime,
             limit: int | None = None, plan: ShiftPlan = DEFAULT) -> tuple[ControllerReadout, ...]:
    """Every progressive controller of the floor, in the configuration's order. ``setups`` are the
    tables' TableSetups, ``rules_of`` table -> RuleProfile, ``states`` table -> TableState,
    ``heard`` what the live pit heard of each table (the lock-out and lights the controller last reported)."""
    top = meters.last_seq(log)
    book.catch_up(top)
    out = []
    for setup in setups:
        rules = rules_of[setup.id]
        state = states[setup.id]
        view = heard.get(setup.id)
        readings = view.readings if view is not None else {}
        lock = readings.get("lockout")
        lights = readings.get("acceptor_lights")
        locked = lock.values["locked"] if lock is not None else None
        lit = tuple(lights.values["seats"]) if lights is not None else None
        in_round = state.state in IN_ROUND
        for d in setup.devices:
            if d.cls != "progressive":
                continue
            c = cites(rules)
            mine = after.get(d.serial, 0) if isinstance(after, Mapping) else after
            series = MeterSeries(*meters.series_columns(log, setup.id, since, mine, limit))
            more = limit is not None and len(series) == limit
            last = meters.reading_before(log, setup.id, top + 1)
            start = _point(book.at(setup.id, since, now)) if since is not None else None
            out.append(ControllerReadout(
                d.serial, (setup.id,), rules.name, rules.rule_text, links.get(d.serial, "connecting"),
                state.progressive_online, locked, c["lockout"], lit, state.round,
                tuple(state.round_progressive) if in_round else None, locked_in(state, locked, lit, rules),
                last.cents if last else None, last.time if last else None, rules.progressive_reset_cents,
                since, start, series, book.hit_infos(setup.id, rules, since),
                book.record(setup.id, rules, record_from, now, now, plan), series.seq[-1] if more else top, more, c))
    return tuple(out)
