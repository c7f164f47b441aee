"""A table's events as the procedure tests write them (tests/engine/test_procedure.py, and the
device mapping's tests, tests/devices/test_device_mapping.py, which prepare a table the same way):
an event a number of minutes after ``T0``, a table opened with a deck, a round played with it."""

from datetime import datetime, timedelta

from app.engine.procedure import Event

T0 = datetime(2026, 11, 21, 14, 0)


def ev(kind, minutes, role="dealer", actor="ann", **data):
    return Event(kind, T0 + timedelta(minutes=minutes), actor, role, data)


WAGERS = [1, 2, 3, 4, 5]


def opened(deck="red", start=0, players=tuple(WAGERS)):
    # 000(e)(1)-(3): received, sorted and inspected by the dealer, verified by the floor person,
    # spread for the first player, washed; then the dice (000(d)) and the players sit down
    return [ev("deck_received", start, deck=deck), ev("deck_inspected", start + 1, deck=deck),
            ev("deck_verified", start + 2, "floor supervisor", "bob", deck=deck),
            ev("deck_spread", start + 3, deck=deck), ev("deck_washed", start + 4, deck=deck)] + (
        [ev("dice_placed", start + 4)] + [ev("player_seated", start + 4, "player", f"p{k}", seat=k) for k in players]
        if players else [])


def a_round(deck, t, method="manual-shoe"):
    return [ev("shuffle_started", t), ev("shuffle_completed", t + 1, deck=deck),
            ev("no_more_bets", t + 2, method=method, wagers=WAGERS),
            ev("position_determined", t + 3, method="dice", value=14, position=6),
            ev("dealt", t + 4, remaining=4), ev("hands_set", t + 5), ev("revealed", t + 6), ev("settled", t + 7)]
