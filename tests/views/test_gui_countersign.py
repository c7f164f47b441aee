"""Every PIN decision a counter-signature (issue 27, 6), in the real window over the real
workstation: signed in as demo-floor, a decision signed with demo-pit's name and PIN leaves
demo-floor signed in, and the rows it writes, the lists and the Logs' tabs name demo-pit as the
counter-signer, with the role. A wrong PIN of the counter-signer is counted toward their lockout.
"""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest

from app.qt import Qt
from app.views.dialogs import AcknowledgeDialog, DecideDialog
from app.views.log_columns import COLUMNS, recorder
from app.views.round.round_dialogs import ReissueSlipDialog, ReleaseDialog, ReopenRoundDialog, VoidSlipDialog
from tests.support.round_panel import (PAYEE, activate, idle, open_round_panel, settle_from_panel, sign_in,
                                       start_round, type_field, type_round)
from tests.support.views import DEALER, FLOOR, PIT, WAIT_MS, error_shown, fill, gone, wait_online

ROOT = Path(__file__).resolve().parents[2]
HOUSE_ROUND = ROOT / "docs" / "rounds" / "section6-house.json"
CTRL_SHIFT = Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
BY_PIT = "counter-signed by demo-pit (pit manager)"


def rows_of(ws, type_: str) -> list[dict]:
    return [{**r, "data": json.loads(r["body"])["data"]} for r in
            ws.log.query("SELECT seq, actor, role, body FROM events WHERE type = ? ORDER BY seq", (type_,))]


def countersigned(row: dict) -> tuple:
    return row["actor"], row["role"], row["data"].get("countersigned_by"), row["data"].get("countersigned_role")


def still_floor(w, ws) -> bool:
    """demo-floor is signed in, at the window and at the workstation, and nobody else signed in."""
    return (w.session.name == FLOOR.name and ws.people.session().name == FLOOR.name
            and not any(r["data"]["name"] == PIT.name for r in rows_of(ws, "sign_in")))


def log_texts(ws, tab: str, column: str) -> list[str]:
    """What the Logs' ``tab`` shows in ``column``, row by row, as the view words it."""
    fields = next(t.fields for t in ws.logs.tabs() if t.name == tab)
    make = recorder(fields, COLUMNS[tab])
    at = [c.title for c in COLUMNS[tab]].index(column)
    return [make(r).texts[at] for r in ws.logs.open(tab).rows]


def failures(ws, name: str) -> int:
    return next(u.failures for u in ws.people.users() if u.name == name)


@pytest.mark.commands("acknowledge")
def test_an_alarm_acknowledged_with_the_pit_managers_pin_is_counter_signed(pit, qtbot):
    w, ws = pit.window, pit.ws
    wait_online(qtbot, pit, classes=("shuffler",))
    pit.devices.inject("SHF-T1", "miscount")
    qtbot.waitUntil(lambda: any(a.kind == "deck_count_wrong" and a.open for a in w.alarms), timeout=WAIT_MS)
    alarm = next(a for a in w.alarms if a.kind == "deck_count_wrong")
    sign_in(qtbot, w, FLOOR)
    w.show_view("alarms")
    assert w.alarms_page.select_key(alarm.id)
    ack = w.actions_by_name["acknowledge"]
    qtbot.waitUntil(ack.isEnabled, timeout=WAIT_MS)
    ack.trigger()
    d = w.dialog
    assert isinstance(d, AcknowledgeDialog)
    assert "another person's name and PIN counter-sign this one decision" in \
        d.findChild(type(d.error), "countersign_note").text()
    # a wrong PIN of the pit manager: refused, counted toward their lockout, nothing acknowledged
    before = failures(ws, PIT.name)
    fill(qtbot, d, PIT.name, "0000", "deck replaced with a new one")
    qtbot.waitUntil(lambda: error_shown(d, "wrong PIN") and not d.busy, timeout=WAIT_MS)
    assert failures(ws, PIT.name) == before + 1 and not rows_of(ws, "alarm_acknowledged")
    fill(qtbot, d, PIT.name, PIT.pin, "deck replaced with a new one")
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)

    (row,) = rows_of(ws, "alarm_acknowledged")
    assert countersigned(row) == (FLOOR.name, "floor supervisor", PIT.name, "pit manager")
    assert still_floor(w, ws)
    qtbot.waitUntil(lambda: any(a.id == alarm.id and not a.open for a in w.alarms), timeout=WAIT_MS)
    m = w.alarms_page.model
    shown = m.index(m.row_of(alarm.id), [c.title for c in m.columns].index("Acknowledged")).data()
    assert shown.startswith(f"demo-floor (floor supervisor), {BY_PIT} ")
    assert log_texts(ws, "alarms", "By") == [f"demo-floor (floor supervisor), {BY_PIT}"]
    # the irregularity the alarm stands for (000(n)): the engine's acknowledged row, and the Logs' tab
    (irregularity,) = rows_of(ws, "acknowledged")
    assert countersigned(irregularity) == (FLOOR.name, "floor supervisor", PIT.name, "pit manager")
    assert any(f"demo-floor, {BY_PIT}" in t for t in log_texts(ws, "irregularities", "Supervisor"))


@pytest.mark.commands("void_slip", "reissue_slip")
def test_a_slip_voided_and_issued_again_with_the_pit_managers_pin_is_counter_signed(rpit, qtbot):
    w, ws = rpit.window, rpit.ws
    panel = w.round_panel
    done = []
    w.bridge.act(lambda ws: ws.slips.issue(datetime(2026, 11, 23, 19), "demo-floor", "floor supervisor", "sd", 2,
                                           "base", 1000, 30000), done.append)
    qtbot.waitUntil(lambda: done == [1], timeout=WAIT_MS)
    sign_in(qtbot, w, FLOOR)
    open_round_panel(qtbot, w, "sd")
    panel.tabs.setCurrentWidget(panel.slips_tab)
    qtbot.waitUntil(lambda: panel.slip_model.rowCount() == 1, timeout=WAIT_MS)
    assert panel.select_slip(1)
    qtbot.keyClick(w, Qt.Key.Key_V, CTRL_SHIFT)
    d = panel.dialog
    assert isinstance(d, VoidSlipDialog)
    fill(qtbot, d, PIT.name, PIT.pin, "printed with the wrong seat")
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    (void,) = rows_of(ws, "slip_voided")
    assert countersigned(void) == (FLOOR.name, "floor supervisor", PIT.name, "pit manager")
    assert still_floor(w, ws)

    reissue = w.actions_by_name["reissue_slip"]
    qtbot.waitUntil(reissue.isEnabled, timeout=WAIT_MS)
    activate(qtbot, w)
    qtbot.keyClick(w, Qt.Key.Key_I, CTRL_SHIFT)
    d = panel.dialog
    assert isinstance(d, ReissueSlipDialog)
    fill(qtbot, d, PIT.name, PIT.pin)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    again = rows_of(ws, "slip_issued")[-1]
    assert again["data"]["replaces"] == 1
    assert countersigned(again) == (FLOOR.name, "floor supervisor", PIT.name, "pit manager")
    assert still_floor(w, ws)

    book = {s.number: s for s in ws.rounds.slip_book()}
    assert book[1].void_countersigned == (PIT.name, "pit manager") and book[1].issue_countersigned is None
    assert book[2].issue_countersigned == (PIT.name, "pit manager")
    qtbot.waitUntil(lambda: panel.slip_model.rowCount() == 2, timeout=WAIT_MS)
    texts = {panel.slip_model.index(r, 0).data(): [panel.slip_model.index(r, c).data()
                                                    for c in range(panel.slip_model.columnCount())]
             for r in range(2)}
    assert f"void: printed with the wrong seat (demo-floor, {BY_PIT})" in texts["000001"]
    assert f"demo-floor, {BY_PIT}" in texts["000002"]
    assert log_texts(ws, "slips", "Voided by") == ["", f"demo-floor, {BY_PIT}"]       # newest first
    assert log_texts(ws, "slips", "Issued by") == [f"demo-floor, {BY_PIT}", "demo-floor"]


def settled_pending(qtbot, w):
    """docs/rounds/section6-house.json settled by the dealer: its hit waits for a pit manager."""
    sign_in(qtbot, w, DEALER)
    type_round(qtbot, w, "section6", json.loads(HOUSE_ROUND.read_text()))
    r = settle_from_panel(qtbot, w)
    assert r.status == "pending" and len(r.approvals) == 1
    return r


def decide_in_queue(qtbot, w, request: int, key, reason: str = "") -> None:
    """At demo-floor's session, ``request`` decided in the queue with demo-pit's name and PIN."""
    w.show_view("approvals")
    activate(qtbot, w)
    qtbot.waitUntil(lambda: w.approvals_page.select_key(request), timeout=WAIT_MS)
    qtbot.keyClick(w, key)
    d = w.dialog
    assert isinstance(d, DecideDialog)
    fill(qtbot, d, PIT.name, PIT.pin, reason)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)


@pytest.mark.commands("approve", "release")
def test_a_release_signed_with_the_pit_managers_pin_is_counter_signed_on_every_row(rpit, qtbot):
    w, ws = rpit.window, rpit.ws
    panel = w.round_panel
    r = settled_pending(qtbot, w)
    sign_in(qtbot, w, FLOOR)
    decide_in_queue(qtbot, w, r.approvals[0].request, Qt.Key.Key_F7)
    open_round_panel(qtbot, w, "section6")
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.status == "ready", timeout=WAIT_MS)
    activate(qtbot, w)
    qtbot.keyClick(w, Qt.Key.Key_R, Qt.KeyboardModifier.ControlModifier)
    d = panel.dialog
    assert isinstance(d, ReleaseDialog)
    for key, value in PAYEE.items():
        qtbot.keyClicks(d.w2g[1][key], value)
    fill(qtbot, d, PIT.name, PIT.pin)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: panel.result.status == "released", timeout=WAIT_MS)
    written = rows_of(ws, "round_released") + rows_of(ws, "slip_issued") + rows_of(ws, "payout")
    assert len(written) > 2
    assert {countersigned(x) for x in written} == {(FLOOR.name, "floor supervisor", PIT.name, "pit manager")}
    assert still_floor(w, ws)
    assert log_texts(ws, "slips", "Issued by") == [f"demo-floor, {BY_PIT}"]
    # the approval before it: the Logs' approvals tab and the progressive hits name the counter-signer too
    assert log_texts(ws, "approvals", "Decided by") == [f"demo-floor (floor supervisor), {BY_PIT}"]


@pytest.mark.commands("deny", "reopen_round")
def test_a_round_reopened_with_the_pit_managers_pin_leaves_the_session_as_it_was(rpit, qtbot):
    w, ws = rpit.window, rpit.ws
    r = settled_pending(qtbot, w)
    panel = start_round(qtbot, w, "section6")       # the next round is begun before the denial
    type_field(qtbot, panel.rows[0].cards, "2c 3c")
    idle(qtbot, w)
    sign_in(qtbot, w, FLOOR)
    decide_in_queue(qtbot, w, r.approvals[0].request, Qt.Key.Key_F8, "recount the meter")
    (denial,) = rows_of(ws, "approval_decided")
    assert countersigned(denial) == (FLOOR.name, "floor supervisor", PIT.name, "pit manager")
    open_round_panel(qtbot, w, "section6")
    qtbot.waitUntil(lambda: panel.result is not None and panel.result.status == "denied", timeout=WAIT_MS)
    activate(qtbot, w)
    qtbot.keyClick(w, Qt.Key.Key_D, CTRL_SHIFT)       # the round being entered is discarded first
    qtbot.waitUntil(lambda: panel.draft is None, timeout=WAIT_MS)
    panel.tabs.setCurrentWidget(panel.result_view)
    qtbot.waitUntil(w.actions_by_name["reopen_round"].isEnabled, timeout=WAIT_MS)
    activate(qtbot, w)
    qtbot.keyClick(w, Qt.Key.Key_O, CTRL_SHIFT)
    d = panel.dialog
    assert isinstance(d, ReopenRoundDialog) and d.name.text() == FLOOR.name
    fill(qtbot, d, PIT.name, PIT.pin)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: panel.draft is not None and panel.draft.replaces == r.settlement, timeout=WAIT_MS)
    assert still_floor(w, ws)


def test_the_logs_rule_column_cites_as_the_rule_texts_do():
    """Every Logs tab with a Rule column writes a citation through app/engine/words.py ``citation``:
    ``000 (s)(1)`` as logged by an older profile reads ``000(s)(1)``."""
    tabs = [tab for tab, columns in COLUMNS.items() if any(c.title == "Rule" for c in columns)]
    assert set(tabs) == {"decks", "dice", "approvals", "alarms", "irregularities"}
    for tab in tabs:
        rule = next(c for c in COLUMNS[tab] if c.title == "Rule")
        assert rule.text({"rule": "000 (s)(1); 003 PLAYER BANK 3"}) == "000(s)(1); 003 PLAYER BANK 3"
        assert rule.text({"rule": None}) == ""
