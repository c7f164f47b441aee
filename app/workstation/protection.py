"""Game protection: what is out of line, from the exact wagers and the exact odds (issue 36,
docs/protection.md).

For each table and shift, and each wager type apart, the house's actual net against its
expectation, in standard deviations of the house's net over exactly those wagers: z = (actual -
expected) / sigma, sigma the square root of the variance the engine computes from the exact
distribution of each wager's outcomes (app/engine/dispersion.py; app/workstation/theoretical.py
``Expectation.variance``), the wagers taken as independent. At |z| >= the threshold (3 unless
configured) a "where to look" notice: not an accusation, about 0.27% of calm checks reach it.

The figures are the hold's (app/workstation/hold.py): the same settled rounds, the same
expectation, the same wager types. Not checked here: the progressive wager (its awards are the
meter's, and its check is its hits against their expected count), envy and the banks' take (not
wagers the engine prices), and a line with wagers at a stake or profile not priced."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from math import isqrt
from pathlib import Path

from app.engine.dispersion import z_score
from app.store.figures_check import checked
from app.store.reading import log_meta, read_db

from .hold import HoldError, check_period, hold
from .shifts import DEFAULT, ShiftPlan

THRESHOLD = 3.0          # |z| at which a check becomes a notice (about 0.27% of calm checks, two-sided)
NOT_CHECKED = {"progressive": "its awards are paid from the meter: its hits are counted against their "
                              "expectation instead"}


@dataclass(frozen=True)
class Check:
    """One wager type at one table over one shift (or the part of it in the period asked for)."""

    table: str
    shift: str                  # the shift's label, e.g. "day 2026-11-21"
    start: datetime             # the part of the shift checked
    end: datetime
    wager: str
    rounds: int                 # the table's settled rounds in that time
    wagered: int                # cents
    actual: int                 # the house's net, cents
    expected: Fraction          # the house's expected net, cents
    variance: Fraction          # of the house's net, cents squared
    basis: str                  # "exact", or "estimate" (the base game's rates are simulated)

    @property
    def sigma(self) -> float:
        return float(self.variance) ** 0.5

    @property
    def z(self) -> float | None:
        return z_score(self.actual, self.expected, self.variance)

    def notice(self, threshold: float = THRESHOLD) -> bool:
        return self.z is not None and abs(self.z) >= threshold


def table_checks(conn, start: datetime, end: datetime, plan: ShiftPlan = DEFAULT) -> list[Check]:
    """Every table's priced wager types, shift by shift over ``[start, end)`` (a shift cut by the
    period is checked over the part inside it), in the order of the shifts, tables and wager types."""
    check_period(start, end)
    out = []
    for shift in plan.shifts_between(start, end):
        s, e = max(start, shift.start), min(end, shift.end)
        for t in hold(conn, s, e).tables:
            for ln in t.lines:
                if ln.wager in NOT_CHECKED or ln.expected is None or ln.unpriced or not ln.wagered:
                    continue
                variance = ln.expected.variance()
                if variance:        # a fee taken before play cannot stray: nothing to check
                    out.append(Check(t.table, shift.label, s, e, ln.wager, t.rounds, ln.wagered, ln.house_net,
                                     ln.expected.expected_value(), variance, ln.expected.basis))
    return out


def read_checks(db: Path, start: datetime, end: datetime, plan: ShiftPlan = DEFAULT, verify: bool = True):
    """``table_checks`` over the audit database at ``db``, read-only; with ``verify`` the log is
    checked first and read in the snapshot checked (as the hold is): (checks, what the check
    found, or None unverified)."""
    check_period(start, end)

    def work(conn, access):
        log_meta(conn, Path(db))
        return table_checks(conn, start, end, plan)

    if not verify:
        return read_db(Path(db), work)[0], None
    verified, found = checked(db, work)
    return found, verified


def _cents(x: Fraction) -> int:
    return round(x)


def sigma_cents(variance: Fraction) -> int:
    """The standard deviation in whole cents, rounded to the nearest, from the exact variance."""
    r = isqrt(int(variance))
    return r + 1 if variance >= (r + Fraction(1, 2)) ** 2 else r


def check_json(c: Check, threshold: float) -> dict:
    z = c.z
    return {"scope": "table", "table": c.table, "shift": c.shift, "from": c.start.isoformat(timespec="seconds"),
            "to": c.end.isoformat(timespec="seconds"), "wager": c.wager, "rounds": c.rounds, "wagered": c.wagered,
            "actual": c.actual, "expected": _cents(c.expected),
            "expected_exact": f"{c.expected.numerator}/{c.expected.denominator}",
            "sigma": sigma_cents(c.variance), "z": None if z is None else round(z, 3), "basis": c.basis,
            "notice": c.notice(threshold)}


def as_json(checks: list[Check], start: datetime, end: datetime, threshold: float = THRESHOLD) -> dict:
    """``pitdesk protect --json``: every check, and the notices among them (|z| >= threshold)."""
    rows = [check_json(c, threshold) for c in checks]
    return {"from": start.isoformat(timespec="seconds"), "to": end.isoformat(timespec="seconds"),
            "threshold": threshold, "checks": rows, "notices": [r for r in rows if r["notice"]],
            "not_checked": NOT_CHECKED}


__all__ = ["Check", "THRESHOLD", "table_checks", "read_checks", "as_json", "HoldError"]
