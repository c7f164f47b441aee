"""The exhaustive enumeration covers every hand once and reproduces hand-derived counts."""

import math

import pytest

from app.analysis import enumeration as analysis


def test_tasks_cover_every_hand_exactly_once():
    # the blocks of the composition walk add up to C(53,7) and no composition repeats a block
    todo = analysis.tasks()
    assert sum(analysis.task_size(t) for t in todo) == math.comb(53, 7) == 154_143_080
    assert len({(t[0], t[1]) for t in todo}) == len(todo)


def test_three_card_counts():
    # 001 11.18(b): natural trips 13 x C(4,3) = 52 plus A-A-joker C(4,2) = 6;
    # natural three-card straight flushes: 12 runs (A-2-3 .. Q-K-A) x 4 suits
    c = analysis.three_card_counts()
    assert sum(c.values()) == math.comb(53, 3)
    assert c["three_of_a_kind"] == 58
    assert c["straight_flush_natural"] == 48


@pytest.mark.slow
def test_full_enumeration_counts():
    data = analysis.enumerate_all(workers=2)
    f = data["counts"]["fortune"]
    assert data["hands_classified"] == sum(f.values()) == 154_143_080
    assert f["five_aces"] == math.comb(48, 2)            # 000(c)(2)(i): AAAA + joker + any two
    assert f["sf7_natural"] == 8 * 4                     # 8 runs of seven (A-7 .. 8-A) x 4 suits
    assert f["royal_plus_royal_match"] == 4 * 3 + 20 * 3  # natural royal, or 4 royal cards + joker; K-Q of 3 suits
    assert data["counts"]["fortune_ak"]["royal_plus_royal_match"] == 72
    # nine-high pai gow (001 11.1): rank sets {2,3,4,5,7,8,9} and {2,3,4,6,7,8,9}, suits without a flush
    flushes = 4 * (math.comb(7, 5) * 9 + 7 * 3 + 1)
    assert data["counts"]["insurance"]["nine_high"] == 2 * (4 ** 7 - flushes)
    # two independent methods agree on the single-hand ace-high counts (002)
    assert data["counts"]["ace_high"]["ace_high_natural"] == data["ace_high_joint"]["dealer_ace_high_natural"]
    assert data["counts"]["ace_high"]["ace_high_joker"] == data["ace_high_joint"]["dealer_ace_high_joker"]
    # 000(q)(4) five aces and pair: AAAA + joker + a pair of any of 12 other ranks
    assert sum(n for k, n in data["progressive"].items() if k.endswith("|five_aces")) == 12 * 6


def test_ace_high_joint_is_symmetric_and_bounded():
    # 002 ACE HIGH BONUS BET: both hands ace-high. Counting (dealer, player) pairs must be the
    # same whichever hand holds the joker when both are natural, and no more than the dealer's
    # ace-high hands times every player hand from the other 46 cards.
    j = analysis.ace_high_joint()
    assert j["both_dealer_natural"] <= j["dealer_ace_high_natural"] * math.comb(46, 7)
    assert j["both_dealer_joker"] <= j["dealer_ace_high_joker"] * math.comb(46, 7)
    # the same marginals from the rank-set method and from first principles for the joker:
    # six non-ace ranks without a straight (joker wild) times suits with no four of one suit
    sets = analysis._ace_high_rank_sets()[True]
    no_flush = sum(1 for a in range(4 ** 6)
                   if max([(a >> (2 * i)) & 3 for i in range(6)].count(s) for s in range(4)) < 4)
    assert j["dealer_ace_high_joker"] == len(sets) * no_flush


def test_ace_high_joint_matches_a_simulation():
    # an independent check: deal 400,000 pairs of hands and classify them with the numpy path
    import numpy as np

    from app.engine import vector
    j = analysis.ace_high_joint()
    p = (j["both_dealer_natural"] + j["both_dealer_joker"]) / (math.comb(53, 7) * math.comb(46, 7))
    rng = np.random.default_rng(20261121)
    n = 400_000
    deals = np.argsort(rng.random((n, 53)), axis=1)[:, :14]
    a = vector.classify(*vector.hands_to_masks(deals[:, :7]))["ace_high"] > 0
    b = vector.classify(*vector.hands_to_masks(deals[:, 7:]))["ace_high"] > 0
    sd = math.sqrt(p * (1 - p) / n)
    assert abs((a & b).mean() - p) < 5 * sd
