"""The real main window over the real workstation and real simulated devices (offscreen).

Devices speak over loopback TCP, so their effects are waited for (qtbot.waitUntil); the clocks
are the workstation's, moved by the test, never waited for.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from app.simulate.demo import DEMO_USERS
from app.views.dialogs import AcknowledgeDialog, DecideDialog, SignInDialog, UsersDialog
from app.views.records import RecordRole
from app.qt import QSettings, Qt, QTableView
from tests.support.round_panel import sign_in
from tests.support.views import (ADMIN, DEALER, FLOOR, PIT, WAIT_MS, claim_hit, close_pit, error_shown, fill, gone,
                                 make_pit, wait_online)


def events(ws, type_: str) -> list[dict]:
    return [{**r, "data": json.loads(r["body"])["data"]}
            for r in ws.log.query("SELECT seq, actor, role, table_id, body FROM events WHERE type = ? ORDER BY seq",
                                  (type_,))]


# -- alarms ------------------------------------------------------------------------------------
@pytest.mark.commands("acknowledge")
def test_a_shuffler_miscount_is_on_the_tile_and_only_a_supervisor_acknowledges_it(pit, qtbot):
    w, ws = pit.window, pit.ws
    wait_online(qtbot, pit, classes=("shuffler",))
    tile = w.floor.tiles["T1"]
    assert "0 ALARMS" in tile.alarms.text()
    pit.devices.inject("SHF-T1", "miscount")

    qtbot.waitUntil(lambda: any(a.kind == "deck_count_wrong" and a.open for a in w.alarms), timeout=WAIT_MS)
    alarm = next(a for a in w.alarms if a.kind == "deck_count_wrong")
    assert alarm.table == "T1" and alarm.serial == "SHF-T1"
    # on the tile: the count, a filled red badge and the red frame, with the word beside the colour
    qtbot.waitUntil(lambda: tile.tile.open_alarms >= 1, timeout=WAIT_MS)
    assert "ALARM" in tile.alarms.text() and tile.alarms.text().startswith("■")
    assert tile.alarms.property("level") == "red" and tile.property("level") == "red"
    assert "ALARM" in w.waiting.text()

    w.show_view("alarms")
    assert w.alarms_page.select_key(alarm.id)
    # signed out, and signed in as the dealer, Acknowledge is disabled and says why (issue 27, 10)
    ack = w.actions_by_name["acknowledge"]
    assert not ack.isEnabled() and ack.toolTip().startswith("Sign in (F9) to acknowledge an alarm")
    sign_in(qtbot, w, DEALER)
    qtbot.waitUntil(lambda: ack.toolTip().startswith("To acknowledge an alarm takes a floor supervisor or a pit "
                                                     "manager; demo-dealer is a dealer"), timeout=WAIT_MS)
    assert not ack.isEnabled() and not w.alarms_page.buttons[0].isEnabled()
    assert w.alarms_page.buttons[0].toolTip() == ack.toolTip()
    # the dialog opened anyway: the dealer is refused by the workstation, a dealer never acknowledges
    d = w.acknowledge()
    assert isinstance(d, AcknowledgeDialog) and d.alarm.id == alarm.id and d.isVisible()
    fill(qtbot, d, DEALER.name, DEALER.pin, "deck replaced with a new one")
    qtbot.waitUntil(lambda: error_shown(d, "dealer", "floor supervisor"), timeout=WAIT_MS)
    assert d.isVisible() and d.pin.text() == ""
    assert not events(ws, "alarm_acknowledged")
    assert any(a.id == alarm.id and a.open for a in ws.reads.alarms())

    d.reject()
    sign_in(qtbot, w, FLOOR)
    qtbot.waitUntil(ack.isEnabled, timeout=WAIT_MS)
    ack.trigger()
    d = w.dialog
    assert isinstance(d, AcknowledgeDialog) and d.alarm.id == alarm.id
    fill(qtbot, d, FLOOR.name, FLOOR.pin, "deck replaced with a new one")
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    acks = events(ws, "alarm_acknowledged")
    assert len(acks) == 1
    ack = acks[0]
    assert (ack["actor"], ack["role"], ack["table_id"]) == (FLOOR.name, "floor supervisor", "T1")
    assert ack["data"]["alarm"] == alarm.id and ack["data"]["reason"] == "deck replaced with a new one"
    # the list says who and why; the status bar who is signed in
    qtbot.waitUntil(lambda: any(a.id == alarm.id and not a.open for a in w.alarms), timeout=WAIT_MS)
    row = w.alarms_page.model.row_of(alarm.id)
    m = w.alarms_page.model
    assert "ACKNOWLEDGED" in m.index(row, 0).data()
    assert FLOOR.name in m.index(row, 8).data() and m.index(row, 9).data() == "deck replaced with a new one"
    qtbot.waitUntil(lambda: f"SIGNED IN: {FLOOR.name} (floor supervisor)" in w.who.text(), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: tile.tile.open_alarms == 0, timeout=WAIT_MS)
    assert tile.alarms.text().startswith("○ 0 ALARMS")


def test_a_link_dropped_and_restored_turns_its_light_red_then_green(pit, qtbot):
    w = pit.window
    wait_online(qtbot, pit, classes=("rng",))
    light = w.floor.tiles["T1"].light("rng")
    seen = []
    w.bridge.changed.connect(lambda u: seen.append((light.text(), light.property("level"))))
    pit.devices.inject("RNG-T1", "silence")
    qtbot.waitUntil(lambda: "OFFLINE" in light.text(), timeout=WAIT_MS)
    assert light.property("level") == "red" and light.text() == "■ RNG OFFLINE"
    qtbot.waitUntil(lambda: "ONLINE" in light.text() and "OFFLINE" not in light.text(), timeout=WAIT_MS)
    assert light.property("level") == "ok" and light.text() == "● RNG ONLINE"
    levels = [lv for _, lv in seen]
    assert levels.index("red") < len(levels) - 1 - levels[::-1].index("ok")
    # the alarm cleared by itself says so, and still waits for a supervisor
    qtbot.waitUntil(lambda: any(a.kind == "rng_offline" and a.cleared for a in w.alarms), timeout=WAIT_MS)
    alarm = next(a for a in w.alarms if a.kind == "rng_offline")
    assert alarm.open
    status = w.alarms_page.model.index(w.alarms_page.model.row_of(alarm.id), 0).data()
    assert status == "▲ CLEARED BY ITSELF, NOT ACKNOWLEDGED"


def test_the_progressive_controller_offline_closes_progressive_wagers_until_it_is_back(pit, qtbot):
    w = pit.window
    wait_online(qtbot, pit, classes=("progressive",))
    tile = w.floor.tiles["T1"]
    qtbot.waitUntil(lambda: tile.tile.meter_cents is not None, timeout=WAIT_MS)
    assert tile.progressive.text() == "PROGRESSIVE METER"
    seen = []
    w.bridge.changed.connect(lambda u: seen.append((tile.progressive.text(), tile.light("progressive").text())))
    pit.devices.inject("PRG-T1", "silence")
    qtbot.waitUntil(lambda: tile.tile.progressive == "closed", timeout=WAIT_MS)
    assert "PROGRESSIVE CLOSED" in tile.progressive.text() and tile.progressive.property("level") == "red"
    assert not pit.ws.floor.state("T1").progressive_online      # what the procedures refuse wagers by (000(q))
    qtbot.waitUntil(lambda: tile.tile.progressive == "open", timeout=WAIT_MS)
    # closed while the light said OFFLINE (then CONNECTING while it reconnected), open once ONLINE again
    assert any("CLOSED" in p and "OFFLINE" in light for p, light in seen)
    closed_at = next(n for n, (p, _) in enumerate(seen) if "CLOSED" in p)
    assert all(light == "● PROGRESSIVE ONLINE" for p, light in seen[closed_at:] if p == "PROGRESSIVE METER")
    assert tile.progressive.text() == "PROGRESSIVE METER" and "PROGRESSIVE ONLINE" in tile.light("progressive").text()
    assert pit.ws.floor.state("T1").progressive_online


# -- approvals -----------------------------------------------------------------------------------
def test_f5_down_f7_approves_the_request_at_the_top_by_the_keyboard_alone(hit_pit, qtbot):
    """A supervisor with chips in one hand: F5 opens the approvals, the first request framed but
    not selected (F7 decides nothing a person has not looked at); Down selects it, though it is
    the only row (it did nothing: F7 stayed disabled, seen in a supervisor's shift), and F7 asks
    for the PIN on it."""
    from PySide6.QtTest import QTest
    w = hit_pit.window
    claim_hit(qtbot, hit_pit)
    qtbot.waitUntil(lambda: any(r.status == "pending" for r in w.approvals), timeout=WAIT_MS)
    sign_in(qtbot, w, FLOOR)
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow, timeout=WAIT_MS)
    QTest.keyClick(w.focusWidget() or w, Qt.Key.Key_F5)
    qtbot.waitUntil(lambda: w.view == "approvals", timeout=WAIT_MS)
    assert w.approvals_page.selected() is None and not w.actions_by_name["approve"].isEnabled()
    first = w.approvals_page.proxy.index(0, 0).data(RecordRole)
    QTest.keyClick(w.approvals_page.view, Qt.Key.Key_Down)
    assert w.approvals_page.selected() == first and w.actions_by_name["approve"].isEnabled()
    QTest.keyClick(w.focusWidget() or w, Qt.Key.Key_F7)
    qtbot.waitUntil(lambda: isinstance(w.dialog, DecideDialog), timeout=WAIT_MS)
    assert w.dialog.request.request == first.request
    w.dialog.reject()


def test_a_progressive_hit_waits_for_the_right_role_and_is_approved_once(hit_pit, qtbot):
    w, ws = hit_pit.window, hit_pit.ws
    claim_hit(qtbot, hit_pit)
    qtbot.waitUntil(lambda: any(r.status == "pending" and r.table == "T1" for r in w.approvals), timeout=WAIT_MS)
    request = next(r for r in w.approvals if r.status == "pending")
    assert request.kind == "progressive_meter_payout" and request.cents and request.seat in range(1, 7)
    # the top award needs a pit manager (100% of the meter); the tile says an approval waits
    assert request.role_needed == "pit manager"
    tile = w.floor.tiles["T1"]
    qtbot.waitUntil(lambda: tile.tile.pending_approvals >= 1, timeout=WAIT_MS)
    assert "APPROVAL" in tile.approvals.text() and tile.approvals.property("level") == "amber"

    sign_in(qtbot, w, FLOOR)
    w.show_view("approvals")
    assert w.approvals_page.select_key(request.request)
    w.actions_by_name["approve"].trigger()
    first = w.dialog
    assert isinstance(first, DecideDialog) and first.request.request == request.request
    # a second supervisor's dialog on the same request, opened before the first decides
    second = DecideDialog(w.bridge, request, "approved", None, w)
    qtbot.addWidget(second)
    second.show()

    failures_before = next(u.failures for u in ws.people.users() if u.name == FLOOR.name)
    fill(qtbot, first, FLOOR.name, "9999")
    qtbot.waitUntil(lambda: error_shown(first, "wrong PIN", "of 5"), timeout=WAIT_MS)
    assert next(u.failures for u in ws.people.users() if u.name == FLOOR.name) == failures_before + 1
    assert events(ws, "sign_in_failed")[-1]["data"]["reason"] == "wrong PIN"

    fill(qtbot, first, FLOOR.name, FLOOR.pin)
    qtbot.waitUntil(lambda: error_shown(first, "pit manager"), timeout=WAIT_MS)
    assert first.isVisible()

    # the pit manager's name and PIN counter-sign it; the floor supervisor stays signed in (issue 27, 6)
    fill(qtbot, first, PIT.name, PIT.pin)
    qtbot.waitUntil(lambda: gone(first), timeout=WAIT_MS)
    decided = next(r for r in ws.reads.approvals(pending_only=False) if r.request == request.request)
    assert (decided.status, decided.decided_by, decided.decided_role, decided.countersigned_by,
            decided.countersigned_role) == ("approved", FLOOR.name, "floor supervisor", PIT.name, "pit manager")
    assert w.session.name == FLOOR.name and ws.people.session().name == FLOOR.name

    fill(qtbot, second, PIT.name, PIT.pin)
    qtbot.waitUntil(lambda: error_shown(second, "already approved", FLOOR.name), timeout=WAIT_MS)
    rows = [e for e in events(ws, "approval_decided") if e["data"]["request"] == request.request]
    assert len(rows) == 1 and rows[0]["actor"] == FLOOR.name
    assert (rows[0]["data"]["countersigned_by"], rows[0]["data"]["countersigned_role"]) == (PIT.name, "pit manager")
    second.reject()


@pytest.mark.commands("deny")
def test_a_denial_needs_a_reason(hit_pit, qtbot):
    w = hit_pit.window
    claim_hit(qtbot, hit_pit)
    qtbot.waitUntil(lambda: any(r.status == "pending" for r in w.approvals), timeout=WAIT_MS)
    sign_in(qtbot, w, PIT)
    w.show_view("approvals")
    deny = w.actions_by_name["deny"]
    # in the queue, a decision is for the request selected only
    assert not deny.isEnabled() and deny.toolTip().startswith("Select a pending request in the list")
    assert w.approvals_page.select_key(next(r for r in w.approvals if r.status == "pending").request)
    deny.trigger()
    d = w.dialog
    fill(qtbot, d, PIT.name, PIT.pin)
    assert error_shown(d, "denial records its reason")      # nothing sent without one
    d.reason.setText("the hand was fouled before the reveal")
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    decided = next(r for r in hit_pit.ws.reads.approvals(pending_only=False) if r.request == d.request.request)
    assert (decided.status, decided.decision_reason) == ("denied", "the hand was fouled before the reveal")


# -- clocks --------------------------------------------------------------------------------------
def test_a_deck_nearing_its_deadline_turns_amber_then_red(pit, qtbot):
    w = pit.window
    tile = w.floor.tiles.get("T7")
    qtbot.waitUntil(lambda: "T7" in w.floor.tiles and w.floor.tiles["T7"].tile.deck is not None, timeout=WAIT_MS)
    tile = w.floor.tiles["T7"]
    due = tile.tile.deck.due
    assert tile.deck.property("level") == "ok" and tile.deck.text().startswith("● OK ")

    pit.clock.set(due - timedelta(minutes=29))
    qtbot.waitUntil(lambda: tile.deck.property("level") == "amber", timeout=WAIT_MS)
    assert tile.deck.text() == "▲ DUE 0:29:00" and tile.property("level") == "amber"

    pit.clock.set(due - timedelta(minutes=9, seconds=30))
    qtbot.waitUntil(lambda: tile.deck.property("level") == "red", timeout=WAIT_MS)
    assert tile.deck.text() == "■ DUE NOW 0:09:30" and tile.property("level") == "red"

    pit.clock.set(due + timedelta(minutes=2))
    qtbot.waitUntil(lambda: tile.deck.text().startswith("■ OVERDUE"), timeout=WAIT_MS)
    assert tile.deck.text() == "■ OVERDUE +0:02:00"
    qtbot.waitUntil(lambda: any(a.kind == "deck_overdue" and a.table == "T7" for a in w.alarms), timeout=WAIT_MS)


def test_an_idle_session_is_signed_out_and_the_status_bar_says_so(pit, qtbot):
    w = pit.window
    w.actions_by_name["sign_in"].trigger()
    d = w.dialog
    assert isinstance(d, SignInDialog)
    fill(qtbot, d, FLOOR.name, "1")
    qtbot.waitUntil(lambda: error_shown(d, "wrong PIN"), timeout=WAIT_MS)
    fill(qtbot, d, FLOOR.name, FLOOR.pin)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "SIGNED IN: demo-floor (floor supervisor)" in w.who.text(), timeout=WAIT_MS)
    assert "signs out after 0:05:00 idle" in w.who.text()
    assert w.actions_by_name["sign_out"].isEnabled()
    pit.clock.advance(minutes=5, seconds=1)
    qtbot.waitUntil(lambda: "NOBODY SIGNED IN" in w.who.text(), timeout=WAIT_MS)
    out = events(pit.ws, "signed_out")
    assert out[-1]["data"] == {"name": FLOOR.name, "reason": "idle for 5 minutes"}


def test_a_supervisor_who_only_moves_between_views_by_their_keys_is_not_idle(pit, qtbot):
    """F2, F4, F5 ... are shortcuts: Qt's shortcut map takes them before the window sees a key.
    A supervisor who watched the floor, the alarms and the approvals by their keys alone was
    signed out after five minutes (seen in a supervisor's shift at 1366x768)."""
    from PySide6.QtTest import QTest
    w = pit.window
    d = w.sign_in()
    fill(qtbot, d, FLOOR.name, FLOOR.pin)
    qtbot.waitUntil(lambda: w.session is not None and w.session.name == FLOOR.name, timeout=WAIT_MS)
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow, timeout=WAIT_MS)
    for key, view in ((Qt.Key.Key_F4, "alarms"), (Qt.Key.Key_F5, "approvals"), (Qt.Key.Key_F2, "floor")):
        pit.clock.advance(minutes=4)
        # as a keyboard's key comes: the shortcut map first (it takes the key), the window never
        QTest.keyClick(w.focusWidget() or w, key)
        qtbot.waitUntil(lambda v=view: w.view == v, timeout=WAIT_MS)
        qtbot.waitUntil(lambda: w.session is not None and w.session.last_activity == pit.clock(), timeout=WAIT_MS)
    pit.clock.advance(minutes=4)                    # 16 minutes signed in, never 5 idle
    qtbot.wait(300)
    assert w.session is not None and "SIGNED IN: demo-floor" in w.who.text()
    assert not [e for e in events(pit.ws, "signed_out") if e["data"]["name"] == FLOOR.name]


def test_a_wrong_pin_five_times_locks_the_account_and_the_dialog_says_so(pit, qtbot):
    w = pit.window
    d = w.sign_in()
    for n in range(1, 6):
        fill(qtbot, d, DEALER.name, "0000")
        qtbot.waitUntil(lambda: error_shown(d, "wrong PIN") and not d.busy, timeout=WAIT_MS)
        if n < 5:
            assert f"({n} of 5" in d.error.text()
    assert "locked until" in d.error.text()
    fill(qtbot, d, DEALER.name, DEALER.pin)      # the right PIN, but locked
    qtbot.waitUntil(lambda: error_shown(d, "locked") and not d.busy, timeout=WAIT_MS)
    assert d.isVisible()
    d.reject()


# -- the administrator ----------------------------------------------------------------------------
def test_an_administrator_adds_locks_and_unlocks_a_user_from_the_dialog(pit, qtbot):
    w, ws = pit.window, pit.ws
    d = w.sign_in()
    fill(qtbot, d, ADMIN.name, ADMIN.pin)
    qtbot.waitUntil(lambda: w.session is not None and w.session.name == ADMIN.name, timeout=WAIT_MS)
    w.actions_by_name["users"].trigger()
    u = w.dialog
    assert isinstance(u, UsersDialog)
    qtbot.waitUntil(lambda: u.model.rowCount() == len(DEMO_USERS), timeout=WAIT_MS)
    qtbot.keyClicks(u.name, "fay")
    u.role.setCurrentText("floor supervisor")
    qtbot.keyClicks(u.pin, "5150")
    qtbot.keyClicks(u.pin2, "5150")
    qtbot.mouseClick(u.add, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: u.model.row_of("fay") is not None, timeout=WAIT_MS)
    assert u.message.text() == "fay added as floor supervisor."
    assert next(x.role for x in ws.people.users() if x.name == "fay") == "floor supervisor"

    u.view.selectRow(u.model.row_of("fay"))
    qtbot.mouseClick(u.lock, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "LOCKED by demo-admin" in u.model.index(u.model.row_of("fay"), 2).data(),
                    timeout=WAIT_MS)
    assert next(x.locked_by for x in ws.people.users() if x.name == "fay") == ADMIN.name
    qtbot.mouseClick(u.unlock, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: u.model.index(u.model.row_of("fay"), 2).data() == "● ACTIVE", timeout=WAIT_MS)
    u.reject()


def test_an_administrator_makes_the_dealer_a_floor_supervisor_who_then_acknowledges_an_alarm(pit, qtbot):
    w, ws = pit.window, pit.ws
    d = w.sign_in()
    fill(qtbot, d, ADMIN.name, ADMIN.pin)
    qtbot.waitUntil(lambda: w.session is not None and w.session.name == ADMIN.name, timeout=WAIT_MS)
    u = w.open_users()
    qtbot.waitUntil(lambda: u.model.rowCount() == len(DEMO_USERS), timeout=WAIT_MS)
    role_of = lambda name: u.model.index(u.model.row_of(name), 1).data()   # noqa: E731

    # the last unlocked administrator cannot step down, and the dialog says why
    u.view.selectRow(u.model.row_of(ADMIN.name))
    assert u.new_role.currentText() == "administrator"     # the box starts at the role they have
    u.new_role.setCurrentText("dealer")
    qtbot.mouseClick(u.set_role, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: error_shown(u, "demo-admin is the last unlocked administrator"), timeout=WAIT_MS)
    assert not events(ws, "role_changed") and role_of(ADMIN.name) == "administrator"

    u.view.selectRow(u.model.row_of(DEALER.name))
    assert u.new_role.currentText() == "dealer"
    u.new_role.setCurrentText("floor supervisor")
    qtbot.mouseClick(u.set_role, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: role_of(DEALER.name) == "floor supervisor", timeout=WAIT_MS)
    assert u.message.isVisible() and u.message.text() == "demo-dealer's role is now floor supervisor."
    assert not u.error.isVisible()
    (changed,) = events(ws, "role_changed")
    assert (changed["actor"], changed["role"]) == (ADMIN.name, "administrator")
    assert changed["data"] == {"name": DEALER.name, "role": "floor supervisor", "was": "dealer"}
    u.reject()

    # the dealer's next sign-in is as a floor supervisor, who may acknowledge an alarm
    wait_online(qtbot, pit, classes=("shuffler",))
    pit.devices.inject("SHF-T1", "miscount")
    qtbot.waitUntil(lambda: any(a.kind == "deck_count_wrong" and a.open for a in w.alarms), timeout=WAIT_MS)
    alarm = next(a for a in w.alarms if a.kind == "deck_count_wrong")
    w.show_view("alarms")
    assert w.alarms_page.select_key(alarm.id)
    sign_in(qtbot, w, DEALER)
    qtbot.waitUntil(w.actions_by_name["acknowledge"].isEnabled, timeout=WAIT_MS)
    w.actions_by_name["acknowledge"].trigger()
    a = w.dialog
    assert isinstance(a, AcknowledgeDialog) and a.alarm.id == alarm.id
    fill(qtbot, a, DEALER.name, DEALER.pin, "deck counted again, replaced")
    qtbot.waitUntil(lambda: gone(a), timeout=WAIT_MS)
    (ack,) = events(ws, "alarm_acknowledged")
    assert (ack["actor"], ack["role"], ack["data"]["alarm"]) == (DEALER.name, "floor supervisor", alarm.id)
    qtbot.waitUntil(lambda: f"SIGNED IN: {DEALER.name} (floor supervisor)" in w.who.text(), timeout=WAIT_MS)


def test_only_an_administrator_adds_users(pit, qtbot):
    w = pit.window
    d = w.sign_in()
    fill(qtbot, d, FLOOR.name, FLOOR.pin)
    qtbot.waitUntil(lambda: w.session is not None, timeout=WAIT_MS)
    assert not w.actions_by_name["users"].isEnabled()
    u = w.open_users()          # opened anyway: the list is not shown, and adding is refused
    assert u.view.isHidden() and u.model.rowCount() == 0 and "only an administrator" in u.who.text()
    qtbot.keyClicks(u.name, "gus")
    qtbot.keyClicks(u.pin, "1234")
    qtbot.keyClicks(u.pin2, "1234")
    qtbot.mouseClick(u.add, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: u.error.isVisible() and "administrator" in u.error.text(), timeout=WAIT_MS)
    assert "gus" not in [x.name for x in pit.ws.people.users()]
    u.reject()


# -- keyboard, views, shortcuts, settings ------------------------------------------------------------
def test_arrow_keys_move_between_tiles_and_enter_opens_the_table(pit, qtbot):
    w = pit.window
    qtbot.waitUntil(lambda: {"T1", "T7"} <= set(w.floor.tiles), timeout=WAIT_MS)
    w.activateWindow()
    w.show_view("floor")
    w.floor.focus_table("T1")
    assert w.floor.current() == "T1"
    # T1 stands at row 1, col 1 and T7 at row 2, col 4 (the demo's pit): down, or right, reaches T7
    qtbot.keyClick(w.floor.tiles["T1"], Qt.Key.Key_Down)
    assert w.floor.current() == "T7"
    qtbot.keyClick(w.floor.tiles["T7"], Qt.Key.Key_Up)
    assert w.floor.current() == "T1"
    qtbot.keyClick(w.floor.tiles["T1"], Qt.Key.Key_Right)
    assert w.floor.current() == "T7"
    qtbot.keyClick(w.floor.tiles["T7"], Qt.Key.Key_Return)
    assert w.view_spec() == "table:T7"
    qtbot.waitUntil(lambda: w.table_page.detail is not None and w.table_page.detail.tile.table == "T7",
                    timeout=WAIT_MS)
    # 004 deals by hand with no house-dealer exception: the seven positions stand, seat 6 to 1 and the dealer
    assert set(w.table_page.positions) == {0, 1, 2, 3, 4, 5, 6}
    assert w.table_page.title.text() == "Table T7"
    qtbot.waitUntil(lambda: w.table_page.history.rowCount() > 0, timeout=WAIT_MS)
    seqs = [w.table_page.history.record(n).seq for n in range(w.table_page.history.rowCount())]
    assert seqs == sorted(seqs, reverse=True)          # newest first


def test_every_command_has_a_shortcut_in_a_menu_and_on_the_shortcuts_page(pit, qtbot):
    w = pit.window
    rows = w.shortcut_rows()
    names = {a.objectName() for a in w.actions_by_name.values()}
    assert len(rows) == len(names) and all(r[2] for r in rows)
    assert len({r[2] for r in rows}) == len(rows)                 # no two commands share a key
    w.actions_by_name["shortcuts"].trigger()
    page = w.dialog
    table = page.findChild(QTableView, "shortcut_list")
    shown = [tuple(table.model().index(r, c).data() for c in range(4)) for r in range(table.model().rowCount())]
    assert shown == rows
    assert ("Alarms", "Acknowledge alarm", "F6", w.actions_by_name["acknowledge"].statusTip()) in shown
    page.reject()
    # the keys work: F4 the alarms, F5 the approvals, F2 the floor
    w.activateWindow()
    for key, view in ((Qt.Key.Key_F4, "alarms"), (Qt.Key.Key_F5, "approvals"), (Qt.Key.Key_F2, "floor")):
        qtbot.keyClick(w, key)
        assert w.view == view


def test_the_window_remembers_its_size_and_the_view_that_was_open(themed, tmp_path, qtbot, monkeypatch,
                                                                  no_threads_left):
    p = make_pit(tmp_path, qtbot, monkeypatch)
    p.window.show_view("table:T7")
    p.window.resize(760, 560)       # on the offscreen screen (800x600): Qt keeps a restored window on it
    size = (p.window.width(), p.window.height())
    assert size == (760, 560)
    close_pit(p)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    assert settings.value("window/view") == "table:T7"
    (tmp_path / "again").mkdir()     # a workstation makes no folder for its log (issue 26)
    again = make_pit(tmp_path / "again", qtbot, monkeypatch)
    try:
        # the second window reads the first one's settings file
        from app.views.main_window import MainWindow
        w2 = MainWindow(again.ws, settings=settings, pump_ms=30)
        qtbot.addWidget(w2)
        assert w2.view_spec() == "table:T7"
        assert (w2.width(), w2.height()) == size
        w2.shutdown()
    finally:
        close_pit(again)


def test_every_model_of_the_live_window_passes_the_model_tester(hit_pit, qtbot, qtmodeltester):
    w = hit_pit.window
    claim_hit(qtbot, hit_pit)   # a pending approval
    # the shuffler counts 52 cards in deck blue: the deck count alarm and its irregularity, cited from
    # T1's own text (issue 33: 001 11.17(i) was cited at every table)
    shuffler = hit_pit.devices.served["SHF-T1"]
    for message, fields in (("shuffle_started", {"deck": "blue"}), ("card_count", {"deck": "blue", "count": 52}),
                            ("shuffle_completed", {"deck": "blue"})):
        shuffler.say(message, **fields)
    qtbot.waitUntil(lambda: any(a.kind == "deck_count_wrong" for a in w.alarms)
                    and any(r.status == "pending" for r in w.approvals), timeout=WAIT_MS)
    w.show_view("table:T1")
    page = w.table_page
    qtbot.waitUntil(lambda: page.detail is not None and page.decks.rowCount() > 0
                    and page.history.rowCount() > 0, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: page.irregularities.rowCount() > 0, timeout=WAIT_MS)
    models = [w.alarms_page.model, w.alarms_page.proxy, w.approvals_page.model, w.approvals_page.proxy,
              page.decks, page.irregularities, page.history]
    d = w.sign_in()
    fill(qtbot, d, ADMIN.name, ADMIN.pin)
    qtbot.waitUntil(lambda: w.session is not None, timeout=WAIT_MS)
    users = w.open_users()
    qtbot.waitUntil(lambda: users.model.rowCount() == len(DEMO_USERS), timeout=WAIT_MS)
    models.append(users.model)
    for m in models:
        assert m.rowCount() > 0, type(m).__name__
        qtmodeltester.check(m)
    users.reject()
    w.show_shortcuts()
    qtmodeltester.check(w.dialog.findChild(QTableView, "shortcut_list").model())
    w.dialog.reject()
    # the deck the shuffler miscounted is off the table; its irregularity is this round's, with its rule
    irregularity = page.irregularities.record(0)
    from app.rules.resources import profile
    t1 = profile(w.floor.tiles["T1"].tile.profile).rules
    assert irregularity.kind == "deck_count_wrong" and irregularity.rule == t1.cite("deck_count")
    assert irregularity.rule.startswith(t1.rule_text)


def test_a_new_database_asks_for_its_first_administrator(themed, tmp_path, qtbot, monkeypatch, no_threads_left):
    from app.views.dialogs import FirstAdministratorDialog
    from app.views.main_window import MainWindow
    from app.workstation.config import parse
    from app.workstation.workstation import Workstation
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    config = parse('[[tables]]\nid = "P1"\nprofile = "sd"\n', "pit.toml")
    ws = Workstation(config, tmp_path / "new.db").start()
    w = MainWindow(ws, settings=QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), pump_ms=30)
    qtbot.addWidget(w)
    try:
        w.show()
        w.start()
        qtbot.waitUntil(lambda: isinstance(w.dialog, FirstAdministratorDialog), timeout=WAIT_MS)
        d = w.dialog
        qtbot.keyClicks(d.name, "ada")
        qtbot.keyClicks(d.pin, "2468")
        qtbot.keyClicks(d.pin2, "2460")
        qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
        assert error_shown(d, "PINs differ")
        d.pin2.clear()
        qtbot.keyClicks(d.pin2, "2468")
        qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
        qtbot.waitUntil(lambda: "SIGNED IN: ada (administrator)" in w.who.text(), timeout=WAIT_MS)
        assert [(u.name, u.role) for u in ws.people.users()] == [("ada", "administrator")]
    finally:
        w.close()
        ws.close()


def test_a_stopped_log_is_said_in_a_red_banner(pit, qtbot):
    w = pit.window
    wait_online(qtbot, pit, classes=("progressive",))
    assert not w.banner.isVisible()
    # the log stops as a full disk or a pulled drive would stop it, on the bridge's lane (the one
    # thread that calls the workstation), between two pumps
    w.bridge.act(lambda ws: ws.log.close())
    qtbot.waitUntil(lambda: w.banner.isVisible(), timeout=WAIT_MS)
    assert w.banner.text().startswith("■ THE WORKSTATION STOPPED") and w.banner.property("level") == "red"


def test_who_sits_down_is_on_the_table_view(pit, qtbot):
    w = pit.window
    w.show_view("table:T7")
    qtbot.waitUntil(lambda: w.table_page.detail is not None, timeout=WAIT_MS)
    assert w.table_page.positions[3].player.text() == "empty"
    d = w.sign_in()
    fill(qtbot, d, DEALER.name, DEALER.pin)
    qtbot.waitUntil(lambda: w.session is not None, timeout=WAIT_MS)
    w.bridge.act(lambda ws: ws.decisions.record("T7", "player_seated", {"seat": 3, "player": "Lee"}))
    qtbot.waitUntil(lambda: w.table_page.positions[3].player.text() == "Lee", timeout=WAIT_MS)
    # the first player to the table (000(f)(4)(i)), and the event on top of the history
    assert "FIRST TO THE TABLE" in w.table_page.positions[3].marks.text()
    qtbot.waitUntil(lambda: w.table_page.history.record(0).type == "player_seated", timeout=WAIT_MS)
    assert w.table_page.history.record(0).actor == DEALER.name


def test_a_device_event_is_pumped_at_once_not_at_the_next_tick(pit, qtbot):
    """The inbox says when a device speaks and the bridge pumps then (app/views/bridge.py,
    SOON_MS): with the pump timer at ten minutes, the floor still moves with its devices."""
    wait_online(qtbot, pit)
    bridge = pit.window.bridge
    bridge.timer.setInterval(600_000)
    bridge.timer.start()
    before = bridge.pumps
    qtbot.waitUntil(lambda: bridge.pumps >= before + 3, timeout=WAIT_MS)


def test_a_tile_is_measured_again_only_when_its_size_may_change(pit, qtbot):
    """A new meter value of the same length redraws the meter and nothing else; a longer text
    says the tile may need another size (app/views/floor_view.py measures again only then)."""
    from dataclasses import replace
    wait_online(qtbot, pit)
    w = pit.window.floor.tiles["T1"]
    t = w.tile
    cents = t.meter_cents or 1_000_000
    assert w.show_tile(replace(t, meter_cents=cents + 21)) is False or t.meter_cents is None
    same = w.show_tile(replace(t, meter_cents=cents + 42))
    assert same is False and w.meter.text().endswith(f"{(cents + 42) % 100:02d}")
    assert w.show_tile(replace(t, meter_cents=cents * 1000)) is True       # three more digits
    assert w.show_tile(replace(t, meter_cents=cents * 1000)) is False      # the same tile again


def test_a_key_pressed_in_the_window_keeps_the_session_alive(pit, qtbot):
    """The idle sign-out counts from the last key or click (docs/workstation.md): the window
    watches its input (app/views/main_window.py, _watch_input), not every event of the app."""
    from PySide6.QtTest import QTest
    w = pit.window
    w.actions_by_name["sign_in"].trigger()
    d = w.dialog
    fill(qtbot, d, FLOOR.name, FLOOR.pin)
    qtbot.waitUntil(lambda: "SIGNED IN: demo-floor" in w.who.text(), timeout=WAIT_MS)
    pit.clock.advance(minutes=4)
    touched = pit.window.bridge._last_touch
    QTest.keyClick(w.windowHandle(), Qt.Key.Key_Right)     # as the platform delivers a key
    qtbot.waitUntil(lambda: w.bridge._last_touch != touched, timeout=WAIT_MS)
    # the touch taken by the workstation before time moves on: a pump on the lane that read the
    # clock after the advance and before the touch would sign the session out for idleness
    qtbot.waitUntil(lambda: w.bridge.lane.pending == 0, timeout=WAIT_MS)
    pit.clock.advance(minutes=2)                           # six minutes signed in, two idle
    pit.window.bridge.pump_soon()
    qtbot.waitUntil(lambda: "signs out after 0:03:00 idle" in w.who.text() or "0:02:59" in w.who.text(),
                    timeout=WAIT_MS)
    assert "SIGNED IN: demo-floor" in w.who.text()
    # the wheel too: a supervisor scrolling a long round panel is not idle (seen under Xvfb)
    from PySide6.QtCore import QPoint, QPointF
    from PySide6.QtGui import QWheelEvent
    from PySide6.QtWidgets import QApplication
    qtbot.waitUntil(lambda: w.bridge.lane.pending == 0, timeout=WAIT_MS)
    pit.clock.advance(minutes=2)
    touched = w.bridge._last_touch
    wheel = QWheelEvent(QPointF(50, 50), QPointF(50, 50), QPoint(0, 0), QPoint(0, -120), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(w.windowHandle(), wheel)
    qtbot.waitUntil(lambda: w.bridge._last_touch != touched, timeout=WAIT_MS)


def test_the_views_a_start_does_not_show_are_made_when_first_shown(pit, qtbot):
    """Issue 33: the floor is painted sooner when the window makes only what it shows; the
    progressive, logs, hold and reports views are made the first time they are shown, in their
    place, once."""
    w = pit.window
    later = {"ProgressivePage", "LogsPage", "HoldPage", "ReportsPage"}

    def made():
        return [type(w.stack.widget(i)).__name__ for i in range(w.stack.count())]
    assert w.view == "floor" and not set(made()) & later
    views = len(made())
    w.show_view("hold")
    assert w.stack.currentWidget() is w.hold_page is w.pages["hold"]
    w.show_view("logs:events")
    assert w.stack.currentWidget() is w.logs_page and w.logs_page.current().tab.name == "events"
    w.show_view("floor")
    w.show_view("hold")
    assert made().count("HoldPage") == 1 and len(made()) == views
    assert set(made()) & later == {"HoldPage", "LogsPage"}
