"""``pitdesk audit backup`` (issue 12): a consistent copy while the workstation writes, with its
own id and its own sealed head, reported "intact to row N" by ``audit verify``; a copy whose
tail was cut is reported truncated. Real files and a real writer process; no mocks.
"""

from __future__ import annotations

import json
import secrets
import shutil
import sqlite3
from pathlib import Path

from app.store import heads, paths
from app.store.log import AuditLog
from tests.support.store import Writer, attacker, check_log, cli, first_bad, read_events, record, verify_ok


def build(db: Path, n: int) -> str:
    with AuditLog(db) as log:
        for i in range(n):
            r = record(i)
            log.append(r.type, r.time, r.actor, r.role, r.table, r.data)
        return log.db_id


def backup(home: Path, db: Path, out: Path) -> dict:
    rc, res, err = cli(home, "audit", "backup", "--db", str(db), "--out", str(out))
    assert rc == 0 and res["verified"]["ok"] and "Traceback" not in err, (rc, res, err)
    return res


def test_a_backup_taken_while_a_writer_appends_is_intact_and_its_own(tmp_path, home):
    db, out, err = tmp_path / "audit.db", tmp_path / "backup" / "pit.db", tmp_path / "writer.err"
    out.parent.mkdir()
    original = build(db, 10)
    w = Writer(db, home, 31, err)
    w.wait_lines(200)
    res = backup(home, db, out)  # while the writer goes on
    w.wait_lines(len(w.lines) + 100)  # and it still goes on: the copy did not stop it
    _, acks = w.kill()
    n = res["rows"]
    assert res["backup_of"] == original and res["db_id"] != original and res["head"]["seq"] == n
    assert res["head_text"] == f"{n}:{res['head']['hash']}"
    assert res["head_file"] == str(paths.head_file(res["db_id"]))
    # a snapshot: the original's first n rows, byte for byte, and the original went on past it
    rows = check_log(db, {a["seq"]: a for a in acks})
    assert rows > n > 10 and read_events(out) == read_events(db)[:n]
    # one file that stands alone: no -wal beside it, rollback journal, its own id and head in its meta
    assert sorted(p.name for p in out.parent.iterdir()) == ["pit.db"]
    conn = sqlite3.connect(out.absolute().as_uri() + "?immutable=1", uri=True)
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    conn.close()
    assert (meta["db_id"], meta["backup_of"]) == (res["db_id"], original)
    assert json.loads(meta["backup_head"])["seq"] == n

    out_json = verify_ok(home, "--db", str(out))
    assert out_json["rows"] == n and out_json["head_checked"]["seq"] == n
    assert out_json["backup"] == {"of": original, "taken": res["taken"], "head": res["head"], "intact_to": n}
    assert f"a backup of database {original} taken {res['taken']}: intact to row {n}" in out_json["notes"]
    assert verify_ok(home, "--db", str(out), "--head", res["head_text"])["rows"] == n
    assert verify_ok(home, "--db", str(db))["rows"] == rows  # the original, against its own head


def test_a_plain_file_copy_shares_the_original_head_and_says_why_it_looks_truncated(tmp_path, home):
    db = tmp_path / "audit.db"
    build(db, 10)
    shutil.copy(db, tmp_path / "copy.db")
    with AuditLog(db) as log:
        log.append("note", record(0).time, "dee", "dealer")
    rc, res, err = cli(home, "audit", "verify", "--db", str(tmp_path / "copy.db"))
    assert rc == 1 and res["first_bad"]["kind"] == "truncated"
    assert any("rather than a backup made with 'pitdesk audit backup'" in n for n in res["notes"])
    b = backup(home, db, tmp_path / "backup.db")  # the remedy
    assert verify_ok(home, "--db", str(tmp_path / "backup.db"))["rows"] == b["rows"] == 11


def test_a_backup_with_its_tail_cut_is_truncated(tmp_path, home):
    db, out = tmp_path / "audit.db", tmp_path / "backup.db"
    build(db, 12)
    res = backup(home, db, out)
    with attacker(out) as conn:
        conn.execute("DELETE FROM events WHERE seq >= 10")
    seq, kind, detail = first_bad(home, "--db", str(out))
    assert (seq, kind) == (10, "truncated") and "is row 12" in detail
    # the head sealed inside the copy finds it alone, without this install's heads folder
    shutil.rmtree(home / "heads")
    seq, kind, detail = first_bad(home, "--db", str(out))
    assert (seq, kind) == (10, "truncated") and "in the backup's sealed head is row 12" in detail
    # and so does the head printed by the backup command
    assert first_bad(home, "--db", str(out), "--head", res["head_text"])[:2] == (10, "truncated")


def test_a_backup_whose_sealed_head_was_changed_or_removed_says_so(tmp_path, home):
    db, out = tmp_path / "audit.db", tmp_path / "backup.db"
    build(db, 12)
    res = backup(home, db, out)
    paths.head_file(res["db_id"]).unlink()  # only the copy's own head is left to tell its length
    with attacker(out) as conn:
        conn.execute("DELETE FROM events WHERE seq >= 10")
        sealed = json.loads(conn.execute("SELECT value FROM meta WHERE key = 'backup_head'").fetchone()[0])
        conn.execute("UPDATE meta SET value = ? WHERE key = 'backup_head'",
                     (json.dumps({**sealed, "seq": 9, "hash": read_events(out)[-1][8]}),))
    seq, kind, detail = first_bad(home, "--db", str(out))
    assert (seq, kind) == (0, "forged") and "the backup's sealed head does not match this install's key" in detail
    with attacker(out) as conn:
        conn.execute("DELETE FROM meta WHERE key = 'backup_head'")
    seq, kind, detail = first_bad(home, "--db", str(out))
    assert (seq, kind) == (0, "edited") and "its sealed head is gone from its meta" in detail
    # the seal of one copy moved to another copy of the same log is not that copy's
    other = backup(home, db, tmp_path / "other.db")
    with attacker(out) as conn:
        conn.execute("INSERT INTO meta VALUES ('backup_head', ?)", (json.dumps(sealed),))
    with attacker(tmp_path / "other.db") as conn:
        conn.execute("UPDATE meta SET value = ? WHERE key = 'backup_head'", (json.dumps(sealed),))
    seq, kind, detail = first_bad(home, "--db", str(tmp_path / "other.db"))
    assert (seq, kind) == (0, "edited") and f"but its meta says {other['db_id']}" in detail


def test_a_backup_checked_with_another_install_key_is_forged(tmp_path, home):
    """Named with --key, a key that did not seal the copy finds it forged; this install's own
    other key checks the chain and says the seals were not checked (issue 26, finding 5)."""
    db, out = tmp_path / "audit.db", tmp_path / "backup.db"
    build(db, 5)
    backup(home, db, out)
    other = tmp_path / "other-home"
    other.mkdir()
    (other / "install.key").write_text(secrets.token_hex(32) + "\n")
    assert first_bad(other, "--db", str(out), "--key", str(other / "install.key"))[:2] == (1, "forged")
    rc, res, err = cli(other, "audit", "verify", "--db", str(out))
    assert rc == 0 and res["seals"] == "not checked" and res["backup"] is None, (rc, res, err)


def test_a_backup_never_replaces_a_file_and_names_what_is_wrong(tmp_path, home):
    db, out = tmp_path / "audit.db", tmp_path / "backup.db"
    build(db, 3)
    out.write_text("yesterday's backup\n")
    for args, message in (((str(db), str(out)), f"{out} exists; a backup never replaces a file"),
                          ((str(db), str(tmp_path / "no" / "b.db")), f"no folder {tmp_path / 'no'} to write"),
                          ((str(tmp_path / "none.db"), str(tmp_path / "b.db")), "no audit database at"),
                          ((str(out), str(tmp_path / "b.db")), "cannot be read as a pitdesk audit database")):
        rc, res, err = cli(home, "audit", "backup", "--db", args[0], "--out", args[1])
        assert rc == 2 and res is None and message in err and "Traceback" not in err, (args, err)
    assert out.read_text() == "yesterday's backup\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["audit.db", "backup.db", "home"]  # no partial file left


def test_a_backup_of_a_log_that_does_not_verify_is_kept_and_exits_1(tmp_path, home):
    """A copy is evidence: it is made whatever the log holds, and the command says what is wrong."""
    db, out = tmp_path / "audit.db", tmp_path / "backup.db"
    build(db, 6)
    with attacker(db) as conn:
        body = conn.execute("SELECT body FROM events WHERE seq = 5").fetchone()[0]
        assert "note 4" in body
        conn.execute("UPDATE events SET body = ? WHERE seq = 5", (body.replace("note 4", "note 44"),))
    rc, res, err = cli(home, "audit", "backup", "--db", str(db), "--out", str(out))
    assert rc == 1 and res["verified"]["first_bad"]["seq"] == 5 and "does not verify: row 5: edited" in err
    assert out.exists() and first_bad(home, "--db", str(out))[:2] == (5, "edited")


def test_a_restored_backup_carries_on_as_a_log_of_its_own(tmp_path, home):
    """The workstation's disk is lost: the backup becomes the log, and its head file goes on."""
    db, out = tmp_path / "audit.db", tmp_path / "restored.db"
    build(db, 7)
    res = backup(home, db, out)
    with AuditLog(out) as log:
        assert log.db_id == res["db_id"] and log.seq == 7
        assert log.append("note", record(0).time, "dee", "dealer") == 8
    assert heads.read(paths.head_file(res["db_id"]), paths.install_key(create=False)).seq == 8
    out_json = verify_ok(home, "--db", str(out))
    assert out_json["rows"] == 8 and out_json["head_checked"]["seq"] == 8
    assert "intact to row 8" in " ".join(out_json["notes"])
