"""What another hand writes reaches the window (found in a supervisor's shift, issue 36's session):
the demo's dealers act on the workstation from their own thread, and an action's ``Changes`` go to
whoever acted, so a fill's approval request the demo made showed on its tile ("1 APPROVAL") while
the status bar said "0 PENDING APPROVALS" and the queue (F5) did not list it. The window now reads
the alarms and the approvals again when the tiles' counts say the lists it has are not the log's."""

from __future__ import annotations

from app.store import rows
from tests.support.round_panel import idle
from tests.support.views import T0, WAIT_MS


def test_a_request_and_an_alarm_made_by_another_hand_reach_the_queue_and_the_status_bar(rpit, qtbot):
    w, ws = rpit.window, rpit.ws
    idle(qtbot, w)
    assert not any(r.status == "pending" for r in w.approvals) and not any(a.open for a in w.alarms)
    # another hand writes, and takes the journal's changes with it (as ws.write does for the demo's dealers)
    with ws.lock:
        ws.floor.approvals.request("payoff_threshold", T0, "demo-dealer", "dealer", "M1", 2, 2_500_000,
                                   reason="a payoff at or above the threshold")
        ws.log.append_many([rows.alarm_raised(T0, "M1", "deck_count_wrong", "deck red has 51 cards")])
        taken = ws.journal.changes()
    assert taken.approvals and taken.alarms            # the window's pump will never see these
    rpit.clock.advance(seconds=2)                      # the next tick reads every tile
    qtbot.waitUntil(lambda: any(r.status == "pending" and r.table == "M1" for r in w.approvals)
                    and any(a.open and a.table == "M1" for a in w.alarms), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "1 PENDING APPROVAL" in w.waiting.text() and "1 OPEN ALARM" in w.waiting.text(),
                    timeout=WAIT_MS)
