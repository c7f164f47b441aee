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
CASHIER, SECURITY = ("demo-cashier", "5555"), ("demo-security", "6666")
COUNT_1, COUNT_2 = ("demo-count-1", "7777"), ("demo-count-2", "8888")


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


# -- a log edited while the workstation was closed (issue 26, app/store/checkpoint.py) ------------
def settled_log(tmp_path, monkeypatch, clock) -> int:
    """The rounds floor's log ``tmp_path/pit.db`` with one settled round; the settlement's row."""
    import json
    from pathlib import Path
    example = sorted((Path(__file__).resolve().parents[2] / "docs" / "rounds").glob("*.json"))[0]
    ws = open_ws(tmp_path, monkeypatch, clock)
    try:
        obj = json.loads(example.read_text())
        ws.people.sign_in(*DEALER)
        ws.rounds.load(obj["profile"], obj)
        return ws.rounds.settle(obj["profile"]).result.settlement
    finally:
        ws.close()


def edit_settlement(db, seq: int) -> None:
    """A settlement's amount edited inside ``events.body``, with the triggers dropped and put back."""
    import json
    from tests.support.store import attacker
    with attacker(db) as conn:
        b = json.loads(conn.execute("SELECT body FROM events WHERE seq = ?", (seq,)).fetchone()[0])
        assert b["type"] == "settlement"
        b["data"]["house_net_cents"] = b["data"].get("house_net_cents", 0) + 1_000_000
        conn.execute("UPDATE events SET body = ? WHERE seq = ?", (json.dumps(b, sort_keys=True, separators=(",", ":")),
                                                                   seq))


def reopen(tmp_path, clock) -> Workstation:
    """The rounds floor's workstation on ``tmp_path/pit.db`` again, adding nobody."""
    return Workstation(config.parse(ROUNDS_FLOOR_TOML, "floor.toml"), tmp_path / "pit.db", clock=clock)


# -- a round sent back by a denial and settled again (issue 16; the hold, the trays, the casino's sums) --
def sent_back_and_settled_again(ws, reason: str = "the meter reads less"):
    """docs/rounds/section6-house.json settled at table section6, its approval request denied
    (the settlement sent back), and the round settled again: (the first result, the second)."""
    import json
    from pathlib import Path
    rounds = Path(__file__).resolve().parents[2] / "docs" / "rounds"
    ws.people.sign_in(*DEALER)
    ws.rounds.load("section6", json.loads((rounds / "section6-house.json").read_text()))
    first = ws.rounds.settle("section6").result
    ws.people.sign_in(*PIT)
    ws.decisions.decide(first.approvals[0].request, "denied", reason)
    ws.people.sign_in(*DEALER)
    ws.rounds.set_round_info("section6", "12,300.00")
    return first, ws.rounds.settle("section6").result
