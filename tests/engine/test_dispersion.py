"""The spread of a wager's outcome (issue 36, game protection; app/engine/dispersion.py): exact
moments, the base game's two-way variance, and the z-score."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from app.engine.dispersion import moments, two_way_variance, z_score


def test_moments_of_an_even_money_bet_and_a_refusal_of_probabilities_that_do_not_add_to_one():
    assert moments([(Fraction(1, 2), 1), (Fraction(1, 2), -1)]) == (0, 1)
    assert moments([(Fraction(1, 4), 3), (Fraction(3, 4), -1)]) == (0, 3)
    with pytest.raises(ValueError, match="add to 9/10, not 1"):
        moments([(Fraction(1, 2), 1), (Fraction(2, 5), -1)])


rate = st.fractions(min_value=0, max_value=1, max_denominator=1000)
cents = st.integers(min_value=-10_000_000, max_value=10_000_000)


@given(rate, rate, st.lists(st.tuples(cents, cents, st.integers(1, 50)), min_size=1, max_size=6))
def test_the_two_way_variance_of_many_wagers_is_the_sum_of_each_wagers_own(p, q, wagers):
    """Each wager takes a on a loss and gives b on a win: the sums' formula equals each wager's
    exact variance (its three outcomes), added over the wagers and their counts."""
    p_lose, p_win = p * (1 - q), q * (1 - p)           # any two rates that leave a push
    one = sum((n * moments([(p_lose, a), (p_win, -b), (1 - p_lose - p_win, 0)])[1] for a, b, n in wagers),
              Fraction(0))
    sums = [sum(Fraction(n * a * a) for a, b, n in wagers), sum(Fraction(n * b * b) for a, b, n in wagers),
            sum(Fraction(n * a * b) for a, b, n in wagers)]
    assert two_way_variance(p_lose, p_win, *sums) == one


def test_z_is_the_distance_in_sigmas_and_none_without_spread():
    assert z_score(130, Fraction(100), Fraction(100)) == pytest.approx(3.0)
    assert z_score(70, Fraction(100), Fraction(100)) == pytest.approx(-3.0)
    assert z_score(12, Fraction(12), Fraction(0)) is None


def test_the_poisson_tail_and_the_normal_tail_a_threshold_stands_for():
    from math import exp, factorial
    from app.engine.dispersion import normal_tail, poisson_tail
    for k, lam in ((1, 0.0002), (2, 0.0096), (3, 0.16), (12, 4.0), (40, 30.0), (5, 60.0)):
        direct = 1 - sum(exp(-lam) * lam ** i / factorial(i) for i in range(k))
        assert poisson_tail(k, lam) == pytest.approx(direct, rel=1e-9, abs=1e-15), (k, lam)
    assert poisson_tail(0, 3.0) == 1.0
    assert poisson_tail(1, 1e-9) == pytest.approx(1e-9, rel=1e-6)       # no digits lost to 1 - P(N = 0)
    assert normal_tail(3) == pytest.approx(0.0013499, rel=1e-4) and normal_tail(0) == 0.5
