"""Which position receives which cards, for a shuffled deck and a starting position.

One function per deal method of the texts. The deck is the 53 cards in the order they come
off the top. Every method leaves four cards for the discard rack (000(h)(4), (i)(4), (j)(5)).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .cards import DECK_SIZE, cards_str
from .citations import noted
from .layout import DEALER, POSITIONS, clockwise_from, counterclockwise_from, name
from .profile import RuleProfile

DEALERS_TABLE = POSITIONS                  # the dealer and seats 1..6
PLAYER_DEALER_TABLE = (1, 2, 3, 4, 5, 6, 7)  # 002: seven seated positions, no house hand


class DealError(ValueError):
    pass


@dataclass(frozen=True)
class Deal:
    hands: dict[int, tuple[int, ...]]   # position -> its seven cards, in the order received
    order: tuple[int, ...]              # positions in the order they received cards or stacks
    remaining: tuple[int, ...]          # the four cards left over
    rule: str
    stacks: tuple[tuple[int, ...], ...] = ()  # dealt from the hand: stacks left to right

    def as_json(self) -> dict:
        return {"hands": {name(p): cards_str(self.hands[p]) for p in self.order},
                "order": [name(p) for p in self.order], "remaining": cards_str(self.remaining),
                "rule": self.rule}


def _check_deck(deck: Sequence[int]) -> None:
    if len(deck) != DECK_SIZE or sorted(deck) != list(range(DECK_SIZE)):
        raise DealError(f"a deal needs the whole deck of 53 cards, each once; got {len(deck)} cards")


def _ring(start: int, direction: str, ring: tuple[int, ...] = POSITIONS) -> list[int]:
    if start not in ring:
        raise DealError(f"no position {start} at this table")
    if direction == "clockwise":
        return clockwise_from(start, ring)
    if direction == "counterclockwise":
        return counterclockwise_from(start, ring)
    raise DealError(f"direction is clockwise or counterclockwise, got {direction!r}")


def manual_shoe(deck: Sequence[int], start: int, direction: str = "clockwise",
                ring: tuple[int, ...] = POSITIONS) -> Deal:
    """000(h)(3): one card at a time from the starting position around the table to every
    position, the dealer included, until each has seven."""
    _check_deck(deck)
    order = _ring(start, direction, ring)
    hands = {p: tuple(deck[i * 7 + k] for i in range(7)) for k, p in enumerate(order)}
    return Deal(hands, tuple(order), tuple(deck[49:]), "000(h)(3),(4)")


def hand_stacks(deck: Sequence[int]) -> list[tuple[int, ...]]:
    """000(i)(3): seven cards left to right, the next seven right to left, alternating, until
    seven stacks of seven; stack 1 is the dealer's far left (000(i)(6))."""
    stacks: list[list[int]] = [[] for _ in range(7)]
    for i in range(49):
        r, j = divmod(i, 7)
        stacks[j if r % 2 == 0 else 6 - j].append(deck[i])
    return [tuple(s) for s in stacks]


def from_hand(deck: Sequence[int], start: int, first_stack: int = 1, direction: str = "clockwise",
              ring: tuple[int, ...] = POSITIONS) -> Deal:
    """000(i)(6): stack 1 (the far left) to the starting position and the rest in order around
    the table. With a bank, the bank picks the first stack and the stacks to its right follow,
    then from the far left (000(m)(9)(i),(v), 001 11.10(i)5)."""
    _check_deck(deck)
    if not 1 <= first_stack <= 7:
        raise DealError(f"the first stack is one of stacks 1..7, got {first_stack}")
    stacks = hand_stacks(deck)
    stack_order = list(range(first_stack - 1, 7)) + list(range(0, first_stack - 1))
    order = _ring(start, direction, ring)
    hands = {p: stacks[s] for p, s in zip(order, stack_order)}
    rule = "000(i)(3),(6)" + ("; 000(m)(9)(v): the bank's first stack" if first_stack != 1 else "")
    return Deal(hands, tuple(order), tuple(deck[49:]), rule, tuple(stacks))


def automated_shoe(deck: Sequence[int], start: int, direction: str = "clockwise",
                   ring: tuple[int, ...] = POSITIONS) -> Deal:
    """000(j)(4): stacks of seven as the shoe dispenses them, the first to the starting
    position, then in turn to every other position."""
    _check_deck(deck)
    order = _ring(start, direction, ring)
    hands = {p: tuple(deck[k * 7:(k + 1) * 7]) for k, p in enumerate(order)}
    return Deal(hands, tuple(order), tuple(deck[49:]), "000(j)(4),(5)")


def three_then_four(deck: Sequence[int], wagering: Sequence[int]) -> Deal:
    """001 11.17(d)-(g): stacks of three from the shoe to each wagering seat, from the one
    farthest to the dealer's left clockwise, then the dealer; then four more each in the same
    order (from the hand, 11.17(g)1, or the shoe, (g)2: the same cards either way)."""
    _check_deck(deck)
    seats = sorted(set(wagering), reverse=True)  # clockwise from the far left: seat 6, 5, ...
    if not seats or any(s not in POSITIONS or s == DEALER for s in seats):
        raise DealError(f"the wagering seats are some of 1..6, got {list(wagering)}")
    order = seats + [DEALER]
    n = len(order)
    first = {p: deck[3 * k:3 * k + 3] for k, p in enumerate(order)}
    rest = {p: deck[3 * n + 4 * k:3 * n + 4 * k + 4] for k, p in enumerate(order)}
    hands = {p: tuple(first[p]) + tuple(rest[p]) for p in order}
    return Deal(hands, tuple(order), tuple(deck[7 * n:]), "001 11.17(d),(e),(g)")


def four_card_check(remaining: int, hand_sizes: Sequence[int], rules: RuleProfile) -> tuple[str, str]:
    """000(h)(4), (i)(4), (j)(5): exactly four cards left is a good deal; otherwise a misdeal
    (a hand of more or fewer than seven) voids the round and the cards are reshuffled, and if
    there was no misdeal the deck itself is wrong: the round is void and the deck is removed. The
    verdict and the profile's own paragraph for it (``RuleProfile.cite``)."""
    if remaining == 4 and all(n == 7 for n in hand_sizes):
        return "ok", rules.cite("four_card_ok")
    if any(n != 7 for n in hand_sizes):
        return "misdeal", noted(rules.cite("misdeal"), "all hands void, reshuffle")
    return "deck_removed", noted(rules.cite("deck_removed"), "not misdealt, the deck is removed")


def stub_count_due(rounds_since_count: int, shuffler_counts: bool) -> bool:
    """001 11.17(h),(i): count the stub at least once every five rounds (after five rounds without
    a count, before the next), unless the shuffler counts the deck after every shuffle; the
    state machine refuses the sixth round without a count."""
    return not shuffler_counts and rounds_since_count >= 5
