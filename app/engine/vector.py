"""The numpy path: bonus categories of many seven-card hands at once.

A hand is four 13-bit suit masks (bit ``rank - 2``) and a joker flag. Pairs, trips and quads
come from bitwise counting across the suits; straights, flushes and seven-card straight
flushes from lookup tables over a 13-bit mask. The rules are those of bonus.py (the scalar
path); tests/engine/test_vector.py proves the two agree.

Codes (uint8) are indexes into the *_CODES tuples below. Fortune keeps "straight holding
three of a kind" apart, so a pay table can pay it on the better-paying line (000(s)(1)).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .cards import JOKER, rank_of, suit_of

FORTUNE_CODES = ("none", "straight", "straight+three_of_a_kind", "three_of_a_kind", "flush", "full_house",
                 "four_of_a_kind", "straight_flush", "royal_flush", "five_aces", "sf7_joker",
                 "royal_plus_royal_match", "sf7_natural")
SEVEN_CARD_CODES = ("none", "straight", "straight+three_of_a_kind", "three_of_a_kind", "flush", "full_house",
                    "four_of_a_kind", "straight_flush_with_joker", "straight_flush_without_joker",
                    "royal_flush", "five_aces")
INSURANCE_CODES = ("none", "nine_high", "ten_high", "jack_high", "queen_high", "king_high", "ace_high")
ACE_HIGH_CODES = ("none", "ace_high_natural", "ace_high_joker")

ACE_BIT = 1 << 12
ROYAL = 0b1111100000000  # T J Q K A
KQ = (1 << 11) | (1 << 10)
AK = (1 << 12) | (1 << 11)


def _windows(width: int) -> list[int]:
    """Masks of ``width`` consecutive ranks, the ace also low (A-2-3-...)."""
    out = []
    for low in range(1, 15 - width + 1):  # low rank 1 = ace low
        m = 0
        for r in range(low, low + width):
            m |= ACE_BIT if r in (1, 14) else 1 << (r - 2)
        out.append(m)
    return out


def _tables():
    masks = np.arange(8192, dtype=np.int64)
    pop = np.array([bin(m).count("1") for m in range(8192)], dtype=np.uint8)
    w5, w7 = _windows(5), _windows(7)

    def holds(windows, missing):
        # a window with at most ``missing`` of its ranks absent
        out = np.zeros(8192, dtype=bool)
        for w in windows:
            out |= pop[masks & w] >= pop[w] - missing
        return out

    straight = holds(w5, 0)
    straight_j = holds(w5, 1)
    # seven of one suit, consecutive: the mask is the window (natural) or six of it (joker)
    sf7 = np.isin(masks, w7)
    sf7_j = np.zeros(8192, dtype=bool)
    for w in w7:
        sf7_j |= (pop == 6) & ((masks & ~w) == 0)
    royal = (masks & ROYAL) == ROYAL
    royal_j = pop[masks & ROYAL] >= 4
    high = np.zeros(8192, dtype=np.int8)  # highest rank present, 2..14 (0 if none)
    for m in range(1, 8192):
        high[m] = m.bit_length() + 1
    return pop, straight, straight_j, sf7, sf7_j, royal, royal_j, high


_POP, _ST, _STJ, _SF7, _SF7J, _ROYAL, _ROYALJ, _HIGH = _tables()


def hands_to_masks(hands: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n, 7) card ints -> ((4, n) uint16 suit masks, (n,) bool joker)."""
    hands = np.asarray(hands)
    joker = (hands == JOKER).any(axis=1)
    natural = hands != JOKER
    suit = np.where(natural, hands // 13, 0)
    bit = np.where(natural, np.left_shift(1, hands % 13), 0).astype(np.uint16)
    masks = np.zeros((4, len(hands)), dtype=np.uint16)
    for s in range(4):
        masks[s] = np.bitwise_or.reduce(np.where(suit == s, bit, 0), axis=1)
    return masks, joker


def cards_to_masks(cards: Sequence[int]) -> tuple[list[int], bool]:
    masks = [0, 0, 0, 0]
    for c in cards:
        if c != JOKER:
            masks[suit_of(c)] |= 1 << (rank_of(c) - 2)
    return masks, JOKER in cards


def _counts(m: np.ndarray, j: np.ndarray):
    """Ranks held at least once, twice, three and four times (bitwise across the suits), and
    the same with the joker used alone as an ace (000(c)(1)): it lifts the ace count by one."""
    m0, m1, m2, m3 = m
    ja = np.where(j, ACE_BIT, 0)
    ones = m0 | m1 | m2 | m3
    two = (m0 & m1) | (m0 & m2) | (m0 & m3) | (m1 & m2) | (m1 & m3) | (m2 & m3)
    three = (m0 & m1 & m2) | (m0 & m1 & m3) | (m0 & m2 & m3) | (m1 & m2 & m3)
    four = m0 & m1 & m2 & m3
    return ja, ones, two, four, ones | ja, two | (ja & ones), three | (ja & two), four | (ja & three)


def classify(m: np.ndarray, joker: np.ndarray) -> dict[str, np.ndarray]:
    """Codes for fortune (K-Q royal match, 000(c)(6)(ii)), fortune_ak (the A-K variant of
    001 11.3(f)2.ii), seven_card, insurance and ace_high of every hand; ``m`` is (4, n) masks."""
    m = m.astype(np.int64)
    m0, m1, m2, m3 = m
    j = joker.astype(bool)
    ja, ones, two, four, ones_j, two_j, three_j, four_j = _counts(m, j)
    five_aces = (ja & four) != 0
    quads = four_j != 0
    trips = three_j != 0
    full_house = trips & (_POP[two_j] >= 2)
    # the joker completes a straight or flush (000(c)(3))
    straight = _ST[ones] | (j & _STJ[ones])
    flush = np.zeros(len(j), dtype=bool)
    sf_nat = np.zeros(len(j), dtype=bool)
    sf_j = np.zeros(len(j), dtype=bool)
    royal = np.zeros(len(j), dtype=bool)
    sf7n = np.zeros(len(j), dtype=bool)
    sf7j = np.zeros(len(j), dtype=bool)
    rrm = np.zeros(len(j), dtype=bool)
    rrm_ak = np.zeros(len(j), dtype=bool)
    for s in range(4):
        ms = m[s]
        p = _POP[ms]
        flush |= (p >= 5) | (j & (p >= 4))
        sf_nat |= _ST[ms]
        sf_j |= j & _STJ[ms]
        royal |= _ROYAL[ms] | (j & _ROYALJ[ms])
        sf7n |= _SF7[ms] & ~j
        sf7j |= _SF7J[ms] & j
        # royal flush of suit s (the joker may fill it) and a natural match of another suit
        royal_here = ((ms == ROYAL) & ~j) | (((ms & ~ROYAL) == 0) & (p == 4) & j)
        for t in range(4):
            if t != s:
                others = [m[u] for u in range(4) if u not in (s, t)]
                alone = royal_here & (others[0] == 0) & (others[1] == 0)
                rrm |= alone & (m[t] == KQ)
                rrm_ak |= alone & (m[t] == AK)
    sf = sf_nat | sf_j
    st_trips = straight & trips

    fortune = np.zeros(len(j), dtype=np.uint8)
    seven = np.zeros(len(j), dtype=np.uint8)
    # lowest first, each later line overwrites: the order of 000(c)(2),(6)
    for code, cond in ((1, straight), (2, st_trips), (3, trips & ~straight), (4, flush), (5, full_house),
                       (6, quads), (7, sf), (8, royal), (9, five_aces)):
        fortune[cond] = code
        seven[cond] = code
    seven[sf & sf_nat & ~royal & ~five_aces] = 8
    seven[royal & ~five_aces] = 9
    seven[five_aces] = 10
    seven[sf & ~sf_nat & ~royal & ~five_aces] = 7
    fortune[sf7j] = 10
    fortune[rrm] = 11
    fortune[sf7n] = 12
    fortune_ak = np.where(rrm, 8, fortune).astype(np.uint8)  # a K-Q match is then only a royal flush
    fortune_ak[rrm_ak] = 11

    # insurance: a pai gow with the joker an ace and never wild (001 11.3(h))
    nat_flush = (_POP[m0] >= 5) | (_POP[m1] >= 5) | (_POP[m2] >= 5) | (_POP[m3] >= 5)
    pai_gow = (_POP[ones_j] == 7) & ~_ST[ones_j] & ~nat_flush
    insurance = np.where(pai_gow, _HIGH[ones_j] - 8, 0).astype(np.uint8)
    # 002 ace-high: no pair, straight or flush with the joker wild, and an ace high
    ace_hi = (two_j == 0) & ~straight & ~flush & ((ones_j & ACE_BIT) != 0)
    ace_high = np.where(ace_hi, np.where(j, 2, 1), 0).astype(np.uint8)
    return {"fortune": fortune, "fortune_ak": fortune_ak, "seven_card": seven, "insurance": insurance, "ace_high": ace_high}


# -- progressive hand types (000(q)(4), 001 11.14(d)) -------------------------------------
# Back-hand codes: what a five-card high hand can be for the progressive pay tables.
PROGRESSIVE_BACK_CODES = ("none", "three_of_a_kind", "straight", "flush", "full_house", "four_of_a_kind",
                          "straight_flush", "royal", "natural_royal", "five_aces")


def _back_code(m: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Best progressive back-hand code of the cards in (4, n) masks ``m`` and joker flags ``j``."""
    ja, ones, two, four, _, two_j, three_j, four_j = _counts(m, j)
    flush = np.zeros(len(j), dtype=bool)
    sf = np.zeros(len(j), dtype=bool)
    royal_nat = np.zeros(len(j), dtype=bool)
    royal_any = np.zeros(len(j), dtype=bool)
    for s in range(4):
        ms = m[s]
        p = _POP[ms]
        flush |= (p >= 5) | (j & (p >= 4))
        sf |= _ST[ms] | (j & _STJ[ms])
        royal_nat |= _ROYAL[ms]
        royal_any |= _ROYAL[ms] | (j & _ROYALJ[ms])
    code = np.zeros(len(j), dtype=np.uint8)
    for c, cond in ((1, three_j != 0), (2, _ST[ones] | (j & _STJ[ones])), (3, flush),
                    (4, (three_j != 0) & (_POP[two_j] >= 2)), (5, four_j != 0), (6, sf), (7, royal_any),
                    (8, royal_nat), (9, (ja & four) != 0)):
        code[cond] = c
    return code


def progressive_codes(m: np.ndarray, joker: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(best back code of the hand, best back code with a pair in front) for every hand.

    The progressive pays "X and Pair" when the high hand is X and the low hand a pair, and
    the dealer sets the hand to the best-paying type (000(l)(9)). Both pay ladders rise with X,
    so these two codes decide the best line for any pay table and meter value.
    """
    m = m.astype(np.int64)
    j = joker.astype(bool)
    best = _back_code(m, j)
    with_pair = np.zeros(len(j), dtype=np.uint8)
    _, ones, two, *_ = _counts(m, j)
    # only hands that can put a pair in front and hold a straight or better need the splits
    cand = np.nonzero((best >= 2) & ((two != 0) | (j & ((ones & ACE_BIT) != 0))))[0]
    if len(cand):
        cm, cj = m[:, cand], j[cand]
        cbest = np.zeros(len(cand), dtype=np.uint8)
        fronts = [(1 << r, s1, s2) for r in range(13) for s1 in range(4) for s2 in range(s1 + 1, 4)]
        for bit, s1, s2 in fronts:
            sel = np.nonzero((cm[s1] & cm[s2] & bit) != 0)[0]
            if len(sel):
                sub = cm[:, sel].copy()
                sub[s1] ^= bit
                sub[s2] ^= bit
                cbest[sel] = np.maximum(cbest[sel], _back_code(sub, cj[sel]))
        for s in range(4):  # the joker and an ace: a pair of aces in front (000(c)(1))
            sel = np.nonzero(cj & ((cm[s] & ACE_BIT) != 0))[0]
            if len(sel):
                sub = cm[:, sel].copy()
                sub[s] ^= ACE_BIT
                cbest[sel] = np.maximum(cbest[sel], _back_code(sub, np.zeros(len(sel), dtype=bool)))
        with_pair[cand] = cbest
    return best, with_pair


def progressive_line_sets(best: int, with_pair: int) -> set[str]:
    """The progressive lines two codes stand for (at least these; lower lines pay less)."""
    names = {1: "three_of_a_kind", 2: "straight", 3: "flush", 4: "full_house", 5: "four_of_a_kind",
             6: "straight_flush", 7: "royal", 8: "natural_royal", 9: "five_aces"}
    out = set()
    if best:
        out.add(names[best])
    if with_pair >= 2:
        out.add(names[with_pair] + "_and_pair")
    return out
