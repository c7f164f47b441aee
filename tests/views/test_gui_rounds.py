"""The round panel in the real window (issue 14): rounds typed into it as people type them,
settled, approved, released with their payout slips, over the real workstation and its log.

The floor has a table per profile named after it (``section6``, ``nj``, ``face-up-ca``, ``casino``,
``sd``), closed in the log as in tests/workstation/test_workstation_rounds.py (no rotation: a round
file's own banking fields are checked when it is settled), and ``T1``, a section6 table opened as
the demo opens it, whose card-reading shuffler is a simulated device over loopback TCP
(tests/support/round_panel.py; the fixture ``rpit``, tests/views/conftest.py). Every example in
docs/rounds/ is typed into the panel with qtbot.keyClicks and its settlement in the log compared
with what ``pitdesk settle`` prints for the same file, to the cent.
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
import subprocess
from datetime import datetime
from pathlib import Path

import pytest

from app.devices.link import DeviceMessage
from app.devices.messages import decode_message, encode_message
from app.engine import words
from app.engine.cards import cards_str, full_deck
from app.qt import QComboBox, QLineEdit, QPrintDialog, QPrinter, Qt, QToolButton
from app.views.round.round_dialogs import CardPickerDialog, CorrectCardsDialog, ReleaseDialog
from tests.support.round_panel import (PAYEE, activate, count, idle, logged, make_round_pit, open_round_panel,
                                       pitdesk_settle, settle_from_panel, sign_in, start_round, type_field, type_round)
from tests.support.views import DEALER, FLOOR, PIT, WAIT_MS, close_window, gone

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "rounds").glob("*.json"))
FRAMES = itertools.count(1)


# -- every example, typed into the panel, settles as pitdesk settle ------------------------------------
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_typed_into_the_panel_settles_as_pitdesk_settle(rpit, qtbot, path):
    w, ws = rpit.window, rpit.ws
    obj = json.loads(path.read_text())
    table = obj["profile"]
    sign_in(qtbot, w, DEALER)
    type_round(qtbot, w, table, obj)
    r = settle_from_panel(qtbot, w)
    want = pitdesk_settle(path)
    # the settlement in the log, to the cent, is what pitdesk settle prints for the file
    assert logged(ws, r.settlement)["settlement"] == want
    assert r.logged == want
    panel = w.round_panel
    assert panel.tabs.currentWidget() is panel.result_view
    view = panel.result_view
    assert view.ledger.rowCount() == len(want["ledger"]) and view.results.rowCount() == len(want["results"])
    assert [view.ledger.record(n).rule for n in range(view.ledger.rowCount())] == [m["rule"] for m in want["ledger"]]
    assert view.approvals.rowCount() == len(want["approvals"])
    assert ("PENDING APPROVAL" in view.status.text()) == bool(want["approvals"])
    panel.tabs.setCurrentWidget(panel.logged)        # As logged: in words, laid out when looked at
    shown = panel.logged.toPlainText()
    assert shown == words.outline(r.logged)          # r.logged == want, above
    assert '"cents"' not in shown and "aggregate_limits" not in shown and "net by party:" in shown


# -- approvals, release, payout slips ----------------------------------------------------------------
def people_rows(ws, table: str) -> int:
    """Rows a person wrote at ``table`` (a device's own rows aside)."""
    return count(ws, "table_id = ? AND actor IN ('demo-dealer', 'demo-floor', 'demo-pit', 'demo-admin')", (table,))


def pdf_text(path: Path) -> str:
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


@pytest.mark.commands("round", "new_round", "settle", "approve", "release")
def test_a_round_needing_approval_stays_pending_until_approved_and_its_slip_is_numbered_next(rpit, qtbot, tmp_path):
    from app.views.dialogs import DecideDialog
    w, ws = rpit.window, rpit.ws
    panel = w.round_panel
    path = ROOT / "docs" / "rounds" / "section6-house.json"
    # a slip is already in the book: the round's comes next in sequence
    done = []
    w.bridge.act(lambda ws: ws.slips.issue(datetime(2026, 11, 23, 19), "demo-floor", "floor supervisor", "sd", 2,
                                           "base", 1000, 30000), done.append)
    qtbot.waitUntil(lambda: done == [1], timeout=WAIT_MS)
    sign_in(qtbot, w, DEALER)
    type_round(qtbot, w, "section6", json.loads(path.read_text()))
    r = settle_from_panel(qtbot, w)
    assert r.logged == pitdesk_settle(path)
    (req,) = r.approvals
    # 000(q)(3)(iii): 100 % of the meter is a pit manager's to approve; until then the round waits
    assert (r.status, req.kind, req.role_needed) == ("pending", "progressive_meter_payout", "pit manager")
    view = panel.result_view
    assert view.status.text().startswith("▲ PENDING APPROVAL · waiting for approval: request")
    assert view.status.property("level") == "amber" and "pit manager" in view.status.text()
    assert not w.actions_by_name["release"].isEnabled()
    # asked anyway, the workstation refuses and writes nothing
    before = count(ws)
    panel.release()
    d = panel.dialog
    assert isinstance(d, ReleaseDialog)
    d.identity.pin.clear()
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
    assert "W-2G data" in d.error.text()          # the dialog asks for what the slip needs first
    for key, value in PAYEE.items():
        d.w2g[1][key].setText(value)
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: d.error.isVisible() and "its payouts wait: waiting for approval" in d.error.text(),
                    timeout=WAIT_MS)
    d.reject()
    assert count(ws) == before

    # the approvals queue decides: the dealer may not; the floor supervisor signs in and may not
    # alone; a wrong PIN is refused; the pit manager's name and PIN counter-sign it (issue 27, 6),
    # and the floor supervisor stays signed in
    w.show_view("approvals")
    activate(qtbot, w)
    qtbot.waitUntil(lambda: w.approvals_page.select_key(req.request), timeout=WAIT_MS)
    approve = w.actions_by_name["approve"]
    assert not approve.isEnabled() and approve.toolTip().startswith("To approve or deny a request takes a floor "
                                                                    "supervisor or a pit manager; demo-dealer is")
    sign_in(qtbot, w, FLOOR)
    activate(qtbot, w)
    qtbot.waitUntil(lambda: w.approvals_page.select_key(req.request) and approve.isEnabled(), timeout=WAIT_MS)
    qtbot.keyClick(w, Qt.Key.Key_F7)
    decide = w.dialog
    assert isinstance(decide, DecideDialog) and decide.request.request == req.request
    for who, pin, error in ((FLOOR.name, FLOOR.pin, "a pit manager counter-signs it"), (PIT.name, "0000", "wrong PIN")):
        decide.name.clear()
        qtbot.keyClicks(decide.name, who)
        decide.pin.clear()
        qtbot.keyClicks(decide.pin, pin)
        qtbot.mouseClick(decide.ok, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: decide.error.isVisible() and error in decide.error.text() and not decide.busy,
                        timeout=WAIT_MS)
        assert ws.rounds.result(r.settlement).status == "pending"
    decide.name.clear()
    qtbot.keyClicks(decide.name, PIT.name)
    qtbot.keyClicks(decide.pin, PIT.pin)
    qtbot.mouseClick(decide.ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: gone(decide), timeout=WAIT_MS)
    assert w.session.name == FLOOR.name
    done = next(a for a in w.approvals if a.request == req.request)
    assert (done.decided_by, done.countersigned_by, done.countersigned_role) == (FLOOR.name, PIT.name, "pit manager")
    assert w.approvals_page.selected() is None            # the selection stays where the person was: on nothing

    # back at the table, the round is ready and its payouts are released with slip 2
    open_round_panel(qtbot, w, "section6")
    qtbot.waitUntil(lambda: panel.result.status == "ready", timeout=WAIT_MS)
    activate(qtbot, w)
    assert view.status.text().startswith("● READY TO RELEASE · approved (request")
    assert w.actions_by_name["release"].isEnabled()
    qtbot.keyClick(w, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    d = panel.dialog
    assert isinstance(d, ReleaseDialog) and set(d.w2g) == {1}
    for key, value in PAYEE.items():
        qtbot.keyClicks(d.w2g[1][key], value)
    d.name.clear()
    qtbot.keyClicks(d.name, FLOOR.name)
    qtbot.keyClicks(d.pin, FLOOR.pin)
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: panel.result.status == "released", timeout=WAIT_MS)
    slipped = [p for p in panel.result.payouts if p.slip is not None]
    assert [(p.seat, p.wager, p.slip) for p in slipped] == [(1, "progressive", 2)]
    assert view.status.text().startswith("● RELEASED · released by demo-floor")
    book = ws.rounds.slip_book()
    assert [(s.number, s.settlement) for s in book] == [(1, None), (2, r.settlement)]
    assert book[1].w2g["payee_name"] == "Pat Lee"
    qtbot.waitUntil(lambda: panel.slip_model.rowCount() == 1, timeout=WAIT_MS)   # this table's slips
    assert panel.slip_model.index(0, 0).data() == "000002" and panel.slip_model.index(0, 1).data() == "● ISSUED"

    # the slip as a one-page PDF, rendered to an image, says its number and the W-2G data
    assert panel.select_slip(2)
    pdf = tmp_path / "slip-2.pdf"
    panel.save_slip(str(pdf))
    text = pdf_text(pdf)
    assert "No. 000002" in text and "$12,346.56" in text and "W-2G" in text and "Pat Lee" in text
    assert "123-45-6789" not in text and "6789" in text      # the taxpayer number is masked on the slip
    png = render_png(pdf, tmp_path / "slip-2")
    assert png.stat().st_size > 10_000


def render_png(pdf: Path, stem: Path) -> Path:
    assert shutil.which("pdftoppm"), "pdftoppm (poppler-utils) renders the slip's PDF"
    subprocess.run(["pdftoppm", "-r", "80", "-png", "-singlefile", str(pdf), str(stem)], check=True)
    info = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert re.search(r"^Pages:\s+1$", info, re.M), info
    return stem.with_suffix(".png")


@pytest.mark.commands("void_slip", "print_slip")
def test_a_void_slip_prints_void_and_the_print_action_builds_a_printer_document(rpit, qtbot, tmp_path):
    from app.views.round.round_dialogs import VoidSlipDialog
    w = rpit.window
    panel = w.round_panel
    done = []
    w.bridge.act(lambda ws: ws.slips.issue(datetime(2026, 11, 23, 19), "demo-floor", "floor supervisor", "sd", 2,
                                           "base", 1000, 30000), done.append)
    qtbot.waitUntil(lambda: done == [1], timeout=WAIT_MS)
    sign_in(qtbot, w, FLOOR)
    open_round_panel(qtbot, w, "sd")
    panel.tabs.setCurrentIndex(3)
    qtbot.waitUntil(lambda: panel.slip_model.rowCount() == 1, timeout=WAIT_MS)
    assert panel.select_slip(1)
    qtbot.keyClick(w, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    d = panel.dialog
    assert isinstance(d, VoidSlipDialog)
    qtbot.keyClicks(d.reason, "printed with the wrong seat")
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: panel.slip_model.index(0, 1).data() == "■ VOID", timeout=WAIT_MS)
    assert panel.slip_model.index(0, 1).data(theme_level()) == "red"
    assert not w.actions_by_name["void_slip"].isEnabled()
    pdf = tmp_path / "void.pdf"
    panel.save_slip(str(pdf))
    text = pdf_text(pdf)
    assert "No. 000001" in text and "VOID" in text and "printed with the wrong seat" in text
    render_png(pdf, tmp_path / "void")

    # Print: the print dialog is opened (never run), and what it accepts is drawn on its QPrinter
    activate(qtbot, w)
    qtbot.keyClick(w, Qt.Key.Key_P, Qt.KeyboardModifier.ControlModifier)
    dialog = panel.print_dialog
    assert isinstance(dialog, QPrintDialog) and dialog.isVisible()
    printer = dialog.printer()
    assert isinstance(printer, QPrinter)
    # the dialog offers "Print to File (PDF)" (chosen here: a machine may have a printer, as make
    # test-print's cups-pdf queue), and a person types where
    printers = dialog.findChild(QComboBox, "printers")
    to_file = next(i for i in range(printers.count()) if "Print to File" in printers.itemText(i))
    printers.setCurrentIndex(to_file)
    out = tmp_path / "printed.pdf"
    name = dialog.findChild(QLineEdit, "filename")
    name.clear()
    qtbot.keyClicks(name, str(out))
    dialog.accept()
    qtbot.waitUntil(lambda: out.exists() and out.stat().st_size > 0, timeout=WAIT_MS)
    assert "No. 000001" in pdf_text(out) and printer.docName() == "Payout slip 000001"


def theme_level():
    from app.views.records import LevelRole
    return LevelRole


# -- refusals: a clear reason in the panel, and nothing written ----------------------------------------
def test_a_card_used_twice_is_refused_at_once_naming_both_positions(rpit, qtbot):
    w, ws = rpit.window, rpit.ws
    panel = start_round(qtbot, w, "casino", DEALER)
    type_field(qtbot, panel.rows[1].cards, "ks kd ah jc 8d 6s 4c")
    idle(qtbot, w)
    before = count(ws)
    row = panel.rows[2]
    row.cards.setFocus()
    # the reason is there as soon as the card after the space is complete, before Enter
    qtbot.keyClicks(row.cards, "qc kd ")
    qtbot.waitUntil(lambda: row.reason.isVisible(), timeout=WAIT_MS)
    # the casino's own paragraph, then its regulation's (issue 33)
    assert row.reason.text() == ("■ Kd is already at seat 1; seat 2 cannot have it too (003 GENERAL PROCEDURES 17; "
                                 "000(b)(1): one deck, each card once)")
    assert row.cards.property("refused") and row.reason.property("level") == "red"
    qtbot.keyClicks(row.cards, "qh qs kh 5c 2h")
    qtbot.keyClick(row.cards, Qt.Key.Key_Return)
    idle(qtbot, w)
    assert "Kd is already at seat 1" in row.reason.text() and row.cards.text() == "qc kd qh qs kh 5c 2h"
    assert count(ws) == before
    d = ws.rounds.draft("casino")
    assert [p.cards for p in d.positions if p.position == 2] == [("Qc",)]    # what was taken before the Kd
    # corrected: the reason goes
    type_field(qtbot, row.cards, "qc 9d qh qs kh 5c 2h")
    idle(qtbot, w)
    assert not row.reason.isVisible() and not row.cards.property("refused")


def test_an_over_limit_wager_shows_its_reason_beside_the_field_as_it_is_typed(rpit, qtbot):
    w, ws = rpit.window, rpit.ws
    panel = start_round(qtbot, w, "casino", DEALER)
    row = panel.rows[1]
    type_field(qtbot, row.wagers["base"], "25")
    idle(qtbot, w)
    before = count(ws)
    field = row.wagers["base"]
    field.setFocus()
    field.selectAll()
    qtbot.keyClicks(field, "$10,000")
    # checked as it is typed (nothing taken), then refused when entered: the table's limit, in words
    want = "■ seat 1: base wager $10,000.00 is over the table maximum $5,000.00 (profile casino)"
    qtbot.waitUntil(lambda: row.reason.text() == want, timeout=WAIT_MS)
    qtbot.keyClick(field, Qt.Key.Key_Return)
    idle(qtbot, w)
    assert row.reason.text() == want and field.property("refused") and field.text() == "$10,000"
    type_field(qtbot, row.wagers["fortune"], "12.505")
    idle(qtbot, w)
    assert "an amount has at most two decimals" in row.reason.text()
    assert count(ws) == before
    assert ws.rounds.draft("casino").seats[0].wagers == {"base": 2500}


def test_a_seat_the_procedures_do_not_let_bank_is_refused_with_their_reason(rpit, qtbot):
    w, ws = rpit.window, rpit.ws
    panel = w.round_panel
    sign_in(qtbot, w, DEALER)
    for seat in (1, 2):
        w.bridge.act(lambda ws, seat=seat: ws.decisions.record("M1", "player_seated", {"seat": seat}))
    start_round(qtbot, w, "M1")        # opened, players seated: the start of the game
    before = people_rows(ws, "M1")
    bank = panel.bank
    bank.mode.setCurrentIndex(bank.mode.findData("player"))
    assert bank.amounts["chips"].isVisible() and not bank.amounts["wager"].isVisible()
    bank.seat.setCurrentIndex(bank.seat.findData(1))
    for k, v in (("chips", "500"), ("last_wager", "20"), ("dealer_wager", "0")):
        qtbot.keyClicks(bank.amounts[k], v)
    qtbot.mouseClick(bank.set_bank, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bank.reason.isVisible(), timeout=WAIT_MS)
    assert bank.reason.text() == ("■ Seat: seat 1 may not be the player this round: a player may not be the bank at "
                                  "the start of the game (000(m)(2))")
    idle(qtbot, w)
    assert panel.draft.banking.mode == "house" and people_rows(ws, "M1") == before


def shuffler(ws, serial: str, name: str, **values) -> None:
    """A card-reading shuffler's frame, decoded as its link decodes it, into the workstation's
    inbox (the bridge pumps it as it pumps any device's)."""
    message = decode_message(encode_message(name, next(FRAMES), **values))
    ws.events.put(DeviceMessage("socket://127.0.0.1:9", serial, "shuffler", message, datetime(2026, 11, 23, 20), 0.0))


def deal(ws, serial: str, given: dict[int, list[str]], deck: str = "red") -> None:
    """A deal of seven hands (000(j)(1)): dispensed, then each position's read, ``given`` where
    given, else seven cards of the deck no other hand holds (and not the 9d, which the test puts
    in a hand later)."""
    used = {c for cards in given.values() for c in cards} | {"9d"}
    rest = [c for c in cards_str(full_deck()) if c not in used]
    shuffler(ws, serial, "hands_dispensed", deck=deck, hands=7, cards_per_hand=7)
    for position in range(7):
        shuffler(ws, serial, "hand_read", deck=deck, position=position,
                 cards=given.get(position) or [rest.pop() for _ in range(7)])


def test_a_misread_hand_shows_what_is_wrong_blocks_settle_and_a_person_corrects_it(rpit, qtbot):
    w, ws = rpit.window, rpit.ws
    panel = w.round_panel
    sign_in(qtbot, w, DEALER)
    open_round_panel(qtbot, w, "M1")
    # the shuffler deals and reads the hands, missing a card of seat 1 (000(j)(1))
    deal(ws, "SHF-M1", {0: "Kc Qh Jd Tc 8c 6d 3c".split(), 1: "As Ks Qs Js Ts 9h".split()})
    qtbot.waitUntil(lambda: 1 in panel.rows and panel.rows[1].info is not None
                    and panel.rows[1].info.source == "shuffler", timeout=WAIT_MS)
    row = panel.rows[1]
    # by themselves: read-only, as read, with who read them
    assert row.cards.isReadOnly() and row.cards.text() == "As Ks Qs Js Ts 9h" and row.correct.isVisible()
    assert panel.rows[0].source.text() == "READ BY THE SHUFFLER SHF-M1"
    assert row.status.text().startswith("■ SEAT 1: THE SHUFFLER SHF-M1 MISREAD THE HAND: 6 CARDS READ, NOT SEVEN")
    assert row.status.property("level") == "red"
    type_field(qtbot, row.wagers["base"], "20")
    idle(qtbot, w)
    assert panel.problems.isVisible() and "Settle waits for a person" in panel.problems.text()
    assert panel.badge.text() == "■ ROUND 1: SETTLE BLOCKED" and panel.badge.property("level") == "red"
    assert not w.actions_by_name["settle"].isEnabled()
    before = count(ws, "type IN ('settlement', 'hand_corrected', 'approval_requested')")
    panel.settle()       # asked anyway: the workstation refuses, naming the misread
    qtbot.waitUntil(lambda: panel.message.isVisible(), timeout=WAIT_MS)
    assert "round 1 cannot be settled yet" in panel.message.text() and "misread" in panel.message.text()
    assert count(ws, "type IN ('settlement', 'hand_corrected', 'approval_requested')") == before
    # a person corrects the hand, saying why; the workstation logs who and why
    qtbot.mouseClick(row.correct, Qt.MouseButton.LeftButton)
    d = panel.dialog
    assert isinstance(d, CorrectCardsDialog) and d.cards.text() == "As Ks Qs Js Ts 9h"
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
    assert "records its reason" in d.error.text()
    d.cards.setFocus()
    d.cards.end(False)
    qtbot.keyClicks(d.cards, " 9d")
    qtbot.keyClicks(d.reason, "the reader missed the 9d: counted by hand")
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: gone(d) or (d.error.isVisible() and not d.busy and "reason" not in d.error.text()),
                    timeout=WAIT_MS)
    assert gone(d), d.error.text()
    qtbot.waitUntil(lambda: panel.draft is not None and not panel.draft.problems, timeout=WAIT_MS)
    (fix,) = ws.log.query("SELECT actor, body FROM events WHERE type = 'hand_corrected'")
    assert fix["actor"] == DEALER.name
    assert json.loads(fix["body"])["data"]["reason"] == "the reader missed the 9d: counted by hand"
    assert row.source.text() == "READ BY THE SHUFFLER SHF-M1 · corrected by demo-dealer (logged)"
    assert w.actions_by_name["settle"].isEnabled() and not panel.problems.isVisible()
    type_field(qtbot, row.high, "as ks qs js 10s")
    type_field(qtbot, row.low, "9h 9d")
    r = settle_from_panel(qtbot, w)
    assert r.status == "ready" and r.results[0].seat == 1


def test_cards_a_shuffler_reads_over_the_socket_appear_by_themselves(themed, tmp_path, qtbot, monkeypatch,
                                                                      no_threads_left):
    p = make_round_pit(tmp_path, qtbot, monkeypatch, shuffler=True)
    try:
        w = p.window
        panel = w.round_panel
        open_round_panel(qtbot, w, "T1")

        def read():
            rows = panel.rows
            return len(rows) == 7 and all(r.info is not None and r.info.source == "shuffler" and len(r.info.cards) == 7
                                          for r in rows.values())
        qtbot.waitUntil(read, timeout=WAIT_MS)
        for r in panel.rows.values():
            assert r.cards.isReadOnly() and r.source.text().startswith("READ BY THE SHUFFLER SHF-T1")
        # what is shown is what the workstation's round holds, position by position
        shown = {pos: r.info.cards for pos, r in panel.rows.items()}
        logged = {json.loads(x["body"])["data"]["position"] for x in p.ws.log.query(
            "SELECT body FROM events WHERE type = 'hand_read' AND table_id = 'T1'")}
        assert set(shown) == logged == set(range(7))
    finally:
        close_window(p.window, p.ws)


# -- the sets, the picker, history, the models -----------------------------------------------------------
def test_the_dealers_set_shows_its_house_way_rule_a_foul_its_consequence_and_house_way_sets_a_seat(rpit, qtbot):
    w = rpit.window
    panel = start_round(qtbot, w, "section6", DEALER)
    dealer, seat = panel.rows[0], panel.rows[1]
    type_field(qtbot, dealer.cards, "kc qh jd 10c 8c 6d 3c")
    type_field(qtbot, seat.cards, "2s 3h 4d 5c 7s 8h 9d")
    type_field(qtbot, seat.wagers["base"], "10")
    idle(qtbot, w)
    # 000(l)(3): the dealer's hand is set by the house way; the panel says the set and the rule
    assert dealer.status.text().startswith("● PLAYS  Kc Tc 8c 6d 3c  |  Qh Jd   (house way: ")
    assert panel.draft.positions[0].plays.rule in dealer.status.text()
    # 000(l)(6)(iii): a low hand that outranks the high hand loses, before anything is settled
    type_field(qtbot, seat.high, "2s 3h 4d 5c 7s")
    type_field(qtbot, seat.low, "9d 8h")
    idle(qtbot, w)
    assert seat.status.text().startswith("▲ FOUL: the low hand outranks the high hand; the hand loses "
                                         "(000(l)(6)(iii))")
    assert seat.status.property("level") == "amber"
    # the player asks for the house way: the dealer's recommendation, set
    qtbot.mouseClick(seat.house, Qt.MouseButton.LeftButton)
    idle(qtbot, w)
    hw = panel.draft.positions[1].house_way
    assert (seat.high.text(), seat.low.text()) == (" ".join(hw.high), " ".join(hw.low))
    assert seat.status.text().startswith("● PLAYS") and "FOUL" not in seat.status.text()


def test_the_card_picker_sets_a_position_and_names_where_a_card_already_is(rpit, qtbot):
    w = rpit.window
    panel = start_round(qtbot, w, "casino", DEALER)
    type_field(qtbot, panel.rows[1].cards, "ks kd ah jc 8d 6s 4c")
    idle(qtbot, w)
    qtbot.mouseClick(panel.rows[2].pick, Qt.MouseButton.LeftButton)
    d = panel.dialog
    assert isinstance(d, CardPickerDialog) and d.position.currentData() == 2
    assert len(d.buttons_by_card) == 53
    for card in ("Qc", "Kd"):
        qtbot.mouseClick(d.buttons_by_card[card], Qt.MouseButton.LeftButton)
    # where the draft has it, said at once; the workstation is the one that refuses it
    assert d.where.text() == "▲ K♦ is already at seat 1" and d.buttons_by_card["Kd"].text() == "K♦ •"
    for card in ("Qh", "Qs", "Kh", "5c", "Jk"):
        qtbot.mouseClick(d.buttons_by_card[card], Qt.MouseButton.LeftButton)
    assert d.hand.text() == "7 of 7:  Q♣  K♦  Q♥  Q♠  K♥  5♣  JOKER"
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: d.error.isVisible() and not d.busy, timeout=WAIT_MS)
    assert "Kd is already at seat 1; seat 2 cannot have it too" in d.error.text()
    qtbot.mouseClick(d.buttons_by_card["Kd"], Qt.MouseButton.LeftButton)       # not that one
    qtbot.mouseClick(d.buttons_by_card["Td"], Qt.MouseButton.LeftButton)
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: panel.rows[2].cards.text() == "Qc Qh Qs Kh 5c Jk Td", timeout=WAIT_MS)


def test_the_tables_rounds_newest_first_each_opened_as_logged(rpit, qtbot):
    w, ws = rpit.window, rpit.ws
    panel = w.round_panel
    path = ROOT / "docs" / "rounds" / "sd-house.json"
    obj = json.loads(path.read_text())
    sign_in(qtbot, w, DEALER)
    type_round(qtbot, w, "sd", obj)
    first = settle_from_panel(qtbot, w)
    obj["seats"][0]["wagers"]["base"] = 2500
    type_round(qtbot, w, "sd", obj)
    second = settle_from_panel(qtbot, w)
    idle(qtbot, w)
    panel.tabs.setCurrentIndex(2)
    qtbot.waitUntil(lambda: panel.history.rowCount() == 2, timeout=WAIT_MS)
    assert [panel.history.record(n).settlement for n in range(2)] == [second.settlement, first.settlement]
    assert panel.history.index(1, 7).data() == "● READY TO RELEASE"
    # the older one, opened from the list with Enter: its settlement as it was logged
    panel.history_view.setFocus()
    panel.history_view.setCurrentIndex(panel.history.index(1, 0))
    qtbot.keyClick(panel.history_view, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: panel.result.settlement == first.settlement, timeout=WAIT_MS)
    assert panel.tabs.currentWidget() is panel.result_view
    panel.tabs.setCurrentWidget(panel.logged)
    assert panel.logged.toPlainText() == words.outline(panel.result.logged)
    assert panel.result.logged == logged(ws, first.settlement)["settlement"] == pitdesk_settle(path)
    assert panel.result_view.head.text() == f"ROUND 1 AT sd · SETTLEMENT {first.settlement}"


def test_every_model_of_the_round_panel_passes_the_model_tester(rpit, qtbot, qtmodeltester):
    w = rpit.window
    panel = w.round_panel
    done = []
    w.bridge.act(lambda ws: ws.slips.issue(datetime(2026, 11, 23, 19), "demo-floor", "floor supervisor", "casino", 1,
                                           "base", 1000, 30000), done.append)
    qtbot.waitUntil(lambda: done == [1], timeout=WAIT_MS)
    obj = json.loads((ROOT / "docs" / "rounds" / "casino-house.json").read_text())
    obj["seats"][0]["wagers"]["base"] = 30_000      # 003 Clearing the Layout 1a: a payoff of $250 waits
    sign_in(qtbot, w, DEALER)
    type_round(qtbot, w, "casino", obj)
    settle_from_panel(qtbot, w)
    idle(qtbot, w)
    view = panel.result_view
    models = [view.results, view.ledger, view.approvals, view.payouts, panel.history, panel.slip_model]
    qtbot.waitUntil(lambda: all(m.rowCount() > 0 for m in models), timeout=WAIT_MS)
    for m in models:
        qtmodeltester.check(m)
    # the winning toke bet goes to the tokes, the payoff over $250 needs a slip (003)
    pays = {(p.to, p.wager): panel.result_view.payouts.index(n, 3).data()
            for n, p in enumerate(panel.result_view.payouts.records())}
    assert pays[("tokes", "fortune_toke")] == "no slip" and pays[("seat 1", "base")] == "▲ needs a slip"


def test_the_round_commands_are_in_the_round_menu_and_on_the_shortcuts_page(rpit, qtbot):
    w = rpit.window
    rows = {(r[0], r[1], r[2]) for r in w.shortcut_rows()}
    for row in (("Round", "Round panel", "F10"), ("Round", "Settle", "F11"), ("Round", "New round", "Ctrl+N"),
                ("Round", "Release payouts", "Ctrl+R"), ("Round", "Card picker", "Ctrl+Shift+C"),
                ("Round", "Print slip", "Ctrl+P"), ("Round", "Reopen round", "Ctrl+Shift+O"),
                ("Round", "Issue slip again", "Ctrl+Shift+I")):
        assert row in rows, row
    # a button's tooltip says its command, its shortcut and what it does, as every command's does
    panel = w.round_panel
    for name, button in (("reopen_round", panel.result_view.reopen),
                         ("reissue_slip", panel.slips_tab.findChild(QToolButton, "button_reissue_slip"))):
        assert button.defaultAction() is w.actions_by_name[name]
        assert button.toolTip() == w.actions_by_name[name].toolTip()
    # disabled, it says why first, then what it does
    assert w.actions_by_name["reissue_slip"].toolTip().endswith(
        " · Issue slip again… (Ctrl+Shift+I): a new payout slip, numbered next, for the selected void slip's payout, "
        "with your PIN")
    # away from a table, a round command is disabled and says where to go; pressed anyway, it says so too
    w.show_view("floor")
    settle = w.actions_by_name["settle"]
    assert not settle.isEnabled() and settle.toolTip().startswith("Open a table's round panel first")
    settle.setEnabled(True)
    settle.trigger()
    assert "Open a table's round panel first" in w.statusBar().currentMessage()


def test_the_tables_header_its_tile_and_the_round_panel_name_the_same_round(rpit, qtbot):
    """After a round played through the procedures, while the next is wagered on, the table's
    header, its floor tile, the round being entered and its settlement all say round 2 (a round
    begins at No more bets, 000(g)): the header once said ROUND 1 beside a settlement of ROUND 2."""
    w = rpit.window
    panel = w.round_panel
    sign_in(qtbot, w, DEALER)
    steps = [("shuffle_started", {}), ("shuffle_completed", {"deck": "red", "manual": True}),
             ("player_seated", {"seat": 1}), ("cut", {"depth": 20, "by": 1, "declined": []}),
             ("no_more_bets", {"method": "hand", "wagers": [1]}),
             ("dealt", {"remaining": 4}), ("position_determined", {"method": "dice", "value": 9, "position": 1}),
             ("hands_set", {}), ("revealed", {}), ("settled", {}), ("shuffle_started", {}),
             ("shuffle_completed", {"deck": "blue", "manual": True})]
    done = []
    for type_, data in steps:
        w.bridge.act(lambda ws, t=type_, d=data: ws.decisions.record("M1", t, d), done.append, done.append)
    qtbot.waitUntil(lambda: len(done) == len(steps), timeout=WAIT_MS)
    assert all(not isinstance(x, Exception) for x in done), [str(x) for x in done if isinstance(x, Exception)]
    type_round(qtbot, w, "M1", json.loads((ROOT / "docs" / "rounds" / "section6-house.json").read_text()))
    qtbot.waitUntil(lambda: w.table_page.facts.text().startswith("ROUND 2 "), timeout=WAIT_MS)
    assert w.table_page.state.text() == "BETTING"
    assert panel.badge.text().startswith("● ROUND 2: BEING ENTERED")
    assert w.floor.tiles["M1"].round.text() == "ROUND 2"
    r = settle_from_panel(qtbot, w)
    assert r.round == 2 and panel.result_view.head.text() == f"ROUND 2 AT M1 · SETTLEMENT {r.settlement}"
    idle(qtbot, w)
    # the settlement uses round 2 up: the header and the tile now name the round at hand, 3 (000(g))
    qtbot.waitUntil(lambda: w.table_page.facts.text().startswith("ROUND 3 "), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: w.floor.tiles["M1"].round.text() == "ROUND 3", timeout=WAIT_MS)
    assert panel.result_view.head.text().startswith("ROUND 2 AT M1")


def test_a_round_settled_elsewhere_comes_into_the_panels_rounds_list(rpit, qtbot):
    """A round settled by another hand (a dealer's terminal, the demo's dealers, another process on
    the log) comes into the open panel's Rounds tab without a click: the panel said round 3 while
    the table had settled 5 (issue 27, the supervisor's shift under Xvfb)."""
    w = rpit.window
    obj = json.loads((ROOT / "docs" / "rounds" / "casino-house.json").read_text())
    table = obj["profile"]
    sign_in(qtbot, w, DEALER)
    open_round_panel(qtbot, w, table)
    panel = w.round_panel
    idle(qtbot, w)
    before = panel.history.rowCount()
    done = []
    failed = []

    def elsewhere(ws):
        ws.rounds.load(table, obj)
        return ws.rounds.settle(table)
    w.bridge.act(elsewhere, on_done=done.append, on_error=failed.append)
    qtbot.waitUntil(lambda: bool(done or failed), timeout=WAIT_MS)
    assert not failed, failed
    qtbot.waitUntil(lambda: bool(done), timeout=WAIT_MS)
    rpit.clock.advance(seconds=2)        # the window looks again once a second
    qtbot.waitUntil(lambda: panel.history.rowCount() == before + 1, timeout=WAIT_MS)
    newest = panel.history.record(0)
    assert newest.settlement == done[0].result.settlement
