"""The window stays responsive while a progressive controller floods it (issue 26, finding 4;
docs/devices.md, "Bounded input"): the demo-like floor of tests/support/views.py, T1's controller
served by tests/support/flooder.py (valid meter frames as fast as the window of 8 lets it), the
real workstation and the real window on the offscreen platform. Counts and states only: the
window keeps pumping, the tile follows the meter, the log's meter rows stay coalesced, and the
window closes with nothing left running."""

from __future__ import annotations

import time

from app.qt import QSettings
from app.simulate import demo
from app.workstation.workstation import Workstation
from tests.support.flooder import Flooder
from tests.support.views import PACE, TABLES, WAIT_MS, Clock, close_window, open_window, start_floor

SERIAL = "PRG-T1"
FLOOD_MS = 2_500


def flood_floor(db, flood: Flooder) -> Workstation:
    """``TABLES`` as the demo builds them, quick devices with no faults, T1's controller the flooder."""
    devices = demo.DemoDevices(TABLES, faults=(), fault_rate=0.0, pace=PACE, seed=13)
    del devices.devices[SERIAL]
    urls = devices.start()
    urls[SERIAL] = flood.url
    return start_floor(db, Clock(), devices, urls)


def cents(text: str) -> int | None:
    digits = "".join(ch for ch in text if ch.isdigit())
    return int(digits) if digits else None


def test_the_window_keeps_pumping_through_a_controllers_flood_and_its_tile_follows_the_meter(
        themed, tmp_path, qtbot, monkeypatch, no_threads_left):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    flood = Flooder(SERIAL, ignore_acks=False).start()
    try:
        ws = flood_floor(tmp_path / "audit.db", flood)
        w = open_window(qtbot, ws, QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat), "flood")
        try:
            link = ws.runner.links[SERIAL]
            qtbot.waitUntil(lambda: "T1" in w.floor.tiles, timeout=WAIT_MS)   # the first update drew the floor
            tile = w.floor.tiles["T1"]
            qtbot.waitUntil(lambda: link.session.counters.delivered > 100 and cents(tile.meter.text()) is not None,
                            timeout=WAIT_MS)
            shown = [cents(tile.meter.text())]
            updates = []
            w.bridge.changed.connect(lambda u: updates.append(u))
            pumps, start = w.bridge.pumps, time.monotonic()
            qtbot.wait(FLOOD_MS)        # the flood goes on; the window's own event loop runs throughout
            shown.append(cents(tile.meter.text()))
            pumped, delivered = w.bridge.pumps - pumps, link.session.counters.delivered
            flood.stop()
            qtbot.waitUntil(lambda: ws.pit.links().get(SERIAL) == "offline", timeout=WAIT_MS)
            elapsed = time.monotonic() - start

            assert delivered > 5_000, "not a flood"
            assert link.session.counters.cut_off == 0          # it kept to the window
            # the window kept pumping (every 30 ms when idle) and its updates kept arriving
            assert pumped > 10
            with_t1 = [u for u in updates if u.tiles and any(t.table == "T1" for t in u.tiles)]
            assert len(with_t1) >= 3
            # the tile followed the meter: a later, higher value during the flood
            assert shown[1] > shown[0]
            # the log's meter rows stayed coalesced (two a second), every reading the link took in them
            rows = ws.log.query("SELECT json_extract(body, '$.data.cents') AS cents, IFNULL(json_extract(body, "
                                "'$.data.coalesced'), 0) AS coalesced FROM events WHERE type = 'meter_reading' "
                                "AND json_extract(body, '$.data.serial') = ? ORDER BY seq", (SERIAL,))
            assert 2 <= len(rows) <= 2 * (elapsed + 2) + 2
            assert max(r["coalesced"] for r in rows) > 100
            assert sum(1 + r["coalesced"] for r in rows) == link.session.counters.delivered
            # and the tile ends on the last one logged
            qtbot.waitUntil(lambda: cents(tile.meter.text()) == rows[-1]["cents"], timeout=WAIT_MS)
        finally:
            close_window(w, ws)
    finally:
        flood.stop()
