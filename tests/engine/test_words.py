"""Words for people (app/engine/words.py): amounts, logged times, citations, kinds and an
event's data as a person reads them, never raw cents, identifiers or ISO times (issue 27)."""

from __future__ import annotations

import json
from datetime import datetime

from app.engine import words


def test_money_is_dollars_and_cents():
    assert words.money(1000021) == "$10,000.21"
    assert words.money(-250) == "-$2.50"
    assert words.money(None) == "—"


def test_a_logged_time_has_no_t_and_no_microseconds():
    assert words.when("2026-11-26T21:05:51.537790") == "2026-11-26 21:05:51"
    assert words.when(datetime(2026, 11, 26, 21, 5, 51, 537790)) == "2026-11-26 21:05:51"
    assert words.when(None) == "" and words.when("") == ""
    assert words.day_time(datetime(2026, 11, 26, 21, 5, 51)) == "Thu 21:05:51"
    assert words.times_in("released at 2026-11-26T21:05:51.5+00:00.") == "released at 2026-11-26 21:05:51."


def test_a_citation_loses_its_stray_space():
    assert words.citation("000 (s)(1)") == "000(s)(1)"
    assert words.citation("000 (q)(4); 001 11.14(d)") == "000(q)(4); 001 11.14(d)"
    assert words.citation("003 PLAYER BANK 1") == "003 PLAYER BANK 1"


def test_a_kind_in_words():
    assert words.kind("progressive_meter_payout") == "progressive meter payout"
    assert words.kind("fortune_toke") == "fortune toke"
    assert words.kind("co_bank") == "co-bank"
    assert words.kind(None) == ""


def test_an_events_data_in_words():
    data = {"cents": 1000000, "win_cents": 2450, "cards": ["8h", "4d", "2c"], "deal": "blue 2026-11-26T21:05:51.5",
            "kind": "progressive_meter_payout", "round_file": {"banking": {"mode": "house"}, "seats": [{"seat": 1}]},
            "manual": False, "salt": "c2FsdA==", "pin_hash": "abc", "rule": "000 (s)(1)"}
    text = words.data(json.dumps(data))
    assert text == ("amount: $10,000.00; win: $24.50; cards: 8h 4d 2c; deal: blue 2026-11-26 21:05:51; "
                    "kind: progressive meter payout; round file: 1 seat, house bank (the round panel's Rounds tab); manual: no; "
                    "rule: 000(s)(1)")
    assert words.data(data) == text                      # a record as read, or its JSON
    assert words.data("not json T1") == "not json T1" and words.data(None) == ""


def test_a_refusal_names_its_event_in_words_and_keeps_a_field_path():
    assert words.refusal("no_more_bets: not allowed while the table is round_complete (allowed in: no_more_bets)") \
        == "no more bets: not allowed while the table is round complete (allowed in: no more bets)"
    assert words.refusal("banking.dealer_wager: $30.00 is more") == "banking.dealer_wager: $30.00 is more"


def test_a_day_and_a_period_are_worded_as_the_tiles_word_a_time():
    """Issue 33, 5: "Sat 28 Nov" beside "Sat 12:01:57", never "day 2026-11-28"."""
    assert words.day(datetime(2026, 11, 28, 12, 1, 57)) == "Sat 28 Nov"
    assert words.day_time(datetime(2026, 11, 28, 12, 1, 57)) == "Sat 12:01:57"
    assert words.period(datetime(2026, 11, 20, 14), datetime(2026, 11, 22, 14)) == "Fri 20 Nov 14:00 to Sun 22 Nov 14:00"


def test_a_time_in_an_events_data_is_worded_as_the_events_own_day():
    """Issue 33, 5: the table history's "deal: blue 2026-11-28 12:19:56" beside "Sat 12:01:57"."""
    at = datetime(2026, 11, 28, 12, 20)
    assert words.data({"deal": "blue 2026-11-28T12:19:56.123"}, at) == "deal: blue Sat 12:19:56"
    assert words.data({"received": "2026-10-01T08:00:00"}, at) == "received: 2026-10-01 08:00:00"   # weeks before
    assert words.data({"deal": "blue 2026-11-28T12:19:56.123"}) == "deal: blue 2026-11-28 12:19:56"   # a log's
