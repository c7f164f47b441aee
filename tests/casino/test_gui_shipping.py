"""The status bar shows the background shipper (issue 28, app/views/main_window.py): the last row
the casino's real server holds and the lag, or what stops shipping; the real window on the
offscreen platform, nothing left running when it closes."""

from __future__ import annotations

from app.qt import QSettings
from app.simulate.demo import add_demo_users
from app.views import theme
from app.workstation import config
from app.workstation.workstation import Workstation
from tests.support.casino import register
from tests.support.pg import free_port
from tests.support.views import Clock, close_window, open_window


def _window(qapp, qtbot, tmp_path, monkeypatch, url, more=""):
    theme.apply(qapp)
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    text = f'[[tables]]\nid = "T1"\nprofile = "sd"\n\n[shipping]\nto = "{url}"\nevery_seconds = 0.05\n{more}'
    ws = Workstation(config.parse(text, "floor.toml"), tmp_path / "pit.db", clock=Clock())
    try:
        register(url, tmp_path / "pit.db", "Pit 7")   # the casino's owner registers the pit before it ships
    except Exception:   # noqa: BLE001 - a server that is down is the test's own business
        pass
    add_demo_users(ws)
    ws.start()
    return ws, open_window(qtbot, ws, QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat),
                           "shipping")


def test_the_status_bar_shows_the_row_the_server_holds(casino, qapp, qtbot, tmp_path, monkeypatch, no_threads_left):
    ws, window = _window(qapp, qtbot, tmp_path, monkeypatch, casino.ship)
    try:
        qtbot.waitUntil(lambda: f"SHIPPED {ws.log.seq:,} · LAG 0" in window.shipping.text(), timeout=30_000)
        assert window.shipping.isVisible()
        # the pit as the casino's register names it (issue 35, finding 2)
        assert "PIT 7: SHIPPED" in window.shipping.text()
        assert f"as 'Pit 7' (the casino's register): the server holds row {ws.log.seq:,} of {ws.log.seq:,}" in \
            window.shipping.toolTip()
    finally:
        close_window(window, ws)


def test_the_status_bar_says_the_server_cannot_be_reached(qapp, qtbot, tmp_path, monkeypatch, no_threads_left):
    ws, window = _window(qapp, qtbot, tmp_path, monkeypatch, f"postgresql://pit_ship@127.0.0.1:{free_port()}/casino",
                         "alarm_lag_events = 3\n")
    try:
        qtbot.waitUntil(lambda: "SHIPPING: server unreachable · LAG " in window.shipping.text(), timeout=30_000)
        assert "cannot be reached" in window.shipping.toolTip()
        # past the lag configured: the alarm, a row of the floor's (no table), in the window's alarms
        qtbot.waitUntil(lambda: any(a.kind == "shipping_lag" for a in window.alarms), timeout=30_000)
        alarm, = [a for a in window.alarms if a.kind == "shipping_lag"]
        assert alarm.table is None and "server unreachable" in alarm.message
        model = window.alarms_page.view.model()
        shown = [str(model.index(r, c).data()) for r in range(model.rowCount()) for c in range(model.columnCount())]
        assert any("shipping lag" in t for t in shown), shown
    finally:
        close_window(window, ws)
