"""The protection view pressed in the real window (issue 36): over a simulated shift with rare
hands planted, Ctrl+Alt+P shows every check ``Reads.protection`` makes (``pitdesk protect``'s
figures), the notices first, each saying "WHERE TO LOOK" in words beside its amber."""

from __future__ import annotations

from datetime import timedelta

import pytest

from app.qt import QSettings
from app.views.protection_page import rows_of
from app.views.records import LevelRole
from tests.support.views import WAIT_MS, close_window, open_window, shift_workstation
from tests.views.test_gui_commands import press


@pytest.fixture
def window(themed, logs_shift, tmp_path, qtbot, monkeypatch, no_threads_left):
    own = logs_shift.copy(tmp_path / "log")
    monkeypatch.setenv("PITDESK_HOME", str(own.home))
    ws, clock = shift_workstation(own, "the protection test")        # five minutes after its last row
    w = open_window(qtbot, ws, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), "protection test",
                    size=(1366, 768))
    w.ws, w.clock = ws, clock
    yield w
    close_window(w, ws)


@pytest.mark.commands("protection")
def test_the_protection_view_lists_every_check_with_the_notices_first(window, qtbot):
    w = window
    press(qtbot, w, "protection")
    page = w.protection_page
    assert w.view == "protection"
    page.choose("today")
    day = w.clock().replace(hour=0, minute=0, second=0, microsecond=0)
    qtbot.waitUntil(lambda: page.data is not None and not page.reading
                    and page.data["from"] == day.isoformat(timespec="seconds"), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: page.model.rowCount() == len(rows_of(page.data)), timeout=WAIT_MS)
    want = w.ws.reads.protection(day, day + timedelta(days=1))
    assert len(rows_of(want)) == page.model.rowCount() > 0
    notices = len(want["notices"])
    assert notices >= 1                                   # the planted shift's rare hands
    shown = [page.model.index(r, 0).data() for r in range(page.model.rowCount())]
    assert all("WHERE TO LOOK" in x for x in shown[:notices]) and not any("WHERE TO LOOK" in x for x in shown[notices:])
    assert page.model.index(0, 0).data(LevelRole) == "amber"
    assert f"{notices} WHERE TO LOOK" in page.words.text()
