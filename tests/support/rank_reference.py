"""An independent, slow reference evaluator for tests: the joker is tried as every card.

Written from the rule texts without the engine's lookup tables: a hand's rank is a tuple
(category, tie-break ranks). The joker is an ace (000(c)(1)) or any card that completes a
straight, flush, straight flush or royal flush (000(c)(3)); in a flush the best substitute is
the highest card not already in the hand (003 IMPORTANT NOTES 3(a)), which the max() finds.
"""

from collections import Counter

from app.engine.cards import JOKER, rank_of, suit_of

CATS = ["high_card", "pair", "two_pair", "three_of_a_kind", "straight", "flush", "full_house",
        "four_of_a_kind", "straight_flush", "royal_flush", "five_aces"]


def _straight_key(ranks, wheel):
    s = sorted(set(ranks))
    if len(s) != 5:
        return None
    if s == [2, 3, 4, 5, 14]:
        # 000(c)(2)(vii): second highest; 000(c)(4)/002: lowest
        return 13.5 if wheel == "second" else 5
    if s[-1] - s[0] == 4:
        return s[-1]
    return None


def natural(pairs, wheel):
    """pairs: list of (rank, suit) with suit None for a joker used as an ace."""
    ranks = [r for r, _ in pairs]
    cnt = Counter(ranks)
    if cnt[14] == 5:
        return (CATS.index("five_aces"), ())
    suits = {s for _, s in pairs}
    flush = len(pairs) == 5 and len(suits) == 1 and None not in suits
    st = _straight_key(ranks, wheel) if len(pairs) == 5 else None
    if flush and st is not None:
        if st == 14:
            return (CATS.index("royal_flush"), ())
        return (CATS.index("straight_flush"), (st,))
    groups = sorted(cnt.items(), key=lambda kv: (-kv[1], -kv[0]))
    shape = [n for _, n in groups]
    order = tuple(r for r, _ in groups)
    if shape[0] == 4:
        return (CATS.index("four_of_a_kind"), order)
    if shape[:2] == [3, 2]:
        return (CATS.index("full_house"), order)
    if flush:
        return (CATS.index("flush"), tuple(sorted(ranks, reverse=True)))
    if st is not None:
        return (CATS.index("straight"), (st,))
    if shape[0] == 3:
        return (CATS.index("three_of_a_kind"), order)
    if shape[:2] == [2, 2]:
        return (CATS.index("two_pair"), order)
    if shape[0] == 2:
        return (CATS.index("pair"), order)
    return (CATS.index("high_card"), order)


def ref_five(cards, wheel="second"):
    nat = [(rank_of(c), suit_of(c)) for c in cards if c != JOKER]
    if JOKER not in cards:
        return natural(nat, wheel)
    best = natural(nat + [(14, None)], wheel)  # used alone, an ace
    wild = {CATS.index(n) for n in ("straight", "flush", "straight_flush", "royal_flush")}
    for r in range(2, 15):
        for s in range(4):
            if (r, s) in nat:
                continue
            v = natural(nat + [(r, s)], wheel)
            if v[0] in wild:
                best = max(best, v)
    return best


def ref_two(cards):
    ranks = sorted((rank_of(c) for c in cards), reverse=True)  # the joker is an ace in a low hand
    return (1, (ranks[0],)) if ranks[0] == ranks[1] else (0, tuple(ranks))
