"""Bonus categories of a player's seven cards (the scalar path; vector.py is the numpy path).

The dealer rearranges the seven cards "to form the best possible hand" (000(r)(4)(ii),
001 11.15(d)2), so every category here looks at all seven cards however they were set.

- Fortune/bonus wager: 000(c)(6), 000(s)(1); 001 11.3(f), 11.16(a); 002 FORTUNE BONUS BET; 003.
- Pai gow insurance: 001 11.1, 11.15-16, the joker ranked as an ace (001 11.3(h)).
- Three-card bonus on the first three cards: 001 11.17(f), 11.18(b).
- Seven-card bonus, tables A and B: 001 11.18(c), straight flush with/without joker 001 11.3(g).
- Face Up ace-high pai gow, with or without the joker: 002 ACE HIGH BONUS BET.
- Progressive hand types: 000(q)(4), 001 11.14(d); the best-paying setting, 000(l)(9).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from .cards import ACE, JOKER, rank_of, suit_of
from .rank import (PACKED, FIVE_ACES, FLUSH, FOUR_OF_A_KIND, FULL_HOUSE, HIGH_CARD, ROYAL_FLUSH, STRAIGHT,
                   STRAIGHT_FLUSH, THREE_OF_A_KIND, Ranker, category_of, digits_of)

FORTUNE_CATEGORIES = (
    "sf7_natural", "royal_plus_royal_match", "sf7_joker", "five_aces", "royal_flush",
    "straight_flush", "four_of_a_kind", "full_house", "flush", "three_of_a_kind", "straight", "none",
)
INSURANCE_CATEGORIES = ("nine_high", "ten_high", "jack_high", "queen_high", "king_high", "ace_high", "none")
THREE_CARD_CATEGORIES = ("straight_flush_natural", "three_of_a_kind", "straight_flush", "straight", "flush",
                         "pair", "none")
SEVEN_CARD_CATEGORIES = ("five_aces", "royal_flush", "straight_flush_without_joker", "straight_flush_with_joker",
                         "four_of_a_kind", "full_house", "flush", "three_of_a_kind", "straight", "none")
ACE_HIGH_CATEGORIES = ("ace_high_joker", "ace_high_natural", "none")
PROGRESSIVE_LINES = (
    "natural_royal_and_pair", "five_aces_and_pair", "natural_royal", "five_aces", "royal_and_pair", "royal",
    "straight_flush_and_pair", "straight_flush", "four_of_a_kind_and_pair", "four_of_a_kind",
    "full_house_and_pair", "full_house", "flush_and_pair", "flush", "straight_and_pair", "straight",
    "three_of_a_kind",
)

ROYAL_MATCH_KQ = "king-queen"   # 000(c)(6)(ii), 001 11.3(f)2.i, 002, 003
ROYAL_MATCH_AK = "ace-king"     # 001 11.3(f)2.ii: the pre-selectable natural A-K variant
ROYAL_MATCH_VARIANTS = (ROYAL_MATCH_KQ, ROYAL_MATCH_AK)

_CAT_TO_FORTUNE = {FIVE_ACES: "five_aces", ROYAL_FLUSH: "royal_flush", STRAIGHT_FLUSH: "straight_flush",
                   FOUR_OF_A_KIND: "four_of_a_kind", FULL_HOUSE: "full_house", FLUSH: "flush",
                   THREE_OF_A_KIND: "three_of_a_kind", STRAIGHT: "straight"}


@dataclass(frozen=True)
class SevenCardView:
    """What the bonus rules need from seven cards: the best five-card score and flags."""

    best: int                 # best five-card score of the seven (joker wild as in rank.py)
    best_natural_sf: bool     # a straight flush (or royal) among five natural cards, 001 11.3(g)
    has_trips: bool           # three of a kind present (joker as an ace), for "better-paying line"


def best_five(cards: Sequence[int], ranker: Ranker) -> int:
    return max(ranker.five(c) for c in combinations(cards, 5))


def _rank_counts(cards: Sequence[int]) -> Counter:
    """Ranks with the joker counted as an ace (000(c)(1))."""
    return Counter(rank_of(c) for c in cards)


def _run_windows():
    # seven consecutive ranks, the ace high (8..A) or low (A..7: the ace completes low runs, 000(c)(1))
    for low in range(1, 9):
        yield [14 if r == 1 else r for r in range(low, low + 7)]


def seven_card_straight_flush(cards: Sequence[int]) -> str | None:
    """000(c)(6)(i),(iii): seven cards of one suit in consecutive ranking; 'natural' or 'joker'."""
    naturals = [c for c in cards if c != JOKER]
    if len({suit_of(c) for c in naturals}) != 1:
        return None
    ranks = {rank_of(c) for c in naturals}
    if len(ranks) != len(naturals):
        return None
    for window in _run_windows():
        if ranks <= set(window):
            return "joker" if JOKER in cards else "natural"
    return None


def royal_plus_royal_match(cards: Sequence[int], variant: str = ROYAL_MATCH_KQ) -> bool:
    """000(c)(6)(ii), 001 11.3(f)2: a royal flush (the joker may fill it) and a natural match.

    The match is K-Q of one suit, or (NJ's pre-selected variant ii) A-K of one suit. The joker
    completes only straights and flushes (000(c)(3)), never the match (docs/house-ways.md).
    """
    hand = set(cards)
    want = (13, 12) if variant == ROYAL_MATCH_KQ else (14, 13)
    for s in range(4):
        royal = {s * 13 + r - 2 for r in (14, 13, 12, 11, 10)}
        present = royal & hand
        if len(present) == 5:
            rest = hand - present
        elif len(present) == 4 and JOKER in hand:
            rest = hand - present - {JOKER}
        else:
            continue
        if len(rest) == 2 and JOKER not in rest:
            a, b = rest
            if suit_of(a) == suit_of(b) and sorted((rank_of(a), rank_of(b))) == sorted(want):
                return True
    return False


_JOKER_PACKED = PACKED[JOKER]
_SF_SCORE = STRAIGHT_FLUSH << 20  # straight flushes and above score at least this


def view(cards: Sequence[int], ranker: Ranker) -> SevenCardView:
    best = -1
    natural_sf = False
    five = ranker.five_packed
    jp = _JOKER_PACKED
    for a, b, c, d, e in combinations([PACKED[x] for x in cards], 5):
        s = five(a, b, c, d, e)
        if s > best:
            best = s
        if s >= _SF_SCORE and s < (FIVE_ACES << 20) and jp not in (a, b, c, d, e):
            natural_sf = True
    has_trips = max(_rank_counts(cards).values()) >= 3
    return SevenCardView(best, natural_sf, has_trips)


def fortune(cards: Sequence[int], ranker: Ranker, variant: str = ROYAL_MATCH_KQ,
            v: SevenCardView | None = None) -> tuple[str, bool]:
    """Fortune/bonus category, and whether a straight also holds three of a kind.

    A hand holding both three of a kind and a straight is paid as the better-paying line
    (issue; 000(s)(1) pays three of a kind above a straight): see PayTable.fortune_line.
    """
    sf7 = seven_card_straight_flush(cards)
    if sf7 == "natural":
        return "sf7_natural", False
    if royal_plus_royal_match(cards, variant):
        return "royal_plus_royal_match", False
    if sf7 == "joker":
        return "sf7_joker", False
    v = v or view(cards, ranker)
    cat = category_of(v.best)
    name = _CAT_TO_FORTUNE.get(cat, "none")
    return name, name == "straight" and v.has_trips


def seven_card(cards: Sequence[int], ranker: Ranker, v: SevenCardView | None = None) -> tuple[str, bool]:
    """001 11.18(c): best five of seven; straight flushes split by the joker per 11.3(g)."""
    v = v or view(cards, ranker)
    cat = category_of(v.best)
    if cat == STRAIGHT_FLUSH:
        return ("straight_flush_without_joker" if v.best_natural_sf else "straight_flush_with_joker"), False
    name = _CAT_TO_FORTUNE.get(cat, "none")
    return name, name == "straight" and v.has_trips


def insurance(cards: Sequence[int]) -> str:
    """001 11.1 'pai gow': a seven-card hand of ace high or lower; the joker is an ace (11.3(h))."""
    ranks = [rank_of(c) for c in cards]
    if len(set(ranks)) != 7:
        return "none"
    suits = Counter(suit_of(c) for c in cards if c != JOKER)
    if max(suits.values()) >= 5:
        return "none"
    bits = set(ranks) | ({1} if ACE in ranks else set())
    for low in range(1, 11):
        if all(r in bits for r in range(low, low + 5)):
            return "none"
    return INSURANCE_CATEGORIES[max(ranks) - 9]


def three_card(cards: Sequence[int]) -> str:
    """001 11.18(b) on the first three cards; the joker is an ace or completes a straight/flush."""
    if len(cards) != 3:
        raise ValueError("the three-card bonus looks at exactly three cards")
    naturals = [c for c in cards if c != JOKER]
    joker = len(naturals) == 2
    ranks = [rank_of(c) for c in naturals]
    suited = len({suit_of(c) for c in naturals}) == 1
    distinct = len(set(ranks)) == len(ranks)
    straight = distinct and _three_run(set(ranks), joker)
    if straight and suited and not joker:
        return "straight_flush_natural"
    if ranks.count(ACE) + joker == 3 or (not joker and len(set(ranks)) == 1):
        return "three_of_a_kind"
    if straight and suited:
        return "straight_flush"
    if straight:
        return "straight"
    if suited and distinct:
        return "flush"
    as_ace = ranks + ([ACE] if joker else [])
    if len(set(as_ace)) < 3:
        return "pair"
    return "none"


def _three_run(ranks: set[int], joker: bool) -> bool:
    need = 3 - joker
    for low in range(1, 13):  # A-2-3 .. Q-K-A
        window = {14 if r == 1 else r for r in range(low, low + 3)}
        if len(ranks & window) == need and ranks <= window:
            return True
    return False


def ace_high(cards: Sequence[int], ranker: Ranker, v: SevenCardView | None = None) -> str:
    """002: a seven-card ace-high hand (no pair, straight or flush; the joker wild per 002
    CARD VALUES), with the ace made by the joker or natural."""
    v = v or view(cards, ranker)
    if category_of(v.best) != HIGH_CARD or digits_of(v.best)[0] != ACE:
        return "none"
    return "ace_high_joker" if JOKER in cards else "ace_high_natural"


_SPLITS = tuple((i, j, tuple(k for k in range(7) if k not in (i, j))) for i, j in combinations(range(7), 2))
_PROGRESSIVE_NAMES = {FIVE_ACES: "five_aces", STRAIGHT_FLUSH: "straight_flush", FOUR_OF_A_KIND: "four_of_a_kind",
                      FULL_HOUSE: "full_house", FLUSH: "flush", STRAIGHT: "straight"}


def progressive_lines(cards: Sequence[int], ranker: Ranker, v: SevenCardView | None = None) -> set[str]:
    """Every progressive hand type the seven cards can be set to (000(q)(4), 001 11.14(d))."""
    out: set[str] = set()
    if v is not None and category_of(v.best) < THREE_OF_A_KIND:
        return out  # no five cards of the seven make three of a kind or better
    packed = [PACKED[c] for c in cards]
    ranks = [rank_of(c) for c in cards]
    five = ranker.five_packed
    jp = _JOKER_PACKED
    for i, j, (a, b, c, d, e) in _SPLITS:
        s = five(packed[a], packed[b], packed[c], packed[d], packed[e])
        cat = s >> 20
        if cat < THREE_OF_A_KIND:
            continue
        if cat == THREE_OF_A_KIND:
            out.add("three_of_a_kind")
            continue
        pair = ranks[i] == ranks[j]
        if cat == ROYAL_FLUSH:
            natural = jp not in (packed[a], packed[b], packed[c], packed[d], packed[e])
            names = ("royal", "natural_royal") if natural else ("royal",)
        else:
            names = (_PROGRESSIVE_NAMES[cat],)
        for n in names:
            out.add(n)
            if pair:
                out.add(n + "_and_pair")
    return out
