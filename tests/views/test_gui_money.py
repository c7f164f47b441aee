"""The pit's money pressed in the real window (issue 34): the opener counted by value and signed
by two, a fill asked for, approved in the queue, signed at the cage and at the table, a buy-in, a
credit voided, the closer typed as '33 x $100' and the drop box counted by two of the count team;
the tile, the approvals queue and the table's Money tab saying each step. Every Money command is
pressed by its own shortcut (tests/views/test_gui_commands.py reads the marks)."""

from __future__ import annotations

import pytest

from app.store import trays
from app.views.dialogs import DecideDialog
from app.views.money_dialogs import (BuyInDialog, DropDialog, SignSlipDialog, SlipRequestDialog, TrayCountDialog,
                                     VoidSlipDialog)
from app.qt import QApplication, Qt
from tests.support.round_panel import activate, idle, sign_in
from tests.support.views import DEALER, FLOOR, WAIT_MS, error_shown, fill, gone
from tests.views.test_gui_commands import press


class Person:
    def __init__(self, name, pin):
        self.name, self.pin = name, pin


CASHIER, SECURITY = Person("demo-cashier", "5555"), Person("demo-security", "6666")
COUNT_1, COUNT_2 = Person("demo-count-1", "7777"), Person("demo-count-2", "8888")


def opened(qtbot, w, name, cls):
    press(qtbot, w, name)
    qtbot.waitUntil(lambda: isinstance(w.dialog, cls) and w.dialog.isVisible(), timeout=WAIT_MS)
    return w.dialog


def typed(qtbot, edit, text):
    edit.clear()
    qtbot.keyClicks(edit, text)


def second(qtbot, d, who):
    typed(qtbot, d.second.name, who.name)
    typed(qtbot, d.second.pin, who.pin)


def enter(qtbot, d, w):
    """Enter accepts the dialog; it closes once the workstation took it, and the window is updated."""
    qtbot.keyClick(d.focusWidget() or d, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    idle(qtbot, w)


def tile_says(w, table, *words):
    text = w.floor.tiles[table].summary()
    return all(x in text for x in words)


def money_says(w, *words):
    text = w.table_page.money.text()
    return all(x in text for x in words)


@pytest.mark.commands("money", "open_tray", "request_fill", "approve", "sign_cage", "sign_table", "buy_in",
                      "request_credit", "void_tray_slip", "close_tray", "count_drop")
def test_a_shift_of_money_pressed_in_the_window(rpit, qtbot):
    w, ws = rpit.window, rpit.ws
    qtbot.waitUntil(lambda: "M1" in w.floor.tiles and tile_says(w, "M1", "TRAY NOT OPEN"), timeout=WAIT_MS)
    sign_in(qtbot, w, DEALER)
    w.show_view("table:M1")

    # the opener: by value, the total live; a wrong PIN keeps the count typed
    d = opened(qtbot, w, "open_tray", TrayCountDialog)
    typed(qtbot, d.counts.fields[10000], "20")
    typed(qtbot, d.counts.fields[2500], "40")
    assert "TOTAL $3,000.00" in d.counts.total.text()
    typed(qtbot, d.second.name, FLOOR.name)
    typed(qtbot, d.second.pin, "0000")
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: error_shown(d, "PIN"), timeout=WAIT_MS)
    assert d.counts.fields[10000].text() == "20" and d.second.pin.text() == ""
    typed(qtbot, d.second.pin, FLOOR.pin)
    enter(qtbot, d, w)
    qtbot.waitUntil(lambda: tile_says(w, "M1", "TRAY $3,000.00"), timeout=WAIT_MS)

    press(qtbot, w, "money")
    assert w.table_page.tabs.currentWidget() is w.table_page.money
    qtbot.waitUntil(lambda: money_says(w, "TRAY EXPECTED $3,000.00", "opener: $3,000.00"), timeout=WAIT_MS)
    _, rules = ws.state_of("M1")
    assert money_says(w, rules.cite("tray_count"), rules.cite("tray_collect"))

    # a fill asked for at the table: it is in the queue, its tile marks it
    d = opened(qtbot, w, "request_fill", SlipRequestDialog)
    typed(qtbot, d.counts.fields[2500], "20")
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
    assert error_shown(d, "why")                     # no reason: said, nothing sent
    typed(qtbot, d.reason, "the $25s run low")
    enter(qtbot, d, w)
    qtbot.waitUntil(lambda: tile_says(w, "M1", "1 SLIP") and any(r.kind == "fill" for r in w.approvals),
                    timeout=WAIT_MS)
    w.show_view("approvals")
    model = w.approvals_page.view.model()
    shown = [model.index(r, c).data() for r in range(model.rowCount()) for c in range(model.columnCount())]
    assert "FILL: cage to tray" in shown and any("20 x $25.00" in str(x) for x in shown)

    # approved by the supervisor (F7, the table's first pending request)
    sign_in(qtbot, w, FLOOR)
    w.show_view("table:M1")
    d = opened(qtbot, w, "approve", DecideDialog)
    fill(qtbot, d, FLOOR.name, FLOOR.pin)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: tile_says(w, "M1", "1 SLIP, 1 TO SIGN"), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: money_says(w, "FILL 1", "APPROVED: to sign at the cage"), timeout=WAIT_MS)

    # at the cage: a cashier and security
    sign_in(qtbot, w, CASHIER)
    d = opened(qtbot, w, "sign_cage", SignSlipDialog)
    assert d.choice.count() == 1 and "FILL 1" in d.choice.currentText()
    second(qtbot, d, SECURITY)
    enter(qtbot, d, w)
    qtbot.waitUntil(lambda: money_says(w, "SIGNED AT THE CAGE: to sign at the table"), timeout=WAIT_MS)

    # at the table: the dealer and a supervisor; the tray moves
    sign_in(qtbot, w, DEALER)
    d = opened(qtbot, w, "sign_table", SignSlipDialog)
    second(qtbot, d, FLOOR)
    enter(qtbot, d, w)
    qtbot.waitUntil(lambda: tile_says(w, "M1", "TRAY $3,500.00") and not tile_says(w, "M1", "SLIP"),
                    timeout=WAIT_MS)

    # a buy-in: chips leave the tray
    d = opened(qtbot, w, "buy_in", BuyInDialog)
    typed(qtbot, d.amount, "2OO")
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
    assert error_shown(d, "Amount")
    typed(qtbot, d.amount, "200")
    d.seat.setCurrentIndex(3)
    typed(qtbot, d.player, "P. Chan")
    enter(qtbot, d, w)
    qtbot.waitUntil(lambda: money_says(w, "TRAY EXPECTED $3,300.00", "buy_ins: −$200.00"), timeout=WAIT_MS)

    # a credit asked for, then voided by the supervisor
    d = opened(qtbot, w, "request_credit", SlipRequestDialog)
    typed(qtbot, d.counts.typed, "1 x $100")
    typed(qtbot, d.reason, "too many $100s")
    enter(qtbot, d, w)
    sign_in(qtbot, w, FLOOR)
    d = opened(qtbot, w, "void_tray_slip", VoidSlipDialog)
    assert "CREDIT 1" in d.choice.currentText()
    typed(qtbot, d.reason, "asked for twice")
    enter(qtbot, d, w)
    qtbot.waitUntil(lambda: money_says(w, "CREDIT 1", "VOID"), timeout=WAIT_MS)
    assert trays.slip(ws.log, "credit", 1)["status"] == "VOID"

    # the closer, typed; the tray as expected
    sign_in(qtbot, w, DEALER)
    d = opened(qtbot, w, "close_tray", TrayCountDialog)
    typed(qtbot, d.counts.typed, "33 x $100")
    assert "TOTAL $3,300.00" in d.counts.total.text()
    second(qtbot, d, FLOOR)
    enter(qtbot, d, w)
    qtbot.waitUntil(lambda: money_says(w, "closer: $3,300.00", "tray_difference: +$0.00") and
                    tile_says(w, "M1", "TRAY NOT OPEN"), timeout=WAIT_MS)

    # the drop box, by two of the count team: the win and the difference
    sign_in(qtbot, w, COUNT_1)
    d = opened(qtbot, w, "count_drop", DropDialog)
    typed(qtbot, d.counts.fields[10000], "2")
    second(qtbot, d, COUNT_2)
    enter(qtbot, d, w)
    # win = drop + closer + credits - opener - fills = 200 + 3,300 - 3,000 - 500
    qtbot.waitUntil(lambda: money_says(w, "drop: $200.00", "win: $0.00", "difference: +$0.00"), timeout=WAIT_MS)
    money = trays.shift_money(ws.log, trays.last_closer(ws.log, "M1")["opener"])
    assert (money.win, money.difference) == (0, 0)

    # the next opener: the last closer carried over, filled in; the dealer and a supervisor sign it
    sign_in(qtbot, w, DEALER)
    d = opened(qtbot, w, "open_tray", TrayCountDialog)
    assert d.counts.fields[10000].text() == "33" and "TOTAL $3,300.00" in d.counts.total.text()
    second(qtbot, d, FLOOR)
    enter(qtbot, d, w)
    qtbot.waitUntil(lambda: tile_says(w, "M1", "TRAY $3,300.00"), timeout=WAIT_MS)


def test_a_refused_count_is_named_in_the_dialog_and_nothing_is_written(rpit, qtbot):
    w, ws = rpit.window, rpit.ws
    qtbot.waitUntil(lambda: "M1" in w.floor.tiles, timeout=WAIT_MS)
    sign_in(qtbot, w, DEALER)
    w.show_view("table:M1")
    d = opened(qtbot, w, "open_tray", TrayCountDialog)
    typed(qtbot, d.counts.typed, "10 x $2")
    assert "no $2.00 chip" in d.counts.total.text()
    second(qtbot, d, FLOOR)
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
    assert error_shown(d, "no $2.00 chip") and d.isVisible()
    # the second signer a dealer too: the workstation's refusal, in the dialog, the count kept
    typed(qtbot, d.counts.typed, "10 x $25")
    second(qtbot, d, DEALER)
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: error_shown(d, "takes two people"), timeout=WAIT_MS)
    assert d.counts.typed.text() == "10 x $25"
    qtbot.keyClick(d, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    assert ws.log.query("SELECT COUNT(*) AS n FROM trays")[0]["n"] == 0


def cut_labels(root) -> list[str]:
    """A label whose words are wider than it (not wrapped): Qt cuts them."""
    from app.qt import QLabel
    bad = []
    for label in root.findChildren(QLabel):
        text = label.text()
        if label.buddy() is not None:
            text = text.replace("&&", "\0").replace("&", "").replace("\0", "&")
        if label.isVisible() and text and "<" not in text and not label.wordWrap():
            need = label.fontMetrics().horizontalAdvance(text)
            if need > label.contentsRect().width() + 1:
                bad.append(f"label {text!r} needs {need} px, has {label.contentsRect().width()}")
    return bad


def test_every_money_dialog_and_the_money_tab_fit_1366x768_and_are_in_words(rpit, qtbot):
    from tests.support.fit import cut_hints, outside
    from tests.support.words import faults, said, shown_texts
    w, ws = rpit.window, rpit.ws
    w.set_size(1366, 768)
    qtbot.waitUntil(lambda: "M1" in w.floor.tiles, timeout=WAIT_MS)
    done = []
    # a tray open with a fill approved and a credit asked for: every dialog has something to offer
    w.bridge.act(lambda ws: (ws.people.sign_in(DEALER.name, DEALER.pin),
                             ws.inventory.open_tray("M1", "20 x $100, 40 x $25", signer=(FLOOR.name, FLOOR.pin)),
                             ws.inventory.request("M1", "fill", "20 x $25", "the $25s run low"),
                             ws.inventory.request("M1", "credit", "1 x $100", "too many $100s"),
                             ws.people.sign_in(FLOOR.name, FLOOR.pin),
                             ws.decisions.decide(trays.slip(ws.log, "fill", 1)["request"], "approved", ""))[-1],
                 done.append)
    qtbot.waitUntil(lambda: bool(done) and w.session is not None, timeout=WAIT_MS)   # the floor supervisor
    w.show_view("table:M1")
    found = []
    for name, cls in (("open_tray", TrayCountDialog), ("close_tray", TrayCountDialog),
                      ("request_fill", SlipRequestDialog), ("request_credit", SlipRequestDialog),
                      ("sign_cage", SignSlipDialog), ("sign_table", SignSlipDialog), ("void_tray_slip", VoidSlipDialog),
                      ("buy_in", BuyInDialog), ("count_drop", DropDialog)):
        d = opened(qtbot, w, name, cls)
        qtbot.waitUntil(lambda: d.isVisible(), timeout=WAIT_MS)
        for _ in range(3):
            QApplication.processEvents()          # the dialog laid out
        if d.width() > 1366 or d.height() > 768 - 40:
            found.append(f"{name}: the dialog is {d.width()}x{d.height()}")
        found += [f"{name}: {b}" for b in cut_labels(d) + cut_hints(d)]
        for place, text in shown_texts(d):
            found += faults(f"{name} {place}", text)
        qtbot.keyClick(d, Qt.Key.Key_Escape)            # Esc cancels: nothing written
        qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    press(qtbot, w, "money")
    qtbot.waitUntil(lambda: money_says(w, "TRAY EXPECTED $3,000.00", "FILL 1", "CREDIT 1"), timeout=WAIT_MS)
    activate(qtbot, w)
    found += outside(w)
    for place, text in shown_texts(w.table_page.money):
        found += faults(f"money tab {place}", text)
    assert not found, said(found)
    assert ws.log.query("SELECT COUNT(*) AS n FROM trays")[0]["n"] == 1


def test_the_money_tab_words_follow_the_figures(qtbot):
    # the rounds' line names how many rounds: it said "(0 rounds)" all shift once drawn (seen at 1366x768)
    from app.engine.inventory import ShiftMoney
    from app.views.money_box import MoneyBox
    from app.workstation.money_readout import TrayInfo
    box = MoneyBox()
    qtbot.addWidget(box)
    opener = {"time": "2026-11-28T17:11:00", "seq": 1}

    def info(rounds, flow):
        return TrayInfo("T1", True, opener, ShiftMoney(1_000_000, rounds=rounds, rounds_tray=flow), (), "c", "t", "s")

    box.show_info(info(0, 0))
    assert "(0 rounds)" in box.lines.labelForField(box.values["rounds_tray"]).text()
    box.show_info(info(2, 500))
    assert box.lines.labelForField(box.values["rounds_tray"]).text() == "+ Rounds' flow through the tray (2 rounds)"
    assert box.values["rounds_tray"].text() == "+$5.00"
