"""The Reports view over a log that fails its check (issue 35, finding 1), in the real window: the
status says NOT VERIFIED in red with the row and the kind; Save asks first (a person presses "Do
not print": nothing written, nothing logged; "Print NOT VERIFIED": the PDF marked on every page,
logged with ``verified: false``)."""

from __future__ import annotations

import sqlite3
import subprocess
from datetime import datetime

import pytest

from app.qt import QMessageBox, QPushButton, QSettings, Qt
from app.workstation.config import TableSetup, WorkstationConfig
from app.workstation.workstation import Workstation
from tests.support.money import pdf_pages
from tests.support.shift_report import events
from tests.support.views import Clock, close_window, open_window
from tests.views.test_gui_reports import WAIT_MS, logged, shown, signed_in


@pytest.fixture
def window(themed, shift, tmp_path, qtbot, no_threads_left):
    conn = sqlite3.connect(shift)
    with conn:      # a figure changed in a read model, the chain untouched
        seq = conn.execute("SELECT max(seq) FROM hold_house").fetchone()[0]
        conn.execute("UPDATE hold_house SET won = won + 5000000 WHERE seq = ?", (seq,))
    conn.close()
    clock = Clock(datetime(2026, 11, 22, 0, 30))        # the swing shift of the 21st has ended
    tables = sorted({e["table"] for e in events(shift) if e["type"] == "table_configured"})
    profiles = {e["table"]: e["data"]["profile"] for e in events(shift) if e["type"] == "table_configured"}
    config = WorkstationConfig(tuple(TableSetup(t, profiles[t]) for t in tables), source="the reports test")
    ws = Workstation(config, shift, clock=clock)
    w = open_window(qtbot, ws, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), "reports test")
    w.ws, w.db, w.edited = ws, shift, seq
    yield w
    close_window(w, ws)


def press(qtbot, page, name: str) -> None:
    box = page.dialog
    assert isinstance(box, QMessageBox) and box.objectName() == "not_verified_dialog" and box.isVisible()
    assert f"row {page.window().edited}: read model" in box.text()
    qtbot.mouseClick(box.findChild(QPushButton, name), Qt.MouseButton.LeftButton)


def test_the_page_says_not_verified_and_save_asks_before_it_prints_it_so(qtbot, window, tmp_path):
    page = shown(qtbot, window)
    seq = window.edited
    assert page.report.not_verified
    assert page.status.property("level") == "red"
    assert f"NOT VERIFIED: the log fails its check: row {seq}: read model" in page.status.text()
    signed_in(qtbot, window)

    path = tmp_path / "swing.pdf"
    page.save_pdf(str(path))
    qtbot.waitUntil(lambda: page.dialog is not None and page.dialog.isVisible(), timeout=WAIT_MS)
    press(qtbot, page, "do_not_print")
    qtbot.waitUntil(lambda: not page.issuing, timeout=WAIT_MS)
    assert not path.exists() and not logged(window.db, "report_printed") and not logged(window.db, "report_failed")
    assert "not printed: the log fails its check" in page.status.text()

    page.save_pdf(str(path))
    qtbot.waitUntil(lambda: page.dialog is not None and page.dialog.isVisible(), timeout=WAIT_MS)
    press(qtbot, page, "print_not_verified")
    qtbot.waitUntil(lambda: page.issues == 1, timeout=WAIT_MS)
    (printed,) = logged(window.db, "report_printed")
    assert printed["data"]["verified"] is False and printed["data"]["finding"]["seq"] == seq
    n = int(next(ln.split()[-1] for ln in subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True,
                                                          timeout=60).stdout.splitlines() if ln.startswith("Pages:")))
    assert n >= 2 and all("NOT VERIFIED" in text for text in pdf_pages(path, range(1, n + 1)))


def test_the_print_button_asks_before_it_prints_it_not_verified(qtbot, window, tmp_path):
    """Print… pressed: the print dialog, then (the log failing its check) the question; "Do not
    print" prints and logs nothing, "Print NOT VERIFIED" prints every page marked, logged so."""
    from app.qt import QDialog, QPrintDialog
    page = shown(qtbot, window)
    seq = window.edited
    signed_in(qtbot, window)
    out = tmp_path / "printed.pdf"

    def print_pressed() -> None:
        qtbot.mouseClick(page.print_button, Qt.MouseButton.LeftButton)
        d = page.dialog
        assert isinstance(d, QPrintDialog) and d.objectName() == "print_report_dialog" and d.isVisible()
        d.printer().setOutputFileName(str(out))     # a printer that prints to a file
        d.done(QDialog.DialogCode.Accepted)         # as OK does, without the offscreen dialog's own file field
        qtbot.waitUntil(lambda: isinstance(page.dialog, QMessageBox) and page.dialog.isVisible(), timeout=WAIT_MS)

    print_pressed()
    press(qtbot, page, "do_not_print")
    qtbot.waitUntil(lambda: not page.issuing, timeout=WAIT_MS)
    assert not out.exists() and not logged(window.db, "report_printed") and not logged(window.db, "report_failed")

    print_pressed()
    press(qtbot, page, "print_not_verified")
    qtbot.waitUntil(lambda: page.issues == 1, timeout=WAIT_MS)
    (printed,) = logged(window.db, "report_printed")
    assert printed["data"]["verified"] is False and printed["data"]["finding"]["seq"] == seq
    assert printed["data"]["where"] == f"file {out}"
    n = int(next(ln.split()[-1] for ln in subprocess.run(["pdfinfo", str(out)], capture_output=True, text=True,
                                                          timeout=60).stdout.splitlines() if ln.startswith("Pages:")))
    assert n >= 2 and all("NOT VERIFIED" in text for text in pdf_pages(out, range(1, n + 1)))
