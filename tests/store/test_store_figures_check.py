"""The check before a figure (app/store/figures_check.py, issue 35 finding 1): the chain walked
from the start-up check's checkpoint (its own row checked again), the read models derived from
the first row and compared. So it walks only the rows written since the last start, yet finds a
read model edited anywhere, and an edit to the checkpoint's own row. On a copy of a simulated
shift's log with its install key (tests/conftest.py ``shift``), a real AuditLog's start-up check
recording the checkpoint."""

from __future__ import annotations

import json
import sqlite3

from app.store import chain
from app.store.figures_check import checked
from app.store.log import AuditLog


def count(conn, _acc) -> int:
    return conn.execute("SELECT count(*) FROM settlements").fetchone()[0]


def start_up(db) -> int:
    """The workstation's start-up check on ``db``: its checkpoint recorded; the row it ended at."""
    with AuditLog(db) as log:
        done = log.check()
    assert done.finding is None, done.finding
    return done.to


def test_the_walk_starts_at_the_checkpoint_and_the_figures_are_read_in_the_snapshot_checked(shift):
    v, n = checked(shift, count)
    assert v.ok and v.after == 0 and v.rows == v.head          # no start yet: every row walked
    upto = start_up(shift)
    v, n2 = checked(shift, count)
    assert v.ok and v.after == upto and v.rows == v.head - upto
    assert n2 == n > 0


def test_a_read_model_edited_before_the_checkpoint_is_found_all_the_same(shift):
    upto = start_up(shift)
    conn = sqlite3.connect(shift)
    with conn:
        seq = conn.execute("SELECT min(seq) FROM hold_stakes").fetchone()[0]
        assert seq < upto
        conn.execute("UPDATE hold_stakes SET count = count + 1 WHERE seq = ?", (seq,))
    conn.close()
    v, _ = checked(shift, count)
    assert not v.ok and v.finding.kind == "read model" and v.finding.where["table"] == "hold_stakes"
    assert v.finding.seq == seq


def test_the_checkpoints_own_row_edited_is_found(shift):
    upto = start_up(shift)
    conn = sqlite3.connect(shift)
    conn.execute("DROP TRIGGER events_no_update")
    with conn:
        body, prev = conn.execute("SELECT body, prev_hash FROM events WHERE seq = ?", (upto,)).fetchone()
        b = json.loads(body)
        b["actor"] = "someone else"
        text = chain.body(b["seq"], b["time"], b["table"], b["type"], b["actor"], b["role"], b["data"])
        conn.execute("UPDATE events SET body = ?, actor = ?, hash = ? WHERE seq = ?",
                     (text, b["actor"], chain.link(prev, text), upto))
    conn.close()
    v, _ = checked(shift, count)
    assert not v.ok and v.finding.seq == upto and v.finding.kind == "edited"
    assert "last start-up check" in v.finding.detail


def test_a_row_written_after_the_checkpoint_is_walked(shift):
    upto = start_up(shift)
    conn = sqlite3.connect(shift)
    conn.execute("DROP TRIGGER events_no_update")
    with conn:
        last = conn.execute("SELECT max(seq) FROM events").fetchone()[0]
        assert last == upto
    # a row added past the checkpoint by hand, linked but not sealed with the install's key
    with conn:
        prev = conn.execute("SELECT hash FROM events WHERE seq = ?", (last,)).fetchone()[0]
        text = chain.body(last + 1, "2026-11-22T03:00:00", None, "note", "x", "floor supervisor", {"text": "x"})
        conn.execute("INSERT INTO events (seq, time, table_id, type, actor, role, body, prev_hash, hash, hmac) "
                     "VALUES (?, ?, NULL, 'note', 'x', 'floor supervisor', ?, ?, ?, ?)",
                     (last + 1, "2026-11-22T03:00:00", text, prev, chain.link(prev, text), "0" * 64))
    conn.close()
    v, _ = checked(shift, count)
    assert not v.ok and v.finding.seq == last + 1 and v.finding.kind == "forged"


def kept_files(db) -> list:
    from app.store import paths
    from app.store.reading import log_meta, read_db
    db_id = read_db(db, lambda conn, _acc: log_meta(conn, db)["db_id"])[0]
    head = paths.head_file(db_id)
    return [head.with_name(head.stem + ".derived.db"), head.with_name(head.stem + ".derived.json")]


def test_the_derivation_is_kept_and_an_old_row_edited_since_is_still_found(shift):
    """The read models' derivation is kept after a check that passes (app/store/figures_cache.py)
    and the next check folds only the rows written since; every stored row is compared all the
    same, so an edit to an old row, checked long ago, is found."""
    start_up(shift)
    first, _ = checked(shift, count)
    assert first.ok and first.derived_from == 0                  # derived from the first row, then kept
    assert all(p.exists() for p in kept_files(shift))
    again, _ = checked(shift, count)
    assert again.ok and again.derived_from == first.head           # folded on from the kept row
    conn = sqlite3.connect(shift)
    with conn:
        seq = conn.execute("SELECT min(seq) FROM hold_house").fetchone()[0]
        conn.execute("UPDATE hold_house SET won = won + 5000000 WHERE seq = ?", (seq,))
    conn.close()
    v, _ = checked(shift, count)
    assert v.derived_from == first.head
    assert not v.ok and v.finding.kind == "read model" and v.finding.where["table"] == "hold_house"
    assert v.finding.seq == seq and v.finding.where["stored"]["won"] == v.finding.where["log"]["won"] + 5000000


def test_a_row_written_after_the_kept_derivation_is_folded_and_checked(shift):
    from datetime import datetime
    start_up(shift)
    first, _ = checked(shift, count)
    with AuditLog(shift) as log:
        assert log.check().finding is None
        new = log.append("alarm_raised", datetime(2026, 11, 22, 3, 0), "system", "system", "T1",
                         {"kind": "test", "message": "raised after the check"})
        log.flush()
    v, _ = checked(shift, count)
    assert v.ok and v.derived_from == first.head and v.head >= new
    conn = sqlite3.connect(shift)
    with conn:
        conn.execute("UPDATE alarms SET message = 'something else' WHERE seq = ?", (new,))
    conn.close()
    v, _ = checked(shift, count)
    assert not v.ok and v.finding.kind == "read model" and v.finding.where["table"] == "alarms"
    assert v.finding.seq == new and v.finding.where["log"]["message"] == "raised after the check"


def test_a_kept_derivation_changed_by_hand_is_not_used(shift):
    """The kept tables edited to agree with an edited read model: their digest no longer matches
    the seal, so the read models are derived from the first row and the edit is found."""
    start_up(shift)
    first, _ = checked(shift, count)
    db_file, state_file = kept_files(shift)
    conn = sqlite3.connect(shift)
    with conn:
        seq = conn.execute("SELECT min(seq) FROM hold_house").fetchone()[0]
        conn.execute("UPDATE hold_house SET won = won + 5000000 WHERE seq = ?", (seq,))
    conn.close()
    kept = sqlite3.connect(db_file)
    with kept:
        kept.execute("UPDATE hold_house SET won = won + 5000000 WHERE seq = ?", (seq,))
    kept.close()
    v, _ = checked(shift, count)
    assert v.derived_from == 0
    assert not v.ok and v.finding.where["table"] == "hold_house" and v.finding.seq == seq
    # the seal's own fields moved on by hand: not used either
    state = json.loads(state_file.read_text())
    state["seq"] = first.head - 1
    state_file.write_text(json.dumps(state))
    v, _ = checked(shift, count)
    assert v.derived_from == 0 and not v.ok
