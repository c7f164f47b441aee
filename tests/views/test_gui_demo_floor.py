"""The demo floor plays by itself (app/simulate/table_play.py) in the real window: its dealers,
signed in at the tables' stations, shuffle, deal, read and settle while nobody is signed in at
the workstation, and every view tells the same story (issue 25)."""

import json

from PySide6.QtCore import QSettings

from app.simulate.demo import DEMO_PACE, open_demo
from tests.support.demo_floor import disagreements, settled_tables
from tests.support.views import close_window, open_window


def test_the_demo_floor_settles_rounds_at_three_tables_within_150_s_with_nobody_signed_in(
        themed, tmp_path, qtbot, monkeypatch, no_threads_left):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    ws, _ = open_demo(tmp_path / "demo.db", play=DEMO_PACE, seed=7)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    w = open_window(qtbot, ws, settings, "demo floor")
    try:
        def three_settled():
            assert ws.people.session() is None
            return len(settled_tables(ws)) >= 3
        # the demo's own pace (30 rounds an hour): the first round of a table is settled within 90 s
        qtbot.waitUntil(three_settled, timeout=150_000)
        tables = sorted(settled_tables(ws))
        # the tile of a table that settled its first round names the next (000(g))
        qtbot.waitUntil(lambda: all(w.floor.tiles[t].round.text() != "ROUND 1" for t in tables), timeout=10_000)
        rows = ws.log.query("SELECT DISTINCT actor, role FROM events WHERE type = 'settlement'")
        assert {(r["actor"], r["role"]) for r in rows} == {("demo-dealer", "dealer")}
        assert disagreements(ws) == []
        # nobody at the workstation; the dealer signed in once, at the stations of every table
        stations = ws.log.query("SELECT json_extract(body, '$.data.stations') AS stations FROM events "
                                "WHERE type = 'sign_in' AND actor = 'demo-dealer'")
        assert [json.loads(r["stations"]) for r in stations] == [[t.id for t in ws.config.tables]]
        assert ws.people.session() is None
    finally:
        close_window(w, ws)
