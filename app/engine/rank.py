"""Rank five-card high hands and two-card low hands (000(c), 001 11.3, 002, 003 #17, 004(1)).

Every hand gets an integer score: a higher score is a higher hand, equal scores are a copy
hand (000(c)(5), 001 11.3(e)). The score is ``category << 20`` followed by up to five 4-bit
rank digits, most significant first and left-aligned, so a 5-card and a 2-card hand compare
by the same rule (the hand holding the highest card not in the other is higher); that is
what the legality test of 001 11.9(a) / 000(l)(1) needs.

Joker (000(c)(1),(3); 001 11.3(a),(c); 003 #17 and IMPORTANT NOTES 3): it completes a
straight, flush, straight flush or royal flush; in a flush it is the highest card not
already in the hand (003 note 3(a)); otherwise it is an ace. Four aces and the joker are
five aces, above a royal flush (000(c)(2)(i)). In a two-card hand the joker is an ace.

Wheel: A-2-3-4-5 is the second-highest straight and straight flush (000(c)(2)(iii),(vii);
001 11.3(b)3,7; 003 ORDER OF HANDS; 004(1)) or, by rule-profile setting, the lowest
(000(c)(4), 001 11.3(d), 002 "CARD VALUES & HAND RANKINGS").

Speed: cards are packed like treys' (prime | suit bits | rank bits) and looked up in two
dicts built once per wheel setting: one keyed by the OR of rank bits for flushes, one by
the product of primes for everything else. The application reads them precomputed
(app/rules/rank_tables.py, resources/rank-tables.npy) and gives them to ``Ranker``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement

from .cards import ACE, JOKER, CardError, rank_of, suit_of

HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE, FOUR_OF_A_KIND, \
    STRAIGHT_FLUSH, ROYAL_FLUSH, FIVE_ACES = range(11)

CATEGORY_NAMES = (
    "high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
    "four_of_a_kind", "straight_flush", "royal_flush", "five_aces",
)

WHEEL_SECOND = "second"  # 001 11.3(b), 003, 004: A-2-3-4-5 just below A-K-Q-J-10
WHEEL_LOWEST = "lowest"  # 002; option of 000(c)(4) / 001 11.3(d)
WHEEL_SETTINGS = (WHEEL_SECOND, WHEEL_LOWEST)

_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)  # ranks 2..A
_JOKER_PRIME = 43
_JOKER_RANKBIT = 1 << 13
_SUIT_MASK = 0xF00


def _pack(card: int) -> int:
    if card == JOKER:
        return _JOKER_PRIME | (0xF << 8) | (_JOKER_RANKBIT << 12)
    r = rank_of(card)
    return _PRIMES[r - 2] | ((1 << suit_of(card)) << 8) | ((1 << (r - 2)) << 12)


PACKED = tuple(_pack(c) for c in range(53))


def score(category: int, digits: Sequence[int]) -> int:
    s = category
    for i in range(5):
        s = (s << 4) | (digits[i] if i < len(digits) else 0)
    return s


def category_of(s: int) -> int:
    return s >> 20


def digits_of(s: int) -> list[int]:
    out = [(s >> (16 - 4 * i)) & 0xF for i in range(5)]
    while out and out[-1] == 0:
        out.pop()
    return out


def _straight_order(high: int, wheel: str) -> int:
    """Digit that orders straights: A-K-Q-J-T highest; the wheel (high card 5) by setting."""
    if high == ACE:
        return 15 if wheel == WHEEL_SECOND else 14
    if high == 5:
        return 14 if wheel == WHEEL_SECOND else 5
    return high


def _straight_high(ranks: frozenset[int]) -> int | None:
    """High card of the straight formed by five distinct ranks, 5 for A-2-3-4-5."""
    if len(ranks) != 5:
        return None
    if ranks == {14, 2, 3, 4, 5}:
        return 5
    hi = max(ranks)
    return hi if hi - min(ranks) == 4 else None


def straight_digit_to_high(digit: int, wheel: str) -> int:
    """Inverse of _straight_order: the straight's high card (5 for the wheel)."""
    for high in range(5, 15):
        if _straight_order(high, wheel) == digit:
            return high
    raise ValueError(digit)


def _natural_score(ranks: Sequence[int], wheel: str) -> int:
    """Score of five natural ranks, not suited (joker already replaced)."""
    cnt = Counter(ranks)
    if cnt.get(ACE, 0) == 5:
        return score(FIVE_ACES, [ACE])
    groups = sorted(cnt.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    shape = tuple(n for _, n in groups)
    order = [r for r, _ in groups]
    if shape == (1, 1, 1, 1, 1):
        high = _straight_high(frozenset(ranks))
        if high is not None:
            return score(STRAIGHT, [_straight_order(high, wheel)])
        return score(HIGH_CARD, order)
    cat = {(4, 1): FOUR_OF_A_KIND, (3, 2): FULL_HOUSE, (3, 1, 1): THREE_OF_A_KIND,
           (2, 2, 1): TWO_PAIR, (2, 1, 1, 1): PAIR}[shape]
    return score(cat, order)


def _flush_score(ranks: frozenset[int], wheel: str) -> int:
    high = _straight_high(ranks)
    if high == ACE:
        return score(ROYAL_FLUSH, [ACE])
    if high is not None:
        return score(STRAIGHT_FLUSH, [_straight_order(high, wheel)])
    return score(FLUSH, sorted(ranks, reverse=True))


@dataclass(frozen=True)
class Tables:
    wheel: str
    flush: dict[int, int]      # OR of rank bits (bit 13 = joker) -> score
    unsuited: dict[int, int]   # product of primes -> score
    low: dict[int, int]        # two-card product of primes -> score


def _build(wheel: str) -> Tables:
    flush: dict[int, int] = {}
    unsuited: dict[int, int] = {}
    all_ranks = range(2, 15)
    # Flushes: five distinct ranks of one suit, or four and the joker.
    for combo in combinations(all_ranks, 5):
        key = sum(1 << (r - 2) for r in combo)
        flush[key] = _flush_score(frozenset(combo), wheel)
    for combo in combinations(all_ranks, 4):
        key = sum(1 << (r - 2) for r in combo) | _JOKER_RANKBIT
        present = set(combo)
        # The joker fills a straight flush if it can (000(c)(3)); otherwise it is the
        # highest card not already in the hand (003 IMPORTANT NOTES 3(a)).
        best = max(_flush_score(frozenset(present | {r}), wheel) for r in all_ranks if r not in present)
        flush[key] = best
    # Everything else: multisets of ranks, at most four of a rank, at most one joker.
    for n_natural, has_joker in ((5, False), (4, True)):
        for combo in combinations_with_replacement(all_ranks, n_natural):
            if max(Counter(combo).values()) > 4:
                continue
            key = 1
            for r in combo:
                key *= _PRIMES[r - 2]
            if not has_joker:
                unsuited[key] = _natural_score(combo, wheel)
                continue
            key *= _JOKER_PRIME
            best = _natural_score(combo + (ACE,), wheel)  # used alone the joker is an ace
            if len(set(combo)) == 4:  # or it completes a straight
                for r in all_ranks:
                    if r not in combo and _straight_high(frozenset(combo + (r,))) is not None:
                        best = max(best, _natural_score(combo + (r,), wheel))
            unsuited[key] = best
    low: dict[int, int] = {}
    for a, b in combinations_with_replacement(list(all_ranks) + [15], 2):
        ra, rb = min(a, 14), min(b, 14)  # 15 stands for the joker: an ace in a low hand
        if a == 15 and b == 15:
            continue
        pa = _JOKER_PRIME if a == 15 else _PRIMES[a - 2]
        pb = _JOKER_PRIME if b == 15 else _PRIMES[b - 2]
        low[pa * pb] = score(PAIR, [ra]) if ra == rb else score(HIGH_CARD, [max(ra, rb), min(ra, rb)])
    return Tables(wheel, flush, unsuited, low)


def tables(wheel: str = WHEEL_SECOND) -> Tables:
    """The tables of ``wheel``, built the first time in this process (about a quarter of a second;
    app/rules/rank_tables.py keeps them precomputed, and a ``Ranker`` may be given them)."""
    if wheel not in WHEEL_SETTINGS:
        raise ValueError(f"unknown wheel setting {wheel!r}; expected one of {WHEEL_SETTINGS}")
    return _built(wheel)


@cache
def _built(wheel: str) -> Tables:
    # one build per wheel setting and process, however ``tables`` was called
    return _build(wheel)


class Ranker:
    """Scores hands under one wheel setting. Build once, call many times. ``given``: the wheel's
    tables as values (app/rules/rank_tables.py reads them precomputed); else they are built."""

    def __init__(self, wheel: str = WHEEL_SECOND, given: Tables | None = None):
        if given is not None and given.wheel != wheel:
            raise ValueError(f"tables for the wheel {given.wheel!r} given to rank with the wheel {wheel!r}")
        t = given if given is not None else tables(wheel)
        self.wheel = wheel
        self._flush = t.flush
        self._unsuited = t.unsuited
        self._low = t.low

    def five_packed(self, a: int, b: int, c: int, d: int, e: int) -> int:
        """Score five packed cards (see PACKED): the hot path."""
        if a & b & c & d & e & _SUIT_MASK:
            return self._flush[(a | b | c | d | e) >> 12]
        return self._unsuited[(a & 0xFF) * (b & 0xFF) * (c & 0xFF) * (d & 0xFF) * (e & 0xFF)]

    def five(self, cards: Sequence[int]) -> int:
        if len(cards) != 5:
            raise CardError(f"a high hand has five cards, got {len(cards)}")
        p = PACKED
        return self.five_packed(p[cards[0]], p[cards[1]], p[cards[2]], p[cards[3]], p[cards[4]])

    def two(self, cards: Sequence[int]) -> int:
        if len(cards) != 2:
            raise CardError(f"a low hand has two cards, got {len(cards)}")
        return self._low[(PACKED[cards[0]] & 0xFF) * (PACKED[cards[1]] & 0xFF)]

    def hand(self, cards: Sequence[int]) -> int:
        """Score a high (5-card) or low (2-card) hand."""
        if len(cards) == 5:
            return self.five(cards)
        if len(cards) == 2:
            return self.two(cards)
        raise CardError(f"a hand has five (high) or two (low) cards, got {len(cards)}")


def compare(a: int, b: int) -> str:
    """000(c)(5): 'higher', 'lower' or 'copy' (a relative to b)."""
    return "higher" if a > b else "lower" if a < b else "copy"


def legal_set(ranker: Ranker, high: Sequence[int], low: Sequence[int]) -> tuple[bool, str]:
    """001 11.9(a), 000(l)(1): five and two cards, the high hand at least equal to the low hand."""
    if len(high) != 5:
        return False, f"the high hand must have five cards, not {len(high)}"
    if len(low) != 2:
        return False, f"the low hand must have two cards, not {len(low)}"
    hs, ls = ranker.five(high), ranker.two(low)
    if hs < ls:
        return False, (f"the low hand ({CATEGORY_NAMES[category_of(ls)]}) outranks the high hand "
                       f"({CATEGORY_NAMES[category_of(hs)]}): a foul, 000(l)(6)(iii)")
    return True, "high hand at least equal to the low hand, 001 11.9(a)"


def describe(s: int, wheel: str) -> dict:
    """JSON-ready {"category", "value"}; value lists ranks by significance (straights: high card)."""
    cat = category_of(s)
    digits = digits_of(s)
    if cat in (STRAIGHT, STRAIGHT_FLUSH):
        digits = [straight_digit_to_high(digits[0], wheel)]
    return {"category": CATEGORY_NAMES[cat], "value": digits}
