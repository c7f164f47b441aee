"""Cards of the Pai Gow Poker deck: 52 cards and one joker (000(b)(1), 001 11.2(a), 003 #17).

A card is an int 0..52: ``suit * 13 + (rank - 2)`` for the 52 suited cards (rank 2..14,
ace = 14) and 52 for the joker. Input notation is case-insensitive: ``As Kd Th 10h 9c Jk``
(T or 10 for ten, Jk for the joker); output uses ``T`` and ``Jk``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

SUITS = "shdc"  # spades, hearts, diamonds, clubs: equal in rank (002 "All suits ... equal")
RANK_CHARS = "23456789TJQKA"
JOKER = 52
DECK_SIZE = 53
ACE = 14

Card = int


class CardError(ValueError):
    """A bad card string or card list; the message names the offending token."""

    def __init__(self, message: str, token: str | None = None):
        super().__init__(message)
        self.token = token


def rank_of(card: Card) -> int:
    """Rank 2..14 of a suited card; the joker ranks as an ace when used alone (000(c)(1))."""
    return ACE if card == JOKER else card % 13 + 2


def suit_of(card: Card) -> int:
    """Suit index 0..3; -1 for the joker, which belongs to no suit."""
    return -1 if card == JOKER else card // 13


def make_card(rank: int, suit: int) -> Card:
    return suit * 13 + rank - 2


def _token_table() -> dict[str, Card]:
    table = {"jk": JOKER, "joker": JOKER, "jo": JOKER}
    for c in range(52):
        r, su = RANK_CHARS[c % 13].lower(), SUITS[c // 13]
        table[r + su] = c
        if r == "t":
            table["10" + su] = c
    return table


_TOKENS = _token_table()


def _parse_token(token: str) -> Card:
    card = _TOKENS.get(token.lower())
    if card is not None:
        return card
    t = token.strip()
    low = t.lower()
    if low in ("jk", "joker", "jo"):
        return JOKER
    if len(t) < 2:
        raise CardError(f"unknown card {token!r}", token)
    rank_part, suit_part = low[:-1], low[-1]
    if suit_part not in SUITS:
        raise CardError(f"unknown card {token!r}: suit must be one of s h d c", token)
    if rank_part == "10":
        rank_part = "t"
    if len(rank_part) != 1 or rank_part.upper() not in RANK_CHARS:
        raise CardError(f"unknown card {token!r}: rank must be 2-9, T/10, J, Q, K or A", token)
    return make_card(RANK_CHARS.index(rank_part.upper()) + 2, SUITS.index(suit_part))


def card_str(card: Card) -> str:
    if card == JOKER:
        return "Jk"
    if not 0 <= card < 52:
        raise CardError(f"card index {card} out of range 0..52")
    return RANK_CHARS[card % 13] + SUITS[card // 13]


def parse_cards(text: str | Iterable[str], count: int | Sequence[int] | None = None) -> list[Card]:
    """Parse whitespace- or comma-separated cards; refuse unknown tokens and duplicates.

    ``count`` is the number of cards the operation needs (or a tuple of acceptable counts).
    """
    tokens = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    fast = [_TOKENS.get(t.lower()) for t in tokens]
    if None not in fast and len(set(fast)) == len(fast) and (
            count is None or len(fast) == count or (not isinstance(count, int) and len(fast) in count)):
        return fast
    # the careful path, which names the offending token
    cards: list[Card] = []
    seen: dict[Card, str] = {}
    for tok in tokens:
        c = _parse_token(tok)
        if c in seen:
            raise CardError(f"duplicate card {tok!r} (already given as {seen[c]!r})", tok)
        seen[c] = tok
        cards.append(c)
    if count is not None:
        allowed = (count,) if isinstance(count, int) else tuple(count)
        if len(cards) not in allowed:
            want = " or ".join(str(n) for n in allowed)
            raise CardError(f"expected {want} cards, got {len(cards)}: {' '.join(tokens) or '(none)'}")
    return cards


def cards_str(cards: Iterable[Card]) -> list[str]:
    return [card_str(c) for c in cards]


def full_deck() -> list[Card]:
    return list(range(DECK_SIZE))
