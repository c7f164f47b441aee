"""Starting position and deal order, with the examples of the texts (issue 4)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.engine import deal, position
from app.engine.deal import four_card_check, stub_count_due
from app.engine.layout import DEALER, clockwise_from, counterclockwise_from
from app.engine.position import PositionError
from app.rules.resources import profile

DECK = list(range(53))  # 2s, 3s, ... As, 2h, ... Ac, Jk: top first


def test_layout_directions():
    # counterclockwise from the dealer: the player farthest to the dealer's right is next
    assert counterclockwise_from(DEALER) == [0, 1, 2, 3, 4, 5, 6]
    assert clockwise_from(DEALER) == [0, 6, 5, 4, 3, 2, 1]


@pytest.mark.parametrize("total,expected", [(8, DEALER), (14, 6), (15, DEALER), (3, 2), (9, 1), (18, 3)])
def test_dice_count_counterclockwise_with_the_dealer_as_one(total, expected):
    # 000(k)(2)(iii): (A) a total of 8 is the dealer, (B) 14 the sixth betting position
    assert position.dice(total).position == expected


def test_with_a_bank_the_bank_is_one():
    # 000(m)(8)(iii); 003 DEALER BANK 1: "The Banker will always get the first hand if the dice
    # total 8 or 15"; 003 MANUAL SHUFFLE 8: "1, 8 or 15"
    assert position.dice(8, bank=3).position == 3
    assert position.dice(15, bank=3).position == 3
    assert position.rng(1, bank=3).position == 3
    assert position.dice(10, bank=3).position == 5   # 3 is one, 4 two, 5 three (counterclockwise)


def test_rng_counts_like_the_dice():
    # 000(k)(3)
    assert [position.rng(n).position for n in range(1, 8)] == [0, 1, 2, 3, 4, 5, 6]
    with pytest.raises(PositionError, match="1 to 7"):
        position.rng(8)


def test_button_starts_at_the_dealer_and_moves_clockwise():
    # 000(k)(4): in front of the dealer at the start, clockwise after each round
    assert [position.button(k).position for k in range(8)] == [0, 6, 5, 4, 3, 2, 1, 0]


@pytest.mark.parametrize("total,expected", [(2, 5), (6, 1), (7, DEALER), (8, 6), (12, 2)])
def test_south_dakota_two_dice(total, expected):
    # 004(4): position one is the far left, clockwise, the dealer is seven, on to twelve
    assert position.two_dice(total).position == expected


def test_california_action_button():
    # 002: the player-dealer (here seat 4) is 1, 8 and 15; on those it gets the first cards and
    # the player to its left (clockwise) the action button; otherwise the counted seat has both
    for v in (1, 8, 15):
        p = position.action_button(v, 4)
        assert (p.position, p.action_button) == (4, 3)
    p = position.action_button(2, 4)
    assert (p.position, p.action_button) == (3, 3)
    assert position.action_button(7, 4).position == 5  # 4, 3, 2, 1, 7, 6, 5


def test_manual_shoe_deals_card_by_card_clockwise():
    # 000(h)(3): the first card to the starting position, clockwise, seven times round
    d = deal.manual_shoe(DECK, start=3)
    assert d.order == (3, 2, 1, 0, 6, 5, 4)
    assert d.hands[3] == (0, 7, 14, 21, 28, 35, 42)
    assert d.hands[4] == (6, 13, 20, 27, 34, 41, 48)
    assert d.remaining == (49, 50, 51, 52)


def test_hand_stacks_left_to_right_then_right_to_left():
    # 000(i)(3): seven cards left to right, seven right to left, alternating
    stacks = deal.hand_stacks(DECK)
    assert stacks[0] == (0, 13, 14, 27, 28, 41, 42)
    assert stacks[6] == (6, 7, 20, 21, 34, 35, 48)


def test_hand_delivery_with_the_banks_first_stack():
    # 000(m)(9)(v): the bank picks stack 5; then the stacks to its right, then from the far left
    d = deal.from_hand(DECK, start=2, first_stack=5)
    stacks = deal.hand_stacks(DECK)
    assert [d.hands[p] for p in d.order] == [stacks[i] for i in (4, 5, 6, 0, 1, 2, 3)]
    assert d.order == (2, 1, 0, 6, 5, 4, 3)


def test_003_delivers_counterclockwise():
    # 003 DEALER BANK 2: "Hand the cards to the players moving in a counter-clockwise rotation"
    d = deal.automated_shoe(DECK, start=0, direction="counterclockwise")
    assert d.order == (0, 1, 2, 3, 4, 5, 6) and d.hands[1] == tuple(range(7, 14))


def test_three_then_four():
    # 001 11.17(d),(e),(g): stacks of three to the wagering seats from the dealer's far left,
    # clockwise, then the dealer; then four each in the same order
    d = deal.three_then_four(DECK, [1, 4, 6])
    assert d.order == (6, 4, 1, 0)
    assert d.hands[6] == (0, 1, 2, 12, 13, 14, 15)
    assert d.hands[0] == (9, 10, 11, 24, 25, 26, 27)
    assert len(d.remaining) == 53 - 28


def test_four_card_check():
    # 000(h)(4): four left is good; a misdeal voids and reshuffles; otherwise the deck goes
    rules = profile("section6").rules
    assert four_card_check(4, [7] * 7, rules) == ("ok", "000(h)(4)(i)")
    assert four_card_check(4, [7, 7, 8, 6, 7, 7, 7], rules)[0] == "misdeal"
    assert four_card_check(3, [7] * 7, rules)[0] == "deck_removed"
    # each table cites its own text: 003 DEALING PROCEDURES 4 ("verifying the last (4) cards"), 000 after it
    # as the regulation the casino's procedures run under; 004(2) "The four unused cards"
    assert four_card_check(4, [7] * 7, profile("casino").rules)[1] == "003 DEALING PROCEDURES 4; 000(h)(4)(i)"
    assert four_card_check(4, [7] * 7, profile("sd").rules)[1] == "004(2)"


def test_stub_count_every_five_rounds():
    # 001 11.17(h): at least once every five rounds; (i) not with a counting shuffler
    assert [stub_count_due(k, False) for k in range(7)] == [False, False, False, False, False, True, True]
    assert not stub_count_due(9, True)


def test_a_deck_that_is_not_53_cards_is_refused():
    with pytest.raises(deal.DealError, match="53 cards"):
        deal.manual_shoe(DECK[:52], 0)


PITDESK = str(Path(sys.executable).with_name("pitdesk"))


def test_cli_position_and_order():
    p = subprocess.run([PITDESK, "deal", "position", "--method", "dice", "--value", "14"], capture_output=True,
                       text=True)
    assert p.returncode == 0 and json.loads(p.stdout)["position"] == 6
    p = subprocess.run([PITDESK, "deal", "position", "--profile", "sd", "--method", "dice", "--value", "8"],
                       capture_output=True, text=True)
    assert p.returncode == 2 and "two-dice" in p.stderr
    deck = " ".join(["As", "Ks"] * 27)
    p = subprocess.run([PITDESK, "deal", "order", "--method", "hand", "--deck", deck], capture_output=True, text=True)
    assert p.returncode == 2 and "duplicate card" in p.stderr
