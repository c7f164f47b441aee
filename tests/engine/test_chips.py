"""The casino's chips and counts of them (app/engine/chips.py, issue 34): totals in integer cents,
a count as a person types it read back to the same chips, a tray never below no chips, and every
bad count named."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.engine.chips import MOST_CHIPS, ChipError, ChipSet

SET = ChipSet((100, 500, 2500, 10000, 50000, 100000))

counts = st.dictionaries(st.sampled_from(SET.denominations), st.integers(0, 2000))


@given(counts)
def test_a_counts_total_is_its_chips_times_their_values_in_cents(chips):
    c = SET.count(chips)
    assert isinstance(c.cents, int)
    assert c.cents == sum(value * n for value, n in chips.items())
    assert c.by_value() == {v: n for v, n in chips.items() if n}


@given(counts)
def test_a_count_in_words_reads_back_to_the_same_chips(chips):
    c = SET.count(chips)
    if not c.by_value():
        assert c.words() == "no chips"
        return
    assert SET.parse(c.words()) == c                                   # '3 x $1,000.00, 20 x $25.00'
    assert SET.parse(", ".join(f"{n}x{v // 100}" for v, n in c.by_value().items())) == c


@given(counts, counts)
def test_money_is_conserved_when_chips_leave_and_come_back(a, b):
    tray, moved = SET.count(a), SET.count(b)
    together = tray + moved
    assert together.cents == tray.cents + moved.cents
    assert together - moved == tray
    diff = together.differences(tray)
    assert sum(v * n for v, n in diff.items()) == moved.cents


def test_a_tray_never_holds_fewer_than_no_chips_and_the_shortfall_is_named():
    tray = SET.parse("20 x $25, 4 x $100")
    with pytest.raises(ChipError, match=r"not enough chips: 1 x \$25.00 short, 2 x \$100.00 short"):
        tray - SET.parse("21 x $25, 6 x $100")


@pytest.mark.parametrize("text, fault", [
    ("", "at least one value"),
    ("20 x $7", r"no \$7.00 chip in this casino's set"),
    ("twenty x $25", "expected a number of chips and their value"),
    ("20 x $25, 3 x $25", r"\$25.00 chips counted twice"),
    (f"{MOST_CHIPS + 1} x $5", "a whole number from 0 to"),
    ("20 x $25.005", "expected a number of chips"),
])
def test_a_bad_count_is_refused_naming_the_fault(text, fault):
    with pytest.raises(ChipError, match=fault):
        SET.parse(text)


@pytest.mark.parametrize("values, fault", [
    ((), "at least one value"),
    ((500, 100), "smallest first"),
    ((100, 100), "named twice"),
    ((0,), "from 1 to"),
    ((1.5,), "whole number of cents"),
    ((True,), "whole number of cents"),
])
def test_a_bad_chip_set_is_refused_naming_the_value(values, fault):
    with pytest.raises(ChipError, match=fault):
        ChipSet(values)


def test_counts_of_two_chip_sets_are_not_mixed():
    other = ChipSet((100, 500))
    with pytest.raises(ChipError, match="different chip sets"):
        SET.parse("1 x $5") + other.parse("1 x $5")
