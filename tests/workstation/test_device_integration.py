"""The whole device path on real sockets and pseudo-terminals: a simulated device -> the link's
reader thread and session -> the live pit -> the procedures -> a real audit database. Every
fault kind, a lost and restored link, and a device that floods."""

import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

import pytest

from app.devices.frame import encode
from app.devices.link import DeviceMessage, Link, LinkGap, LinkState
from app.devices.messages import encode_message
from app.devices.session import Policy
from app.engine.cards import card_str
from app.engine.procedure import Event
from app.workstation.pit import Pit, TableConfig
from app.simulate.sim_device import SimDevice
from app.store import audit, paths

PITDESK = str(Path(sys.executable).with_name("pitdesk"))
QUICK = Policy(degraded_after_s=1.0, offline_after_s=2.5, backoff_first_s=0.1, backoff_max_s=0.5)


class Rig:
    """One table's devices served, linked and fed to a live pit by a consumer thread."""

    def __init__(self, log, devices: dict[str, SimDevice], pty_dir: Path | None = None, policy=QUICK):
        self.log = log
        self.pit = Pit(log, [TableConfig("T1", "section6", {d.serial: d.kind for d in devices.values()})])
        self.events: queue.Queue = queue.Queue()
        self.seen: list = []
        self.stop = threading.Event()
        self.served = {k: (d.serve_pty(str(pty_dir / d.serial)) if pty_dir else d.serve_tcp())
                       for k, d in devices.items()}
        self.links = {k: Link(s.url, self._put, policy=policy).start() for k, s in self.served.items()}
        self.consumer = threading.Thread(target=self.pit.run, args=(self.events, self.stop), daemon=True)
        self.consumer.start()

    def _put(self, ev):
        self.seen.append(ev)
        self.events.put(ev)

    def wait(self, pred, what, timeout=15.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            got = pred()
            if got:
                return got
            time.sleep(0.05)
        raise AssertionError(f"{what}: not within {timeout} s; link events seen: {self.seen[-12:]}")

    def states(self, key):
        url = self.served[key].url
        return [e.new for e in self.seen if isinstance(e, LinkState) and e.url == url]

    def messages(self, key, type_=None):
        url = self.served[key].url
        return [e.message for e in self.seen if isinstance(e, DeviceMessage) and e.url == url
                and (type_ is None or e.message["type"] == type_)]

    def rows(self, sql):
        return self.log.query(sql)

    def close(self):
        for link in self.links.values():
            link.stop()
        for s in self.served.values():
            s.stop()
        self.stop.set()
        self.consumer.join(5)


def open_table(pit):
    now = datetime.now
    for deck in ("red", "blue"):
        for kind, role in (("deck_received", "dealer"), ("deck_inspected", "dealer"),
                           ("deck_verified", "floor supervisor"), ("deck_spread", "dealer"),
                           ("deck_washed", "dealer")):
            pit.floor.record("T1", Event(kind, now(), "dee", role, {"deck": deck}))


@pytest.fixture
def rig(log, request):
    made = []

    def make(devices, **kw):
        r = Rig(log, devices, **kw)
        made.append(r)
        return r
    yield make
    for r in made:
        r.close()


def test_a_shuffler_jam_and_a_miscount_reach_the_table_and_the_log(rig, log):
    # 000(n)(13): a jam reshuffles; 001 11.17(i): a wrong count removes the deck and alarms
    r = rig({"shf": SimDevice("shuffler", "SHF-1", seed=4, pace=0.3, fault_rate=0)})
    open_table(r.pit)
    r.wait(lambda: "online" in r.states("shf"), "online")
    r.served["shf"].inject("jam")
    r.wait(lambda: r.rows("SELECT * FROM irregularities WHERE kind = 'shuffler_jam'"), "the jam logged")
    assert r.rows("SELECT device, code FROM device_faults WHERE code != 'refused'")[0]["device"] == "shuffler"
    r.served["shf"].inject("miscount")
    alarm = r.wait(lambda: r.rows("SELECT * FROM alarms WHERE kind = 'deck_count_wrong'"), "the miscount alarm")
    assert "not 53" in alarm[0]["message"]
    removed = r.rows("SELECT deck FROM decks WHERE status = 'removed'")
    assert len(removed) == 1 and removed[0]["deck"] in ("red", "blue")
    assert audit.verify_db(log.path, paths.install_key(create=False)).ok


def hand_reads(r) -> list[dict]:
    return [{**json.loads(x["body"])["data"], "table": x["table_id"], "actor": x["actor"]}
            for x in r.rows("SELECT table_id, actor, body FROM events WHERE type = 'hand_read' ORDER BY seq")]


@pytest.mark.parametrize("pty", [False, True], ids=["tcp", "pty"])
def test_a_card_reading_shuffler_deals_seven_hands_of_one_deck_into_the_log(rig, log, tmp_path, pty):
    # 000(b)(1): one deck of 52 cards and a joker; 000(j)(1), (4): seven hands of seven, to the
    # dealer (position 0) and seats 1 to 6 (docs/table-layout.md); 000(j)(5)(i): four left over
    r = rig({"shf": SimDevice("shuffler", "SHF-1", seed=8, pace=0.1, fault_rate=0)},
            pty_dir=tmp_path if pty else None)
    open_table(r.pit)
    rows = r.wait(lambda: (lambda got: got if len(got) >= 14 else None)(hand_reads(r)), "two deals read")
    deck = {card_str(k) for k in range(53)}
    for deal in (rows[:7], rows[7:14]):
        assert [h["position"] for h in deal] == list(range(7)) and len({h["deck"] for h in deal}) == 1
        assert {(h["table"], h["actor"], h["serial"]) for h in deal} == {("T1", "SHF-1", "SHF-1")}
        # each a hand of one deal of seven, for the round the table is on (000(g))
        assert all(set(h) == {"position", "deck", "cards", "serial", "table", "actor", "deal", "hands", "round"}
                   for h in deal)
        assert len({h["deal"] for h in deal}) == 1 and {h["hands"] for h in deal} == {7}
        cards = [c for h in deal for c in h["cards"]]
        assert all(len(h["cards"]) == 7 for h in deal) and len(set(cards)) == 49 and set(cards) <= deck
    assert rows[0]["deck"] != rows[7]["deck"]   # 000(b)(2)(iv): the two decks alternate
    assert rows[0]["deal"] != rows[7]["deal"]
    assert not r.rows("SELECT * FROM device_faults")
    assert audit.verify_db(log.path, paths.install_key(create=False)).ok


def test_a_misread_hand_is_logged_as_read_with_a_misread_fault_beside_it(rig, log):
    # docs/devices.md "A misread": the read is logged as it came and the fault says what is wrong;
    # a hand of six (000(j)(1), (n)(8)) or a card twice (000(b)(1)) waits for a person
    r = rig({"shf": SimDevice("shuffler", "SHF-1", seed=9, pace=0.1, fault_rate=0)})
    open_table(r.pit)
    r.wait(lambda: "online" in r.states("shf"), "online")
    r.served["shf"].inject("misread")
    (fault,) = r.wait(lambda: r.rows("SELECT device, code, message FROM device_faults"), "the misread fault")
    assert (fault["device"], fault["code"]) == ("shuffler", "misread")

    def misread_deal():   # the seven reads of the deal that holds the misread, once all are in
        got = hand_reads(r)
        deals = [got[k:k + 7] for k in range(0, len(got) - 6, 7)]
        return next((d for d in deals if any(len(h["cards"]) != 7 or len(set(h["cards"])) != 7 for h in d)), None)
    deal = r.wait(misread_deal, "the deal with the misread, read to its last position")
    assert [h["position"] for h in deal] == list(range(7))
    (wrong,) = [h for h in deal if len(h["cards"]) != 7 or len(set(h["cards"])) != 7]
    where = "the dealer" if wrong["position"] == 0 else f"seat {wrong['position']}"
    assert f"misread {where}'s hand from deck {wrong['deck']!r} ({' '.join(wrong['cards'])})" in fault["message"]
    assert "waits for a person" in fault["message"]
    assert len({c for h in deal if h is not wrong for c in h["cards"]}) == 42


@pytest.mark.parametrize("fault", ["garbage", "bad-crc", "drop", "slow"])
def test_line_faults_lose_nothing_and_pass_nothing_twice(rig, fault):
    # the RNG display sends a number a round; every number it sent arrives once, in order
    dev = SimDevice("rng", "RNG-1", seed=7, pace=0.15, fault_rate=0, slow=(0.6, 0.8))
    r = rig({"rng": dev})
    r.wait(lambda: "online" in r.states("rng"), "online")
    r.wait(lambda: len(r.messages("rng", "rng_number")) >= 2, "numbers flowing")
    r.served["rng"].inject(fault)
    hit = r.wait(lambda: r.served["rng"].fault_log, f"the {fault} on the wire")
    r.wait(lambda: len(r.messages("rng", "rng_number")) >= 8, "numbers after the fault")
    got = [m["seq"] for m in r.messages("rng", "rng_number")]
    assert len(got) == len(set(got)), "a number passed on twice"
    counters = r.links["rng"].session.counters
    if fault in ("garbage", "bad-crc"):
        assert counters.frames_rejected + counters.garbage_bytes > 0
    if fault in ("bad-crc", "drop"):
        # the device sent the frame again (after a nak or its ack timeout), and it arrived
        assert dev.stats["retransmitted"] >= 1
        lost = hit[0].get("seq")
        if lost is not None:
            assert lost in [m["seq"] for m in r.messages("rng")], (lost, hit)
    assert dev.stats["given_up"] == 0


def test_a_shuffler_on_a_faulty_line_is_heard_in_its_order_once_each():
    """Drops, bad CRCs and garbage on a real TCP socket: retransmitted frames are overtaken on the
    line by the next ones, and the workstation still passes every message on once, in the order the
    shuffler sent it; each card_count before the shuffle_completed it belongs to (docs/devices.md)."""
    served = SimDevice("shuffler", "SHF-1", seed=12, pace=0.15, fault_rate=0).serve_tcp()
    heard: list = []
    link = Link(served.url, heard.append).start()
    try:
        deadline = time.monotonic() + 15
        while not any(isinstance(e, LinkState) and e.new == "online" for e in heard):
            assert time.monotonic() < deadline, "never online"
            time.sleep(0.05)
        for k in range(18):   # about 3.6 s of faults, a new one every 0.2 s
            served.inject(("drop", "bad-crc", "garbage")[k % 3])
            time.sleep(0.2)

        def all_heard() -> bool:   # every frame the shuffler numbered (its hello aside) passed on
            st = served.stats
            return st["messages_sent"] - st["connections"] == link.session.counters.delivered
        while not all_heard() and time.monotonic() < deadline + 10:
            time.sleep(0.05)
        caught_up = all_heard()
    finally:
        link.stop()
        served.stop()
    messages = [e.message for e in heard if isinstance(e, DeviceMessage)]
    seqs = [m["seq"] for m in messages]
    assert seqs == [(seqs[0] + k) % 256 for k in range(len(seqs))], "not in the shuffler's order, once each"
    assert caught_up, (served.stats, link.session.counters)
    faults = served.stats["faults"]
    assert faults["drop"] >= 5 and faults["bad-crc"] >= 5 and faults["garbage"] >= 5
    assert served.stats["given_up"] == 0 and not [e for e in heard if isinstance(e, LinkGap)]
    assert [(m["deck"], m["colour"]) for m in messages[:2]] == [("red", "red"), ("blue", "blue")]
    assert [m["type"] for m in messages].count("deck_colour") == 2   # once per deck on a connection
    counted = set()
    for m in messages:
        if m["type"] == "card_count":
            counted.add(m["deck"])
        elif m["type"] == "shuffle_completed":   # 001 11.17(i): the count belongs to the shuffle it completes
            assert m["deck"] in counted, f"shuffle_completed of {m['deck']} before its card_count"
            counted.discard(m["deck"])
    assert link.session.counters.held > 0, "no frame was ever overtaken: the faults did not bite"


def test_silence_degrades_closes_and_the_link_comes_back(rig):
    dev = SimDevice("progressive", "PRG-1", seed=2, fault_rate=0, silence=(4.0, 4.0))
    r = rig({"prg": dev})
    open_table(r.pit)
    r.wait(lambda: "online" in r.states("prg"), "online")
    r.served["prg"].inject("silence")
    r.wait(lambda: "offline" in r.states("prg"), "offline after silence")
    assert r.states("prg").index("degraded") < r.states("prg").index("offline")
    # the controller's tables take no progressive wagers meanwhile (000(q))
    r.wait(lambda: not r.pit.floor.state("T1").progressive_online, "progressive wagers closed")
    r.wait(lambda: r.states("prg")[-1] == "online", "back online", timeout=20)
    r.wait(lambda: r.pit.floor.state("T1").progressive_online, "progressive wagers open again")
    kinds = [a["kind"] for a in r.rows("SELECT kind FROM alarms")]
    assert kinds.count("progressive_offline") == 1


def test_a_tcp_device_that_goes_away_and_comes_back(rig, log):
    dev = SimDevice("rng", "RNG-1", seed=1, pace=0.3, fault_rate=0)
    r = rig({"rng": dev})
    r.wait(lambda: "online" in r.states("rng"), "online")
    port = int(r.served["rng"].url.rsplit(":", 1)[1])
    r.served["rng"].stop()
    r.wait(lambda: "offline" in r.states("rng"), "offline")
    again = SimDevice("rng", "RNG-1", seed=1, pace=0.3, fault_rate=0).serve_tcp("127.0.0.1", port)
    try:
        r.wait(lambda: r.states("rng")[-1] == "online", "reconnected")
        before = len(r.messages("rng", "rng_number"))
        r.wait(lambda: len(r.messages("rng", "rng_number")) > before, "numbers again")
        assert r.links["rng"].session.counters.connects == 2
        # one outage, one fault and one alarm, however many reconnects failed meanwhile
        faults = [f["code"] for f in r.rows("SELECT code FROM device_faults")]
        assert faults.count("offline") == 1
        assert [a["kind"] for a in r.rows("SELECT kind FROM alarms")] == ["rng_offline"]
    finally:
        again.stop()


def test_four_devices_on_pseudo_terminals(rig, tmp_path):
    devices = {k: SimDevice(k, None, seed=3, pace=0.3, fault_rate=0) for k in ("shuffler", "shoe", "progressive",
                                                                                "rng")}
    r = rig(devices, pty_dir=tmp_path)
    open_table(r.pit)
    r.wait(lambda: all(r.states(k) and r.states(k)[-1] == "online" for k in devices), "all online")
    r.wait(lambda: r.rows("SELECT * FROM meter_readings"), "a meter reading logged")
    r.wait(lambda: r.rows("SELECT * FROM events WHERE type = 'shuffle_completed'"), "a shuffle logged")
    assert all((tmp_path / d.serial).is_symlink() for d in devices.values())


def test_a_device_that_floods_does_not_starve_the_others(log, tmp_path):
    """A device server that writes valid frames and noise as fast as the socket takes them: its
    link stays bounded and the next link's messages still arrive promptly."""
    server = socket.create_server(("127.0.0.1", 0))
    stop = threading.Event()

    def flood():
        conn, _ = server.accept()
        conn.sendall(encode(encode_message("hello", 0, device="rng", serial="RNG-F", firmware="flood")))
        burst = b"".join(encode(encode_message("rng_number", k % 256, number=k % 7 + 1)) + b"\xff\x00noise"
                         for k in range(1, 2000))
        try:
            while not stop.is_set():
                conn.sendall(burst)
        except OSError:
            pass
    threading.Thread(target=flood, daemon=True).start()
    events: queue.Queue = queue.Queue(maxsize=0)
    flooder = Link(f"socket://127.0.0.1:{server.getsockname()[1]}", events.put).start()
    calm_dev = SimDevice("rng", "RNG-2", seed=5, pace=0.15, fault_rate=0).serve_tcp()
    calm_events: queue.Queue = queue.Queue()
    calm = Link(calm_dev.url, calm_events.put).start()
    try:
        time.sleep(3.0)
        assert flooder.session.counters.frames_accepted > 5_000
        assert len(flooder.session._decoder.buf) <= flooder.session._decoder.max_buffer
        got = []
        while not calm_events.empty():
            got.append(calm_events.get())
        numbers = [e for e in got if isinstance(e, DeviceMessage) and e.message["type"] == "rng_number"]
        assert numbers, "the calm device's numbers did not get through"
        assert calm.state == "online"
    finally:
        stop.set()
        flooder.stop()
        calm.stop()
        calm_dev.stop()
        server.close()


def test_simulate_floor_runs_and_its_log_verifies(tmp_path):
    env = {"PITDESK_HOME": str(tmp_path / "home"), "PATH": ""}
    db = tmp_path / "floor.db"
    p = subprocess.run([PITDESK, "simulate", "floor", "--tables", "2", "--seconds", "4", "--every", "1.5", "--json",
                        "--db", str(db), "--seed", "3"], capture_output=True, text=True, env=env, timeout=60)
    assert p.returncode == 0, p.stderr
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    tables = [x for x in lines if x["type"] == "table"]
    assert {t["table"] for t in tables} == {"T1", "T2"}
    assert any(set(t["links"].values()) == {"online"} for t in tables)
    summary = lines[-1]
    assert summary["type"] == "summary" and summary["devices"] == 8 and summary["connects"] == 8
    assert summary["alarms"] == 0 and summary["device_faults"] == 0   # stopping is not an outage
    v = subprocess.run([PITDESK, "audit", "verify", "--db", str(db)], capture_output=True, text=True, env=env)
    assert v.returncode == 0 and json.loads(v.stdout)["rows"] == summary["events_logged"]


@pytest.mark.parametrize("pty", [False, True], ids=["tcp", "pty"])
def test_ctrl_c_on_the_demo_floor_closes_everything(tmp_path, pty):
    """What `make run` starts, interrupted as a terminal's Ctrl-C does (SIGINT to the process group):
    it exits 0 with every link, simulator and thread ended and the audit log closed, and
    interrupting it is not an outage. (How fast: docs/devices.md, measured by hand.)"""
    env = {"PITDESK_HOME": str(tmp_path / "home"), "PATH": ""}
    db = tmp_path / "floor.db"
    ports = tmp_path / "ports"
    ports.mkdir()
    proc = subprocess.Popen([PITDESK, "simulate", "floor", "--tables", "4", "--every", "0.3", "--json",
                             "--db", str(db), *(["--pty", str(ports)] if pty else [])],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                            start_new_session=True)
    try:
        for line in proc.stdout:   # a status line a third of a second: until every link is online
            row = json.loads(line)
            if row["type"] == "table" and row["table"] == "T4" and set(row["links"].values()) == {"online"}:
                break
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 0 and "Traceback" not in err, err
    summary = json.loads(out.splitlines()[-1])
    assert summary["type"] == "summary" and summary["still_open"] == []
    assert summary["connects"] == 16 and summary["device_faults"] == 0 and summary["alarms"] == 0
    assert list(ports.iterdir()) == []   # the simulators' pseudo-terminal symlinks removed
    v = subprocess.run([PITDESK, "audit", "verify", "--db", str(db)], capture_output=True, text=True, env=env)
    assert v.returncode == 0, v.stdout + v.stderr


@pytest.mark.parametrize("args,message", [
    (["--tables", "0"], "--tables: at least one table, got 0"),
    (["--tables", "1", "--faults", "jamm"], "--faults: unknown fault 'jamm'"),
    (["--tables", "1", "--fault-rate", "2"], "--fault-rate: a probability from 0 to 1, got 2"),
    (["--tables", "1", "--pty", "/nonexistent"], "--pty: /nonexistent is not a folder"),
])
def test_simulate_floor_bad_input_exits_2(tmp_path, args, message):
    env = {"PITDESK_HOME": str(tmp_path / "home"), "PATH": ""}
    p = subprocess.run([PITDESK, "simulate", "floor", "--seconds", "1", *args], capture_output=True, text=True,
                       env=env, timeout=30)
    assert p.returncode == 2 and message in p.stderr, p.stderr
