"""The read models ``audit verify`` derives in SQL (app/store/plain_models.py, issue 26) are the
projector's rows, on a real shift's log with every kind of row that makes them added by the
real writer: the SQL and the projector cannot drift apart unnoticed. And the projector, handed
only the events its own read models need (app/store/derive.py), still gives every other read
model; an edit of a plain read model is named with its table, key and both values."""

from __future__ import annotations

import shutil
import sqlite3
from datetime import datetime, timedelta

import pytest

from app.store import audit, derive, rows
from app.store.log import AuditLog
from app.store.plain_models import PLAIN, columns, select, types
from app.store.read_models import Projector
from app.store.schema import READ_MODELS, migrate
from tests.support.store import attacker, cli, verify_ok

T = datetime(2026, 11, 21, 23, 0)


@pytest.fixture(scope="module")
def floor(made, tmp_path_factory):
    """The swing shift's log (tests/conftest.py ``made``) and, appended by the writer, the rows
    of the plain read models the shift has few or none of: device faults with and without a
    serial or message, links back online, progressive wagers closed and opened, readings with
    and without a source, sign-ins failed, locked out, unlocked and out."""
    d = tmp_path_factory.mktemp("derive")
    shutil.copy(made / "shift.db", d / "shift.db")
    shutil.copytree(made / "home", d / "home")
    mp = pytest.MonkeyPatch()
    mp.setenv("PITDESK_HOME", str(d / "home"))
    t = iter(T + timedelta(seconds=i) for i in range(1000))
    with AuditLog(d / "shift.db") as log:
        for r in (
            rows.device_fault(next(t), "SH-1", "T1", "shuffler", "offline", "no answer for 5 s", "SH-1"),
            rows.device_fault(next(t), "SH-1", "T1", "shuffler", "jam", "", ""),
            rows.device_fault(next(t), "PC-7", None, "progressive", "gap", "frames 4 to 9 lost", "PC-7",
                              first=4, count=6),
            rows.alarm_raised(next(t), "T1", "shuffler_offline", "the shuffler of T1 is offline", serial="SH-1"),
            rows.alarm_cleared(next(t), "T1", 1, "shuffler_offline", "it answered again"),
            rows.alarm_cleared(next(t), "T2", 1, "deck_overdue", "the deck was changed"),
            rows.meter_reading(next(t), "PC-7", "device", "T1", 123_456, "controller", serial="PC-7"),
            rows.meter_reading(next(t), "fay", "floor supervisor", "T2", 5_000, "settlement"),
            rows.sign_in_failed(next(t), "dealer-T1", "dealer", "wrong PIN", 1, None),
            rows.sign_in_failed(next(t), "nobody", "dealer", "unknown user", 1, known=False),
            rows.user_locked(next(t), "admin", "administrator", "dealer-T1"),
            rows.user_unlocked(next(t), "admin", "administrator", "dealer-T1"),
            rows.sign_in(next(t), "dealer-T1", "dealer", station="T1"),
            rows.signed_out(next(t), "dealer-T1", "dealer", "idle"),
        ):
            log.append(r.type, r.time, r.actor, r.role, r.table, r.data)
        # the meter reading the projector gives its actor as source when it names none
        log.append("meter_reading", next(t), "PC-7", "device", "T3", {"cents": 1})
        for online in (False, True):
            log.append("progressive_link", next(t), "PC-7", "device", "T1", {"online": online})
        log.append("progressive_link", next(t), "PC-7", "device", None, {"online": False})
    mp.undo()
    return d


def test_each_plain_read_model_in_sql_is_the_projectors(floor):
    conn = sqlite3.connect(floor / "shift.db")
    try:
        for table in PLAIN:
            assert columns(table) == [r[1] for r in conn.execute(f"PRAGMA table_info({table})")], table
            projected = conn.execute(f"SELECT * FROM {table} ORDER BY seq").fetchall()
            assert conn.execute(select(table)).fetchall() == projected, table
            # every kind of row the SQL says how to make is in the log
            present = {t for (t,) in conn.execute("SELECT DISTINCT type FROM events")}
            assert set(types(table)) <= present, table
        added = conn.execute("SELECT device, kind, code FROM device_log WHERE time >= ? ORDER BY seq",
                             (T.isoformat(),)).fetchall()
        assert added == [("shuffler", "link", "offline"), ("shuffler", "fault", "jam"), ("progressive", "link", "gap"),
                         ("shuffler", "link", "online"), ("progressive", "link", "offline"),
                         ("progressive", "link", "online")]
        assert {e for (e,) in conn.execute("SELECT DISTINCT event FROM sign_ins")} == {
            "sign_in", "sign_in_failed", "signed_out", "user_locked", "user_unlocked"}
    finally:
        conn.close()


def test_the_events_left_out_of_the_fold_make_only_plain_read_models():
    """A handler the fold is not handed writes no read model the projector is compared on."""
    assert derive.HANDLED - derive.PLAIN_ONLY <= set(derive.FOLDED)
    conn = sqlite3.connect(":memory:", isolation_level=None)
    migrate(conn)
    p = Projector()
    p.project(conn, 1, "2026-11-21T23:00:00", "T1", "meter_reading", "PC-7", "device", {"cents": 5, "source": "x"})
    p.project(conn, 2, "2026-11-21T23:00:01", "T1", "device_fault", "SH-1", "device",
              {"device": "shuffler", "code": "jam", "message": "", "serial": "SH-1"})
    written = {t for t in READ_MODELS if conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]}
    assert written == {"meter_readings", "device_faults", "device_log"} and written <= set(PLAIN)


def test_the_floor_with_every_plain_row_verifies_with_its_read_models(floor):
    home = floor / "home"
    out = verify_ok(home, "--db", str(floor / "shift.db"))
    assert out["read_models"] == "checked" and out["rows"] > 1000


# edits of the plain read models, and what verify must name: table, key, the column or None
EDITS = {
    "device_log": ("UPDATE device_log SET message = 'all fine' WHERE seq = (SELECT max(seq) FROM device_log)",
                   "message"),
    "sign_ins": ("DELETE FROM sign_ins WHERE seq = (SELECT min(seq) FROM sign_ins WHERE event = 'user_locked')",
                 None),
    "device_faults": ("INSERT INTO device_faults VALUES (2, 'T1', 'shuffler', 'jam', '', '2026-11-21T14:00:00')",
                      None),
    "meter_readings": ("UPDATE meter_readings SET source = 'me' WHERE source = 'PC-7'", "source"),
}


@pytest.mark.parametrize("table", sorted(EDITS))
def test_a_plain_read_model_edited_is_named_with_table_key_and_values(floor, tmp_path, table):
    shutil.copy(floor / "shift.db", tmp_path / "shift.db")
    shutil.copytree(floor / "home", tmp_path / "home")
    db, home = tmp_path / "shift.db", tmp_path / "home"
    sql, column = EDITS[table]
    with attacker(db) as conn:
        assert conn.execute(sql).rowcount == 1
    rc, out, err = cli(home, "audit", "verify", "--db", str(db))
    bad = out["first_bad"]
    assert rc == 1 and bad["kind"] == "read model" and bad["table"] == table, (out, err)
    assert bad["detail"].startswith(f"table {table}, key seq={bad['key']['seq']}: ")
    if column is not None:
        assert bad["stored"][column] != bad["log"][column] and set(bad["stored"]) == {column}
        assert f"{column} reads {bad['stored'][column]!r}, the log gives {bad['log'][column]!r}" in bad["detail"]
    elif table == "sign_ins":
        assert "the row is missing; the log gives" in bad["detail"] and bad["log"]["event"] == "user_locked"
    else:
        assert "is not in the log" in bad["detail"] and bad["stored"]["seq"] == 2
    # the same with the chain split over processes
    rep = audit.read_db(db, lambda c, a: audit.verify_conn(c, a, db, None, [], workers=2))[0]
    assert rep.finding.where["table"] == table and rep.finding.where["key"] == bad["key"]
