"""The casino's chips and a count of them: the table inventory container's contents by
denomination, in integer cents (issue 34, docs/inventory.md).

The rule texts put every settlement through the table inventory container: losing wagers are
collected into it (000(l)(6); 001 11.9(g)), the dealer's wager against a player bank is taken
from it (000(m)(7); 001 11.10(g)) and returned to it with its winnings (000(m)(14); 001
11.10(n)). How many chips of each value it holds is the casino's
business, counted at the opener and the closer, and moved by fills and credits; this module knows
only chips, counts and their sums. Pure: no clock, no files.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from .money import dollars as fmt_cents

MOST_CHIPS = 100_000          # chips of one value in one count: a tray holds a few hundred
MOST_DENOMINATION = 10_000_000_00   # $10,000,000 in cents: no chip or plaque is worth more


class ChipError(ValueError):
    """A chip set or a count that cannot be taken, saying which value and why."""


@dataclass(frozen=True)
class ChipSet:
    """The casino's chip values, in cents, smallest first (docs/workstation-config.md, ``[chips]``)."""
    denominations: tuple[int, ...]

    def __post_init__(self) -> None:
        if not self.denominations:
            raise ChipError("a chip set has at least one value")
        for d in self.denominations:
            if isinstance(d, bool) or not isinstance(d, int) or not 0 < d <= MOST_DENOMINATION:
                raise ChipError(f"a chip's value is a whole number of cents from 1 to {MOST_DENOMINATION}, got {d!r}")
        if len(set(self.denominations)) != len(self.denominations):
            twice = sorted({d for d in self.denominations if self.denominations.count(d) > 1})
            raise ChipError(f"a chip value named twice: {', '.join(fmt_cents(d) for d in twice)}")
        if list(self.denominations) != sorted(self.denominations):
            raise ChipError("the chip values are listed smallest first, got "
                            + ", ".join(fmt_cents(d) for d in self.denominations))

    def count(self, chips: Mapping[int, int]) -> "ChipCount":
        """A count of these chips: each value one of the set's, each number of chips 0 or more."""
        for d, n in chips.items():
            if d not in self.denominations:
                raise ChipError(f"no {fmt_cents(d) if isinstance(d, int) and not isinstance(d, bool) else repr(d)} "
                                f"chip in this casino's set ({', '.join(fmt_cents(x) for x in self.denominations)})")
            if isinstance(n, bool) or not isinstance(n, int) or not 0 <= n <= MOST_CHIPS:
                raise ChipError(f"{fmt_cents(d)} chips: a whole number from 0 to {MOST_CHIPS}, got {n!r}")
        return ChipCount(self, tuple(chips.get(d, 0) for d in self.denominations))

    def parse(self, text: str) -> "ChipCount":
        """A count as a person types it: ``N x VALUE`` items separated by commas, the value in
        dollars (``20 x $25, 40 x 5``: twenty $25 chips and forty $5 chips; ``words()`` reads back
        to the same count). A value named twice is refused (which of the two was meant?)."""
        chips: dict[int, int] = {}
        if not isinstance(text, str) or not text.strip():
            raise ChipError("a count names at least one value, as '20 x $25, 40 x $5'")
        for item in _SPLIT.split(text.strip()):
            m = _ITEM.fullmatch(item.strip())
            if m is None:
                raise ChipError(f"{item.strip()!r}: expected a number of chips and their value, as '20 x $25'")
            n, dollars, cents = int(m.group(1)), int(m.group(2).replace(",", "")), m.group(3)
            value = dollars * 100 + (int(cents.ljust(2, "0")) if cents else 0)
            if value in chips:
                raise ChipError(f"{fmt_cents(value)} chips counted twice in one count")
            chips[value] = n
        return self.count(chips)


# an item: chips, x, the value in dollars (thousands may be grouped: "$1,000.00", as words() writes)
_ITEM = re.compile(r"(\d{1,6})\s*[x×*]\s*\$?(\d{1,3}(?:,\d{3})+|\d{1,9})(?:\.(\d{1,2}))?")
_SPLIT = re.compile(r"\s*,\s*(?=\d+\s*[x×*])")     # a comma that starts the next item


@dataclass(frozen=True)
class ChipCount:
    """How many chips of each of the set's values, in the set's order; its total in cents."""
    chips: ChipSet
    numbers: tuple[int, ...]

    @property
    def cents(self) -> int:
        return sum(d * n for d, n in zip(self.chips.denominations, self.numbers))

    def by_value(self) -> dict[int, int]:
        """Value (cents) -> chips, the values with none left out."""
        return {d: n for d, n in zip(self.chips.denominations, self.numbers) if n}

    def __add__(self, other: "ChipCount") -> "ChipCount":
        self._same(other)
        return ChipCount(self.chips, tuple(a + b for a, b in zip(self.numbers, other.numbers)))

    def __sub__(self, other: "ChipCount") -> "ChipCount":
        """What is left when ``other`` leaves this count; a value it does not hold enough of is
        refused, naming it (a tray never holds fewer than no chips)."""
        self._same(other)
        short = [(d, b - a) for d, a, b in zip(self.chips.denominations, self.numbers, other.numbers) if b > a]
        if short:
            raise ChipError("not enough chips: " + ", ".join(f"{n} x {fmt_cents(d)} short" for d, n in short))
        return ChipCount(self.chips, tuple(a - b for a, b in zip(self.numbers, other.numbers)))

    def differences(self, other: "ChipCount") -> dict[int, int]:
        """Value -> this count's chips less ``other``'s, the values that differ only."""
        self._same(other)
        return {d: a - b for d, a, b in zip(self.chips.denominations, self.numbers, other.numbers) if a != b}

    def words(self) -> str:
        """'20 x $25.00, 40 x $5.00' (largest first), or 'no chips'."""
        items = [(d, n) for d, n in zip(self.chips.denominations, self.numbers) if n]
        return ", ".join(f"{n} x {fmt_cents(d)}" for d, n in reversed(items)) or "no chips"

    def _same(self, other: "ChipCount") -> None:
        if other.chips != self.chips:
            raise ChipError("two counts of different chip sets cannot be added or compared")


def total(counts: Iterable[ChipCount]) -> int:
    """The cents of several counts together."""
    return sum(c.cents for c in counts)
