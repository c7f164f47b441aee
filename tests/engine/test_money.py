"""Money written out for people and read back as they type it (app/engine/money.py); amounts stay
whole cents, never a float."""

import pytest
from hypothesis import given, strategies as st

from app.engine.money import MoneyError, dollars, parse_dollars


@pytest.mark.parametrize("cents,text", [(0, "$0.00"), (5, "$0.05"), (100, "$1.00"), (1_000_021, "$10,000.21"),
                                        (-250, "-$2.50"), (7_500_000, "$75,000.00")])
def test_dollars(cents, text):
    assert dollars(cents) == text


@pytest.mark.parametrize("text,cents", [("25", 2500), ("12.50", 1250), ("$1,000", 100_000), ("12.5", 1250),
                                        (" $ 7.05 ", 705), (".50", 50), ("1,234,567.89", 123_456_789),
                                        ("0", 0), ("-$2.50", -250)])
def test_parse_dollars_reads_what_a_person_types(text, cents):
    assert parse_dollars(text) == cents


@pytest.mark.parametrize("text,why", [("", "no amount"), ("12.505", "at most two decimals"),
                                      ("1,00", "commas group the dollars in threes"), ("abc", "is not an amount"),
                                      ("$", "is not an amount"), ("1e3", "is not an amount"),
                                      ("12,50", "commas group")])
def test_parse_dollars_names_the_fault(text, why):
    with pytest.raises(MoneyError, match=why):
        parse_dollars(text)


@given(st.integers(min_value=-10**15, max_value=10**15))
def test_parse_dollars_reads_back_what_dollars_writes(cents):
    assert parse_dollars(dollars(cents)) == cents


@given(st.integers(min_value=0, max_value=10**9), st.integers(min_value=0, max_value=99))
def test_parse_dollars_takes_plain_and_grouped_amounts(whole, cents):
    assert parse_dollars(f"{whole}.{cents:02d}") == parse_dollars(f"${whole:,}.{cents:02d}") == whole * 100 + cents
