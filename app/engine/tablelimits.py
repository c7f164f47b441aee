"""A table's minimum and maximum for each wager type, and the check made when wagers are taken.

Every betting space has "a fixed amount for wagering limits defining the minimum and maximum
amounts that may be wagered" (002 DESCRIPTION OF TABLE USED); 004(3) takes wagers "of not more
than the posted table limit"; 003 applies "the table maximum" to every wager, also against a
player bank (PLAYER BANK 9), and per betting circle when several players bet on it (PLAYERS
WAGERING ON ANOTHER PLAYER'S HAND 1-2). The rule profile gives each wager type's limits (a
figure from the text where it has one, otherwise a casino default); the table's configuration
overrides them with ``TableLimits.with_overrides``. A bound the text itself sets (``fixed``) may
only be tightened by a table, never loosened.

Pure values: the application passes a table's overrides in, nothing here reads a file.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

from .money import dollars

# The wager types of the round file (docs/round-format.md) that a table limits. A toke bet on
# the Fortune Bonus is allowed "up to the limit" (003 GENERAL RULES 6): it is held to the
# Fortune Bonus limits. Envy is no wager of its own: a Fortune wager of $5.00 or more earns it
# (000(r)(3)) and it pays fixed amounts (000(s)(2)), so it has no limit to check.
WAGER_TYPES = ("base", "fortune", "insurance", "three_card", "seven_card", "ace_high", "progressive", "additional")
LIMITED_AS = {"fortune_toke": "fortune"}
BOUNDS = ("min", "max")

NAMES = {"base": "base wager", "fortune": "Fortune bonus wager", "fortune_toke": "Fortune toke bet",
         "insurance": "insurance wager", "three_card": "three-card bonus wager",
         "seven_card": "seven-card bonus wager", "ace_high": "Ace-High bonus wager",
         "progressive": "progressive wager", "additional": "additional wager"}

TABLE = "table configuration"


class TableLimitsError(ValueError):
    """Limits that cannot be used (an override that loosens the text, a minimum over the maximum)."""


@dataclass(frozen=True)
class WagerLimit:
    """One wager type's limits, in cents, and where each bound comes from."""

    min: int
    max: int
    fixed: frozenset[str] = frozenset()  # the bounds the rule text sets ("min", "max")
    rule: str = ""                       # the paragraph that gives them, "" for a casino default
    overridden: frozenset[str] = frozenset()  # the bounds the table's configuration set

    def source(self, bound: str, profile: str) -> str:
        if bound in self.overridden:
            return TABLE
        return f"profile {profile}" + (f"; {self.rule}" if bound in self.fixed and self.rule else "")


def _check_pair(where: str, lo: int, hi: int) -> None:
    for name, v in (("min", lo), ("max", hi)):
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise TableLimitsError(f"{where}.{name}: a positive whole number of cents, got {v!r}")
    if lo > hi:
        raise TableLimitsError(f"{where}: the minimum {dollars(lo)} is over the maximum {dollars(hi)}")


@dataclass(frozen=True)
class TableLimits:
    """The limits in force at one table: the profile's, with the table's overrides merged over them."""

    profile: str
    wagers: Mapping[str, WagerLimit] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for k, lim in self.wagers.items():
            if k not in WAGER_TYPES:
                raise TableLimitsError(f"{k}: not a wager type with table limits (one of {', '.join(WAGER_TYPES)})")
            _check_pair(k, lim.min, lim.max)

    def of(self, wager: str) -> WagerLimit | None:
        return self.wagers.get(LIMITED_AS.get(wager, wager))

    def with_overrides(self, overrides: Mapping[str, Mapping[str, int]]) -> TableLimits:
        """The table's configuration over the profile's limits: ``{"base": {"max": 1_000_000}}``.

        Only wagers the profile limits (those it offers) can be overridden; a bound the rule
        text sets may be raised (a minimum) or lowered (a maximum), never loosened.
        """
        merged = dict(self.wagers)
        for k, given in overrides.items():
            if k not in self.wagers:
                raise TableLimitsError(f"{k}: profile {self.profile!r} has no {k!r} wager to limit "
                                       f"(it limits {', '.join(self.wagers)})")
            if not isinstance(given, Mapping) or not given or set(given) - set(BOUNDS):
                raise TableLimitsError(f"{k}: give 'min' and/or 'max' in cents, got {given!r}")
            old = self.wagers[k]
            lo, hi = given.get("min", old.min), given.get("max", old.max)
            _check_pair(k, lo, hi)
            if "min" in old.fixed and lo < old.min:
                raise TableLimitsError(f"{k}.min: {dollars(lo)} is below the minimum {dollars(old.min)} that "
                                       f"{old.rule} sets; a table may only raise it")
            if "max" in old.fixed and hi > old.max:
                raise TableLimitsError(f"{k}.max: {dollars(hi)} is over the maximum {dollars(old.max)} that "
                                       f"{old.rule} sets; a table may only lower it")
            merged[k] = replace(old, min=lo, max=hi, overridden=old.overridden | frozenset(given))
        return TableLimits(self.profile, merged)


def _refusal(who: str, wager: str, amount: int, limits: TableLimits, what: str | None = None) -> str | None:
    lim = limits.of(wager)
    if lim is None:
        return None
    what = what or NAMES[wager]
    if amount > lim.max:
        return (f"{who}: {what} {dollars(amount)} is over the table maximum {dollars(lim.max)} "
                f"({lim.source('max', limits.profile)})")
    if amount < lim.min:
        return (f"{who}: {what} {dollars(amount)} is under the table minimum {dollars(lim.min)} "
                f"({lim.source('min', limits.profile)})")
    return None


def refusals(seats: Iterable, limits: TableLimits) -> list[str]:
    """Every wager outside the table's limits, seat by seat, each naming seat, wager, amount and limit.

    ``seats`` are app.engine.round.Seat values (duck-typed here: round.py imports this module).
    """
    out: list[str] = []
    for s in seats:
        who = f"seat {s.seat}"
        for k, amount in s.wagers.items():
            msg = _refusal(who, k, amount, limits)
            if msg:
                out.append(msg)
        for b in s.bettors:
            msg = _refusal(f"{who} (bettor {b.name})", "base", b.base, limits)
            if msg:
                out.append(msg)
        if s.bettors:
            # 003 PLAYERS WAGERING ON ANOTHER PLAYER'S HAND 1-2: "table limits do apply per betting
            # circle"; the others bet "up to the remaining balance of the table limit"
            circle = s.wagers.get("base", 0) + sum(b.base for b in s.bettors)
            lim = limits.of("base")
            if lim is not None and circle > lim.max:
                out.append(f"{who}: base wagers on the circle {dollars(circle)} are over the table maximum "
                           f"{dollars(lim.max)} ({lim.source('max', limits.profile)}; 003 PLAYERS WAGERING ON "
                           "ANOTHER PLAYER'S HAND 1: table limits apply per betting circle)")
        for number, amount in sorted(s.additional.items()):
            msg = _refusal(who, "additional", amount, limits, f"additional wager on {number}")
            if msg:
                out.append(msg)
    return out
