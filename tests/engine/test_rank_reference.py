"""The engine's lookup-table ranking agrees with the independent reference (tests/support/rank_reference.py).

Cites 000(c), 001 11.3, 003 #17 and IMPORTANT NOTES 3, 002 CARD VALUES, 004(1).
"""

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.cards import JOKER
from app.engine.rank import CATEGORY_NAMES, Ranker, category_of
from tests.support.rank_reference import CATS, ref_five, ref_two

RANKERS = {w: Ranker(w) for w in ("second", "lowest")}

hands5 = st.lists(st.integers(0, 52), min_size=5, max_size=5, unique=True)
hands5_joker = st.lists(st.integers(0, 51), min_size=4, max_size=4, unique=True).map(lambda h: h + [JOKER])


def sign(x):
    return (x > 0) - (x < 0)


@pytest.mark.parametrize("wheel", ["second", "lowest"])
@settings(max_examples=400, deadline=None)
@given(a=hands5, b=hands5)
def test_order_matches_reference(wheel, a, b):
    # 000(c)(5): higher / lower / copy must agree with the reference's tuple order
    r = RANKERS[wheel]
    ra, rb = ref_five(a, wheel), ref_five(b, wheel)
    assert CATEGORY_NAMES[category_of(r.five(a))] == CATS[ra[0]]
    assert sign(r.five(a) - r.five(b)) == sign((ra > rb) - (ra < rb))


@pytest.mark.parametrize("wheel", ["second", "lowest"])
@settings(max_examples=300, deadline=None)
@given(a=hands5_joker, b=hands5_joker)
def test_joker_hands_match_reference(wheel, a, b):
    # 000(c)(3), 003 IMPORTANT NOTES 3: the joker completes straights and flushes, else an ace
    r = RANKERS[wheel]
    ra, rb = ref_five(a, wheel), ref_five(b, wheel)
    assert CATEGORY_NAMES[category_of(r.five(a))] == CATS[ra[0]]
    assert sign(r.five(a) - r.five(b)) == sign((ra > rb) - (ra < rb))


def test_every_low_hand_matches_reference():
    # 000(a)(1)(vii), (c)(2)(x): two-card hands are a pair or high cards; the joker is an ace
    r = Ranker()
    lows = list(combinations(range(53), 2))
    scores = {h: r.two(h) for h in lows}
    rng = random.Random(7)
    for a in lows:
        b = rng.choice(lows)
        ra, rb = ref_two(a), ref_two(b)
        assert sign(scores[a] - scores[b]) == sign((ra > rb) - (ra < rb)), (a, b)


@pytest.mark.slow
@pytest.mark.parametrize("wheel", ["second", "lowest"])
def test_all_joker_five_card_hands_match_reference(wheel):
    # exhaustive over every five-card hand holding the joker: C(52,4) = 270,725
    r = RANKERS[wheel]
    by_ref = {}
    for four in combinations(range(52), 4):
        h = list(four) + [JOKER]
        ref = ref_five(h, wheel)
        s = r.five(h)
        assert CATEGORY_NAMES[category_of(s)] == CATS[ref[0]], h
        prev = by_ref.setdefault(ref, s)
        assert prev == s, h  # equal reference rank <=> copy hand
