"""Migration 10, the pit's money (issue 34): a log made before it opens with the tray's read models
added and each settlement's flow through the tray filled from its ledger, as the projector writes
it for a new one; its settlements name no shift (no table was opened with an opener then), and
``audit verify`` derives the same rows again."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from app.engine.inventory import house_net, to_meter, tray_change
from app.store.log import AuditLog
from app.store.schema import MIGRATIONS, TRAY_TABLES
from tests.support.store import cli


def _as_before_migration_10(db) -> None:
    conn = sqlite3.connect(db)
    for t in TRAY_TABLES:
        conn.execute(f"DROP TABLE {t}")
    conn.execute("DELETE FROM _migrations WHERE version = 10")
    conn.commit()
    conn.close()


def test_a_log_from_before_the_money_gets_its_tray_rows_and_verifies(made, tmp_path, monkeypatch):
    shutil.copy(made / "shift.db", tmp_path / "shift.db")
    shutil.copytree(made / "home", tmp_path / "home")
    db = tmp_path / "shift.db"
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    _as_before_migration_10(db)
    with AuditLog(db) as log:
        assert log.query("SELECT max(version) AS v FROM _migrations")[0]["v"] == MIGRATIONS[-1][0]
        settlements = log.query("SELECT seq, settlement FROM settlements ORDER BY seq")
        got = log.query("SELECT * FROM tray_rounds ORDER BY seq")
    assert settlements and len(got) == len(settlements)
    import json
    for s, r in zip(settlements, got):
        ledger = json.loads(s["settlement"])["ledger"]
        assert (r["seq"], r["tray"], r["house_net"], r["to_meter"], r["opener"]) == (
            s["seq"], tray_change(ledger), house_net(ledger), to_meter(ledger), None)
    rc, out, err = cli(tmp_path / "home", "audit", "verify", "--db", str(db))
    assert rc == 0, (out, err)


@pytest.mark.parametrize("table", TRAY_TABLES)
def test_every_tray_read_model_is_one_verify_compares(table):
    from app.store.derive import KEYS
    from app.store.schema import READ_MODELS
    assert table in READ_MODELS and table in KEYS
