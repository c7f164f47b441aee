"""The base game's house edge, estimated: the house way against itself.

The base game has no exact figure here: every player's hand against every banker's hand, each
set by the house way, is C(53,7) x C(46,7) pairs, out of reach of an enumeration on a
workstation. It is estimated by simulation instead, with the engine's own rules: each deal
shuffles the 53 cards and deals seven hands of seven (000(i)(2)(ii), (i)(4): seven stacks of
seven, four cards left over); every hand is set by the profile's house way (000(l)(3)); every ordered pair of the
seven hands (42) is one player's hand against the banker's, compared as the settlement compares
them (``compare_hands``: a copy is the banker's, 000(l)(6)(ii), or a push where the profile's
ties push, 004(7)). Each pair is a uniform pair of disjoint seven-card hands, so the win, loss
and push rates are unbiased; the pairs of one deal share their cards, so the interval is taken
over the deals, which are independent (the per-deal counts and their squares are kept). Per banker's
hand of each deal, its six players' wins and losses are kept too (their squares and product
summed): how often two seats against one banker's hand win or lose together, for the spread of a
round's base wagers (issue 36, game protection: docs/protection.md).

What the estimate leaves out: a player who does not play the house way, surrender, fouls; the
figure is the house way played on both sides.

Determinism: deals come in blocks of ``BLOCK``, each from ``random.Random(f"{seed}:{block}")``,
and the counts are sums, so the same seed and number of deals give the same counts whatever
the number of worker processes.

The profiles that share a house way, a wheel setting and a reading of ties share an estimate
(``group``); the payout odds and the commission, which differ between them, are applied to the
rates afterwards (app/workstation/theoretical.py).
"""

from __future__ import annotations

import json
import math
import multiprocessing as mp
import random
import sys
import time
from dataclasses import asdict, dataclass
from fractions import Fraction
from itertools import permutations
from pathlib import Path

from app import __version__
from app.engine.settle import LOSE, WIN, compare_hands

BLOCK = 2_000            # deals per block (one seeded generator each)
HANDS = 7                # 000(i)(2)(ii): seven stacks of seven cards
PAIRS = HANDS * (HANDS - 1)
Z95 = Fraction(196, 100)  # the two-sided 95% normal quantile, 1.96


@dataclass(frozen=True)
class BaseCounts:
    """Counts of one group's simulation, from the player's side of each pair."""

    group: str
    profiles: tuple[str, ...]
    seed: int
    deals: int
    wins: int
    losses: int
    pushes: int
    # sums over the deals of the squares and the product of the per-deal counts: the variance
    # of any a*p_lose - b*p_win across deals
    sum_w2: int
    sum_l2: int
    sum_wl: int
    # per deal and per banker's hand, its six players' wins w and losses l: the sums over the
    # (deal, banker) groups of w^2, l^2 and w*l, from which two seats against one banker's hand
    # win or lose together (``same_banker``; issue 36: the seats of a round are not independent).
    # 0 in an estimate made before they were kept: not known
    banker_w2: int = 0
    banker_l2: int = 0
    banker_wl: int = 0

    @property
    def pairs(self) -> int:
        return self.deals * PAIRS

    def rates(self) -> tuple[Fraction, Fraction, Fraction]:
        """Win, loss and push rates of the player's hand (exact fractions of the counts)."""
        n = self.pairs
        return Fraction(self.wins, n), Fraction(self.losses, n), Fraction(self.pushes, n)

    def combination(self, a: Fraction, b: Fraction) -> tuple[Fraction, Fraction]:
        """The estimate of ``a*p_lose - b*p_win`` and the variance of that estimate (over the
        deals: per-deal values x_i = (a*L_i - b*W_i)/42, variance of their mean)."""
        d = self.deals
        value = (a * self.losses - b * self.wins) / self.pairs
        if d < 2:
            return value, Fraction(0)
        sx = (a * self.losses - b * self.wins) / PAIRS
        sxx = (a * a * self.sum_l2 - 2 * a * b * self.sum_wl + b * b * self.sum_w2) / (PAIRS * PAIRS)
        sample_var = (sxx - sx * sx / d) / (d - 1)
        return value, sample_var / d

    def same_banker(self) -> tuple[Fraction, Fraction, Fraction] | None:
        """For two different players against the same banker's hand: the chance both win, both
        lose, and the first wins while the second loses; None where the estimate did not keep it.
        Each banker's hand has 6 players, so E[w^2] = 6 pW + 30 P(both win), and so on."""
        if not (self.banker_w2 or self.banker_l2):
            return None
        groups, pairs = self.deals * HANDS, (HANDS - 1) * (HANDS - 2)
        p_win, p_lose, _ = self.rates()
        ww = (Fraction(self.banker_w2, groups) - (HANDS - 1) * p_win) / pairs
        ll = (Fraction(self.banker_l2, groups) - (HANDS - 1) * p_lose) / pairs
        return ww, ll, Fraction(self.banker_wl, groups) / pairs

    def as_json(self) -> dict:
        return {**asdict(self), "profiles": list(self.profiles)}

    @classmethod
    def from_json(cls, d: dict) -> BaseCounts:
        return cls(d["group"], tuple(d["profiles"]), d["seed"], d["deals"], d["wins"], d["losses"], d["pushes"],
                   d["sum_w2"], d["sum_l2"], d["sum_wl"], d.get("banker_w2", 0), d.get("banker_l2", 0),
                   d.get("banker_wl", 0))


def group_of(rules) -> str:
    """Profiles with the same house way, wheel and ties play the same base game."""
    return f"{rules.house_way}/{rules.wheel}/{rules.ties}"


def groups() -> dict[str, tuple[str, ...]]:
    """Every group of the shipped profiles, with the profiles in it."""
    from app.rules.resources import names, profile
    out: dict[str, list[str]] = {}
    for name in names("rules"):
        out.setdefault(group_of(profile(name).rules), []).append(name)
    return {g: tuple(v) for g, v in sorted(out.items())}


def _block(args: tuple[str, int, int, int]) -> tuple[int, ...]:
    """(wins, losses, pushes, sum W^2, sum L^2, sum W*L, and per banker's hand sum w^2, sum l^2,
    sum w*l) of ``n`` deals of block ``block``."""
    profile_name, seed, block, n = args
    from app.rules.resources import profile
    prof = profile(profile_name)
    rules, ranker, house = prof.rules, prof.ranker(), prof.house()
    rng = random.Random(f"{seed}:{block}")
    deck = list(range(53))
    w = lo = p = w2 = l2 = wl = bw2 = bl2 = bwl = 0
    for _ in range(n):
        rng.shuffle(deck)
        sets = [house.set(deck[7 * i:7 * i + 7]) for i in range(HANDS)]
        dw = dl = 0
        bw, bl = [0] * HANDS, [0] * HANDS
        for i, j in permutations(range(HANDS), 2):   # hand i plays against banker's hand j
            a, b = sets[i], sets[j]
            outcome, _ = compare_hands(ranker, a.high, a.low, b.high, b.low, rules)
            if outcome == WIN:
                dw += 1
                bw[j] += 1
            elif outcome == LOSE:
                dl += 1
                bl[j] += 1
        w, lo, p = w + dw, lo + dl, p + PAIRS - dw - dl
        w2, l2, wl = w2 + dw * dw, l2 + dl * dl, wl + dw * dl
        bw2 += sum(x * x for x in bw)
        bl2 += sum(x * x for x in bl)
        bwl += sum(x * y for x, y in zip(bw, bl))
    return w, lo, p, w2, l2, wl, bw2, bl2, bwl


def simulate(group: str, profiles: tuple[str, ...], deals: int, seed: int, workers: int = 1,
             progress=None) -> BaseCounts:
    """``deals`` deals of the group's base game (played with its first profile's rules)."""
    if deals < 2:
        raise ValueError(f"at least 2 deals are needed for an interval, got {deals}")
    todo = [(profiles[0], seed, b, min(BLOCK, deals - b * BLOCK)) for b in range(math.ceil(deals / BLOCK))]
    totals = [0] * 9
    done = 0
    if workers > 1 and len(todo) > 1:
        with mp.get_context("spawn").Pool(workers) as pool:
            for args, r in zip(todo, pool.imap(_block, todo)):
                totals = [x + y for x, y in zip(totals, r)]
                done += args[3]
                if progress:
                    progress(group, done, deals)
    else:
        for args in todo:
            totals = [x + y for x, y in zip(totals, _block(args))]
            done += args[3]
            if progress:
                progress(group, done, deals)
    return BaseCounts(group, profiles, seed, deals, *totals)


def estimate_all(deals: int, seed: int, workers: int = 0, progress=None) -> dict:
    workers = workers or mp.cpu_count()
    started = time.monotonic()
    out = {g: simulate(g, profs, deals, seed, workers, progress).as_json() for g, profs in groups().items()}
    return {"pitdesk_version": __version__, "method": "the house way against itself, seven hands a deal, every "
            "ordered pair of hands (app/analysis/estimate.py)", "seed": seed, "deals": deals,
            "elapsed_seconds": round(time.monotonic() - started, 1), "workers": workers, "groups": out}


def _print_progress(group: str, done: int, total: int) -> None:
    sys.stderr.write(f"  {group}: {done:,} / {total:,} deals\n")
    sys.stderr.flush()


def base_command(out: str, deals: int, seed: int, workers: int) -> int:
    if deals < 2:
        print(f"pitdesk: error: --deals must be at least 2, got {deals}", file=sys.stderr)
        return 2
    result = estimate_all(deals, seed, workers, _print_progress)
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(result, indent=2) + "\n")
    tmp.replace(path)   # never a half-written estimate
    summary = {}
    for g, d in result["groups"].items():
        c = BaseCounts.from_json(d)
        pw, pl, pp = c.rates()
        summary[g] = {"profiles": d["profiles"], "win": float(pw), "lose": float(pl), "push": float(pp)}
    print(json.dumps({"out": str(path), "deals": deals, "seed": seed, "elapsed_seconds": result["elapsed_seconds"],
                      "groups": summary}, indent=2))
    return 0
