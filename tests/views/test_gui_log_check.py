"""Issue 26 (2) in the real window: a log that fails its start-up check (a settlement's amount
edited inside ``events.body`` while the workstation was closed) opens read-only, and the window
says so in its red banner, naming the row and the kind; nothing is written."""

import sqlite3

from app.qt import QSettings
from tests.support.views import WAIT_MS, close_window, open_window
from tests.support.workstation import Clock, edit_settlement, reopen, settled_log


def rows(db) -> int:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT count(*) FROM events").fetchone()[0]
    finally:
        conn.close()


def test_a_log_that_fails_its_check_is_said_in_a_red_banner_naming_the_row(themed, tmp_path, qtbot, monkeypatch,
                                                                           no_threads_left):
    clock = Clock()
    seq = settled_log(tmp_path, monkeypatch, clock)
    db = tmp_path / "pit.db"
    edit_settlement(db, seq)
    before = rows(db)
    ws = reopen(tmp_path, clock)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = open_window(qtbot, ws, settings, "edited log")
    try:
        qtbot.waitUntil(lambda: w.banner.isVisible(), timeout=WAIT_MS)
        text = w.banner.text()
        assert w.banner.property("level") == "red"
        assert f"failed its check at row {seq} (edited)" in text and "pitdesk audit verify" in text
        assert w.bridge.stopped and not w.bridge.timer.isActive()
        # read-only: the floor as logged is still painted under the banner
        assert set(w.floor.tiles) >= {"T1", "section6"}
    finally:
        close_window(w, ws)
    assert rows(db) == before
