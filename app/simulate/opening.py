"""Opening a table for the first time: what the dealer and the floor supervisor do before the
first shuffle (000(e)(1)-(4), (d)(1)). Shared by the demo floors (``pitdesk simulate floor`` and
the workstation's demo, app/simulate/demo.py)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import datetime

DEMO_DEALER = "demo-dealer"
DEMO_FLOOR = "demo-floor"
DEMO_CASHIER = "demo-cashier"
DEMO_COUNT = "demo-count-1"


def opening_events(now: Callable[[], datetime], dealer: str = DEMO_DEALER, supervisor: str = DEMO_FLOOR,
                   decks: tuple[str, ...] = ("red", "blue")) -> Iterator:
    """Each deck received, inspected by the dealer, verified by the floor supervisor, spread and
    washed, then the dice placed: two decks of different backs where a shuffler alternates them
    (000(b)(2)), one for a hand game. ``now()`` stamps each event as it is taken."""
    from app.engine.procedure import Event   # here, so the command line starts without the engine
    for deck in decks:
        for kind, actor, role in (("deck_received", dealer, "dealer"),
                                  ("deck_inspected", dealer, "dealer"),
                                  ("deck_verified", supervisor, "floor supervisor"),   # 000(e)(1)
                                  ("deck_spread", dealer, "dealer"),                   # 000(e)(2)
                                  ("deck_washed", dealer, "dealer")):                  # 000(e)(3)
            yield Event(kind, now(), actor, role, {"deck": deck})
    yield Event("dice_placed", now(), dealer, "dealer", {})   # 000(d)(1): the 24 hours start


def open_table(floor, table: str, now: Callable[[], datetime], dealer: str = DEMO_DEALER,
               supervisor: str = DEMO_FLOOR, decks: tuple[str, ...] = ("red", "blue")) -> None:
    """Record the opening events one by one through ``floor.record`` (app/store/floor.py)."""
    for event in opening_events(now, dealer, supervisor, decks):
        floor.record(table, event)
