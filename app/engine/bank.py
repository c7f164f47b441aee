"""A player bank's arithmetic: the chips it must show, and how a co-bank's result is halved.

Two places where the texts allow two readings, each a profile setting (docs/rule-settings.md):

- ``Bank.covers_dealer_wager``: 000(m)(4)(ii) and 001 11.10(d)2 ask for chips "to cover all of
  the wagers placed by other players at the table"; the dealer's wager against the bank is
  fixed only afterwards (000(m)(7), 001 11.10(g): "Once the dealer has determined that a player
  may be the bank ..."), yet the bank pays it like the others (000(m)(12): "all winning wagers,
  including the dealer's wager"). 003 PLAYER BANK 7: "The Dealer will act as a player".
- ``Bank.co_bank_odd_cent``: 000(m)(13) takes "one-half" of a shortfall from the co-bank and
  "one-half" from the table inventory, and puts "half" of a surplus in the table inventory,
  without saying which half carries an odd cent.
"""

from __future__ import annotations

from collections.abc import Iterable

ODD_CENT_HOUSE, ODD_CENT_CO_BANK = "house", "co-bank"
ODD_CENT_PARTIES = (ODD_CENT_HOUSE, ODD_CENT_CO_BANK)


def cover_needed(player_wins: Iterable[int], dealer_win: int, covers_dealer_wager: bool, co_bank: bool) -> int:
    """Chips the bank must show: what it would pay if every covered wager won (000(m)(4)(ii));
    a co-bank half of it, rounded up (003 #16: "cover 50% of all wagers"; 000(m)(5))."""
    total = sum(player_wins) + (dealer_win if covers_dealer_wager else 0)
    return (total + 1) // 2 if co_bank else total


def co_bank_halves(amount: int, odd_cent: str) -> tuple[int, int]:
    """(the co-bank's half, the house's half) of a shortfall to pay or a surplus to share
    (000(m)(13), 003 #16a); the party named by ``odd_cent`` carries the odd cent: it pays the
    larger half of a shortfall and keeps the larger half of a surplus."""
    if odd_cent not in ODD_CENT_PARTIES:
        raise ValueError(f"co-bank odd cent {odd_cent!r}: one of {ODD_CENT_PARTIES}")
    small = amount // 2
    return (small, amount - small) if odd_cent == ODD_CENT_HOUSE else (amount - small, small)
