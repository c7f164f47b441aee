"""The workstation's session state machine (docs/devices.md, "The session"), to the millisecond:
pure, so time is whatever the test says."""

import re
from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.devices.frame import Decoder, encode
from app.devices.messages import decode_message, encode_message
from app.devices.frame import Frame
from app.devices.session import (CONNECTING, DEGRADED, NAK_BAD_FRAME, NAK_BAD_PAYLOAD, NAK_UNKNOWN, OFFLINE,
                                 ONLINE, Close, Deliver, Log, Policy, Send, Session, StateChanged)


def wire(name, seq, **values) -> bytes:
    return encode(encode_message(name, seq, **values))


def sent(outputs) -> list[dict]:
    """The messages in the Send outputs, decoded as the device would."""
    d = Decoder()
    return [decode_message(f) for o in outputs if isinstance(o, Send) for f in d.feed(o.data)]


def delivered(outputs) -> list[dict]:
    return [o.message for o in outputs if isinstance(o, Deliver)]


def states(outputs) -> list[str]:
    return [o.new for o in outputs if isinstance(o, StateChanged)]


def logs(outputs) -> list[str]:
    return [o.text for o in outputs if isinstance(o, Log)]


def online(t=0.0) -> Session:
    s = Session("COM3", "WS-1", "1.0")
    out = s.opened(t)
    assert states(out) == [CONNECTING]
    hello = sent(out)
    assert [m["type"] for m in hello] == ["hello"] and hello[0]["device"] == "pitdesk"
    assert hello[0]["serial"] == "WS-1"
    out = s.received(t + 0.01, wire("ack", 0, acked=hello[0]["seq"]) + wire("hello", 40, device="shuffler",
                                                                               serial="SHF-7", firmware="2.1"))
    assert states(out) == [ONLINE] and s.device == "shuffler" and s.device_serial == "SHF-7"
    assert [(m["type"], m.get("acked")) for m in sent(out)] == [("ack", 40)]
    return s


def test_connect_says_hello_and_goes_online_on_the_devices_hello():
    s = online()
    assert s.counters.connects == 1 and s.counters.given_up == 0


def test_device_messages_are_acknowledged_and_passed_on_once():
    s = online()
    out = s.received(0.1, wire("card_count", 41, deck="red", count=53))
    assert delivered(out) == [{"type": "card_count", "device": "shuffler", "seq": 41, "deck": "red", "count": 53}]
    assert [(m["type"], m["acked"]) for m in sent(out)] == [("ack", 41)]
    # our ack was lost, the device sends 41 again: acknowledged again, not passed on twice
    out = s.received(0.5, wire("card_count", 41, deck="red", count=53))
    assert delivered(out) == [] and [m["acked"] for m in sent(out)] == [41] and s.counters.duplicates == 1
    # an older frame of its window, retransmitted after a later one got through, is spotted too
    s.received(0.6, wire("shuffle_completed", 42, deck="red"))
    out = s.received(0.7, wire("card_count", 41, deck="red", count=53))
    assert delivered(out) == [] and s.counters.duplicates == 2 and s.counters.delivered == 2


def test_frames_before_the_devices_hello_are_not_acknowledged():
    s = Session("COM3")
    s.opened(0.0)
    out = s.received(0.1, wire("rng_number", 9, number=4))
    assert sent(out) == [] and delivered(out) == []   # the device will send it again


def test_a_bad_frame_is_nakked_and_five_in_ten_seconds_degrade_the_link():
    s = online()
    bad = bytearray(wire("meter", 41, cents=123_456))
    bad[-3] ^= 0xFF   # the CRC
    t = 1.0
    for k in range(4):
        out = s.received(t + k, bytes(bad))
        assert [(m["type"], m["reason"]) for m in sent(out)] == [("nak", NAK_BAD_FRAME)]
        assert s.state == ONLINE
    out = s.received(t + 4, bytes(bad))
    assert states(out) == [DEGRADED] and "5 faults in 10 s" in [o.reason for o in out
                                                               if isinstance(o, StateChanged)][0]
    assert s.counters.frames_rejected == 5
    # the first is logged in full, the repeats counted
    # a sound frame less than 3 s after the last fault: still degraded; after 3 s: online
    assert states(s.received(t + 5, wire("meter", 42, cents=1))) == []
    out = s.received(t + 7.1, wire("meter", 43, cents=2))
    assert states(out) == [ONLINE]


def test_unknown_messages_and_bad_payloads_are_nakked_by_reason():
    s = online()
    unknown = encode(Frame(41, 0x7E, b""))
    out = s.received(0.2, unknown)
    assert [(m["nakked"], m["reason"]) for m in sent(out)] == [(41, NAK_UNKNOWN)]
    assert logs(out) == ["COM3: frame 41: unknown message type 0x7e"]
    short = encode(Frame(42, 0x40, b"\x00\x01"))   # a meter needs eight bytes of cents
    out = s.received(0.3, short)
    assert [(m["nakked"], m["reason"]) for m in sent(out)] == [(42, NAK_BAD_PAYLOAD)]
    assert logs(out) == []   # the same kind of failure again: counted, not logged again
    assert delivered(out) == [] and s.counters.bad_messages == 2


def test_silence_degrades_then_closes_and_reconnects_with_exponential_backoff():
    s = online()
    s.received(1.0, wire("heartbeat", 41, uptime_s=5))
    assert states(s.tick(3.9)) == []
    assert states(s.tick(4.0)) == [DEGRADED]
    out = s.tick(11.0)
    assert states(out) == [OFFLINE] and any(isinstance(o, Close) for o in out)
    assert s.retry_at == pytest.approx(11.5) and not s.ready_to_open(11.4) and s.ready_to_open(11.5)
    # the port will not open: 1, 2, 4 ... up to 30 s apart
    t, gaps = 11.5, []
    for _ in range(8):
        s.open_failed(t, "[Errno 111] Connection refused")
        gaps.append(s.retry_at - t)
        t = s.retry_at
    assert gaps == [1, 2, 4, 8, 16, 30, 30, 30]
    # back: the backoff starts again at 0.5 s
    s.opened(t)
    s.received(t + 0.1, wire("hello", 0, device="shuffler", serial="SHF-7", firmware="2.1"))
    assert s.state == ONLINE
    s.lost(t + 1, "socket disconnected")
    assert s.retry_at - (t + 1) == 0.5


def test_the_first_failure_is_logged_and_repeats_are_counted():
    s = Session("socket://10.0.0.9:4001")
    first = s.open_failed(0.0, "[Errno 111] Connection refused")
    assert logs(first) == ["socket://10.0.0.9:4001: cannot open the port: [Errno 111] Connection refused"]
    quiet = [s.open_failed(t, "[Errno 111] Connection refused") for t in (1.0, 2.0, 3.0)]
    assert all(logs(o) == [] for o in quiet)
    out = s.opened(4.0)   # the state changes: the count is reported
    assert logs(out) == ["socket://10.0.0.9:4001: cannot open the port: [Errno 111] Connection refused: "
                         "and 3 more times"]


def test_our_frames_are_retransmitted_three_times_then_given_up_and_the_link_degrades():
    s = online()
    out = s.send(1.0, "hello", device="pitdesk", serial="WS-1", firmware="1.0")
    seq = sent(out)[0]["seq"]
    last = 1.0
    for _ in range(3):   # 0.3 s after each sending
        due = last + 0.3
        # alive, just not acknowledging; a device's link frames carry its window base (its next SEQ here)
        s.received(due - 0.01, wire("heartbeat", 41, uptime_s=1))
        assert [m for m in sent(s.tick(due - 0.01)) if m["type"] == "hello"] == []
        last = due + 0.001
        again = [m for m in sent(s.tick(last)) if m["type"] == "hello"]
        assert [m["seq"] for m in again] == [seq] and s.state == ONLINE
    s.received(last + 0.29, wire("heartbeat", 41, uptime_s=1))
    assert states(s.tick(last + 0.29)) == []
    out = s.tick(last + 0.301)
    assert states(out) == [DEGRADED] and "frame %d was never acknowledged after 3 retransmissions" % seq in \
        [o.reason for o in out if isinstance(o, StateChanged)][0]
    assert s.counters.retransmitted == 3 and s.counters.given_up == 1


def test_a_nak_for_a_bad_frame_sends_the_oldest_unacknowledged_frame_again():
    s = online()
    a = sent(s.send(1.0, "hello", device="pitdesk", serial="WS-1", firmware="1.0"))[0]
    b = sent(s.send(1.1, "hello", device="pitdesk", serial="WS-1", firmware="1.0"))[0]   # younger
    out = s.received(1.15, wire("nak", 41, nakked=0, reason=NAK_BAD_FRAME))
    assert [(m["type"], m["seq"]) for m in sent(out)] == [("hello", a["seq"])]
    # the first acknowledged: only the second is left to send again
    s.received(1.2, wire("ack", 41, acked=a["seq"]))
    assert [m["seq"] for m in sent(s.tick(2.0)) if m["type"] == "hello"] == [b["seq"]]


def test_no_hello_from_the_device_after_three_tries_is_offline():
    s = Session("/dev/ttyUSB0")
    s.opened(0.0)
    hellos = []
    t = 0.0
    out = []
    while s.state == CONNECTING:
        t = round(t + 0.1, 1)
        out = s.tick(t)
        hellos += [t for m in sent(out) if m["type"] == "hello"]
    assert s.state == OFFLINE and t == 3.0
    assert "no hello from the device after 3 tries" in " ".join(logs(out))
    assert any(isinstance(o, Close) for o in out)


def test_heartbeat_after_a_second_without_sending():
    s = online()
    assert [m["type"] for m in sent(s.tick(0.5))] == []
    s.received(0.6, wire("heartbeat", 41, uptime_s=1))   # heartbeats are not acknowledged
    assert [m["type"] for m in sent(s.tick(1.02))] == ["heartbeat"]
    assert [m["type"] for m in sent(s.tick(1.5))] == []


def test_the_window_is_eight_frames():
    s = online()
    for k in range(7):   # the hello sent on connect is acked; eight may be outstanding
        s.send(1.0, "hello", device="pitdesk", serial="WS-1", firmware="1.0")
    s.send(1.0, "hello", device="pitdesk", serial="WS-1", firmware="1.0")
    with pytest.raises(OverflowError, match="8 frames already await an acknowledgement"):
        s.send(1.0, "hello", device="pitdesk", serial="WS-1", firmware="1.0")


def test_policy_numbers_match_the_protocol_document():
    p = Policy()
    assert (p.ack_timeout_s, p.max_retries, p.window, p.heartbeat_s) == (0.3, 3, 8, 1.0)
    assert (p.degraded_after_s, p.offline_after_s, p.backoff_first_s, p.backoff_max_s) == (3.0, 10.0, 0.5, 30.0)
    # and every field against the table of numbers in docs/devices.md, "The session"
    doc = (Path(__file__).parents[2] / "docs" / "devices.md").read_text()
    table = {m["field"]: float(m["value"]) for m in re.finditer(
        r"^\| [^|]+ \| (?P<value>[\d.]+)(?: s)? \| `(?P<field>\w+)` \|$", doc, re.M)}
    assert table == {f.name: float(getattr(p, f.name)) for f in fields(Policy)}


MESSAGES = st.sampled_from([("card_count", {"deck": "red", "count": 53}), ("meter", {"cents": 1_234_567}),
                            ("rng_number", {"number": 5}), ("jam", {"code": 7, "text": "card path"}),
                            ("shuffle_completed", {"deck": "blue"})])


@settings(max_examples=150, deadline=None)
@given(st.lists(MESSAGES, min_size=1, max_size=25), st.data())
def test_split_and_noisy_streams_deliver_each_message_once_in_order(messages, data):
    s = online()
    stream = b""
    expected = []
    for k, (name, values) in enumerate(messages):
        seq = (41 + k) % 256
        frame = wire(name, seq, **values)
        stream += frame
        if data.draw(st.booleans(), "repeat"):
            stream += frame              # a retransmission
        # noise without a start byte: it can never cut a frame
        stream += data.draw(st.binary(max_size=6).map(lambda b: b.replace(b"\x02", b"")), "noise")
        expected.append({"type": name, "seq": seq, **values})
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=10), "cuts"))
    got = []
    for a, b in zip([0] + cuts, cuts + [len(stream)]):
        got += delivered(s.received(1.0, stream[a:b]))
    assert [{k: v for k, v in m.items() if k != "device"} for m in got] == expected


def test_a_reader_blocks_until_the_sessions_next_timer():
    """Session.wake_at: the link's reader waits on its port until a hello, a retransmission, a
    heartbeat or a silence is due, not a fixed short time (docs/devices.md, "The session")."""
    p = Policy()
    s = Session("COM3", "WS-1", "1.0")
    assert s.wake_at(5.0) == 5.0                                  # offline: opening is the runner's timer
    s.opened(0.0)
    # connecting: our hello awaits its ack, then the next hello is due
    assert s.wake_at(0.1) == pytest.approx(min(p.ack_timeout_s, p.hello_every_s))
    s = online(0.0)
    assert s.wake_at(0.02) == pytest.approx(min(0.01 + p.heartbeat_s, 0.01 + p.degraded_after_s))
    s.send(0.5, "deck_colour", deck="A", colour="red")
    assert s.wake_at(0.5) == pytest.approx(0.5 + p.ack_timeout_s)  # the retransmission first
