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
