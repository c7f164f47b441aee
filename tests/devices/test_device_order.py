"""The workstation passes on a device's messages once each and in the device's order, and names every
frame the device gave up as a gap (docs/devices.md, "The session": "In order, once each").

Pure: the session is fed bytes with the time, as the link runner would."""

from app.devices.frame import Decoder, encode
from app.devices.messages import decode_message, encode_message
from app.devices.session import DEGRADED, OFFLINE, ONLINE, Deliver, Log, Send, Session, StateChanged


def wire(name, seq, **values) -> bytes:
    return encode(encode_message(name, seq, **values))


def sent(outputs) -> list[dict]:
    d = Decoder()
    return [decode_message(f) for o in outputs if isinstance(o, Send) for f in d.feed(o.data)]


def acked(outputs) -> list[int]:
    return [m["acked"] for m in sent(outputs) if m["type"] == "ack"]


def delivered(outputs) -> list[int]:
    return [o.message["seq"] for o in outputs if isinstance(o, Deliver)]


def story(outputs) -> list:
    """What the application hears, in order: ("deliver", seq), ("gap", first, count), ("state", new)."""
    out = []
    for o in outputs:
        if isinstance(o, Deliver):
            out.append(("deliver", o.message["seq"]))
        elif type(o).__name__ == "Gap":
            out.append(("gap", o.first_seq, o.count))
        elif isinstance(o, StateChanged):
            out.append(("state", o.new))
    return out


def online(hello_seq=40, t=0.0, s=None) -> Session:
    s = s or Session("COM3", "WS-1", "1.0")
    s.opened(t)
    s.received(t + 0.01, wire("ack", 0, acked=0) + wire("hello", hello_seq, device="shuffler", serial="SHF-7",
                                                         firmware="2.1"))
    assert s.state == ONLINE
    return s


def test_a_frame_sent_again_after_later_ones_is_passed_on_before_them():
    # the shuffler's card_count (41) was lost on the line; its shuffle_completed (42) arrives first, then the
    # retransmitted count: the workstation hears the count first (001 11.17(i), docs/devices.md "Simulators")
    s = online()
    out = s.received(0.1, wire("shuffle_completed", 42, deck="red"))
    assert delivered(out) == [] and acked(out) == [42]   # acknowledged, so the device does not send it again
    out = s.received(0.2, wire("hands_dispensed", 43, deck="red", hands=7, cards_per_hand=7))
    assert delivered(out) == [] and acked(out) == [43]
    out = s.received(0.4, wire("card_count", 41, deck="red", count=53))
    assert [o.message["type"] for o in out if isinstance(o, Deliver)] == ["card_count", "shuffle_completed",
                                                                           "hands_dispensed"]
    assert acked(out) == [41]
    # a copy of 42 still on the line: acknowledged again, not passed on twice
    out = s.received(0.5, wire("shuffle_completed", 42, deck="red"))
    assert delivered(out) == [] and acked(out) == [42] and s.counters.duplicates == 1
    assert s.counters.delivered == 3


def test_a_frame_the_device_gave_up_is_a_gap_in_its_place():
    s = online()
    s.received(0.1, wire("shuffle_completed", 42, deck="red"))          # 41 lost four times
    # the device's heartbeat carries its window base: 43, so 41 was given up (42 was acknowledged)
    out = s.received(1.5, wire("heartbeat", 43, uptime_s=2))
    assert story(out) == [("gap", 41, 1), ("state", DEGRADED), ("deliver", 42)]
    gap = next(o for o in out if type(o).__name__ == "Gap")
    assert "given up" in gap.reason
    assert s.counters.gaps == 1
    # a stray copy of 41 after its gap: too late to pass on, and not acknowledged (it was not passed on)
    out = s.received(1.6, wire("card_count", 41, deck="red", count=53))
    assert delivered(out) == [] and acked(out) == [] and s.counters.late == 1
    assert delivered(s.received(1.7, wire("hands_dispensed", 43, deck="red", hands=7, cards_per_hand=7))) == [43]


def test_a_frame_eight_ahead_shows_the_missing_one_left_the_devices_window():
    # a device sends frame S only while S is within 8 of its oldest unacknowledged frame: frame 49 proves
    # 41 was given up, even before the device says so in a heartbeat
    s = online()
    for seq in range(42, 49):
        assert delivered(s.received(0.1, wire("rng_number", seq, number=seq % 7 + 1))) == []
    out = s.received(0.2, wire("rng_number", 49, number=1))
    assert [x for x in story(out) if x[0] != "state"] == [("gap", 41, 1)] + [("deliver", k) for k in range(42, 50)]


def test_a_lost_link_passes_on_what_arrived_and_names_what_did_not_before_going_offline():
    s = online()
    s.received(0.1, wire("rng_number", 42, number=3))
    s.received(0.2, wire("rng_number", 44, number=5))
    out = s.lost(0.3, "socket disconnected")
    assert story(out) == [("gap", 41, 1), ("deliver", 42), ("gap", 43, 1), ("deliver", 44), ("state", OFFLINE)]


def test_frames_in_flight_when_the_link_went_are_a_gap_after_the_next_hello():
    s = online()
    assert delivered(s.received(0.1, wire("rng_number", 41, number=3))) == [41]
    s.lost(0.2, "socket disconnected")                 # 42 and 43 were on their way
    t = s.retry_at
    s.opened(t)
    # the device's numbering runs on across connections: its hello is 44
    out = s.received(t + 0.1, wire("hello", 44, device="shuffler", serial="SHF-7", firmware="2.1"))
    assert story(out) == [("gap", 42, 2), ("state", ONLINE)]
    assert s.state == ONLINE and delivered(s.received(t + 0.2, wire("rng_number", 45, number=2))) == [45]


def test_the_devices_hello_is_where_its_numbering_starts():
    s = Session("COM3")
    s.opened(0.0)
    s.received(0.05, wire("hello", 40, device="rng", serial="RNG-1", firmware="1"))
    # a frame from before the hello (sent to a workstation that is gone): neither acknowledged nor passed on
    out = s.received(0.1, wire("rng_number", 38, number=2))
    assert delivered(out) == [] and acked(out) == []
    assert delivered(s.received(0.2, wire("rng_number", 41, number=2))) == [41]


def test_a_device_that_numbers_afresh_is_logged_and_followed():
    s = online()
    s.received(0.1, wire("rng_number", 41, number=3))
    s.lost(0.2, "socket disconnected")
    s.opened(s.retry_at)
    # a hello far behind where the numbering stood: the device restarted, not 200 frames lost
    out = s.received(s.retry_at + 0.1, wire("hello", 0, device="shuffler", serial="SHF-7", firmware="2.1"))
    assert [x for x in story(out) if x[0] == "gap"] == []
    assert any("numbering" in o.text for o in out if isinstance(o, Log)) and s.state == ONLINE
    assert delivered(s.received(s.retry_at + 0.2, wire("rng_number", 1, number=2))) == [1]


def test_a_device_that_restarts_on_an_open_serial_line_is_followed():
    s = online()
    for seq in range(41, 45):
        s.received(0.1, wire("rng_number", seq, number=3))
    # a stray copy of an old hello, within a window behind: neither taken nor acknowledged
    out = s.received(0.2, wire("hello", 38, device="shuffler", serial="SHF-7", firmware="2.1"))
    assert acked(out) == [] and [o for o in out if isinstance(o, Log)] == [] and s.counters.late == 1
    # the device power-cycled, the port stayed open: it numbers from 0 again
    out = s.received(0.3, wire("hello", 0, device="shuffler", serial="SHF-7", firmware="2.1"))
    assert acked(out) == [0] and any("numbering went back from 45 to 0" in o.text for o in out if isinstance(o, Log))
    assert delivered(s.received(0.4, wire("rng_number", 1, number=2))) == [1]


def test_a_hello_from_another_device_on_the_port_starts_its_own_numbering():
    s = online()
    s.received(0.1, wire("rng_number", 42, number=3))        # held: 41 is missing
    out = s.received(0.2, wire("hello", 7, device="shuffler", serial="SHF-8", firmware="2.1"))
    assert story(out)[:2] == [("gap", 41, 1), ("deliver", 42)]   # the old device's frames settled first
    assert s.device_serial == "SHF-8"
    assert delivered(s.received(0.3, wire("rng_number", 8, number=2))) == [8]


def test_our_link_frames_carry_our_oldest_unacknowledged_seq():
    # so the device learns which of our frames we gave up, as we learn it from its link frames
    s = online()
    first = sent(s.send(1.0, "hello", device="pitdesk", serial="WS-1", firmware="1.0"))[0]
    sent(s.send(1.0, "hello", device="pitdesk", serial="WS-1", firmware="1.0"))
    ack = sent(s.received(1.1, wire("rng_number", 41, number=4)))
    assert [(m["type"], m["seq"]) for m in ack] == [("ack", first["seq"])]


def test_policy_window_is_a_range_of_seqs():
    s = online()
    first = sent(s.send(1.0, "hello", device="pitdesk", serial="WS-1", firmware="1.0"))[0]["seq"]
    for _ in range(7):
        s.send(1.0, "hello", device="pitdesk", serial="WS-1", firmware="1.0")
    # the second to eighth are acknowledged, the first is not: the next SEQ would be 8 past the first
    for k in range(1, 8):
        s.received(1.1, wire("ack", 41, acked=(first + k) % 256))
    try:
        s.send(1.2, "hello", device="pitdesk", serial="WS-1", firmware="1.0")
    except OverflowError as e:
        assert "window" in str(e) or "await" in str(e)
    else:
        raise AssertionError("a ninth frame 8 past the oldest unacknowledged one was sent")
