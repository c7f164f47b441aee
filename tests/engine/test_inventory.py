"""The table inventory container's arithmetic (app/engine/inventory.py, issue 34): a settlement's
ledger as movements of the tray, with the rule texts' exceptions (000(q)(5),(6): the meter's money
stays in the tray; 000(l)(11), 001 11.9(l): a progressive off the meter is paid by the cage), and
the win by count against the rounds' win, over random rounds of every profile and banking mode."""

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.chips import ChipSet
from app.engine.inventory import (ShiftMoney, chips_for, house_net, sum_money, to_meter, tray_change, tray_lines,
                                  win_over_drop)
from app.engine.round import parse_round
from app.engine.settle import settle
from app.rules.resources import names, profile
from tests.support.random_rounds import random_round

MODES = [(n, m) for n in names("rules") for m in profile(n).rules.banking_modes]
CHIPS = ChipSet((100, 500, 2500, 10000, 50000, 100000))
cents = st.integers(min_value=0, max_value=10_000_000)


def ledger_of(seed, name, mode):
    obj = random_round(seed, name, mode)
    p = profile(name)
    s = settle(parse_round(copy.deepcopy(obj), p.rules), p.rules, p.ranker(), p.house())
    return s.as_json()["ledger"], s


def line(frm, to, c, rule="r"):
    return {"from": frm, "to": to, "cents": c, "wager": "w", "reason": "why", "rule": rule}


def test_each_kind_of_line_moves_the_tray_as_the_texts_say():
    lines = tray_lines([
        line("seat 1", "house", 500, "000(l)(6)"),               # a losing wager collected into the tray
        line("house", "seat 2", 1000, "000(l)(9)"),              # a winner paid from it
        line("house", "center", 2500, "000(m)(7)"),              # the dealer's wager against a player bank
        line("center", "house", 4750, "000(m)(14)"),             # returned with its winnings
        line("house", "meter", 25, "000(q)(5)"),                 # the rate of progression: no chip moves
        line("meter", "seat 3", 2_500_000, "000(q)(3)"),         # off the meter: paid by the cage
        line("seat 4", "tokes", 100, "003 GENERAL RULES 6"),     # a toke: never the tray's
    ])
    assert [x.cents for x in lines] == [500, -1000, -2500, 4750, 0, 0]
    assert "paid by the cage" in lines[5].what and "the meter's money" in lines[4].what
    assert [x.rule for x in lines][:4] == ["000(l)(6)", "000(l)(9)", "000(m)(7)", "000(m)(14)"]


@settings(max_examples=60, deadline=None)
@given(st.integers(min_value=0, max_value=10_000), st.sampled_from(MODES))
def test_the_tray_moves_by_the_house_net_and_the_meters_money(seed, mode):
    ledger, s = ledger_of(seed, *mode)
    assert house_net(ledger) == s.as_json()["net_by_party"].get("house", 0)
    # every chip the house gained or paid went through the tray, but the meter's share it holds
    assert tray_change(ledger) == house_net(ledger) + to_meter(ledger)
    assert to_meter(ledger) >= 0


@given(cents, cents, cents, cents, cents, st.integers(-10_000_000, 10_000_000), st.integers(0, 1_000_000),
       st.integers(-5_000_000, 5_000_000), st.integers(-5_000_000, 5_000_000))
def test_the_win_differs_from_the_rounds_by_what_the_tray_and_drop_lack(opener, fills, credits, buy_ins, drop_extra,
                                                                          net, meter, tray_off, drop_off):
    # win - (house net + to the meter) = (closer - expected) + (drop - buy-ins)
    m = ShiftMoney(opener, fills, credits, buy_ins, 1, net + meter, net, meter)
    closer = m.expected + tray_off
    drop = buy_ins + drop_off
    counted = ShiftMoney(opener, fills, credits, buy_ins, 1, net + meter, net, meter, closer, drop)
    assert counted.win == drop + closer + credits - opener - fills
    assert counted.difference == tray_off + drop_off
    assert counted.tray_difference == tray_off and counted.drop_difference == drop_off
    assert (counted.difference == 0) == (tray_off == -drop_off)


def test_nothing_counted_yet_has_no_win():
    m = ShiftMoney(100_000, rounds_tray=5_000)
    assert m.win is None and m.difference is None and m.tray_difference is None and m.expected == 105_000
    assert m.as_json()["closer"] is None and m.as_json()["opener"] == 100_000


def test_shifts_add_up_and_one_uncounted_leaves_the_sum_uncounted():
    a = ShiftMoney(100, 10, 5, 0, 1, 20, 20, 0, 125, 0)
    b = ShiftMoney(200, 0, 0, 50, 2, 30, 30, 0, 180, 50)
    s = sum_money([a, b])
    assert (s.opener, s.fills, s.closer, s.drop, s.shifts) == (300, 10, 305, 50, 2)
    assert s.win == a.win + b.win
    assert sum_money([a, ShiftMoney(300)]).win is None


def test_win_over_drop_in_tenths_of_a_percent_without_a_float():
    assert win_over_drop(18_250, 100_000) == "18.3%"
    assert win_over_drop(-5_000, 100_000) == "-5.0%"
    assert win_over_drop(1, 3) == "33.3%"
    assert win_over_drop(None, 100) == "-" and win_over_drop(10, 0) == "-"


def test_an_amount_as_the_fewest_chips_that_make_it():
    assert chips_for(CHIPS, 2500) == "1 x $25.00"
    assert chips_for(CHIPS, -12_600) == "1 x $100.00, 1 x $25.00, 1 x $1.00"
    assert chips_for(CHIPS, 50) == ""      # no chip makes half a dollar
