"""The deck and dice clocks a tile shows, and the one place their warning thresholds live.

The deadlines are the engine's (``app.engine.procedure.deck_deadline``, ``due``): 000(e)(5) eight
hours for cards dealt from a shoe, four from the hand; 003 NEW CARDS IN PLAY 1 four hours with
the shuffler; 000(d)(1)(ii) 24 hours for dice. What is decided here is only when a clock warns:

| clock | amber | red |
|---|---|---|
| deck | 30 minutes or less before its deadline | 10 minutes or less before it, and overdue |
| dice | 2 hours or less before their deadline | 30 minutes or less before it, and overdue |

The windows are wide enough for a supervisor to fetch new cards (or dice) and have them inspected
and verified (000(e)(1)) before play must stop (000(e)(5): no_more_bets on an overdue deck is
refused).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from app.engine.procedure import Deck, TableState, deck_deadline
from app.engine.profile import RuleProfile

OK, AMBER, RED = "ok", "amber", "red"
LEVELS = (OK, AMBER, RED)

# (amber within, red within) of the deadline
DECK_WARNING = (timedelta(minutes=30), timedelta(minutes=10))
DICE_WARNING = (timedelta(hours=2), timedelta(minutes=30))
DICE_RULE = "000(d)(1)(ii)"


def level(left: timedelta, warning: tuple[timedelta, timedelta]) -> str:
    """``left`` is the time to the deadline (negative when overdue)."""
    amber, red = warning
    if left <= red:
        return RED
    if left <= amber:
        return AMBER
    return OK


@dataclass(frozen=True)
class DeckClock:
    deck: str
    received: datetime       # the clock runs from the opening (000(e)(5) "cards opened for use")
    age: timedelta
    due: datetime
    left: timedelta          # negative once overdue
    overdue: bool
    level: str               # ok, amber or red
    rule: str                # the deadline's citation
    in_play: bool            # the deck dealt this round
    in_play_since: datetime | None


@dataclass(frozen=True)
class DiceClock:
    placed: datetime
    age: timedelta
    due: datetime
    left: timedelta
    overdue: bool
    level: str
    rule: str = DICE_RULE


def deck_clock(deck: Deck, state: TableState, rules: RuleProfile, now: datetime) -> DeckClock:
    # the deadline depends on how the table deals; before the first round, from the hand (the
    # shorter, 000(e)(5)), as the engine's own ``due`` assumes
    due, rule = deck_deadline(deck, rules, state.dealing_method or "hand")
    left = due - now
    return DeckClock(deck.id, deck.received, now - deck.received, due, left, now > due, level(left, DECK_WARNING),
                     rule, deck.id == state.deck_in_play, deck.in_play_since)


def dice_clock(state: TableState, rules: RuleProfile, now: datetime) -> DiceClock | None:
    if state.dice_placed is None:
        return None
    due = state.dice_placed + timedelta(hours=rules.procedures.dice_hours)
    left = due - now
    return DiceClock(state.dice_placed, now - state.dice_placed, due, left, now > due, level(left, DICE_WARNING))


def deck_clocks(state: TableState, rules: RuleProfile, now: datetime) -> tuple[DeckClock, ...]:
    """Every deck at the table, the one in play first."""
    clocks = [deck_clock(d, state, rules, now) for d in state.decks.values()]
    return tuple(sorted(clocks, key=lambda c: (not c.in_play, c.deck)))


def worst(levels) -> str:
    """The most urgent of ``levels`` (``ok`` for none)."""
    return max(levels, key=LEVELS.index, default=OK)
