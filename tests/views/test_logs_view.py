"""The logs view (issue 15) in the real window over a simulated shift (``pitdesk simulate shift``):
every tab's model through the model tester; filters and sorts applied in the window, counted
straight from the events table; the CSV export read back equals the rows shown; rows the
workstation writes arriving as row inserts (never a reset); a bad filter said in words."""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass

import pytest

from app.simulate.shift import SIM_PIN
from app.views.log_models import PAGE, KeyRole, LevelRole
from app.views.log_tab import LogTabPage
from app.views.main_window import MainWindow
from app.qt import QFileDialog, QModelIndex, QSettings, Qt, QTimer
from app.views.theme import OK, RED
from app.workstation.workstation import Workstation
from tests.support.simulated_shift import Shift, expected
from tests.support.views import Clock, shift_workstation

WAIT_MS = 20_000


@pytest.fixture(scope="module")
def shift(logs_shift) -> Shift:
    return logs_shift


@dataclass
class Logs:
    window: MainWindow
    ws: Workstation
    shift: Shift
    clock: Clock


@pytest.fixture
def logs(themed, shift, tmp_path, qtbot, monkeypatch, no_threads_left):
    own = shift.copy(tmp_path / "log")
    monkeypatch.setenv("PITDESK_HOME", str(own.home))
    ws, clock = shift_workstation(own, "the logs test")
    try:
        window = MainWindow(ws, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), pump_ms=30,
                            title="logs test")
    except BaseException:
        ws.close()
        raise
    qtbot.addWidget(window)
    window.resize(1600, 900)
    window.show()
    window.start()
    yield Logs(window, ws, own, clock)
    window.close()
    assert window.bridge.logs_lane.closed and window.bridge.logs_lane.active == 0
    running = [t.objectName() for t in window.findChildren(QTimer) if t.isActive()]
    assert not running, f"timers still running on the closed window: {running}"
    ws.close()


def shown(qtbot, lg: Logs, tab: str) -> LogTabPage:
    lg.window.show_view(f"logs:{tab}")
    page = lg.window.logs_page.pages[tab]
    wait_read(qtbot, page)
    return page


def wait_read(qtbot, page: LogTabPage) -> None:
    qtbot.waitUntil(lambda: page.model.query is not None and not page.model.busy, timeout=WAIT_MS)


def texts(qtbot, page: LogTabPage, column: int | None = None) -> list:
    """Every row as shown, each page read in as the view reads it."""
    m = page.model

    def read() -> bool:
        # as a view scrolled over them: a page not read is asked for (the model reads the pages
        # asked for last, two at a time)
        missing = [r for r in range(0, m.total) if m.record_at(r) is None]
        for r in missing[:1] + missing[-1:]:
            m.data(m.index(r, 0))
        return not missing and not m.busy
    qtbot.waitUntil(read, timeout=WAIT_MS)
    rows = [[m.data(m.index(r, c)) for c in range(m.columnCount())] for r in range(m.total)]
    return rows if column is None else [r[column] for r in rows]


def col(page: LogTabPage, title: str) -> int:
    return next(n for n, c in enumerate(page.model.columns) if c.title == title)


def apply(qtbot, page: LogTabPage, table=None, since="", until="", text="") -> None:
    page.table.setCurrentIndex(page.table.findData(table) if table else 0)
    for edit, value in ((page.since, since), (page.until, until), (page.text, text)):
        edit.setText(value)
    qtbot.mouseClick(page.apply_button, Qt.MouseButton.LeftButton)
    wait_read(qtbot, page)


# -- every model --------------------------------------------------------------------------------
def test_every_log_model_passes_the_model_tester(logs, qtbot, qtmodeltester):
    for tab in logs.window.logs_page.pages:
        page = shown(qtbot, logs, tab)
        assert page.model.total > 0, tab
        texts(qtbot, page)
        qtmodeltester.check(page.model, force_py=True)


# -- filters and sorts ---------------------------------------------------------------------------
def test_filters_applied_in_the_window_show_what_the_events_table_holds(logs, qtbot):
    page = shown(qtbot, logs, "events")
    qtbot.waitUntil(lambda: page.table.count() == 5, timeout=WAIT_MS)       # every table, T1-T4
    assert page.model.total == logs.shift.one("SELECT count(*) FROM events")
    assert page.count.text() == f"{page.model.total:,} rows"
    apply(qtbot, page, table="T2")
    assert page.model.total == len(expected(logs.shift, "events", "T2"))
    assert set(texts(qtbot, page, col(page, "Table"))) == {"T2"}
    apply(qtbot, page, table="T2", since="2026-11-21 15:00", until="2026-11-21 15:59", text="shuffle")
    want = expected(logs.shift, "events", "T2", "2026-11-21T15:00:00", "2026-11-21T16:00:00",
                    "body LIKE '%shuffle%'")
    assert want and page.model.total == len(want)
    assert sorted(int(s) for s in texts(qtbot, page, col(page, "Seq"))) == want
    page = shown(qtbot, logs, "approvals")
    apply(qtbot, page, table="T1")
    assert page.model.total == len(expected(logs.shift, "approvals", "T1"))
    qtbot.mouseClick(page.clear_button, Qt.MouseButton.LeftButton)
    wait_read(qtbot, page)
    assert page.model.total == len(expected(logs.shift, "approvals"))


def test_a_click_on_a_header_sorts_the_whole_log_by_that_column(logs, qtbot):
    page = shown(qtbot, logs, "slips")
    cents = {n: c for n, c in logs.shift.sql(
        "SELECT json_extract(body, '$.data.number'), json_extract(body, '$.data.win_cents') FROM events "
        "WHERE type = 'slip_issued'")}
    c = col(page, "Pays")
    h = page.view.horizontalHeader()
    for order in (Qt.SortOrder.DescendingOrder, Qt.SortOrder.AscendingOrder):
        h.setSortIndicator(c, order)          # as a click on the header does: the view sorts the model
        wait_read(qtbot, page)
        numbers = [int(n) for n in texts(qtbot, page, col(page, "Slip"))]
        pays = [cents[n] for n in numbers]
        assert pays == sorted(pays, reverse=order == Qt.SortOrder.DescendingOrder)
        assert sorted(numbers) == sorted(cents)
    # a text column of the whole log
    page = shown(qtbot, logs, "events")
    page.view.horizontalHeader().setSortIndicator(col(page, "Event"), Qt.SortOrder.AscendingOrder)
    wait_read(qtbot, page)
    events = texts(qtbot, page, col(page, "Event"))
    assert events == sorted(events) and len(events) == logs.shift.one("SELECT count(*) FROM events")


def test_a_bad_filter_says_what_is_wrong_and_shows_nothing_else(logs, qtbot):
    page = shown(qtbot, logs, "decks")
    before = page.model.total
    apply(qtbot, page, since="2026-11-22", until="2026-11-21")
    assert page.error.isVisible()
    assert "To (2026-11-21) is before From (2026-11-22)" in page.error.text()
    assert page.until.toolTip().startswith("To (2026-11-21) is before From")
    assert page.model.total == before                  # what was shown stays
    apply(qtbot, page, since="2026-11-31 14:00")
    assert "From: cannot read '2026-11-31 14:00'" in page.error.text()
    assert "write a date (2026-11-21)" in page.error.text()
    apply(qtbot, page)
    assert not page.error.isVisible()


# -- export ---------------------------------------------------------------------------------------------
def test_the_csv_export_read_back_is_the_rows_shown(logs, qtbot, tmp_path):
    for tab, table, text, sort in (("events", "T3", "", None), ("alarms", None, "", "Kind"),
                                   ("irregularities", "T1", "void", "Consequence")):
        page = shown(qtbot, logs, tab)
        apply(qtbot, page, table=table, text=text)
        if sort is not None:
            page.view.horizontalHeader().setSortIndicator(col(page, sort), Qt.SortOrder.AscendingOrder)
            wait_read(qtbot, page)
        rows = texts(qtbot, page)
        assert rows
        path = tmp_path / f"{tab}.csv"
        page.export(str(path))
        qtbot.waitUntil(lambda: page.exported is not None and page.exported[0] == str(path), timeout=WAIT_MS)
        with open(path, newline="", encoding="utf-8") as f:
            back = list(csv.reader(f))
        assert back[0] == [c.title for c in page.model.columns]
        assert back[1:] == rows
        assert page.exported[1] == len(rows)
        assert f"{len(rows):,} rows exported" in page.error.text()


def test_export_asks_where_through_the_action(logs, qtbot):
    shown(qtbot, logs, "dice")
    d = logs.window.export_log()
    assert isinstance(d, QFileDialog) and d.isVisible() and d.objectName() == "export_dialog"
    d.reject()


# -- live rows --------------------------------------------------------------------------------------------
def test_rows_written_while_a_tab_is_shown_arrive_as_inserts_not_resets(logs, qtbot):
    page = shown(qtbot, logs, "sign_ins")
    m = page.model
    inserted, resets = [], []
    m.rowsInserted.connect(lambda parent, first, last: inserted.append((first, last)))
    m.modelReset.connect(lambda: resets.append(1))
    n = m.total
    texts(qtbot, page)                  # every row read, so an insert moves rows held
    failed = []
    logs.window.bridge.act(lambda ws: ws.people.sign_in("floor-1", "0000"), on_error=failed.append)
    qtbot.waitUntil(lambda: m.total == n + 1, timeout=WAIT_MS)
    logs.window.bridge.act(lambda ws: ws.people.sign_in("floor-1", SIM_PIN))
    qtbot.waitUntil(lambda: m.total == n + 2, timeout=WAIT_MS)
    assert failed and "wrong PIN" in str(failed[0])
    assert inserted == [(0, 0), (0, 0)] and not resets
    rows = texts(qtbot, page)
    what = col(page, "What")
    assert rows[0][col(page, "Name")] == "floor-1" and rows[0][what] == "● SIGNED IN"
    assert rows[1][what] == "▲ WRONG PIN (1 in a row)"
    assert m.data(m.index(1, what), LevelRole) != OK
    assert page.count.text() == f"{n + 2:,} rows"

    # the whole log, shown newest first: the sign-out goes on top
    page = shown(qtbot, logs, "events")
    m = page.model
    inserted.clear()
    m.rowsInserted.connect(lambda parent, first, last: inserted.append((first, last)))
    m.modelReset.connect(lambda: resets.append(1))
    n = m.total
    logs.window.bridge.act(lambda ws: ws.people.sign_out())
    qtbot.waitUntil(lambda: m.total == n + 1, timeout=WAIT_MS)
    assert inserted == [(0, 0)] and not resets
    assert texts(qtbot, page)[0][col(page, "Event")] == "signed out"


def test_an_alarm_raised_then_acknowledged_arrives_and_changes_in_place(logs, qtbot):
    page = shown(qtbot, logs, "alarms")
    m = page.model
    page.view.horizontalHeader().setSortIndicator(col(page, "Kind"), Qt.SortOrder.AscendingOrder)
    wait_read(qtbot, page)                     # sorted by kind: read by key
    assert m.keys is not None
    inserted, resets, changed = [], [], []
    m.rowsInserted.connect(lambda parent, first, last: inserted.append((first, last)))
    m.modelReset.connect(lambda: resets.append(1))
    m.dataChanged.connect(lambda a, b, roles=(): changed.append((a.row(), b.row())))
    kinds = texts(qtbot, page, col(page, "Kind"))
    now = logs.clock()
    seq = logs.ws.log.append("alarm_raised", now, "pitdesk", "device", "T2",
                             {"kind": "shoe_door_open", "message": "the shoe's door is open", "rule": "",
                              "serial": "SHOE-T2"})
    qtbot.waitUntil(lambda: m.total == len(kinds) + 1, timeout=WAIT_MS)     # the next pump says so
    place = sorted(kinds + ["shoe door open"]).index("shoe door open")
    assert inserted == [(place, place)] and not resets
    ack = col(page, "Acknowledged")
    assert m.data(m.index(place, ack)) == "■ NOT ACKNOWLEDGED" and m.data(m.index(place, ack), LevelRole) == RED
    assert m.data(m.index(place, 0), KeyRole) == seq
    logs.window.bridge.act(lambda ws: ws.people.sign_in("floor-1", SIM_PIN))
    logs.window.bridge.act(lambda ws: ws.decisions.acknowledge_alarm(seq, "door closed and sealed"))
    qtbot.waitUntil(lambda: m.data(m.index(place, ack), LevelRole) == OK, timeout=WAIT_MS)
    assert changed and not resets
    assert m.data(m.index(place, col(page, "Why"))) == "door closed and sealed"
    assert m.data(m.index(place, col(page, "By"))) == "floor-1 (floor supervisor)"


def test_a_tab_not_shown_hears_of_its_rows_when_it_is_shown_again(logs, qtbot):
    page = shown(qtbot, logs, "sign_ins")
    n = page.model.total
    logs.window.show_view("floor")
    logs.window.bridge.act(lambda ws: ws.people.sign_in("pit-1", SIM_PIN))
    qtbot.waitUntil(lambda: page.model._latest > page.model.query.top, timeout=WAIT_MS)
    assert page.model.total == n                  # nothing read while the view is not shown
    logs.window.show_view("logs")
    qtbot.waitUntil(lambda: page.model.total == n + 1, timeout=WAIT_MS)
    assert texts(qtbot, page, col(page, "Name"))[0] == "pit-1"


def test_the_logs_commands_are_actions_with_shortcuts(logs, qtbot):
    w = logs.window
    names = {r[1]: r[2] for r in w.shortcut_rows()}
    assert names["Logs"] == "Ctrl+L" and names["Export log as CSV"] == "Ctrl+E" and names["Find in log"] == "Ctrl+F"
    w.actions_by_name["logs"].trigger()
    assert w.view == "logs" and w.view_spec() == "logs:decks"
    w.actions_by_name["find_in_log"].trigger()
    qtbot.waitUntil(lambda: w.logs_page.current().text.hasFocus(), timeout=WAIT_MS)
    with pytest.raises(ValueError, match="no log 'nosuch'"):
        w.show_view("logs:nosuch")
    assert json.dumps(w.view_spec())
    assert not QModelIndex().isValid()


def test_a_tab_shown_is_not_kept_waiting_by_another_tabs_sort(logs, qtbot):
    events = shown(qtbot, logs, "events")
    events.view.horizontalHeader().setSortIndicator(col(events, "Details"), Qt.SortOrder.AscendingOrder)
    page = shown(qtbot, logs, "decks")            # at once: the sort is given up if it still runs
    assert page.model.total == len(expected(logs.shift, "decks"))
    page = shown(qtbot, logs, "events")           # and read again, sorted, when its tab is shown
    assert events.model.sort_field == "data" and events.model.total == logs.shift.one("SELECT count(*) FROM events")
    assert events.model.query.filter.sort == "data"


def test_pitdesk_gui_takes_a_log_as_its_view():
    from app.cli.gui_command import VIEW
    assert all(VIEW.match(v) for v in ("logs", "logs:events", "logs:sign_ins", "table:T1"))
    assert not any(VIEW.match(v) for v in ("logs:", "logs:Every event", "log"))
