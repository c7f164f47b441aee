"""The workstation with real simulated devices over loopback TCP (app/simulate/sim_device.py), its
links, the live pit and a real audit database: alarms on the tiles, acknowledgements, approvals,
lights, the progressive controller, and a clean close.

Device traffic takes real time: each wait pumps the workstation (as the window's timer does)
until a condition holds, bounded, never a fixed sleep.
"""

import multiprocessing
import threading
import time

import pytest

from app.devices.session import Policy
from app.simulate.sim_device import SimDevice
from app.store import audit, paths
from app.workstation.config import DeviceSetup, TableSetup, WorkstationConfig
from app.simulate.demo import DEMO_TABLES, add_demo_users, open_demo, open_demo_tables
from app.workstation.errors import NotPermitted, Refused, SignInRefused
from app.workstation.workstation import Workstation

QUICK = Policy(degraded_after_s=1.0, offline_after_s=2.5, backoff_first_s=0.1, backoff_max_s=0.5)
FLOOR, PIT, DEALER = ("demo-floor", "2222"), ("demo-pit", "3333"), ("demo-dealer", "4444")


def until(ws, pred, what, timeout=20.0):
    """Pump ``ws`` until ``pred()`` is true (its value), at most ``timeout`` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ws.live.pump()
        got = pred()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {timeout} s; tiles: {ws.reads.tiles()}")


def light(ws, table, cls):
    return next(x.state for x in ws.reads.tile(table).lights if x.cls == cls)


class Rig:
    """A floor of the given tables with their simulated devices served on loopback TCP."""

    def __init__(self, tmp_path, tables: dict[str, tuple[str, list[SimDevice]]]):
        self.devices = {d.serial: d for _, devs in tables.values() for d in devs}
        self.served = {s: d.serve_tcp() for s, d in self.devices.items()}
        cfg = WorkstationConfig(tuple(
            TableSetup(t, profile, tuple(DeviceSetup(d.kind, d.serial, self.served[d.serial].url) for d in devs))
            for t, (profile, devs) in tables.items()), source="rig")
        self.ws = Workstation(cfg, tmp_path / "rig.db", policy=QUICK, on_close=[self.stop_devices])
        add_demo_users(self.ws)
        open_demo_tables(self.ws)
        self.ws.start()

    def stop_devices(self):
        for s in self.served.values():
            s.stop()

    def restart(self, serial):
        """The device comes back on the port it was on."""
        port = int(self.served[serial].url.rsplit(":", 1)[1])
        d = self.devices[serial]
        again = SimDevice(d.kind, d.serial, seed=1, pace=0.3, fault_rate=0)
        self.served[serial] = again.serve_tcp("127.0.0.1", port)


@pytest.fixture
def rig(tmp_path, monkeypatch):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    made = []

    def make(tables):
        made.append(Rig(tmp_path, tables))
        return made[-1]
    yield make
    for r in made:
        r.ws.close()


def test_a_shuffler_miscount_on_the_demo_floor_raises_an_alarm_only_a_supervisor_acknowledges(tmp_path,
                                                                                              monkeypatch):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    before = set(threading.enumerate())
    ws, devices = open_demo(tmp_path / "demo.db", pace=0.2, fault_rate=0, seed=3, policy=QUICK)
    try:
        assert [t.table for t in ws.reads.tiles()] == [t for t, *_ in DEMO_TABLES]
        until(ws, lambda: all(x.state == "online" for t in ws.reads.tiles() for x in t.lights), "every light online")
        assert ws.reads.tile("T7").lights == ()   # 004: no devices
        devices.inject("SHF-T1", "miscount")
        # a count other than 53 removes the deck, and the supervisor is told; T1 (section6) cites its own
        # 000(b)(1), not 001 11.17(i) (issue 33)
        until(ws, lambda: ws.reads.tile("T1").open_alarms, "the miscount on T1's tile")
        (alarm,) = [a for a in ws.reads.alarms(table="T1") if a.kind == "deck_count_wrong"]
        assert "not 53" in alarm.message and alarm.serial == "SHF-T1" and alarm.rule == "000(b)(1)"
        ws.people.sign_in(*DEALER)
        with pytest.raises(NotPermitted, match="demo-dealer is a dealer"):
            ws.decisions.acknowledge_alarm(alarm.id, "seen it")
        ws.people.sign_in(*FLOOR)
        changed = ws.decisions.acknowledge_alarm(alarm.id, "deck replaced from the pit stand")
        assert changed.alarms == {alarm.id} and "T1" in changed.tables
        row = ws.log.query("SELECT actor, role, table_id, json_extract(body, '$.data.alarm') AS alarm, "
                           "json_extract(body, '$.data.reason') AS reason FROM events "
                           "WHERE type = 'alarm_acknowledged'")
        assert row == [{"actor": "demo-floor", "role": "floor supervisor", "table_id": "T1", "alarm": alarm.id,
                        "reason": "deck replaced from the pit stand"}]
        assert alarm.id not in {a.id for a in ws.reads.alarms()}
        # the device alarm stood for the engine's irregularity too: one alarm, one acknowledgement
        assert ws.log.query("SELECT kind, acknowledged_by FROM irregularities WHERE kind = 'deck_count_wrong'") == \
            [{"kind": "deck_count_wrong", "acknowledged_by": "demo-floor"}]
        assert ws.reads.tile("T1").pending_acknowledgements == 0
        assert not [a for a in ws.reads.alarms(table="T1", open_only=False) if a.kind == "irregularity"]
    finally:
        ws.close()
    assert set(threading.enumerate()) == before, "close() left threads running"
    assert audit.verify_db(tmp_path / "demo.db", paths.install_key(create=False)).ok


def test_a_progressive_hit_waits_for_the_role_it_needs_and_is_approved_once(rig):
    # the controller claims the hit seat 2's hand makes, in the round that carries its progressive
    # wager (app/workstation/hits.py), over its link as it would when the dealer presses its key
    prg = SimDevice("progressive", "PRG-1", seed=2, pace=0.2, fault_rate=0, hit_rate=0, key_rate=0)
    r = rig({"T1": ("section6", [prg])})
    ws = r.ws
    until(ws, lambda: light(ws, "T1", "progressive") == "online", "online")
    ws.people.sign_in(*DEALER)
    ws.rounds.start("T1")
    ws.rounds.set_wagers("T1", 2, {"base": "10", "progressive": "1"})
    ws.rounds.set_cards("T1", 2, "As Ks Qs Js Ts 2h 2d")
    ws.people.sign_out()
    r.served["PRG-1"].say("hit_pending", seat=2, line="Natural Royal Flush and Pair", cents=1_000_000)
    hit = until(ws, lambda: [a for a in ws.reads.approvals() if a.kind == "progressive_meter_payout"], "a hit")[0]
    # the top line is 100% of the meter: the settlement asks a pit manager (000(q)(3)(iii))
    assert (hit.table, hit.role_needed, hit.rule) == ("T1", "pit manager", "000(q)(3)(iii), (5)")
    assert hit.cents == 1_000_000 and hit.seat == 2
    assert ws.reads.tile("T1").pending_approvals >= 1
    assert "progressive_hit" in {a.kind for a in ws.reads.alarms(table="T1")}
    with pytest.raises(SignInRefused, match=r"wrong PIN \(1 of 5"):
        ws.people.sign_in("demo-pit", "9999")
    assert {u.name: u.failures for u in ws.people.users()}["demo-pit"] == 1
    ws.people.sign_in(*FLOOR)
    with pytest.raises(NotPermitted, match="needs a pit manager; demo-floor is a floor supervisor"):
        ws.decisions.decide(hit.request, "approved", "light and hand verified")
    ws.people.sign_in(*PIT)
    assert {u.name: u.failures for u in ws.people.users()}["demo-pit"] == 0   # a good sign-in clears the count
    ws.decisions.decide(hit.request, "approved", "light and hand verified")
    with pytest.raises(Refused, match=f"request {hit.request} \\(progressive meter payout\\) was already approved "
                                      "by demo-pit"):
        ws.decisions.decide(hit.request, "approved", "again")
    decided = ws.log.query("SELECT actor, role FROM events WHERE type = 'approval_decided'")
    assert decided == [{"actor": "demo-pit", "role": "pit manager"}]
    assert hit.request not in {a.request for a in ws.reads.approvals()}


def test_a_link_dropped_and_restored_turns_its_light_offline_then_online_and_the_alarm_still_waits(rig):
    rng = SimDevice("rng", "RNG-1", seed=1, pace=0.3, fault_rate=0)
    r = rig({"T1": ("section6", [rng])})
    ws = r.ws
    until(ws, lambda: light(ws, "T1", "rng") == "online", "online")
    r.served["RNG-1"].stop()
    until(ws, lambda: light(ws, "T1", "rng") == "offline", "offline")
    (alarm,) = until(ws, lambda: [a for a in ws.reads.alarms() if a.kind == "rng_offline"], "the rng_offline alarm")
    assert alarm.cleared is None and alarm.table == "T1" and "count the starting position with the dice" in \
        alarm.message
    r.restart("RNG-1")
    until(ws, lambda: light(ws, "T1", "rng") == "online", "online again")
    back = until(ws, lambda: [a for a in ws.reads.alarms() if a.id == alarm.id and a.cleared], "cleared by itself")[0]
    assert back.cleared_how == "the rng is back online" and back.open and back.acknowledged is None
    assert ws.reads.tile("T1").open_alarms == 1
    ws.people.sign_in(*FLOOR)
    ws.decisions.acknowledge_alarm(alarm.id, "display cable reseated")
    assert ws.reads.tile("T1").open_alarms == 0


def test_the_progressive_controller_offline_closes_the_tables_progressive_wagers_until_it_is_back(rig):
    prg = SimDevice("progressive", "PRG-2", seed=4, pace=0.3, fault_rate=0, hit_rate=0, key_rate=0)
    r = rig({"T2": ("section6", [prg])})
    ws = r.ws
    until(ws, lambda: light(ws, "T2", "progressive") == "online", "online")
    assert ws.reads.tile("T2").progressive == "open"
    ws.people.sign_in(*DEALER)
    ws.decisions.record("T2", "shuffle_started")
    ws.decisions.record("T2", "shuffle_completed", {"deck": "red", "manual": False})
    ws.decisions.record("T2", "player_seated", {"seat": 1})
    r.served["PRG-2"].stop()
    until(ws, lambda: ws.reads.tile("T2").progressive == "closed", "progressive wagers closed")
    assert light(ws, "T2", "progressive") == "offline"
    nmb = {"method": "automated-shoe", "wagers": [1], "progressive": [1]}
    ws.people.touch()
    with pytest.raises(Refused, match="progressive wagers are closed while the progressive controller is offline"):
        ws.decisions.record("T2", "no_more_bets", nmb)
    r.restart("PRG-2")
    until(ws, lambda: ws.reads.tile("T2").progressive == "open", "progressive wagers open again")
    ws.decisions.record("T2", "no_more_bets", nmb)
    assert ws.reads.tile("T2").state == "no_more_bets"
    assert ws.reads.table_detail("T2").positions[1].progressive


def test_close_stops_every_link_simulator_and_the_log(tmp_path, monkeypatch):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    before = set(threading.enumerate())
    ws, _ = open_demo(tmp_path / "demo.db", pace=0.3, fault_rate=0, seed=5, policy=QUICK)
    try:
        until(ws, lambda: all(x.state == "online" for t in ws.reads.tiles() for x in t.lights), "every light online")
        devices = sum(len(t.devices) for t in ws.config.tables)
        # a simulator per device, the log's writer and the thread that receives from the links'
        # process (app/devices/host.py), which reads the 22 devices
        assert devices == 22 and len(set(threading.enumerate()) - before) == devices + 2
        child = ws.runner.host.pid
        assert [p.pid for p in multiprocessing.active_children()] == [child]
    finally:
        ws.close()
    assert set(threading.enumerate()) == before   # at once: close() waited for every one
    assert multiprocessing.active_children() == []
    assert ws.live.pump() == ws.live.pump() and not ws.live.pump()   # a closed workstation does nothing
    assert ws.log.stopped
    # shutting down is not an outage: no alarm or device fault was logged for it
    again = Workstation(ws.config, tmp_path / "demo.db")
    try:
        assert again.reads.alarms() == ()
        assert not again.log.query("SELECT * FROM device_faults WHERE code = 'offline'")
    finally:
        again.close()
