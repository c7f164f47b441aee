"""The workstation ships its log in the background when its configuration says ``[shipping]``
(issue 28, app/workstation/shipper.py, docs/casino.md): rows arrive on the casino's real server
with nobody running ``pitdesk ship``; the server stopped, the workstation keeps logging, the lag
grows and is alarmed; restarted, shipping catches up and the alarm clears; a server that refuses
the log (a copy of it gone another way) raises an alarm and stops shipping. The module's name
starts with ``test_workstation``: a thread left running fails it (tests/conftest.py)."""

from __future__ import annotations

import shutil
import sqlite3
import time

from app.simulate.demo import add_demo_users
from app.workstation import config
from app.workstation.workstation import Workstation
from tests.support.casino import held, register
from tests.support.pg import SHIPPER, SUPERUSER
from tests.support.workstation import ADMIN, FLOOR, Clock

DEADLINE_S = 60   # a wait that never ends fails here, not in CI's timeout


def floor(url: str, lag_events: int = 5) -> str:
    return (f'[[tables]]\nid = "T1"\nprofile = "sd"\n\n[shipping]\nto = "{url}"\nevery_seconds = 0.05\n'
            f'alarm_lag_events = {lag_events}\n')


def open_ws(folder, monkeypatch, url, db="pit.db", home="home", lag_events=5) -> Workstation:
    monkeypatch.setenv("PITDESK_HOME", str(folder / home))
    ws = Workstation(config.parse(floor(url, lag_events), "floor.toml"), folder / db, clock=Clock())
    try:
        register(url, folder / db)   # the casino's owner registers the pit before it ships
    except Exception:   # noqa: BLE001 - a server that is down is the test's own business
        pass
    return ws


def wait_for(ws, done) -> None:
    """Until ``done(state)`` holds of a run that started after now."""
    runs = ws.shipping().runs
    end = time.monotonic() + DEADLINE_S
    while not (ws.shipping().runs > runs + 1 and done(ws.shipping())):
        assert time.monotonic() < end, f"the shipper never got there: {ws.shipping()}"
        time.sleep(0.02)


def local(db) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT seq, time, table_id, type, actor, role, body, prev_hash, hash, hmac "
                            "FROM events ORDER BY seq").fetchall()
    finally:
        conn.close()


def log_id(db) -> str:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT value FROM meta WHERE key = 'db_id'").fetchone()[0]
    finally:
        conn.close()


def shipper_threads() -> list:
    import threading
    return [t for t in threading.enumerate() if t.name == "pitdesk shipper"]


def test_rows_arrive_on_the_server_with_nobody_running_ship(casino, tmp_path, monkeypatch):
    ws = open_ws(tmp_path, monkeypatch, casino.ship)
    try:
        add_demo_users(ws)
        ws.start()
        assert len(shipper_threads()) == 1
        wait_for(ws, lambda s: s.lag_events == 0 and s.shipped == ws.log.seq)
        assert held(casino.owner, log_id(ws.log.path)) == local(ws.log.path)
        ws.people.sign_in(*ADMIN)
        ws.people.sign_in(*FLOOR)    # more rows, logged as ever
        wait_for(ws, lambda s: s.shipped == ws.log.seq)
        s = ws.shipping()
        assert (s.error, s.refused, s.lag_events, s.local) == ("", "", 0, ws.log.seq)
        assert s.to == casino.ship
        assert held(casino.owner, log_id(ws.log.path)) == local(ws.log.path)
        assert ws.live.pump() is not None and not [a for a in ws.reads.alarms() if a.kind.startswith("shipping")]
    finally:
        ws.close()
    assert shipper_threads() == []


def test_a_workstation_without_shipping_has_no_shipper(tmp_path, monkeypatch):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    with Workstation(config.parse('[[tables]]\nid = "T1"\nprofile = "sd"\n'), tmp_path / "pit.db") as ws:
        ws.start()
        assert ws.shipping() is None and shipper_threads() == []


def test_a_copy_of_the_log_gone_another_way_is_refused_and_alarmed(casino, tmp_path, monkeypatch):
    ws = open_ws(tmp_path, monkeypatch, casino.ship)
    with ws:
        add_demo_users(ws)
        ws.start()
        wait_for(ws, lambda s: s.shipped == ws.log.seq)
    # the log and its home copied as they stand; the original goes on and ships more rows
    shutil.copytree(tmp_path / "home", tmp_path / "home-copy")
    shutil.copy(tmp_path / "pit.db", tmp_path / "copy.db")
    ws = open_ws(tmp_path, monkeypatch, casino.ship)
    with ws:
        ws.people.sign_in(*ADMIN)
        ws.start()
        wait_for(ws, lambda s: s.shipped == ws.log.seq)
        shipped = ws.log.seq
    # the copy, a log the server holds more of than it has, started as the same workstation
    ws = open_ws(tmp_path, monkeypatch, casino.ship, db="copy.db", home="home-copy")
    try:
        ws.start()
        end = time.monotonic() + DEADLINE_S
        while not ws.shipping().refused:
            assert time.monotonic() < end, ws.shipping()
            time.sleep(0.02)
        assert "it lost rows" in ws.shipping().refused
        assert (ws.shipping().shipped, ws.shipping().local) == (shipped, ws.log.seq)
        ws.live.pump()
        alarm, = [a for a in ws.reads.alarms() if a.kind == "shipping_refused"]
        assert "refused this log's rows" in alarm.message and "nothing more is shipped" in alarm.message
        assert shipper_threads() == []          # shipping stopped: the alarm asks a person to look
        assert len(held(casino.owner, log_id(tmp_path / "pit.db"))) == shipped   # nothing overwritten
    finally:
        ws.close()


def test_server_stopped_the_lag_grows_and_is_alarmed_restarted_it_catches_up(own_server, tmp_path, monkeypatch):
    server, db = own_server
    ws = open_ws(tmp_path, monkeypatch, server.url(SHIPPER, db), lag_events=3)
    try:
        add_demo_users(ws)
        ws.start()
        wait_for(ws, lambda s: s.shipped == ws.log.seq)
        server.stop("fast")
        for _ in range(3):
            ws.people.sign_in(*ADMIN)
            ws.people.sign_in(*FLOOR)
        wait_for(ws, lambda s: s.lag_events >= 6)
        s = ws.shipping()
        assert s.short == "server unreachable" and "cannot be reached" in s.error
        assert s.local == ws.log.seq and s.shipped == ws.log.seq - s.lag_events
        ws.live.pump()
        alarm, = [a for a in ws.reads.alarms() if a.kind == "shipping_lag"]
        assert "lags" in alarm.message and "server unreachable" in alarm.message and alarm.cleared is None
        ws.live.pump()       # still lagging: no second alarm
        assert len([a for a in ws.reads.alarms() if a.kind == "shipping_lag"]) == 1
        server.start()
        wait_for(ws, lambda s: s.lag_events == 0 and not s.error)
        ws.live.pump()
        alarm, = [a for a in ws.reads.alarms() if a.kind == "shipping_lag"]
        assert alarm.cleared is not None and "caught up" in alarm.cleared_how
        wait_for(ws, lambda s: s.shipped == ws.log.seq)   # the alarm's own rows shipped too
        assert held(server.url(SUPERUSER, db), log_id(ws.log.path)) == local(ws.log.path)
    finally:
        ws.close()
    assert shipper_threads() == []
