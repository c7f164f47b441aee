"""Who is offered the bank, the player-dealer position and the cut, round by round.

Seats as in layout.py: 1..6 counterclockwise from the dealer's far right, so "counterclockwise
from the farthest right" is 1, 2, ..., 6 and "the player seated to the right of" seat k is k + 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .layout import SEATS


@dataclass(frozen=True)
class BankCandidate:
    seat: int
    eligible: bool
    reason: str


def bank_offer_start(rounds_since_start: int) -> int | None:
    """000(m)(3), 001 11.10(c): the first offer starts with the player farthest to the right and
    the initial offer moves counterclockwise one seat each round until it returns to the dealer
    (None: the dealer's turn, no player bank is offered); no bank at the start of the game (m)(2)."""
    if rounds_since_start <= 0:
        return None  # 000(m)(2): not at the start of the game
    ring = list(SEATS) + [None]
    return ring[(rounds_since_start - 1) % len(ring)]


def bank_offers(rounds_since_start: int, seated: Sequence[int], last_bank: int | None,
                wagered_last_unbanked: Sequence[int], chips: dict[int, int], cover_needed: dict[int, int]
                ) -> list[BankCandidate]:
    """The order in which the dealer offers the bank this round, each with its eligibility
    (000(m)(3)-(4)): counterclockwise from the round's first offer; never the same player two
    rounds running; only a player who wagered against the dealer in the last unbanked round and
    whose chips cover every other wager."""
    start = bank_offer_start(rounds_since_start)
    if start is None:
        return []
    order = [s for s in list(range(start, 7)) + list(range(1, start)) if s in seated]
    out = []
    for s in order:
        if s == last_bank:
            out.append(BankCandidate(s, False, "banked the last round (000(m)(3))"))
        elif s not in wagered_last_unbanked:
            out.append(BankCandidate(s, False, "did not wager against the dealer in the last unbanked round "
                                               "(000(m)(4)(i))"))
        elif chips.get(s, 0) < cover_needed.get(s, 0):
            out.append(BankCandidate(s, False, f"{chips.get(s, 0)} cents cannot cover {cover_needed.get(s, 0)} "
                                               "cents of wagers (000(m)(4)(ii))"))
        else:
            out.append(BankCandidate(s, True, "000(m)(3)-(4)"))
    return out


def player_dealer_seat(hands_played: int, seated: Sequence[int], first: int) -> int:
    """002 COLLECTION PROCEDURES: the player-dealer position is offered clockwise around the
    table after every two hands (seats 1..7; clockwise is the next lower seat number)."""
    ring = sorted(seated, reverse=True)
    if first not in ring:
        raise ValueError(f"seat {first} is not seated")
    i = ring.index(first)
    ring = ring[i:] + ring[:i]
    return ring[(hands_played // 2) % len(ring)]


def cut_offers(game_beginning: bool, first_player: int | None, bank: int | None,
               rounds_without_bank: int, seated: Sequence[int]) -> list[int]:
    """000(f)(4), 001 11.6(d): the first player to the table when the game begins; else the
    bank, then counterclockwise from the bank; with no bank the player farthest to the right,
    the offer rotating counterclockwise over consecutive rounds without a bank. The dealer cuts
    when nobody accepts (000(f)(3))."""
    seats = sorted(seated)
    if not seats:
        return []
    if game_beginning and first_player in seats:
        start = first_player
    elif bank is not None and bank in seats:
        start = bank
    else:
        start = seats[(max(rounds_without_bank, 1) - 1) % len(seats)]
    i = seats.index(start)
    return seats[i:] + seats[:i]
