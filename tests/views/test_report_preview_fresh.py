"""The Reports view's preview does not go stale (issue 33, finding 3c), in the real window over a
simulated swing shift still running (the workstation's clock at 21:30, moved by the test; nothing
sleeps): while the page is shown its timer reads the report again when the log has grown, off
the GUI thread; Save prints the figures of the moment it is pressed, not the preview's, and the
log records what was printed; after a save the page shows the report with the number given, and
a report made later, saying more, is another original, not a COPY."""

from __future__ import annotations

import sqlite3
from datetime import datetime

import pytest

from app.simulate.shift import SIM_PIN
from app.qt import QSettings
from app.views.reports_page import REFRESH_MS
from app.workstation.config import TableSetup, WorkstationConfig
from app.workstation.workstation import Workstation
from tests.support.shift_report import events, pdf_text
from tests.support.views import Clock, close_window, open_window

WAIT_MS = 30_000


@pytest.fixture
def running(themed, shift, tmp_path, qtbot, no_threads_left):
    """The window at 21:30 in the swing shift of 2026-11-21 (16:00-24:00), on the Reports view."""
    clock = Clock(datetime(2026, 11, 21, 21, 30))
    profiles = {e["table"]: e["data"]["profile"] for e in events(shift) if e["type"] == "table_configured"}
    config = WorkstationConfig(tuple(TableSetup(t, p) for t, p in sorted(profiles.items())), source="the test")
    ws = Workstation(config, shift, clock=clock)
    w = open_window(qtbot, ws, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), "reports test")
    w.ws, w.db, w.clock = ws, shift, clock
    try:
        w.show_view("reports")
        page = w.reports_page
        qtbot.waitUntil(lambda: page.reads >= 1 and not page.reading, timeout=WAIT_MS)
        yield w
    finally:
        close_window(w, ws)


def head(db) -> tuple[int, str]:
    """The log's last row, as the report prints its chain head."""
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    finally:
        conn.close()


def at(qtbot, w, when: datetime) -> None:
    """The clock moved to ``when`` and a supervisor signs in then: one row more in the shift."""
    w.clock.set(when)
    done = []
    w.bridge.act(lambda ws: ws.people.sign_in("floor-1", SIM_PIN), lambda _: done.append(1))
    qtbot.waitUntil(lambda: bool(done) and w.session is not None, timeout=WAIT_MS)


def test_the_preview_follows_the_log_and_save_prints_the_figures_of_the_moment_and_shows_its_number(
        qtbot, running, tmp_path):
    w, page = running, running.reports_page
    first = page.report
    assert first.interim and first.number is None and "its figures are to 21:30:00" in page.status.text()
    assert page.timer.isActive() and page.timer.interval() == REFRESH_MS     # while the page is shown

    # the log grows; the timer (its slot called as its timeout would at 21:36) reads the report again
    at(qtbot, w, datetime(2026, 11, 21, 21, 36))
    page.refresh()
    qtbot.waitUntil(lambda: page.refreshes == 1, timeout=WAIT_MS)
    seq, hash_ = head(w.db)
    assert page.report.events == first.events + 1 and page.report.head == (seq, hash_)
    assert "its figures are to 21:36:00" in page.status.text() and f"chain head {seq}:" in page.status.text()

    # the log grows again and the preview has not been read since: Save prints the figures of the
    # moment it is pressed (21:41), not the preview's (21:36)
    at(qtbot, w, datetime(2026, 11, 21, 21, 41))
    shown_before = page.report
    now_seq, now_hash = head(w.db)
    assert now_seq > shown_before.head[0]
    page.save_pdf(str(tmp_path / "one.pdf"))
    qtbot.waitUntil(lambda: page.issues == 1, timeout=WAIT_MS)
    text = " ".join(pdf_text(tmp_path / "one.pdf").split())
    assert f"{now_seq}:{now_hash}" in text and f"{shown_before.head[0]}:{shown_before.head[1]}" not in text
    assert "its figures to 21:41" in text
    (printed,) = [e["data"] for e in events(w.db) if e["type"] == "report_printed"]
    assert printed["head"] == f"{now_seq}:{now_hash}" and printed["number"] == 1 and printed["copy_of"] is None
    # the page shows the report as printed, numbered
    assert page.report is page.issued and page.report.number == 1 and page.report.head == (now_seq, now_hash)
    assert "report No. 1 of the swing 2026-11-21 shift" in page.status.text()
    assert "not numbered" not in page.status.text()

    # the printed report's own row is in the shift: read again, the figures say more, not numbered
    at(qtbot, w, datetime(2026, 11, 21, 21, 47))      # signed in again (the idle sign-out)
    page.refresh()
    qtbot.waitUntil(lambda: page.refreshes == 2, timeout=WAIT_MS)
    (row,) = [e for e in events(w.db) if e["type"] == "report_printed"]
    assert page.report.number is None and page.report.events > page.issued.events
    assert page.report.head[0] >= row["seq"] > page.issued.head[0]
    assert "not numbered until printed or saved (the last printed, No. 1 at 21:41:00, has other figures)" in \
        page.status.text()
    # printed now, it says more than No. 1: an original, No. 2, not a COPY
    page.save_pdf(str(tmp_path / "two.pdf"))
    qtbot.waitUntil(lambda: page.issues == 2, timeout=WAIT_MS)
    assert page.report.number == 2 and not page.report.copy
    two = " ".join(pdf_text(tmp_path / "two.pdf").split())
    assert "COPY" not in two and "pitdesk shift report No. 2" in two and "its figures to 21:47" in two
    assert "report No. 2 of the swing" in page.status.text()


def test_the_timer_runs_only_while_the_page_is_shown_and_reads_nothing_when_the_log_is_still(qtbot, running):
    w, page = running, running.reports_page
    assert page.timer.isActive()
    w.show_view("floor")
    assert not page.timer.isActive()
    w.show_view("reports")
    assert page.timer.isActive()
    # every page of several tables is not redrawn by itself (a second or more on the GUI thread for
    # a big pit): the status says the log says more, and Show redraws it
    qtbot.waitUntil(lambda: not page.refreshing, timeout=WAIT_MS)     # shown again: read again at once
    page.part.setCurrentIndex(page.part.count() - 1)
    shown, n = page.report, page.refreshes
    at(qtbot, w, datetime(2026, 11, 21, 21, 36))
    page.refresh()
    qtbot.waitUntil(lambda: page.refreshes == n + 1, timeout=WAIT_MS)
    assert page.report is shown and "press Show to redraw it" in page.status.text()
    page.load()
    qtbot.waitUntil(lambda: not page.reading and page.reads >= 2, timeout=WAIT_MS)
    assert page.report.events > shown.events and "its figures are to 21:36:00" in page.status.text()
    # a shift that has ended, and a log that has not grown since it was read: nothing is read again
    w.clock.set(datetime(2026, 11, 22, 0, 30))
    page.choose(first_day(page), "swing", load=True)
    qtbot.waitUntil(lambda: not page.reading and page.reads >= 3, timeout=WAIT_MS)
    assert not page.report.interim
    reads = page.refreshes
    page.refresh()
    assert not page.refreshing and page.refreshes == reads


def first_day(page):
    return page.report.shift.start.date()
