"""The deck and dice clocks a tile shows, and the one place their warning thresholds live.

The deadlines and their rules are the engine's (app/engine/deadlines.py: 000(e)(5), 003 NEW
CARDS IN PLAY 1 for the cards, 000(d)(1)(ii) for the dice). What is decided here is only when a
clock warns:

| clock | amber | red |
|---|---|---|
| deck | 30 minutes or less before its deadline | 10 minutes or less before it, and overdue |
| dice | 2 hours or less before their deadline | 30 minutes or less before it, and overdue |

The windows are wide enough for a supervisor to fetch new cards (or dice) and have them inspected
and verified (000(e)(1)) before play must stop (000(e)(5): no_more_bets on an overdue deck is
refused).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from app.engine.deadlines import dice_deadline, overdue, table_deck_deadline
from app.engine.profile import RuleProfile
from app.engine.table_state import Deck, TableState

OK, AMBER, RED = "ok", "amber", "red"
LEVELS = (OK, AMBER, RED)

# (amber within, red within) of the deadline
DECK_WARNING = (timedelta(minutes=30), timedelta(minutes=10))
DICE_WARNING = (timedelta(hours=2), timedelta(minutes=30))


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

    def at(self, now: datetime) -> "DeckClock":
        """The same clock read at ``now`` (its deadline does not move)."""
        left = self.due - now
        return replace(self, age=now - self.received, left=left, overdue=overdue(self.due, now), level=level(left, DECK_WARNING))


@dataclass(frozen=True)
class DiceClock:
    placed: datetime
    age: timedelta
    due: datetime
    left: timedelta
    overdue: bool
    level: str
    rule: str                # the deadline's citation

    def at(self, now: datetime) -> "DiceClock":
        """The same clock read at ``now`` (its deadline does not move)."""
        left = self.due - now
        return replace(self, age=now - self.placed, left=left, overdue=overdue(self.due, now), level=level(left, DICE_WARNING))


def deck_clock(deck: Deck, state: TableState, rules: RuleProfile, now: datetime) -> DeckClock:
    due, rule = table_deck_deadline(deck, state, rules)
    left = due - now
    return DeckClock(deck.id, deck.received, now - deck.received, due, left, overdue(due, now), level(left, DECK_WARNING),
                     rule, deck.id == state.deck_in_play, deck.in_play_since)


def dice_clock(state: TableState, rules: RuleProfile, now: datetime) -> DiceClock | None:
    if state.dice_placed is None:
        return None
    due, rule = dice_deadline(state.dice_placed, rules)
    left = due - now
    return DiceClock(state.dice_placed, now - state.dice_placed, due, left, overdue(due, now), level(left, DICE_WARNING), rule)


def deck_clocks(state: TableState, rules: RuleProfile, now: datetime) -> tuple[DeckClock, ...]:
    """Every deck at the table, the one in play first."""
    clocks = [deck_clock(d, state, rules, now) for d in state.decks.values()]
    return tuple(sorted(clocks, key=lambda c: (not c.in_play, c.deck)))


def worst(levels) -> str:
    """The most urgent of ``levels`` (``ok`` for none)."""
    return max(levels, key=LEVELS.index, default=OK)


# -- between pumps: what the workstation needs of the clocks, worked out when it can change ------
@dataclass(frozen=True)
class Watch:
    """A table's clocks as the workstation's pump needs them: the most urgent level and the
    clocks past their deadline. The overdue clocks' ``age`` and ``left`` are as they stood at
    ``since``; their deck, due time and rule do not move."""
    level: str
    overdue_decks: tuple[DeckClock, ...]
    overdue_dice: DiceClock | None
    since: datetime
    until: datetime | None    # the next moment a level can change; None: only with the state
    decks: tuple[DeckClock, ...] = ()    # every deck's clock as at ``since``, the one in play first
    dice: DiceClock | None = None

    def clocks_at(self, now: datetime) -> tuple[tuple[DeckClock, ...], DiceClock | None]:
        """Every deck's clock and the dice's, read at ``now``: what a tile shows."""
        return tuple(c.at(now) for c in self.decks), self.dice.at(now) if self.dice is not None else None


def _changes_after(due: datetime, warning: tuple[timedelta, timedelta], now: datetime) -> datetime | None:
    """The first moment after ``now`` at which ``level`` or ``overdue`` of a clock due at
    ``due`` changes (amber, red, then overdue one microsecond after the deadline)."""
    amber, red = warning
    later = [t for t in (due - amber, due - red, due + timedelta(microseconds=1)) if t > now]
    return min(later, default=None)


class ClockWatch:
    """Each table's ``Watch``, worked out again only when the table's engine state is a new one
    or a warning threshold or deadline has passed: a pump of a forty-table floor asks for every
    table's clocks, and most have not moved since the last pump a few milliseconds ago."""

    def __init__(self) -> None:
        self._kept: dict[str, tuple[TableState, RuleProfile, Watch]] = {}

    def watch(self, table: str, state: TableState, rules: RuleProfile, now: datetime) -> Watch:
        kept = self._kept.get(table)
        if kept is not None:
            k_state, k_rules, w = kept
            if k_state is state and k_rules is rules and now >= w.since and (w.until is None or now < w.until):
                return w
        decks = deck_clocks(state, rules, now)
        dice = dice_clock(state, rules, now)
        changes = [_changes_after(c.due, DECK_WARNING, now) for c in decks]
        if dice is not None:
            changes.append(_changes_after(dice.due, DICE_WARNING, now))
        w = Watch(worst([c.level for c in decks] + ([dice.level] if dice else [])),
                  tuple(c for c in decks if c.overdue), dice if dice is not None and dice.overdue else None,
                  now, min((t for t in changes if t is not None), default=None), decks, dice)
        self._kept[table] = (state, rules, w)
        return w

    def all(self, tables: dict[str, tuple[TableState, RuleProfile]], now: datetime) -> dict[str, Watch]:
        return {t: self.watch(t, state, rules, now) for t, (state, rules) in tables.items()}
