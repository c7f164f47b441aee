"""Who is offered the bank, the player-dealer position and the cut, round by round.

Seats as in layout.py: 1..6 counterclockwise from the dealer's far right, so "counterclockwise
from the farthest right" is 1, 2, ..., 6 and "the player seated to the right of" seat k is k + 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .layout import SEATS
from .money import dollars
from .profile import RuleProfile


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


def bank_offer_order(first: int, seats: Sequence[int]) -> list[int]:
    """The seats in ``seats`` counterclockwise from ``first`` (000(m)(3))."""
    return [s for s in list(range(first, 8)) + list(range(1, first)) if s in seats]


def bank_offers(rounds_played: int, seated: Sequence[int], last_bank: Sequence[int],
                wagered_last_unbanked: Sequence[int], chips: dict[int, int], cover_needed: dict[int, int],
                rules: RuleProfile) -> list[BankCandidate]:
    """The order in which the dealer offers the bank this round, each with its eligibility
    (000(m)(3)-(4)): counterclockwise from the round's first offer; never the same player two
    rounds running; only a player who wagered against the dealer in the last unbanked round and
    whose chips cover every other wager. Each reason cites the profile's own text."""
    start = bank_offer_start(rounds_played)
    if start is None:
        return []
    out = []
    for s in bank_offer_order(start, seated):
        out.append(BankCandidate(s, *bank_eligibility(s, last_bank, wagered_last_unbanked,
                                                      chips.get(s), cover_needed.get(s), rules)))
    return out


def bank_eligibility(seat: int, last_bank: Sequence[int], wagered_last_unbanked: Sequence[int],
                     chips: int | None, cover: int | None, rules: RuleProfile) -> tuple[bool, str]:
    """000(m)(3)-(4), 001 11.10(c)-(d): may ``seat`` bank this round? (eligible, the reason, citing
    the profile's own text)."""
    if seat in last_bank:
        return False, f"banked the last round ({rules.cite('bank_rotation')})"
    if seat not in wagered_last_unbanked:
        return False, f"did not wager against the dealer in the last unbanked round ({rules.cite('bank_wagered')})"
    if chips is not None and cover is not None and chips < cover:
        return False, f"{dollars(chips)} cannot cover {dollars(cover)} of wagers ({rules.bank.cite_cover})"
    return True, f"{rules.cite('bank_rotation')}; {rules.cite('bank_wagered')}"


def player_dealer_seat(hands_played: int, seated: Sequence[int], first: int) -> int:
    """002 COLLECTION PROCEDURES: the player-dealer position is offered clockwise around the
    table after every two hands (seats 1..7; clockwise is the next lower seat number)."""
    ring = sorted(seated, reverse=True)
    if first not in ring:
        raise ValueError(f"seat {first} is not seated")
    i = ring.index(first)
    ring = ring[i:] + ring[:i]
    return ring[(hands_played // 2) % len(ring)]


DEALER_CUTS = 0


def cut_offers(game_beginning: bool, first_player: int | None, bank: int | None,
               rounds_without_bank: int, seated: Sequence[int]) -> list[int]:
    """Whom the dealer offers the cut, in order, ending with 0: the dealer cuts when no player
    accepts (000(f)(3), 001 11.6(c)). 000(f)(4), 001 11.6(d): (i) the first player to the table
    when the game is just beginning; (ii) the bank, and if the bank refuses each player
    counterclockwise from the bank; (iii) with no bank, the player farthest to the right, the
    offer rotating counterclockwise over consecutive rounds without a bank. Only the bank's
    refusal passes the offer on to other players."""
    seats = sorted(seated)
    if game_beginning:
        return ([first_player] if first_player in seats else []) + [DEALER_CUTS]
    if bank is not None and bank in seats:
        i = seats.index(bank)
        return seats[i:] + seats[:i] + [DEALER_CUTS]
    if not seats:
        return [DEALER_CUTS]
    return [seats[(max(rounds_without_bank, 1) - 1) % len(seats)], DEALER_CUTS]
