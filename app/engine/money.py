"""Money as a person reads and types it. Amounts are whole cents everywhere; this writes them
out (``dollars``) and reads what a person typed (``parse_dollars``), never through a float."""

from __future__ import annotations

import re


class MoneyError(ValueError):
    """Text that is not an amount of dollars and cents; the message says what is wrong with it."""


# an optional sign, an optional $, whole dollars (plain, or grouped by commas in threes), and at
# most two decimals: "25", "12.50", "$1,000", ".50", "-$2.50"
_AMOUNT = re.compile(r"(?P<sign>-?)\s*\$?\s*(?P<whole>\d{1,3}(?:,\d{3})+|\d*)(?:\.(?P<cents>\d*))?")


def dollars(cents: int) -> str:
    """``1000021`` -> ``$10,000.21``; a negative amount keeps its sign in front."""
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}${cents // 100:,}.{cents % 100:02d}"


def parse_dollars(text: str) -> int:
    """What a person typed, in whole cents: ``"25"`` -> 2500, ``"12.50"`` -> 1250, ``"$1,000"``
    -> 100000, ``"0.05"`` -> 5; ``dollars()``'s own output reads back to the same cents.

    ``MoneyError`` names the fault: nothing typed, a letter, a comma out of place (commas group
    the dollars in threes), or a fraction of a cent (``"12.505"``). Digits are read as digits:
    there is no float anywhere, so no amount is ever rounded."""
    if not isinstance(text, str):
        raise MoneyError(f"an amount is text such as 25, 12.50 or $1,000; got {text!r}")
    t = text.strip()
    if not t:
        raise MoneyError("no amount: type dollars and cents such as 25, 12.50 or $1,000")
    m = _AMOUNT.fullmatch(t)
    if m is None:
        if "," in t and re.fullmatch(r"-?\s*\$?\s*[\d,]+(\.\d*)?", t):
            raise MoneyError(f"{text.strip()!r}: commas group the dollars in threes (1,000 or 12,500.50)")
        raise MoneyError(f"{text.strip()!r} is not an amount: type dollars and cents such as 25, 12.50 or $1,000")
    whole, frac = m.group("whole").replace(",", ""), m.group("cents")
    if not whole and not frac:
        raise MoneyError(f"{text.strip()!r} is not an amount: type dollars and cents such as 25, 12.50 or $1,000")
    frac = frac or ""
    if len(frac) > 2:
        raise MoneyError(f"{text.strip()!r}: an amount has at most two decimals (whole cents)")
    cents = int(whole or "0") * 100 + int(frac.ljust(2, "0"))
    return -cents if m.group("sign") else cents
