"""A card at more than one place in the round being entered (000(b)(1): one deck, each card in it
once) is said once, naming every position that holds it: ``RoundDraft.problems``
(app/workstation/round_draft.py), the list the round panel shows under SETTLE BLOCKED. Pure: a
draft of a section6 table, the shuffler's reads put in as the journal puts them."""

from app.engine.cards import cards_str, full_deck, parse_cards
from app.rules.resources import profile
from app.workstation.round_draft import RoundDraft, duplicate_card

DUPLICATE = "000(b)(1): one deck, each card once"


def draft() -> RoundDraft:
    prof = profile("section6")
    rules = prof.rules
    return RoundDraft("T1", rules, rules.limits_for_table(None), prof.house(), prof.ranker(), 1)


def hands(given: dict[int, list[str]]) -> dict[int, list[str]]:
    """Seven hands of seven: ``given`` where given, else cards of the deck no other hand holds."""
    used = {c for cards in given.values() for c in cards}
    rest = [c for c in cards_str(full_deck()) if c not in used]
    return {p: given.get(p) or [rest.pop() for _ in range(7)] for p in range(7)}


def read(d: RoundDraft, given: dict[int, list[str]]) -> None:
    for position, cards in hands(given).items():
        d.read_hand(position, cards, "SHF-T1", "red", 1, "red deal 1")


def doubles(problems) -> list[str]:
    return [p for p in problems if DUPLICATE in p]


def test_a_card_at_two_positions_is_one_line_naming_both():
    d = draft()
    read(d, {2: "7s Kd Qc Jh 9c 4d 3h".split(), 5: "7s 2c 3c 4c 5c 6c 8c".split()})
    assert doubles(d.problems()) == [f"7s is at both seat 2 and seat 5 ({DUPLICATE}): the shuffler SHF-T1 misread the hand: correct the misread card"]


def test_a_card_at_three_positions_is_still_one_line_naming_all_three():
    d = draft()
    read(d, {0: "Kc Qh Jd Tc 8c 6d 3c".split(), 2: "Kc 7d 7h 7c 2s 2d Kh".split(),
             5: "Kc As Ad Ah 9s 9d 9h".split()})
    assert doubles(d.problems()) == [f"Kc is at dealer, seat 2 and seat 5 ({DUPLICATE}): the shuffler SHF-T1 misread the hand: correct the misread card"]


def test_each_duplicated_card_has_its_own_line_and_a_card_twice_in_a_hand_is_said_once():
    d = draft()
    # the Ah twice in seat 1's hand and at seat 4 too; the 9d twice in seat 3's hand alone
    read(d, {1: "Ah Ah Kd Qc Jh 2c 3c".split(), 3: "9d 9d 5h 6h 7h 8h Th".split(), 4: "Ah 4s 5s 6s 8s Ts Js".split()})
    assert doubles(d.problems()) == [
        f"Ah is at both seat 1 (twice) and seat 4 ({DUPLICATE}): the shuffler SHF-T1 misread the hand: correct the misread card",
        f"9d is at seat 3 twice ({DUPLICATE}): the shuffler SHF-T1 misread the hand: correct the misread card"]
    # the position's own line (its row in the panel) still says what is wrong with its hand
    assert "9d read twice" in d.position_problem(3)
    assert not any("read twice" in p for p in d.problems())


def test_a_typed_card_and_a_read_card_are_one_line_too():
    d = draft()
    d.set_cards(2, "7s kd qc jh 9c 4d 3h")
    d.read_hand(5, "7s 2c 3c 4c 5c 6c 8c".split(), "SHF-T1", "red", 1)
    assert doubles(d.problems()) == [f"7s is at both seat 2 and seat 5 ({DUPLICATE}): the shuffler SHF-T1 misread the hand: correct the misread card"]


def test_the_words_of_a_duplicate():
    (card,) = parse_cards("7s")
    rules = profile("section6").rules
    assert duplicate_card(card, [2, 5], rules).startswith("7s is at both seat 2 and seat 5 (")
    assert duplicate_card(card, [0, 2, 2, 5], rules).startswith("7s is at dealer, seat 2 (twice) and seat 5 (")
    assert duplicate_card(card, [3, 3, 3], rules).startswith("7s is at seat 3 3 times (")
    assert duplicate_card(card, [2, 5], rules).endswith("each card once): correct the misread card")
    assert duplicate_card(card, [2, 5], rules, "SHF-T1").endswith(
        "each card once): the shuffler SHF-T1 misread the hand: correct the misread card")


def test_each_table_cites_its_own_text_for_one_deck():
    # 001 11.2(a), 002 DESCRIPTION OF DECK & NUMBER OF DECKS USED, 003 GENERAL PROCEDURES 17, 004(1): each
    # text's own one deck of 53 cards (every profile cited 000(b)(1) before issue 33)
    (card,) = parse_cards("7s")
    said = {n: duplicate_card(card, [2, 5], profile(n).rules) for n in ("nj", "face-up-ca", "casino", "sd")}
    assert said == {
        "nj": "7s is at both seat 2 and seat 5 (001 11.2(a): one deck, each card once): correct the misread card",
        "face-up-ca": "7s is at both seat 2 and seat 5 (002 DESCRIPTION OF DECK & NUMBER OF DECKS USED: one deck, "
                      "each card once): correct the misread card",
        "casino": "7s is at both seat 2 and seat 5 (003 GENERAL PROCEDURES 17; 000(b)(1): one deck, each card once): "
                  "correct the misread card",
        "sd": "7s is at both seat 2 and seat 5 (004(1): one deck, each card once): correct the misread card"}
