"""A progressive controller that floods the workstation (issue 26, finding 4; docs/devices.md,
"Bounded input"), over a real loopback socket, through the real link, inbox, pump, pit and audit
log: a 10-second flood of valid meter frames logs at most two readings a second with the count
said and leaves the process's memory bounded; a controller that ignores the window is cut off,
reported and reconnected with a longer backoff each time; a flood of messages that each raise an
alarm logs two alarms a second with the count said; a full inbox drops and says so. With the
links in their own process (the floor's way, app/devices/host.py), the inbox and the child's own
queue each hold their limit and say what they dropped.

Device traffic takes real time: each wait pumps the workstation (as the window's timer does)
until a condition holds, bounded, never a fixed sleep.
"""

import os
import threading
import time

import pytest

from app.devices.host import BATCH_MAX, LinkHost
from app.devices.link import DeviceMessage, LinkDropped
from app.store import audit, paths
from app.workstation.config import DeviceSetup, TableSetup, WorkstationConfig
from app.workstation.workstation import Workstation
from tests.support.flooder import Flooder

SERIAL = "PRG-FLOOD"


def rss_mb() -> float:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024


@pytest.fixture
def floor(tmp_path, monkeypatch):
    """A one-table floor whose progressive controller is the given flooder, links in this process
    (so that the memory measured is the links' too) unless ``link_process``."""
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    made = []

    def make(flooder, link_process=False, **kw):
        cfg = WorkstationConfig((TableSetup("T1", "section6-even", (DeviceSetup("progressive", SERIAL, flooder.url),)),),
                                source="flood")
        ws = Workstation(cfg, tmp_path / "flood.db", link_process=link_process, **kw)
        made.append((ws, flooder))
        return ws.start()
    yield make
    for ws, flooder in made:
        ws.close()
        flooder.stop()
    assert audit.verify_db(tmp_path / "flood.db", paths.install_key(create=False)).ok


def until(ws, pred, what, timeout=20.0):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        ws.live.pump()
        got = pred()
        if got:
            return got
        time.sleep(0.05)
    raise AssertionError(f"{what}: not within {timeout} s")


def meter_rows(ws):
    return ws.log.query("SELECT json_extract(body, '$.data.cents') AS cents, "
                        "IFNULL(json_extract(body, '$.data.coalesced'), 0) AS coalesced FROM events "
                        "WHERE type = 'meter_reading' ORDER BY seq")


def faults(ws, like):
    return [r["m"] for r in ws.log.query("SELECT json_extract(body, '$.data.message') AS m FROM events "
                                         "WHERE type = 'device_fault' ORDER BY seq") if like in (r["m"] or "")]


@pytest.mark.parametrize("seconds", [4.0, pytest.param(10.0, marks=pytest.mark.slow)])
def test_a_flood_logs_at_most_two_readings_a_second_with_the_count_and_memory_stays_bounded(floor, seconds):
    # four seconds in the main suite, ten in make test-slow
    # a controller that keeps to the window but sends as fast as the acks come back: the protocol
    # allows it, so nothing cuts it off; the link keeps the latest reading and counts the rest
    flood = Flooder(SERIAL, ignore_acks=False).start()
    ws = floor(flood)
    link = ws.runner.links[SERIAL]
    until(ws, lambda: link.session.counters.delivered > 0, "the flood begins")
    before = rss_mb()
    start = time.monotonic()
    pumps = 0
    while time.monotonic() - start < seconds:
        ws.live.pump()
        pumps += 1
        time.sleep(0.05)
    flood.stop()       # the link is lost: what the coalescer held is passed on before it says so
    until(ws, lambda: ws.pit.links().get(SERIAL) == "offline", "the flooder's link offline")
    elapsed = time.monotonic() - start
    grew = rss_mb() - before
    rows = meter_rows(ws)
    delivered = link.session.counters.delivered
    assert delivered > 1_000, "not a flood"
    assert link.session.counters.cut_off == 0          # it kept to the window
    # at most two a second (the first at once, then one a half second), and every reading the link
    # took is in the log, as a row or in a row's count
    assert len(rows) <= 2 * (elapsed + 2) + 2
    assert sum(1 + r["coalesced"] for r in rows) == delivered
    assert max(r["coalesced"] for r in rows) > 10
    assert [r["cents"] for r in rows] == sorted(r["cents"] for r in rows)
    assert rows[-1]["cents"] == flood.cents or delivered < flood.sent   # the latest kept
    assert grew < 150, f"the process grew by {grew:.0f} MB during the flood"
    assert not faults(ws, "dropped")



def test_a_flood_of_messages_that_each_raise_an_alarm_logs_two_rows_a_second_with_the_count(floor):
    # increments under the rate of progression (000(q)(5)) each make alarm meter_rate: not readings,
    # so the link does not coalesce them; the pit writes the alarm of one kind from one device at
    # most once a half second, the latest kept and how many it stands for said
    flood = Flooder(SERIAL, ignore_acks=False, message="low-increment").start()
    ws = floor(flood)
    link = ws.runner.links[SERIAL]
    until(ws, lambda: link.session.counters.delivered > 0, "the flood begins")
    start = time.monotonic()
    while time.monotonic() - start < 3.0:
        ws.live.pump()
        time.sleep(0.05)
    flood.stop()
    until(ws, lambda: ws.pit.links().get(SERIAL) == "offline", "the flooder's link offline")
    elapsed = time.monotonic() - start
    ws.live.last_words()            # what is still held is written, as at close
    alarms = ws.log.query("SELECT json_extract(body, '$.data.kind') AS kind, IFNULL(json_extract(body, "
                          "'$.data.repeats'), 0) AS repeats, json_extract(body, '$.data.message') AS m "
                          "FROM events WHERE type = 'alarm_raised' AND json_extract(body, '$.data.kind') = "
                          "'meter_rate'")
    dropped = ws.log.query("SELECT IFNULL(SUM(json_extract(body, '$.data.count')), 0) AS n FROM events "
                           "WHERE type = 'device_fault' AND json_extract(body, '$.data.code') = 'dropped'")[0]["n"]
    delivered = link.session.counters.delivered
    assert delivered > 1_000, "not a flood"
    assert link.session.counters.cut_off == 0
    assert len(alarms) <= 2 * (elapsed + 2) + 2
    # every increment the link took made one alarm: in the log as a row, in a row's count, or
    # said dropped by a full queue
    assert sum(1 + a["repeats"] for a in alarms) + dropped == delivered
    counted = [a for a in alarms if a["repeats"]]
    assert counted and max(a["repeats"] for a in counted) > 10
    assert all(a["m"].endswith(f"(and {a['repeats']} more like it before this one, not logged one by one)")
               for a in counted)


def test_a_controller_that_ignores_the_window_is_cut_off_reported_and_backs_off_longer(floor):
    flood = Flooder(SERIAL, ignore_acks=True).start()
    ws = floor(flood)
    # cut off once (next attempt in 0.5 s), back, cut off again (1 s): a backoff that keeps doubling
    until(ws, lambda: [m for m in faults(ws, "cut off") if "next attempt in 1 s" in m], "cut off twice")
    offline = faults(ws, "is offline")
    assert offline[0].startswith(f"progressive {SERIAL} is offline: cut off: progressive {SERIAL} ignores the "
                                 "window and our acknowledgements")
    assert "next attempt in 0.5 s" in offline[0] and "next attempt in 1 s" in offline[1]
    alarms = ws.log.query("SELECT json_extract(body, '$.data.kind') AS kind, json_extract(body, '$.data.message') AS m "
                          "FROM events WHERE type = 'alarm_raised'")
    cut = [a for a in alarms if a["kind"] == "progressive_offline" and "cut off" in a["m"]]
    assert len(cut) >= 2 and SERIAL in cut[0]["m"]
    assert ws.runner.links[SERIAL].session.counters.cut_off >= 2
    assert flood.connections >= 2
    # what it said before it was cut off is a few readings, not thousands
    rows = meter_rows(ws)
    assert 1 <= len(rows) <= 10


def test_a_full_inbox_drops_what_comes_and_the_log_says_how_many_from_which_device(floor):
    # increments are never coalesced (they move the meter, 000(q)(5)): a fast controller's
    # increments fill an inbox of 50 while nobody pumps
    flood = Flooder(SERIAL, ignore_acks=False, message="increment").start()
    ws = floor(flood, inbox_limit=50)
    end = time.monotonic() + 15
    while ws.events.dropped_total < 100 and time.monotonic() < end:
        time.sleep(0.02)
    assert ws.events.dropped_total >= 100
    (said,) = until(ws, lambda: faults(ws, "dropped from"), "the drop said")
    n = int(said.split()[0])
    assert n >= 100
    assert said == f"{n} events dropped from {SERIAL}: the workstation's inbox was full (50 events waiting)"
    row = ws.log.query("SELECT table_id, json_extract(body, '$.data.code') AS code, "
                       "json_extract(body, '$.data.count') AS count FROM events WHERE type = 'device_fault' "
                       "AND json_extract(body, '$.data.code') = 'dropped'")[0]
    assert row == {"table_id": "T1", "code": "dropped", "count": n}


# -- the child-process path: the links in a process of their own (app/devices/host.py) -------------
def test_in_the_links_process_a_full_inbox_holds_its_limit_and_the_log_says_how_many_were_dropped(floor):
    # a real floor runs its links in a child; what it hands back passes through the inbox, which
    # holds at most its limit however fast the device sends and nobody pumps
    flood = Flooder(SERIAL, ignore_acks=False, message="increment").start()
    ws = floor(flood, inbox_limit=50, link_process=True)
    assert ws.runner.host.pid not in (None, os.getpid())
    held = []
    end = time.monotonic() + 15
    while ws.events.dropped_total < 500 and time.monotonic() < end:
        held.append(ws.events.qsize())
        time.sleep(0.01)
    assert ws.events.dropped_total >= 500 and max(held) <= 50
    (said,) = until(ws, lambda: faults(ws, "dropped from"), "the drop said")
    n = int(said.split()[0])
    assert n >= 500 and said == f"{n} events dropped from {SERIAL}: the workstation's inbox was full (50 events waiting)"


def test_the_links_process_holds_its_own_limit_while_the_workstation_takes_nothing_and_says_the_drop():
    # the receiving thread of the parent held (a window that takes nothing): the pipe fills, then
    # the child's queue; what comes after is dropped there and said, not held without end
    limit = 200
    flood = Flooder(SERIAL, ignore_acks=False, message="increment").start()
    gate, seen = threading.Event(), []
    started = []

    def take(e):
        seen.append(e)
        if isinstance(e, DeviceMessage) and not started:
            started.append(flood.sent)
            gate.wait(30)

    host = LinkHost([flood.url], take, limit=limit)
    try:
        host.start()
        end = time.monotonic() + 20
        while not (started and flood.sent - started[0] >= limit + 5_000) and time.monotonic() < end:
            time.sleep(0.02)
        blocked = flood.sent - started[0]
        assert blocked >= limit + 5_000, "not a flood"
        gate.set()
        end = time.monotonic() + 20
        while not _dropped(seen) and time.monotonic() < end:
            time.sleep(0.02)
    finally:
        gate.set()
        host.stop()
        flood.stop()
    drops = [e for e in seen if isinstance(e, LinkDropped)]
    assert drops and {d.where for d in drops} == {"the links' process queue"} and {d.serial for d in drops} == {SERIAL}
    assert drops[0].text == (f"{drops[0].count} events dropped from {SERIAL}: the links' process queue was full "
                             f"({limit} events waiting)")
    # of what came while nothing was taken, the child kept at most its limit, a batch being sent
    # and a batch in the pipe (host.BATCH_MAX each), and the window's frames in flight: the rest dropped
    assert sum(d.count for d in drops) >= blocked - limit - 3 * BATCH_MAX - 8
    first = seen.index(drops[0])
    assert sum(isinstance(e, DeviceMessage) for e in seen[:first]) <= limit + 3 * BATCH_MAX


def _dropped(seen):
    return any(isinstance(e, LinkDropped) for e in list(seen))
