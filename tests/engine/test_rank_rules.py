"""Example-based ranking tests; every expectation is derived by hand from the rule texts.

Texts (in /work/shared/rules): 000 = "Section 6" paragraph (c) and (l)(1); 001 = N.J.A.C.
19:47-11.3 and 11.9(a); 002 = Face Up "CARD VALUES & HAND RANKINGS"; 003 = item 17, "ORDER OF
HANDS" and "IMPORTANT NOTES"; 004 = 20:18:16:15.16 (1).

Wheel settings: "second" = A-2-3-4-5 is the second-highest straight and the highest straight
flush below the royal flush (000(c)(2)(iii),(vii); 001 11.3(b)3,7; 003; 004(1)); "lowest" =
A-2-3-4-5 is the lowest straight and straight flush (000(c)(4); 001 11.3(d); 002).
"""

from __future__ import annotations

import pytest

from app.engine.cards import parse_cards
from app.engine.rank import CATEGORY_NAMES, Ranker, category_of, compare, describe, legal_set

SECOND = Ranker("second")
LOWEST = Ranker("lowest")
RANKERS = {"second": SECOND, "lowest": LOWEST}


def five(text: str, wheel: str = "second") -> int:
    return RANKERS[wheel].five(parse_cards(text))


def two(text: str, wheel: str = "second") -> int:
    return RANKERS[wheel].two(parse_cards(text))


def cat(text: str, wheel: str = "second") -> str:
    cards = parse_cards(text)
    s = RANKERS[wheel].five(cards) if len(cards) == 5 else RANKERS[wheel].two(cards)
    return CATEGORY_NAMES[category_of(s)]


def assert_strictly_descending(hands: list[str], wheel: str) -> None:
    scores = [five(h, wheel) for h in hands]
    for (ha, a), (hb, b) in zip(zip(hands, scores), zip(hands[1:], scores[1:])):
        assert compare(a, b) == "higher", f"{ha} should rank above {hb} ({wheel})"


# --------------------------------------------------------------------------------------------
# Categories and their full order
# --------------------------------------------------------------------------------------------

def test_category_names_lowest_to_highest():
    # 000(c)(2)(i)-(x) in reverse, plus "High Card" below One Pair (002 HAND RANKINGS,
    # 003 ORDER OF HANDS, 004(1) "... pair, and high card")
    assert tuple(CATEGORY_NAMES) == (
        "high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
        "four_of_a_kind", "straight_flush", "royal_flush", "five_aces",
    )


CATEGORY_EXAMPLES = [
    # (cards, category, citation)
    ("Ac Ad Ah As Jk", "five_aces", "000(c)(2)(i): four aces and a joker"),
    ("As Ks Qs Js Ts", "royal_flush", "000(c)(2)(ii)"),
    ("9d Td Jd Qd Kd", "straight_flush", "000(c)(2)(iii)"),
    ("9c 9d 9h 9s 2c", "four_of_a_kind", "000(c)(2)(iv)"),
    ("Kc Kd Kh 2s 2d", "full_house", "000(c)(2)(v)"),
    ("Ac Jc 8c 6c 2c", "flush", "000(c)(2)(vi)"),
    ("Kc Qd Jh Ts 9c", "straight", "000(c)(2)(vii)"),
    ("8c 8d 8h Kc 2d", "three_of_a_kind", "000(c)(2)(viii)"),
    ("Jc Jd 4h 4s Ac", "two_pair", "000(c)(2)(ix)"),
    ("5c 5d Ah Qs 9c", "pair", "000(c)(2)(x)"),
    ("Ac Kd 9h 6s 3c", "high_card", "002 High Card: no other hand listed"),
]


@pytest.mark.parametrize("cards,category", [pytest.param(c, k, id=cite) for c, k, cite in CATEGORY_EXAMPLES])
def test_category_examples(cards, category):
    assert cat(cards) == category
    assert describe(five(cards), "second")["category"] == category


def test_full_category_order_000_c_2():
    # 000(c)(2): "in order from highest to lowest rank"; one hand per category, each below the
    # previous one, whatever the cards inside the category (the weakest five aces is the only one)
    hands = [
        "Ac Ad Ah As Jk",   # (i) five aces
        "Ts Js Qs Ks As",   # (ii) royal flush
        "2c 3c 4c 5c 6c",   # (iii) the LOWEST straight flush still beats
        "Ac Ad Ah As Kc",   # (iv) the HIGHEST four of a kind
        "2c 2d 2h 3s 3d",   # (v) the lowest full house still beats
        "Ah Kh Qh Jh 9h",   # (vi) the highest flush (002: A-K-Q-J-9)
        "2c 3d 4h 5s 6c",   # (vii) the lowest straight (second setting) still beats
        "Ac Ad Ah Kc Qd",   # (viii) the highest three of a kind
        "3c 3d 2h 2s 4c",   # (ix) the lowest two pair still beats
        "Ac Ad Kh Qs Jc",   # (x) the highest pair
        "Ac Kd Qh Js 9c",   # high card: the highest no-pair hand (002)
    ]
    assert_strictly_descending(hands, "second")
    # the top of each category over the bottom of the next, the other way round
    assert compare(five("3c 3d 3h 2s 2d"), five("Ac Kc Qc Jc 9c")) == "higher"  # (v) > (vi)
    assert compare(five("5c 4c 3c 2c 7c"), five("Ac Kd Qh Js Tc")) == "higher"  # (vi) > (vii)
    assert compare(five("2c 2d 2h 3s 4d"), five("Ac Ad Kh Ks Qc")) == "higher"  # (viii) > (ix)


def test_order_of_hands_004_1_second_setting():
    # 004(1): "five aces, royal flush, ace to five straight flush, straight flush, four of a kind,
    # full house, flush, straight (ace to ten), straight (ace to five), straight without an ace,
    # three of a kind, two pair, pair, and high card"
    hands = [
        "Ac Ad Ah As Jk",   # five aces
        "As Ks Qs Js Ts",   # royal flush
        "Ah 2h 3h 4h 5h",   # ace to five straight flush
        "9d Td Jd Qd Kd",   # straight flush (the highest one without an ace)
        "2c 3c 4c 5c 6c",   # straight flush (the lowest)
        "Ac Ad Ah As Kd",   # four of a kind
        "Kc Kd Kh As Ad",   # full house
        "Ac Kc Qc Jc 9c",   # flush
        "Ac Kd Qh Js Tc",   # straight (ace to ten)
        "Ac 2d 3h 4s 5c",   # straight (ace to five)
        "Kc Qd Jh Ts 9c",   # straight without an ace (highest)
        "2c 3d 4h 5s 6c",   # straight without an ace (lowest)
        "Ac Ad Ah Kc Qd",   # three of a kind
        "Ac Ad Kc Kd Qh",   # two pair
        "Ac Ad Kc Qd Jh",   # pair
        "Ac Kd Qh Js 9c",   # high card
    ]
    assert_strictly_descending(hands, "second")


def test_order_of_hands_003():
    # 003 ORDER OF HANDS: five of a kind, royal flush, straight flush, four of a kind, full house,
    # flush, straight (A-K-Q-J-10 highest, A-2-3-4-5 second highest), three of a kind, two pair,
    # one pair, high card
    hands = ["Ac Ad Ah As Jk", "Ah Kh Qh Jh Th", "8s 9s Ts Js Qs", "4c 4d 4h 4s Ac", "Qc Qd Qh 7s 7d",
             "Kd Jd 9d 7d 3d", "Ac Kd Qh Js Tc", "Ac 2d 3h 4s 5c", "Kc Qd Jh Ts 9c", "Tc Td Th 8s 2d",
             "Tc Td 8h 8s 2d", "Tc Td 8h 7s 2d", "Ac Td 8h 7s 2d"]
    assert_strictly_descending(hands, "second")


def test_order_of_hands_002_lowest_setting():
    # 002 HAND RANKINGS: K-Q-J-10-9 the highest straight flush and 5-4-3-2-A the lowest; A-K-Q-J-10
    # the highest straight and 5-4-3-2-A the lowest (the 000(c)(4) / 001 11.3(d) option)
    hands = [
        "Ac Ad Ah As Jk",   # Five Aces
        "Ah Kh Qh Jh Th",   # Royal Flush
        "Ks Qs Js Ts 9s",   # highest Straight Flush
        "6d 5d 4d 3d 2d",   # 6-high straight flush
        "5c 4c 3c 2c Ac",   # lowest Straight Flush
        "2c 2d 2h 2s 3c",   # lowest Four of a Kind
        "Ac Ad Ah Kc Kd",   # highest Full House
        "2c 2d 2h 3c 3d",   # lowest Full House
        "Ah Kh Qh Jh 9h",   # highest Flush
        "7s 5s 4s 3s 2s",   # lowest Flush
        "Ac Kd Qh Js Tc",   # highest Straight
        "Kc Qd Jh Ts 9c",
        "6c 5d 4h 3s 2c",
        "5c 4d 3h 2s Ac",   # lowest Straight
        "Ac Ad Ah Kc Qd",   # highest Three of a Kind
        "2c 2d 2h 4s 3d",   # lowest Three of a Kind
        "Ac Ad Kh Ks Qc",   # highest Two Pair
        "3c 3d 2h 2s 4c",   # lowest Two Pair
        "Ac Ad Kh Qs Jc",   # highest One Pair
        "2c 2d 5h 4s 3c",   # lowest One Pair
        "Ac Kd Qh Js 9c",   # highest High Card
        "7c 5d 4h 3s 2c",   # lowest High Card
    ]
    assert_strictly_descending(hands, "lowest")


# --------------------------------------------------------------------------------------------
# Within-category order
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("higher,lower", [
    pytest.param("As Ks Qs Js Ts", "Ah 2h 3h 4h 5h", id="000(c)(2)(ii)-(iii): royal flush above the wheel straight flush"),
    pytest.param("Ah 2h 3h 4h 5h", "Kd Qd Jd Td 9d", id="000(c)(2)(iii): A-2-3-4-5 highest straight flush, K-Q-J-10-9 second"),
    pytest.param("Kd Qd Jd Td 9d", "Qc Jc Tc 9c 8c", id="000(c)(2)(iii): K-high straight flush above Q-high"),
    pytest.param("7s 6s 5s 4s 3s", "6s 5s 4s 3s 2s", id="000(c)(2)(iii): 6-5-4-3-2 the lowest straight flush"),
    pytest.param("Ac Ad Ah As 2c", "Kc Kd Kh Ks Ac", id="000(c)(2)(iv): four aces highest four of a kind"),
    pytest.param("3c 3d 3h 3s 2c", "2c 2d 2h 2s Ac", id="000(c)(2)(iv): four twos the lowest four of a kind"),
    pytest.param("Ac Ad Ah Kc Kd", "Ac Ad Ah Qc Qd", id="000(c)(2)(v): three aces and two kings highest full house"),
    pytest.param("3c 3d 3h 2c 2d", "2c 2d 2h 3c 3d", id="000(c)(2)(v): three twos and two threes lowest full house"),
    pytest.param("Kc Kd Kh 2c 2d", "Qc Qd Qh Ac Ad", id="000(c)(2)(v): full houses ranked by the three of a kind"),
    pytest.param("Ac Kd Qh Js Tc", "Ac 2d 3h 4s 5c", id="000(c)(2)(vii): A-K-Q-J-10 highest straight"),
    pytest.param("Ac 2d 3h 4s 5c", "Kc Qd Jh Ts 9c", id="000(c)(2)(vii): A-2-3-4-5 second highest straight"),
    pytest.param("7c 6d 5h 4s 3c", "6c 5d 4h 3s 2c", id="000(c)(2)(vii): 6-5-4-3-2 lowest straight"),
    pytest.param("Ac Ad Ah 2c 3d", "Kc Kd Kh Ac Qd", id="000(c)(2)(viii): three aces highest three of a kind"),
    pytest.param("3c 3d 3h 2c 4d", "2c 2d 2h Ac Kd", id="000(c)(2)(viii): three twos lowest three of a kind"),
    pytest.param("Ac Ad Kh Ks 2c", "Ac Ad Qh Qs Kc", id="000(c)(2)(ix): aces and kings highest two pair"),
    pytest.param("4c 4d 2h 2s 3c", "3c 3d 2h 2s Ac", id="000(c)(2)(ix): threes and twos lowest two pair"),
    pytest.param("Ac Ad 2h 3s 4c", "Kc Kd Ah Qs Jc", id="000(c)(2)(x): two aces highest pair"),
    pytest.param("3c 3d 2h 4s 5c", "2c 2d Ah Ks Qc", id="000(c)(2)(x): two twos lowest pair"),
    pytest.param("Ah Kh 9h 5h 3h", "Ad Qd Jd Td 8d", id="000(c)(2)(vi),(5): flushes by the highest card not in the other (K)"),
    pytest.param("Ah Kh Qh Jh 9h", "Ad Kd Qd Jd 8d", id="002 Flush: A-K-Q-J-9 the highest flush"),
    pytest.param("8s 5s 4s 3s 2s", "7d 5d 4d 3d 2d", id="002 Flush: 7-5-4-3-2 the lowest flush"),
    pytest.param("Kc Kd 7h 7s Ac", "Kh Ks 7c 7d Qc", id="000(c)(5): same two pair, the ace kicker decides"),
    pytest.param("9c 9d Ah 5s 3c", "9h 9s Ad 4c 3d", id="000(c)(5): same pair, the five is the highest card not in the other"),
    pytest.param("Ac Kd 9h 6s 3c", "Ad Qc Jh Ts 8d", id="000(c)(5): no hand, the king is the highest card not in the other"),
    pytest.param("Ac Kd Qh Js 9c", "Ad Kc Qs Jh 8d", id="002 High Card: A-K-Q-J-9 the highest"),
    pytest.param("7c 6d 4h 3s 2c", "7d 5c 4s 3h 2d", id="002 High Card: 7-5-4-3-2 the lowest"),
    pytest.param("8c 5d 4h 3s 2c", "7d 5c 4s 3h 2d", id="002 High Card: 7-5-4-3-2 below 8-5-4-3-2"),
])
def test_within_category_order_second(higher, lower):
    assert compare(five(higher), five(lower)) == "higher"
    assert compare(five(lower), five(higher)) == "lower"


@pytest.mark.parametrize("higher,lower", [
    pytest.param("Kd Qd Jd Td 9d", "6s 5s 4s 3s 2s", id="000(c)(4),002: K-Q-J-10-9 highest straight flush"),
    pytest.param("6s 5s 4s 3s 2s", "Ah 2h 3h 4h 5h", id="000(c)(4),002: A-2-3-4-5 the lowest straight flush"),
    pytest.param("Ah 2h 3h 4h 5h", "Ac Ad Ah As Kc", id="000(c)(4): the lowest straight flush still beats four aces"),
    pytest.param("As Ks Qs Js Ts", "Kd Qd Jd Td 9d", id="002: royal flush above K-Q-J-10-9 straight flush"),
    pytest.param("Ac Kd Qh Js Tc", "Kc Qd Jh Ts 9c", id="000(c)(4),002: A-K-Q-J-10 still the highest straight"),
    pytest.param("6c 5d 4h 3s 2c", "Ac 2d 3h 4s 5c", id="000(c)(4),002: A-2-3-4-5 the lowest straight"),
    pytest.param("Ac 2d 3h 4s 5c", "Ac Ad Ah Kc Qd", id="000(c)(4): the lowest straight still beats three aces"),
])
def test_within_category_order_lowest(higher, lower):
    assert compare(five(higher, "lowest"), five(lower, "lowest")) == "higher"
    assert compare(five(lower, "lowest"), five(higher, "lowest")) == "lower"


def test_wheel_describe_under_both_settings():
    # 000(c)(1): the ace completes a straight formed with 2-3-4-5; its high card is the five
    for wheel in ("second", "lowest"):
        assert describe(five("Ac 2d 3h 4s 5c", wheel), wheel) == {"category": "straight", "value": [5]}
        assert describe(five("Ah 2h 3h 4h 5h", wheel), wheel) == {"category": "straight_flush", "value": [5]}
        assert describe(five("Ac Kd Qh Js Tc", wheel), wheel) == {"category": "straight", "value": [14]}
        assert describe(five("As Ks Qs Js Ts", wheel), wheel)["category"] == "royal_flush"


def test_no_wraparound_straight():
    # 000(c)(1): the ace is high, or low only with 2-3-4-5; Q-K-A-2-3 is no straight
    assert cat("Qc Kd Ah 2s 3c") == "high_card"
    assert cat("Qh Kh Ah 2h 3h") == "flush"


@pytest.mark.parametrize("a,b,wheel", [
    pytest.param("9s 9h As 5d 3c", "9d 9c Ah 5s 3h", "second", id="000(c)(5): same ranks, other suits: copy"),
    pytest.param("Ah Kh 9h 5h 3h", "As Ks 9s 5s 3s", "second", id="000(c)(5), 002 'All suits equal': flush copy"),
    pytest.param("Ac 2d 3h 4s 5c", "Ad 2c 3s 4h 5d", "lowest", id="000(c)(5): wheel copies wheel (lowest)"),
    pytest.param("Ac Kd Qh Js 9c", "Ad Kc Qs Jh 9d", "second", id="000(c)(5): high card copy"),
    pytest.param("Kc Kd Kh 2s 2d", "Ks Kd Kh 2c 2h", "second", id="000(c)(5): full house copy"),
])
def test_copy_hands_five(a, b, wheel):
    assert compare(five(a, wheel), five(b, wheel)) == "copy"


@pytest.mark.parametrize("higher,lower", [
    pytest.param("Ac Jd", "Ah Td", id="003 ORDER OF HANDS High Card example: A and J beats A and 10"),
    pytest.param("2c 2d", "Ac Kd", id="000(c)(2)(x): a pair is a low hand and beats any two unpaired cards"),
    pytest.param("Ac Ad", "Kc Kd", id="000(c)(2)(x): two aces the highest pair"),
    pytest.param("3c 3d", "2c 2d", id="000(c)(2)(x): two twos the lowest pair"),
    pytest.param("Kc Qd", "Kh Jd", id="000(c)(5): the queen is the highest card not in the other"),
])
def test_two_card_order(higher, lower):
    assert compare(two(higher), two(lower)) == "higher"


def test_two_card_copy():
    # 000(a)(1)(iv), (c)(5): a two card hand identical in rank is a copy hand
    assert compare(two("Ac Jd"), two("As Jh")) == "copy"
    assert compare(two("7c 7d"), two("7h 7s")) == "copy"


# --------------------------------------------------------------------------------------------
# The joker
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("with_joker,equivalent,category,wheel", [
    # 000(c)(3), 001 11.3(c), 003 #17: the joker completes a straight, flush, straight flush, royal
    pytest.param("9c Td Jh Qs Jk", "9c Td Jh Qs Kd", "straight", "second",
                 id="000(c)(3): 9-T-J-Q + joker is the K-high straight"),
    pytest.param("Tc Jd Qh Ks Jk", "Tc Jd Qh Ks Ad", "straight", "second",
                 id="000(c)(3): T-J-Q-K + joker is the A-high straight"),
    pytest.param("Ac Kd Qh Js Jk", "Ac Kd Qh Js Td", "straight", "second",
                 id="000(c)(3): A-K-Q-J + joker is the A-high straight (joker = 10)"),
    pytest.param("Ac Qd Jh Ts Jk", "Ac Qd Jh Ts Kd", "straight", "second",
                 id="000(c)(3): joker fills the inside king"),
    pytest.param("2c 3d 4h 5s Jk", "2c 3d 4h 5s Ad", "straight", "second",
                 id="000(c)(2)(vii),(3): 2-3-4-5 + joker is A-2-3-4-5, the second highest straight"),
    pytest.param("2c 3d 4h 5s Jk", "2c 3d 4h 5s 6d", "straight", "lowest",
                 id="000(c)(4),(3): 2-3-4-5 + joker is 2-3-4-5-6 when the wheel is lowest"),
    pytest.param("Ac 2d 3h 4s Jk", "Ac 2d 3h 4s 5d", "straight", "second",
                 id="000(c)(3): A-2-3-4 + joker is the wheel (second)"),
    pytest.param("Ac 2d 3h 4s Jk", "Ac 2d 3h 4s 5d", "straight", "lowest",
                 id="000(c)(4),(3): A-2-3-4 + joker: the lowest straight still beats a pair of aces"),
    pytest.param("3c 4d 5h 6s Jk", "3c 4d 5h 6s 7d", "straight", "second",
                 id="000(c)(3): 3-4-5-6 + joker is the 7-high straight"),
    pytest.param("2h 3h 4h 5h Jk", "Ah 2h 3h 4h 5h", "straight_flush", "second",
                 id="000(c)(2)(iii),(3): joker makes the wheel, the highest straight flush below the royal"),
    pytest.param("2h 3h 4h 5h Jk", "2h 3h 4h 5h 6h", "straight_flush", "lowest",
                 id="000(c)(4),(3): joker makes the 6-high straight flush when the wheel is lowest"),
    pytest.param("9h Th Jh Qh Jk", "9h Th Jh Qh Kh", "straight_flush", "second",
                 id="000(c)(3): joker completes the K-high straight flush"),
    pytest.param("Ah Kh Qh Jh Jk", "Ah Kh Qh Jh Th", "royal_flush", "second",
                 id="000(c)(3): joker completes a royal flush, a copy of a natural royal in the base game"),
    pytest.param("Jk Kh Qh Jh Th", "Ah Kh Qh Jh Th", "royal_flush", "second",
                 id="000(c)(3): joker as the ace of a royal flush"),
    pytest.param("Ah Jk Kh 7h 5h", "Ah Kh Qh 7h 5h", "flush", "second",
                 id="003 IMPORTANT NOTES 3(a): Ace, Joker, King, 7, 5 is played as A-K-(Q)-7-5"),
    pytest.param("Kh Jk 9h 5h 3h", "Ah Kh 9h 5h 3h", "flush", "second",
                 id="003 #17, NOTES 3(a): the highest card not held is the ace"),
    pytest.param("Ah Kh Qh 5h Jk", "Ah Kh Qh Jh 5h", "flush", "second",
                 id="003 NOTES 3(a): A-K-Q held, the joker is the jack"),
    # 000(c)(1): otherwise the joker is ranked as an ace
    pytest.param("Ac Ad Ah As Jk", "Ac Ad Ah As Jk", "five_aces", "second",
                 id="000(c)(2)(i): four aces and the joker are five aces"),
    pytest.param("Ac Ad Ah Jk 7s", "Ac Ad Ah As 7s", "four_of_a_kind", "second",
                 id="000(c)(1): three aces + joker are four aces"),
    pytest.param("Kc Kd Kh Jk 7s", "Kc Kd Kh As 7s", "three_of_a_kind", "second",
                 id="000(c)(1),(3): three kings + joker are three kings and an ace, not four kings"),
    pytest.param("Kc Kd Kh Ks Jk", "Kc Kd Kh Ks Ad", "four_of_a_kind", "second",
                 id="000(c)(1): four kings + joker: the joker is an ace kicker"),
    pytest.param("Ac Ad 7h 7s Jk", "Ac Ad Ah 7h 7s", "full_house", "second",
                 id="000(c)(1): two aces + joker + two sevens are aces full"),
    pytest.param("Kc Kd 7h 7s Jk", "Kc Kd 7h 7s Ad", "two_pair", "second",
                 id="000(c)(1),(3): joker never fills a full house; it is an ace kicker"),
    pytest.param("Jk Kc Kd 7s 3h", "Ah Kc Kd 7s 3h", "pair", "second",
                 id="000(c)(1): joker as an ace kicker with a pair of kings"),
    pytest.param("Jk Ac 8d 6s 3h", "Ah Ac 8d 6s 3h", "pair", "second",
                 id="000(c)(1): joker + ace are a pair of aces"),
    pytest.param("Jk Kc 9d 6s 3h", "Ad Kc 9d 6s 3h", "high_card", "second",
                 id="000(c)(1): joker that completes nothing is an ace"),
    pytest.param("Jk Kc Jd 9s 7h", "Ad Kc Jd 9s 7h", "high_card", "second",
                 id="000(c)(1),(3): joker cannot fill two gaps of a straight"),
])
def test_joker(with_joker, equivalent, category, wheel):
    s = five(with_joker, wheel)
    assert CATEGORY_NAMES[category_of(s)] == category
    assert compare(s, five(equivalent, wheel)) == "copy"


def test_joker_flush_example_003_notes_3a_values():
    # 003 IMPORTANT NOTES 3(a): "Ace, Joker, King, 7, 5 will be played as Ace, King (Joker=Queen) 7, 5"
    s = five("Ah Jk Kh 7h 5h")
    assert describe(s, "second") == {"category": "flush", "value": [14, 13, 12, 7, 5]}
    assert compare(s, five("As Ks Js 7s 5s")) == "higher"   # the joker is more than a jack
    assert compare(s, five("As Ks Qs 8s 5s")) == "lower"    # and no more than a queen


def test_joker_straight_values():
    # 000(c)(2)(vii),(3),(4): 2-3-4-5 + joker; the best straight under each setting
    assert describe(five("2c 3d 4h 5s Jk", "second"), "second") == {"category": "straight", "value": [5]}
    assert describe(five("2c 3d 4h 5s Jk", "lowest"), "lowest") == {"category": "straight", "value": [6]}
    assert describe(five("2h 3h 4h 5h Jk", "second"), "second") == {"category": "straight_flush", "value": [5]}
    assert describe(five("2h 3h 4h 5h Jk", "lowest"), "lowest") == {"category": "straight_flush", "value": [6]}
    assert describe(five("3h 4h 5h 6h Jk", "second"), "second") == {"category": "straight_flush", "value": [7]}
    # second setting: the joker wheel beats 6-high; lowest: the 6-high is chosen
    assert compare(five("2c 3d 4h 5s Jk"), five("2c 3d 4h 5s 6c")) == "higher"
    assert compare(five("2c 3d 4h 5s Jk", "lowest"), five("Ac 2d 3h 4s 5d", "lowest")) == "higher"


def test_five_aces_above_natural_royal():
    # 000(c)(2)(i) above (ii); 003 ORDER OF HANDS; 004(1)
    for wheel in ("second", "lowest"):
        assert compare(five("Ac Ad Ah As Jk", wheel), five("As Ks Qs Js Ts", wheel)) == "higher"
        assert describe(five("Ac Ad Ah As Jk", wheel), wheel)["category"] == "five_aces"


@pytest.mark.parametrize("joker_hand,equivalent,category", [
    pytest.param("Jk As", "Ac Ad", "pair", id="000(c)(1): in a two card hand joker + ace is a pair of aces"),
    pytest.param("Jk Kd", "Ah Kc", "high_card", id="000(c)(1): in a two card hand the joker is an ace"),
    pytest.param("Jk 2d", "Ah 2c", "high_card", id="000(c)(1): joker + deuce is ace-deuce"),
])
def test_joker_in_two_card_hand(joker_hand, equivalent, category):
    s = two(joker_hand)
    assert CATEGORY_NAMES[category_of(s)] == category
    assert compare(s, two(equivalent)) == "copy"


def test_joker_two_card_hand_ranks():
    # 000(c)(1),(2)(x): joker + king (ace-king) is below any pair and above ace-queen
    assert compare(two("Jk Kd"), two("2c 2d")) == "lower"
    assert compare(two("Jk Kd"), two("Ac Qd")) == "higher"
    assert compare(two("Jk Ad"), two("Kc Kd")) == "higher"


# --------------------------------------------------------------------------------------------
# Setting legality: 000(l)(1), 001 11.9(a), 000(l)(6)(iii)-(iv)
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("high,low,ok", [
    pytest.param("7d 7c Ks 4h 2d", "7s 7h", True,
                 id="000(l)(1): a pair of sevens in front, a pair of sevens and three cards behind"),
    pytest.param("6d 6c As Kh Qd", "7s 7h", False,
                 id="000(l)(1): sevens in front need at least sevens behind; sixes are a foul"),
    pytest.param("Ad Kc Qs Jh 9d", "7s 7h", False,
                 id="000(l)(1),(6)(iii): no pair behind a pair is a foul"),
    pytest.param("8d 8c 2s 3h 4d", "7s 7h", True, id="001 11.9(a): eights behind sevens"),
    pytest.param("2d 3c 4s 5h 6d", "7s 7h", True, id="001 11.9(a): any straight behind a pair"),
    pytest.param("2d 2c 3s 3h 4d", "As Ah", True, id="001 11.9(a): two pair behind aces"),
    pytest.param("Ac Qh Jd 9s 8c", "As Kd", False,
                 id="000(c)(5),(l)(6)(iii): A-Q-J-9-8 behind A-K is a foul (K is the highest unmatched card)"),
    pytest.param("Ac Kh 9d 5s 3c", "As Kd", True,
                 id="000(c)(5),(l)(1): A-K-9-5-3 behind A-K holds the same top cards and more: equal or higher"),
    pytest.param("Ac Kh 9d 5s 3c", "Jk Kd", True, id="000(c)(1): joker-king in front is ace-king"),
    pytest.param("Ac Kd 7s 5h 3c", "Jk As", False,
                 id="000(c)(1),(l)(1): joker + ace in front is a pair of aces; A-K-7-5-3 behind is a foul"),
    pytest.param("Ac Ad 7s 5h 3c", "Jk As", True,
                 id="000(c)(1),(l)(1): aces behind a joker-ace pair"),
])
def test_legal_set(high, low, ok):
    legal, reason = legal_set(SECOND, parse_cards(high), parse_cards(low))
    assert legal is ok, reason
    assert isinstance(reason, str) and reason


def test_legal_set_wrong_card_counts():
    # 000(l)(6)(iv): "a three card low hand and a four card high hand" is not set correctly
    legal, _ = legal_set(SECOND, parse_cards("Ac Kd Qh Js"), parse_cards("2c 3d 4h"))
    assert legal is False
