"""The fast chain walk of ``audit verify`` (app/store/walk.py, issue 26) gives what the plain
walk (``verify_rows``, kept for export files) gives, on real SQLite files tampered as someone
with sqlite3 would: the same first bad row, kind and words, the same rows counted and head,
walked in this process or split over worker processes (the splits fall beside the rows
tampered with)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from app.store import audit, chain, paths
from app.store.log import AuditLog
from app.store.reading import read_db
from app.store.verify import check_heads, db_locate, db_rows, verify_rows
from app.store.walk import Walk
from tests.support.store import attacker, record

ROWS = 40  # split over 3 workers: parts (0, 13], (13, 26], (26, 40]


def build(db: Path) -> None:
    with AuditLog(db) as log:
        for i in range(ROWS):
            r = record(i)
            log.append(r.type, r.time, r.actor, r.role, r.table, r.data)


def rechain(conn: sqlite3.Connection, start: int, key: bytes | None = None) -> None:
    """Links recomputed from row ``start`` on; resealed only with ``key`` (an insider)."""
    prev = conn.execute("SELECT hash FROM events WHERE seq = ?", (start - 1,)).fetchone()
    prev = prev[0] if prev else chain.GENESIS
    for seq, body, mac in conn.execute("SELECT seq, body, hmac FROM events WHERE seq >= ? ORDER BY seq",
                                       (start,)).fetchall():
        h = chain.link(prev, body)
        conn.execute("UPDATE events SET prev_hash = ?, hash = ?, hmac = ? WHERE seq = ?",
                     (prev, h, chain.seal(key, h) if key else mac, seq))
        prev = h


def body_of(conn, seq: int) -> dict:
    return json.loads(conn.execute("SELECT body FROM events WHERE seq = ?", (seq,)).fetchone()[0])


def set_body(conn, seq: int, text: str, key: bytes | None = None) -> None:
    conn.execute("UPDATE events SET body = ? WHERE seq = ?", (text, seq))
    rechain(conn, seq, key)


def canonical(b: dict) -> str:
    return json.dumps(b, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def relink(conn, seq: int, to: int) -> None:
    """Row ``seq`` linked to row ``to`` instead of the row before it (its own hash made again)."""
    prev = conn.execute("SELECT hash FROM events WHERE seq = ?", (to,)).fetchone()[0]
    body = conn.execute("SELECT body FROM events WHERE seq = ?", (seq,)).fetchone()[0]
    conn.execute("UPDATE events SET prev_hash = ?, hash = ? WHERE seq = ?", (prev, chain.link(prev, body), seq))


def swap(conn, a: int, b: int) -> None:
    cols = "time, table_id, type, actor, role, body, prev_hash, hash, hmac"
    ra = conn.execute(f"SELECT {cols} FROM events WHERE seq = ?", (a,)).fetchone()
    rb = conn.execute(f"SELECT {cols} FROM events WHERE seq = ?", (b,)).fetchone()
    sets = ", ".join(f"{c.strip()} = ?" for c in cols.split(","))
    conn.execute(f"UPDATE events SET {sets} WHERE seq = ?", (*rb, a))
    conn.execute(f"UPDATE events SET {sets} WHERE seq = ?", (*ra, b))


# each tampering, and the first finding both walks must report (None: the log verifies)
TAMPER = {
    "untouched": (lambda c, k: None, None),
    "body edited": (lambda c, k: c.execute("UPDATE events SET body = replace(body, 'note 19', 'note 91') "
                                           "WHERE seq = 20"), (20, "edited")),
    "column edited": (lambda c, k: c.execute("UPDATE events SET type = 'note' WHERE seq = 28"), (28, "edited")),
    "a BLOB in a column": (lambda c, k: c.execute("UPDATE events SET actor = CAST(actor AS BLOB) WHERE seq = 27"),
                           (27, "edited")),
    "last row of a part deleted": (lambda c, k: c.execute("DELETE FROM events WHERE seq = 13"), (13, "deleted")),
    "first row of a part deleted": (lambda c, k: c.execute("DELETE FROM events WHERE seq = 14"), (14, "deleted")),
    "the tail deleted": (lambda c, k: c.execute("DELETE FROM events WHERE seq >= 38"), None),
    "two rows wrong, the lower named": (lambda c, k: (c.execute("DELETE FROM events WHERE seq = 30"),
                                                      c.execute("UPDATE events SET hmac = 'x' WHERE seq = 8")),
                                        (8, "forged")),
    "a seal forged": (lambda c, k: c.execute("UPDATE events SET hmac = hmac || '0' WHERE seq = 35"), (35, "forged")),
    "a body that is not JSON": (lambda c, k: set_body(c, 17, "{not json"), (17, "edited")),
    "a body that is a list": (lambda c, k: set_body(c, 17, "[17]"), (17, "edited")),
    "rows swapped across parts": (lambda c, k: swap(c, 5, 30), (5, "reordered")),
    "a row linked to another": (lambda c, k: relink(c, 22, 9), (22, "reordered")),
    "resealed by an insider, seq as 20.0": (
        lambda c, k: set_body(c, 20, canonical(body_of(c, 20)).replace('"seq":20', '"seq":20.0'), k), None),
    "resealed by an insider, actor escaped": (
        lambda c, k: set_body(c, 21, canonical(body_of(c, 21)).replace('"dee"', '"\\u0064ee"'), k), None),
    "resealed by an insider, table a list": (
        lambda c, k: set_body(c, 21, canonical(body_of(c, 21)).replace('"table":"T2"', '"table":["T2"]'), k),
        (21, "edited")),
    "resealed by an insider, a field more": (
        lambda c, k: set_body(c, 24, canonical({**body_of(c, 24), "zz": 1}), k), None),
}


def walk_both(db: Path, key: bytes, workers: int) -> tuple[dict, dict]:
    """(plain walk, fast walk) of the file as read-only verify reads it."""
    def work(conn, acc):
        conn.execute("BEGIN")
        plain = verify_rows(db_rows(conn), key, [], locate=db_locate(conn))
        walked = Walk(conn, audit.uri(db, acc.mode), key, (0, chain.GENESIS), set(), workers).result()
        fast = audit.Report(rows=walked.rows, finding=walked.finding)
        fast.last_seq, fast.last_hash = walked.last
        fast.seals = plain.seals
        check_heads(fast, walked.seen, [])
        conn.execute("COMMIT")
        return plain, fast
    plain, fast = read_db(db, work)[0]
    return plain.as_json(), fast.as_json()


@pytest.mark.parametrize("name", sorted(TAMPER))
def test_the_fast_walk_names_what_the_plain_walk_names(tmp_path, home, name):
    db = tmp_path / "audit.db"
    build(db)
    key = paths.install_key(create=False)
    tamper, expected = TAMPER[name]
    with attacker(db) as conn:
        tamper(conn, key)
    for workers in (1, 3):
        plain, fast = walk_both(db, key, workers)
        assert fast == plain, (workers, plain, fast)
        bad = plain["first_bad"]
        assert (bad and (bad["seq"], bad["kind"])) == (expected or None), plain


def test_the_fast_walk_of_a_log_that_is_not_sealed_here_checks_the_chain_alone(tmp_path, home):
    db = tmp_path / "audit.db"
    build(db)
    with attacker(db) as conn:
        conn.execute("UPDATE events SET hmac = 'x' WHERE seq = 8")  # a seal no key is asked about
        conn.execute("DELETE FROM events WHERE seq = 31")
    plain, fast = walk_both(db, None, 3)
    assert fast == plain and (plain["first_bad"]["seq"], plain["first_bad"]["kind"]) == (31, "deleted")


def test_verify_over_worker_processes_reports_what_one_process_reports(tmp_path, home):
    """The whole of ``audit verify`` (heads, read models) with the chain split over three processes."""
    db = tmp_path / "audit.db"
    build(db)
    key = paths.install_key(create=False)

    def verify(workers: int) -> dict:
        return read_db(db, lambda c, a: audit.verify_conn(c, a, db, key, [], workers=workers))[0].as_json()

    one = verify(1)
    assert one["ok"] and one["rows"] == ROWS and one["head_checked"]["seq"] == ROWS
    assert one["read_models"] == "checked"
    assert verify(3) == one
    with attacker(db) as conn:  # the tail cut: only the head file outside the log shows it
        conn.execute("DELETE FROM events WHERE seq > 33")
        conn.execute("DELETE FROM meter_readings WHERE seq > 33")
    one = verify(1)
    assert (one["first_bad"]["seq"], one["first_bad"]["kind"]) == (34, "truncated") and one["rows"] == 33
    assert verify(3) == one


def test_a_row_the_read_models_cannot_be_folded_from_ends_the_walk_there(tmp_path, home):
    """An insider's row the projector cannot fold (an alarm acknowledged without naming it): the
    rows checked are those before it, as one pass over the rows stopped there."""
    db = tmp_path / "audit.db"
    build(db)
    key = paths.install_key(create=False)
    with attacker(db) as conn:
        b = {**body_of(conn, 11), "type": "alarm_acknowledged", "data": {"reason": "seen"}}
        conn.execute("UPDATE events SET type = 'alarm_acknowledged' WHERE seq = 11")
        set_body(conn, 11, canonical(b), key)
    rep = audit.verify_db(db, key).as_json()
    bad = rep["first_bad"]
    assert (bad["seq"], bad["kind"]) == (11, "edited") and "cannot be folded into the read models" in bad["detail"]
    assert "KeyError('alarm')" in bad["detail"] and rep["rows"] == 10 and rep["head"]["seq"] == 10
    assert rep["head_checked"] is None and rep["read_models"] is None
    # a row before it that the chain finds wrong is named first
    with attacker(db) as conn:
        conn.execute("UPDATE events SET hmac = 'x' WHERE seq = 7")
    bad = audit.verify_db(db, key).as_json()["first_bad"]
    assert (bad["seq"], bad["kind"]) == (7, "forged")


def test_the_sealer_is_the_seal(tmp_path):
    for key in (b"k", bytes(range(32)), bytes(range(64)), bytes(100)):
        seal = chain.sealer(key)
        for h in (chain.GENESIS, chain.link(chain.GENESIS, "{}")):
            assert seal(h.encode()) == chain.seal(key, h)
