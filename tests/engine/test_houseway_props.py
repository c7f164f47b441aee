"""The house way always returns a legal set of exactly the seven cards dealt.

001 11.9(a) / 000(l)(1): five and two cards, the high hand at least equal to the low hand.
003 IMPORTANT NOTES 1: "The bank cannot set an automatic loser!"
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.rank import legal_set
from app.rules.resources import profile

WAYS = [("casino", profile("casino")), ("face-up", profile("face-up-ca"))]

hands7 = st.lists(st.integers(0, 52), min_size=7, max_size=7, unique=True)


def check(prof, way, cards):
    s = prof.house(way).set(cards)
    assert len(s.high) == 5 and len(s.low) == 2
    assert sorted(s.high + s.low) == sorted(cards)
    ok, reason = legal_set(prof.ranker(), s.high, s.low)
    assert ok, (cards, s, reason)
    assert s.rule.startswith("003" if way == "casino" else "002")


@pytest.mark.parametrize("way,prof", WAYS)
@settings(max_examples=1500, deadline=None)
@given(cards=hands7)
def test_house_way_always_legal(way, prof, cards):
    check(prof, way, cards)


@pytest.mark.parametrize("way,prof", WAYS)
def test_house_way_legal_on_random_sample(way, prof):
    rng = random.Random(2026)
    for _ in range(20_000):
        check(prof, way, rng.sample(range(53), 7))


@pytest.mark.slow
@pytest.mark.parametrize("way,prof", WAYS)
def test_house_way_legal_on_large_sample(way, prof):
    # a large random sample: 1,000,000 hands per house way, with and without the joker
    rng = random.Random(53)
    for _ in range(1_000_000):
        check(prof, way, rng.sample(range(53), 7))


@pytest.mark.parametrize("way,prof", WAYS)
def test_house_way_does_not_depend_on_card_order(way, prof):
    rng = random.Random(11)
    for _ in range(2000):
        cards = rng.sample(range(53), 7)
        shuffled = cards[:]
        rng.shuffle(shuffled)
        a, b = prof.house(way).set(cards), prof.house(way).set(shuffled)
        assert (a.high, a.low) == (b.high, b.low)
