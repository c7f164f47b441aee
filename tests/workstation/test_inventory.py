"""The pit's money at the workstation (issue 34, docs/inventory.md): the opener and the closer
signed by two, fills and credits through their slips, buy-ins, the drop, and the win by count
reconciled with the rounds' win to the cent; each fault refused or alarmed, nothing half-written."""

import json

import pytest

from app.engine.inventory import house_net, to_meter, tray_change
from app.store import trays
from app.workstation.errors import NotPermitted, Refused
from tests.support.money import OPENER, a_whole_shift, alarms, approved, opened, settle_example
from tests.support.workstation import CASHIER, COUNT_1, COUNT_2, DEALER, FLOOR, PIT, SECURITY, open_ws
from tests.support.workstation import sent_back_and_settled_again as settled_twice

@pytest.fixture
def ws(tmp_path, monkeypatch, clock):
    w = open_ws(tmp_path, monkeypatch, clock)
    yield w
    w.close()


def test_the_opener_is_signed_by_the_dealer_and_a_supervisor(ws):
    ws.people.sign_in(*DEALER)
    with pytest.raises(NotPermitted, match="takes two people"):
        ws.inventory.open_tray("section6", OPENER)
    ws.people.sign_in(*DEALER)
    with pytest.raises(NotPermitted, match="demo-dealer is a dealer"):
        ws.inventory.open_tray("section6", OPENER, signer=("demo-dealer", "4444"))
    assert ws.log.query("SELECT COUNT(*) AS n FROM trays")[0]["n"] == 0
    ws.inventory.open_tray("section6", OPENER, signer=FLOOR)
    row = ws.log.query("SELECT * FROM trays")[0]
    assert row["kind"] == "opener" and row["cents"] == 360_000
    assert json.loads(row["signed_by"]) == [["demo-dealer", "dealer"], ["demo-floor", "floor supervisor"]]
    with pytest.raises(Refused, match="is open since"):
        ws.inventory.open_tray("section6", OPENER, signer=FLOOR)


def test_a_bad_count_is_refused_naming_the_value(ws):
    ws.people.sign_in(*DEALER)
    with pytest.raises(Refused, match=r"no \$2.00 chip"):
        ws.inventory.open_tray("section6", "10 x $2", signer=FLOOR)
    with pytest.raises(Refused, match="expected a number of chips"):
        ws.inventory.open_tray("section6", "lots of chips", signer=FLOOR)


def test_the_win_by_count_reconciles_with_the_rounds_to_the_cent(ws, clock):
    opened(ws)
    ledger = settle_example(ws)
    ws.inventory.buy_in("section6", 50_000, seat=2, player="P. Chan")
    money = trays.shift_money(ws.log, trays.open_shift(ws.log, "section6"))
    assert money.rounds == 1 and money.rounds_house_net == house_net(ledger)
    assert money.expected == 360_000 - 50_000 + tray_change(ledger)
    # the closer counted as the tray should hold; the drop holds the buy-in's cash
    exact = 360_000 - 50_000 + tray_change(ledger)
    ws.people.sign_in(*DEALER)
    ws.inventory.close_tray("section6", {100: exact // 100}, signer=FLOOR)
    ws.people.sign_in(*COUNT_1)
    ws.inventory.drop("section6", "5 x $100", signers=[COUNT_2])
    money = trays.shift_money(ws.log, trays.last_closer(ws.log, "section6")["opener"])
    assert money.win == 50_000 + exact - 360_000
    assert money.difference == 0 and money.win == house_net(ledger) + to_meter(ledger)
    assert not alarms(ws, "tray_difference") and not alarms(ws, "win_difference")
    with pytest.raises(Refused, match="a drop box is counted once"):
        ws.inventory.drop("section6", "5 x $100", signers=[COUNT_2])


def test_a_chip_walked_is_an_alarm_naming_table_amount_and_chip(ws):
    opened(ws)
    ws.people.sign_in(*DEALER)
    ws.inventory.close_tray("section6", "19 x $100, 40 x $25, 100 x $5, 100 x $1", signer=FLOOR)
    (alarm,) = alarms(ws, "tray_difference")
    assert "table section6, day 2026-11-21" in alarm["message"] and "$100.00 short of" in alarm["message"]
    assert "1 x $100.00" in alarm["message"] and alarm["rule"].startswith("000 has no paragraph")
    # the drop that holds what the buy-ins say: the win short by the chip, named again
    ws.people.sign_in(*COUNT_1)
    ws.inventory.drop("section6", "0 x $100", signers=[COUNT_2])
    (win,) = alarms(ws, "win_difference")
    assert "differs from the rounds' win $0.00 by -$100.00" in win["message"]


def test_a_difference_at_the_threshold_is_no_alarm(ws):
    opened(ws)
    ws.people.sign_in(*DEALER)
    ws.inventory.close_tray("section6", "20 x $100, 40 x $25, 100 x $5, 75 x $1", signer=FLOOR)
    assert not alarms(ws, "tray_difference")    # $25.00 short: not over $25 (NJ 13:69D-1.21)


def test_an_opener_that_differs_from_the_last_closer_is_an_alarm_naming_both(ws):
    opened(ws)
    ws.people.sign_in(*DEALER)
    ws.inventory.close_tray("section6", OPENER, signer=FLOOR)
    ws.inventory.open_tray("section6", "20 x $100, 40 x $25, 100 x $5, 90 x $1", signer=FLOOR)
    (alarm,) = alarms(ws, "opener_differs")
    assert "$3,590.00" in alarm["message"] and "$3,600.00" in alarm["message"]
    assert "-10 x $1.00" in alarm["message"]


def test_a_fill_from_request_to_the_tray(ws):
    opened(ws)
    ws.people.sign_in(*DEALER)
    ws.inventory.request("section6", "fill", "20 x $25", "the $25s run low")
    slip = trays.slip(ws.log, "fill", 1)
    assert slip["status"] == "requested" and slip["cents"] == 50_000
    (req,) = ws.log.query("SELECT * FROM approvals WHERE kind = 'fill'")
    assert req["request"] == slip["request"] and req["status"] == "pending"
    assert req["rule"] == "000 has no paragraph on this: the house's procedure"
    # not at the cage before a supervisor approves
    ws.people.sign_in(*CASHIER)
    with pytest.raises(Refused, match="waits for a supervisor's approval"):
        ws.inventory.sign("fill", 1, "cage", signers=[SECURITY])
    ws.people.sign_in(*FLOOR)
    ws.decisions.decide(req["request"], "approved")
    assert trays.slip(ws.log, "fill", 1)["status"] == "approved"
    # not at the table before the cage; at the cage, a cashier and security both
    ws.people.sign_in(*DEALER)
    with pytest.raises(Refused, match="signed at the cage first"):
        ws.inventory.sign("fill", 1, "table", signers=[FLOOR])
    ws.people.sign_in(*CASHIER)
    with pytest.raises(NotPermitted, match="a cashier and a security"):
        ws.inventory.sign("fill", 1, "cage")
    ws.inventory.sign("fill", 1, "cage", signers=[SECURITY])
    before = trays.shift_money(ws.log, trays.open_shift(ws.log, "section6")).expected
    ws.people.sign_in(*DEALER)
    ws.inventory.sign("fill", 1, "table", signers=[FLOOR])
    slip = trays.slip(ws.log, "fill", 1)
    assert slip["status"] == "complete" and slip["tray_moved"]
    assert trays.shift_money(ws.log, trays.open_shift(ws.log, "section6")).expected == before + 50_000


def test_a_credit_leaves_the_table_before_the_cage(ws):
    opened(ws)
    approved(ws, "credit", "10 x $100", "the tray holds too much")
    ws.people.sign_in(*CASHIER)
    with pytest.raises(Refused, match="signed at the table first"):
        ws.inventory.sign("credit", 1, "cage", signers=[SECURITY])
    ws.people.sign_in(*DEALER)
    ws.inventory.sign("credit", 1, "table", signers=[FLOOR])
    ws.people.sign_in(*CASHIER)
    ws.inventory.sign("credit", 1, "cage", signers=[SECURITY])
    money = trays.shift_money(ws.log, trays.open_shift(ws.log, "section6"))
    assert money.credits == 100_000 and money.expected == 260_000


def test_a_void_slip_keeps_its_number_and_is_never_used_again(ws):
    opened(ws)
    ws.people.sign_in(*DEALER)
    ws.inventory.request("section6", "fill", "20 x $25", "the $25s run low")
    ws.people.sign_in(*FLOOR)
    with pytest.raises(Refused, match="records its reason"):
        ws.inventory.void("fill", 1, " ")
    ws.inventory.void("fill", 1, "asked twice")
    slip = trays.slip(ws.log, "fill", 1)
    assert slip["status"] == "VOID" and slip["void_reason"] == "asked twice"
    assert ws.log.query("SELECT status FROM approvals WHERE request = ?", (slip["request"],))[0]["status"] == "denied"
    ws.people.sign_in(*CASHIER)
    with pytest.raises(Refused, match="VOID"):
        ws.inventory.sign("fill", 1, "cage", signers=[SECURITY])
    ws.people.sign_in(*DEALER)
    ws.inventory.request("section6", "fill", "20 x $25", "the $25s run low")
    assert trays.slip(ws.log, "fill", 2)["status"] == "requested"


def test_a_denied_fill_is_void(ws):
    opened(ws)
    ws.people.sign_in(*DEALER)
    ws.inventory.request("section6", "fill", "2 x $1,000", "a big player")
    ws.people.sign_in(*PIT)
    ws.decisions.decide(trays.slip(ws.log, "fill", 1)["request"], "denied", "no such chips needed")
    assert trays.slip(ws.log, "fill", 1)["void_reason"] == "denied: no such chips needed"


def test_the_read_models_derive_again_from_the_log(ws):
    from app.store.read_models import rebuild
    opened(ws)
    settle_example(ws)
    ws.inventory.request("section6", "fill", "20 x $25", "low")
    ws.inventory.buy_in("section6", 10_000, seat=1)
    before = {t: ws.log.query(f"SELECT * FROM {t} ORDER BY 1, 2") for t in trays_tables()}
    conn = ws.log._conn   # noqa: SLF001 - the writer's own connection, the workstation holding the lock
    with ws.lock, ws.log._lock:
        rebuild(conn)
    assert {t: ws.log.query(f"SELECT * FROM {t} ORDER BY 1, 2") for t in trays_tables()} == before


def trays_tables():
    from app.store.schema import TRAY_TABLES
    return TRAY_TABLES


def test_audit_verify_derives_the_money_again_and_names_a_closer_edited(tmp_path, monkeypatch, clock):
    from tests.support.store import attacker, cli
    ws = open_ws(tmp_path, monkeypatch, clock)
    try:
        a_whole_shift(ws)
        money = trays.shift_money(ws.log, trays.last_closer(ws.log, "section6")["opener"])
        assert money.difference == 0 and money.fills == 50_000 and money.credits == 0
    finally:
        ws.close()
    db, home = tmp_path / "pit.db", tmp_path / "home"
    rc, out, err = cli(home, "audit", "verify", "--db", str(db))
    assert rc == 0, (out, err)
    with attacker(db) as conn:
        assert conn.execute("UPDATE trays SET cents = cents + 10000 WHERE kind = 'closer'").rowcount == 1
    rc, out, err = cli(home, "audit", "verify", "--db", str(db))
    assert rc == 1 and out["first_bad"]["table"] == "trays", (out, err)
    assert out["first_bad"]["stored"]["cents"] == out["first_bad"]["log"]["cents"] + 10_000


def test_a_slip_of_a_closed_shift_is_never_delivered_into_the_next(ws):
    opened(ws)
    approved(ws)
    ws.people.sign_in(*DEALER)
    ws.inventory.close_tray("section6", OPENER, signer=FLOOR)
    ws.inventory.open_tray("section6", OPENER, signer=FLOOR)
    ws.people.sign_in(*CASHIER)
    with pytest.raises(Refused, match="a shift of table section6 that is closed: void it"):
        ws.inventory.sign("fill", 1, "cage", signers=[SECURITY])


def test_no_closer_while_a_fill_is_on_its_way_and_a_wrong_pin_signs_nothing(ws):
    from app.workstation.errors import SignInRefused
    opened(ws)
    approved(ws)
    ws.people.sign_in(*CASHIER)
    with pytest.raises(SignInRefused, match="wrong PIN"):
        ws.inventory.sign("fill", 1, "cage", signers=[("demo-security", "0000")])
    assert trays.slip(ws.log, "fill", 1)["status"] == "approved"
    ws.inventory.sign("fill", 1, "cage", signers=[SECURITY])
    ws.people.sign_in(*DEALER)
    with pytest.raises(Refused, match=r"fill slip 1 \(\$500.00, table section6\) is on its way"):
        ws.inventory.close_tray("section6", OPENER, signer=FLOOR)
    assert ws.log.query("SELECT COUNT(*) AS n FROM trays WHERE kind = 'closer'")[0]["n"] == 0


def sent_back_and_settled_again(ws):
    """docs/rounds/section6-house.json settled, its request denied, settled again: both seqs."""
    first, again = settled_twice(ws, "recheck the hand")
    return first.settlement, again.settlement


def test_a_round_sent_back_and_settled_again_counts_once_in_its_shift(ws):
    opened(ws)
    first, again = sent_back_and_settled_again(ws)
    assert ws.log.query("SELECT seq, replaced FROM tray_rounds ORDER BY seq") == [
        {"seq": first, "replaced": again}, {"seq": again, "replaced": None}]
    ledger = json.loads(ws.log.query("SELECT settlement FROM settlements WHERE seq = ?",
                                     (again,))[0]["settlement"])["ledger"]
    money = trays.shift_money(ws.log, trays.open_shift(ws.log, "section6"))
    assert money.rounds == 1 and money.rounds_tray == tray_change(ledger)


def test_migration_10_gives_a_log_from_before_the_money_the_projectors_tray_rows(tmp_path, monkeypatch, clock):
    import sqlite3
    from app.store.log import AuditLog
    from app.store.schema import TRAY_TABLES
    ws = open_ws(tmp_path, monkeypatch, clock)
    try:
        first, again = sent_back_and_settled_again(ws)      # no opener: a log as one before the money
        projected = ws.log.query("SELECT * FROM tray_rounds ORDER BY seq")
    finally:
        ws.close()
    assert [(r["seq"], r["replaced"], r["opener"]) for r in projected] == [(first, again, None), (again, None, None)]
    conn = sqlite3.connect(tmp_path / "pit.db")
    for t in TRAY_TABLES:
        conn.execute(f"DROP TABLE {t}")
    conn.execute("DELETE FROM _migrations WHERE version = 10")
    conn.commit()
    conn.close()
    with AuditLog(tmp_path / "pit.db") as log:
        assert log.query("SELECT * FROM tray_rounds ORDER BY seq") == projected

def test_an_opener_without_a_count_is_the_last_closer_carried_over(ws):
    ws.people.sign_in(*DEALER)
    with pytest.raises(Refused, match="no closer to carry over"):
        ws.inventory.open_tray("section6", signer=FLOOR)
    opened(ws)
    ws.inventory.close_tray("section6", "20 x $100, 40 x $25, 100 x $5, 90 x $1", signer=FLOOR)
    ws.inventory.open_tray("section6", signer=FLOOR)
    row = ws.log.query("SELECT * FROM trays WHERE kind = 'opener' ORDER BY seq DESC LIMIT 1")[0]
    assert row["cents"] == 359_000 and row["last_closer_cents"] == 359_000
    assert not alarms(ws, "opener_differs")
