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

import json
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction
from math import isqrt
from pathlib import Path

from app.analysis.estimate import Z95
from app.engine.dispersion import normal_tail, poisson_tail, z_score
from app.store import hold_lines
from app.store.figures_check import checked
from app.store.reading import log_meta, read_db

from .hold import _RENAME, HoldError, check_period, hold, wager_type
from .theoretical import TOP_AWARD, Expectation, base_round_covariance, top_award_lines
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
        together = seats_together(conn, s, e)
        for t in hold(conn, s, e).tables:
            for ln in t.lines:
                if ln.wager in NOT_CHECKED or ln.expected is None or ln.unpriced or not ln.wagered:
                    continue
                variance = ln.expected.variance() + (together.get(t.table, Fraction(0)) if ln.wager == "base" else 0)
                if variance:        # a fee taken before play cannot stray: nothing to check
                    out.append(Check(t.table, shift.label, s, e, ln.wager, t.rounds, ln.wagered, ln.house_net,
                                     ln.expected.expected_value(), variance, ln.expected.basis))
    return out


def seats_together(conn, start: datetime, end: datetime) -> dict[str, Fraction]:
    """Per table, what its rounds' house-banked base wagers add to the variance of the house's
    net because their seats play one banker's hand (``theoretical.base_round_covariance``),
    summed over the rounds: the bettors on a seat's hand added to it first."""
    out: dict[str, Fraction] = {}
    for r in hold_lines.base_rounds(conn, start.isoformat(timespec="seconds"), end.isoformat(timespec="seconds")):
        if wager_type("base", r["banking"]) != "base":
            continue        # a player bank's or a player-dealer's round: not the house's base wagers
        seats: dict = {}
        for seat, stake in json.loads(r["wagers"]):
            seats[seat] = seats.get(seat, 0) + stake
        cov = base_round_covariance(r["profile"], list(seats.values()))
        if cov:
            out[r["table_id"]] = out.get(r["table_id"], Fraction(0)) + cov
    return out


@dataclass(frozen=True)
class AwardCheck:
    """The top awards hit on one wager type at one table over one shift, against the count its
    odds lead to expect (a Poisson count: a cold deck deals the jackpot, Sam's Town 1999)."""

    table: str
    shift: str
    start: datetime
    end: datetime
    wager: str
    lines: tuple[str, ...]      # the pay table's top-award lines (each rarer than TOP_AWARD)
    wagers: int                 # how many wagers could hit them
    hits: int
    expected: Fraction          # the expected number of hits

    @property
    def tail(self) -> float:
        """The chance of this many hits or more, by the odds alone."""
        return poisson_tail(self.hits, float(self.expected))

    def notice(self, threshold: float = THRESHOLD) -> bool:
        """As rare as a z at the threshold, one-sided (3: about 0.00135)."""
        return self.hits > 0 and self.tail <= normal_tail(threshold)


def award_checks(conn, start: datetime, end: datetime, plan: ShiftPlan = DEFAULT) -> list[AwardCheck]:
    """Every table's wagers with top awards, shift by shift over ``[start, end)``: the hits on
    their top-award lines against the expected count (the settlements the hold counts)."""
    check_period(start, end)
    out = []
    for shift in plan.shifts_between(start, end):
        s, e = max(start, shift.start), min(end, shift.end)
        si, ei = s.isoformat(timespec="seconds"), e.isoformat(timespec="seconds")
        wagers: dict[tuple[str, str], list] = {}
        for r in hold_lines.stakes(conn, si, ei):
            w = wager_type(r["wager"], r["banking"])
            top = top_award_lines(r["profile"], w, r["stake"]) if w else None
            if top is None or not top[0]:
                continue
            at = wagers.setdefault((r["table_id"], w), [set(), 0, Fraction(0)])
            at[0] |= top[0]
            at[1] += r["count"]
            at[2] += r["count"] * top[1]
        hits: dict[tuple[str, str], dict[str, int]] = {}
        for r in hold_lines.lines_hit(conn, si, ei):
            w = _RENAME.get(r["wager"], r["wager"])
            hits.setdefault((r["table_id"], w), {})[r["line"]] = r["hits"]
        for (t, w), (lines, n, lam) in sorted(wagers.items()):
            k = sum(h for line, h in hits.get((t, w), {}).items() if line in lines)
            out.append(AwardCheck(t, shift.label, s, e, w, tuple(sorted(lines)), n, k, lam))
    return out


@dataclass(frozen=True)
class PlayerCheck:
    """One wager type of one rated player's sittings over the period (issue 36: "each rated
    player's sessions"): the house's net on their wagers against its expectation."""

    player: str                 # the card
    name: str
    tables: tuple[str, ...]
    wager: str
    rounds: int                 # their rounds in the period
    wagered: int                # cents, on this wager type
    actual: int                 # the house's net on it, cents
    expected: Fraction
    variance: Fraction
    basis: str

    @property
    def z(self) -> float | None:
        return z_score(self.actual, self.expected, self.variance)

    def notice(self, threshold: float = THRESHOLD) -> bool:
        return self.z is not None and abs(self.z) >= threshold


def player_checks(conn, start: datetime, end: datetime) -> list[PlayerCheck]:
    """Each rated player's wager types the house banks against them, over ``[start, end)``: their
    sittings added (app/workstation/ratings.py), by card and wager type."""
    from .ratings import ratings
    by: dict[tuple[str, str], list] = {}
    names: dict[str, str] = {}
    for r in ratings(conn, start, end):
        names[r.card] = r.name or names.get(r.card, "")
        for w, (actual, e, stakes) in r.house.items():
            at = by.setdefault((r.card, w), [[], 0, 0, 0, Expectation()])
            if r.table not in at[0]:
                at[0].append(r.table)
            at[1] += r.rounds
            at[2] += stakes
            at[3] += actual
            at[4] += e
    out = []
    for (card, w), (tables, rounds, stakes, actual, e) in sorted(by.items()):
        variance = e.variance()
        if variance:
            out.append(PlayerCheck(card, names[card], tuple(tables), w, rounds, stakes, actual, e.expected_value(),
                                   variance, e.basis))
    return out


@dataclass(frozen=True)
class DropCheck:
    """One table's win-to-drop over the table shifts opened in the period whose drop was counted,
    against its own 95% band (Maryland COMAR 36.05.03.25: a table game's win-to-drop outside a 95%
    confidence interval is investigated): the band is the expected win of those shifts' rounds,
    plus or minus 1.96 standard deviations of the house's net over their wagers, over the drop."""

    table: str
    shifts: int                 # table shifts opened in the period with their drop counted
    drop: int                   # cents
    win: int                    # by count: drop + closer + credits - opener - fills
    expected: Fraction          # the rounds' expected win (the priced wagers)
    variance: Fraction
    unpriced: int               # cents wagered that are not priced (the band leaves them out)

    @property
    def z(self) -> float | None:
        return z_score(self.win, self.expected, self.variance)

    def band(self) -> tuple[Fraction, Fraction]:
        """The 95% band of win over drop."""
        half = Z95 * sigma_cents(self.variance)       # the sigma printed beside it, in whole cents
        return (self.expected - half) / self.drop, (self.expected + half) / self.drop

    def notice(self) -> bool:
        lo, hi = self.band()
        return not lo <= Fraction(self.win, self.drop) <= hi


def drop_checks(conn, start: datetime, end: datetime) -> list[DropCheck]:
    """Per table, its shifts opened in ``[start, end)`` with the drop counted, added: their win by
    count against the expectation of their rounds (from opener to closer)."""
    from app.store import trays
    by: dict[str, list] = {}
    for o in trays.shifts_opened(conn, start.isoformat(timespec="seconds"), end.isoformat(timespec="seconds")):
        m = trays.shift_money(conn, o["seq"])
        if m.win is None or not m.drop:
            continue
        closer = conn.execute("SELECT time FROM trays WHERE kind = 'closer' AND opener = ? LIMIT 1",
                              (o["seq"],)).fetchone()
        s, e = datetime.fromisoformat(o["time"]), datetime.fromisoformat(closer[0]) + timedelta(seconds=1)
        at = by.setdefault(o["table_id"], [0, 0, 0, Fraction(0), Fraction(0), 0])
        at[0] += 1
        at[1] += m.drop
        at[2] += m.win
        together = seats_together(conn, s, e).get(o["table_id"], Fraction(0))
        th = hold(conn, s, e).table_hold(o["table_id"])
        for ln in th.lines if th is not None else ():
            at[5] += ln.unpriced
            if ln.expected is not None:
                at[3] += ln.expected.expected_value()
                at[4] += ln.expected.variance() + (together if ln.wager == "base" else 0)
    return [DropCheck(t, *v) for t, v in sorted(by.items())]


def read_checks(db: Path, start: datetime, end: datetime, plan: ShiftPlan = DEFAULT, verify: bool = True):
    """``table_checks`` and ``award_checks`` over the audit database at ``db``, read-only; with ``verify`` the log is
    checked first and read in the snapshot checked (as the hold is): (checks, what the check
    found, or None unverified)."""
    check_period(start, end)

    def work(conn, access):
        log_meta(conn, Path(db))
        return table_checks(conn, start, end, plan) + award_checks(conn, start, end, plan) + \
            player_checks(conn, start, end) + drop_checks(conn, start, end)

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


def award_json(c: AwardCheck, threshold: float) -> dict:
    return {"scope": "top_awards", "table": c.table, "shift": c.shift, "from": c.start.isoformat(timespec="seconds"),
            "to": c.end.isoformat(timespec="seconds"), "wager": c.wager, "lines": list(c.lines), "wagers": c.wagers,
            "hits": c.hits, "expected": round(float(c.expected), 6), "tail": c.tail, "notice": c.notice(threshold)}


def player_json(c: PlayerCheck, threshold: float) -> dict:
    z = c.z
    return {"scope": "player", "player": c.player, "name": c.name, "tables": list(c.tables), "wager": c.wager,
            "rounds": c.rounds, "wagered": c.wagered, "actual": c.actual, "expected": _cents(c.expected),
            "expected_exact": f"{c.expected.numerator}/{c.expected.denominator}", "sigma": sigma_cents(c.variance),
            "z": None if z is None else round(z, 3), "basis": c.basis, "notice": c.notice(threshold)}


def drop_json(c: DropCheck) -> dict:
    lo, hi = c.band()
    z = c.z
    return {"scope": "win_to_drop", "table": c.table, "shifts": c.shifts, "drop": c.drop, "win": c.win,
            "win_to_drop": round(c.win / c.drop, 6), "expected_win": _cents(c.expected),
            "sigma": sigma_cents(c.variance), "band_95": [round(float(lo), 6), round(float(hi), 6)],
            "z": None if z is None else round(z, 3), "unpriced": c.unpriced, "notice": c.notice()}


def as_json(checks: list, start: datetime, end: datetime, threshold: float = THRESHOLD) -> dict:
    """``pitdesk protect --json``: every check in sigmas (``checks``), every count of top awards
    (``top_awards``), every rated player's wager types (``players``), and the notices among them
    (|z| >= threshold, or hits as rare)."""
    rows = [check_json(c, threshold) for c in checks if isinstance(c, Check)]
    awards = [award_json(c, threshold) for c in checks if isinstance(c, AwardCheck)]
    players = [player_json(c, threshold) for c in checks if isinstance(c, PlayerCheck)]
    drops = [drop_json(c) for c in checks if isinstance(c, DropCheck)]
    return {"from": start.isoformat(timespec="seconds"), "to": end.isoformat(timespec="seconds"),
            "threshold": threshold, "checks": rows, "top_awards": awards, "players": players, "win_to_drop": drops,
            "notices": [r for r in rows + awards + players + drops if r["notice"]], "not_checked": NOT_CHECKED,
            "top_award": f"a line rarer than {TOP_AWARD.denominator:,} to 1 against"}


__all__ = ["Check", "AwardCheck", "PlayerCheck", "DropCheck", "THRESHOLD", "table_checks", "award_checks",
           "player_checks", "drop_checks",
           "read_checks", "as_json", "HoldError"]
