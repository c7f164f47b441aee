"""Setting a seven-card hand by a house way: 003 (``casino``) and the chart of 002 (``face-up``).

The procedure of each text is code; the thresholds it uses (which pairs are split, when four
of a kind stays behind) are data in resources/houseways/*.toml, loaded outside the engine and
passed in as a ``HouseWayTable``. Every choice the texts leave open is listed in
docs/house-ways.md; the comment at each branch cites the rule it applies.

Conventions used throughout (docs/house-ways.md, "Conventions"):
- The joker counts as an ace when it is not used to complete a straight or flush
  (003 IMPORTANT NOTES 3, 002 CARD VALUES); "holding an ace" is satisfied by the joker.
- When several cards of one rank could go in front, natural cards go in front and the joker
  stays behind; ties between equal fronts go to the higher back, then to the lower card indices.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from .cards import ACE, JOKER, rank_of, suit_of
from .rank import FLUSH, ROYAL_FLUSH, STRAIGHT, STRAIGHT_FLUSH, Ranker, category_of

KING, QUEEN = 13, 12
NEVER = 99   # threshold meaning "always split"
ALWAYS = 0   # threshold meaning "never split"

_SF_CATEGORIES = frozenset((STRAIGHT, FLUSH, STRAIGHT_FLUSH, ROYAL_FLUSH))

# Per-card tables, so the hot path does no arithmetic on cards.
_RANK = tuple(rank_of(c) for c in range(53))
_ORDER = tuple((c == JOKER, c) for c in range(53))           # natural cards first, the joker last
_DISPLAY = tuple((-rank_of(c), c == JOKER, c) for c in range(53))
_SUIT = tuple(suit_of(c) for c in range(53))
# rank bits with the ace also in the low position (bit 1), for the straight pre-check
_RBITS = tuple(0 if c == JOKER else (1 << rank_of(c)) | (2 if rank_of(c) == ACE else 0) for c in range(53))


def _runs_table(need: int) -> bytes:
    """For each 15-bit rank mask: does some window of five ranks hold at least ``need``? Built
    from the windows (each subset of a window with ``need`` ranks or more, with any other ranks
    beside it), not mask by mask: every command imports this module."""
    out = bytearray(1 << 15)
    for low in range(1, 11):
        window = 0x1F << low
        others = [0]
        for b in range(15):
            if not (window >> b) & 1:
                others += [x | (1 << b) for x in others]
        held = [sub << low for sub in range(32) if sub.bit_count() >= need]
        for x in others:
            for h in held:
                out[x | h] = 1
    return bytes(out)


_RUN5, _RUN4 = _runs_table(5), _runs_table(4)


@dataclass(frozen=True)
class HouseWayTable:
    """Data of one house way (resources/houseways/NAME.toml)."""

    name: str
    procedure: str                         # "casino" (003) or "face-up" (002)
    two_pair_keep: dict[tuple[int, int], int]  # (high pair, low pair) -> min front single to keep both behind
    quads_keep: dict[int, int]             # quad rank -> min front single to keep the four behind
    citation: str = ""


@dataclass(frozen=True)
class SetHand:
    high: tuple[int, ...]
    low: tuple[int, ...]
    rule: str  # the paragraph of the house way that set it


class _Hand:
    """The seven cards grouped by rank, the joker counted as an ace."""

    def __init__(self, cards: Sequence[int]):
        self.cards = tuple(cards)
        groups: dict[int, list[int]] = {}
        # natural cards by suit first, the joker last, so natural cards are taken first
        for c in sorted(self.cards, key=_ORDER.__getitem__):
            groups.setdefault(_RANK[c], []).append(c)
        self.groups = groups
        by = sorted(groups, reverse=True)
        self.quads = [r for r in by if len(groups[r]) == 4]
        self.trips = [r for r in by if len(groups[r]) == 3]
        self.pairs = [r for r in by if len(groups[r]) == 2]
        self.singles = [r for r in by if len(groups[r]) == 1]
        self.fives = [r for r in by if len(groups[r]) == 5]

    def take(self, rank: int, n: int) -> list[int]:
        return self.groups[rank][:n]

    def rest(self, used: Sequence[int]) -> tuple[int, ...]:
        u = set(used)
        return tuple(c for c in self.cards if c not in u)

    def highest_singles(self, n: int, exclude: Sequence[int] = ()) -> list[int]:
        ranks = [r for r in self.singles if r not in exclude][:n]
        return [self.groups[r][0] for r in ranks]


class HouseWay:
    def __init__(self, table: HouseWayTable, ranker: Ranker):
        self.table = table
        self.ranker = ranker

    # -- shared helpers -------------------------------------------------------------------
    def _set(self, hand: _Hand, front: Sequence[int], rule: str) -> SetHand:
        return SetHand(_by_rank(hand.rest(front)), _by_rank(front), rule)

    def _sf_splits(self, hand: _Hand) -> list[tuple[int, int, tuple[int, int]]]:
        """All splits whose back is a straight, flush, straight flush or royal flush.

        Returned as (front score, back score, front cards), best first.
        """
        cards = hand.cards
        if not _may_hold_straight_or_flush(cards):
            return []
        out = []
        for i, j in combinations(range(7), 2):
            back = [cards[k] for k in range(7) if k != i and k != j]
            bs = self.ranker.five(back)
            if category_of(bs) in _SF_CATEGORIES:
                front = (cards[i], cards[j])
                out.append((self.ranker.two(front), bs, front))
        out.sort(key=lambda t: (-t[0], -t[1], sorted(t[2])))
        return out

    def _best_of(self, hand: _Hand, splits, rule: str) -> SetHand:
        return self._set(hand, splits[0][2], rule)

    def set(self, cards: Sequence[int]) -> SetHand:
        if len(cards) != 7 or len(set(cards)) != 7:
            raise ValueError("a house way sets seven distinct cards")
        hand = _Hand(cards)
        if self.table.procedure == "casino":
            return self._casino(hand)
        return self._face_up(hand)

    def _split_two_pair(self, hand: _Hand, lo: int, rule: str) -> SetHand:
        return self._set(hand, hand.take(lo, 2), rule)

    def _keep_two_pair(self, hand: _Hand, rule: str) -> SetHand:
        return self._set(hand, hand.highest_singles(2), rule)

    # -- 003 -----------------------------------------------------------------------------
    def _casino(self, h: _Hand) -> SetHand:
        t = self.table
        if h.fives:  # five aces
            if KING in h.pairs:
                return self._set(h, h.take(KING, 2), "003 FIVE ACES: pair of kings in front, five aces in back")
            return self._set(h, h.take(ACE, 2), "003 FIVE ACES: always split, two aces in front")
        if h.quads:
            q = h.quads[0]
            others = h.trips + h.pairs
            if others:
                # 003 FOUR-OF-A-KIND WITH A PAIR (OR THREE-OF-A-KIND)
                if q == ACE:
                    if KING in others:
                        return self._set(h, h.take(KING, 2),
                                         "003 FOUR-OF-A-KIND WITH A PAIR 1: pair of kings in front, four aces in back")
                    return self._set(h, h.take(ACE, 2),
                                     "003 FOUR-OF-A-KIND WITH A PAIR 1: four aces and a pair, split the aces")
                return self._set(h, h.take(others[0], 2),
                                 "003 FOUR-OF-A-KIND WITH A PAIR: four of a kind in the high hand")
            need = t.quads_keep[q]
            if need == ALWAYS or (need != NEVER and h.singles[0] >= need):
                return self._set(h, h.highest_singles(2), f"003 FOUR-OF-A-KIND: keep {q}s in the high hand")
            return self._set(h, h.take(q, 2), f"003 FOUR-OF-A-KIND: split {q}s")
        if len(h.trips) == 2:
            return self._set(h, h.take(h.trips[0], 2),
                             "003 (TWO) THREE-OF-A-KIND / FULL HOUSE c: pair of the highest trips in front")
        if h.trips and h.pairs:
            tr = h.trips[0]
            if len(h.pairs) == 2:
                return self._set(h, h.take(h.pairs[0], 2),
                                 "003 FULL HOUSE b: three-of-a-kind and two pair, highest pair in front")
            p = h.pairs[0]
            if p == 2 and sorted(h.singles) == [KING, ACE]:
                return self._set(h, h.highest_singles(2),
                                 "003 FULL HOUSE a Exception: pair of 2s, ace and king: A-K in front")
            return self._set(h, h.take(p, 2), "003 FULL HOUSE a: split, pair in front")
        if h.trips:
            tr = h.trips[0]
            sf = self._sf_splits(h)
            if sf:
                with_pair = [s for s in sf if rank_of(s[2][0]) == tr == rank_of(s[2][1])]
                if with_pair:
                    with_pair.sort(key=lambda s: (-s[1], sorted(s[2])))
                    return self._set(h, with_pair[0][2], "003 STRAIGHTS... 5: with three-of-a-kind, pair in front")
            if tr == ACE:
                return self._set(h, h.take(ACE, 1) + h.highest_singles(1),
                                 "003 THREE-OF-A-KIND: aces, one ace in the low hand")
            return self._set(h, h.highest_singles(2), "003 THREE-OF-A-KIND: always keep")
        if len(h.pairs) == 3:
            return self._set(h, h.take(h.pairs[0], 2), "003 THREE PAIRS: highest pair in the low hand")
        if len(h.pairs) == 2:
            hi, lo = h.pairs
            need = NEVER if hi == ACE else t.two_pair_keep[(hi, lo)]
            has_ace = bool(h.singles) and h.singles[0] == ACE
            if need == ALWAYS:
                sf = self._sf_splits(h)
                if sf and not has_ace:
                    return self._best_of(h, sf, "003 STRAIGHTS... 3: two low pair, play the straight or flush")
                return self._keep_two_pair(h, "003 TWO PAIRS: never split two low pairs")
            if need != NEVER and h.singles[0] >= need:
                return self._keep_two_pair(h, "003 TWO PAIRS: holding an ace, two pair in the high hand")
            return self._split_two_pair(h, lo, "003 TWO PAIRS: split, lowest pair in front")
        sf = self._sf_splits(h)
        if len(h.pairs) == 1:
            p = h.pairs[0]
            if sf:
                ace_single = bool(h.singles) and h.singles[0] == ACE
                if 10 <= p <= KING and ace_single:
                    with_ace = [s for s in sf if ACE in (rank_of(s[2][0]), rank_of(s[2][1]))]
                    if with_ace:
                        return self._best_of(h, with_ace,
                                             "003 STRAIGHTS... 2b: straight or flush kept with an ace in front")
                    return self._set(h, h.take(ACE, 1) + h.highest_singles(1, exclude=(ACE,)),
                                     "003 STRAIGHTS... 2b: ace or joker in front, pair in the high hand")
                with_pair = [s for s in sf if rank_of(s[2][0]) == p == rank_of(s[2][1])]
                if with_pair:
                    return self._best_of(h, with_pair, "003 STRAIGHTS... 2a: pair in front, straight or flush behind")
                return self._best_of(h, sf, "003 STRAIGHTS... 2 (docs/house-ways.md): best front, straight or flush behind")
            return self._set(h, h.highest_singles(2), "003 ONE PAIR: pair in the high hand, highest cards in front")
        if sf:
            return self._best_of(h, sf, "003 STRAIGHTS... 1a: the category that leaves the highest low hand")
        return self._set(h, h.highest_singles(3)[1:3], "003 NO PAIR: second and third highest in the low hand")

    # -- 002 -----------------------------------------------------------------------------
    def _face_up(self, h: _Hand) -> SetHand:
        t = self.table
        if h.fives:
            return self._set(h, h.take(ACE, 2), "002 Five Aces: a pair of aces in front")
        if h.quads:
            q = h.quads[0]
            others = h.trips + h.pairs
            if others:
                return self._set(h, h.take(others[0], 2), "002 Four of a Kind with a Pair: pair in front")
            need = t.quads_keep[q]
            if need == ALWAYS or (need != NEVER and h.singles[0] >= need):
                return self._set(h, h.highest_singles(2), f"002 Four of a Kind: {q}s behind")
            return self._set(h, h.take(q, 2), f"002 Four of a Kind: split {q}s to pair-pair")
        if len(h.trips) == 2:
            return self._set(h, h.take(h.trips[0], 2), "002 Two Three of a Kinds: highest pair possible in front")
        if h.trips and h.pairs:
            return self._set(h, h.take(h.pairs[0], 2),
                             "002 Full House: highest pair in front, three of a kind behind")
        if len(h.pairs) == 3:
            return self._set(h, h.take(h.pairs[0], 2), "002 Three Pair: highest pair in front")
        sf = self._sf_splits(h)
        if h.trips:
            tr = h.trips[0]
            if sf:
                ok = [s for s in sf if _is_pair(s[2]) or ACE in (rank_of(s[2][0]), rank_of(s[2][1]))]
                if ok:
                    return self._best_of(h, ok, "002 Straight... with Three of a Kind: pair or ace in front")
            if tr == ACE:
                return self._set(h, h.take(ACE, 1) + h.highest_singles(1),
                                 "002 Three of a Kind: Aces, an ace and the highest single in front")
            return self._set(h, h.highest_singles(2), "002 Three of a Kind: two highest singles in front")
        if len(h.pairs) == 2:
            hi, lo = h.pairs
            if sf:
                with_pair = [s for s in sf if _is_pair(s[2])]
                if with_pair:
                    return self._best_of(h, with_pair, "002 Straight... with two Pair: a pair in front")
            need = t.two_pair_keep[(hi, lo)]
            if need == ALWAYS or (need != NEVER and h.singles[0] >= need):
                return self._keep_two_pair(h, f"002 Two Pair: high pair {hi}s, both pairs behind")
            return self._split_two_pair(h, lo, f"002 Two Pair: high pair {hi}s, small pair in front")
        if len(h.pairs) == 1:
            if sf:
                return self._best_of(h, sf, "002 Straight... with one Pair: highest two cards in front")
            return self._set(h, h.highest_singles(2), "002 One Pair: pair in back, highest two cards in front")
        if sf:
            return self._best_of(h, sf, "002 Straight... with no Pair: highest two cards in front")
        return self._set(h, h.highest_singles(3)[1:3], "002 High Card: 2nd and 3rd highest cards in front")


def _by_rank(cards: Sequence[int]) -> tuple[int, ...]:
    """Cards highest rank first (the joker with the aces, after them), for display."""
    return tuple(sorted(cards, key=_DISPLAY.__getitem__))


def _is_pair(front: tuple[int, int]) -> bool:
    return rank_of(front[0]) == rank_of(front[1])


def _may_hold_straight_or_flush(cards: Sequence[int]) -> bool:
    """Cheap test that the seven cards could contain a straight or a flush (joker wild)."""
    joker = JOKER in cards
    suits = [0, 0, 0, 0]
    bits = 0
    for c in cards:
        if c != JOKER:
            suits[_SUIT[c]] += 1
            bits |= _RBITS[c]
    if max(suits) + joker >= 5:
        return True
    return bool((_RUN4 if joker else _RUN5)[bits])
