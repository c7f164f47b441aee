"""Issue 35, finding 5 for the floor's shift report: the casino's server keeps each table shift's
money as rows arrive (PostgreSQL migration 9, app/store/pg/floor_trays.py), and each pit's, read
from it, is its own report's to the cent: the opener, fills and credits signed at both ends (a
voided one not counted), buy-ins, the rounds' flow through the tray, the closer and the drop."""

from __future__ import annotations

from datetime import date

import psycopg
import pytest

from app.store.pg.floor_trays import tray_money
from app.workstation.shift_figures import money_json
from app.workstation.shifts import DEFAULT
from tests.support.casino import pitdesk, shipped_with_own
from tests.support.money import opened
from tests.support.round_panel import PAYEE
from tests.support.workstation import PIT, Clock, open_ws, sent_back_and_settled_again
from tests.workstation.test_shift_report_money import play_money

SHIFT = ("--date", "2026-11-21", "--shift", "day")


@pytest.fixture(scope="module")
def money_pits(tmp_path_factory):
    """Two pits' day shifts played through their money, one $100.00 short, one $25.00, the second
    with a round sent back by a denial and settled again."""
    out = []
    for n, short in enumerate((10_000, 2_500)):
        d = tmp_path_factory.mktemp(f"traymoney{n}")
        mp = pytest.MonkeyPatch()
        ws = open_ws(d, mp, Clock())
        try:
            play_money(ws, short)
            if n:       # the table opened again: a second table shift, its round sent back and settled again
                opened(ws)
                _, again = sent_back_and_settled_again(ws)
                # its payouts released with their slips, one slip voided, and an aggregate-limit
                # application: the floor report counts them
                ws.people.sign_in(*PIT)
                for req in again.approvals:
                    ws.decisions.decide(req.request, "approved", "meter checked")
                ws.rounds.release(again.settlement, {1: PAYEE})
                ws.rounds.void_slip(ws.rounds.slip_book()[0].number, "printed with the wrong seat")
                ws.floor.approvals.request("aggregate_limit", ws.clock(), "demo-dealer", "dealer", "section6", 2,
                                           7_500_000, reason="aggregate limit applies")
        finally:
            ws.close()
            mp.undo()
        out.append(d)
    return out


def test_each_table_shifts_money_from_the_server_is_the_pits_own(casino, money_pits):
    local = {}
    for d in money_pits:
        rc, own, err = pitdesk("report", "shift", "--db", str(d / "pit.db"), *SHIFT, "--json", home=d / "home")
        assert rc == 0, err
        local[own["db_id"]] = {t["table"]: t["money"] for t in own["tables"] if t["money"]["shifts"]}
        assert pitdesk("ship", "--db", str(d / "pit.db"), "--to", casino.ship, home=d / "home")[0] == 0
    shift = DEFAULT.shift_named("day", date(2026, 11, 21))
    with psycopg.connect(casino.floor) as pg:
        server = tray_money(pg, shift.start, shift.end)
    assert {ws: {t: money_json(m) for t, m in tables.items()} for ws, tables in server.items()} == local
    assert all(local.values()) and len(local) == 2
    # the second pit's table: two shifts added, the round sent back counted once
    second = next(t for t in local.values() if t["section6"]["shifts"] == 2)["section6"]
    assert second["rounds"] == 2


def test_the_floor_report_of_the_pits_is_each_pits_own_with_a_round_sent_back(casino, money_pits):
    """The floor report from the server's sums (issue 35, finding 5) states each pit as its own
    report does: a round sent back by a denial and settled again, a payout slip voided, an
    aggregate-limit application, each table shift's money."""
    from tests.casino.test_casino_report import assert_pit_is_its_own
    local = shipped_with_own(casino, [(d / "pit.db", d / "home") for d in money_pits], *SHIFT)
    rc, floor, err = pitdesk("report", "shift", "--pg", casino.floor, *SHIFT, "--json")
    assert rc == 0, err
    for p in floor["pits"]:
        assert_pit_is_its_own(p, local[p["db_id"]])
    f = floor["floor"]
    assert f["sent_back"] == 1 and f["aggregate_limits"] == 1 and f["slips"] >= 1 and f["void_slips"] == 1, f
    assert f["rounds"] == sum(own["pit"]["rounds"] for own in local.values())


def test_a_tray_sum_the_owner_edits_refuses_the_hold_and_floor_verify_names_it(casino, money_pits):
    d = money_pits[0]
    assert pitdesk("ship", "--db", str(d / "pit.db"), "--to", casino.ship, home=d / "home")[0] == 0
    assert pitdesk("hold", "--pg", casino.floor, "--json")[0] == 0        # checked whole, remembered
    casino.sql("ALTER TABLE pitdesk.money_tray_events DISABLE TRIGGER USER; "
               "UPDATE pitdesk.money_tray_events SET data = jsonb_set(data, '{cents}', '99999999') "
               "WHERE type = 'tray_closer'; ALTER TABLE pitdesk.money_tray_events ENABLE TRIGGER USER")
    rc, out, err = pitdesk("hold", "--pg", casino.floor, "--json")
    assert rc == 1 and "pitdesk.money_tray_events: its rows of rows 1 to" in err, err
    rc, verify, err = pitdesk("floor", "verify", "--pg", casino.floor, "--json")
    bad = verify["workstations"][0]["first_bad"]
    assert rc == 1 and bad["kind"] == "read model" and "pitdesk.money_tray_events" in bad["detail"], verify
