"""What a progressive hit pays and does to the meter (app/engine/progressive.py), the shifts
(app/workstation/shifts.py) and the acceptor lights against the round's wagers
(app/workstation/acceptors.py): the figures of the texts, 000(q) and 001 11.14."""

import json
from datetime import datetime
from pathlib import Path

from hypothesis import given, strategies as st

from app.engine.bonus import PROGRESSIVE_LINES
from app.engine.progressive import progressive_payout
from app.engine.round import parse_round
from app.engine.settle import settle
from app.rules.resources import profile
from app.workstation.acceptors import compare
from app.workstation.shifts import shift_of, shifts_back, shifts_between

RULES = profile("section6").rules
ONE, FIVE = RULES.paytables["progressive_1"], RULES.paytables["progressive_5"]
RESET = RULES.progressive_reset_cents
METER = 1_234_567   # $12,345.67


def test_the_top_award_is_the_whole_meter_then_the_casino_funds_it_back_to_its_reset_amount():
    # 000(q)(4): natural royal flush and pair, 100 percent of meter; (q)(6): reset at least $10,000
    p = progressive_payout(ONE, "natural_royal_and_pair", METER, RESET)
    assert (p.amount, p.from_meter, p.meter_after, p.reset, p.funded) == (1_234_567, True, 1_000_000, 1_000_000,
                                                                          1_000_000)
    assert p.pays == "100% of meter" and p.wager == 100


def test_ten_percent_of_the_meter_is_deducted_and_a_fraction_of_a_cent_is_not_paid():
    # 000(q)(4): natural royal flush, 10 percent of meter; (q)(5) off the meter; (q)(7) as it stands
    p = progressive_payout(ONE, "natural_royal", METER, RESET)
    assert (p.amount, p.from_meter, p.meter_after, p.reset) == (123_456, True, 1_111_111, None)


def test_fixed_lines_of_fifty_dollars_or_a_straight_flush_come_off_the_meter_the_rest_from_the_table():
    # 000(q)(5): $50.00 or more, or a straight flush, for the $1.00 wager; $250.00 for the $5.00
    royal = progressive_payout(ONE, "royal_and_pair", METER, RESET)
    assert (royal.amount, royal.from_meter, royal.meter_after) == (20_000, True, METER - 20_000)
    quads = progressive_payout(ONE, "four_of_a_kind_and_pair", METER, RESET)        # $40.00
    assert (quads.amount, quads.from_meter, quads.meter_after) == (4_000, False, METER)
    flush = progressive_payout(ONE, "straight_flush", METER, RESET)                  # $25.00, a straight flush
    assert (flush.amount, flush.from_meter, flush.meter_after) == (2_500, True, METER - 2_500)
    five = progressive_payout(FIVE, "four_of_a_kind_and_pair", METER, RESET)        # $200.00 < $250.00
    assert (five.amount, five.from_meter, five.wager) == (20_000, False, 500)
    assert progressive_payout(FIVE, "royal", METER, RESET).from_meter               # $500.00
    assert progressive_payout(ONE, "lucky_sevens", METER, RESET) is None


@given(st.sampled_from(PROGRESSIVE_LINES), st.sampled_from(["progressive_1", "progressive_5"]),
       st.integers(1_000_000, 10**10))
def test_the_meter_never_goes_under_the_reset_amount_after_the_top_award_nor_gains_from_a_hit(line, name, meter):
    table = RULES.paytables[name]
    p = progressive_payout(table, line, meter, RESET)
    pay = table.pays[line]
    assert p.meter_before == meter and 0 < p.amount
    if pay.meter_percent is not None:   # 000(q)(7): the percent of the meter as it stands, whole cents
        assert p.amount * 100 <= meter * pay.meter_percent < (p.amount + 1) * 100
    if pay.meter_percent == 100:        # 000(q)(6): back to the reset amount, funded by the casino
        assert p.meter_after == RESET and p.funded == RESET
    elif p.from_meter:
        assert p.meter_after == meter - p.amount
    else:
        assert p.meter_after == meter and p.amount < table.extras["meter_threshold"]


def test_the_settlement_pays_a_progressive_hit_as_the_readout_computes_it():
    # docs/rounds/section6-house.json holds a progressive hit: both say the same figures
    obj = json.loads(Path("docs/rounds/section6-house.json").read_text())
    rnd = parse_round(obj, RULES)
    s = settle(rnd, RULES, profile("section6").ranker(), profile("section6").house())
    hits = [r for r in s.results if r.wager == "progressive" and r.line]
    assert hits
    # 000(q)(5): the round's wagers raise the meter before anything is paid
    meter = s.meter_before + sum(m.cents for m in s.ledger if m.reason == "rate of progression")
    for r in hits:
        p = progressive_payout(ONE if r.stake == 100 else FIVE, r.line, meter, RESET)
        assert r.win == p.amount
        meter = p.meter_after
    assert s.meter_after == meter


def test_shifts_are_grave_day_and_swing_of_eight_hours_each():
    assert shift_of(datetime(2026, 11, 23, 7, 59, 59)).label == "grave 2026-11-23"
    assert shift_of(datetime(2026, 11, 23, 8)).label == "day 2026-11-23"
    assert shift_of(datetime(2026, 11, 23, 23, 59)).label == "swing 2026-11-23"
    assert shift_of(datetime(2026, 11, 24, 0)).label == "grave 2026-11-24"
    swing = shift_of(datetime(2026, 11, 23, 20))
    assert (swing.start, swing.end) == (datetime(2026, 11, 23, 16), datetime(2026, 11, 24, 0))
    assert [s.label for s in shifts_between(datetime(2026, 11, 23, 14), datetime(2026, 11, 24, 1))] == \
        ["day 2026-11-23", "swing 2026-11-23", "grave 2026-11-24"]
    assert shifts_back(datetime(2026, 11, 24, 3), 1).label == "swing 2026-11-23"


def test_a_light_without_a_wager_and_a_wager_without_a_light_are_both_named():
    # 000(q)(2): the chips wagered equal the lights lit on the acceptor devices
    ok = compare([2, 5], [5, 2], RULES)
    assert ok.agrees and ok.text == "2 lights for 2 progressive wagers"
    bad = compare([1, 2], [2, 3, 4], RULES)
    assert not bad.agrees and (bad.light_without_wager, bad.wager_without_light) == ((1,), (3, 4))
    assert bad.text == ("acceptor light lit without a progressive wager at seat 1; progressive wager without its "
                        "acceptor light at seats 3, 4")
    # each table cites its own text: 000's for a section6 table, 001 11.14(b) for an nj one (both cited
    # together before issue 33)
    assert bad.rule == "000(g)(3); 000(q)(2)"
    assert compare([1], [2], profile("nj").rules).rule == "001 11.14(b)"
