"""The head recorded outside the database (issue 12): recorded before each batch is committed
and again after, so it is never behind the log, whenever a writer dies; and several processes
writing one database at once, one chain, one head that never goes backwards.

Real SQLite files and real processes killed with SIGKILL; no mocks. A writer dies at an exact
step through tests/support/store_writer.py's CrashingLog (the real AuditLog with a kill added).
"""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import threading
import time
from datetime import timedelta
from pathlib import Path

import pytest

from app.engine.procedure import Event
from app.store import heads, paths
from app.store.floor import Floor
from app.store.log import AuditLog, StoreError, StoreStopped
from tests.support.store import (PITDESK, T0, Writer, attacker, check_log, cli, cut_copy, env_for, first_bad,
                                 head_reach, head_record, read_events, record, verify_ok)


def key() -> bytes:
    return paths.install_key(create=False)


def build(db: Path, n: int, **kw) -> AuditLog:
    log = AuditLog(db, **kw)
    for i in range(n):
        r = record(i)
        log.append(r.type, r.time, r.actor, r.role, r.table, r.data)
    return log


# -- each crash point, in a real process ---------------------------------------------------------
CRASHES = {
    # point: (is the dying batch in the log, the note verify gives)
    "before-intent": (False, None),
    "after-intent": (False, "the last batch was never committed: nothing acknowledged is missing"),
    "after-commit": (True, "was committed; its writer stopped before recording it as committed"),
    "after-head": (True, None),
}


@pytest.mark.parametrize("point", CRASHES)
def test_a_writer_killed_at_each_step_of_a_batch_leaves_a_head_that_verify_reads_right(tmp_path, home, point):
    db, err = tmp_path / "audit.db", tmp_path / "writer.err"
    w = Writer(db, home, 7, err, 5000, "--crash-at", point, "--crash-batch", "4")
    assert w.p.wait(timeout=60) == -signal.SIGKILL, err.read_text()
    _, acks = w.finish()
    acked = {a["seq"]: a for a in acks}
    rows = check_log(db, acked)
    h = head_record(home)
    in_log, note = CRASHES[point]
    last_acked = max(acked)
    if in_log:  # committed but never answered: the callers of a batch hear only once its head is recorded
        assert rows > last_acked
    else:
        assert rows == last_acked
    if point in ("after-intent", "after-commit"):  # the head recorded before COMMIT covers the batch
        assert h["seq"] == last_acked and h["pending"]["seq"] > last_acked
        assert h["pending"]["seq"] == rows if in_log else h["pending"]["seq"] > rows
    else:
        assert h["pending"] is None and h["seq"] == rows
    assert head_reach(home) >= rows

    out = verify_ok(home, "--db", str(db))
    assert out["rows"] == rows and out["head_checked"]["seq"] == rows
    notes = " ".join(out["notes"])
    if note:
        assert note in notes
        batch = out["last_batch"]
        assert batch == {"rows": [last_acked + 1, h["pending"]["seq"]], "committed": in_log}
    else:
        assert out["last_batch"] is None and "batch" not in notes

    # an acknowledged row cut from the end is found, whatever the step the writer died at
    seq, kind, detail = first_bad(home, "--db", str(cut_copy(db, tmp_path / "cut.db", last_acked)))
    assert (seq, kind) == (last_acked, "truncated"), detail
    if point == "after-commit":
        # the unanswered batch cut in the middle: a batch is committed whole, so this is a cut
        seq, kind, detail = first_bad(home, "--db", str(cut_copy(db, tmp_path / "cut2.db", rows)))
        assert (seq, kind) == (rows, "truncated") and "inside the batch" in detail, detail

    # and a writer started afterwards continues the one chain, its head recorded whole
    w = Writer(db, home, 8, err, 30)
    assert w.p.wait(timeout=60) == 0, err.read_text()
    ready, acks = w.finish()
    assert ready == rows and [a["seq"] for a in acks] == list(range(rows + 1, rows + 31))
    acked.update((a["seq"], a) for a in acks)
    assert check_log(db, acked) == rows + 30
    assert head_record(home)["pending"] is None and head_record(home)["seq"] == rows + 30
    out = verify_ok(home, "--db", str(db))
    assert out["rows"] == rows + 30 and out["last_batch"] is None


# -- each crash point's state, built in place ----------------------------------------------------
def test_verify_at_each_state_of_the_head_file(tmp_path, home):
    """The states a crash can leave, made with the head functions on a real log, and the
    states only a cut can make."""
    db = tmp_path / "audit.db"
    log = build(db, 10)
    log.close()
    path, ident = paths.head_file(log.db_id), log.db_id
    ten = (10, read_events(db)[-1][8])
    assert heads.read(path, key(), ident) == heads.Head(ident, *ten)

    # between the intent and the commit: the batch is not in the log
    heads.record_intent(path, key(), ident, ten, (15, "f" * 64), lambda s, h: True)
    out = verify_ok(home, "--db", str(db))
    assert out["rows"] == 10 and out["head_checked"]["seq"] == 10
    assert out["last_batch"] == {"rows": [11, 15], "committed": False}
    assert ("the last batch was never committed: nothing acknowledged is missing (rows 11 to 15 were being "
            "written when the writer stopped)") in out["notes"]

    # after the commit, before the committed head: rows 11 to 15 appended by a writer that
    # recorded nothing, then the intent naming their real head
    with AuditLog(db, record_head=False) as other:
        for i in range(10, 15):
            r = record(i)
            other.append(r.type, r.time, r.actor, r.role, r.table, r.data)
    fifteen = (15, read_events(db)[-1][8])
    heads.record_intent(path, key(), ident, ten, fifteen, lambda s, h: True)
    out = verify_ok(home, "--db", str(db))
    assert out["rows"] == 15 and out["head_checked"] == {"seq": 15, "hash": fifteen[1], "source": f"in {path}"}
    assert out["last_batch"] == {"rows": [11, 15], "committed": True}

    # the same state with the batch cut in its middle, before it, or rows of it changed
    assert first_bad(home, "--db", str(cut_copy(db, tmp_path / "c1.db", 13)))[:2] == (13, "truncated")
    seq, kind, detail = first_bad(home, "--db", str(cut_copy(db, tmp_path / "c2.db", 9)))
    assert (seq, kind) == (9, "truncated") and "is row 10" in detail
    heads.record_intent(path, key(), ident, ten, (15, "e" * 64), lambda s, h: True)
    seq, kind, detail = first_bad(home, "--db", str(db))
    assert (seq, kind) == (15, "edited") and "for the batch being committed" in detail

    # after the committed head: the plain head
    heads.record_committed(path, key(), ident, fifteen)
    assert heads.read(path, key(), ident) == heads.Head(ident, *fifteen)
    out = verify_ok(home, "--db", str(db))
    assert out["last_batch"] is None and out["head_checked"]["seq"] == 15


def test_the_head_file_never_goes_backwards(tmp_path, home):
    db = tmp_path / "audit.db"
    log = build(db, 6)
    log.close()
    path, ident = paths.head_file(log.db_id), log.db_id
    rows = read_events(db)
    six, four = (6, rows[5][8]), (4, rows[3][8])
    before = path.read_text()
    heads.record_committed(path, key(), ident, four)  # a slower process recording an older head
    assert path.read_text() == before
    # nor behind a later batch's intent (its committed head is this one's or later)
    heads.record_intent(path, key(), ident, six, (9, "a" * 64), lambda s, h: True)
    heads.record_committed(path, key(), ident, six)
    assert heads.read(path, key(), ident) == heads.Head(ident, 6, six[1], (9, "a" * 64))
    # an intent that would follow an older head than the one recorded is refused: the log was cut
    with pytest.raises(heads.HeadError, match="records row 6, but the log ends at row 4"):
        heads.record_intent(path, key(), ident, four, (5, "b" * 64), lambda s, h: True)


def test_a_head_file_that_cannot_be_trusted_is_refused(tmp_path, home):
    db = tmp_path / "audit.db"
    log = build(db, 3)
    log.close()
    path = paths.head_file(log.db_id)
    good = json.loads(path.read_text())
    # a pending head added without the key
    path.write_text(json.dumps({**good, "pending": {"seq": 9, "hash": "c" * 64}}))
    rc, out, err = cli(home, "audit", "verify", "--db", str(db))
    assert rc == 2 and "the recorded head's seal does not match this install's key" in err
    with pytest.raises(StoreError, match="seal does not match"):
        AuditLog(db)
    # another database's head, sealed, put in this one's place
    other = build(tmp_path / "other.db", 5)
    other.close()
    path.write_text(paths.head_file(other.db_id).read_text())
    rc, out, err = cli(home, "audit", "verify", "--db", str(db))
    assert rc == 2 and f"the recorded head is database {other.db_id}'s, not {log.db_id}'s" in err


def test_a_writer_refuses_a_log_whose_tail_was_cut(tmp_path, home):
    """The next head would cover the cut: the workstation refuses to go on and says why."""
    db = tmp_path / "audit.db"
    build(db, 8).close()
    with attacker(db) as conn:
        conn.execute("DELETE FROM events WHERE seq >= 7")
    with pytest.raises(StoreError, match=r"ends at row 6 or differs from the head recorded in .* \(row 8\)"):
        AuditLog(db)
    assert first_bad(home, "--db", str(db))[:2] == (7, "truncated")


def test_a_log_open_in_one_process_cut_by_another_stops_rather_than_cover_the_cut(tmp_path, home):
    db = tmp_path / "audit.db"
    log = build(db, 8)
    with attacker(db) as conn:
        conn.execute("DELETE FROM events WHERE seq >= 5")
    with pytest.raises(StoreStopped, match="cannot be recorded .* before the commit .*records row 8, but the log "
                                           "ends at row 4"):
        log.append("note", T0, "dee", "dealer")
    log.close()
    assert len(read_events(db)) == 4  # nothing written over the cut


def test_a_head_that_cannot_be_recorded_before_the_commit_writes_nothing(tmp_path, home):
    db = tmp_path / "audit.db"
    log = build(db, 1)
    head = paths.head_file(log.db_id)
    # the head can no longer be replaced: a folder where its temporary file goes (even for root)
    head.with_name(f"{head.name}.{os.getpid()}.tmp").mkdir()
    with pytest.raises(StoreStopped, match="cannot be recorded .* before the commit .*the batch was not written"):
        log.append_many([record(1), record(2)])
    with pytest.raises(StoreStopped):
        log.append("note", T0, "dee", "dealer")
    log.close()
    assert len(read_events(db)) == 1 and json.loads(head.read_text())["seq"] == 1
    assert verify_ok(home, "--db", str(db))["rows"] == 1


# -- kill -9 of `pitdesk simulate shift` -----------------------------------------------------------
def wal_size(wal: Path) -> int:
    """The WAL's size, or -1 while there is none (SQLite removes it when the last connection
    closes, as when the writer hands over between phases of the shift)."""
    try:
        return wal.stat().st_size
    except FileNotFoundError:
        return -1


def kill_shifts(tmp_path: Path, home: Path, moments: list[int]) -> None:
    """`pitdesk simulate shift` killed once the head file has reached each row count in
    ``moments`` (one new database each): the head is never behind the log, verify passes, and
    the last row the head recorded as committed cannot be cut unnoticed."""
    for i, at in enumerate(moments):
        db = tmp_path / f"shift{i}.db"
        for old in (home / "heads").glob("*.json") if (home / "heads").exists() else ():
            old.unlink()
        p = subprocess.Popen([PITDESK, "simulate", "shift", "--tables", "6", "--rounds", "400", "--db", str(db),
                              "--start", "2026-11-21 14:00", "--seed", str(i)], env=env_for(home),
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and p.poll() is None:
            try:
                if head_reach(home) >= at:
                    break
            except (ValueError, OSError):  # no head file yet
                pass
            time.sleep(0.0005)
        # then as the next batch is being committed (its pages reach the WAL): the moment the head
        # recorded only after a commit used to miss
        wal = db.with_name(db.name + "-wal")
        size = wal_size(wal)
        while time.monotonic() < deadline and p.poll() is None and wal_size(wal) == size:
            time.sleep(0.0002)
        assert p.poll() is None, f"the shift ended before row {at}: {p.stderr.read()}"
        p.send_signal(signal.SIGKILL)
        assert p.wait(timeout=20) == -signal.SIGKILL
        p.stderr.close()
        rows = check_log(db, {})
        out = verify_ok(home, "--db", str(db))
        # a commit whose WAL index the killed writer had not updated may show only to a later look
        assert out["rows"] >= rows and out["head_checked"]["seq"] == out["rows"]
        assert head_reach(home) >= out["rows"], (head_record(home), out["rows"])
        committed = head_record(home)["seq"]
        if committed:
            cut = tmp_path / f"cut{i}.db"
            assert first_bad(home, "--db", str(cut_copy(db, cut, committed)))[:2] == (committed, "truncated")


def test_kill_9_of_a_simulated_shift(tmp_path, home):
    kill_shifts(tmp_path, home, [700])


@pytest.mark.slow
def test_kill_9_of_a_simulated_shift_at_many_moments(tmp_path, home):
    kill_shifts(tmp_path, home, [1, 200, 501, 900, 1500, 2200, 3000, 4100, 5300, 6000])


# -- several writers on one database -------------------------------------------------------------
def test_two_processes_appending_at_once_make_one_chain(tmp_path, home):
    db, err = tmp_path / "audit.db", tmp_path / "writer.err"
    ws = [Writer(db, home, seed, err, 1000) for seed in (11, 12)]  # both create the new database
    for w in ws:
        assert w.p.wait(timeout=300) == 0, err.read_text()
    acked: dict[int, dict] = {}
    for w in ws:
        ready, acks = w.finish()
        assert len(acks) == 1000
        for a in acks:
            assert a["seq"] not in acked, f"row {a['seq']} given to both writers"
            acked[a["seq"]] = a
    assert sorted(acked) == list(range(1, 2001))
    assert check_log(db, acked) == 2000
    assert {a["data"].get("pid") for a in acked.values()} - {None} == {w.p.pid for w in ws}
    h = head_record(home)
    assert (h["seq"], h["pending"]) == (2000, None)
    out = verify_ok(home, "--db", str(db))
    assert out["rows"] == 2000 and out["head_checked"]["seq"] == 2000
    # each process projected its own rows into the read models, and none twice
    meters = sorted(s for s, a in acked.items() if a["type"] == "meter_reading")
    conn = sqlite3.connect(db)
    assert [r[0] for r in conn.execute("SELECT seq FROM meter_readings ORDER BY seq")] == meters
    conn.close()


def test_users_add_while_a_writer_appends(tmp_path, home):
    """`pitdesk users add` while another process writes the same database (a shift running)."""
    db, err = tmp_path / "audit.db", tmp_path / "writer.err"
    env = env_for(home)

    def users(*args, pins):
        return subprocess.run([PITDESK, "users", *args, "--db", str(db)], input=pins, capture_output=True,
                              text=True, env=env, timeout=120)

    assert users("init", "root", pins="1234\n").returncode == 0
    w = Writer(db, home, 13, err)
    w.wait_lines(50)
    done = []
    for name in ("fay", "gus"):
        p = users("add", name, "--role", "dealer", "--as", "root", pins="1234\n5678\n")
        assert p.returncode == 0, p.stderr
        done.append(name)
    w.wait_lines(len(w.lines) + 20)
    _, acks = w.kill()
    listed = subprocess.run([PITDESK, "users", "list", "--db", str(db)], capture_output=True, text=True, env=env)
    assert [u["name"] for u in json.loads(listed.stdout)] == ["fay", "gus", "root"]
    rows = check_log(db, {a["seq"]: a for a in acks})
    types = [json.loads(r[6])["type"] for r in read_events(db)]
    assert types.count("user_added") == 3 and types.count("sign_in") == 2
    assert verify_ok(home, "--db", str(db))["rows"] == rows


def test_the_engine_states_follow_rows_another_process_appended(tmp_path, home):
    """Two logs open on one file (as two workstations' processes): each sees the other's table
    events, both in its engine states and when it appends."""
    db = tmp_path / "audit.db"
    a, b = AuditLog(db), AuditLog(db)
    fa, fb = Floor(a), Floor(b)

    def ev(kind, minutes, role="dealer", actor="ann", **data):
        return Event(kind, T0 + timedelta(minutes=minutes), actor, role, data)

    fa.configure("T1", "section6", T0, "pat", "pit manager")
    fa.record("T1", ev("deck_received", 0, deck="red"))
    assert "red" in fb.state("T1").decks  # b never wrote, yet knows the table and its deck
    fb.record("T1", ev("deck_inspected", 1, deck="red"))
    fa.record("T1", ev("deck_verified", 2, "floor supervisor", "bob", deck="red"))  # needs b's inspection
    assert fa.state("T1") == fb.state("T1") and fb.state("T1").decks["red"].verified_by == "bob"
    assert b.append("note", T0, "dee", "dealer") == 5 and a.append("note", T0, "dee", "dealer") == 6
    a.close()
    b.close()
    assert verify_ok(home, "--db", str(db))["rows"] == 6
    deck = read_events(db)
    assert [json.loads(r[6])["type"] for r in deck] == ["table_configured", "deck_received", "deck_inspected",
                                                        "deck_verified", "note", "note"]


def test_threads_of_two_logs_on_one_file_interleave_into_one_chain(tmp_path, home):
    db = tmp_path / "audit.db"
    logs = [AuditLog(db), AuditLog(db)]
    got: dict[int, int] = {}
    guard = threading.Lock()
    errors: list[BaseException] = []
    start = threading.Barrier(8)

    def work(t: int) -> None:
        rng = random.Random(t)
        log = logs[t % 2]
        try:
            start.wait()
            for i in range(25):
                k = rng.randrange(1, 6)
                seqs = log.append_many([record(t * 1000 + i * 10 + j, f"t{t}") for j in range(k)])
                with guard:
                    for s in seqs:
                        assert s not in got
                        got[s] = t
        except BaseException as e:  # noqa: BLE001 - reported below
            errors.append(e)

    ts = [threading.Thread(target=work, args=(t,)) for t in range(8)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(timeout=120)
    for log in logs:
        log.close()
    assert not errors, errors
    assert sorted(got) == list(range(1, len(got) + 1))
    assert check_log(db, {}) == len(got)
    assert verify_ok(home, "--db", str(db))["head_checked"]["seq"] == len(got)


def test_a_writer_waits_its_turn_and_stops_naming_a_lock_held_too_long(tmp_path, home):
    db = tmp_path / "audit.db"
    build(db, 2).close()
    other = sqlite3.connect(db, isolation_level=None)  # another process's write transaction, left open
    other.execute("BEGIN IMMEDIATE")
    log = AuditLog(db, busy_timeout=0.2)
    waiting = log.submit([record(2)])
    with pytest.raises(StoreStopped, match="another process has held the write lock of the audit database .* "
                                           "for longer than this writer waits"):
        waiting.result(timeout=60)
    log.close()
    # one that waits long enough gets its turn once the other writer commits
    log = AuditLog(db)
    waiting = log.submit([record(3)])
    other.execute("INSERT INTO meta VALUES ('note', 'the other writer')")
    other.execute("COMMIT")
    other.close()
    assert waiting.result(timeout=60) == [3]
    log.close()
    assert verify_ok(home, "--db", str(db))["rows"] == 3

