"""Who receives the first card or stack: one function per method of the rule texts.

Positions are those of layout.py (0 is the dealer, 1..6 the seats counted counterclockwise
from the dealer's right). Every function returns the position and the count it made, so the
supervisor's screen and the audit log can show the working.
"""

from __future__ import annotations

from dataclasses import dataclass

from .layout import DEALER, POSITIONS, clockwise_from, counterclockwise_from


class PositionError(ValueError):
    pass


@dataclass(frozen=True)
class StartingPosition:
    position: int                 # the position receiving the first card or stack
    counted: tuple[int, ...]      # positions in counting order, the first counted as one
    rule: str
    action_button: int | None = None  # 002: the seat holding the action button

    def as_json(self) -> dict:
        d = {"position": self.position, "counted_from": self.counted[0], "rule": self.rule}
        if self.action_button is not None:
            d["action_button"] = self.action_button
        return d


def _count(value: int, ring: list[int]) -> int:
    return ring[(value - 1) % len(ring)]


def dice(total: int, bank: int | None = None) -> StartingPosition:
    """000(k)(2): three dice, counted counterclockwise with the dealer as one; with a player
    bank the bank's position is one (000(m)(8)(iii), 003 DEALER BANK 1: 8 or 15 is the bank)."""
    if not 3 <= total <= 18:
        raise PositionError(f"three dice total 3 to 18, got {total}")
    ring = counterclockwise_from(DEALER if bank is None else bank)
    return StartingPosition(_count(total, ring), tuple(ring),
                            "000(k)(2)(ii)" + ("; 000(m)(8)(iii): the bank is one" if bank is not None else ""))


def rng(number: int, bank: int | None = None) -> StartingPosition:
    """000(k)(3): a number 1 to 7 from the random number generator, counted like the dice."""
    if not 1 <= number <= 7:
        raise PositionError(f"the random number generator shows 1 to 7, got {number}")
    ring = counterclockwise_from(DEALER if bank is None else bank)
    return StartingPosition(_count(number, ring), tuple(ring),
                            "000(k)(3)" + ("; 000(m)(8)(iii): the bank is one" if bank is not None else ""))


def button(rounds_played: int) -> StartingPosition:
    """000(k)(4), 001 11.4(a)3: the button starts in front of the dealer and moves clockwise
    after each round."""
    if rounds_played < 0:
        raise PositionError(f"rounds played cannot be negative, got {rounds_played}")
    ring = clockwise_from(DEALER)
    return StartingPosition(ring[rounds_played % len(ring)], tuple(ring), "000(k)(4)")


def two_dice(total: int) -> StartingPosition:
    """004(4): two dice; position one is the far left of the dealer, counted clockwise, the
    dealer is seven, and the count goes on past the dealer to twelve."""
    if not 2 <= total <= 12:
        raise PositionError(f"two dice total 2 to 12, got {total}")
    ring = clockwise_from(6)  # seat 6 is the dealer's far left; clockwise ends at the dealer
    assert ring[6] == DEALER
    return StartingPosition(_count(total, ring), tuple(ring), "004(4)")


SEVEN_SEATS = (1, 2, 3, 4, 5, 6, 7)


def action_button(value: int, player_dealer: int) -> StartingPosition:
    """002: the player-dealer's position is one, eight and fifteen, the other seats follow
    clockwise; on 1, 8 or 15 the player-dealer receives the first set of cards and the player
    to its left takes the action button. ``value`` is the RNG number or the three-dice total."""
    if not 1 <= value <= 18:
        raise PositionError(f"the RNG number or dice total is 1 to 18, got {value}")
    if player_dealer not in SEVEN_SEATS:
        raise PositionError(f"the player-dealer sits at one of seats 1..7, got {player_dealer}")
    ring = clockwise_from(player_dealer, SEVEN_SEATS)
    first = _count(value, ring)
    button_seat = ring[1] if first == player_dealer else first
    return StartingPosition(first, tuple(ring), "002 DEALING PROCEDURES: the player-dealer is 1, 8 and 15",
                            action_button=button_seat)


METHODS = {"dice": dice, "rng": rng, "button": button, "two-dice": two_dice, "action": action_button}
assert set(POSITIONS) == {0, 1, 2, 3, 4, 5, 6}
