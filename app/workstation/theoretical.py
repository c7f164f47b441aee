"""The theoretical hold: what the house expects to keep of each wager type, from the engine.

Exact where the engine can count every hand:
- Fortune (and the toke bet on its table, 003 GENERAL RULES 6, capped at $500), insurance,
  three-card, seven-card, Ace-High and progressive: the line probabilities of the exhaustive
  enumeration (app/analysis/enumeration.py, ``pitdesk analyze enumerate``), priced by ``analysis.price``
  for the table's pay table. The enumeration's counts are shipped in
  ``resources/analysis/enumeration.json`` (about a minute to recompute on two cores; a slow
  test checks the file against a fresh enumeration), and each pay table is priced once per
  process and kept (``_line_probabilities``).
- Additional wagers (000(p)): the RNG shows one of the numbers 1 to 7 (000(p)(1)), the win is
  the profile's odds rounded down to the dollar (000(p)(2)(vi)).
- Collection fees (002 COLLECTION PROCEDURES): the posted fee of each wager.

Estimated where it cannot: the base game (the house way against itself, app/analysis/estimate.py), and
the dealer's wager against a player bank (the same game from the dealer's side, 000(m)(11)).
The estimate's counts are shipped in ``resources/analysis/base-game.json``
(``pitdesk analyze base``); a profile whose group is not in it is simulated once, with the
same seed and number of deals, and kept in the user's data folder (``analysis/base-game.json``).

Not priced: envy (a fixed sum per other player's hand, not a wager: docs/analysis.md), and the
house's take from a player bank or co-bank (it depends on how the bank plays).

Every figure is an ``Expectation``: the house's expected net in cents of a set of wagers, an
exact fraction plus, for an estimate, ``a*p_lose - b*p_win`` per simulated group, so that
figures of several tables and stakes add up before the interval is taken.
"""

from __future__ import annotations

import json
import os
import threading
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cache
from pathlib import Path

from app.engine.dispersion import moments, two_way_variance
from app.engine.settle import additional_win, win_amount
from app.analysis.estimate import Z95, BaseCounts, group_of, simulate
from app.rules.resources import RESOURCES, paytable, profile
from app.store.paths import data_dir

ENUMERATION = RESOURCES / "analysis" / "enumeration.json"
BASE_GAME = RESOURCES / "analysis" / "base-game.json"
EXACT, ESTIMATE = "exact", "estimate"
PAYTABLE_WAGERS = {"fortune": "fortune", "fortune_toke": "fortune", "insurance": "insurance",
                   "three_card": "three_card", "seven_card": "seven_card", "ace_high": "ace_high"}
NOT_PRICED = {
    "envy": "envy is a fixed sum paid per other player's hand, not a wager: no house edge",
    "bank": "the house's commission and share of a player bank or co-bank depend on how the bank plays: not priced",
}


class TheoryUnavailable(RuntimeError):
    """A shipped analysis file is missing or unreadable; the message names it."""


@dataclass
class Expectation:
    """The house's expected net in cents: ``exact`` plus, per simulated group, ``a*p_lose - b*p_win``."""

    exact: Fraction = Fraction(0)
    estimated: dict[str, tuple[Fraction, Fraction]] = field(default_factory=dict)
    sources: set[str] = field(default_factory=set)
    # the spread of the house's net over these wagers (issue 36, docs/protection.md): the exact
    # variance of the wagers priced exactly, and per simulated group the sums over its wagers of
    # a^2, b^2 and a*b (each takes a on a loss, gives b on a win), wagers independent of each other
    spread_exact: Fraction = Fraction(0)
    spread_groups: dict[str, tuple[Fraction, Fraction, Fraction]] = field(default_factory=dict)

    def __iadd__(self, other: Expectation) -> Expectation:
        self.exact += other.exact
        for g, (a, b) in other.estimated.items():
            a0, b0 = self.estimated.get(g, (Fraction(0), Fraction(0)))
            self.estimated[g] = (a0 + a, b0 + b)
        self.sources |= other.sources
        self.spread_exact += other.spread_exact
        for g, sums in other.spread_groups.items():
            self.spread_groups[g] = tuple(x + y for x, y in zip(self.spread_groups.get(g, (0, 0, 0)), sums))
        return self

    def variance(self) -> Fraction:
        """The variance of the house's net over these wagers (cents squared): the exact part, and
        each simulated group's at its estimated rates (``two_way_variance``)."""
        out = self.spread_exact
        for g, sums in self.spread_groups.items():
            _, p_lose, p_win = _rates(g)
            out += two_way_variance(p_lose, p_win, *sums)
        return out

    def expected_value(self) -> Fraction:
        return self.value_and_variance()[0]

    @property
    def basis(self) -> str:
        return ESTIMATE if self.estimated else EXACT

    def value_and_variance(self) -> tuple[Fraction, Fraction]:
        value, var = self.exact, Fraction(0)
        for g, (a, b) in self.estimated.items():
            v, s2 = base_counts(g).combination(a, b)
            value += v
            var += s2   # the groups are separate simulations: their variances add
        return value, var


@dataclass(frozen=True)
class Theoretical:
    """A theoretical hold: a fraction of the wagered, exact or an estimate with its 95% interval."""

    hold: Fraction
    basis: str                                   # "exact" or "estimate"
    interval: tuple[float, float] | None         # the estimate's 95% interval (None when exact)
    sources: tuple[str, ...]

    def as_json(self) -> dict:
        out = {"basis": self.basis, "sources": list(self.sources)}
        if self.basis == EXACT:
            out["exact"] = f"{self.hold.numerator}/{self.hold.denominator}"
        else:
            out["interval_95"] = [round(self.interval[0], 6), round(self.interval[1], 6)]
            out["note"] = "an estimate: the house way played against itself, simulated (app/analysis/estimate.py)"
        return out


def theoretical(e: Expectation, wagered: int) -> Theoretical | None:
    if wagered <= 0:
        return None
    value, var = e.value_and_variance()
    hold = value / wagered
    interval = None
    if e.estimated:
        half = float(Z95) * float(var) ** 0.5 / wagered
        interval = (float(hold) - half, float(hold) + half)
    return Theoretical(hold, e.basis, interval, tuple(sorted(e.sources)))


# -- the enumeration, priced per pay table -------------------------------------------------------
@cache
def _enumeration() -> dict:
    try:
        return json.loads(ENUMERATION.read_text())
    except (OSError, ValueError) as e:
        raise TheoryUnavailable(f"the enumeration's counts {ENUMERATION} cannot be read ({e}); "
                                "'pitdesk analyze enumerate --out resources/analysis/enumeration.json' writes them") \
            from None


@cache
def priced(table_name: str, royal_match: str = "king-queen") -> dict:
    """``analysis.price`` of one pay table, once per process (the A-K royal match of 001
    11.3(f)2.ii counts its own Fortune hands)."""
    from app.analysis import enumeration as analysis
    data = _enumeration()
    if royal_match == "ace-king":
        data = dict(data, counts=dict(data["counts"], fortune=data["counts"]["fortune_ak"]))
    return analysis.price(paytable(table_name), data)


def paytable_edge(table_name: str, royal_match: str = "king-queen") -> Fraction | None:
    """The pay table's house edge per unit wagered, exact (None for envy, not a wager)."""
    p = priced(table_name, royal_match)
    return Fraction(p["house_edge_exact"]) if p.get("house_edge_exact") else None


def _rates(group: str) -> tuple[Fraction, Fraction, Fraction]:
    """The base game's (push, lose, win) rates of the player's hand in ``group``'s estimate."""
    win, lose, push = base_counts(group).rates()
    return push, lose, win


@cache
def _odds_moments(table_name: str, royal_match: str, stake: int, cap: int | None) -> tuple[Fraction, Fraction]:
    """The mean and the variance of the house's net on one wager of ``stake`` on an odds pay
    table, once a process per pay table and stake: it keeps the stake on a loss, pays each line's
    win (at most ``cap``); from the lines' exact probabilities (``dispersion.moments``)."""
    table = paytable(table_name)
    lines = {ln["line"]: Fraction(ln["probability_exact"]) for ln in priced(table_name, royal_match)["lines"]}
    hit = sum(lines.values(), Fraction(0))
    outcomes = [(1 - hit, Fraction(stake))] + [
        (p, -Fraction(table.pays[ln].amount(stake) if cap is None else min(table.pays[ln].amount(stake), cap)))
        for ln, p in lines.items()]
    return moments(outcomes)


@cache
def _progressive_spread_one(table_name: str) -> Fraction:
    """The variance of the house's net on one progressive wager, at the minimum reset meter as
    its expectation is priced (000(q)(6)): the stake kept, each line's award paid."""
    table = paytable(table_name)
    wager, meter = table.extras["wager"], table.extras["minimum_reset"]
    lines = {ln["line"]: Fraction(ln["probability_exact"]) for ln in priced(table_name)["lines"]}
    hit = sum(lines.values(), Fraction(0))
    outcomes = [(1 - hit, Fraction(wager))] + [(p, Fraction(wager - table.pays[ln].amount(wager, meter)))
                                               for ln, p in lines.items()]
    return moments(outcomes)[1]


def _odds_expectation(table_name: str, royal_match: str, stake: int, count: int, cap: int | None) -> Fraction:
    """The house's expected net on ``count`` wagers of ``stake`` on an odds pay table: the stake
    kept on a loss, each line's win paid (at most ``cap``)."""
    return count * _odds_one(table_name, royal_match, stake, cap)


def _odds_one(table_name: str, royal_match: str, stake: int, cap: int | None) -> Fraction:
    """``_odds_expectation`` of one wager."""
    return _odds_moments(table_name, royal_match, stake, cap)[0]


# -- the base game's estimate ----------------------------------------------------------------------
_lock = threading.Lock()
_loaded: dict[str, BaseCounts] = {}


def user_cache() -> Path:
    return data_dir() / "analysis" / "base-game.json"


def _read_groups(path: Path) -> dict[str, BaseCounts]:
    try:
        data = json.loads(path.read_text())
        return {g: BaseCounts.from_json(d) for g, d in data["groups"].items()}
    except FileNotFoundError:
        return {}
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise TheoryUnavailable(f"the base game's estimate {path} cannot be read ({e})") from None


def base_counts(group: str) -> BaseCounts:
    """The shipped estimate of ``group``, else the user's cache, else simulated now (with the
    shipped seed and number of deals) and kept in the user's cache."""
    with _lock:
        if group in _loaded:
            return _loaded[group]
        shipped = _read_groups(BASE_GAME)
        if not shipped:
            raise TheoryUnavailable(f"the base game's estimate {BASE_GAME} is missing; "
                                    "'pitdesk analyze base --out resources/analysis/base-game.json' writes it")
        _loaded.update(shipped)
        if group not in _loaded:
            _loaded.update(_read_groups(user_cache()))
        if group not in _loaded:
            any_ = next(iter(shipped.values()))
            profs = tuple(n for n in _profile_names() if group_of(profile(n).rules) == group)
            counts = simulate(group, profs, any_.deals, any_.seed, workers=1)
            _write_user_cache(counts)
            _loaded[group] = counts
        return _loaded[group]


def _profile_names() -> list[str]:
    from app.rules.resources import names
    return names("rules")


def _write_user_cache(counts: BaseCounts) -> None:
    path = user_cache()
    groups = {g: c.as_json() for g, c in _read_groups(path).items()}
    groups[counts.group] = counts.as_json()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps({"groups": groups}, indent=2) + "\n")
    tmp.replace(path)


# -- the rare lines: top awards (issue 36, docs/protection.md) ---------------------------------------
TOP_AWARD = Fraction(1, 5000)     # a line rarer than one wager in 5,000 is a top award


def top_award_lines(profile_name: str, wager: str, stake: int) -> tuple[frozenset[str], Fraction] | None:
    """The top-award lines of ``wager``'s pay table at a table of ``profile_name`` (each rarer
    than ``TOP_AWARD``) and the chance that one wager hits one of them, exact; None where the wager
    has no pay table there."""
    rules = profile(profile_name).rules
    if wager in PAYTABLE_WAGERS:
        key = PAYTABLE_WAGERS[wager]
        if key not in rules.paytables:
            return None
        lines = priced(rules.paytables[key].name, rules.royal_match)["lines"]
    elif wager == "progressive":
        key = "progressive_1" if stake == 100 else "progressive_5"
        if key not in rules.paytables:
            return None
        lines = priced(rules.paytables[key].name)["lines"]
    else:
        return None
    top = {ln["line"]: Fraction(ln["probability_exact"]) for ln in lines
           if 0 < Fraction(ln["probability_exact"]) < TOP_AWARD}
    return frozenset(top), sum(top.values(), Fraction(0))


# -- the base game's seats against one banker's hand (issue 36) -----------------------------------------
def base_round_covariance(profile_name: str, seats: list[int]) -> Fraction:
    """The covariance the house-banked base wagers of one round add to the variance of the house's
    net, beyond each wager's own (``Expectation.variance``): every seat plays the same banker's
    hand, so seats win and lose together more often than independent ones (the estimate's
    ``same_banker``: docs/protection.md). ``seats``: the stake on each seat's hand (the bettors on
    one hand added: they win and lose as one). 0 where the estimate does not know, or one seat.

    X_i = a_i on the seat's loss, -b_i on its win: sum over i != j of E[X_i X_j] - E[X_i]E[X_j] =
    P(LL)(A^2 - sum a^2) - 2 P(WL)(AB - sum ab) + P(WW)(B^2 - sum b^2) - ((A pL - B pW)^2 - sum (a pL - b pW)^2)."""
    if len(seats) < 2:
        return Fraction(0)
    rules = profile(profile_name).rules
    counts = base_counts(group_of(rules))
    same = counts.same_banker()
    if same is None:
        return Fraction(0)
    ww, ll, wl = same
    p_win, p_lose, _ = counts.rates()
    a = [Fraction(s) for s in seats]
    b = []
    for s in seats:
        win = win_amount(s, rules)
        b.append(Fraction(win - rules.commission.on_win(win)))
    big_a, big_b = sum(a), sum(b)
    saa, sbb, sab = sum(x * x for x in a), sum(x * x for x in b), sum(x * y for x, y in zip(a, b))
    together = ll * (big_a * big_a - saa) - 2 * wl * (big_a * big_b - sab) + ww * (big_b * big_b - sbb)
    means = (big_a * p_lose - big_b * p_win) ** 2 - sum((x * p_lose - y * p_win) ** 2 for x, y in zip(a, b))
    return together - means


# -- one wager type at one stake ---------------------------------------------------------------------
def expectation(profile_name: str, wager: str, stake: int, count: int) -> Expectation | None:
    """The house's expected net on ``count`` wagers of ``stake`` cents of ``wager`` (a hold wager
    type, app/workstation/hold.py) at a table of ``profile_name``; None where not priced."""
    prof = profile(profile_name)
    rules = prof.rules
    if wager in PAYTABLE_WAGERS:
        name = rules.paytables[PAYTABLE_WAGERS[wager]].name
        # 003 GENERAL RULES 6: a toke bet pays at most $500
        cap = rules.envy.toke_max_payout_cents if wager == "fortune_toke" else None
        return Expectation(_odds_expectation(name, rules.royal_match, stake, count, cap), {},
                           {f"{name} ({paytable(name).citation})"},
                           count * _odds_moments(name, rules.royal_match, stake, cap)[1])
    if wager == "progressive":
        # 000(q)(1): $1 or $5; priced at the minimum reset meter (docs/analysis.md)
        name = rules.paytables["progressive_1" if stake == 100 else "progressive_5"].name
        return Expectation(count * stake * paytable_edge(name), {}, {f"{name} ({paytable(name).citation})"},
                           count * _progressive_spread_one(name))
    if wager == "additional":
        # 000(p)(1), (2)(iii): one number of seven wins; (2)(vi): the win rounded down to the dollar
        win = additional_win(stake, rules)
        return Expectation(count * (Fraction(6, 7) * stake - Fraction(1, 7) * win), {},
                           {f"000(p)(2)(vi) at {rules.additional_odds[0]} to {rules.additional_odds[1]}"},
                           count * moments([(Fraction(6, 7), stake), (Fraction(1, 7), -win)])[1])
    if wager == "collection_fee":
        # 002 COLLECTION PROCEDURES: the posted fee, taken before play
        return Expectation(Fraction(count * rules.commission.flat_fee(stake)), {}, {"002 COLLECTION PROCEDURES"})
    if wager == "base":
        # the house banks: it keeps the stake on a loss and pays the win less the commission
        # (000(l)(8), (9); 001 11.9(j); 004(12))
        win = win_amount(stake, rules)
        group = group_of(rules)
        a, b = Fraction(stake), Fraction(win - rules.commission.on_win(win))
        return Expectation(Fraction(0), {group: (count * a, count * b)}, {f"base game estimate {group}"},
                           Fraction(0), {group: (count * a * a, count * b * b, count * a * b)})
    if wager == "dealer_wager":
        # 000(m)(11), (14): the dealer's wager against the bank; the house is the bettor, its win
        # returns to the table inventory without commission; a copy is the bank's
        win = win_amount(stake, rules)
        group = group_of(rules)
        a, b = Fraction(-stake), Fraction(-win)
        return Expectation(Fraction(0), {group: (count * a, count * b)}, {f"base game estimate {group}"},
                           Fraction(0), {group: (count * a * a, count * b * b, count * a * b)})
    return None
