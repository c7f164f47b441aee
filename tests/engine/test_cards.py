"""Card notation and the 53-card deck (000(b)(1), 001 11.2(a), 003 #17, 002 DESCRIPTION OF DECK)."""

import pytest

from app.engine.cards import DECK_SIZE, JOKER, CardError, card_str, cards_str, full_deck, parse_cards


def test_deck_has_52_cards_and_one_joker():
    deck = full_deck()
    assert len(deck) == DECK_SIZE == 53
    assert sorted(set(cards_str(deck))) == sorted(cards_str(deck))
    assert cards_str(deck).count("Jk") == 1


def test_ten_written_both_ways_is_a_duplicate():
    with pytest.raises(CardError) as e:
        parse_cards("As Kd Th 10h 9c Jk")
    assert "10h" in str(e.value) and e.value.token == "10h"


def test_notation_is_case_insensitive_and_output_uses_T_and_Jk():
    cards = parse_cards("as KD th 10c 9C jk")
    assert cards_str(cards) == ["As", "Kd", "Th", "Tc", "9c", "Jk"]
    assert cards[-1] == JOKER
    assert parse_cards("AS,kd") == parse_cards("As Kd")


@pytest.mark.parametrize("bad,token", [("As Kx", "Kx"), ("As 1s", "1s"), ("As Zz", "Zz"), ("As K", "K"),
                                       ("As 11h", "11h")])
def test_unknown_token_is_named(bad, token):
    with pytest.raises(CardError) as e:
        parse_cards(bad)
    assert repr(token) in str(e.value)
    assert e.value.token == token


def test_duplicate_card_is_named():
    with pytest.raises(CardError) as e:
        parse_cards("As Kd as")
    assert "'as'" in str(e.value) and "duplicate" in str(e.value)


def test_two_jokers_are_a_duplicate():
    # 000(b)(1): only one joker is used for gaming
    with pytest.raises(CardError, match="duplicate"):
        parse_cards("Jk As jk")


def test_wrong_count_is_refused():
    with pytest.raises(CardError, match="expected 7 cards, got 6"):
        parse_cards("As Ks Qs Js Ts 9s", count=7)
    assert len(parse_cards("As Ks", count=(5, 2))) == 2


def test_every_card_round_trips():
    for c in full_deck():
        assert parse_cards(card_str(c)) == [c]
