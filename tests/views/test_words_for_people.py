"""Every word the window, the paper and the command line show a person is for people: no raw
cents, no identifiers with underscores, no ISO timestamps (issue 27, app/engine/words.py).

The real window over a real floor: every label, button, action, tab, choice and tooltip, and
every cell and heading of every list in every view (floor, each table, the round panel after a
docs/rounds example is typed and settled, alarms, approvals, progressive, each logs tab, hold,
reports), the shift report's and the slip's PDF as pdftotext reads them, and the error lines of
``pitdesk`` for bad input. JSON is for machines and is not scanned: ``pitdesk settle``'s output.
The round panel's "As logged" page is the settlement as sealed in words, and is scanned (issue 33, 5).
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stderr, redirect_stdout
from datetime import date
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.cli.main import main as pitdesk
from app.reports import shift_report, slip
from app.views.round.round_dialogs import ReleaseDialog
from tests.support.round_panel import (PAYEE, activate, idle, open_round_panel, settle_from_panel, sign_in,
                                       type_round)
from tests.support.shift_report import pdf_text
from tests.support.words import faults, said, shown_texts
from tests.support.views import DEALER, FLOOR, PIT, WAIT_MS, gone, wait_online

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "rounds").glob("*.json"))
FAST = ("casino-player", "section6-house")       # a player bank (003) and a meter payout needing approval

class Scan:
    """The faults found, view by view."""

    def __init__(self, window):
        self.window = window
        self.found: list[str] = []
        self.seen = 0

    def view(self, name: str) -> None:
        for where, text in shown_texts(self.window):
            self.seen += 1
            self.found.extend(faults(f"{name} {where}", text))

    def text(self, name: str, text: str) -> None:
        self.seen += 1
        self.found.extend(faults(name, text))


def visit_every_view(qtbot, s: Scan, tables) -> None:
    w = s.window
    for t in tables:
        w.show_view(f"table:{t}")
        idle(qtbot, w)
        s.view(f"table:{t}")
    for name in ("floor", "alarms", "approvals", "progressive"):
        w.show_view(name)
        idle(qtbot, w)
        s.view(name)
    for tab, page in w.logs_page.pages.items():
        w.show_view(f"logs:{tab}")
        qtbot.waitUntil(lambda: page.model.query is not None and not page.model.busy, timeout=WAIT_MS)
        s.view(f"logs:{tab}")
    w.show_view("hold")
    qtbot.waitUntil(lambda: w.hold_page.reads >= 1 and not w.hold_page.reading, timeout=WAIT_MS)
    s.view("hold")


def settle_example(qtbot, w, path: Path) -> object:
    obj = json.loads(path.read_text())
    type_round(qtbot, w, obj["profile"], obj)
    return settle_from_panel(qtbot, w)


def approve_and_release(qtbot, rpit, table: str, result) -> None:
    """The floor supervisor signs in; each pending request approved with the pit manager's
    counter-signature (issue 27, 6), then the round released by the floor supervisor with the W-2G
    data a slip needs."""
    w = rpit.window
    panel = w.round_panel
    sign_in(qtbot, w, FLOOR)
    for a in result.approvals:
        w.show_view("approvals")
        activate(qtbot, w)
        qtbot.waitUntil(lambda a=a: w.approvals_page.select_key(a.request), timeout=WAIT_MS)
        qtbot.keyClick(w, Qt.Key.Key_F7)
        d = w.dialog
        d.name.clear()
        qtbot.keyClicks(d.name, PIT.name)
        d.pin.clear()
        qtbot.keyClicks(d.pin, PIT.pin)
        qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda d=d: gone(d), timeout=WAIT_MS)
    open_round_panel(qtbot, w, table)
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.status == "ready", timeout=WAIT_MS)
    activate(qtbot, w)
    qtbot.keyClick(w, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    d = panel.dialog
    assert isinstance(d, ReleaseDialog)
    for fields in d.w2g.values():
        for key, value in PAYEE.items():
            fields[key].setText(value)
    d.name.clear()
    qtbot.keyClicks(d.name, FLOOR.name)
    d.pin.clear()
    qtbot.keyClicks(d.pin, FLOOR.pin)
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: panel.result.status == "released", timeout=WAIT_MS)


def scan_rounds(qtbot, rpit, tmp_path, names: tuple[str, ...]) -> Scan:
    w, ws = rpit.window, rpit.ws
    s = Scan(w)
    sign_in(qtbot, w, DEALER)
    for name in names:
        path = ROOT / "docs" / "rounds" / f"{name}.json"
        r = settle_example(qtbot, w, path)
        s.view(f"{name} settled")
        panel = w.round_panel
        if r.approvals or any(p.slip_reason for p in r.payouts):
            approve_and_release(qtbot, rpit, json.loads(path.read_text())["profile"], r)
            s.view(f"{name} released")
            sign_in(qtbot, w, DEALER)
        for n in range(panel.tabs.count()):
            panel.tabs.setCurrentIndex(n)
            s.view(f"{name} round panel tab {n}")
    visit_every_view(qtbot, s, [t.id for t in ws.config.tables])
    # the slips issued, on paper
    for entry in ws.rounds.slip_book():
        out = tmp_path / f"slip-{entry.number}.pdf"
        slip.write_pdf(entry, out)
        s.text(f"slip {entry.number}", pdf_text(out))
    # the shift report of the shift these rounds were settled in
    page = w.reports_page
    w.show_view("reports")
    qtbot.waitUntil(lambda: not page.reading, timeout=WAIT_MS)       # the shift it opens on, read
    page.choose(date(2026, 11, 23), "swing", load=True)
    qtbot.waitUntil(lambda: not page.reading and page.report is not None and page.report.shift.name == "swing",
                    timeout=WAIT_MS)
    s.view("reports")
    shift_report.write_pdf(page.report, tmp_path / "shift.pdf")
    s.text("shift report", pdf_text(tmp_path / "shift.pdf"))
    return s


@pytest.mark.parametrize("names", [FAST])
def test_the_round_floors_words_are_for_people(rpit, qtbot, tmp_path, names):
    # a table of 003's profile cites 003 for its bank at the start of the game, not 000(m)(2)
    w = rpit.window
    w.show_view("table:casino")
    qtbot.waitUntil(lambda: "no player banks at the start of the game (003 PLAYER BANK 1)" in w.table_page.bank.text(),
                    timeout=WAIT_MS)
    w.show_view("table:section6")
    qtbot.waitUntil(lambda: "(000(m)(2))" in w.table_page.bank.text(), timeout=WAIT_MS)
    s = scan_rounds(qtbot, rpit, tmp_path, names)
    assert s.seen > 1000
    assert not s.found, said(s.found)


@pytest.mark.slow
def test_every_examples_words_are_for_people(rpit, qtbot, tmp_path):
    s = scan_rounds(qtbot, rpit, tmp_path, tuple(p.stem for p in EXAMPLES))
    assert not s.found, said(s.found)


def test_the_demo_floors_words_are_for_people(pit, qtbot):
    """The demo floor of simulated devices: its tiles, a table with every device, the alarms and
    approvals they raise, the progressive, the logs and the hold."""
    wait_online(qtbot, pit, "T1")
    s = Scan(pit.window)
    visit_every_view(qtbot, s, ("T1", "T7"))
    assert s.seen > 500
    assert not s.found, said(s.found)


# -- the command line's messages for people ------------------------------------------------------------
def run(*args: str) -> tuple[int, str]:
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        try:
            code = pitdesk(list(args))
        except SystemExit as e:
            code = e.code
    return code, err.getvalue()


def test_the_command_lines_error_lines_are_for_people(tmp_path, home):
    obj = json.loads((ROOT / "docs" / "rounds" / "casino-player.json").read_text())
    cases = {"no seats": {**obj, "seats": []},
             "a bank short by a cent": {**obj, "banking": {**obj["banking"], "chips": 1}},
             "a dealer's wager over the cap": {**obj, "banking": {**obj["banking"], "dealer_wager": 10 ** 7}}}
    found = []
    for what, bad in cases.items():
        f = tmp_path / f"{what}.json"
        f.write_text(json.dumps(bad))
        code, err = run("settle", str(f))
        assert code == 2 and err.strip(), (what, code, err)
        found += faults(f"pitdesk settle ({what})", err.replace(str(tmp_path), "FOLDER"))
    for args in (("hold", "--db", str(tmp_path / "none.db"), "--from", "yesterday"),
                 ("audit", "verify", "--db", str(tmp_path / "none.db"))):
        code, err = run(*args)
        assert code == 2 and err.strip(), (args, code, err)
        found += faults(f"pitdesk {args[0]}", err.replace(str(tmp_path), "FOLDER"))
    assert not found, "\n".join(found)
