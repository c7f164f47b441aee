"""The exhaustive enumeration covers every hand once and reproduces hand-derived counts."""

import math

import pytest

from app import analysis


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
