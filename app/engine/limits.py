"""Aggregate payout limits: per player per round, and per table (003).

- Per player: 000(s)(3), 001 11.16(d), 11.18(d): a maximum payable to one player for one
  round on the named wagers.
- Per table (003): envy bets are paid first; what is left of the $75,000 goes to the Fortune
  winners, by the profile's ``table_limit_remainder``:
  - ``proportional``: "Maximum Aggregate Payoff Calculation For Two Or More Players": shared in
    proportion to each one's payout before aggregation (its worked example);
  - ``high_money_winner``: "Irregularities": "the remaining amount would then be paid to the
    high money winner": the largest payout first, each paid in full while the rest lasts.

Proportional shares are whole cents: each share is rounded down, then the cents left over go
one each to the largest remainders (ties: the earlier in settlement order), so the shares add
up exactly to the amount shared. This reproduces 003's worked example to the cent.
"""

from __future__ import annotations

from collections.abc import Sequence

PROPORTIONAL, HIGH_MONEY_WINNER = "proportional", "high_money_winner"
TABLE_REMAINDERS = (PROPORTIONAL, HIGH_MONEY_WINNER)


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


def high_money_first(amount: int, claims: Sequence[int]) -> list[int]:
    """003 Irregularities: ``amount`` cents to the high money winner; if that pays its claim in
    full, what is left goes to the next highest, and so on (ties: the earlier in settlement
    order). A claim is never paid more than it won."""
    if amount < 0:
        raise ValueError("cannot share a negative amount")
    out = [0] * len(claims)
    left = amount
    for i in sorted(range(len(claims)), key=lambda i: (-claims[i], i)):
        out[i] = min(claims[i], left)
        left -= out[i]
    return out


def cap_table(limit: int, envy: Sequence[int], bonus: Sequence[int],
              remainder: str = PROPORTIONAL) -> tuple[list[int], list[int], bool]:
    """003: envy first, then the bonus payouts get what is left of the table limit, shared as
    ``remainder`` says (both passages of 003 pay envy first).

    Returns (envy paid, bonus paid, whether the limit applied). Envy is always paid in full;
    if envy alone reaches the limit the bonus payouts are nothing.
    """
    if remainder not in TABLE_REMAINDERS:
        raise ValueError(f"table limit remainder {remainder!r}: one of {TABLE_REMAINDERS}")
    if sum(envy) + sum(bonus) <= limit:
        return list(envy), list(bonus), False
    rest = max(0, limit - sum(envy))
    share = proportional_shares if remainder == PROPORTIONAL else high_money_first
    return list(envy), share(rest, bonus), True
