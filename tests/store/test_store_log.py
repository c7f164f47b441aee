"""The audit log under fire (issue 5), on real files and real processes, no mocks: a writer
killed with SIGKILL in the middle of its appends, the tampering an attacker would try (the
triggers dropped first), a full disk and a read-only file, many threads at once.

Every test keeps the install key and the heads in its own PITDESK_HOME under tmp_path.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import shutil
import sqlite3
import subprocess
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from app.store import audit, chain, paths
from app.store.log import AuditLog, Record, StoreStopped
from tests.support.store import (PITDESK, T0, Writer, as_acked, attacker, check_log, cli, cut_copy, env_for,
                                 first_bad, head_reach, head_record, read_events, record, verify_ok)


def kill_many_times(tmp_path: Path, home: Path, kills: int, seed: int) -> None:
    rng = random.Random(seed)
    db, err = tmp_path / "audit.db", tmp_path / "writer.err"
    acked: dict[int, dict] = {}
    seen: list[tuple] = []
    rows = 0
    pending_cli = None  # `audit verify` on the state left by the last kill, run beside the next writer
    for k in range(kills):
        w = Writer(db, home, seed * 1000 + k, err)
        # sometimes right after it opened the log, mostly in the middle of a run of appends
        w.wait_lines(rng.choice([1, 1 + rng.randrange(1, 40), 1 + rng.randrange(40, 400), 1 + rng.randrange(40, 400)]))
        time.sleep(rng.random() * 0.01)
        ready, acks = w.kill()
        # a row committed but not acknowledged when the writer died may surface only once a first
        # connection rebuilds SQLite's WAL index, so a later look may find more rows, never fewer
        assert ready >= rows, f"the restarted writer found {ready} rows, {rows} were there before"
        for a in acks:
            assert a["seq"] not in acked, f"row {a['seq']} acknowledged twice"
            acked[a["seq"]] = a
        rows = check_log(db, acked, seen)
        assert rows >= max(acked, default=0) and rows >= ready
        rep = audit.verify_db(db, paths.install_key(create=False))
        # (verify may see a row more than check_log did, as said above)
        assert rep.ok and rep.rows >= rows and rep.head_checked["seq"] == rep.rows, rep.as_json()
        # the head outside the database is never behind the log, whenever the writer died
        assert head_reach(home) >= rep.rows, (head_record(home), rep.rows)
        if acked:  # so removing the last acknowledged row (and all after it) is always noticed
            gone = max(acked)
            cut = audit.verify_db(cut_copy(db, tmp_path / f"cut{k}.db", gone), paths.install_key(create=False))
            assert not cut.ok and (cut.finding.seq, cut.finding.kind) == (gone, "truncated"), cut.as_json()
        if pending_cli is not None:
            assert pending_cli.wait(timeout=60) == 0, pending_cli.stderr.read()
        pending_cli = subprocess.Popen([PITDESK, "audit", "verify", "--db", str(db)], env=env_for(home),
                                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert pending_cli.wait(timeout=60) == 0, pending_cli.stderr.read()
    assert len(acked) >= kills, "too few acknowledged appends for the kills to mean anything"

    # at the end a writer that finishes cleanly continues the same chain
    w = Writer(db, home, seed * 1000 + kills, err, count=60)
    assert w.p.wait(timeout=60) == 0, err.read_text()
    ready, acks = w.finish()
    assert ready >= rows and len(acks) == 60 and acks[0]["seq"] == ready + 1
    acked.update((a["seq"], a) for a in acks)
    rows = check_log(db, acked, seen)
    assert rows == max(acked) == ready + 60
    out = verify_ok(home, "--db", str(db))
    assert out["rows"] == rows and out["head_checked"]["seq"] == rows  # the head file kept up


def test_sigkill_in_the_middle_of_appends_loses_no_acknowledged_event(tmp_path, home):
    kill_many_times(tmp_path, home, kills=8, seed=1)


@pytest.mark.slow
def test_sigkill_sixty_times(tmp_path, home):
    kill_many_times(tmp_path, home, kills=60, seed=2)


# -- 2. tampering -------------------------------------------------------------------------------
def build(db: Path, n: int = 12) -> dict:
    """Rows 1, 4, 7, 10 are meter readings (cents 0, 3000, 6000, 9000), the others notes. The
    `audit verify` JSON of the untouched log."""
    with AuditLog(db) as log:
        for i in range(n):
            r = record(i)
            log.append(r.type, r.time, r.actor, r.role, r.table, r.data)
    rep = audit.verify_db(db, paths.install_key(create=False))
    assert rep.ok and rep.rows == n and rep.head_checked["seq"] == n
    return rep.as_json()


def rechain(conn: sqlite3.Connection, start: int, key: bytes | None = None) -> str:
    """Recompute every link from row ``start`` on; reseal only with ``key`` (an insider)."""
    prev = conn.execute("SELECT hash FROM events WHERE seq = ?", (start - 1,)).fetchone()
    prev = prev[0] if prev else chain.GENESIS
    for seq, body, mac in conn.execute("SELECT seq, body, hmac FROM events WHERE seq >= ? ORDER BY seq",
                                       (start,)).fetchall():
        h = chain.link(prev, body)
        conn.execute("UPDATE events SET prev_hash = ?, hash = ?, hmac = ? WHERE seq = ?",
                     (prev, h, chain.seal(key, h) if key else mac, seq))
        prev = h
    return prev


def test_an_edited_body_is_named(tmp_path, home):
    db = tmp_path / "audit.db"
    build(db)
    with attacker(db) as conn:
        body = conn.execute("SELECT body FROM events WHERE seq = 4").fetchone()[0]
        assert '"cents":3000' in body
        conn.execute("UPDATE events SET body = ? WHERE seq = 4", (body.replace('"cents":3000', '"cents":3900'),))
    assert first_bad(home, "--db", str(db)) == (4, "edited", "the sealed body does not match its hash")


@pytest.mark.parametrize("column, value, name", [("type", "note", "type"), ("actor", "pat", "actor"),
                                                 ("role", "pit manager", "role"), ("table_id", "T9", "table"),
                                                 ("time", "2026-11-21T14:00:09", "time")])
def test_an_edited_column_alone_is_named(tmp_path, home, column, value, name):
    db = tmp_path / "audit.db"
    build(db)
    with attacker(db, recreate=False) as conn:
        conn.execute(f"UPDATE events SET {column} = ? WHERE seq = 4", (value,))
    seq, kind, detail = first_bad(home, "--db", str(db))
    assert (seq, kind) == (4, "edited") and detail.startswith(f"column {name!r} reads {value!r}")


def test_an_edit_with_the_chain_recomputed_but_no_key_is_forged(tmp_path, home):
    db = tmp_path / "audit.db"
    build(db)
    with attacker(db) as conn:
        body = conn.execute("SELECT body FROM events WHERE seq = 4").fetchone()[0]
        conn.execute("UPDATE events SET body = ? WHERE seq = 4", (body.replace('"cents":3000', '"cents":3900'),))
        rechain(conn, 4)
    seq, kind, _ = first_bad(home, "--db", str(db))
    assert (seq, kind) == (4, "forged")


@pytest.mark.parametrize("gone", [1, 5, 11])
def test_a_deleted_row_is_named(tmp_path, home, gone):
    db = tmp_path / "audit.db"
    build(db)
    with attacker(db) as conn:
        conn.execute("DELETE FROM events WHERE seq = ?", (gone,))
    seq, kind, detail = first_bad(home, "--db", str(db))
    assert (seq, kind) == (gone, "deleted") and f"sequence {gone} is missing" in detail


def test_a_deleted_row_with_the_rest_renumbered_and_relinked_is_still_caught(tmp_path, home):
    db = tmp_path / "audit.db"
    build(db)
    with attacker(db) as conn:
        conn.execute("DELETE FROM events WHERE seq = 5")
        conn.execute("UPDATE events SET seq = seq - 1 WHERE seq > 5")
        rechain(conn, 5)
    seq, kind, _ = first_bad(home, "--db", str(db))
    assert seq == 5 and kind in ("reordered", "deleted")  # row 5 holds the sealed body of row 6


@pytest.mark.parametrize("a, b", [(4, 7), (5, 6)])
def test_a_reordered_row_is_named(tmp_path, home, a, b):
    db = tmp_path / "audit.db"
    build(db)
    cols = "time, table_id, type, actor, role, body, prev_hash, hash, hmac"
    with attacker(db) as conn:
        ra = conn.execute(f"SELECT {cols} FROM events WHERE seq = ?", (a,)).fetchone()
        rb = conn.execute(f"SELECT {cols} FROM events WHERE seq = ?", (b,)).fetchone()
        sets = ", ".join(f"{c.strip()} = ?" for c in cols.split(","))
        conn.execute(f"UPDATE events SET {sets} WHERE seq = ?", (*rb, a))
        conn.execute(f"UPDATE events SET {sets} WHERE seq = ?", (*ra, b))
    seq, kind, detail = first_bad(home, "--db", str(db))
    assert (seq, kind) == (a, "reordered") and f"sealed body of row {b}" in detail


def test_a_row_appended_without_the_key_is_forged_though_the_triggers_let_it_in(tmp_path, home):
    db = tmp_path / "audit.db"
    out = build(db)
    last = out["head"]
    body = chain.body(13, "2026-11-21T15:00:00", "T1", "meter_reading", "fay", "floor supervisor",
                      {"cents": 1, "source": "controller"})
    h = chain.link(last["hash"], body)
    conn = sqlite3.connect(db, isolation_level=None)  # the triggers are on: the chain links, so it goes in
    conn.execute("INSERT INTO events VALUES (13, '2026-11-21T15:00:00', 'T1', 'meter_reading', 'fay', "
                 "'floor supervisor', ?, ?, ?, ?)", (body, last["hash"], h, chain.seal(secrets.token_bytes(32), h)))
    conn.close()
    assert len(read_events(db)) == 13
    seq, kind, detail = first_bad(home, "--db", str(db))
    assert (seq, kind) == (13, "forged") and "not written with this install's key" in detail


def test_a_truncated_tail_is_found_by_the_head_file_and_by_a_printed_head(tmp_path, home):
    db = tmp_path / "audit.db"
    printed = build(db)["head"]
    assert printed["seq"] == 12
    with attacker(db) as conn:
        conn.execute("DELETE FROM events WHERE seq >= 10")
    seq, kind, detail = first_bad(home, "--db", str(db))
    assert (seq, kind) == (10, "truncated") and "ends at row 9" in detail and "is row 12" in detail
    # without the head file, the read models still hold the rows cut (issue 26) ...
    heads = list((home / "heads").glob("*.json"))
    assert len(heads) == 1
    heads[0].unlink()
    seq, kind, detail = first_bad(home, "--db", str(db))
    assert (seq, kind) == (10, "read model") and "table meter_readings, key seq=10: the row" in detail
    # ... and an attacker who cuts them too leaves nothing in the database alone to show the cut ...
    with attacker(db) as conn:
        conn.execute("DELETE FROM meter_readings WHERE seq >= 10")
    out = verify_ok(home, "--db", str(db))
    assert out["rows"] == 9 and "a truncated tail cannot be ruled out" in out["notes"][0]
    # ... but the head printed on an earlier report finds it
    seq, kind, detail = first_bad(home, "--db", str(db), "--head", f"{printed['seq']}:{printed['hash']}")
    assert (seq, kind) == (10, "truncated") and "on the report is row 12" in detail


def test_an_earlier_printed_head_is_checked_even_when_the_head_file_is_newer(tmp_path, home):
    """An insider with the key rewrites row 3, re-chains and re-seals everything after it and
    the head file: only the head printed on an earlier report can show it."""
    db = tmp_path / "audit.db"
    printed = build(db, n=6)["head"]
    with AuditLog(db) as log:
        for i in range(6, 12):
            r = record(i)
            log.append(r.type, r.time, r.actor, r.role, r.table, r.data)
        db_id = log.db_id
    key = paths.install_key(create=False)
    with attacker(db) as conn:
        body = conn.execute("SELECT body FROM events WHERE seq = 3").fetchone()[0]
        conn.execute("UPDATE events SET body = ? WHERE seq = 3", (body.replace("note 2", "note 2, changed"),))
        new_head = rechain(conn, 3, key)
    paths.head_file(db_id).write_text(json.dumps({"db_id": db_id, "seq": 12, "hash": new_head,
                                                  "hmac": chain.seal(key, f"12:{new_head}")}))
    assert verify_ok(home, "--db", str(db))["rows"] == 12  # what a key can do
    seq, kind, detail = first_bad(home, "--db", str(db), "--head", f"{printed['seq']}:{printed['hash']}")
    assert (seq, kind) == (6, "edited") and "differs from the head recorded on the report" in detail


def test_the_triggers_refuse_update_delete_and_an_out_of_sequence_insert(tmp_path, home):
    db = tmp_path / "audit.db"
    out = build(db)
    before = read_events(db)
    conn = sqlite3.connect(db, isolation_level=None)
    attempts = [
        ("UPDATE events SET type = 'note' WHERE seq = 4", (), "the event log is append-only: rows cannot be changed"),
        ("DELETE FROM events WHERE seq = 12", (), "the event log is append-only: rows cannot be deleted"),
        ("DELETE FROM events", (), "the event log is append-only: rows cannot be deleted"),
    ]
    row = list(before[-1])
    for seq, prev in ((14, out["head"]["hash"]), (13, "f" * 64), (12, before[-2][8]), (1, chain.GENESIS)):
        attempts.append(("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (seq, *row[1:7], prev, *row[8:]),
                         "the event log is a chain: the next row links to the last"))
    for sql, params, message in attempts:
        with pytest.raises(sqlite3.IntegrityError) as e:
            conn.execute(sql, params)
        assert str(e.value) == message, sql
    conn.close()
    assert read_events(db) == before
    assert verify_ok(home, "--db", str(db))["rows"] == 12


# -- 2b. export --------------------------------------------------------------------------------
def export(home: Path, db: Path, out: Path) -> list[str]:
    rc, res, err = cli(home, "audit", "export", "--db", str(db), "--out", str(out))
    assert rc == 0 and res["exported"] == 12, (rc, res, err)
    return out.read_text(encoding="utf-8").splitlines()


def other_home(tmp_path: Path) -> Path:
    other = tmp_path / "other-home"
    other.mkdir()
    (other / "install.key").write_text(secrets.token_hex(32) + "\n")
    return other


def test_export_round_trip_and_a_wrong_key(tmp_path, home):
    db, out = tmp_path / "audit.db", tmp_path / "log.jsonl"
    first = build(db)
    lines = export(home, db, out)
    assert len(lines) == 13 and json.loads(lines[0])["head"] == first["head"]
    res = verify_ok(home, "--export", str(out))
    assert res["rows"] == 12 and res["head"] == first["head"] and res["head_checked"]["seq"] == 12
    # an export is verified as a database is about keys (issue 26): away from the workstation,
    # with another install's key or none, the chain is checked and the seals are said not to be;
    # named with --key, a key that did not seal it finds row 1 forged, the workstation's checks them
    other = other_home(tmp_path)
    res = verify_ok(other, "--export", str(out))
    assert res["seals"] == "not checked" and "sealed on another install" in res["seals_why"]
    assert res["rows"] == 12 and res["head_checked"]["seq"] == 12
    keyless = tmp_path / "no-key-home"
    keyless.mkdir()
    res = verify_ok(keyless, "--export", str(out))
    assert res["seals"] == "not checked" and "no install key at" in res["seals_why"]
    assert first_bad(other, "--export", str(out), "--key", str(other / "install.key"))[:2] == (1, "forged")
    assert verify_ok(keyless, "--export", str(out), "--key", str(home / "install.key"))["seals"] == "checked"
    # another install's key is not the workstation's: the database's chain is checked, its seals are
    # said not to be (issue 26, finding 5); named with --key, a key that did not seal it finds row 1 forged
    res = verify_ok(other, "--db", str(db))
    assert res["seals"] == "not checked" and "sealed on another install" in res["seals_why"]
    assert first_bad(other, "--db", str(db), "--key", str(other / "install.key"))[:2] == (1, "forged")
    assert verify_ok(other, "--db", str(db), "--key", str(home / "install.key"))["seals"] == "checked"


@pytest.mark.parametrize("edit", ["type", "data", "body", "table"])
def test_an_edited_export_line_is_named(tmp_path, home, edit):
    db, out = tmp_path / "audit.db", tmp_path / "log.jsonl"
    build(db)
    lines = export(home, db, out)
    r = json.loads(lines[5])
    assert r["seq"] == 5
    if edit == "body":
        r["body"] = r["body"].replace("note 4", "note 44")
    elif edit == "data":
        r["data"]["text"] = "note 44"  # what a reader of the file would see; the sealed body is untouched
    else:
        r[edit] = "changed"
    lines[5] = json.dumps(r, ensure_ascii=False)
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    seq, kind, detail = first_bad(home, "--export", str(out))
    assert (seq, kind) == (5, "edited"), detail


def test_an_export_cut_short_or_with_a_line_removed_is_named(tmp_path, home):
    db, out = tmp_path / "audit.db", tmp_path / "log.jsonl"
    build(db)
    lines = export(home, db, out)
    out.write_text("\n".join(lines[:6] + lines[7:]) + "\n", encoding="utf-8")
    assert first_bad(home, "--export", str(out))[:2] == (6, "deleted")
    out.write_text("\n".join(lines[:11]) + "\n", encoding="utf-8")
    assert first_bad(home, "--export", str(out))[:2] == (11, "truncated")
    # a header rewritten to the shorter head, without the key, is itself reported as forged
    header = json.loads(lines[0])
    row10 = json.loads(lines[10])
    header["head"] = {"seq": 10, "hash": row10["hash"]}
    out.write_text("\n".join([json.dumps(header)] + lines[1:11]) + "\n", encoding="utf-8")
    seq, kind, detail = first_bad(home, "--export", str(out))
    assert (seq, kind) == (0, "forged") and "export header" in detail


def test_a_forged_export_passes_the_chain_alone_and_is_forged_with_the_key(tmp_path, home):
    # an edit with every link and the header's head recomputed, the seals kept (no key to redo them)
    db, out = tmp_path / "audit.db", tmp_path / "log.jsonl"
    build(db)
    lines = export(home, db, out)
    rows = [json.loads(line) for line in lines[1:]]
    body = json.loads(rows[4]["body"])
    body["data"]["text"] = "note 44"
    rows[4]["body"] = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    rows[4]["data"] = body["data"]
    prev = rows[3]["hash"]
    for r in rows[4:]:
        r["prev_hash"], r["hash"] = prev, chain.link(prev, r["body"])
        prev = r["hash"]
    header = json.loads(lines[0])
    header["head"]["hash"] = prev
    out.write_text("\n".join(json.dumps(x, ensure_ascii=False) for x in [header, *rows]) + "\n", encoding="utf-8")
    keyless = tmp_path / "no-key-home"
    keyless.mkdir()
    res = verify_ok(keyless, "--export", str(out))             # the chain holds: only a seal can tell
    assert res["seals"] == "not checked"
    assert first_bad(keyless, "--export", str(out), "--key", str(home / "install.key"))[:2] == (5, "forged")
    assert first_bad(home, "--export", str(out))[:2] == (5, "forged")   # the workstation's own key: it sealed row 1


# -- 3. disk full, read-only file, a head that cannot be written ---------------------------------
def test_a_full_disk_stops_the_log_and_loses_nothing_acknowledged(tmp_path, home):
    db = tmp_path / "audit.db"
    log = AuditLog(db)
    acked = {}
    for i in range(30):
        r = record(i, "kept")
        acked[log.append(r.type, r.time, r.actor, r.role, r.table, r.data)] = as_acked(0, r)
    batch = [record(i, "kept") for i in range(30, 40)]
    acked.update(zip(log.append_many(batch), map(lambda r: as_acked(0, r), batch)))
    assert sorted(acked) == list(range(1, 41))
    with log._lock:  # the writer's own connection: the file may not grow by one more page
        pages = log._conn.execute("PRAGMA page_count").fetchone()[0]
        assert log._conn.execute(f"PRAGMA max_page_count = {pages}").fetchone()[0] == pages
    lost = [record(i, "lost", pad=2000) for i in range(40, 240)]
    with pytest.raises(StoreStopped, match=r"^the disk holding .*audit\.db is full \(database or disk is full\); "
                                           r"no more work is accepted$") as first:
        log.append_many(lost)
    for attempt in (lambda: log.append("note", T0, "dee", "dealer", "T2", {"marker": "lost"}),
                    lambda: log.submit([record(1, "lost")])):  # refused at once, before anything is queued
        with pytest.raises(StoreStopped) as again:
            attempt()
        assert str(again.value) == str(first.value)
    log.close()
    assert check_log(db, {s: {**a, "seq": s} for s, a in acked.items()}) == 40
    assert not [r for r in read_events(db) if '"lost"' in r[6]]
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT COUNT(*), MAX(seq) FROM meter_readings").fetchone() == (14, 40)  # nothing projected
    conn.close()
    assert verify_ok(home, "--db", str(db))["rows"] == 40
    with AuditLog(db) as log:  # room again (a new connection): the chain goes on from row 41
        assert log.append("note", T0, "dee", "dealer") == 41
    assert verify_ok(home, "--db", str(db))["rows"] == 41


@contextmanager
def read_only(db: Path):
    """Make the database file truly unwritable, also for root: chmod for a user, the immutable
    attribute for root (chmod does not stop root). None if neither is possible here."""
    if os.geteuid() != 0:
        os.chmod(db, 0o444)
        try:
            yield "chmod 444"
        finally:
            os.chmod(db, 0o644)
        return
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(db)], capture_output=True).returncode != 0:
        yield None
        return
    try:
        yield "chattr +i"
    finally:
        subprocess.run([chattr, "-i", str(db)], check=True)


def test_a_read_only_database_stops_the_log_and_loses_nothing_acknowledged(tmp_path, home):
    db = tmp_path / "audit.db"
    acked = {}
    with AuditLog(db) as log:
        for i in range(25):
            r = record(i, "kept")
            acked[log.append(r.type, r.time, r.actor, r.role, r.table, r.data)] = as_acked(0, r)
    with read_only(db) as how:
        if how:
            with pytest.raises(PermissionError):
                open(db, "r+b").close()
        log = AuditLog(db)
        assert log.seq == 25
        if how is None:  # root without chattr: the closest simulation left
            with log._lock:
                log._conn.execute("PRAGMA query_only = ON")
        with pytest.raises(StoreStopped, match=r"^the audit database .*audit\.db is read-only "
                                               r"\(attempt to write a readonly database\); no more work") as first:
            log.append_many([record(i, "lost") for i in range(25, 35)])
        with pytest.raises(StoreStopped) as again:
            log.submit([record(1, "lost")])
        assert str(again.value) == str(first.value)
        log.close()
        assert check_log(db, {s: {**a, "seq": s} for s, a in acked.items()}) == 25
        assert not [r for r in read_events(db) if '"lost"' in r[6]]
        assert verify_ok(home, "--db", str(db))["rows"] == 25


class HeadFailsAfterCommit(AuditLog):
    """The real log, with the head file's folder made unwritable for the temporary file just
    after a COMMIT (a folder in its way: refused even to root)."""

    def _record_committed(self, head):
        if head[0] == 2:
            p = paths.head_file(self.db_id)
            p.with_name(f"{p.name}.{os.getpid()}.tmp").mkdir()
        super()._record_committed(head)


def test_a_head_that_cannot_be_recorded_after_the_commit_stops_the_log_after_acknowledging_it(tmp_path, home):
    db = tmp_path / "audit.db"
    log = HeadFailsAfterCommit(db)
    assert log.append("note", T0, "dee", "dealer") == 1
    # committed, and covered by the head recorded before the commit: acknowledged, not left waiting
    assert log.submit([record(1)]).result(timeout=20) == [2]
    with pytest.raises(StoreStopped, match="cannot be recorded"):
        log.append("note", T0, "dee", "dealer")
    log.close()
    head = json.loads(paths.head_file(log.db_id).read_text())
    assert len(read_events(db)) == 2 and (head["seq"], head["pending"]["seq"]) == (1, 2)
    out = verify_ok(home, "--db", str(db))
    assert out["rows"] == 2 and out["head_checked"]["seq"] == 2 and out["last_batch"]["committed"]


def test_appending_to_a_closed_log_is_refused_not_left_waiting(tmp_path, home):
    log = AuditLog(tmp_path / "audit.db")
    log.append("note", T0, "dee", "dealer")
    log.close()
    with pytest.raises(StoreStopped, match="is closed"):
        log.submit([record(1)]).result(timeout=10)


# -- 4. many threads at once --------------------------------------------------------------------
def test_many_threads_appending_at_once(tmp_path, home):
    db = tmp_path / "audit.db"
    log = AuditLog(db)
    threads, per_thread = 16, 40
    got: dict[int, dict] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(threads)
    guard = threading.Lock()

    def work(t: int) -> None:
        rng = random.Random(t)
        try:
            start.wait()
            i = 0
            while i < per_thread:
                if rng.random() < 0.5:
                    r = record(t * 1000 + i, f"thread {t}")
                    pairs = [(log.append(r.type, r.time, r.actor, r.role, r.table, r.data), r)]
                else:
                    rs = [record(t * 1000 + i + j, f"thread {t}") for j in range(min(rng.randrange(2, 8),
                                                                                     per_thread - i))]
                    seqs = log.append_many(rs)
                    assert seqs == list(range(seqs[0], seqs[0] + len(rs)))  # one submission, consecutive rows
                    pairs = list(zip(seqs, rs))
                with guard:
                    for s, r in pairs:
                        assert s not in got
                        got[s] = as_acked(s, r)
                i += len(pairs)
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    ts = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(timeout=60)
    log.close()
    assert not errors, errors
    assert sorted(got) == list(range(1, threads * per_thread + 1))
    assert check_log(db, got) == threads * per_thread
    assert audit.verify_db(db, paths.install_key(create=False)).ok
    assert verify_ok(home, "--db", str(db))["rows"] == threads * per_thread


def test_a_refused_record_fails_only_its_own_caller_in_a_shared_transaction(tmp_path, home):
    db = tmp_path / "audit.db"
    log = AuditLog(db)

    def refuse(conn, data):
        raise ValueError("slip refused")

    with log._lock:  # hold the writer inside its first transaction so the next three queue up together
        a = log.submit([record(0)])
        deadline = time.monotonic() + 10
        while not log._queue.empty() and time.monotonic() < deadline:
            time.sleep(0.001)
        time.sleep(0.05)
        b = log.submit([record(1, "b"), record(2, "b")])
        c = log.submit([Record("note", T0, "dee", "dealer", "T2", {"marker": "c"}, prepare=refuse)])
        d = log.submit([record(4, "d")])
    assert a.result(timeout=10) == [1]
    assert b.result(timeout=10) == [2, 3]
    with pytest.raises(ValueError, match="slip refused"):
        c.result(timeout=10)
    assert d.result(timeout=10) == [4]
    assert log.append("note", T0, "dee", "dealer") == 5  # the log goes on
    log.close()
    assert [r[0] for r in read_events(db)] == [1, 2, 3, 4, 5]
    assert verify_ok(home, "--db", str(db))["rows"] == 5


# -- files in odd places ------------------------------------------------------------------------
def test_verify_reads_the_right_file_whatever_its_folder_is_called(tmp_path, home):
    folder = tmp_path / "pit #1 ?x%41 é"
    folder.mkdir()
    db = folder / "audit.db"
    with AuditLog(db) as log:
        for i in range(3):
            log.append("note", T0, "dee", "dealer", "T1", {"i": i})
    before = sorted(p.name for p in tmp_path.iterdir())
    out = verify_ok(home, "--db", str(db))
    assert out["rows"] == 3 and out["head_checked"]["seq"] == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no stray database created elsewhere


def test_verify_of_a_file_that_is_not_an_audit_database_is_a_usage_fault(tmp_path, home):
    paths.install_key()
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database\n" * 100)
    rc, out, err = cli(home, "audit", "verify", "--db", str(junk))
    assert rc == 2 and out is None and "cannot be read as a pitdesk audit database" in err
    assert "Traceback" not in err


def test_reads_racing_close_are_refused_cleanly_never_inside_a_closed_connection(tmp_path, monkeypatch):
    # a view reading on another thread while the workstation closes the log: the read either
    # happens before the close or is refused with StoreStopped (never a crash in SQLite)
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    for n in range(20):
        lg = AuditLog(tmp_path / f"race{n}.db")
        lg.append("note", T0, "t", "dealer", None, {"n": n})
        outcomes, go = [], threading.Event()

        def reader():
            go.set()
            for _ in range(200):
                try:
                    outcomes.append(lg.query("SELECT count(*) AS n FROM events")[0]["n"])
                except StoreStopped:
                    outcomes.append("stopped")
                    return

        t = threading.Thread(target=reader)
        t.start()
        go.wait()
        lg.close()
        t.join()
        assert set(outcomes) <= {1, "stopped"}
    with pytest.raises(StoreStopped, match="closed"):
        lg.query("SELECT 1")
