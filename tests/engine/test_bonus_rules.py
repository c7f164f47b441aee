"""Example-based bonus-wager tests; every expectation is derived by hand from the rule texts.

Texts (in /work/shared/rules): 000 = "Section 6" (c)(6), (q)(4), (r), (s); 001 = N.J.A.C.
19:47-11.1, 11.3(f)-(h), 11.14(d), 11.15-11.18; 002 = Face Up FORTUNE BONUS BET, ACE HIGH BONUS
BET, CARD VALUES; 003 = item 17 and IMPORTANT NOTES.

Documented choices treated as spec: a seven-card straight flush may use the ace low
(A-2-3-4-5-6-7); the royal-match cards must be natural (the joker may fill the royal flush but
never the match); in the three-card bonus the joker is an ace or completes a straight/flush,
whichever pays best; in the Face Up ace-high bonus the joker completes straights and flushes, so
a joker hand is ace-high only when no straight, flush or pair can be formed.
"""

from __future__ import annotations

import pytest

from app.engine import bonus
from app.engine.cards import parse_cards
from app.engine.rank import Ranker
from app.rules.resources import paytable

SECOND = Ranker("second")
LOWEST = Ranker("lowest")


def c(text: str) -> list[int]:
    return parse_cards(text)


# --------------------------------------------------------------------------------------------
# Fortune / bonus wager: 000(c)(6), (r)(4)(ii), (s)(1); 001 11.3(f), 11.16(a); 002; 003
# --------------------------------------------------------------------------------------------

FORTUNE_CASES = [
    # seven-card straight flush with no joker, 000(c)(6)(i)
    ("3h 4h 5h 6h 7h 8h 9h", "king-queen", ("sf7_natural", False), "000(c)(6)(i): seven hearts 3-9"),
    ("8s 9s Ts Js Qs Ks As", "king-queen", ("sf7_natural", False), "000(c)(6)(i): 8-A, above the royal it holds"),
    ("Ah 2h 3h 4h 5h 6h 7h", "king-queen", ("sf7_natural", False), "000(c)(1) + documented: A-7 with the ace low"),
    # royal flush plus royal match, 000(c)(6)(ii); 001 11.3(f)2
    ("Ah Kh Qh Jh Th Ks Qs", "king-queen", ("royal_plus_royal_match", False), "000(c)(6)(ii): royal + K-Q suited"),
    ("Ah Jk Qh Jh Th Ks Qs", "king-queen", ("royal_plus_royal_match", False),
     "000(c)(6)(ii): 'with or without a joker' - the joker fills the royal's king"),
    ("Jk Kh Qh Jh Th Kd Qd", "king-queen", ("royal_plus_royal_match", False),
     "000(c)(6)(ii): the joker as the royal's ace"),
    ("Ah Kh Qh Jh Th Ks Jk", "king-queen", ("royal_flush", False),
     "documented: the joker never completes the match; a natural royal remains"),
    ("Ah Kh Qh Jh Th Ks Qd", "king-queen", ("royal_flush", False),
     "000(c)(6)(ii): the K and Q must be of a same suit"),
    ("Ah Kh Qh Jh Th As Ks", "ace-king", ("royal_plus_royal_match", False),
     "001 11.3(f)2.ii: pre-selected A-K natural match"),
    ("Jk Kh Qh Jh Th As Ks", "ace-king", ("royal_plus_royal_match", False),
     "001 11.3(f)2: royal 'with or without a joker', A-K match natural"),
    ("Ah Kh Qh Jh Th Jk Ks", "ace-king", ("royal_flush", False),
     "001 11.3(f)2.ii: the A-K must be 'without a joker (natural)'"),
    ("Ah Kh Qh Jh Th Ks Qs", "ace-king", ("royal_flush", False),
     "001 11.3(f)2.ii: under the A-K variant a K-Q match does not count"),
    ("Ah Kh Qh Jh Th As Ks", "king-queen", ("royal_flush", False),
     "001 11.3(f)2.i: under the K-Q variant an A-K match does not count"),
    # seven-card straight flush with joker, 000(c)(6)(iii)
    ("3h 4h 5h Jk 7h 8h 9h", "king-queen", ("sf7_joker", False), "000(c)(6)(iii): the joker fills the 6"),
    ("3d 4d 5d 6d 7d 8d Jk", "king-queen", ("sf7_joker", False), "000(c)(6)(iii): the joker extends six to seven"),
    ("9h Th Jh Qh Kh Ah Jk", "king-queen", ("sf7_joker", False),
     "000(c)(6)(iii),(s)(1): joker as 8 - 1,000 to 1 beats the royal flush"),
    ("Jk 2c 3c 4c 5c 6c 7c", "king-queen", ("sf7_joker", False), "documented: A(joker)-7 or 2-8"),
    # not a seven-card straight flush
    ("Qh Kh Ah 2h 3h 4h 5h", "king-queen", ("straight_flush", False),
     "000(c)(1): no wraparound; the A-2-3-4-5 straight flush remains"),
    ("2h 3h 5h 6h 8h 9h Jk", "king-queen", ("straight_flush", False),
     "000(c)(6)(iii): two gaps, one joker; the joker makes a five-card straight flush"),
    ("3h 4h 5h 6h 7h 8h 9c", "king-queen", ("straight_flush", False),
     "000(c)(6)(i): seven cards of the same suit needed"),
    # five-card categories, 000(c)(2) and (s)(1)
    ("Ac Ad Ah As Jk 7c 2d", "king-queen", ("five_aces", False), "000(c)(2)(i)"),
    ("Ah Kh Qh Jh Th 2c 3d", "king-queen", ("royal_flush", False), "000(c)(2)(ii)"),
    ("Jk Kh Qh Jh Th 2c 3d", "king-queen", ("royal_flush", False), "000(c)(2)(ii),(r)(4)(ii): joker royal"),
    ("9h Th Jh Qh Kh 2c 3d", "king-queen", ("straight_flush", False), "000(c)(2)(iii)"),
    ("Ah 2h 3h 4h 5h Kc Qd", "king-queen", ("straight_flush", False), "000(c)(1),(2)(iii): ace-low"),
    ("2h 3h 4h 5h Jk Kc Qd", "king-queen", ("straight_flush", False), "000(r)(4)(ii): joker completes it"),
    ("3h 4h 5h 6h 7h 8h Kc", "king-queen", ("straight_flush", False), "six in a row is a five-card straight flush"),
    ("7c 7d 7h 7s Ah Kd 2c", "king-queen", ("four_of_a_kind", False), "000(c)(2)(iv)"),
    ("Kc Kd Kh Ks Jk 2c 3d", "king-queen", ("four_of_a_kind", False), "000(c)(1): joker is an ace kicker"),
    ("Ac Ad Ah Jk 2c 5d 9h", "king-queen", ("four_of_a_kind", False), "000(c)(1): three aces + joker"),
    ("Kc Kd Kh 7s 7d 2c 4h", "king-queen", ("full_house", False), "000(c)(2)(v)"),
    ("Kc Kd Kh Jk As 5d 9c", "king-queen", ("full_house", False), "000(c)(1): joker + ace are the pair"),
    ("Ac Ad Jk 7s 7d 2c 4h", "king-queen", ("full_house", False), "000(c)(1): aces full of sevens"),
    ("2h 5h 9h Jh Kh 3c 4d", "king-queen", ("flush", False), "000(c)(2)(vi)"),
    ("2h 5h 9h Jh Jk 3c 8d", "king-queen", ("flush", False), "000(r)(4)(ii): joker completes a flush"),
    ("7c 7d 7h 2s 9d Jc Kh", "king-queen", ("three_of_a_kind", False), "000(c)(2)(viii)"),
    ("Ah Ad Jk 4c 8s Td Qh", "king-queen", ("three_of_a_kind", False), "000(c)(1): two aces + joker"),
    ("Kc Kd Kh Jk 2s 5d 9c", "king-queen", ("three_of_a_kind", False),
     "000(c)(1),(r)(4)(ii): joker cannot make four kings"),
    ("5c 6d 7h 8s 9d Kc 2h", "king-queen", ("straight", False), "000(c)(2)(vii)"),
    ("5c 6d 7h 8s Jk Kc 2h", "king-queen", ("straight", False), "000(r)(4)(ii): joker completes a straight"),
    ("Ac 2d 3h 4s 5c 9d Jh", "king-queen", ("straight", False), "000(c)(1): A-2-3-4-5"),
    # a straight that also holds three of a kind
    ("5c 6d 7h 8s 9d 9c 9h", "king-queen", ("straight", True), "(s)(1): straight and trips both present"),
    ("Jk Ac Ad 2h 3s 4d 5c", "king-queen", ("straight", True),
     "000(c)(1): the wheel, and joker + two aces are three aces"),
    ("5c 6d 7h 8s 9d 9c Jk", "king-queen", ("straight", False),
     "000(c)(1),(3): joker cannot be a third nine; no aces, so no trips"),
    # no qualifying hand, 000(a)(1)(xi): a straight or higher (three of a kind paid by (s)(1))
    ("2c 5d 7h 9s Jd Kc Ah", "king-queen", ("none", False), "000(a)(1)(xi): high card"),
    ("2c 2d 7h 7s 9d Jc Kh", "king-queen", ("none", False), "000(s)(1): two pair is not paid"),
    ("Jk Ad 3c 6h 8s Td Qc", "king-queen", ("none", False), "000(c)(1): joker + ace is only a pair"),
]


@pytest.mark.parametrize("cards,variant,expected",
                         [pytest.param(h, v, e, id=cite) for h, v, e, cite in FORTUNE_CASES])
def test_fortune_category(cards, variant, expected):
    assert bonus.fortune(c(cards), SECOND, variant=variant) == expected


def test_fortune_same_under_lowest_wheel():
    # 002 uses the lowest wheel; the Fortune categories do not depend on it
    for cards, variant, expected, _ in FORTUNE_CASES:
        assert bonus.fortune(c(cards), LOWEST, variant=variant) == expected, cards


@pytest.mark.parametrize("table", ["fortune-000", "fortune-001", "fortune-002", "fortune-003"])
def test_fortune_straight_with_trips_paid_as_trips(table):
    # 000(s)(1), 001 11.16(a), 002, 003: three of a kind 3 to 1 pays more than a straight 2 to 1;
    # the dealer forms the best possible hand (000(r)(4)(ii)), so the better-paying line is paid
    pt = paytable(table)
    cat, trips = bonus.fortune(c("5c 6d 7h 8s 9d 9c 9h"), SECOND)
    assert pt.line(cat, trips) == "three_of_a_kind"
    assert pt.pays["three_of_a_kind"].odds == 3
    cat, trips = bonus.fortune(c("5c 6d 7h 8s 9d Kc 2h"), SECOND)
    assert pt.line(cat, trips) == "straight"
    assert pt.pays["straight"].odds == 2
    assert pt.line("none") is None


def test_fortune_paytable_000_s_1():
    # 000(s)(1) schedule
    pt = paytable("fortune-000")
    expected = {"sf7_natural": 8000, "royal_plus_royal_match": 2000, "sf7_joker": 1000, "five_aces": 400,
                "royal_flush": 150, "straight_flush": 50, "four_of_a_kind": 25, "full_house": 5, "flush": 4,
                "three_of_a_kind": 3, "straight": 2}
    for line, odds in expected.items():
        assert pt.line(line) == line
        assert pt.pays[line].odds == odds, line


def test_fortune_paytable_002():
    # 002 FORTUNE BONUS BET PAYTABLE, FORTUNE PAYS column
    pt = paytable("fortune-002")
    expected = {"sf7_natural": 2500, "royal_plus_royal_match": 1000, "sf7_joker": 750, "five_aces": 250,
                "royal_flush": 125, "straight_flush": 50, "four_of_a_kind": 25, "full_house": 5, "flush": 4,
                "three_of_a_kind": 3, "straight": 2}
    for line, odds in expected.items():
        assert pt.pays[line].odds == odds, line


@pytest.mark.parametrize("cards,line,cents", [
    pytest.param("3h 4h 5h 6h 7h 8h 9h", "sf7_natural", 500_000, id="000(s)(2): seven-card straight flush, no joker $5,000"),
    pytest.param("Ah Kh Qh Jh Th Ks Qs", "royal_plus_royal_match", 100_000, id="000(s)(2): royal flush plus royal match $1,000"),
    pytest.param("3h 4h 5h Jk 7h 8h 9h", "sf7_joker", 50_000, id="000(s)(2): seven-card straight flush with joker $500"),
    pytest.param("Ac Ad Ah As Jk 7c 2d", "five_aces", 25_000, id="000(s)(2): five aces $250"),
    pytest.param("Jk Kh Qh Jh Th 2c 3d", "royal_flush", 5_000, id="000(s)(2): royal flush $50"),
    pytest.param("9h Th Jh Qh Kh 2c 3d", "straight_flush", 2_000, id="000(s)(2): straight flush $20"),
    pytest.param("7c 7d 7h 7s Ah Kd 2c", "four_of_a_kind", 500, id="000(s)(2),(a)(1)(ix): four of a kind $5"),
    pytest.param("Kc Kd Kh 7s 7d 2c 4h", None, 0, id="000(a)(1)(ix): a full house is not premium, no envy"),
    pytest.param("5c 6d 7h 8s 9d 9c 9h", None, 0, id="000(a)(1)(ix): straight/trips are not premium"),
])
def test_envy_000(cards, line, cents):
    pt = paytable("envy-000")
    cat, trips = bonus.fortune(c(cards), SECOND)
    assert pt.line(cat, trips) == line
    if line is not None:
        assert pt.pays[line].amount(500) == cents


# --------------------------------------------------------------------------------------------
# Pai gow insurance: 001 11.1 ("pai gow": ace high or lower), 11.3(h) (joker is an ace),
# 11.15(d)2 ("Except for the pai gow insurance wager, a joker may be used ... straight, flush")
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("cards,expected", [
    pytest.param("2c 3d 4h 6s 7c 8d 9h", "nine_high", id="001 11.16(c): nine high"),
    pytest.param("2c 3d 4h 5s 7c 8d 9h", "nine_high", id="001 11.16(c): nine high without the six"),
    pytest.param("2c 3d 4h 6s 7c 8d Th", "ten_high", id="001 11.16(c): ten high"),
    pytest.param("2c 3d 4h 6s 7c 9d Jh", "jack_high", id="001 11.16(c): jack high"),
    pytest.param("2c 3d 4h 6s 7c 9d Qh", "queen_high", id="001 11.16(c): queen high"),
    pytest.param("2c 3d 4h 6s 7c 9d Kh", "king_high", id="001 11.16(c): king high"),
    pytest.param("2c 3d 4h 6s 7c 9d Ah", "ace_high", id="001 11.16(c): ace high"),
    pytest.param("2c 3d 4h 6s 7c 9d Jk", "ace_high",
                 id="001 11.3(h),11.15(d)2: joker is an ace, it does not fill the 5 for a straight"),
    pytest.param("2h 5h 8h Jh Jk 3c 9d", "ace_high",
                 id="001 11.3(h),11.15(d)2: joker is an ace, it does not complete a flush"),
    pytest.param("Jk Kd 9h 8s 7c 6d 2h", "ace_high",
                 id="001 11.3(h): joker does not fill 6-7-8-9 into a straight"),
    pytest.param("Jk Kh 9h 7h 4h 2c 6d", "ace_high",
                 id="001 11.3(h): four hearts and the joker are no flush for insurance"),
    pytest.param("Jk Ac 2d 4h 7s 9c Jd", "none", id="001 11.3(h): joker + ace are a pair of aces"),
    pytest.param("2c 2d 4h 6s 8c Td Qh", "none", id="001 11.1: a pair is above ace high"),
    pytest.param("2c 3d 4h 5s 6c 9d Jh", "none", id="001 11.1: a straight is above ace high"),
    pytest.param("Ac 2d 3h 4s 5c 9d Jh", "none", id="001 11.3(a): A-2-3-4-5 is a straight"),
    pytest.param("Jk 2c 3d 4h 5s 9c Jd", "none", id="001 11.3(h),(a): the joker as an ace makes A-2-3-4-5"),
    pytest.param("Jk Kc Qd Jh Ts 3c 5d", "none", id="001 11.3(h): the joker as an ace makes A-K-Q-J-10"),
    pytest.param("2h 5h 8h Jh Kh 3c 9d", "none", id="001 11.1: a flush is above ace high"),
])
def test_insurance(cards, expected):
    assert bonus.insurance(c(cards)) == expected


def test_insurance_paytable_a():
    # 001 11.16(c) table A
    pt = paytable("insurance-001-a")
    expected = {"nine_high": 400, "ten_high": 40, "jack_high": 20, "queen_high": 5, "king_high": 3, "ace_high": 2}
    for line, odds in expected.items():
        assert pt.line(line) == line
        assert pt.pays[line].odds == odds
    assert pt.line("none") is None


# --------------------------------------------------------------------------------------------
# Three-card bonus on the first three cards: 001 11.1, 11.17(f), 11.18(b)
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("cards,expected", [
    pytest.param("5h 6h 7h", "straight_flush_natural", id="11.18(b): three-card straight flush, no joker"),
    pytest.param("Qh Kh Ah", "straight_flush_natural", id="11.18(b),11.3(a): Q-K-A suited"),
    pytest.param("Ah 2h 3h", "straight_flush_natural", id="11.18(b),11.3(a): the ace completes low"),
    pytest.param("Kh Ah 2h", "flush", id="11.3(a): no wraparound, K-A-2 suited is a flush"),
    pytest.param("Kc Ad 2h", "none", id="11.3(a): no wraparound, K-A-2 is nothing"),
    pytest.param("7c 7d 7h", "three_of_a_kind", id="11.18(b): three of a kind"),
    pytest.param("Ac Ad Jk", "three_of_a_kind", id="11.3(a): two aces + joker (an ace) are three aces"),
    pytest.param("9h 9d Jk", "pair", id="11.3(a),(c): the joker is no third nine; a pair of nines"),
    pytest.param("Ah Kh Jk", "straight_flush", id="11.18(b): joker as Qh, straight flush (5 to 1) over a pair"),
    pytest.param("5h 6h Jk", "straight_flush", id="11.18(b): joker completes a straight flush"),
    pytest.param("7c 9c Jk", "straight_flush", id="11.18(b): joker fills the inside 8"),
    pytest.param("Jk 2s As", "straight_flush", id="11.18(b),11.3(a): joker as 3s makes A-2-3"),
    pytest.param("5h 8h Jk", "flush", id="11.18(b): joker completes a flush only"),
    pytest.param("5h 6d Jk", "straight", id="11.18(b): joker completes a straight"),
    pytest.param("Ah Kd Jk", "straight", id="11.18(b): straight (4 to 1) over a pair of aces (1 to 1)"),
    pytest.param("Ah 5d Jk", "pair", id="11.3(a): joker + ace are a pair"),
    pytest.param("Jk Ah 5h", "flush", id="11.18(b): flush (3 to 1, joker as Kh) over a pair of aces (1 to 1)"),
    pytest.param("Jk 9c Kd", "none", id="11.3(a): joker alone is an ace high card"),
    pytest.param("2c 7d Jh", "none", id="11.18(b): nothing"),
    pytest.param("2h 7h Jh", "flush", id="11.18(b): three-card flush"),
    pytest.param("9c 9d Kh", "pair", id="11.18(b): one pair"),
    pytest.param("4c 5d 6h", "straight", id="11.18(b): three-card straight"),
    pytest.param("Qc Kd Ah", "straight", id="11.18(b): Q-K-A straight"),
])
def test_three_card(cards, expected):
    assert bonus.three_card(c(cards)) == expected


def test_three_card_uses_first_three_cards():
    # 001 11.1 "the player's first three cards"; 11.17(b): the first three cards come as a stack
    seven = c("7c 7d 7h Ks 2d 3c 4h")
    assert bonus.three_card(seven[:3]) == "three_of_a_kind"
    seven = c("2c 7d Jh 5s 6s 7s 8s")
    assert bonus.three_card(seven[:3]) == "none"


def test_three_card_paytable():
    # 001 11.18(b)
    pt = paytable("three-card-001")
    expected = {"straight_flush_natural": 40, "three_of_a_kind": 25, "straight_flush": 5, "straight": 4,
                "flush": 3, "pair": 1}
    for line, odds in expected.items():
        assert pt.line(line) == line
        assert pt.pays[line].odds == odds


# --------------------------------------------------------------------------------------------
# Seven-card bonus, tables A and B: 001 11.1 (best five of seven), 11.3(g), 11.18(c)
# --------------------------------------------------------------------------------------------

SEVEN_CARD_CASES = [
    ("Ac Ad Ah As Jk 2c 3d", ("five_aces", False), "11.18(c): five aces"),
    ("Ah Kh Qh Jh Th 2c 3d", ("royal_flush", False), "11.18(c): royal flush"),
    ("Jk Kh Qh Jh Th 2c 3d", ("royal_flush", False), "11.3(c): joker royal is a royal flush"),
    ("9h Th Jh Qh Kh Ah 2c", ("royal_flush", False), "11.1: best five of seven is the royal"),
    ("9h Th Jh Qh Kh 2c 3d", ("straight_flush_without_joker", False), "11.3(g): none of the five is the joker"),
    ("Ah 2h 3h 4h 5h Kc Qd", ("straight_flush_without_joker", False), "11.3(a),(g): A-2-3-4-5 natural"),
    ("3h 4h 5h 6h 7h 8h 9h", ("straight_flush_without_joker", False), "11.18(c): no seven-card line; a straight flush"),
    ("9h Th Jh Jk Kh 2c 3d", ("straight_flush_with_joker", False), "11.3(g): one of the five is the joker"),
    ("9h Th Jh Jk Kh 2h 3d", ("straight_flush_with_joker", False), "11.3(g): with joker even with a natural flush"),
    ("2h 3h 4h 5h Jk Kc Qd", ("straight_flush_with_joker", False), "11.3(g): the joker completes the wheel"),
    ("8h 9h Th Jh Qh Jk 2c", ("straight_flush_without_joker", False),
     "11.3(g),11.18(c) table B: a natural 8-Q straight flush is present (50 to 1 beats 30 to 1)"),
    ("7c 7d 7h 7s Ah Kd 2c", ("four_of_a_kind", False), "11.18(c): four of a kind"),
    ("Kc Kd Kh 7s 7d 2c 4h", ("full_house", False), "11.18(c): full house"),
    ("2h 5h 9h Jh Kh 3c 4d", ("flush", False), "11.18(c): flush"),
    ("7c 7d 7h 2s 9d Jc Kh", ("three_of_a_kind", False), "11.18(c): three of a kind"),
    ("Kc Kd Kh Jk 2s 5d 9c", ("three_of_a_kind", False), "11.3(a): joker is an ace, not a fourth king"),
    ("5c 6d 7h 8s 9d Kc 2h", ("straight", False), "11.18(c): straight"),
    ("5c 6d 7h 8s 9d 9c 9h", ("straight", True), "11.18(c): straight that also holds three of a kind"),
    ("Jk Ac Ad 2h 3s 4d 5c", ("straight", True), "11.3(a): the wheel, and joker + two aces are three aces"),
    ("2c 5d 7h 9s Jd Kc Ah", ("none", False), "11.18(c): no paying hand"),
    ("Jc Jd 7h 7s 9d 2c Kh", ("none", False), "11.18(c): two pair does not pay"),
]


@pytest.mark.parametrize("cards,expected", [pytest.param(h, e, id=cite) for h, e, cite in SEVEN_CARD_CASES])
def test_seven_card(cards, expected):
    assert bonus.seven_card(c(cards), SECOND) == expected


def test_seven_card_table_a_lines():
    # 001 11.18(c) Table A does not split straight flushes
    pt = paytable("seven-card-001-a")
    assert pt.line("straight_flush_without_joker") == "straight_flush"
    assert pt.line("straight_flush_with_joker") == "straight_flush"
    assert pt.line("straight", True) == "three_of_a_kind"
    expected = {"five_aces": 500, "royal_flush": 250, "straight_flush": 50, "four_of_a_kind": 25,
                "full_house": 5, "flush": 4, "three_of_a_kind": 3, "straight": 2}
    for line, odds in expected.items():
        assert pt.pays[line].odds == odds


def test_seven_card_table_b_lines():
    # 001 11.18(c) Table B with 11.3(g)
    pt = paytable("seven-card-001-b")
    assert pt.line("straight_flush_without_joker") == "straight_flush_without_joker"
    assert pt.line("straight_flush_with_joker") == "straight_flush_with_joker"
    assert pt.pays["straight_flush_without_joker"].odds == 50
    assert pt.pays["straight_flush_with_joker"].odds == 30
    assert pt.pays["royal_flush"].odds == 200
    assert pt.pays["five_aces"].odds == 500
    cat, trips = bonus.seven_card(c("8h 9h Th Jh Qh Jk 2c"), SECOND)
    assert pt.line(cat, trips) == "straight_flush_without_joker"
    cat, trips = bonus.seven_card(c("5c 6d 7h 8s 9d 9c 9h"), SECOND)
    assert pt.line(cat, trips) == "three_of_a_kind"


# --------------------------------------------------------------------------------------------
# Face Up ace-high: 002 ACE HIGH BONUS BET, CARD VALUES (joker: an ace, or completes any
# straight, flush or straight flush). The Face Up profile uses the lowest wheel.
# --------------------------------------------------------------------------------------------

@pytest.mark.parametrize("cards,expected", [
    pytest.param("Ac Kd Th 8s 6c 4d 2h", "ace_high_natural", id="002: ace-high seven-card hand, natural ace"),
    pytest.param("Ac 2d 3h 4s 7c 9d Jh", "ace_high_natural", id="002: A-2-3-4 without a 5 is no straight"),
    pytest.param("Jk Kd Th 8s 6c 4d 2h", "ace_high_joker", id="002 CARD VALUES: the joker used as an ace"),
    pytest.param("Jk 2d 3h 4s 7c 9d Jh", "ace_high_joker", id="002: joker cannot make 2-3-4 a straight"),
    pytest.param("Jk Ac Th 8s 6c 4d 2h", "none", id="002 CARD VALUES: joker + ace are a pair"),
    pytest.param("Jk Kd 9h 8s 7c 6d 2h", "none", id="002 CARD VALUES: the joker completes 6-7-8-9"),
    pytest.param("Jk Kh 9h 7h 4h 2c 6d", "none", id="002 CARD VALUES: the joker completes a heart flush"),
    pytest.param("Jk 2d 3h 4s 5c 9d Jh", "none", id="002 CARD VALUES: the joker completes a straight"),
    pytest.param("Kc Qd 9h 7s 5c 4d 2h", "none", id="002: king high is not an ace-high hand"),
    pytest.param("Ac Ad Th 8s 6c 4d 2h", "none", id="002: a pair is not an ace-high hand"),
    pytest.param("Ac 2d 3h 4s 5c 9d Jh", "none", id="002 CARD VALUES: ace low begins a straight"),
    pytest.param("Ah Kh 9h 7h 4h 2c 6d", "none", id="002: a flush is not an ace-high hand"),
])
def test_ace_high(cards, expected):
    assert bonus.ace_high(c(cards), LOWEST) == expected
    assert bonus.ace_high(c(cards), SECOND) == expected


def test_view_flags():
    # 000(r)(4)(ii): the dealer forms the best possible hand from all seven cards
    v = bonus.view(c("Jk Ac Ad 2h 3s 4d 5c"), SECOND)
    assert v.has_trips is True          # joker + two aces, 000(c)(1)
    assert bonus.fortune(c("Jk Ac Ad 2h 3s 4d 5c"), SECOND, v=v) == ("straight", True)
    v = bonus.view(c("8h 9h Th Jh Qh Jk 2c"), SECOND)
    assert v.best_natural_sf is True    # 8-Q of hearts without the joker, 001 11.3(g)
    v = bonus.view(c("9h Th Jh Jk Kh 2c 3d"), SECOND)
    assert v.best_natural_sf is False


def test_ace_high_and_insurance_treat_the_joker_differently():
    # 002 CARD VALUES lets the joker fill a straight; 001 11.3(h) makes it an ace for insurance
    hand = c("Jk Kd 9h 8s 7c 6d 2h")
    assert bonus.insurance(hand) == "ace_high"
    assert bonus.ace_high(hand, LOWEST) == "none"


# --------------------------------------------------------------------------------------------
# Progressive hand types: 000(q)(4), 001 11.14(d). "X and Pair": high hand X, low hand a pair.
# A natural royal flush uses no joker (000(c)(2)(ii)). Best payout: PayTable.best_progressive.
# --------------------------------------------------------------------------------------------

PROGRESSIVE_CASES = [
    ("Ah Kh Qh Jh Th 5c 5d",
     {"natural_royal_and_pair", "natural_royal", "royal_and_pair", "royal"},
     "natural_royal_and_pair", "000(q)(4),(c)(2)(ii): natural royal behind a pair of fives"),
    ("Jk Kh Qh Jh Th 5c 5d",
     {"royal_and_pair", "royal"},
     "royal_and_pair", "000(c)(2)(ii): a royal using the joker is not natural"),
    ("Ah Kh Qh Jh Th Jk 5c",
     {"natural_royal", "royal"},
     "natural_royal", "000(c)(2)(ii): the natural royal can be set without the joker; Jk-5 is no pair"),
    ("Ah Kh Qh Jh Th Jk As",
     {"natural_royal_and_pair", "natural_royal", "royal_and_pair", "royal", "straight_and_pair", "straight",
      "three_of_a_kind"},
     "natural_royal_and_pair",
     "000(q)(4),(c)(1),(c)(2)(ii): Jk-As in front is a pair of aces behind which the royal is natural"),
    ("Ac Ad Ah As Jk 7c 7d",
     {"five_aces_and_pair", "five_aces", "four_of_a_kind", "full_house_and_pair", "full_house"},
     "five_aces_and_pair", "000(q)(4),(c)(1): five aces behind sevens; Jk-A in front is a pair of aces"),
    ("Ac Ad Ah As Jk 7c 2d",
     {"five_aces", "four_of_a_kind", "three_of_a_kind"},
     "five_aces", "000(q)(4): five aces, no pair for the front"),
    ("5h 6h 7h 8h 9h Kc Kd",
     {"straight_flush_and_pair", "straight_flush"},
     "straight_flush_and_pair", "000(q)(4): straight flush and pair"),
    ("7c 7d 7h 7s Kc Kd 2h",
     {"four_of_a_kind_and_pair", "four_of_a_kind", "full_house", "three_of_a_kind"},
     "four_of_a_kind_and_pair", "000(q)(4): four sevens behind kings"),
    ("Kc Kd Kh 7s 7d 2c 2h",
     {"full_house_and_pair", "full_house", "three_of_a_kind"},
     "full_house_and_pair", "000(q)(4): full house and pair"),
    ("2h 5h 8h Jh Kh 3c 3d",
     {"flush_and_pair", "flush"},
     "flush_and_pair", "000(q)(4): flush and pair"),
    ("5c 6d 7h 8s 9d Kc Kh",
     {"straight_and_pair", "straight"},
     "straight_and_pair", "000(q)(4): straight and pair"),
    ("5c 6d 7h 8s 9d 9c 9h",
     {"straight_and_pair", "straight", "three_of_a_kind"},
     "straight_and_pair", "000(q)(4): straight with the other two nines in front ($4 beats $2)"),
    ("7c 7d 7h 2s 9d Jc Kh",
     {"three_of_a_kind"},
     "three_of_a_kind", "000(q)(4): three of a kind"),
    ("2c 2d 7h 7s 9d Jc Kh", set(), None, "000(q)(4): two pair is no hand type"),
    ("2c 5d 7h 9s Jd Kc Ah", set(), None, "000(q)(4): nothing"),
]


@pytest.mark.parametrize("cards,lines,best", [pytest.param(h, ln, b, id=cite) for h, ln, b, cite in PROGRESSIVE_CASES])
def test_progressive_lines_and_best(cards, lines, best):
    got = bonus.progressive_lines(c(cards), SECOND)
    assert got == lines
    for table in ("progressive-1", "progressive-5"):
        assert paytable(table).best_progressive(got, 1_000_000) == best  # meter at the $10,000 minimum, (q)(6)


@pytest.mark.parametrize("table,lines,meter,best", [
    pytest.param("progressive-1", {"straight_flush", "four_of_a_kind_and_pair"}, 1_000_000,
                 "four_of_a_kind_and_pair", id="000(q)(4) $1: four of a kind and pair $40 over straight flush $25"),
    pytest.param("progressive-5", {"straight_flush", "four_of_a_kind_and_pair"}, 1_000_000,
                 "four_of_a_kind_and_pair", id="000(q)(4) $5: $200 over $125"),
    pytest.param("progressive-1", {"flush_and_pair", "full_house"}, 1_000_000,
                 "flush_and_pair", id="000(q)(4) $1: flush and pair $6 over full house $5"),
    pytest.param("progressive-5", {"flush_and_pair", "full_house"}, 1_000_000,
                 "flush_and_pair", id="000(q)(4) $5: $30 over $25"),
    pytest.param("progressive-1", {"straight_and_pair", "full_house"}, 1_000_000,
                 "full_house", id="000(q)(4) $1: full house $5 over straight and pair $4"),
    pytest.param("progressive-1", {"natural_royal", "royal_and_pair"}, 1_000_000,
                 "natural_royal", id="000(q)(4) $1: 10% of a $10,000 meter over $200"),
    pytest.param("progressive-5", {"natural_royal", "royal_and_pair"}, 2_500_000,
                 "natural_royal", id="000(q)(4) $5: 10% of a $25,000 meter over $1,000"),
    pytest.param("progressive-1", {"five_aces_and_pair", "natural_royal"}, 1_000_000,
                 "five_aces_and_pair", id="000(q)(4): 100% of the meter over 10%"),
    pytest.param("progressive-1", set(), 1_000_000, None, id="000(q)(4): nothing to pay"),
])
def test_best_progressive(table, lines, meter, best):
    assert paytable(table).best_progressive(lines, meter) == best


def test_progressive_amounts():
    # 000(q)(4) and (q)(7): percent lines are of the meter when paid; others fixed sums
    p1, p5 = paytable("progressive-1"), paytable("progressive-5")
    assert p1.pays["natural_royal_and_pair"].amount(100, 1_234_500) == 1_234_500
    assert p1.pays["natural_royal"].amount(100, 1_234_500) == 123_450
    assert p1.pays["royal_and_pair"].amount(100, 1_234_500) == 20_000
    assert p1.pays["three_of_a_kind"].amount(100, 1_234_500) == 200
    assert p5.pays["royal_and_pair"].amount(500, 1_234_500) == 100_000
    assert p5.pays["flush_and_pair"].amount(500, 1_234_500) == 3_000
