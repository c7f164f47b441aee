"""Money written out for people (app/engine/money.py); amounts stay whole cents."""

import pytest

from app.engine.money import dollars


@pytest.mark.parametrize("cents,text", [(0, "$0.00"), (5, "$0.05"), (100, "$1.00"), (1_000_021, "$10,000.21"),
                                        (-250, "-$2.50"), (7_500_000, "$75,000.00")])
def test_dollars(cents, text):
    assert dollars(cents) == text
