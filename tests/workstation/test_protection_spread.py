"""The exact spread of each wager the hold prices (issue 36, docs/protection.md), checked against
counts made apart from the engine's: Wizard of Odds' published combinations for the seven-card
and three-card bonuses (Pai Gow Mania, wizardofodds.com/games/pai-gow-poker/appendix/5/), and the
shipped enumeration's own counts summed in integers for Fortune."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from app.rules.resources import RESOURCES, paytable, profile
from app.workstation.theoretical import expectation

# Wizard of Odds, Pai Gow Mania: combinations of the player's seven cards of 53 (C(53,7)) and of
# the first three (C(53,3)), by the hand they make
SEVEN = {"five_aces": 1_128, "royal_flush": 26_132, "straight_flush": 184_832, "four_of_a_kind": 307_472,
         "full_house": 4_188_528, "flush": 6_172_088, "three_of_a_kind": 7_672_500, "straight": 11_034_204}
SEVEN_OTHER = 124_556_196
THREE = {"straight_flush_natural": 48, "three_of_a_kind": 58, "straight_flush": 100, "straight": 1_020,
         "flush": 1_308, "pair": 3_912}
THREE_OTHER = 16_980


def _variance_from_counts(counts: dict[str, int], other: int, odds: dict[str, int], stake: int) -> Fraction:
    """The house's net on one wager: +stake on a loss, -odds*stake on a line, from whole counts."""
    total = other + sum(counts.values())
    s1 = other * stake - sum(n * odds[k] * stake for k, n in counts.items())
    s2 = other * stake * stake + sum(n * (odds[k] * stake) ** 2 for k, n in counts.items())
    return Fraction(s2, total) - Fraction(s1, total) ** 2


@pytest.mark.parametrize("wager,counts,other", [("seven_card", SEVEN, SEVEN_OTHER), ("three_card", THREE, THREE_OTHER)])
def test_a_bonus_wagers_variance_is_the_published_counts(wager, counts, other):
    rules = profile("nj").rules          # 001's seven-card and three-card pay tables (001 11.3(g), (h))
    table = paytable(rules.paytables[wager].name)
    odds = {k: table.pays[k].odds for k in counts}
    stake = 2_500
    x = expectation("nj", wager, stake, 4)
    assert x.basis == "exact"
    assert x.variance() == 4 * _variance_from_counts(counts, other, odds, stake)
    assert x.expected_value() == 4 * (Fraction(other * stake - sum(n * odds[k] * stake for k, n in counts.items()),
                                                other + sum(counts.values())))


def test_the_fortune_spread_is_about_five_and_a_third_units_a_hand_from_the_enumerations_counts():
    """The issue's figure: about 5.3 units a hand, against the base game's 0.75."""
    rules = profile("casino").rules
    table = paytable(rules.paytables["fortune"].name)
    data = json.loads((RESOURCES / "analysis" / "enumeration.json").read_text())
    from app.analysis.enumeration import _line_probabilities
    probs = _line_probabilities(table, data["counts"]["fortune"], data["total_hands"])
    # whole counts again from the exact probabilities: n = p * total hands
    counts = {k: int(p * data["total_hands"]) for k, p in probs.items() if p}
    assert all(Fraction(n, data["total_hands"]) == probs[k] for k, n in counts.items())
    other = data["total_hands"] - sum(counts.values())
    odds = {k: table.pays[k].odds for k in counts}
    x = expectation("casino", "fortune", 500, 1)
    assert x.variance() == _variance_from_counts(counts, other, odds, 500)
    assert 5.3 < float(x.variance()) ** 0.5 / 500 < 5.4
    base = expectation("casino", "base", 500, 1)
    assert base.basis == "estimate" and 0.72 < float(base.variance()) ** 0.5 / 500 < 0.78


def test_spreads_add_over_wagers_and_stakes():
    one = expectation("casino", "fortune", 500, 3)
    one += expectation("casino", "fortune", 2_500, 2)
    assert one.variance() == 3 * expectation("casino", "fortune", 500, 1).variance() + \
        2 * expectation("casino", "fortune", 2_500, 1).variance()
    # a fee taken before play cannot stray
    assert expectation("face-up-ca", "collection_fee", 10_000, 5).variance() == 0


def test_seats_against_one_bankers_hand_win_and_lose_together():
    """The base game's seats all play the banker's one hand (issue 36): the estimate keeps, per
    banker's hand, its players' wins and losses, and two seats both win far more often than two
    independent ones would; the round's covariance is what a brute-force sum over the two seats'
    joint outcomes gives."""
    from app.analysis.estimate import group_of
    from app.engine.settle import win_amount
    from app.workstation.theoretical import base_counts, base_round_covariance
    rules = profile("casino").rules
    counts = base_counts(group_of(rules))
    ww, ll, wl = counts.same_banker()
    p_win, p_lose, _ = counts.rates()
    assert ww > p_win * p_win and ll > p_lose * p_lose and wl < p_win * p_lose     # a weak or strong banker
    for stakes in ((1_000, 2_500), (500, 500, 10_000)):
        x = []   # each seat's (a on a loss, -b on a win)
        for s in stakes:
            win = win_amount(s, rules)
            x.append((Fraction(s), -Fraction(win - rules.commission.on_win(win))))
        joint = {("W", "W"): ww, ("L", "L"): ll, ("W", "L"): wl, ("L", "W"): wl}
        joint[("W", "P")] = joint[("P", "W")] = p_win - ww - wl
        joint[("L", "P")] = joint[("P", "L")] = p_lose - ll - wl
        joint[("P", "P")] = 1 - sum(joint.values())
        value = {"W": 1, "L": 0, "P": None}
        brute = Fraction(0)
        for i in range(len(x)):
            for j in range(len(x)):
                if i == j:
                    continue
                def pay(k, o):
                    return Fraction(0) if value[o] is None else (x[k][1] if value[o] else x[k][0])
                exy = sum(p * pay(i, oi) * pay(j, oj) for (oi, oj), p in joint.items())
                mi = p_lose * x[i][0] + p_win * x[i][1]
                mj = p_lose * x[j][0] + p_win * x[j][1]
                brute += exy - mi * mj
        assert base_round_covariance("casino", list(stakes)) == brute
    assert base_round_covariance("casino", [2_500]) == 0
