"""A device's repeated alarms and faults thinned to two rows a second, the latest kept and the
count said (app/workstation/repeats.py; docs/devices.md, "Bounded input"; issue 26). The
thinning is pure (the arrival times are the test's); the pit writes through a real audit log."""

from datetime import datetime, timedelta

import pytest

from app.devices.link import DeviceMessage
from app.devices.messages import decode_message, encode_message
from app.store import rows
from app.workstation.pit import Pit, TableConfig
from app.workstation.repeats import Repeats

T0 = datetime(2026, 11, 28, 20, 0)


def at(ms):
    return T0 + timedelta(milliseconds=ms)


def s_(ms):
    """The monotonic seconds a message arrived at."""
    return 100.0 + ms / 1000


def low(ms, serial="PRG-1"):
    return rows.alarm_raised(at(ms), "T1", "meter_rate", "seat 1's progressive wager moved the meter $0.05",
                             "000(q)(5)", serial, serial)


def test_the_first_is_written_at_once_the_rest_held_and_the_latest_written_with_the_count():
    r = Repeats(every_s=0.5)
    assert r.offer("increment", low(0), s_(0)) == [low(0)]
    for ms in (10, 20, 30, 40):
        assert r.offer("increment", low(ms), s_(ms)) == []
    assert r.due(s_(300)) == []
    (out,) = r.due(s_(500))
    assert out.time == at(40) and out.data["repeats"] == 3         # 10, 20 and 30 stand in its count
    assert out.data["message"].endswith("(and 3 more like it before this one, not logged one by one)")
    assert r.holding == 0 and r.due(s_(900)) == []
    # the half second runs from the row written (40 ms): one at 600 ms is written at once
    assert r.offer("increment", low(600), s_(600)) == [low(600)]


def test_a_single_repeat_is_written_as_it_came_and_every_alarm_is_counted():
    r = Repeats(every_s=0.5)
    r.offer("increment", low(0), s_(0))
    r.offer("increment", low(100), s_(100))
    assert r.due(s_(500)) == [low(100)]                            # it stands for itself alone
    written = []
    for ms in range(1000, 6000, 7):                                 # 715 alarms in five seconds
        written += r.offer("increment", low(ms), s_(ms))
        if ms % 100 < 7:
            written += r.due(s_(ms))
    written += r.flush()
    assert len(written) <= 2 * 5 + 2
    assert sum(1 + w.data.get("repeats", 0) for w in written) == len(range(1000, 6000, 7))


def test_other_devices_kinds_and_rows_are_never_held_by_another_ones_run():
    r = Repeats(every_s=0.5)
    r.offer("increment", low(0), s_(0))
    assert r.offer("increment", low(1, serial="PRG-2"), s_(1)) == [low(1, serial="PRG-2")]     # another device
    door = rows.alarm_raised(at(2), "T1", "shuffler_door_open", "the shuffler's door is open", "", "PRG-1", "PRG-1")
    assert r.offer("door_open", door, s_(2)) == [door]                                        # another kind
    fault = rows.device_fault(at(3), "PRG-1", "T1", "progressive", "bad_seat", "an increment for seat 9", "PRG-1")
    assert r.offer("increment", fault, s_(3)) == [fault]                                       # another row type
    reading = rows.meter_reading(at(4), "PRG-1", "device", "T1", 1_000_000, "controller", "PRG-1")
    assert r.offer("meter", reading, s_(4)) == [reading] == r.offer("meter", reading, s_(4))   # never thinned
    misread = rows.device_fault(at(5), "SHF-1", "T1", "shuffler", "misread", "seat 2's hand", "SHF-1")
    assert r.offer("hand_read", misread, s_(5)) == [misread] and r.offer("hand_read", misread, s_(5)) == [misread]


def test_messages_that_arrive_together_are_written_as_the_first_and_one_row_with_the_count():
    # a batch put on the inbox by hand (as tests do) has no arrival time: all at 0
    r = Repeats(every_s=0.5)
    written = r.offer("increment", low(0), 0.0) + r.offer("increment", low(1), 0.0) + r.offer("increment", low(2), 0.0)
    assert written == [low(0)]
    (held,) = r.due(100.0)
    assert held.data["repeats"] == 1 and held.time == at(2)


@pytest.mark.parametrize("backlog_ms", [0, 5_000])
def test_the_pit_writes_a_run_of_repeated_alarms_as_two_rows_a_second_with_the_count(log, backlog_ms):
    # with a backlog the pump takes messages that arrived seconds ago: the half second is theirs,
    # not one row a pump
    now = [s_(0)]
    pit = Pit(log, [TableConfig("T1", "section6", {"PRG-1": "progressive"})], clock=lambda: T0,
              monotonic=lambda: now[0])

    def increment(ms, seq):
        m = decode_message(encode_message("increment", seq % 256, seat=1, cents=5))
        return DeviceMessage("socket://127.0.0.1:1", "PRG-1", "progressive", m, at(ms), s_(ms))

    sent = 0
    for tick in range(20):                                          # two seconds of arrivals, a pump each 100 ms
        now[0] = s_(tick * 100 + 99 + backlog_ms)
        pit.handle([increment(tick * 100 + k, sent + k) for k in range(50)])
        sent += 50
    assert pit.repeats.holding == 1
    pit.handle([], flush=True)                                      # at close: what is held is written
    got = log.query("SELECT json_extract(body, '$.data.kind') AS kind, IFNULL(json_extract(body, "
                    "'$.data.repeats'), 0) AS repeats FROM events WHERE type = 'alarm_raised'")
    assert {g["kind"] for g in got} == {"meter_rate"}
    assert len(got) <= 2 * 2 + 2
    assert sum(1 + g["repeats"] for g in got) == sent == 1_000
