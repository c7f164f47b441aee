"""The status bar shows the background shipper (issue 28, app/views/main_window.py): the last row
the casino's real server holds and the lag, or what stops shipping; the real window on the
offscreen platform, nothing left running when it closes."""

from __future__ import annotations

from app.qt import QSettings
from app.simulate.demo import add_demo_users
from app.views import theme
from app.workstation import config
from app.workstation.workstation import Workstation
from tests.support.pg import free_port
from tests.support.views import Clock, close_window, open_window


def _window(qapp, qtbot, tmp_path, monkeypatch, url):
    theme.apply(qapp)
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    text = f'[[tables]]\nid = "T1"\nprofile = "sd"\n\n[shipping]\nto = "{url}"\nevery_seconds = 0.05\n'
    ws = Workstation(config.parse(text, "floor.toml"), tmp_path / "pit.db", clock=Clock())
    add_demo_users(ws)
    ws.start()
    return ws, open_window(qtbot, ws, QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat),
                           "shipping")


def test_the_status_bar_shows_the_row_the_server_holds(casino, qapp, qtbot, tmp_path, monkeypatch, no_threads_left):
    ws, window = _window(qapp, qtbot, tmp_path, monkeypatch, casino.ship)
    try:
        qtbot.waitUntil(lambda: f"SHIPPED {ws.log.seq:,} · LAG 0" in window.shipping.text(), timeout=30_000)
        assert window.shipping.isVisible()
        assert f"the server holds row {ws.log.seq:,} of {ws.log.seq:,}" in window.shipping.toolTip()
    finally:
        close_window(window, ws)


def test_the_status_bar_says_the_server_cannot_be_reached(qapp, qtbot, tmp_path, monkeypatch, no_threads_left):
    ws, window = _window(qapp, qtbot, tmp_path, monkeypatch, f"postgresql://pit_ship@127.0.0.1:{free_port()}/casino")
    try:
        qtbot.waitUntil(lambda: f"SHIPPING: server unreachable · LAG {ws.log.seq:,}" in window.shipping.text(),
                        timeout=30_000)
        assert "cannot be reached" in window.shipping.toolTip()
    finally:
        close_window(window, ws)
