"""Money as a person reads it. Amounts are whole cents everywhere; this only writes them out."""


def dollars(cents: int) -> str:
    """``1000021`` -> ``$10,000.21``; a negative amount keeps its sign in front."""
    sign = "-" if cents < 0 else ""
    cents = abs(cents)
    return f"{sign}${cents // 100:,}.{cents % 100:02d}"
