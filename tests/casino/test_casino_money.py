"""The pit's money travels as every row does (issue 34): a shift's openers, slips, buy-ins, closer
and drop are shipped to the casino's PostgreSQL, verified there, and a log restored from it derives
the same money (its read models checked by ``audit verify``)."""

from __future__ import annotations


from app.store.schema import TRAY_TABLES
from tests.support.casino import pitdesk
from tests.support.money import a_whole_shift
from tests.support.workstation import Clock, open_ws
from tests.support.money import money_rows


def test_a_shift_of_money_is_shipped_verified_and_restored_whole(casino, tmp_path, monkeypatch):
    ws = open_ws(tmp_path, monkeypatch, Clock())
    try:
        a_whole_shift(ws)
        db_id = ws.log.query("SELECT value FROM meta WHERE key = 'db_id'")[0]["value"]
    finally:
        ws.close()
    db, home = tmp_path / "pit.db", tmp_path / "home"
    money = money_rows(db)
    assert all(money[t] for t in TRAY_TABLES)          # a row of every kind to travel
    rc, shipped, err = pitdesk("ship", "--db", str(db), "--to", casino.ship, home=home)
    assert rc == 0 and shipped["workstation"] == db_id, err
    rc, verified, err = pitdesk("floor", "verify", "--pg", casino.floor, "--key", f"{db_id}={home / 'install.key'}",
                                "--json")
    assert rc == 0 and verified["workstations"][0]["seals"] == "checked", err
    out = tmp_path / "restored.db"
    rc, made, err = pitdesk("floor", "restore", "--pg", casino.floor, "--workstation", db_id, "--out", str(out))
    assert rc == 0, err
    rc, report, err = pitdesk("audit", "verify", "--db", str(out), home=home)
    assert rc == 0 and report["read_models"] == "checked", (err, report)
    assert money_rows(out) == money
