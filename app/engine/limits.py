"""Aggregate payout limits: per player per round, and per table (003).

- Per player: 000(s)(3), 001 11.16(d), 11.18(d): a maximum payable to one player for one
  round on the named wagers.
- Per table: 003 "Maximum Aggregate Payoff Calculation": envy bets are paid first, the rest
  of the $75,000 is shared among the Fortune winners in proportion to each one's payout
  before aggregation.

Shares are whole cents: each share is rounded down, then the cents left over go one each to
the largest remainders (ties: the earlier in settlement order), so the shares add up exactly
to the amount shared. This reproduces 003's worked example to the cent.
"""

from __future__ import annotations

from collections.abc import Sequence


def proportional_shares(amount: int, claims: Sequence[int]) -> list[int]:
    """Share ``amount`` cents in proportion to ``claims`` (largest-remainder rounding)."""
    total = sum(claims)
    if amount < 0:
        raise ValueError("cannot share a negative amount")
    if total == 0:
        return [0] * len(claims)
    if amount >= total:
        return list(claims)
    floors = [amount * c // total for c in claims]
    remainders = [amount * c % total for c in claims]
    left = amount - sum(floors)
    order = sorted(range(len(claims)), key=lambda i: (-remainders[i], i))
    for i in order[:left]:
        floors[i] += 1
    return floors


def cap_table(limit: int, envy: Sequence[int], bonus: Sequence[int]) -> tuple[list[int], list[int], bool]:
    """003: envy first, then the bonus payouts share what is left of the table limit.

    Returns (envy paid, bonus paid, whether the limit applied). Envy is always paid in full;
    if envy alone reaches the limit the bonus payouts are nothing.
    """
    if sum(envy) + sum(bonus) <= limit:
        return list(envy), list(bonus), False
    rest = max(0, limit - sum(envy))
    return list(envy), proportional_shares(rest, bonus), True
