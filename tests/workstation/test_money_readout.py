"""The pit's money as the window reads it (issue 34, app/workstation/money_readout.py): each tile's
tray expected and its slips on their way, the table page's tray in full with its citations."""

import pytest

from app.engine.inventory import tray_change
from tests.support.money import approved, opened, settle_example
from tests.support.workstation import CASHIER, DEALER, FLOOR, SECURITY, open_ws


@pytest.fixture
def ws(tmp_path, monkeypatch, clock):
    w = open_ws(tmp_path, monkeypatch, clock)
    yield w
    w.close()


def tile(ws, table="section6"):
    return ws.reads.tile(table)


def test_a_tile_says_not_open_then_the_tray_expected_and_the_slips_on_their_way(ws):
    assert tile(ws).tray.expected is None and tile(ws).tray.slips == 0
    opened(ws)
    assert tile(ws).tray.expected == 360_000
    ledger = settle_example(ws)
    ws.inventory.buy_in("section6", 50_000, seat=2)
    assert tile(ws).tray.expected == 360_000 - 50_000 + tray_change(ledger)
    ws.inventory.request("section6", "credit", "2 x $100", "too many $100s")
    number = approved(ws)                 # a fill of 20 x $25, approved
    t = tile(ws).tray
    assert (t.slips, t.approved) == (2, 1)
    assert tile(ws, "nj").tray.expected is None          # another table: its own tray
    ws.people.sign_in(*CASHIER)
    ws.inventory.sign("fill", number, "cage", signers=[SECURITY])
    ws.people.sign_in(*DEALER)
    ws.inventory.sign("fill", number, "table", signers=[FLOOR])
    t = tile(ws).tray
    assert (t.slips, t.approved) == (1, 0)
    assert t.expected == 360_000 - 50_000 + tray_change(ledger) + 50_000
    # every tile read at once agrees with the one read alone
    assert {x.table: x.tray for x in ws.reads.tiles()}["section6"] == t


def test_the_table_detail_has_the_tray_in_full_with_the_tables_own_citations(ws):
    assert ws.reads.table_detail("section6").money.opener is None
    opened(ws)
    number = approved(ws)
    m = ws.reads.table_detail("section6").money
    assert m.open and m.money.opener == 360_000 and m.money.expected == 360_000
    _, rules = ws.state_of("section6")
    assert m.count_rule == rules.cite("tray_count") and m.collect_rule == rules.cite("tray_collect")
    (s,) = m.slips
    assert (s.kind, s.number, s.cents, s.chips, s.status) == ("fill", number, 50_000, "20 x $25.00", "approved")
    assert s.next_step == "to sign at the cage"
    ws.people.sign_in(*CASHIER)
    ws.inventory.sign("fill", number, "cage", signers=[SECURITY])
    assert ws.reads.table_detail("section6").money.slips[0].next_step == "to sign at the table"
