"""How far a wager's result strays from its expectation: the exact variance of a wager's outcome
from the exact distribution of its outcomes, and a z-score (issue 36, game protection;
docs/protection.md gives every formula and its source).

Pure arithmetic on exact fractions: the distributions come from the enumeration of every hand
(app/analysis/enumeration.py) priced by the table's pay table (app/workstation/theoretical.py),
or, for the base game, from the rates of its simulated estimate."""

from __future__ import annotations

import math
from collections.abc import Iterable
from fractions import Fraction


def moments(outcomes: Iterable[tuple[Fraction, Fraction | int]]) -> tuple[Fraction, Fraction]:
    """The mean and the variance of a discrete outcome given as (probability, value) pairs whose
    probabilities add to 1: E[X] and E[X^2] - E[X]^2, exact."""
    p_sum, m1, m2 = Fraction(0), Fraction(0), Fraction(0)
    for p, x in outcomes:
        p_sum += p
        m1 += p * x
        m2 += p * x * x
    if p_sum != 1:
        raise ValueError(f"the probabilities add to {p_sum}, not 1")
    return m1, m2 - m1 * m1


def two_way_variance(p_lose: Fraction, p_win: Fraction, sum_a2: Fraction, sum_b2: Fraction,
                     sum_ab: Fraction) -> Fraction:
    """The variance of the house's net over wagers that each take ``a`` on a loss and give ``b``
    on a win (nothing on a push), from the sums over the wagers of a^2, b^2 and a*b: per wager
    a^2 pL + b^2 pW - (a pL - b pW)^2, added (the base game's outcome, 000(l)(8))."""
    return (p_lose * sum_a2 + p_win * sum_b2
            - (p_lose * p_lose * sum_a2 - 2 * p_lose * p_win * sum_ab + p_win * p_win * sum_b2))


def z_score(actual: int, expected: Fraction, variance: Fraction) -> float | None:
    """(actual - expected) / sigma, sigma the square root of ``variance``; None with no spread
    (nothing wagered, or a fee that cannot stray)."""
    if variance <= 0:
        return None
    return float(Fraction(actual) - expected) / math.sqrt(variance)


def poisson_tail(k: int, lam: float) -> float:
    """P(N >= k) for N Poisson with mean ``lam``: how rare ``k`` or more hits of a rare line are
    when ``lam`` are expected (1 for k <= 0)."""
    if k <= 0:
        return 1.0
    term, below = math.exp(-lam), 0.0
    for i in range(k):
        below += term
        term *= lam / (i + 1)
    return max(0.0, 1.0 - below) if below < 0.5 else _upper(k, lam, term)


def _upper(k: int, lam: float, term: float) -> float:
    """The upper tail summed directly from P(N = k) on (exact where 1 - P(N < k) would lose its
    digits): ``term`` is P(N = k)."""
    total, i = 0.0, k
    while term > 1e-300 and (i < lam + 50 or term > total * 1e-17):
        total += term
        i += 1
        term *= lam / i
    return total


def normal_tail(z: float) -> float:
    """P(Z >= z) for a standard normal Z: the one-sided tail a z threshold stands for (3: 0.00135)."""
    return 0.5 * math.erfc(z / math.sqrt(2))
