"""The workstation without a window, as its tests drive it (tests/workstation): the demo people
(app/simulate/demo.py) with their PINs, a clock the test moves, a table opened by hand, and the
rounds floor (a table per profile, named after it, and T1 with a card-reading shuffler)."""

from datetime import datetime, timedelta

from app.simulate.demo import add_demo_users
from app.workstation import config
from app.workstation.workstation import Workstation

T0 = datetime(2026, 11, 21, 14, 0)
# the demo people (app/simulate/demo.py)
ADMIN, FLOOR = ("demo-admin", "1111"), ("demo-floor", "2222")
PIT, DEALER = ("demo-pit", "3333"), ("demo-dealer", "4444")


class Clock:
    def __init__(self):
        self.t = T0

    def __call__(self):
        return self.t

    def advance(self, **kw):
        self.t += timedelta(**kw)
        return self.t


def open_by_hand(ws, table="T1", decks=("red", "blue")):
    """000(e)(1)-(4): the dealer receives, inspects, spreads and washes; the floor supervisor
    verifies; then the dice (000(d)) — every step through record() as the person signed in."""
    for deck in decks:
        ws.people.sign_in(*DEALER)
        ws.decisions.record(table, "deck_received", {"deck": deck})
        ws.decisions.record(table, "deck_inspected", {"deck": deck})
        ws.people.sign_in(*FLOOR)
        ws.decisions.record(table, "deck_verified", {"deck": deck})
        ws.people.sign_in(*DEALER)
        ws.decisions.record(table, "deck_spread", {"deck": deck})
        ws.decisions.record(table, "deck_washed", {"deck": deck})
    ws.decisions.record(table, "dice_placed")


# -- the rounds floor (tests/workstation/test_workstation_rounds.py) ------------------------------
PROFILES = ("section6", "nj", "face-up-ca", "casino", "sd", "section6-even")

# a table per profile, named after it; T1 is a section6 table with a card-reading shuffler
ROUNDS_FLOOR_TOML = "\n".join(f'[[tables]]\nid = "{p}"\nprofile = "{p}"\n' for p in PROFILES) + """
[[tables]]
id = "T1"
profile = "section6"

[[tables.devices]]
class = "shuffler"
serial = "SHF-T1"
url = "socket://127.0.0.1:9"
"""


def open_ws(tmp_path, monkeypatch, clock, text=ROUNDS_FLOOR_TOML, db="pit.db"):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    w = Workstation(config.parse(text, "floor.toml"), tmp_path / db, clock=clock)
    add_demo_users(w)
    return w
