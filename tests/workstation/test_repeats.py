"""A device's repeated alarms and faults thinned to two rows a second, the latest kept and the
count said (app/workstation/repeats.py; docs/devices.md, "Bounded input"; issue 26). The
thinning is pure (the rows' times are the test's); the pit writes through a real audit log."""

from datetime import datetime, timedelta

from app.devices.link import DeviceMessage
from app.devices.messages import decode_message, encode_message
from app.store import rows
from app.workstation.pit import Pit, TableConfig
from app.workstation.repeats import Repeats

T0 = datetime(2026, 11, 28, 20, 0)


def at(ms):
    return T0 + timedelta(milliseconds=ms)


def low(ms, serial="PRG-1"):
    return rows.alarm_raised(at(ms), "T1", "meter_rate", "seat 1's progressive wager moved the meter $0.05",
                             "000(q)(5)", serial, serial)


def test_the_first_is_written_at_once_the_rest_held_and_the_latest_written_with_the_count():
    r = Repeats(every_s=0.5)
    assert r.offer("increment", low(0)) == [low(0)]
    for ms in (10, 20, 30, 40):
        assert r.offer("increment", low(ms)) == []
    assert r.due(at(300)) == []
    (out,) = r.due(at(500))
    assert out.time == at(40) and out.data["repeats"] == 3         # 10, 20 and 30 stand in its count
    assert out.data["message"].endswith("(and 3 more like it before this one, not logged one by one)")
    assert r.holding == 0 and r.due(at(900)) == []
    # the half second runs from the row written (40 ms): one at 600 ms is written at once
    assert r.offer("increment", low(600)) == [low(600)]


def test_a_single_repeat_is_written_as_it_came_and_every_alarm_is_counted():
    r = Repeats(every_s=0.5)
    r.offer("increment", low(0))
    r.offer("increment", low(100))
    assert r.due(at(500)) == [low(100)]                            # it stands for itself alone
    written = []
    for ms in range(1000, 6000, 7):                                 # 715 alarms in five seconds
        written += r.offer("increment", low(ms))
        if ms % 100 < 7:
            written += r.due(at(ms))
    written += r.flush()
    assert len(written) <= 2 * 5 + 2
    assert sum(1 + w.data.get("repeats", 0) for w in written) == len(range(1000, 6000, 7))


def test_other_devices_kinds_and_rows_are_never_held_by_another_ones_run():
    r = Repeats(every_s=0.5)
    r.offer("increment", low(0))
    assert r.offer("increment", low(1, serial="PRG-2")) == [low(1, serial="PRG-2")]     # another device
    door = rows.alarm_raised(at(2), "T1", "shuffler_door_open", "the shuffler's door is open", "", "PRG-1", "PRG-1")
    assert r.offer("door_open", door) == [door]                                        # another kind
    fault = rows.device_fault(at(3), "PRG-1", "T1", "progressive", "bad_seat", "an increment for seat 9", "PRG-1")
    assert r.offer("increment", fault) == [fault]                                       # another row type
    reading = rows.meter_reading(at(4), "PRG-1", "device", "T1", 1_000_000, "controller", "PRG-1")
    assert r.offer("meter", reading) == [reading] and r.offer("meter", reading) == [reading]   # never thinned
    misread = rows.device_fault(at(5), "SHF-1", "T1", "shuffler", "misread", "seat 2's hand", "SHF-1")
    assert r.offer("hand_read", misread) == [misread] and r.offer("hand_read", misread) == [misread]


def test_a_clock_set_back_does_not_hold_rows_until_it_catches_up():
    r = Repeats(every_s=0.5)
    r.offer("increment", low(10_000))
    r.offer("increment", low(10_100))
    assert len(r.due(at(0))) == 1                                   # the clock went back ten seconds
    assert r.offer("increment", low(50)) == [low(50)]


def test_the_pit_writes_a_run_of_repeated_alarms_as_two_rows_a_second_with_the_count(log):
    now = [T0]
    pit = Pit(log, [TableConfig("T1", "section6", {"PRG-1": "progressive"})], clock=lambda: now[0])

    def increment(ms, seq):
        m = decode_message(encode_message("increment", seq % 256, seat=1, cents=5))
        return DeviceMessage("socket://127.0.0.1:1", "PRG-1", "progressive", m, at(ms), 0.0)

    sent = 0
    for tick in range(20):                                          # two seconds of pumps, 100 ms apart
        now[0] = at(tick * 100 + 99)
        pit.handle([increment(tick * 100 + k, sent + k) for k in range(50)])
        sent += 50
    assert pit.repeats.holding == 1
    pit.handle([], flush=True)                                      # at close: what is held is written
    got = log.query("SELECT json_extract(body, '$.data.kind') AS kind, IFNULL(json_extract(body, "
                    "'$.data.repeats'), 0) AS repeats FROM events WHERE type = 'alarm_raised'")
    assert {g["kind"] for g in got} == {"meter_rate"}
    assert len(got) <= 2 * 2 + 2
    assert sum(1 + g["repeats"] for g in got) == sent == 1_000
