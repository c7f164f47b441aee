"""The round panel after a decision (issue 14), in the real window over the real workstation: a
denial in the approvals queue sends the round back with its reason; a round sent back while
another was being entered is reopened from its settlement; a void slip's payout is issued a new
slip; the floor supervisor's cover ruling lets a bank short of cover settle (003 PLAYER BANK 3).

The floor is tests/views/test_gui_rounds.py's (tests/support/round_panel.py): a table per profile
named after it, closed in the log.
"""

from __future__ import annotations

import pytest

import json
from datetime import datetime
from pathlib import Path

from app.views.dialogs import DecideDialog
from app.qt import Qt
from app.views.round.round_dialogs import ReissueSlipDialog, ReopenRoundDialog, VoidSlipDialog
from tests.support.round_panel import (PAYEE, activate, count, idle, logged, open_round_panel, pitdesk_settle,
                                       settle_from_panel, sign_in, start_round, type_field, type_round)
from tests.support.views import DEALER, FLOOR, PIT, WAIT_MS, gone

ROOT = Path(__file__).resolve().parents[2]
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
LEFT = Qt.MouseButton.LeftButton
HOUSE_ROUND = ROOT / "docs" / "rounds" / "section6-house.json"


def deny_in_queue(qtbot, w, request: int, who, reason: str) -> None:
    """``who`` signs in (F9), and denies ``request`` in the approvals queue (F8) with their PIN and
    ``reason``."""
    if w.session is None or w.session.name != who.name:
        sign_in(qtbot, w, who)
    w.show_view("approvals")
    activate(qtbot, w)
    qtbot.waitUntil(lambda: w.approvals_page.select_key(request), timeout=WAIT_MS)
    qtbot.keyClick(w, Qt.Key.Key_F8)
    d = w.dialog
    assert isinstance(d, DecideDialog) and (d.request.request, d.decision) == (request, "denied")
    d.name.clear()
    qtbot.keyClicks(d.name, who.name)
    qtbot.keyClicks(d.pin, who.pin)
    qtbot.keyClicks(d.reason, reason)
    qtbot.mouseClick(d.ok, LEFT)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)


def settled_pending(qtbot, w):
    """docs/rounds/section6-house.json typed at the section6 table by the dealer and settled: its
    progressive hit of 100 % of the meter waits for a pit manager (000(q)(3)(iii))."""
    sign_in(qtbot, w, DEALER)
    type_round(qtbot, w, "section6", json.loads(HOUSE_ROUND.read_text()))
    r = settle_from_panel(qtbot, w)
    assert r.status == "pending" and len(r.approvals) == 1
    return r


# -- a denial sends the round back ----------------------------------------------------------------------
def test_a_denial_in_the_approvals_queue_sends_the_round_back_with_its_reason(rpit, qtbot):
    w, ws = rpit.window, rpit.ws
    panel = w.round_panel
    r = settled_pending(qtbot, w)
    req = r.approvals[0]
    deny_in_queue(qtbot, w, req.request, PIT, "the controller's meter reads less: recheck the hand")

    # back at the table: the settlement shown stands sent back, its payouts never released
    open_round_panel(qtbot, w, "section6")
    view = panel.result_view
    qtbot.waitUntil(lambda: panel.result.status == "denied" and panel.draft is not None, timeout=WAIT_MS)
    why = (f"request {req.request} (progressive meter payout) denied by demo-pit: the controller's meter reads less: "
           "recheck the hand")
    assert view.status.text() == f"■ SENT BACK · sent back: {why}" and view.status.property("level") == "red"
    assert not w.actions_by_name["release"].isEnabled()
    # and the round is being entered again, saying who denied what and why
    assert (panel.draft.returned, panel.draft.replaces) == (why, r.settlement)
    panel.tabs.setCurrentWidget(panel.entry)
    assert panel.returned.isVisible() and panel.returned.property("level") == "amber"
    assert panel.returned.text() == f"▲ SENT BACK: {why}"
    assert panel.badge.text() == "● ROUND 1: BEING ENTERED · READY TO SETTLE (F11)"
    # as it was settled, ready to be corrected: the cards, the wagers
    obj = json.loads(HOUSE_ROUND.read_text())
    assert panel.rows[0].cards.text() == obj["dealer"]["cards"]
    assert panel.rows[1].cards.text() == obj["seats"][0]["cards"] and panel.rows[1].wagers["base"].text() == "20.00"
    # entered again already: nothing to reopen
    assert not w.actions_by_name["reopen_round"].isEnabled()

    # corrected (the meter as the controller reads it) and settled again: the new settlement names it
    type_field(qtbot, panel.meter, "12,300.00")
    again = settle_from_panel(qtbot, w)
    assert again.replaces == r.settlement and again.status == "pending"
    assert again.logged["progressive_meter"]["before"] == 1_230_000
    assert f"settled again for settlement {r.settlement}" in view.sub.text()
    qtbot.waitUntil(lambda: panel.draft is None, timeout=WAIT_MS)
    assert not panel.returned.isVisible()


@pytest.mark.commands("deny", "reopen_round", "discard_round")
def test_a_round_sent_back_while_another_is_entered_is_reopened_from_its_settlement(rpit, qtbot):
    w, ws = rpit.window, rpit.ws
    panel = w.round_panel
    r = settled_pending(qtbot, w)
    # the next round is begun before the decision: the denial keeps it
    panel = start_round(qtbot, w, "section6")
    type_field(qtbot, panel.rows[0].cards, "2c 3c")
    idle(qtbot, w)
    deny_in_queue(qtbot, w, r.approvals[0].request, PIT, "recount the meter")
    open_round_panel(qtbot, w, "section6")
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.status == "denied", timeout=WAIT_MS)
    assert panel.draft.returned is None and panel.rows[0].cards.text() == "2c 3c"

    # Reopen round (Ctrl+Shift+O), beside the status that says the round was sent back
    panel.tabs.setCurrentWidget(panel.result_view)
    reopen = w.actions_by_name["reopen_round"]
    qtbot.waitUntil(reopen.isEnabled, timeout=WAIT_MS)
    assert panel.result_view.reopen.isVisible() and panel.result_view.reopen.defaultAction() is reopen
    activate(qtbot, w)
    qtbot.keyClick(w, Qt.Key.Key_O, CTRL_SHIFT)
    d = panel.dialog
    assert isinstance(d, ReopenRoundDialog) and d.result.settlement == r.settlement
    # who signed the denial is signed in: the name is theirs, an empty PIN acts as them
    assert d.name.text() == PIT.name and d.ok.text() == "Enter again"
    # the round being entered comes first: the workstation says so, and nothing changes
    qtbot.mouseClick(d.ok, LEFT)
    qtbot.waitUntil(lambda: d.error.isVisible() and not d.busy, timeout=WAIT_MS)
    # the next round (the first's number is used up by its settlement, 000(g))
    assert "round 2 is being entered; settle it or discard it first" in d.error.text()
    assert ws.rounds.draft("section6").replaces is None
    d.reject()
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    activate(qtbot, w)
    qtbot.keyClick(w, Qt.Key.Key_D, CTRL_SHIFT)       # Discard round
    qtbot.waitUntil(lambda: panel.draft is None, timeout=WAIT_MS)
    # now it is entered again, with why it came back, as a denial that sends it back at once says it
    activate(qtbot, w)
    qtbot.keyClick(w, Qt.Key.Key_O, CTRL_SHIFT)
    d = panel.dialog
    assert isinstance(d, ReopenRoundDialog)
    qtbot.mouseClick(d.ok, LEFT)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: panel.draft is not None and panel.draft.replaces == r.settlement, timeout=WAIT_MS)
    why = f"request {r.approvals[0].request} (progressive meter payout) denied by demo-pit: recount the meter"
    assert panel.draft.returned == why
    qtbot.waitUntil(lambda: panel.returned.isVisible(), timeout=WAIT_MS)
    assert panel.returned.text() == f"▲ SENT BACK: {why}" and panel.tabs.currentWidget() is panel.entry
    assert panel.rows[0].cards.text() == json.loads(HOUSE_ROUND.read_text())["dealer"]["cards"]
    assert not reopen.isEnabled()
    assert count(ws, "type = 'settlement'") == 1       # entering it again writes nothing


# -- a void slip's payout, issued a new slip -----------------------------------------------------------------
@pytest.mark.commands("void_slip", "reissue_slip")
def test_a_void_slips_payout_is_issued_a_new_slip_numbered_next_with_its_w2g_data(rpit, qtbot):
    w, ws = rpit.window, rpit.ws
    panel = w.round_panel
    done = []
    # a win of $600.00 on $1.00: the slip carries the W-2G data
    w.bridge.act(lambda ws: ws.slips.issue(datetime(2026, 11, 23, 19), "demo-floor", "floor supervisor", "sd", 2,
                                           "base", 100, 60_000, PAYEE), done.append)
    qtbot.waitUntil(lambda: done == [1], timeout=WAIT_MS)
    sign_in(qtbot, w, FLOOR)
    open_round_panel(qtbot, w, "sd")
    panel.tabs.setCurrentWidget(panel.slips_tab)
    qtbot.waitUntil(lambda: panel.slip_model.rowCount() == 1, timeout=WAIT_MS)
    assert panel.select_slip(1)
    reissue = w.actions_by_name["reissue_slip"]
    assert not reissue.isEnabled()                      # an issued slip is voided first
    qtbot.keyClick(w, Qt.Key.Key_V, CTRL_SHIFT)
    d = panel.dialog
    assert isinstance(d, VoidSlipDialog)
    qtbot.keyClicks(d.reason, "printed with the wrong seat")
    qtbot.mouseClick(d.ok, LEFT)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: panel.slip_model.index(0, 1).data() == "■ VOID" and reissue.isEnabled(), timeout=WAIT_MS)

    # Issue slip again (Ctrl+Shift+I): the W-2G data again, the name and address as the void slip had them
    activate(qtbot, w)
    qtbot.keyClick(w, Qt.Key.Key_I, CTRL_SHIFT)
    d = panel.dialog
    assert isinstance(d, ReissueSlipDialog) and d.slip.number == 1
    assert (d.w2g["name"].text(), d.w2g["address"].text(), d.w2g["tin"].text()) == (PAYEE["name"],
                                                                                    PAYEE["address"], "")
    before = count(ws, "type = 'slip_issued'")
    qtbot.mouseClick(d.ok, LEFT)
    assert d.error.text() == "Seat 2's win needs the W-2G data: Taxpayer ID (SSN or EIN), ID type, ID number."
    for key in ("tin", "id_type", "id_number"):
        qtbot.keyClicks(d.w2g[key], PAYEE[key])
    # a dealer may not issue a slip: the workstation says so, the dialog stays
    d.name.clear()
    qtbot.keyClicks(d.name, DEALER.name)
    qtbot.keyClicks(d.pin, DEALER.pin)
    qtbot.mouseClick(d.ok, LEFT)
    qtbot.waitUntil(lambda: d.error.isVisible() and not d.busy and "dealer" in d.error.text(), timeout=WAIT_MS)
    assert "to issue a payout slip takes" in d.error.text() and count(ws, "type = 'slip_issued'") == before
    d.name.clear()
    qtbot.keyClicks(d.name, FLOOR.name)
    qtbot.keyClicks(d.pin, FLOOR.pin)
    qtbot.mouseClick(d.ok, LEFT)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)

    # slip 2 replaces slip 1, which stays VOID; the new one is selected and said
    qtbot.waitUntil(lambda: panel.slip_model.rowCount() == 2 and panel.selected_slip().number == 2,
                    timeout=WAIT_MS)
    assert panel.message.text() == "● Void slip 000001 issued again as payout slip 000002."
    assert [panel.slip_model.index(n, 1).data() for n in range(2)] == ["■ VOID", "● ISSUED"]
    book = ws.rounds.slip_book("sd")
    assert [(s.number, s.status, s.replaces) for s in book] == [(1, "VOID", None), (2, "ISSUED", 1)]
    assert (book[1].win_cents, book[1].w2g["payee_name"], book[1].w2g["payee_tin"]) == (60_000, "Pat Lee",
                                                                                      "123-45-6789")
    assert (ws.log.query("SELECT actor FROM events WHERE type = 'slip_issued' ORDER BY seq DESC LIMIT 1")[0]["actor"]
            == FLOOR.name)
    assert not reissue.isEnabled()                      # slip 2 is not void
    assert panel.select_slip(1) and not reissue.isEnabled()   # slip 1 was issued again already


# -- the floor supervisor's cover ruling ------------------------------------------------------------------
def test_the_floor_supervisors_cover_ruling_lets_a_bank_short_of_cover_settle_as_the_workstation_says(
        rpit, qtbot, tmp_path):
    w, ws = rpit.window, rpit.ws
    panel = w.round_panel
    obj = json.loads((ROOT / "docs" / "rounds" / "casino-player.json").read_text())
    obj["banking"]["chips"] = 500         # $5.00: short of the wagers it covers, and of what it loses
    sign_in(qtbot, w, DEALER)
    type_round(qtbot, w, "casino", obj)
    written = "type IN ('settlement', 'approval_requested')"
    before = count(ws, written)
    # short of cover: Settle is refused with the engine's reason and nothing is written
    panel.settle()
    qtbot.waitUntil(panel.message.isVisible, timeout=WAIT_MS)
    assert "banking.chips: the bank has $5.00 but must cover" in panel.message.text()
    assert "003 PLAYER BANK" in panel.message.text() and count(ws, written) == before
    # the ruling is the floor supervisor's (003 PLAYER BANK 3): a dealer's is refused
    bank = panel.bank
    assert bank.cover.isVisible()
    bank.cover.setFocus()
    qtbot.keyClick(bank.cover, Qt.Key.Key_Space)
    qtbot.mouseClick(bank.set_bank, LEFT)
    qtbot.waitUntil(lambda: "cover ruling takes a floor supervisor" in panel.message.text(), timeout=WAIT_MS)
    assert not panel.draft.banking.cover_ruling
    # the floor supervisor rules that the game proceeds
    sign_in(qtbot, w, FLOOR)
    assert bank.cover.isChecked()
    qtbot.mouseClick(bank.set_bank, LEFT)
    qtbot.waitUntil(lambda: panel.draft.banking.cover_ruling, timeout=WAIT_MS)
    assert "the floor supervisor ruled on the cover" in bank.now.text()
    r = settle_from_panel(qtbot, w)
    # settled as the engine settles the round file with the ruling, to the cent
    ruled = dict(obj, banking=dict(obj["banking"], cover_ruling=True))
    path = tmp_path / "ruled.json"
    path.write_text(json.dumps(ruled))
    want = pitdesk_settle(path)
    assert r.logged == want and logged(ws, r.settlement)["round_file"]["banking"]["cover_ruling"] is True
    assert r.net_by_party == want["net_by_party"] and sum(r.net_by_party.values()) == 0
    assert [(m.frm, m.to, m.cents) for m in r.ledger] == [(m["from"], m["to"], m["cents"]) for m in want["ledger"]]
    # the bank answers for what its chips do not cover (003 PLAYER BANK, Important Note)
    assert r.net_by_party["seat 3"] == -1000 and obj["banking"]["chips"] == 500
