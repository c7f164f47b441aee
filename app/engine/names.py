"""What a name or an identifier typed by a person may hold: a table's id, a player's, a bettor's.

Such a name is printed on slips and reports, shown on tiles and sealed in the log. A control
character (BEL, ESC, NUL), a bidirectional override (U+202E turns ``T1 $500`` around on screen)
or an invisible format character makes one name look like another or garble a terminal and a
page, so none is accepted; nor a name longer than ``NAME_MAX`` characters (docs/round-format.md,
docs/workstation-config.md). Issue 26.
"""

from __future__ import annotations

import unicodedata

NAME_MAX = 64   # characters: a table's id or a person's name; a slip's line and a tile hold this many

# Cc control, Cf format (U+202E, zero-width joiners), Cs surrogates, Co private use, Cn unassigned,
# Zl/Zp line and paragraph separators
_REFUSED = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}


def name_fault(text: str, limit: int = NAME_MAX) -> str | None:
    """Why ``text`` cannot be a name, or None: too long, or a character that is not printable
    (named by its code point: U+001B)."""
    if len(text) > limit:
        return f"is {len(text)} characters long; at most {limit}"
    for ch in text:
        if unicodedata.category(ch) in _REFUSED:
            return f"holds the character U+{ord(ch):04X} ({unicodedata.name(ch, 'a control character')}), " \
                   "which cannot be printed"
    return None


__all__ = ["NAME_MAX", "name_fault"]
