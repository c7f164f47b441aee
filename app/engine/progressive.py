"""What a winning progressive payout wager pays and what it does to the meter.

One function, used by the settlement (app/engine/settle.py) and by the workstation's progressive
readout (a hit the controller reported), so that both say the same figure:

- the pay table's line: a fixed sum, or a percent of the meter as it stands when paid (000(q)(4),
  (7); 001 11.14(d), (g));
- a payout of $50.00 or more ($250.00 on the $5.00 wager, the table's ``meter_threshold``) or for
  a straight flush comes off the meter; a smaller one from the table inventory (000(q)(5); 001
  11.14(e));
- after the top award (100% of the meter) the casino funds the meter back to its reset amount,
  never under $10,000 (000(q)(6); 001 11.14(f)).

Pure: no clock, no I/O.
"""

from __future__ import annotations

from dataclasses import dataclass

from collections.abc import Sequence

from . import bonus
from .paytable import PayTable
from .rank import Ranker


@dataclass(frozen=True)
class ProgressivePayout:
    table: str                 # the pay table's name (progressive-1, progressive-5)
    wager: int                 # cents: the wager that table pays ($1.00 or $5.00)
    line: str
    pays: str                  # the line as the table says it: "100% of meter", "$200.00"
    amount: int                # cents paid (the wager is returned besides)
    meter_before: int          # the meter when paid
    from_meter: bool           # deducted from the meter (else paid from the table inventory)
    meter_after: int           # the meter after the deduction and any reset
    reset: int | None          # the amount the casino put back after the top award, else None
    funded: int                # cents the casino funded to reach the reset amount (0 without a reset)


def progressive_payout(table: PayTable, line: str, meter_cents: int, reset_cents: int) -> ProgressivePayout | None:
    """What ``line`` of ``table`` pays with the meter at ``meter_cents``; None if the table has no
    such line. ``reset_cents`` is the profile's reset amount (000(q)(6))."""
    pay = table.pays.get(line)
    if pay is None:
        return None
    wager = table.extras.get("wager", 100)
    amount = pay.amount(wager, meter_cents)        # 000(q)(7): the meter as it stands when paid
    # 000(q)(5), 001 11.14(e): $50.00 or more ($250.00 on $5.00), or any straight flush, off the meter
    from_meter = pay.meter_percent is not None or amount >= table.extras["meter_threshold"] \
        or line.startswith("straight_flush")
    meter, reset, funded = meter_cents, None, 0
    if from_meter:
        meter -= amount
        if pay.meter_percent == 100:
            # 000(q)(6), 001 11.14(f): after the top award the casino funds the meter to its reset amount
            reset, funded = reset_cents, reset_cents - meter
            meter = reset_cents
    return ProgressivePayout(table.name, wager, line, str(pay), amount, meter_cents, from_meter, meter, reset, funded)


def hand_line(cards: Sequence[int], ranker: Ranker, table: PayTable, meter_cents: int) -> str | None:
    """The line of ``table`` seven cards make, set to the type that pays most (000(l)(9); 000(q)(4),
    001 11.14(d)), as the settlement pays it; None: no line. What a controller's claimed hit is
    checked against."""
    cards = list(cards)
    return table.best_progressive(bonus.progressive_lines(cards, ranker, bonus.view(cards, ranker)), meter_cents)


def hand_lines(cards: Sequence[int], ranker: Ranker, table: PayTable) -> set[str]:
    """Every line of ``table`` seven cards can be set to (000(q)(4), 001 11.14(d))."""
    cards = list(cards)
    return {ln for ln in bonus.progressive_lines(cards, ranker, bonus.view(cards, ranker)) if ln in table.pays}
