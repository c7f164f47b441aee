"""Every command of the window pressed in the real window (issue 27): each by its own shortcut,
in the states where it is enabled, asserting what it does; disabled where it cannot act, saying
why in its tooltip.

A test that presses a command says so with ``@pytest.mark.commands(...)``; the last test here
reads those marks from every module of tests/views and fails if a command of the window's
Command table (app/views/main_window.py, ``COMMANDS``) is pressed by no test.
"""

from __future__ import annotations

import importlib
from datetime import datetime
from pathlib import Path

import pytest

from app.simulate.demo import DEMO_USERS
from app.views.dialogs import DecideDialog, SignInDialog, UsersDialog
from app.views.main_window import COMMANDS
from app.views.round.round_dialogs import CardPickerDialog
from app.views.widgets import documents_folder
from app.qt import QFileDialog, QMessageBox, QPrintDialog, Qt
from tests.support.round_panel import activate, idle, open_round_panel, sign_in, type_field
from tests.support.views import ADMIN, DEALER, FLOOR, T0, WAIT_MS, fill, gone

HERE = Path(__file__).parent


def press(qtbot, w, name: str) -> None:
    """The command's own shortcut, pressed in the window (which has the keyboard first)."""
    a = w.actions_by_name[name]
    assert a.isEnabled(), f"{name} is disabled: {a.toolTip()}"
    activate(qtbot, w)
    qtbot.keySequence(w, a.shortcut())


def disabled_saying(w, name: str, why: str) -> bool:
    a = w.actions_by_name[name]
    return not a.isEnabled() and a.toolTip().startswith(why)


def in_documents(d: QFileDialog) -> bool:
    return Path(d.directory().absolutePath()).resolve() == Path(documents_folder()).resolve()


def request(qtbot, w, kind: str = "payoff_threshold", seat: int = 2) -> int:
    """A request waiting for a floor supervisor at M1, through the workstation's lane."""
    got = []
    w.bridge.act(lambda ws: ws.floor.approvals.request(kind, T0, "demo-dealer", "dealer", "M1", seat, 2_500_000,
                                                       reason="a payoff at or above the threshold"), got.append)
    qtbot.waitUntil(lambda: bool(got) and any(r.request == got[0] for r in w.approvals), timeout=WAIT_MS)
    return got[0]


def slip(qtbot, w, table: str = "sd") -> int:
    got = []
    w.bridge.act(lambda ws: ws.slips.issue(datetime(2026, 11, 23, 19), "demo-floor", "floor supervisor", table, 2,
                                           "base", 1000, 30000), got.append)
    qtbot.waitUntil(lambda: bool(got), timeout=WAIT_MS)
    return got[0]


# -- File, View, Logs, Help ---------------------------------------------------------------------------
@pytest.mark.commands("shortcuts", "sign_in", "users", "sign_out", "floor", "table", "alarms", "approvals",
                      "progressive", "logs", "hold", "reports", "next_table", "previous_table", "round",
                      "show_acknowledged", "show_decided", "find_in_log", "export_log")
def test_the_file_view_and_logs_commands_each_do_what_they_say(rpit, qtbot):
    w = rpit.window
    press(qtbot, w, "shortcuts")
    d = w.dialog
    assert d.objectName() == "shortcuts" and d.isVisible()
    assert d.findChild(type(w.alarms_page.view), "shortcut_list").model().rowCount() == len(COMMANDS)
    d.reject()

    # signed out: who signs in may; the users and Sign out wait for someone, saying so
    assert disabled_saying(w, "sign_out", "Nobody is signed in")
    assert disabled_saying(w, "users", "Sign in (F9) to keep the users")
    press(qtbot, w, "sign_in")
    d = w.dialog
    assert isinstance(d, SignInDialog)
    fill(qtbot, d, ADMIN.name, ADMIN.pin)
    qtbot.waitUntil(lambda: w.session is not None and w.session.name == ADMIN.name, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    press(qtbot, w, "users")
    u = w.dialog
    assert isinstance(u, UsersDialog)
    qtbot.waitUntil(lambda: u.model.rowCount() == len(DEMO_USERS), timeout=WAIT_MS)   # the demo's users
    u.reject()
    press(qtbot, w, "sign_out")
    qtbot.waitUntil(lambda: w.session is None, timeout=WAIT_MS)
    assert disabled_saying(w, "users", "Sign in (F9)")
    sign_in(qtbot, w, DEALER)          # the users are an administrator's only
    qtbot.waitUntil(lambda: disabled_saying(w, "users", "To keep the users takes an administrator; demo-dealer is "
                                                        "a dealer"), timeout=WAIT_MS)

    for name in ("floor", "alarms", "approvals", "progressive", "logs", "hold", "reports", "table"):
        press(qtbot, w, name)
        assert w.view == name and w.stack.currentWidget() is w.pages[name], name
    order = w.table_order
    here = w.table_page.table
    press(qtbot, w, "next_table")
    assert w.view == "table" and w.table_page.table == order[(order.index(here) + 1) % len(order)]
    press(qtbot, w, "previous_table")
    assert w.table_page.table == here
    press(qtbot, w, "floor")
    press(qtbot, w, "round")
    assert w.view == "table" and w.table_page.tabs.currentWidget() is w.round_panel

    # the acknowledged alarms and the decided requests: listed, and their columns shown, or not
    for name, page in (("show_acknowledged", w.alarms_page), ("show_decided", w.approvals_page)):
        press(qtbot, w, name)
        assert w.actions_by_name[name].isChecked() and page.proxy.show_all and page.show_all_button.isChecked()
        press(qtbot, w, name)
        assert not page.proxy.show_all

    press(qtbot, w, "find_in_log")
    assert w.view == "logs" and w.logs_page.current().text.hasFocus()
    press(qtbot, w, "export_log")
    logs = w.logs_page.current()
    qtbot.waitUntil(lambda: logs.model.query is not None, timeout=WAIT_MS)
    press(qtbot, w, "export_log")
    d = w.logs_page.findChild(QFileDialog, "export_dialog")
    assert d is not None and d.isVisible() and in_documents(d)      # never the source tree (issue 27, 10)
    d.reject()


# -- Quit ---------------------------------------------------------------------------------------------
@pytest.mark.commands("quit")
def test_quit_asks_while_requests_wait_and_closes_only_on_quit(rpit, qtbot):
    w = rpit.window
    request(qtbot, w)
    press(qtbot, w, "quit")
    box = w.dialog
    assert isinstance(box, QMessageBox) and box.isVisible() and "1 approval request is pending." in box.text()
    qtbot.mouseClick(box.button(QMessageBox.StandardButton.Cancel), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: gone(box), timeout=WAIT_MS)
    assert w.isVisible() and not w.bridge.lane.closed          # answered Cancel: still at work
    press(qtbot, w, "quit")
    box = w.dialog
    qtbot.mouseClick(box.findChild(type(box.button(QMessageBox.StandardButton.Cancel)), "quit_anyway"),
                     Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not w.isVisible() and w.bridge.lane.closed, timeout=WAIT_MS)


@pytest.mark.commands("quit")
def test_quit_with_nothing_waiting_closes_at_once(rpit, qtbot):
    w = rpit.window
    press(qtbot, w, "quit")
    qtbot.waitUntil(lambda: not w.isVisible() and w.bridge.lane.closed, timeout=WAIT_MS)


# -- Approvals: the selection stays where the person was (issue 27, 7) ------------------------------------
@pytest.mark.commands("approve")
def test_after_a_decision_nothing_is_selected_and_a_second_f7_decides_nothing(rpit, qtbot):
    w, ws = rpit.window, rpit.ws
    first, second = request(qtbot, w, seat=2), request(qtbot, w, seat=3)
    w.show_view("approvals")
    assert disabled_saying(w, "approve", "Sign in (F9) to approve or deny a request")
    sign_in(qtbot, w, FLOOR)
    qtbot.waitUntil(lambda: disabled_saying(w, "approve", "Select a pending request in the list"), timeout=WAIT_MS)
    assert w.approvals_page.select_key(first)
    press(qtbot, w, "approve")
    d = w.dialog
    assert isinstance(d, DecideDialog) and d.request.request == first
    assert d.findChild(type(d.error), "countersign_note").isVisible()
    fill(qtbot, d, FLOOR.name, FLOOR.pin)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: next(r for r in w.approvals if r.request == first).status == "approved", timeout=WAIT_MS)
    assert w.approvals_page.selected() is None
    assert not w.approvals_page.view.selectionModel().hasSelection()
    assert disabled_saying(w, "approve", "Select a pending request in the list")
    # F7 again decides nothing: the other request was never looked at
    activate(qtbot, w)
    qtbot.keyClick(w, Qt.Key.Key_F7)
    idle(qtbot, w)
    assert w.dialog is None
    assert next(r for r in ws.reads.approvals(pending_only=False) if r.request == second).status == "pending"


# -- Round: entered, no seat, discarded; the card picker (issue 27, 5) ---------------------------------
@pytest.mark.commands("new_round", "pick_cards", "discard_round")
def test_a_round_with_no_seat_is_not_ready_to_settle_and_f11_is_disabled(rpit, qtbot):
    w, ws = rpit.window, rpit.ws
    panel = w.round_panel
    open_round_panel(qtbot, w, "casino")
    for name in ("new_round", "settle", "discard_round", "pick_cards", "release"):
        assert disabled_saying(w, name, "Sign in (F9) to"), name
    assert not panel.buttons["settle"].isEnabled()
    sign_in(qtbot, w, DEALER)
    press(qtbot, w, "new_round")
    qtbot.waitUntil(lambda: panel.draft is not None and bool(panel.rows), timeout=WAIT_MS)
    type_field(qtbot, panel.rows[0].cards, "as ks qs js 10s 2h 2d")       # the dealer's hand, no seat's
    idle(qtbot, w)
    qtbot.waitUntil(lambda: panel.draft.positions[0].cards != (), timeout=WAIT_MS)
    assert panel.draft.in_round == () and not panel.draft.problems
    assert "READY TO SETTLE" not in panel.badge.text() and "NO SEAT IN THE ROUND YET" in panel.badge.text()
    assert disabled_saying(w, "settle", "No seat is in the round yet")
    activate(qtbot, w)
    qtbot.keyClick(w, Qt.Key.Key_F11)          # disabled: nothing settles, nothing is said wrongly
    idle(qtbot, w)
    assert ws.log.query("SELECT count(*) AS n FROM events WHERE type = 'settlement'")[0]["n"] == 0
    assert not panel.message.isVisible()

    press(qtbot, w, "pick_cards")
    d = panel.dialog
    assert isinstance(d, CardPickerDialog) and d.isVisible()
    d.reject()
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    press(qtbot, w, "discard_round")
    qtbot.waitUntil(lambda: panel.draft is None, timeout=WAIT_MS)
    assert disabled_saying(w, "discard_round", "No round is being entered")


# -- Slips: Save as PDF (issue 27, 1) and Print, by the shortcut and the button ----------------------------
@pytest.mark.commands("save_slip", "print_slip")
def test_save_slip_as_pdf_by_its_shortcut_and_its_button_writes_the_slip(rpit, qtbot, tmp_path):
    w = rpit.window
    panel = w.round_panel
    number = slip(qtbot, w)
    open_round_panel(qtbot, w, "sd")
    panel.tabs.setCurrentWidget(panel.slips_tab)
    qtbot.waitUntil(lambda: panel.slip_model.rowCount() == 1, timeout=WAIT_MS)
    assert panel.select_slip(number)
    for name in ("save_slip", "print_slip", "void_slip"):
        assert disabled_saying(w, name, "Sign in (F9) to"), name
    sign_in(qtbot, w, FLOOR)
    qtbot.waitUntil(lambda: w.actions_by_name["save_slip"].isEnabled(), timeout=WAIT_MS)

    press(qtbot, w, "save_slip")
    d = panel.dialog
    assert isinstance(d, QFileDialog) and d.objectName() == "save_slip_dialog" and in_documents(d)
    out = tmp_path / "by-shortcut.pdf"
    d.selectFile(str(out))
    d.accept()
    qtbot.waitUntil(lambda: out.exists() and out.stat().st_size > 0, timeout=WAIT_MS)
    assert f"Payout slip {number:06d} saved as {out}" in panel.message.text()

    button = panel.slips_tab.findChild(type(panel.buttons["settle"]), "button_save_slip")
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    d = panel.dialog
    assert isinstance(d, QFileDialog) and d.isVisible()
    out = tmp_path / "by-button.pdf"
    d.selectFile(str(out))
    d.accept()
    qtbot.waitUntil(lambda: out.exists() and out.stat().st_size > 0, timeout=WAIT_MS)

    press(qtbot, w, "print_slip")
    d = panel.print_dialog
    assert isinstance(d, QPrintDialog) and d.isVisible()
    d.reject()


# -- Reports: print and save, a supervisor signed in ------------------------------------------------------
@pytest.mark.commands("print_report", "save_report")
def test_print_and_save_the_shift_report_need_a_supervisor_and_open_their_dialogs(rpit, qtbot, tmp_path):
    w, ws = rpit.window, rpit.ws
    assert disabled_saying(w, "print_report", "Sign in (F9) to print or save a shift report")
    sign_in(qtbot, w, DEALER)
    assert disabled_saying(w, "save_report", "To print or save a shift report")
    sign_in(qtbot, w, FLOOR)
    page = w.reports_page
    w.show_view("reports")
    shift = ws.shifts.shift_of(T0)
    qtbot.waitUntil(lambda: not page.reading, timeout=WAIT_MS)
    page.choose(shift.start.date(), shift.name, load=True)
    qtbot.waitUntil(lambda: not page.reading and page.report is not None, timeout=WAIT_MS)
    press(qtbot, w, "print_report")
    d = page.dialog
    assert isinstance(d, QPrintDialog) and d.objectName() == "print_report_dialog" and d.isVisible()
    d.reject()
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    press(qtbot, w, "save_report")
    d = page.dialog
    assert isinstance(d, QFileDialog) and d.objectName() == "save_report_dialog" and in_documents(d)
    out = tmp_path / "report.pdf"
    d.selectFile(str(out))
    d.accept()
    qtbot.waitUntil(lambda: page.issues == 1 and out.exists(), timeout=WAIT_MS)
    logged = ws.log.query("SELECT actor FROM events WHERE type = 'report_printed'")
    assert [r["actor"] for r in logged] == [FLOOR.name]


# -- every command has a test ------------------------------------------------------------------------------
def pressed_by_tests() -> dict[str, list[str]]:
    """Each command, and the tests of tests/views marked as pressing it."""
    out: dict[str, list[str]] = {}
    for path in sorted(HERE.glob("test_*.py")):
        module = importlib.import_module(f"tests.views.{path.stem}")
        for name, fn in vars(module).items():
            if not name.startswith("test_") or not callable(fn):
                continue
            for mark in getattr(fn, "pytestmark", []):
                if mark.name == "commands":
                    for command in mark.args:
                        out.setdefault(command, []).append(f"{path.stem}::{name}")
    return out


def test_every_command_of_the_window_is_pressed_by_a_test():
    pressed = pressed_by_tests()
    names = [c.name for c in COMMANDS]
    missing = [n for n in names if n not in pressed]
    assert not missing, f"no test presses {', '.join(missing)} (mark it @pytest.mark.commands(...))"
    unknown = sorted(set(pressed) - set(names))
    assert not unknown, f"marked as pressed but not a command of the window: {unknown}"
