"""Migration 10, the pit's money (issue 34): a log made before it opens with the tray's read models
added and each settlement's flow through the tray filled from its ledger in SQL, as the projector
writes it for a new one (tests/workstation/test_inventory.py compares them row for row); its
settlements name no shift (no table was opened with an opener then). A log whose rows already name
the money (its migration record lost) is projected again. ``audit verify`` derives the same rows."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from app.engine.inventory import house_net, to_meter, tray_change
from app.store.log import AuditLog
from app.store.schema import MIGRATIONS, TRAY_TABLES
from tests.support.store import cli
from tests.support.money import money_rows


def _as_before_migration_10(db) -> None:
    conn = sqlite3.connect(db)
    for t in TRAY_TABLES:
        conn.execute(f"DROP TABLE {t}")
    conn.execute("DELETE FROM _migrations WHERE version = 10")
    conn.commit()
    conn.close()


def test_a_log_that_names_the_money_is_projected_again_whole_and_verifies(made, tmp_path, monkeypatch):
    shutil.copy(made / "shift.db", tmp_path / "shift.db")
    shutil.copytree(made / "home", tmp_path / "home")
    db = tmp_path / "shift.db"
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    before = money_rows(db)
    assert before["trays"] and before["buy_ins"] and before["tray_rounds"]   # the simulated shift plays the money
    _as_before_migration_10(db)
    with AuditLog(db) as log:
        assert log.query("SELECT max(version) AS v FROM _migrations")[0]["v"] == MIGRATIONS[-1][0]
    assert money_rows(db) == before
    rc, out, err = cli(tmp_path / "home", "audit", "verify", "--db", str(db))
    assert rc == 0, (out, err)


def test_the_tray_rows_in_sql_are_the_ledgers_own(made, tmp_path, monkeypatch):
    # the settlements' tray rows as migration 10's SQL gives them, against app/engine/inventory.py
    import json
    from app.store.schema import _v10_tray
    conn = sqlite3.connect(made / "shift.db")
    settlements = conn.execute("SELECT seq, table_id, settlement FROM settlements ORDER BY seq").fetchall()
    conn.close()
    assert settlements
    mem = sqlite3.connect(":memory:")
    mem.execute("CREATE TABLE events (seq INTEGER, type TEXT, body TEXT)")
    mem.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    mem.execute("CREATE TABLE settlements (seq INTEGER, table_id TEXT, house_net_cents INTEGER, settlement TEXT)")
    mem.executemany("INSERT INTO settlements VALUES (?, ?, ?, ?)",
                    [(seq, t, json.loads(s)["net_by_party"].get("house", 0), s) for seq, t, s in settlements])
    import sqlite_utils
    _v10_tray(sqlite_utils.Database(mem))
    got = mem.execute("SELECT seq, tray, house_net, to_meter, opener, replaced FROM tray_rounds ORDER BY seq").fetchall()
    assert got == [(seq, tray_change(json.loads(s)["ledger"]), house_net(json.loads(s)["ledger"]),
                    to_meter(json.loads(s)["ledger"]), None, None) for seq, _, s in settlements]


@pytest.mark.parametrize("table", TRAY_TABLES)
def test_every_tray_read_model_is_one_verify_compares(table):
    from app.store.derive import KEYS
    from app.store.schema import READ_MODELS
    assert table in READ_MODELS and table in KEYS
