"""The positions around a Pai Gow Poker table and the two directions of counting.

Seven positions receive a hand each round (000(h)(3): "all other positions, including the
dealer"). Seats are the six betting positions, numbered counterclockwise from the player
farthest to the dealer's right, so that:
- counting counterclockwise with the dealer as one (000(k)(2)(ii)), seat N is count N + 1:
  a dice total of 8 is the dealer and 14 the sixth betting position, as 000(k)(2)(iii) says;
- settling "starting with the player farthest to the right of the dealer and proceeding
  counterclockwise" (000(l)(5)) is seats 1, 2, ..., 6;
- clockwise from the dealer runs seat 6 (the dealer's far left), 5, ..., 1.
In the California player-dealer game (002) the house dealer takes no hand and the seven hands
go to seven seated positions, numbered 1..7 the same way. docs/table-layout.md draws it.
"""

from __future__ import annotations

DEALER = 0          # the house dealer's position
SEATS = (1, 2, 3, 4, 5, 6)
POSITIONS = (DEALER,) + SEATS   # counterclockwise from the dealer


def name(position: int) -> str:
    return "dealer" if position == DEALER else f"seat {position}"


def counterclockwise_from(first: int, ring: tuple[int, ...] = POSITIONS) -> list[int]:
    """The ring of positions in counterclockwise order, beginning at ``first``."""
    i = ring.index(first)
    return list(ring[i:] + ring[:i])


def clockwise_from(first: int, ring: tuple[int, ...] = POSITIONS) -> list[int]:
    """The ring of positions in clockwise order, beginning at ``first``."""
    ccw = counterclockwise_from(first, ring)
    return [ccw[0]] + ccw[1:][::-1]

