"""The pit's regulars (issue 36): players who show a player's card when they sit down, so that
the workstation rates them from the rounds they play. The demo floor's regulars come and go
between its tables (one place at a time); a simulated shift's are each table's own.
"""

from __future__ import annotations

import random

REGULARS = ("Ann Lee", "Bo Chan", "Carla Diaz", "Dev Patel", "Edie Moss", "Frank Ito", "Gia Russo", "Hal Okafor",
            "Ines Berg", "Jun Park", "Kofi Mensah", "Lena Novak")
SHARE = 0.3          # of the players sitting down, about this many show a card


def card_of(k: int) -> str:
    """The player's card of regular ``k`` (the club's numbers)."""
    return f"PC-{104_217 + 37 * k}"


class Regulars:
    """The demo floor's regulars: who sits down next (one not seated anywhere, else nobody)."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def arriving(self, ws) -> tuple[str, str] | None:
        """A regular's (card, name) sitting down now, or None (a player without a card)."""
        if self.rng.random() >= SHARE:
            return None
        seated = {r.card for r in ws.ratings.open_ratings()}
        free = [k for k in range(len(REGULARS)) if card_of(k) not in seated]
        if not free:
            return None
        k = self.rng.choice(free)
        return card_of(k), REGULARS[k]
