"""Bounded device input (docs/devices.md, "Bounded input"; issue 26, finding 4): a device's broadcasts
thinned to a few a second with the count said, a sender that ignores the window cut off, a full
queue that drops and says so. The coalescer and the session are pure (time is the test's); the link
runs over a real loopback socket against a flooding controller (tests/support/flooder.py)."""

import time

from app.devices.bounded import BoundedQueue
from app.devices.coalesce import BURST, Coalescer
from app.devices.frame import encode
from app.devices.link import DeviceMessage, Link, LinkDropped, LinkState
from app.devices.messages import encode_message
from app.devices.session import OFFLINE, ONLINE, Close, Deliver, Log, Policy, Session, StateChanged
from tests.support.flooder import Flooder


def meter(cents):
    return {"type": "meter", "device": "progressive", "seq": 0, "cents": cents}


def out_msgs(released):
    return [m for m, _ in released]


# -- the coalescer -------------------------------------------------------------------------------
def test_a_run_of_meter_readings_is_thinned_to_one_a_half_second_the_latest_kept_and_counted():
    c = Coalescer(every_s=0.5)
    assert out_msgs(c.offer(0.0, meter(100))) == [meter(100)]         # the first passes at once
    for i, t in enumerate([0.01, 0.02, 0.03, 0.04]):
        assert c.offer(t, meter(101 + i)) == []                       # held, each superseding the last
    assert c.due(0.3) == []
    assert c.next_due() == 0.5
    assert out_msgs(c.due(0.5)) == [{**meter(104), "coalesced": 3}]   # 101..103 superseded by 104
    assert c.due(0.9) == [] and c.next_due() is None
    assert out_msgs(c.offer(1.0, meter(105))) == [meter(105)]         # after a quiet half second: at once


def test_a_fall_inside_a_run_is_carried_by_the_reading_kept():
    # 000(q)(5), (6): a fall is never hidden by a rise after it inside one run
    c = Coalescer(every_s=0.5)
    c.offer(0.0, meter(500))
    c.offer(0.1, meter(400))
    c.offer(0.2, meter(600))
    assert out_msgs(c.due(0.5)) == [{**meter(600), "coalesced": 1, "fell": [500, 400], "falls": 1}]


def test_any_other_message_passes_what_is_held_first_and_is_never_held():
    c = Coalescer(every_s=0.5)
    c.offer(0.0, meter(1))
    c.offer(0.1, meter(2))
    c.offer(0.2, meter(3))
    hit = {"type": "hit_pending", "device": "progressive", "seq": 0, "seat": 2, "line": "x", "cents": 5}
    assert out_msgs(c.offer(0.3, hit)) == [{**meter(3), "coalesced": 1}, hit]
    for kind in ("increment", "lockout", "acceptor_lights", "hand_read", "shuffle_started", "card_count",
                 "door_open"):
        m = {"type": kind, "seq": 0}
        assert out_msgs(c.offer(0.31, m)) == [m] and out_msgs(c.offer(0.32, m)) == [m]
    # after a hit the meter may fall once (the payout): the run after it has no baseline before the hit
    assert c.offer(0.33, meter(0)) == []
    assert "fell" not in out_msgs(c.flush())[0]


def test_a_value_already_passed_on_is_held_without_spending_so_the_next_new_value_goes_at_once():
    # the controller's broadcast between wagers says the meter it said before: news to nobody
    # (issue 33: passed on, it used the half second, and the next wager's new value waited for it)
    c = Coalescer(every_s=0.5)
    assert out_msgs(c.offer(0.0, meter(100))) == [meter(100)]
    assert c.offer(0.6, meter(100)) == [] and c.next_due() is None     # held, nothing to wake for
    assert c.due(5.0) == []
    inc = {"type": "increment", "device": "progressive", "seq": 0, "seat": 1, "cents": 21}
    assert out_msgs(c.offer(0.8, inc)) == [meter(100), inc]            # what is held goes first
    assert out_msgs(c.offer(0.9, meter(121))) == [meter(121)]          # a new value: at once
    c.offer(1.0, meter(121))
    assert out_msgs(c.offer(1.7, meter(142))) == [{**meter(142), "coalesced": 1}]   # the repeat counted


def test_a_quiet_device_passes_a_burst_of_new_values_at_once_and_then_two_a_second():
    c = Coalescer(every_s=0.5, burst=4)
    passed = [m for i in range(4) for m in out_msgs(c.offer(0.01 * i, meter(100 + i)))]
    assert passed == [meter(100 + i) for i in range(4)]                 # a round's wagers, as they come
    assert c.offer(0.05, meter(104)) == [] and c.next_due() == 0.5      # the fifth waits its half second
    assert out_msgs(c.due(0.5)) == [meter(104)]
    # a flood of new values: two a second once the budget is spent, the rest counted
    out, cents, now = [], 105, 0.5
    while now < 10.5:
        now += 0.01
        out += out_msgs(c.offer(now, meter(cents)) + c.due(now))
        cents += 1
    assert 19 <= len(out) <= 21
    assert 5 + sum(1 + m.get("coalesced", 0) for m in out + out_msgs(c.flush())) == cents - 100
    # a quiet spell fills the budget again
    assert len([m for i in range(4) for m in out_msgs(c.offer(20.0 + 0.01 * i, meter(5000 + i)))]) == 4


# -- the session: a sender that ignores the window ----------------------------------------------
def hello_read(s, now, seq=0):
    return s.received(now, encode(encode_message("hello", seq, device="progressive", serial="PRG-9", firmware="1")))


def meters_read(first_seq, n, cents=1000):
    return b"".join(encode(encode_message("meter", (first_seq + i) % 256, cents=cents + i)) for i in range(n))


def test_a_sender_that_keeps_to_the_window_is_never_cut_off_however_fast():
    s = Session("dev", policy=Policy())
    s.opened(0.0)
    hello_read(s, 0.0)
    seq, now = 1, 0.0
    for _ in range(200):      # 8 frames a read, 1,600 frames in 0.2 s: fast, but each read answers our acks
        now += 0.001
        out = s.received(now, meters_read(seq, 8))
        seq += 8
        assert len([o for o in out if isinstance(o, Deliver)]) == 8
    assert s.state == ONLINE and s.counters.overruns == 0 and s.counters.cut_off == 0


def test_a_sender_that_ignores_the_window_is_cut_off_named_and_backs_off_longer_each_time():
    p = Policy()
    s = Session("socket://dev", policy=p)
    s.opened(0.0)
    hello_read(s, 0.0)
    out = s.received(0.01, meters_read(1, 40))     # 40 new frames before any of our acks could reach it
    assert s.state == ONLINE and s.counters.overruns == 1
    out += s.received(0.02, meters_read(41, 40))
    assert s.state == ONLINE
    out += s.received(0.03, meters_read(81, 40))   # the third overrun within 10 s
    assert s.state == OFFLINE and s.counters.cut_off == 1
    assert any(isinstance(o, Close) for o in out)
    changed = [o for o in out if isinstance(o, StateChanged)][-1]
    assert changed.new == OFFLINE and "cut off" in changed.reason and "PRG-9" in changed.reason
    assert "next attempt in 0.5 s" in changed.reason
    assert any("cut off" in t for t in (o.text for o in out if isinstance(o, Log)))
    # it comes back, says hello (which resets the backoff for a device that behaves), floods again
    assert s.ready_to_open(0.6)
    s.opened(0.6)
    hello_read(s, 0.6, seq=121)
    out = []
    for k in range(3):
        out += s.received(0.61 + k / 100, meters_read(122 + 40 * k, 40))
    assert s.state == OFFLINE and s.counters.cut_off == 2
    assert "next attempt in 1 s" in [o for o in out if isinstance(o, StateChanged)][-1].reason


def test_a_cut_off_device_that_then_keeps_to_the_window_backs_off_afresh_next_time():
    p = Policy()
    s = Session("dev", policy=p)
    s.opened(0.0)
    hello_read(s, 0.0)
    for k in range(3):
        s.received(0.01 + k / 100, meters_read(1 + 40 * k, 40))
    assert s.state == OFFLINE
    s.opened(1.0)
    hello_read(s, 1.0, seq=121)
    seq = 122
    for t in range(1, 25):                 # 12 s of a well-behaved device: 8 frames every half second
        s.received(1.0 + t / 2, meters_read(seq, 8))
        s.tick(1.0 + t / 2)
        seq += 8
    out = s.lost(13.0, "gone")
    assert "next attempt in 0.5 s" in [o for o in out if isinstance(o, StateChanged)][-1].reason


# -- the bounded queue ---------------------------------------------------------------------------
def test_a_full_queue_drops_what_comes_and_says_how_many_from_whom():
    q = BoundedQueue(3, "the test's queue")
    evs = [LinkState("socket://x", "PRG-1", "progressive", "offline", "connecting", "r", None) for _ in range(5)]
    for e in evs:
        q.put(e)
    q.put(LinkState("socket://y", None, None, "offline", "connecting", "r", None))
    got = q.take()
    assert got[:3] == evs[:3]
    dropped = [e for e in got if isinstance(e, LinkDropped)]
    assert [(d.serial, d.count) for d in dropped] == [("PRG-1", 2), (None, 1)]
    assert dropped[0].text.startswith("2 events dropped from PRG-1: the test's queue was full")
    assert "socket://y" in dropped[1].text
    assert q.take() == []                     # said once


# -- the link over a real socket -------------------------------------------------------------------
def wait_for(pred, what, timeout=10.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = pred()
        if got:
            return got
        time.sleep(0.02)
    raise AssertionError(f"{what}: not within {timeout} s")


def test_a_flooding_controller_over_a_socket_is_cut_off_and_what_got_through_is_a_few_readings():
    flood = Flooder("PRG-FLOOD", ignore_acks=True).start()
    q = BoundedQueue(1000, "the test's queue")
    link = Link(flood.url, q.put, policy=Policy(backoff_first_s=5.0)).start()
    events = []
    try:
        def cut():
            events.extend(q.take())
            return [e for e in events if isinstance(e, LinkState) and e.new == OFFLINE and "cut off" in e.reason]
        wait_for(cut, "the flooder cut off")
        assert link.session.counters.cut_off == 1
        assert flood.sent > 100            # it did flood
    finally:
        link.stop()
        flood.stop()
    events.extend(q.take())
    meters = [e.message for e in events if isinstance(e, DeviceMessage) and e.message["type"] == "meter"]
    # a quiet device's budget at once (BURST), then at most one a half second, and what was held
    # when it was cut off: everything taken is accounted for
    assert 1 <= len(meters) <= BURST + 2
    assert sum(1 + m.get("coalesced", 0) for m in meters) == link.session.counters.delivered
    assert not [e for e in events if isinstance(e, LinkDropped)]
