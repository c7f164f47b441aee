"""Every view after each period, filter and toggle a person can choose, at a pit workstation's two
sizes: nothing cut short, nothing raw (issue 33, 5; issue 27's fit and words checks, which saw
each view only as it opens).

The window is the real one over a simulated shift (tests/support/simulated_shift.py: four tables,
280 rounds with planted rare hands, so approvals decided, alarms acknowledged, slips and amounts
in the thousands are all there), built once for the module: the scan only reads. At each size it
walks the floor; each table's page, its lists and the round panel's tabs with a settled round
open, then with a round being entered; the alarms and the approvals, each with what was decided shown too (Ctrl+H, Ctrl+D); the
progressive meters; each log tab as it opens, then filtered by a table, a period and words; the
hold over each period with the pit and each table chosen; the reports. At each stop what lies
outside the window or is cut (tests/support/fit.py) and what is not worded for people
(tests/support/words.py) is collected; the test names every one.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from pytestqt.qtbot import QtBot

from app.qt import QApplication, QSettings
from app.simulate.shift import SIM_PIN
from app.views import theme
from app.views.hold_view import PERIODS
from app.views.main_window import MainWindow
from tests.support.fit import outside
from tests.support.simulated_shift import START
from tests.support.views import close_window, shift_workstation
from tests.support.words import faults, said, shown_texts

WAIT_MS = 25_000
SIZES = [(1366, 768), (1920, 1080)]


@pytest.fixture(scope="module")
def shift_window(tmp_path_factory, qapp, request, logs_shift):
    """The window over a copy of the simulated shift (tests/conftest.py ``logs_shift``), five
    minutes after its last row; read, never written."""
    folder = tmp_path_factory.mktemp("scan")
    own = logs_shift.copy(folder / "log")
    theme.apply(qapp)
    qapp.setStyleSheet(theme.stylesheet())
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PITDESK_HOME", str(own.home))
        ws, _ = shift_workstation(own, "the scan")
        try:
            w = MainWindow(ws, settings=QSettings(str(folder / "s.ini"), QSettings.Format.IniFormat), pump_ms=30,
                           title="scan")
        except BaseException:
            ws.close()
            raise
        w.show()
        w.start()
        w.own, w.ws = own, ws
        try:
            yield w, QtBot(request)
        finally:
            close_window(w, ws)


class Scan:
    def __init__(self, window: MainWindow, qtbot, size):
        self.w, self.qtbot, self.size = window, qtbot, size
        self.found: list[str] = []
        self.stops = 0

    def settle(self) -> None:
        """Everything asked of the bridge answered, the pages read, the layout done."""
        w = self.w
        page = w.stack.currentWidget()

        def quiet():
            if w.bridge.lane.pending or w.round_panel._reading:
                return False
            if w.view == "logs":
                m = w.logs_page.current().model
                return m.query is not None and not m.busy
            if w.view == "hold":
                return w.hold_page.reads >= 1 and not w.hold_page.reading
            if w.view == "reports":
                return not w.reports_page.reading
            if w.view == "progressive":
                return not w.progressive_page.reading
            return True
        self.qtbot.waitUntil(quiet, timeout=WAIT_MS)
        for _ in range(3):
            QApplication.processEvents()
        assert w.stack.currentWidget() is page

    def stop(self, where: str) -> None:
        self.settle()
        self.stops += 1
        at = f"{where} at {self.size[0]}x{self.size[1]}"
        if (self.w.width(), self.w.height()) != self.size:
            self.found.append(f"{at}: the window grew to {self.w.width()}x{self.w.height()}")
            self.w.set_size(*self.size)
            self.settle()
        self.found += [f"{at}: {b}" for b in outside(self.w)]
        for place, text in shown_texts(self.w.stack.currentWidget()):
            self.found += faults(f"{at} {place}", text)


def walk(s: Scan) -> None:
    w, qtbot = s.w, s.qtbot
    tables = list(w.table_order)
    w.show_view("floor")
    s.stop("floor")
    for t in tables:
        w.show_view(f"table:{t}")
        page = w.table_page
        for n in range(page.lists.count()):
            page.lists.setCurrentIndex(n)
            s.stop(f"table {t} list {page.lists.tabText(n)!r}")
        page.show_tab("money")                             # the tray (issue 34)
        s.stop(f"table {t} money")
        page.show_tab("table")
        w.show_round()
        panel = w.round_panel
        s.stop(f"table {t} round panel")
        panel.tabs.setCurrentIndex(2)                      # Rounds: the newest opened
        qtbot.waitUntil(lambda: panel.history.rowCount() > 0, timeout=WAIT_MS)
        panel.open_round(panel.history.record(0).settlement)
        qtbot.waitUntil(lambda: panel.result is not None, timeout=WAIT_MS)
        for n in range(panel.tabs.count()):
            panel.tabs.setCurrentIndex(n)
            s.stop(f"table {t} round panel tab {panel.tabs.tabText(n)!r}")
        # a round being entered: every position's row, its hints and "not in the round"
        panel.tabs.setCurrentIndex(0)
        w.bridge.act(lambda ws, t=t: (ws.people.sign_in(f"dealer-{t}", SIM_PIN), ws.rounds.start(t))[1])
        qtbot.waitUntil(lambda: panel.draft is not None and panel.table == t and bool(panel.rows), timeout=WAIT_MS)
        s.stop(f"table {t} round panel, a round being entered")
        w.bridge.act(lambda ws, t=t: (ws.rounds.discard(t), ws.people.sign_out())[0])
        qtbot.waitUntil(lambda: panel.draft is None, timeout=WAIT_MS)
        w.show_table()
    for name, toggle in (("alarms", "show_acknowledged"), ("approvals", "show_decided")):
        action = w.actions_by_name[toggle]
        for on in (False, True):
            action.setChecked(on)
            w.show_view(name)
            qtbot.waitUntil(lambda: not w.pages[name].model.busy if hasattr(w.pages[name].model, "busy") else True,
                            timeout=WAIT_MS)
            s.stop(f"{name}{' with the decided shown' if on else ''}")
        action.setChecked(False)
    w.show_view("progressive")
    s.stop("progressive")
    day = f"{START:%Y-%m-%d}"
    for tab, page in w.logs_page.pages.items():
        w.show_view(f"logs:{tab}")
        s.stop(f"logs {tab}")
        if page.table.isEnabled() and page.table.count() > 1:
            page.table.setCurrentIndex(1)
        page.since.setText(f"{day} 14:00")
        page.until.setText(f"{day} 23:00")
        page.apply()
        s.stop(f"logs {tab} filtered by a table and a period")
        page.text.setText("the")
        page.apply()
        s.stop(f"logs {tab} found 'the'")
        page.clear()
        s.stop(f"logs {tab} cleared")
    w.show_view("hold")
    hold = w.hold_page
    first = datetime.fromisoformat(w.own.one("SELECT min(time) FROM events")).replace(second=0, microsecond=0)
    for kind, _ in PERIODS:
        n = hold.reads
        hold.choose(kind, first - timedelta(days=1), first + timedelta(days=1))
        qtbot.waitUntil(lambda n=n: hold.reads > n and not hold.reading, timeout=WAIT_MS)
        for row in range(hold.tables.rowCount()):
            hold.tables_view.selectRow(row)
            s.stop(f"hold {kind} row {row}")
    w.show_view("reports")
    s.stop("reports")


@pytest.mark.parametrize("size", SIZES)
def test_every_view_after_every_choice_fits_and_is_in_words(shift_window, size):
    w, qtbot = shift_window
    w.set_size(*size)
    s = Scan(w, qtbot, size)
    walk(s)
    assert s.stops > 60
    assert not s.found, said(s.found)
