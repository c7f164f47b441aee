"""The Money menu's paper and files pressed in the real window (issue 34): a fill slip put on paper
by its shortcut (the table's latest offered, saved as a PDF where the test says, its words read by
pdftotext: both copies, who signed, the table's own citation) and by the Money tab's button (the
print dialog); the count room's file imported: a bad line named in the dialog, a table the desk
refuses named by its line with nothing written, then every table's drop signed by two of the count
team."""

from __future__ import annotations


import pytest

from app.store import trays
from app.views.money_paper import CountRoomDialog, SlipChoiceDialog
from app.qt import QFileDialog, QLineEdit, QPrintDialog, Qt
from tests.support.round_panel import idle, sign_in
from tests.support.views import DEALER, FLOOR, WAIT_MS, error_shown, gone
from tests.support.money import pdf_pages
from tests.views.test_gui_commands import press
from tests.views.test_gui_money import COUNT_1, COUNT_2, money_says, typed

CASHIER, SECURITY = ("demo-cashier", "5555"), ("demo-security", "6666")


def setup(qtbot, w, *steps):
    """``steps`` (functions of the workstation) run on the window's lane, in order."""
    done = []
    w.bridge.act(lambda ws: [s(ws) for s in steps][-1], done.append)
    qtbot.waitUntil(lambda: bool(done), timeout=WAIT_MS)
    idle(qtbot, w)


def choice(qtbot, w) -> SlipChoiceDialog:
    qtbot.waitUntil(lambda: isinstance(w.dialog, SlipChoiceDialog) and w.dialog.isVisible(), timeout=WAIT_MS)
    return w.dialog


def next_dialog(qtbot, w, cls, name):
    qtbot.waitUntil(lambda: isinstance(w.dialog, cls) and w.dialog.objectName() == name and w.dialog.isVisible(),
                    timeout=WAIT_MS)
    return w.dialog


@pytest.mark.commands("print_tray_slip", "money")
def test_a_fill_slip_on_paper_by_the_shortcut_and_the_money_tabs_button(rpit, qtbot, tmp_path):
    w, ws = rpit.window, rpit.ws
    qtbot.waitUntil(lambda: "M1" in w.floor.tiles, timeout=WAIT_MS)
    sign_in(qtbot, w, DEALER)
    setup(qtbot, w,
          lambda ws: ws.inventory.open_tray("M1", "20 x $100, 40 x $25", signer=(FLOOR.name, FLOOR.pin)),
          lambda ws: ws.inventory.request("M1", "fill", "20 x $25", "the $25s run low"),
          lambda ws: ws.inventory.request("M1", "credit", "1 x $100", "too many $100s"),
          lambda ws: ws.people.sign_in(FLOOR.name, FLOOR.pin),
          lambda ws: ws.decisions.decide(trays.slip(ws.log, "fill", 1)["request"], "approved", ""),
          lambda ws: ws.people.sign_in(*CASHIER),
          lambda ws: ws.inventory.sign("fill", 1, "cage", signers=[SECURITY]))
    qtbot.waitUntil(lambda: w.session is not None and w.session.name == CASHIER[0], timeout=WAIT_MS)
    w.show_view("table:M1")
    _, rules = ws.state_of("M1")
    rule = " ".join(rules.cite("tray_slip").split())

    # the shortcut: the table's latest (the credit) offered; the fill chosen, saved as a PDF
    out = tmp_path / "paper" / "fill-1.pdf"
    out.parent.mkdir()
    press(qtbot, w, "print_tray_slip")
    d = choice(qtbot, w)
    assert d.kind.currentText() == "credit" and d.number.value() == 1
    d.kind.setCurrentText("fill")
    qtbot.mouseClick(d.save, Qt.MouseButton.LeftButton)
    f = next_dialog(qtbot, w, QFileDialog, "save_tray_slip_dialog")
    typed(qtbot, f.findChild(QLineEdit, "fileNameEdit"), str(out))      # the path typed, as a person may
    f.accept()
    qtbot.waitUntil(lambda: w.money.paper.done == 1, timeout=WAIT_MS)
    assert f"Fill slip 000001 saved as {out}" in w.statusBar().currentMessage()
    assert sorted(p.name for p in out.parent.iterdir()) == ["fill-1.pdf"]       # written whole, nothing beside it
    for text, copy in zip(pdf_pages(out), ("ORIGINAL — for the drop box", "DUPLICATE — for the cage")):
        assert "FILL SLIP" in text and "No. 000001" in text and copy in text and "the $25s run low" in text
        assert "Total $500.00" in text and "At the cage: Cashier demo-cashier (cashier)" in text
        assert "At the cage: Security demo-security (security)" in text and rule in text

    # the Money tab's button: the same command; Print opens the print dialog
    press(qtbot, w, "money")
    qtbot.waitUntil(lambda: money_says(w, "FILL 1", "CREDIT 1"), timeout=WAIT_MS)
    button = w.table_page.money.findChild(type(w.round_panel.buttons["settle"]), "button_print_tray_slip")
    assert button is not None and button.isVisible() and button.isEnabled()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    d = choice(qtbot, w)
    qtbot.mouseClick(d.print, Qt.MouseButton.LeftButton)
    p = next_dialog(qtbot, w, QPrintDialog, "print_tray_slip_dialog")
    assert p.windowTitle() == "Print credit slip 000001"
    p.reject()
    qtbot.waitUntil(lambda: gone(p), timeout=WAIT_MS)

    # a slip that does not exist: said in the status bar, no file
    press(qtbot, w, "print_tray_slip")
    d = choice(qtbot, w)
    d.number.setValue(9)
    qtbot.mouseClick(d.save, Qt.MouseButton.LeftButton)
    f = next_dialog(qtbot, w, QFileDialog, "save_tray_slip_dialog")
    f.selectFile(str(tmp_path / "nine.pdf"))
    f.accept()
    qtbot.waitUntil(lambda: "was not saved: no credit slip 9" in w.statusBar().currentMessage(), timeout=WAIT_MS)
    assert not (tmp_path / "nine.pdf").exists()


def import_file(qtbot, w, path) -> CountRoomDialog:
    press(qtbot, w, "import_count_room")
    f = next_dialog(qtbot, w, QFileDialog, "count_room_file_dialog")
    f.selectFile(str(path))
    f.accept()
    qtbot.waitUntil(lambda: isinstance(w.dialog, CountRoomDialog) and w.dialog.isVisible(), timeout=WAIT_MS)
    return w.dialog


@pytest.mark.commands("import_count_room", "money")
def test_the_count_room_file_imported_in_the_window(rpit, qtbot, tmp_path):
    w, ws = rpit.window, rpit.ws
    qtbot.waitUntil(lambda: "M1" in w.floor.tiles, timeout=WAIT_MS)
    other = next(t for t in ws.tables() if t != "M1")
    sign_in(qtbot, w, DEALER)
    setup(qtbot, w,
          lambda ws: ws.inventory.open_tray("M1", "20 x $100, 40 x $25", signer=(FLOOR.name, FLOOR.pin)),
          lambda ws: ws.inventory.buy_in("M1", 20_000, seat=1),
          lambda ws: ws.inventory.close_tray("M1", "18 x $100, 40 x $25", signer=(FLOOR.name, FLOOR.pin)))
    sign_in(qtbot, w, COUNT_1)
    w.show_view("table:M1")
    f = tmp_path / "countroom.csv"

    # a line the file cannot have: named in the dialog, nothing to sign
    f.write_text("table,denomination,count\nM1,$100,2\nT9,$100,1\n")
    d = import_file(qtbot, w, f)
    assert error_shown(d, "countroom.csv:3: no table 'T9' on this floor") and not d.ok.isEnabled()
    qtbot.keyClick(d, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)

    # a table whose shift is not closed: the desk's refusal named by its line, nothing written
    f.write_text(f"table,denomination,count\nM1,$100,2\n{other},$20,5\n")
    d = import_file(qtbot, w, f)
    assert not d.error.isVisible() and d.ok.isEnabled()
    shown = " ".join(lb.text() for lb in d.findChildren(type(d.error)))
    assert "Table M1" in shown and "$200.00" in shown and "line 2" in shown
    typed(qtbot, d.second.name, COUNT_2.name)
    typed(qtbot, d.second.pin, COUNT_2.pin)
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: error_shown(d, "countroom.csv:3: ", "has no closed shift", "nothing written"),
                    timeout=WAIT_MS)
    assert d.second.pin.text() == "" and d.isVisible()
    assert ws.log.query("SELECT COUNT(*) AS n FROM drops")[0]["n"] == 0
    qtbot.keyClick(d, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)

    # the file corrected: signed by two of the count team, every table's drop written
    f.write_text("table,denomination,count\nM1,$100,2\n")
    d = import_file(qtbot, w, f)
    typed(qtbot, d.second.name, COUNT_2.name)
    typed(qtbot, d.second.pin, COUNT_2.pin)
    qtbot.keyClick(d.second.pin, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    assert ws.log.query("SELECT table_id, cents, source FROM drops") == [
        {"table_id": "M1", "cents": 20_000, "source": "countroom.csv"}]
    press(qtbot, w, "money")
    qtbot.waitUntil(lambda: money_says(w, "drop: $200.00", "win: $0.00", "difference: +$0.00"), timeout=WAIT_MS)
    assert "1 drop counted" in w.statusBar().currentMessage()


def test_the_slip_choice_and_the_count_room_dialog_fit_1366x768_and_are_in_words(rpit, qtbot, tmp_path):
    from app.qt import QApplication
    from tests.support.fit import cut_hints
    from tests.support.words import faults, said, shown_texts
    from tests.views.test_gui_money import cut_labels
    w, ws = rpit.window, rpit.ws
    w.set_size(1366, 768)
    qtbot.waitUntil(lambda: "M1" in w.floor.tiles, timeout=WAIT_MS)
    sign_in(qtbot, w, COUNT_1)
    w.show_view("table:M1")
    f = tmp_path / "countroom.csv"
    f.write_text("table,denomination,count\n" + "".join(f"{t},$100,2\n{t},$20,15\n" for t in ws.tables())
                 + "M1,$5,0.5\n")
    found = []

    def looked_at(name, d):
        for _ in range(3):
            QApplication.processEvents()          # the dialog laid out
        if d.width() > 1366 or d.height() > 768 - 40:
            found.append(f"{name}: the dialog is {d.width()}x{d.height()}")
        found.extend(f"{name}: {b}" for b in cut_labels(d) + cut_hints(d))
        for place, text in shown_texts(d):
            found.extend(faults(f"{name} {place}", text))
        qtbot.keyClick(d, Qt.Key.Key_Escape)
        qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)

    press(qtbot, w, "print_tray_slip")
    looked_at("slip choice", choice(qtbot, w))
    d = import_file(qtbot, w, f)                   # every table of the floor, and a line refused
    assert error_shown(d, f"countroom.csv:{2 * len(ws.tables()) + 2}: ")
    looked_at("count room", d)
    assert not found, said(found)
