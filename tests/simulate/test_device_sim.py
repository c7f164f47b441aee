"""Simulated devices (app/simulate/sim_device.py) on real PTYs and TCP sockets, against a raw
workstation end written here: the session rules of docs/devices.md, each device class's cycle,
every fault as it shows on the wire, and ``pitdesk simulate device``."""

from __future__ import annotations

import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
import serial

from app.cli import main
from app.devices.frame import Decoder, Frame, encode
from app.devices.messages import decode_message, encode_message
from app.engine.cards import card_str
from app.simulate.sim_device import SimDevice, SimError

PITDESK = str(Path(sys.executable).with_name("pitdesk"))
LINK = {"ack", "nak", "heartbeat"}
PACE = 0.04  # a step every 40 to 120 ms


def wait_for(fn, timeout: float = 5.0, what: str = "the condition"):
    deadline = time.monotonic() + timeout
    while True:
        value = fn()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.01)


class RawSocket:
    """socket://HOST:PORT as a plain socket: pyserial's handler takes 0.3 s to close, and the
    workstation's use of it is covered by the reconnect and command-line tests."""

    def __init__(self, url: str):
        host, port = url.removeprefix("socket://").rsplit(":", 1)
        self.sock = socket.create_connection((host, int(port)), timeout=5)

    def read(self, n: int) -> bytes:
        if not select.select([self.sock], [], [], 0.02)[0]:
            return b""
        data = self.sock.recv(n)
        if not data:
            raise OSError("the device closed the connection")
        return data

    def write(self, data: bytes) -> None:
        self.sock.sendall(data)

    def close(self) -> None:
        self.sock.close()


class Client:
    """A bare workstation end: reads frames, acks the device's (unless ``ack`` is False; "hello":
    only its hellos), naks reason 1 when its decoder refuses a candidate, and records every arrival."""

    def __init__(self, url: str, ack: bool | str = True, hello: bool = False, pyserial: bool = False):
        if url.startswith("socket://") and not pyserial:
            self.port = RawSocket(url)
        else:
            self.port = serial.serial_for_url(url, timeout=0.02)
        self.ack = ack
        self.decoder = Decoder()
        self.arrivals: list[tuple[float, dict]] = []  # every frame, repeats too
        self.chunks: list[tuple[float, int]] = []     # (time, bytes) of each read
        self.seq = 0
        self.closed = False
        self._stop = threading.Event()
        self._write = threading.Lock()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        if hello:
            self.send("hello", device="pitdesk", serial="TEST", firmware="0")

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.port.read(4096)
            except (serial.SerialException, OSError):
                self.closed = True
                return
            if not data:
                continue
            now = time.monotonic()
            self.chunks.append((now, len(data)))
            rejected = self.decoder.rejected
            frames = self.decoder.feed(data)
            if self.decoder.rejected > rejected:
                self._frame(encode_message("nak", self.seq, nakked=0, reason=1))
            for f in frames:
                msg = decode_message(f)
                self.arrivals.append((now, msg))
                if msg["type"] not in LINK and (self.ack is True or self.ack == msg["type"]):
                    self._frame(encode_message("ack", self.seq, acked=f.seq))

    def _frame(self, frame) -> None:
        with self._write:
            try:
                self.port.write(encode(frame))
            except (serial.SerialException, OSError):
                self.closed = True

    def send(self, name: str, **fields) -> None:
        self._frame(encode_message(name, self.seq, **fields))
        if name not in LINK:  # ack, nak and heartbeat carry the next SEQ without advancing it
            self.seq = (self.seq + 1) % 256

    def data(self, since: float = 0.0) -> list[dict]:
        """The device's messages in the device's order (by SEQ: a test sends fewer than 256), each
        once, link frames left out; ``since``: first arrived then or later. pyserial discards what
        arrived before the port opened, so the first frames may come by retransmission, late."""
        first: dict[int, tuple[float, dict]] = {}
        for t, m in list(self.arrivals):
            if m["type"] not in LINK:
                first.setdefault(m["seq"], (t, m))
        return [m for seq, (t, m) in sorted(first.items()) if t >= since]

    def of(self, *types: str) -> list[dict]:
        return [m for m in self.data() if m["type"] in types]

    def first_arrival(self, seq: int) -> float | None:
        return next((t for t, m in list(self.arrivals) if m["seq"] == seq and m["type"] not in LINK), None)

    def close(self) -> None:
        self._stop.set()
        self._thread.join(2)
        self.port.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@pytest.fixture
def start():
    """start(kind, **kw) -> (served, client) over TCP; everything is stopped at the end."""
    opened = []

    def _start(kind: str, client: bool = True, ack: bool | str = True, **kw):
        kw.setdefault("pace", PACE)
        kw.setdefault("fault_rate", 0)
        kw.setdefault("seed", 1)
        served = SimDevice(kind, **kw).serve_tcp("127.0.0.1", 0)
        opened.append(served)
        if not client:
            return served
        c = Client(served.url, ack=ack)
        opened.append(c)
        return served, c

    yield _start
    for x in reversed(opened):
        x.close() if isinstance(x, Client) else x.stop()


def logged(served, fault: str) -> dict:
    return wait_for(lambda: next((e for e in served.fault_log if e["fault"] == fault), None),
                    what=f"the {fault} fault to show")


# -- the session ---------------------------------------------------------------------------
def test_a_connection_starts_with_hello_and_a_host_hello_is_answered(start):
    served, c = start("shoe", serial="SHO-9")
    first = wait_for(lambda: c.data(), what="the first frame")[0]
    assert first["type"] == "hello" and first == {"type": "hello", "device": "shoe", "seq": first["seq"],
                                                   "serial": "SHO-9", "firmware": "sim-1.0"}
    c.send("hello", device="pitdesk", serial="TEST", firmware="0")
    wait_for(lambda: len(c.of("hello")) == 2, what="the answering hello")
    acks = [m for _, m in c.arrivals if m["type"] == "ack"]
    assert [a["acked"] for a in acks] == [0] and served.url.startswith("socket://127.0.0.1:")


def test_heartbeat_after_a_second_of_nothing_to_say(start):
    served, c = start("rng", pace=100)  # a number every 100 to 300 s: only heartbeats after hello
    def beats() -> list[tuple[float, dict]]:
        return [(t, m) for t, m in list(c.arrivals) if m["type"] == "heartbeat"]
    wait_for(lambda: len(beats()) >= 2, timeout=6, what="two heartbeats")
    (t1, b1), (t2, b2) = beats()[:2]
    assert t2 - t1 >= 0.8 and b2["uptime_s"] >= b1["uptime_s"]
    hello = c.of("hello")[0]
    assert b1["seq"] == b2["seq"] == (hello["seq"] + 1) % 256  # the next SEQ, not advanced


def test_a_device_says_nothing_but_hello_until_its_hello_is_acknowledged(start):
    served, c = start("shuffler", ack=False, ack_timeout=0.1)  # a hello given up every 0.4 s
    wait_for(lambda: served.stats["given_up"] >= 2, what="hellos given up")
    time.sleep(0.15)  # let the last retransmissions of those arrive
    assert {m["type"] for _, m in c.arrivals if m["type"] not in LINK} == {"hello"}
    counts = Counter(m["seq"] for _, m in c.arrivals if m["type"] not in LINK)
    # each hello at most four times, then a new one (a new SEQ) in its place
    assert max(counts.values()) == 4 and len(counts) >= 2 and served.stats["acks_received"] == 0


def test_a_host_that_acks_only_the_hello_sees_each_frame_at_most_four_times(start):
    served, c = start("shuffler", ack="hello", ack_timeout=0.1)  # a frame given up 0.4 s after it went
    wait_for(lambda: served.stats["given_up"] >= 2, what="frames given up")
    time.sleep(0.15)  # let the last retransmissions of those frames arrive
    data = [(t, m["seq"]) for t, m in c.arrivals if m["type"] not in LINK | {"hello"}]
    counts = Counter(seq for _, seq in data)
    assert max(counts.values()) == 4 and all(n <= 4 for n in counts.values())
    st = served.stats
    assert st["retransmitted"] >= 3 * st["given_up"] and st["acks_received"] == 1
    # a new SEQ stays within 8 of the oldest unacknowledged one: the ninth frame comes only once the
    # first was given up (after its third retransmission)
    order = list(dict.fromkeys(seq for _, seq in data))
    ninth = next(t for t, seq in data if seq == order[8])
    assert ninth >= [t for t, seq in data if seq == order[0]][3]
    # a give-up is said at once in a heartbeat whose SEQ is the oldest frame still unacknowledged
    beats = [m["seq"] for _, m in c.arrivals if m["type"] == "heartbeat"]
    assert any(b > order[0] for b in beats)


def test_nak_reason_1_retransmits_the_oldest_frame_at_once(start):
    served, c = start("rng", ack="hello", ack_timeout=5.0)  # no timeout retransmission within the test
    wait_for(lambda: len(c.of("rng_number")) >= 2, what="frames")
    oldest = c.of("rng_number")[0]["seq"]

    def copies() -> int:
        return sum(1 for _, m in c.arrivals if m["seq"] == oldest and m["type"] == "rng_number")
    before = copies()
    c.send("nak", nakked=0, reason=1)
    wait_for(lambda: copies() == before + 1, timeout=3, what="the oldest frame again")
    assert served.stats["naks_received"] == 1 and served.stats["retransmitted"] == 1


def test_unknown_and_malformed_host_frames_are_nakked_2_and_3(start):
    served, c = start("rng", pace=100)
    wait_for(lambda: c.of("hello"), what="hello")
    c._frame(Frame(8, 0x99, b""))         # no such message
    c._frame(Frame(9, 0x07, b"\x05ab"))   # a hello whose device text runs past the payload
    def naks() -> list[dict]:
        return [m for _, m in list(c.arrivals) if m["type"] == "nak"]
    wait_for(lambda: len(naks()) >= 2, what="two naks")
    assert {(n["nakked"], n["reason"]) for n in naks()} == {(8, 2), (9, 3)} and served.stats["acks_received"] >= 1


# -- the classes' cycles -------------------------------------------------------------------
def test_shuffler_alternates_decks_and_counts_before_completing(start):
    served, c = start("shuffler")
    wait_for(lambda: len(c.of("hands_dispensed")) >= 3, what="three rounds")
    msgs = c.data()
    assert msgs[0]["type"] == "hello"
    assert [(m["deck"], m["colour"]) for m in msgs[1:3]] == [("red", "red"), ("blue", "blue")]
    cycle = [m for m in msgs if m["type"] in ("shuffle_started", "card_count", "shuffle_completed",
                                              "hands_dispensed")]
    for i, deck in zip(range(0, 12, 4), ("red", "blue", "red")):
        started, count, completed, hands = cycle[i:i + 4]
        assert [m["type"] for m in (started, count, completed, hands)] == [
            "shuffle_started", "card_count", "shuffle_completed", "hands_dispensed"]
        assert {m["deck"] for m in (started, count, completed, hands)} == {deck}
        assert count["count"] == 53 and (hands["hands"], hands["cards_per_hand"]) == (7, 7)


def _deals(msgs: list[dict]) -> list[tuple[dict, list[dict]]]:
    """Each hands_dispensed with the hand_reads that follow it."""
    deals: list[tuple[dict, list[dict]]] = []
    for m in msgs:
        if m["type"] == "hands_dispensed":
            deals.append((m, []))
        elif m["type"] == "hand_read" and deals:
            deals[-1][1].append(m)
    return deals


@pytest.mark.parametrize("positions", [None, (1, 2, 3, 4, 5, 6, 7)])
def test_shuffler_reads_seven_hands_of_one_53_card_deck_after_dispensing_them(start, positions):
    # 000(b)(1): one deck of 52 cards and a joker; 000(j)(1), (4): seven hands of seven, one to the
    # dealer (position 0) and each seat, or 002's seven seats; 000(j)(5)(i): four cards left over
    served, c = start("shuffler", **({"positions": positions} if positions else {}))
    wait_for(lambda: len(c.of("hand_read")) >= 21, what="three rounds of hands read")
    deck53 = {card_str(k) for k in range(53)}
    for dispensed, reads in _deals(c.data())[:3]:
        assert len(reads) == 7
        assert [r["position"] for r in reads] == list(positions or range(0, 7))
        assert {r["deck"] for r in reads} == {dispensed["deck"]}
        cards = [card for r in reads for card in r["cards"]]
        assert all(len(r["cards"]) == 7 for r in reads) and len(set(cards)) == 49 and set(cards) <= deck53
    # a new order every shuffle
    firsts = [reads[0]["cards"] for _, reads in _deals(c.data())[:3]]
    assert len({tuple(f) for f in firsts}) == 3


def test_misread_reads_one_hand_short_or_a_card_twice(start):
    # docs/devices.md "Faults": the hands are sound (hands_dispensed 7 x 7), one read is not: a
    # card missed, or a card read as another of the same hand (000(j)(1); 000(b)(1))
    served, c = start("shuffler", seed=3)
    served.inject("misread")

    def misread(reads: list[dict]) -> list[dict]:
        return [r for r in reads if len(r["cards"]) != 7 or len(set(r["cards"])) != 7]
    wait_for(lambda: len([d for d in _deals(c.data()) if len(d[1]) == 7]) >= 3, what="three rounds of hands read")
    deals = [d for d in _deals(c.data()) if len(d[1]) == 7]
    bad = [k for k, (_, reads) in enumerate(deals) if misread(reads)]
    assert len(bad) == 1, "one misread, once"
    dispensed, reads = deals[bad[0]]
    (wrong,) = misread(reads)
    assert dispensed["cards_per_hand"] == 7 and len(wrong["cards"]) in (6, 7) and len(set(wrong["cards"])) == 6
    right = [card for r in reads if r is not wrong for card in r["cards"]]
    assert len(set(right)) == 42 and not set(right) & set(wrong["cards"])
    assert served.stats["faults"] == {"misread": 1}


@pytest.mark.parametrize("positions", [None, (1, 2, 3, 4, 5, 6, 7)])
def test_shoe_dispenses_seven_stacks_then_reports_four_cards(start, positions):
    served, c = start("shoe", **({"positions": positions} if positions else {}))
    wait_for(lambda: len(c.of("cards_remaining")) >= 2, what="two rounds")
    rounds = [m for m in c.data() if m["type"] in ("stack_dispensed", "cards_remaining")][:16]
    for r in (rounds[:8], rounds[8:16]):
        assert [(m["position"], m["cards"]) for m in r[:7]] == [(p, 7) for p in positions or range(0, 7)]
        assert r[7]["type"] == "cards_remaining" and r[7]["count"] == 4


def _check_meter(msgs: list[dict]) -> None:
    meter = None
    for m in msgs:
        if m["type"] == "meter":
            assert meter is None or m["cents"] == meter, "the meter is off by what was not announced"
            meter = m["cents"]
        elif m["type"] == "increment" and meter is not None:
            meter += m["cents"]
        elif m["type"] == "hit_pending":
            assert m["cents"] == meter
        elif m["type"] == "reset":
            meter = m["cents"]


def test_progressive_meter_grows_by_increments_and_rounds_lock_out(start):
    served, c = start("progressive", hit_rate=0, key_rate=0)
    wait_for(lambda: len([m for m in c.of("lockout") if not m["locked"]]) >= 2, what="two rounds")
    msgs = c.data()
    _check_meter(msgs)
    assert len(c.of("meter")) >= 3 and c.of("meter")[0]["cents"] >= 1_000_000
    seats, locked, lit = set(), False, None
    for m in msgs:
        if m["type"] == "increment":
            assert 1 <= m["seat"] <= 6 and m["cents"] == 21 and not locked  # 000(q)(2)
            seats.add(m["seat"])
        elif m["type"] == "acceptor_lights":
            assert m["lit"] == sum(1 << (s - 1) for s in seats) and m["lit"]
            assert not locked or m["lit"] == lit  # no light comes on after the lock-out (000(g)(3))
            lit = m["lit"]
        elif m["type"] == "lockout":
            assert m["locked"] != locked
            locked = m["locked"]
            seats = seats if locked else set()
    assert len([m for m in msgs if m["type"] == "lockout"]) >= 4


def test_progressive_hit_waits_for_approval_then_resets_to_the_seed(start):
    served, c = start("progressive", hit_rate=1.0, key_rate=1.0)
    wait_for(lambda: c.of("reset"), what="a reset")
    msgs = c.data()
    _check_meter(msgs)
    types = [m["type"] for m in msgs]
    hit = types.index("hit_pending")
    assert types.index("reset") > hit and c.of("reset")[0]["cents"] == 1_000_000
    assert msgs[hit]["line"] in ("natural_royal_and_pair", "five_aces_and_pair")
    assert [m["position"] for m in c.of("key_switch")][:2] == ["test", "run"]


def test_rng_shows_one_to_seven(start):
    served, c = start("rng")
    numbers = wait_for(lambda: c.of("rng_number") if len(c.of("rng_number")) >= 6 else None, what="six numbers")
    assert all(1 <= m["number"] <= 7 for m in numbers)


def test_the_same_seed_gives_the_same_messages(start):
    runs = [start("shuffler", faults={"jam", "miscount"}, fault_rate=0.5, seed=11) for _ in range(2)]
    for _, c in runs:
        wait_for(lambda c=c: len(c.data()) >= 16, what="sixteen messages")
    a, b = ([{k: v for k, v in m.items() if k != "seq"} for m in c.data()[:16]] for _, c in runs)
    assert a == b


# -- faults --------------------------------------------------------------------------------
def test_shuffler_jam_leaves_the_shuffle_incomplete(start):
    served, c = start("shuffler")
    wait_for(lambda: c.of("shuffle_started"), what="a shuffle")
    served.inject("jam")
    jam = wait_for(lambda: c.of("jam"), what="the jam")[0]
    wait_for(lambda: any(m["seq"] > jam["seq"] for m in c.of("card_count")), what="the next count")
    cycle = [m for m in c.data() if m["type"] in ("shuffle_started", "card_count", "shuffle_completed", "jam")]
    i = cycle.index(jam)
    assert cycle[i - 1]["type"] == "shuffle_started"  # jammed in the shuffle, never completed
    assert cycle[i + 1] == {**cycle[i - 1], "seq": cycle[i + 1]["seq"]}  # the same deck shuffled again
    assert jam["code"] > 0 and jam["text"] and served.stats["faults"] == {"jam": 1}


def test_shoe_jam_voids_the_round(start):
    served, c = start("shoe")
    served.inject("jam")
    jam = wait_for(lambda: c.of("shoe_jam"), what="the shoe jam")[0]
    wait_for(lambda: len(c.of("cards_remaining")) >= 1 and c.of("cards_remaining")[-1]["seq"] > jam["seq"],
             what="a full round after the jam")
    flow = [m for m in c.data() if m["type"] in ("stack_dispensed", "cards_remaining", "shoe_jam")]
    i = flow.index(jam)
    before = []  # the stacks of the jammed round
    for m in reversed(flow[:i]):
        if m["type"] != "stack_dispensed":
            break
        before.insert(0, m["position"])
    assert before == list(range(len(before))) and len(before) < 7  # no cards_remaining: void
    assert flow[i + 1]["type"] == "stack_dispensed" and flow[i + 1]["position"] == 0


def test_miscount_is_a_count_other_than_53_and_that_deck_deals_no_hands(start):
    served, c = start("shuffler")
    served.inject("miscount")
    bad = wait_for(lambda: [m for m in c.of("card_count") if m["count"] != 53], what="a miscount")[0]
    wait_for(lambda: any(m["seq"] > bad["seq"] for m in c.of("hands_dispensed")), what="the next hands")
    after = [m for m in c.data() if m["seq"] > bad["seq"] and m["type"] in ("shuffle_completed", "hands_dispensed",
                                                                             "shuffle_started")]
    assert bad["count"] in (52, 54)
    assert after[0] == {"type": "shuffle_completed", "device": "shuffler", "seq": after[0]["seq"], "deck": bad["deck"]}
    assert after[1]["type"] == "shuffle_started" and after[1]["deck"] != bad["deck"]


def test_content_faults_only_where_the_class_has_a_message():
    with pytest.raises(SimError, match="fault 'jam' does not apply to the progressive"):
        SimDevice("progressive", faults={"jam"})
    with pytest.raises(SimError, match="fault 'miscount' does not apply to the shoe"):
        SimDevice("shoe").inject("miscount")
    with pytest.raises(SimError, match=r"fault 'misread' does not apply to the rng.*\(misread is for: shuffler\)"):
        SimDevice("rng", faults="misread")
    with pytest.raises(SimError, match=r"unknown fault 'jamm' \(one of: jam, miscount, misread, garbage, bad-crc, drop, "
                                       r"silence, slow\)"):
        SimDevice("shuffler", faults=["jamm"])
    with pytest.raises(SimError, match="unknown device 'dealer'"):
        SimDevice("dealer")


def test_garbage_is_refused_and_the_next_frames_decode(start):
    served, c = start("rng")
    wait_for(lambda: c.of("hello"), what="hello")
    served.inject("garbage")
    g = logged(served, "garbage")
    wait_for(lambda: len(c.data(since=g["at"])) >= 3, what="frames after the garbage")
    assert c.decoder.garbage >= g["bytes"] > 0 and served.stats["faults"] == {"garbage": 1}


def test_bad_crc_is_refused_then_the_same_seq_arrives_sound(start):
    served, c = start("rng")
    wait_for(lambda: c.of("hello"), what="hello")
    served.inject("bad-crc")
    bad = logged(served, "bad-crc")
    good = wait_for(lambda: [m for m in c.data() if m["seq"] == bad["seq"]], what="the frame retransmitted")[0]
    assert c.decoder.rejected >= 1 and good["type"] == "rng_number"
    assert served.stats["naks_received"] >= 1 and served.stats["retransmitted"] >= 1


def test_a_dropped_frame_arrives_after_the_ack_timeout(start):
    served, c = start("rng")
    wait_for(lambda: c.of("hello"), what="hello")
    served.inject("drop")
    drop = logged(served, "drop")
    arrived = wait_for(lambda: c.first_arrival(drop["seq"]), what="the dropped frame")
    assert arrived - drop["at"] >= 0.25 and c.decoder.rejected == 0


def test_silence_sends_nothing_for_the_window_then_resumes(start):
    served, c = start("progressive", silence=1.5)
    wait_for(lambda: c.of("meter"), what="a meter")
    served.inject("silence")
    s = logged(served, "silence")
    assert s["seconds"] == 1.5
    wait_for(lambda: c.data(since=s["at"] + 1.5), what="frames after the silence")
    quiet = [t for t, _ in c.chunks if s["at"] + 0.1 < t < s["at"] + 1.4]
    assert quiet == []


def test_slow_bytes_still_decode(start):
    served, c = start("shoe", slow=1.0)
    wait_for(lambda: c.of("hello"), what="hello")
    served.inject("slow")
    s = logged(served, "slow")
    wait_for(lambda: c.data(since=s["at"] + 1.0), what="frames after the slow spell")
    during = [m for m in c.data(since=s["at"] + 0.05) if c.first_arrival(m["seq"]) < s["at"] + 1.0]
    chunks = [n for t, n in c.chunks if s["at"] + 0.05 < t < s["at"] + 1.0]
    assert during and len(chunks) > len(during) and c.decoder.rejected == 0


def test_faults_drawn_at_random_each_round(start):
    served, c = start("shuffler", faults={"jam", "miscount"}, fault_rate=1.0, seed=5)
    wait_for(lambda: c.of("jam") and [m for m in c.of("card_count") if m["count"] != 53], what="a jam and a miscount")
    assert set(served.stats["faults"]) == {"jam", "miscount"}


# -- transports ----------------------------------------------------------------------------
def test_tcp_reconnect_starts_with_hello_again_and_the_newest_connection_wins(start):
    served = start("rng", client=False)
    with Client(served.url, pyserial=True) as c1:
        wait_for(lambda: c1.of("hello"), what="hello")
    with Client(served.url) as c2:
        wait_for(lambda: c2.of("hello"), what="hello on the second connection")
        with Client(served.url) as c3:
            wait_for(lambda: c3.of("hello"), what="hello on the third connection")
            wait_for(lambda: c2.closed, what="the second connection closed")
    assert served.stats["connections"] == 3


def test_pty_symlink_reopen_and_cleanup(tmp_path):
    path = tmp_path / "shuffler"
    path.symlink_to("/nonexistent")  # an old symlink is replaced
    served = SimDevice("shuffler", pace=PACE, fault_rate=0, seed=2).serve_pty(str(path))
    try:
        pts = os.readlink(path)
        assert pts.startswith("/dev/pts/") and served.url == str(path)
        assert served.info == {"device": "shuffler", "serial": "SHF-1", "port": str(path), "pts": pts,
                               "url": str(path)}
        for _ in range(2):  # close and reopen: frames flow again
            with Client(str(path), hello=True) as c:
                wait_for(lambda c=c: c.of("hello"), what="the device's hello")
                wait_for(lambda c=c: len(c.of("shuffle_started")) >= 2, what="shuffles")
    finally:
        served.stop()
    assert not path.exists() and not path.is_symlink()
    regular = tmp_path / "file"
    regular.write_text("keep me")
    with pytest.raises(SimError, match="not a symlink"):
        SimDevice("rng").serve_pty(str(regular))
    assert regular.read_text() == "keep me"


# -- the command line ----------------------------------------------------------------------
def _first_line(proc, timeout: float = 10.0) -> dict:
    ready, _, _ = select.select([proc.stdout], [], [], timeout)
    assert ready, "no JSON line from pitdesk simulate device"
    return json.loads(proc.stdout.readline())


def test_cli_listen_prints_where_injects_from_stdin_and_exits_0_on_sigterm():
    proc = subprocess.Popen([PITDESK, "simulate", "device", "shuffler", "--listen", "127.0.0.1:0",
                             "--pace", str(PACE), "--fault-rate", "0", "--serial", "SHF-CLI"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        info = _first_line(proc)
        host, port = info["listen"].rsplit(":", 1)
        assert info == {"device": "shuffler", "serial": "SHF-CLI", "listen": f"127.0.0.1:{port}",
                        "url": f"socket://127.0.0.1:{port}"} and int(port) > 0
        with Client(info["url"]) as c:
            assert wait_for(lambda: c.of("hello"), what="hello")[0]["serial"] == "SHF-CLI"
            proc.stdin.write("jamm\njam\n")
            proc.stdin.flush()
            wait_for(lambda: c.of("jam"), what="the jam read from stdin")
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
    finally:
        proc.kill() if proc.poll() is None else None
    assert proc.returncode == 0 and out == "" and "Traceback" not in err
    assert "unknown fault 'jamm'" in err and "injected jam" in err


def test_cli_port_makes_the_symlink_and_removes_it_on_sigint(tmp_path):
    path = tmp_path / "shoe"
    proc = subprocess.Popen([PITDESK, "simulate", "device", "shoe", "--port", str(path), "--pace", str(PACE)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        info = _first_line(proc)
        assert info["port"] == str(path) and info["pts"] == os.readlink(path) and info["serial"] == "SHO-1"
        with Client(str(path), hello=True) as c:
            wait_for(lambda: c.of("stack_dispensed"), what="a stack")
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=10)
    finally:
        proc.kill() if proc.poll() is None else None
    assert proc.returncode == 0 and "Traceback" not in err and not path.is_symlink()


@pytest.mark.parametrize("argv, message", [
    (["shuffler", "--listen", "127.0.0.1:0", "--faults", "jam,jamm"],
     "--faults: unknown fault 'jamm' (one of: jam, miscount, misread, garbage, bad-crc, drop, silence, slow)"),
    (["progressive", "--listen", "127.0.0.1:0", "--faults", "jam"],
     "--faults: fault 'jam' does not apply to the progressive"),
    (["rng", "--listen", "127.0.0.1:0", "--faults", "miscount"],
     "--faults: fault 'miscount' does not apply to the rng"),
    (["rng", "--listen", "x"], "--listen: expected HOST:PORT, got 'x'"),
    (["rng", "--listen", "127.0.0.1:99999"], "--listen: expected HOST:PORT, got '127.0.0.1:99999'"),
    (["rng", "--listen", "127.0.0.1:0", "--pace", "0"], "--pace: the pace is a multiplier more than 0"),
    (["rng", "--listen", "127.0.0.1:0", "--fault-rate", "2"], "--fault-rate: the fault rate is a probability"),
    (["rng", "--listen", "127.0.0.1:0", "--silence", "soon"], "--silence: expected seconds MIN-MAX"),
])
def test_cli_bad_input_exits_2_naming_the_fault(argv, message, capsys):
    assert main(["simulate", "device", *argv]) == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("argv", [
    ["shuffler"],                                                   # neither --port nor --listen
    ["shuffler", "--port", "/tmp/x", "--listen", "127.0.0.1:0"],   # both
    ["dealer", "--listen", "127.0.0.1:0"],                          # no such device
])
def test_cli_usage_errors_exit_2(argv, capsys):
    with pytest.raises(SystemExit) as e:
        main(["simulate", "device", *argv])
    assert e.value.code == 2 and "error" in capsys.readouterr().err


def test_cli_refuses_to_replace_a_regular_file(tmp_path, capsys):
    regular = tmp_path / "port"
    regular.write_text("")
    assert main(["simulate", "device", "rng", "--port", str(regular)]) == 2
    assert "--port: " in capsys.readouterr().err and regular.is_file()
