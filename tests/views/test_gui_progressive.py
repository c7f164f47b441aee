"""The progressive view in the real window over the real workstation and a simulated
progressive controller on loopback TCP (offscreen): the chart follows the meter, a hit shows
PENDING for its table, approval with the right PIN pays it and the controller's reset shows; the
figures on screen are compared with the log read here with SQL of its own. The models go through
pytest-qt's model tester."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from app.views.progressive_models import HitModel, MeterRecordModel, RecordRow
from app.qt import Qt
from app.views.theme import money
from app.workstation.shifts import shift_of
from tests.support.round_panel import sign_in
from tests.support.views import FLOOR, PIT, WAIT_MS, claim_hit, error_shown, fill, gone


def controller_rows(ws, table: str, since: datetime, upto: int) -> list[tuple[float, int]]:
    """(time, cents) of the controller's readings in the log, read without the readout's code."""
    out = []
    for r in ws.log.query("SELECT seq, time, body FROM events WHERE type = 'meter_reading' AND table_id = ? AND "
                          "seq <= ? ORDER BY seq", (table, upto)):
        d = json.loads(r["body"])["data"]
        t = datetime.fromisoformat(r["time"])
        if d["source"] in ("controller", "reset") and t >= since:
            # on the chart's time axis: seconds of the log's own clock (its local time as written)
            out.append((round((t - datetime(1970, 1, 1)).total_seconds(), 3), d["cents"]))
    return out


def hit_rows(ws, table: str) -> list[dict]:
    return [{"seq": r["seq"], **json.loads(r["body"])["data"]} for r in ws.log.query(
        "SELECT seq, body FROM events WHERE type = 'approval_requested' AND table_id = ? AND role = 'device' "
        "ORDER BY seq", (table,)) if json.loads(r["body"])["data"]["kind"] == "progressive_meter_payout"]


def test_the_chart_follows_the_controller_a_hit_is_pending_until_approved_and_the_screen_is_the_log(hit_pit,
                                                                                                      qtbot):
    w, ws = hit_pit.window, hit_pit.ws
    w.actions_by_name["progressive"].trigger()          # View > Progressive meters (Ctrl+M)
    assert w.view == "progressive" and w.progressive_page.timer.isActive()
    page = w.progressive_page
    qtbot.waitUntil(lambda: "PRG-T1" in page.cards and page.cards["PRG-T1"].readout.meter is not None,
                    timeout=WAIT_MS)
    card = page.cards["PRG-T1"]
    assert list(page.cards) == ["PRG-T1"]                 # T7 has no controller
    claim_hit(qtbot, hit_pit)
    # the meter rises on the chart: 21 cents for each progressive wager (000(q)(5))
    qtbot.waitUntil(lambda: card.chart.n >= 2 and any(b > a for a, b in zip(card.chart.y[:card.chart.n - 1],
                                                                           card.chart.y[1:card.chart.n])),
                    timeout=WAIT_MS)

    # a hit: PENDING for its table, in the list and across the card
    qtbot.waitUntil(lambda: any(h.state == "PENDING" for h in page.hits.records()), timeout=WAIT_MS)
    hit = next(h for h in page.hits.records() if h.state == "PENDING")
    assert hit.table == "T1" and hit.role_needed == "pit manager"       # the whole meter (000(q)(3)(iii))
    row = page.hits.row_of(hit.request)
    assert page.hits.index(row, 0).data() == "▲ PENDING"
    qtbot.waitUntil(lambda: card.pending.isVisible(), timeout=WAIT_MS)
    assert "PENDING HIT" in card.pending.text() and "T1 SEAT" in card.pending.text()
    assert card.pending.property("level") == "amber" and card.property("level") == "amber"
    assert "PENDING" in page.tabs.tabText(0)

    # approval through the window, as the approvals queue does: the hit selected, F7, a PIN; the floor
    # supervisor signed in, the pit manager counter-signs (issue 27, 6)
    sign_in(qtbot, w, FLOOR)
    assert page.select_hit(hit.request) and page.selected_hit().request == hit.request
    w.actions_by_name["approve"].trigger()
    d = w.dialog
    assert d is not None and d.request.request == hit.request
    fill(qtbot, d, FLOOR.name, FLOOR.pin)
    qtbot.waitUntil(lambda: error_shown(d, "pit manager"), timeout=WAIT_MS)   # the top award needs a pit manager
    fill(qtbot, d, PIT.name, PIT.pin)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: next(h for h in page.hits.records() if h.request == hit.request).state == "PAID",
                    timeout=WAIT_MS)
    paid = next(h for h in page.hits.records() if h.request == hit.request)
    assert (paid.decided_by, paid.decided_role) == (FLOOR.name, "floor supervisor")
    decided = next(a for a in ws.reads.approvals(pending_only=False) if a.request == hit.request)
    assert (decided.countersigned_by, decided.countersigned_role) == (PIT.name, "pit manager")
    # the attendant pays it and the controller resets its meter (000(q)(6)): the hit's reset
    hit_pit.devices.served["PRG-T1"].say("reset", cents=1_000_000)
    # ... and the controller's reset after it, marked on the chart
    qtbot.waitUntil(lambda: next(h for h in page.hits.records() if h.request == hit.request).reset is not None,
                    timeout=WAIT_MS)
    paid = next(h for h in page.hits.records() if h.request == hit.request)
    assert paid.reset.cents == paid.reset_cents == 1_000_000
    qtbot.waitUntil(lambda: len(card.chart.resets.data) >= 1, timeout=WAIT_MS)

    # what the screen shows is the log's: stop the live reads, and compare
    page.activate(False)
    qtbot.waitUntil(lambda: not page.reading, timeout=WAIT_MS)
    since = shift_of(hit_pit.clock()).start
    log = controller_rows(ws, "T1", since, page.after["PRG-T1"])
    n = card.chart.n
    start = 1 if card.readout.start is not None else 0
    chart = list(zip([round(x, 3) for x in card.chart.x[start:n]], [round(v * 100) for v in card.chart.y[start:n]]))
    assert chart == log and len(log) >= 3
    assert card.meter.text() == money(log[-1][1])
    requests = hit_rows(ws, "T1")
    shown = sorted(page.hits.records(), key=lambda h: h.request)
    assert [h.request for h in shown] == [r["seq"] for r in requests if r["seq"] <= page.after["PRG-T1"]][-len(shown):]
    for h in shown:
        req = next(r for r in requests if r["seq"] == h.request)
        status = ws.log.query("SELECT status FROM approvals WHERE request = ?", (h.request,))[0]["status"]
        assert (h.seat, h.reported, h.line) == (req["seat"], req["cents"], req["line"])
        assert h.state == {"pending": "PENDING", "approved": "PAID", "denied": "DENIED"}[status]
        r = page.hits.row_of(h.request)
        assert page.hits.index(r, 6).data() == money(req["cents"])     # Controller says
        # the meter the hit was reported at: the controller's last reading before it, in the log
        before = controller_rows(ws, "T1", datetime.min, h.request - 1)[-1][1]
        assert h.meter == before and page.hits.index(r, 7).data().startswith(money(before))   # 100% of the meter


def test_the_view_opens_from_its_shortcut_and_its_timer_stops_when_it_is_left(pit, qtbot):
    w = pit.window
    shortcut = w.actions_by_name["progressive"].shortcut().toString()
    assert shortcut == "Ctrl+M" and "Progressive meters" in [r[1] for r in w.shortcut_rows()]
    w.show_view("progressive")
    page = w.progressive_page
    qtbot.waitUntil(lambda: page.reads >= 1 and "PRG-T1" in page.cards, timeout=WAIT_MS)
    rec = page.record.records()
    assert rec and all(isinstance(r, RecordRow) for r in rec)
    assert {r.m.what for r in rec} <= {"start of shift", "end of shift", "reset"}
    w.show_view("floor")
    assert not page.timer.isActive()


def test_the_progressive_models_pass_the_model_tester(hit_pit, qtbot, qtmodeltester):
    w, ws = hit_pit.window, hit_pit.ws
    claim_hit(qtbot, hit_pit)
    qtbot.waitUntil(lambda: any(r.kind == "progressive_meter_payout" for r in w.approvals), timeout=WAIT_MS)
    readouts = ws.reads.progressive(since=shift_of(hit_pit.clock()).start)
    hits, record = HitModel(), MeterRecordModel()
    hits.set_records([h for r in readouts for h in r.hits])
    record.set_records([RecordRow(r.serial, r.tables[0], m) for r in readouts for m in r.record])
    assert hits.rowCount() >= 1 and record.rowCount() >= 1
    qtmodeltester.check(hits)
    qtmodeltester.check(record)
    # a later readout: rows arrive as inserts, the decided hit changes in place
    assert hits.index(0, 0).data(Qt.ItemDataRole.DisplayRole).endswith(("PENDING", "PAID", "DENIED"))


def test_the_chart_opens_on_the_last_hour_and_widens_to_the_whole_shift(pit, qtbot):
    """Item 9 of issue 27: the meter's recent movement, not squeezed against the right edge."""
    w = pit.window
    w.show_view("progressive")
    page = w.progressive_page
    qtbot.waitUntil(lambda: "PRG-T1" in page.cards and page.cards["PRG-T1"].shown[0] is not None, timeout=WAIT_MS)
    card = page.cards["PRG-T1"]
    since, end = card.shown
    assert end - since > timedelta(hours=1), "the test's clock is more than an hour into the shift"

    def shown_seconds() -> float:
        (left, right), _ = card.chart.widget.getPlotItem().getViewBox().viewRange()
        return right - left

    assert page.span.currentText() == "Last hour"
    assert 3600 <= shown_seconds() <= 3600 * 1.05
    page.span.setCurrentIndex(page.span.findText("Whole shift"))
    whole = (end - since).total_seconds()
    assert whole <= shown_seconds() <= whole * 1.05
    page.span.setCurrentIndex(page.span.findText("Last 2 hours"))
    assert 7200 <= shown_seconds() <= 7200 * 1.05 or shown_seconds() >= whole
    w.show_view("floor")
