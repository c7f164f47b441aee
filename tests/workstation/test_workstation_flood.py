"""A progressive controller that floods the workstation (issue 26, finding 4; docs/devices.md,
"Bounded input"), over a real loopback socket, through the real link, inbox, pump, pit and audit
log: a 10-second flood of valid meter frames logs at most two readings a second with the count
said and leaves the process's memory bounded; a controller that ignores the window is cut off,
reported and reconnected with a longer backoff each time; a full inbox drops and says so.

Device traffic takes real time: each wait pumps the workstation (as the window's timer does)
until a condition holds, bounded, never a fixed sleep.
"""

import time

import pytest

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
    (so that the memory measured is the links' too)."""
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    made = []

    def make(flooder, **kw):
        cfg = WorkstationConfig((TableSetup("T1", "section6-even", (DeviceSetup("progressive", SERIAL, flooder.url),)),),
                                source="flood")
        ws = Workstation(cfg, tmp_path / "flood.db", link_process=False, **kw)
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


def test_a_ten_second_flood_logs_at_most_two_readings_a_second_with_the_count_and_memory_stays_bounded(floor):
    # a controller that keeps to the window but sends as fast as the acks come back: the protocol
    # allows it, so nothing cuts it off; the link keeps the latest reading and counts the rest
    flood = Flooder(SERIAL, ignore_acks=False).start()
    ws = floor(flood)
    link = ws.runner.links[SERIAL]
    until(ws, lambda: link.session.counters.delivered > 0, "the flood begins")
    before = rss_mb()
    start = time.monotonic()
    pumps = 0
    while time.monotonic() - start < 10.0:
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
