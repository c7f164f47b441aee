"""Pay tables as values: the data of resources/paytables/*.toml, after validation.

Amounts are integer cents; odds are "N to 1" with integer N. A progressive line may pay a
percent of the meter as it stands when paid (000(q)(7), 001 11.14(g)).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .bonus import (FORTUNE_CATEGORIES, INSURANCE_CATEGORIES, PROGRESSIVE_LINES,
                    SEVEN_CARD_CATEGORIES, THREE_CARD_CATEGORIES)
from .money import dollars

KIND_LINES: dict[str, tuple[str, ...]] = {
    "fortune": FORTUNE_CATEGORIES[:-1],
    "envy": FORTUNE_CATEGORIES[:-1],
    "insurance": INSURANCE_CATEGORIES[:-1],
    "three_card": THREE_CARD_CATEGORIES[:-1],
    "seven_card": SEVEN_CARD_CATEGORIES[:-1] + ("straight_flush",),
    "ace_high": ("player_and_dealer_ace_high", "dealer_ace_high_joker", "dealer_ace_high_natural"),
    "progressive": PROGRESSIVE_LINES,
}
KIND_UNITS = {"fortune": "odds", "envy": "cents", "insurance": "odds", "three_card": "odds",
              "seven_card": "odds", "ace_high": "odds", "progressive": "cents"}


@dataclass(frozen=True)
class Pay:
    odds: int | None = None          # N to 1
    cents: int | None = None         # a fixed sum
    meter_percent: int | None = None  # percent of the progressive meter when paid

    def amount(self, wager_cents: int, meter_cents: int = 0) -> int:
        """The win, excluding the returned wager."""
        if self.odds is not None:
            return self.odds * wager_cents
        if self.cents is not None:
            return self.cents
        # 000(q)(7): the meter as it stands when paid; a fraction of a cent is not paid.
        return meter_cents * self.meter_percent // 100

    def __str__(self) -> str:
        if self.odds is not None:
            return f"{self.odds} to 1"
        if self.cents is not None:
            return dollars(self.cents)
        return f"{self.meter_percent}% of meter"


@dataclass(frozen=True)
class PayTable:
    name: str
    kind: str
    citation: str
    pays: Mapping[str, Pay]
    extras: Mapping[str, int] = field(default_factory=dict)  # progressive: wager, meter_threshold, ...

    def line(self, category: str, also_trips: bool = False) -> str | None:
        """The line a category is paid on, or None. A straight that also holds three of a
        kind is paid as the better-paying of the two lines (000(s)(1))."""
        if self.kind == "seven_card" and category.startswith("straight_flush_") and category not in self.pays:
            category = "straight_flush"  # table A does not split straight flushes (001 11.18(c))
        candidates = [category] + (["three_of_a_kind"] if also_trips else [])
        paying = [c for c in candidates if c in self.pays]
        if not paying:
            return None
        return max(paying, key=lambda c: self.pays[c].amount(100, 0))

    def best_progressive(self, lines: Iterable[str], meter_cents: int) -> str | None:
        """000(l)(9): the hand is reset to the type yielding the highest progressive payout."""
        paying = [ln for ln in lines if ln in self.pays]
        if not paying:
            return None
        wager = self.extras.get("wager", 100)
        return max(paying, key=lambda ln: (self.pays[ln].amount(wager, meter_cents), -PROGRESSIVE_LINES.index(ln)))
