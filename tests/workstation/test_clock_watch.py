"""The pump's kept clocks (ClockWatch) say what the clocks worked out afresh say, at every moment.

The deadlines are the engine's: 000(e)(5) eight hours from a shoe, four from the hand; 003 NEW CARDS
IN PLAY 1 four hours with the shuffler; 000(d)(1)(ii) 24 hours for dice. The warning thresholds are
app/workstation/clocks.py's. A kept Watch must change level and overdue at exactly the moments a
fresh computation does, whatever the order of the moments asked and of the states given."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from hypothesis import given, settings, strategies as st

from app.engine.procedure import Deck, TableState
from app.rules.resources import profile
from app.workstation.clocks import (DECK_WARNING, DICE_WARNING, ClockWatch, deck_clocks, dice_clock, worst)

T0 = datetime(2026, 11, 21, 14, 0)
PROFILES = ("casino", "section6")       # with the shuffler's four hours (003) and without
METHODS = (None, "hand", "automated-shoe", "manual-shoe")


def fresh(state: TableState, rules, now: datetime):
    decks = deck_clocks(state, rules, now)
    dice = dice_clock(state, rules, now)
    level = worst([c.level for c in decks] + ([dice.level] if dice else []))
    return (level, tuple((c.deck, c.due, c.rule) for c in decks if c.overdue),
            (dice.due, dice.rule) if dice is not None and dice.overdue else None)


def kept(w):
    return (w.level, tuple((c.deck, c.due, c.rule) for c in w.overdue_decks),
            (w.overdue_dice.due, w.overdue_dice.rule) if w.overdue_dice is not None else None)


def boundaries(state: TableState, rules) -> list[datetime]:
    """Every moment a level or overdue flips, and a microsecond either side."""
    out = []
    for c in deck_clocks(state, rules, T0):
        out += [c.due - DECK_WARNING[0], c.due - DECK_WARNING[1], c.due]
    d = dice_clock(state, rules, T0)
    if d is not None:
        out += [d.due - DICE_WARNING[0], d.due - DICE_WARNING[1], d.due]
    us = timedelta(microseconds=1)
    return [t + k * us for t in out for k in (-1, 0, 1)]


minutes = st.integers(min_value=0, max_value=30 * 60)
decks = st.dictionaries(st.sampled_from(["A", "B", "C"]), minutes, max_size=3)
states = st.builds(
    lambda ds, dice, method: TableState(
        decks={k: Deck(k, T0 + timedelta(minutes=m)) for k, m in ds.items()},
        dice_placed=None if dice is None else T0 + timedelta(minutes=dice), dealing_method=method),
    decks, st.none() | minutes, st.sampled_from(METHODS))


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PROFILES), st.lists(st.tuples(states, st.lists(minutes, max_size=8)), min_size=1, max_size=4),
       st.randoms(use_true_random=False))
def test_kept_clocks_equal_fresh_ones_at_every_moment(name, steps, rnd):
    rules = profile(name).rules
    watch = ClockWatch()
    for state, offsets in steps:
        moments = [T0 + timedelta(minutes=m) for m in offsets] + boundaries(state, rules)
        rnd.shuffle(moments)    # the clock can be asked out of order (a pump with an older now)
        for now in moments:
            assert kept(watch.watch("T1", state, rules, now)) == fresh(state, rules, now), (name, state, now)


def test_a_new_state_is_worked_out_again():
    """A deck change (a new state object) shows at once, before any threshold passes."""
    rules = profile("casino").rules
    old = TableState(decks={"A": Deck("A", T0)}, dealing_method="hand")
    watch = ClockWatch()
    late = T0 + timedelta(hours=4, minutes=1)   # 003 NEW CARDS IN PLAY 1: four hours with the shuffler
    assert watch.watch("T1", old, rules, late).level == "red"
    assert [c.deck for c in watch.watch("T1", old, rules, late).overdue_decks] == ["A"]
    new = replace(old, decks={"B": Deck("B", late)})
    w = watch.watch("T1", new, rules, late)
    assert (w.level, w.overdue_decks) == ("ok", ())
