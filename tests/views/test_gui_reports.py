"""The Reports view (issue 16) in the real window over a simulated swing shift: the preview shows
the report's pages, Save as PDF numbers and logs it only for a signed-in supervisor, a second one
of the same shift says COPY, and the PDF says what ``pitdesk report shift --json`` says."""

from __future__ import annotations

import copy
import json
import subprocess
from datetime import date, datetime

import pytest

from app.simulate.shift import SIM_PIN
from app.qt import QFileDialog, QPrinter, QSettings
from app.workstation.config import TableSetup, WorkstationConfig
from app.workstation.shift_figures import as_json, read_shift_report
from app.workstation.workstation import Workstation
from tests.support.shift_report import DAY, SHIFT, events, money, pdf_text
from tests.support.folders import unwritable_folder
from tests.support.views import Clock, close_window, open_window

WAIT_MS = 30_000


@pytest.fixture
def window(themed, shift, tmp_path, qtbot, no_threads_left):
    clock = Clock(datetime(2026, 11, 22, 0, 30))        # the swing shift of the 21st has ended
    tables = sorted({e["table"] for e in events(shift) if e["type"] == "table_configured"})
    profiles = {e["table"]: e["data"]["profile"] for e in events(shift) if e["type"] == "table_configured"}
    config = WorkstationConfig(tuple(TableSetup(t, profiles[t]) for t in tables), source="the reports test")
    ws = Workstation(config, shift, clock=clock)
    w = open_window(qtbot, ws, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), "reports test")
    w.ws, w.db = ws, shift
    yield w
    close_window(w, ws)


def shown(qtbot, w):
    page = w.reports_page
    w.show_view("reports")
    qtbot.waitUntil(lambda: page.reads >= 1 and not page.reading, timeout=WAIT_MS)
    return page


def test_the_view_opens_on_the_last_shift_and_previews_its_pages(qtbot, window):
    page = shown(qtbot, window)
    assert page.chosen() == (date.fromisoformat(DAY), SHIFT)
    assert [page.shift.itemText(i) for i in range(page.shift.count())] == ["grave", "day", "swing"]
    qtbot.waitUntil(lambda: page.preview.pageCount() >= 1, timeout=WAIT_MS)     # the pit's page first
    page.part.setCurrentIndex(page.part.count() - 1)                               # every page
    qtbot.waitUntil(lambda: page.preview.pageCount() >= 4, timeout=WAIT_MS)
    assert page.report.rounds == as_json(read_shift_report(window.db, date.fromisoformat(DAY), SHIFT))["pit"]["rounds"]
    assert "not numbered until printed" in page.status.text()
    # the shift being worked (grave, from 00:00) has nothing logged yet: the last that ended, said so
    assert "nothing is logged in the grave 2026-11-22 shift yet" in page.status.text()
    # a shift with no events is said, and nothing can be printed
    page.choose(date(2026, 11, 25), "day", load=True)
    qtbot.waitUntil(lambda: not page.reading and "no events in the day 2026-11-25 shift" in page.status.text(),
                    timeout=WAIT_MS)
    assert not page.save_button.isEnabled() and not page.print_button.isEnabled()


def test_print_and_save_are_disabled_saying_why_while_nobody_who_may_print_is_signed_in(qtbot, window):
    page = shown(qtbot, window)
    assert page.report is not None
    for button in (page.print_button, page.save_button):
        assert not button.isEnabled()
        assert button.toolTip().startswith("Sign in (F9) to print or save a shift report")
    done = []
    window.bridge.act(lambda ws: ws.people.sign_in("floor-1", SIM_PIN), lambda _: done.append(1))
    qtbot.waitUntil(lambda: bool(done) and page.print_button.isEnabled() and page.save_button.isEnabled(),
                    timeout=WAIT_MS)
    assert not page.print_button.toolTip().startswith("Sign in")
    window.bridge.act(lambda ws: ws.people.sign_out(), lambda _: done.append(2))
    qtbot.waitUntil(lambda: done[-1] == 2 and not page.save_button.isEnabled(), timeout=WAIT_MS)
    assert page.save_button.toolTip().startswith("Sign in (F9)")


def test_saving_numbers_and_logs_the_report_for_a_signed_in_supervisor_and_a_second_is_a_copy(qtbot, window,
                                                                                                tmp_path):
    page = shown(qtbot, window)
    before = len(events(window.db))
    page.save_pdf(str(tmp_path / "nobody.pdf"))
    assert "Sign in (F9)" in page.status.text() and not (tmp_path / "nobody.pdf").exists()
    assert len(events(window.db)) == before
    done = []
    window.bridge.act(lambda ws: ws.people.sign_in("floor-1", SIM_PIN), lambda _: done.append(1))
    qtbot.waitUntil(lambda: bool(done) and window.session is not None, timeout=WAIT_MS)
    page.save_pdf(str(tmp_path / "one.pdf"))
    qtbot.waitUntil(lambda: page.issues == 1, timeout=WAIT_MS)
    assert page.issued.number == 1 and not page.issued.copy and page.issued.printed_by == "floor-1"
    text = " ".join(pdf_text(tmp_path / "one.pdf").split())
    out = as_json(read_shift_report(window.db, date.fromisoformat(DAY), SHIFT))
    assert "pitdesk shift report No. 1" in text and "by floor-1" in text and "COPY" not in text
    assert f"{out['chain_head']['seq']}:{out['chain_head']['hash']}" in text
    assert money(out["pit"]["total"]["house_net"]) in text
    page.save_pdf(str(tmp_path / "two.pdf"))
    qtbot.waitUntil(lambda: page.issues == 2, timeout=WAIT_MS)
    assert page.issued.number == 2 and page.issued.copy_of == 1       # the shift had ended: the same content
    assert "COPY — a reprint of report No. 1" in " ".join(pdf_text(tmp_path / "two.pdf").split())
    logged = [e for e in events(window.db) if e["type"] == "report_printed"]
    assert [(e["data"]["number"], e["data"]["copy_of"], e["actor"]) for e in logged] == \
        [(1, None, "floor-1"), (2, 1, "floor-1")]
    assert "report No. 2 (COPY of No. 1)" in page.status.text()
    # the page shows the report as printed, with the number it was given (issue 33, 3c)
    assert page.report is page.issued and page.report.number == 2


def test_a_file_that_cannot_be_written_is_logged_as_failed(qtbot, window, tmp_path):
    page = shown(qtbot, window)
    done = []
    window.bridge.act(lambda ws: ws.people.sign_in("floor-1", SIM_PIN), lambda _: done.append(1))
    qtbot.waitUntil(lambda: bool(done), timeout=WAIT_MS)
    page.save_pdf(str(tmp_path / "no-such-folder" / "r.pdf"))
    qtbot.waitUntil(lambda: "was not made" in page.status.text(), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: any(e["type"] == "report_failed" for e in events(window.db)), timeout=WAIT_MS)
    failed = [e for e in events(window.db) if e["type"] == "report_failed"]
    assert failed[0]["data"]["number"] == 1 and "r.pdf" in failed[0]["data"]["where"]
    assert page.status.property("level") == "red"


def test_the_json_command_is_what_the_view_read(window):
    p = subprocess.run([str(__import__("pathlib").Path(__import__("sys").executable).with_name("pitdesk")), "report",
                        "shift", "--db", str(window.db), "--date", DAY, "--shift", SHIFT, "--json"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    cli = json.loads(p.stdout)
    mine = as_json(window.ws.reads.shift_report(date.fromisoformat(DAY), SHIFT))
    for k in ("pit", "tables", "chain_head", "from", "to", "events"):
        assert cli[k] == mine[k], k


def test_the_preview_shows_the_pit_with_a_table_or_every_page_and_the_pdf_has_every_page(qtbot, window, tmp_path):
    page = shown(qtbot, window)
    parts = [page.part.itemText(i) for i in range(page.part.count())]
    assert parts == ["The pit", "The pit and T1", "The pit and T2", "The pit and T3", "Every page (3 tables)"]
    counts = {}
    for i, name in enumerate(parts):
        page.part.setCurrentIndex(i)
        qtbot.waitUntil(lambda: page.preview.pageCount() > 0, timeout=WAIT_MS)
        counts[name] = page.preview.pageCount()
    assert counts["The pit"] < counts["The pit and T1"] < counts["Every page (3 tables)"]
    assert counts["Every page (3 tables)"] - counts["The pit"] == sum(counts[f"The pit and T{n}"] - counts["The pit"]
                                                                      for n in (1, 2, 3))
    page.part.setCurrentIndex(0)
    done = []
    window.bridge.act(lambda ws: ws.people.sign_in("floor-1", SIM_PIN), lambda _: done.append(1))
    qtbot.waitUntil(lambda: bool(done), timeout=WAIT_MS)
    page.save_pdf(str(tmp_path / "all.pdf"))
    qtbot.waitUntil(lambda: page.issues == 1, timeout=WAIT_MS)
    text = " ".join(pdf_text(tmp_path / "all.pdf").split())
    assert all(f"Table {t} —" in text for t in ("T1", "T2", "T3"))
    assert f"page {counts['Every page (3 tables)']} of {counts['Every page (3 tables)']}" in text


# -- issue 26: made first, then logged (as `pitdesk report shift --out`) ----------------------------
def signed_in(qtbot, window):
    done = []
    window.bridge.act(lambda ws: ws.people.sign_in("floor-1", SIM_PIN), lambda _: done.append(1))
    qtbot.waitUntil(lambda: bool(done) and window.session is not None, timeout=WAIT_MS)


def logged(db, kind):
    return [e for e in events(db) if e["type"] == kind]


def test_save_as_pdf_through_the_dialog_writes_the_whole_file_then_logs_it_printed_naming_it(qtbot, window,
                                                                                             tmp_path):
    page = shown(qtbot, window)
    signed_in(qtbot, window)
    folder = tmp_path / "reports"
    folder.mkdir()
    path = folder / "swing.pdf"
    page.save_pdf()                                   # the file dialog, opened (not run)
    d = page.dialog
    assert isinstance(d, QFileDialog) and d.objectName() == "save_report_dialog" and d.isVisible()
    d.selectFile(str(path))
    d.accept()
    qtbot.waitUntil(lambda: page.issues == 1, timeout=WAIT_MS)
    data = path.read_bytes()
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert "pitdesk shift report No. 1" in " ".join(pdf_text(path).split())
    (printed,) = logged(window.db, "report_printed")
    assert printed["data"]["where"] == f"file {path}" and printed["data"]["number"] == 1
    assert not logged(window.db, "report_failed")
    assert sorted(p.name for p in folder.iterdir()) == ["swing.pdf"]      # no .part left beside it
    assert page.status.property("level") == "ok" and f"file {path}" in page.status.text()


def test_a_number_taken_while_the_pdf_was_made_is_made_again_with_the_next(qtbot, window, tmp_path):
    page = shown(qtbot, window)
    signed_in(qtbot, window)
    path = tmp_path / "again.pdf"
    other = []
    page.save_pdf(str(path))
    # on the lane after this report is numbered and before its file is logged: another print
    # takes number 1 (as another workstation may)
    window.bridge.act(lambda ws: ws.decisions.log_report_printed(copy.copy(page.report), "printer elsewhere"),
                      other.append)
    qtbot.waitUntil(lambda: page.issues == 1, timeout=WAIT_MS)
    assert other and page.issued.number == 2
    assert [(e["data"]["number"], e["data"]["where"]) for e in logged(window.db, "report_printed")] == \
        [(1, "printer elsewhere"), (2, f"file {path}")]
    assert "pitdesk shift report No. 2" in " ".join(pdf_text(path).split())
    assert not logged(window.db, "report_failed")


def test_a_folder_is_refused_before_anything_is_written_and_logged_as_failed(qtbot, window, tmp_path):
    page = shown(qtbot, window)
    signed_in(qtbot, window)
    folder = tmp_path / "a-folder.pdf"
    folder.mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    page.save_pdf(str(folder))
    qtbot.waitUntil(lambda: "was not made" in page.status.text(), timeout=WAIT_MS)
    assert "is a folder, not a file" in page.status.text() and page.status.property("level") == "red"
    (failed,) = logged(window.db, "report_failed")
    assert failed["data"]["number"] == 1 and "is a folder, not a file" in failed["data"]["reason"]
    assert not logged(window.db, "report_printed") and page.issues == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == before and not list(folder.iterdir())


def test_an_unwritable_folder_is_logged_as_failed_with_nothing_half_written(qtbot, window, tmp_path):
    page = shown(qtbot, window)
    signed_in(qtbot, window)
    folder = tmp_path / "locked"
    folder.mkdir()
    with unwritable_folder(folder) as how:
        # root writes through a folder's mode bits: it is made immutable instead, and the write
        # itself fails (past the check); where neither can be done, a "folder" that is a file
        if how is None:
            (tmp_path / "a-file").write_text("")
        path = folder / "r.pdf" if how else tmp_path / "a-file" / "r.pdf"
        page.save_pdf(str(path))
        qtbot.waitUntil(lambda: "was not made" in page.status.text(), timeout=WAIT_MS)
        assert page.status.property("level") == "red" and "logged as failed" in page.status.text()
        assert not path.exists() and not list(folder.iterdir())
    (failed,) = logged(window.db, "report_failed")
    assert failed["data"]["where"] == f"file {path}" and str(path) in failed["data"]["reason"]
    assert not logged(window.db, "report_printed")


def test_a_printer_that_prints_to_a_file_saves_the_pdf_whole(qtbot, window, tmp_path):
    page = shown(qtbot, window)
    signed_in(qtbot, window)
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFileName(str(tmp_path / "printed.pdf"))
    page.print_to(printer)
    qtbot.waitUntil(lambda: page.issues == 1, timeout=WAIT_MS)
    assert (tmp_path / "printed.pdf").read_bytes().startswith(b"%PDF-")
    (printed,) = logged(window.db, "report_printed")
    assert printed["data"]["where"] == f"file {tmp_path / 'printed.pdf'}"


def test_the_view_opens_on_the_shift_being_worked_as_an_interim_report(themed, shift, tmp_path, qtbot,
                                                                       no_threads_left):
    """Issue 27, item 8: at 21:30 in the swing shift the view opens on it, INTERIM, not on the day shift."""
    clock = Clock(datetime(2026, 11, 21, 21, 30))
    tables = sorted({e["table"] for e in events(shift) if e["type"] == "table_configured"})
    profiles = {e["table"]: e["data"]["profile"] for e in events(shift) if e["type"] == "table_configured"}
    config = WorkstationConfig(tuple(TableSetup(t, profiles[t]) for t in tables), source="the reports test")
    ws = Workstation(config, shift, clock=clock)
    w = open_window(qtbot, ws, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), "reports test")
    try:
        page = shown(qtbot, w)
        assert page.chosen() == (date(2026, 11, 21), "swing")
        assert page.report.interim and "INTERIM: the shift runs to 00:00" in page.status.text()
        assert "nothing is logged" not in page.status.text()
    finally:
        close_window(w, ws)
