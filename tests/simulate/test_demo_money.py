"""The demo floor plays the pit's money (issue 34, app/simulate/demo_money.py): its dealers on
their thread over simulated devices on real sockets, the workstation pumped as the window pumps
it, the workstation's clock running sixty times as fast as the pace's (the demo's 30 rounds an
hour at 1,800) from ten minutes before midnight, the end of the default day shift.

The trays open (by the demo dealer with the floor supervisor's counter-signature), players buy
in, the trays ask for fills and credits that wait for the person at the window (the test, as
the supervisor), the cage and the table sign them once approved, the closer at midnight is the
tray expected, the next opener is that closer, the count room counts the drop: every closed
shift's win by count is the rounds' win to the cent."""

from __future__ import annotations

import json
import time
from datetime import datetime, timedelta

from app.simulate.demo import DEMO_TABLES, DEMO_USERS, demo_config, open_demo
from app.simulate.table_play import Pace
from app.store import trays
from app.workstation.workstation import Workstation

# a fill or a credit past every round (the tray's marks at its opener), no device faults
PACE = Pace(rounds_per_hour=1800, faults_per_shift=0, tray_marks=(10, 10))
EVENING = datetime(2026, 11, 28, 23, 50)


def fast_clock(start: datetime):
    t0 = time.monotonic()
    return lambda: start + timedelta(seconds=(time.monotonic() - t0) * 60)


def pump(ws, seconds: float, until=lambda: False, approve: bool = False) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end and not until():
        ws.live.pump()
        if approve:
            supervise(ws)
        time.sleep(0.05)


def supervise(ws) -> None:
    """The person at the window: every pending approval approved by the role it needs (the fills
    and credits, and what a round needs, so no table waits), every open alarm acknowledged."""
    for a in ws.reads.approvals(True):
        who = ("demo-pit", "3333") if a.role_needed == "pit manager" else ("demo-floor", "2222")
        s = ws.people.session()
        if s is None or s.name != who[0]:
            ws.people.sign_in(*who)
        ws.decisions.decide(a.request, "approved", "the supervisor checked it")
    s = ws.people.session()
    if s is None or s.name != "demo-floor":
        ws.people.sign_in("demo-floor", "2222")
    for a in ws.reads.alarms(True):
        ws.decisions.acknowledge_alarm(a.id, "seen to at the table")


def closed_shifts(ws) -> list[dict]:
    return ws.log.query("SELECT o.* FROM trays o JOIN drops d ON d.opener = o.seq WHERE o.kind = 'opener' "
                        "ORDER BY o.seq")


def test_the_demo_opens_sells_fills_closes_and_drops_and_the_win_reconciles_to_the_cent(tmp_path, monkeypatch):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    ws, _ = open_demo(tmp_path / "demo.db", play=PACE, seed=4, faults=(), clock=fast_clock(EVENING))
    try:
        tables = {t.id for t in ws.config.tables}
        # nobody at the window: the requests wait, the demo never approves its own
        pump(ws, 60, lambda: len({p["table_id"] for p in ws.inventory.pending()}) >= 3)
        waiting = ws.inventory.pending()
        assert len({p["table_id"] for p in waiting}) >= 3
        assert {p["status"] for p in waiting} == {"requested"}
        assert ws.log.query("SELECT COUNT(*) AS n FROM events WHERE type = 'approval_decided'")[0]["n"] == 0
        # the supervisor approves what comes; past midnight every table closes and its drop is counted
        pump(ws, 150, lambda: {r["table_id"] for r in closed_shifts(ws)} == tables
             and ws.log.query("SELECT COUNT(*) AS n FROM tray_slips WHERE status = 'complete'")[0]["n"] >= 3,
             approve=True)
        with ws.reading():
            shifts = closed_shifts(ws)
            assert {r["table_id"] for r in shifts} == tables
            for o in shifts:
                money = trays.shift_money(ws.log, o["seq"])
                assert money.closer == money.expected and money.drop == money.buy_ins, o["table_id"]
                assert money.difference == 0 and money.win == money.rounds_win, o["table_id"]
                # the next opener is the closer carried over, chip for chip
                closer = ws.log.query("SELECT * FROM trays WHERE seq = ?", (o["closer"],))[0]
                nxt = ws.log.query("SELECT * FROM trays WHERE table_id = ? AND kind = 'opener' AND seq > ? "
                                   "ORDER BY seq LIMIT 1", (o["table_id"], o["seq"]))[0]
                assert trays.count_of(nxt) == trays.count_of(closer) and closer["time"] >= "2026-11-29"
                assert json.loads(closer["signed_by"]) == [["demo-dealer", "dealer"],
                                                           ["demo-floor", "floor supervisor"]]
            assert ws.log.query("SELECT COUNT(*) AS n FROM buy_ins")[0]["n"] > 0
            done = ws.log.query("SELECT * FROM tray_slips WHERE status = 'complete'")
            assert len(done) >= 3
            for s in done:
                assert json.loads(s["cage_signers"]) == [["demo-cashier", "cashier"], ["demo-security", "security"]]
                assert json.loads(s["table_signers"]) == [["demo-dealer", "dealer"],
                                                          ["demo-floor", "floor supervisor"]]
                first, second = ("cage", "table") if s["kind"] == "fill" else ("table", "cage")
                assert s["approved"] < s[f"{first}_signed"] < s[f"{second}_signed"]
            assert ws.log.query("SELECT * FROM alarms WHERE kind IN ('opener_differs', 'tray_difference', "
                                "'win_difference')") == []
    finally:
        ws.close()


def test_a_demo_log_from_before_the_money_gets_its_people_and_opens_its_trays(tmp_path, monkeypatch):
    """A log kept from before issue 34: four demo people, no tray ever opened."""
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    db = tmp_path / "demo.db"
    urls = {f"{p}-{t}": "socket://127.0.0.1:9" for t, _, _, classes in DEMO_TABLES
            for p in {"shuffler": "SHF", "shoe": "SHO", "progressive": "PRG", "rng": "RNG"}.values()}
    with Workstation(demo_config(urls), db, link_process=False, install_serial="pitdesk-demo") as old:
        admin, *others = DEMO_USERS[:4]
        old.people.create_administrator(admin.name, admin.pin)
        old.people.sign_in(admin.name, admin.pin)
        for u in others:
            old.people.add_user(u.name, u.role, u.pin)
        old.people.sign_out()
    ws, _ = open_demo(db, play=PACE, seed=5, faults=(), clock=fast_clock(datetime(2026, 11, 28, 14, 0)))
    try:
        assert {u.name for u in ws.people.users()} == {u.name for u in DEMO_USERS}
        pump(ws, 60, lambda: ws.log.query("SELECT COUNT(DISTINCT table_id) AS n FROM trays")[0]["n"] == 7
             and ws.log.query("SELECT COUNT(*) AS n FROM buy_ins")[0]["n"] > 0)
        openers = ws.log.query("SELECT * FROM trays WHERE kind = 'opener'")
        assert len({o["table_id"] for o in openers}) == 7
        assert all(o["last_closer"] is None and o["cents"] > 0 for o in openers)
        assert ws.log.query("SELECT COUNT(*) AS n FROM buy_ins")[0]["n"] > 0
    finally:
        ws.close()
