"""Pace and turnover in the real window (issue 36) over a simulated shift, at 1366x768: each
tile says its last hour in words as the workstation reads it, Enter on a tile opens its table,
and a click on "Pace by hour" lists the shift's hours, whose rounds are the hold's."""

from __future__ import annotations

import sqlite3
from datetime import datetime, timedelta

import pytest

from app.store import hold_lines
from app.qt import QSettings, Qt
from app.views.tile import pace_words
from tests.support.views import WAIT_MS, close_window, open_window, shift_workstation


@pytest.fixture
def window(themed, logs_shift, tmp_path, qtbot, monkeypatch, no_threads_left):
    own = logs_shift.copy(tmp_path / "log")
    monkeypatch.setenv("PITDESK_HOME", str(own.home))
    ws, clock = shift_workstation(own, "the pace test")
    # a few minutes after the shift's last round: its last hour is on the tiles
    clock.set(datetime.fromisoformat(own.one("SELECT max(time) FROM settlements")) + timedelta(minutes=4))
    w = open_window(qtbot, ws, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), "pace test",
                    size=(1366, 768))
    w.own, w.ws, w.clock = own, ws, clock
    yield w
    close_window(w, ws)


def test_the_tiles_say_the_last_hour_and_the_table_page_lists_the_shifts_hours(window, qtbot):
    w, ws = window, window.ws
    tables = [t for t, _ in w.own.tables()]
    want = {t.table: pace_words(t.pace) for t in ws.reads.tiles()}
    assert sum(t.pace.rounds for t in ws.reads.tiles()) > 0
    qtbot.waitUntil(lambda: all(t in w.floor.tiles and want[t] in w.floor.tiles[t].summary() for t in tables),
                    timeout=WAIT_MS)
    tile = w.floor.tiles[tables[0]]
    qtbot.waitUntil(tile.isVisible, timeout=WAIT_MS)
    assert tile.pace.isVisible() and tile.pace.text() == want[tables[0]]
    assert tile.pace.toolTip().startswith("in the last hour:")

    # Enter on the first tile opens its table; a click on the tab lists its hours
    tile.setFocus()
    qtbot.keyClick(tile, Qt.Key.Key_Return)
    page = w.table_page
    qtbot.waitUntil(lambda: w.view == "table" and page.detail is not None
                    and page.detail.tile.table == tables[0], timeout=WAIT_MS)
    bar = page.lists.tabBar()
    index = next(i for i in range(bar.count()) if bar.tabText(i) == "Pace by hour")
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(index).center())
    assert page.lists.currentWidget() is page.pace_view and page.pace_view.isVisible()
    qtbot.waitUntil(lambda: page.pace.rowCount() > 0, timeout=WAIT_MS)
    hours = page.detail.pace_hours
    assert page.pace.rowCount() == len(hours)
    rounds = sum(int(page.pace.index(r, 1).data()) for r in range(page.pace.rowCount()))
    # the hold's own count of the table's rounds from the shift's start to now
    shift = ws.shifts.shift_of(w.clock())
    conn = sqlite3.connect(w.own.db)
    try:
        (held,) = hold_lines.rounds(conn, shift.start.isoformat(), w.clock().isoformat(), tables[0])
    finally:
        conn.close()
    assert rounds == held["rounds"] > 0
    assert pace_words(page.detail.tile.pace) in page.facts.text()
