"""When a table's cards and dice are due to leave it: the one place the deadlines are worked out,
for the procedures (no deal on an overdue deck, no dice total from overdue dice), the
workstation's clocks and the simulators. Each deadline comes with the rule it is by; the hours
are the profile's (``RuleProfile.procedures``), the rule its own text's (``RuleProfile.cite``).
"""

from __future__ import annotations

from datetime import datetime, timedelta

from .citations import noted
from .profile import RuleProfile
from .table_state import Deck, TableState

SHOE_METHODS = ("manual-shoe", "automated-shoe", "three-four")


def deck_deadline(deck: Deck, rules: RuleProfile, method: str | None) -> tuple[datetime, str]:
    """000(e)(5): cards opened for use are changed within ``deck_hours_shoe`` when dealt from a
    shoe, ``deck_hours_hand`` from the hand; 003 NEW CARDS IN PLAY 1: ``deck_hours_shuffler``
    with the shuffler. Timed from the opening ("All cards opened for use ... shall be changed")."""
    p = rules.procedures
    if p.deck_hours_shuffler is not None:
        hours, rule = p.deck_hours_shuffler, rules.cite("deck_change_shuffler")
    elif method in SHOE_METHODS:
        hours, rule = p.deck_hours_shoe, noted(rules.cite("deck_change_shoe"), "from a shoe")
    else:
        hours, rule = p.deck_hours_hand, noted(rules.cite("deck_change_hand"), "from the hand")
    return deck.received + timedelta(hours=hours), rule


def table_deck_deadline(deck: Deck, state: TableState, rules: RuleProfile) -> tuple[datetime, str]:
    """``deck_deadline`` by the way the table deals; before its first round as though from the
    hand, the shorter of 000(e)(5)'s two."""
    return deck_deadline(deck, rules, state.dealing_method or "hand")


def dice_deadline(placed: datetime, rules: RuleProfile) -> tuple[datetime, str]:
    """000(d)(1)(ii): dice are changed within ``dice_hours`` of being placed at the table."""
    return placed + timedelta(hours=rules.procedures.dice_hours), rules.cite("dice_change")


def due(state: TableState, rules: RuleProfile, now: datetime) -> list[dict]:
    """What is due at the table at ``now``, the soonest first: each deck (000(e)(5); 003 NEW CARDS
    IN PLAY 1) and the dice (000(d)(1)(ii))."""
    out = [_item(f"deck {deck.id}", *table_deck_deadline(deck, state, rules), now) for deck in state.decks.values()]
    if state.dice_placed is not None:
        out.append(_item("dice", *dice_deadline(state.dice_placed, rules), now))
    return sorted(out, key=lambda x: x["due"])


def overdue(due: datetime, at: datetime) -> bool:
    """Past its deadline at ``at``: the one test of it, for the tiles' clocks and the procedures
    (``due``) and the shift report's LATE (app/store/shiftlog.py). Cards are changed, and dice,
    "within" their hours (000(e)(5); 003 NEW CARDS IN PLAY 1; 000(d)(1)(ii)): at the deadline itself
    they are still within them, a moment after it they are overdue. ``at`` is when they left the
    table, or, for cards and dice still at it, the moment the question is asked: never a later
    one (a report made at 12:10 of a shift that ends at 16:00 asks at 12:10)."""
    return at > due


def _item(item: str, at: datetime, rule: str, now: datetime) -> dict:
    return {"item": item, "due": at.isoformat(), "overdue": overdue(at, now),
            "minutes_left": int((at - now).total_seconds() // 60), "rule": rule}
