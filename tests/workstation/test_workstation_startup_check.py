"""Issue 26 (2): the workstation checks the log before it writes anything. A log that fails is
opened read-only: every write refused with ``LogStopped`` naming the row and the kind, nothing
appended. An intact log opens normally and the checkpoint advances, so the next start checks
only the rows written since (app/store/checkpoint.py)."""

import json
import sqlite3
from pathlib import Path

import pytest

from app.store import checkpoint, paths
from app.workstation.errors import LogStopped
from tests.support.store import attacker
from tests.support.workstation import DEALER, FLOOR, edit_settlement, reopen, settled_log

def rows(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT count(*) FROM events").fetchone()[0]
    finally:
        conn.close()


def checked_to(ws) -> int | None:
    got = checkpoint.read(checkpoint.checkpoint_file(paths.head_file(ws.log.db_id)), ws.log.key, ws.log.db_id)
    return got and got[0]


def test_a_log_with_a_settlement_edited_in_its_body_is_opened_read_only_naming_the_row(tmp_path, monkeypatch, clock):
    seq = settled_log(tmp_path, monkeypatch, clock)
    db = tmp_path / "pit.db"
    edit_settlement(db, seq)
    before = rows(db)
    ws = reopen(tmp_path, clock)
    try:
        assert not ws.startup_check.ok and ws.startup_check.finding.seq == seq
        words = f"failed its check at row {seq} (edited)"
        with pytest.raises(LogStopped, match=words.replace("(", r"\(").replace(")", r"\)")):
            ws.people.sign_in(*FLOOR)
        with pytest.raises(LogStopped, match=f"row {seq}"):
            ws.decisions.record("T1", "deck_received", {"deck": "red"})
        with pytest.raises(LogStopped, match=f"row {seq}"):
            ws.live.pump()
        assert "pitdesk audit verify" in ws.log.stopped
    finally:
        ws.close()
    assert rows(db) == before       # nothing was written on top of the edited row
    # and the checkpoint did not move over it: the next start finds it again
    ws = reopen(tmp_path, clock)
    try:
        assert ws.startup_check.finding.seq == seq
    finally:
        ws.close()
    assert rows(db) == before


def test_an_intact_log_opens_and_the_checkpoint_advances_so_the_next_start_checks_only_new_rows(
        tmp_path, monkeypatch, clock):
    settled_log(tmp_path, monkeypatch, clock)
    db = tmp_path / "pit.db"
    first = rows(db)
    ws = reopen(tmp_path, clock)
    try:
        assert ws.startup_check.ok
        assert ws.startup_check.after == 0 or ws.startup_check.to == first
        assert checked_to(ws) == first        # everything there at the start is checked
        ws.people.sign_in(*DEALER)
        ws.decisions.record("T1", "deck_received", {"deck": "red"})
    finally:
        ws.close()
    second = rows(db)
    assert second > first
    ws = reopen(tmp_path, clock)
    try:
        c = ws.startup_check
        assert c.ok and (c.after, c.to, c.rows) == (first, second, second - first)
        assert checked_to(ws) == second
    finally:
        ws.close()


def test_an_edit_to_the_row_the_last_check_ended_at_is_found(tmp_path, monkeypatch, clock):
    settled_log(tmp_path, monkeypatch, clock)
    db = tmp_path / "pit.db"
    reopen(tmp_path, clock).close()       # checks everything; the checkpoint is the last row
    last = rows(db)
    with attacker(db) as conn:
        conn.execute("UPDATE events SET actor = 'x', body = replace(body, '\"actor\":', '\"actor\": ') "
                     "WHERE seq = ?", (last,))
    ws = reopen(tmp_path, clock)
    try:
        assert ws.startup_check.finding.seq == last and ws.startup_check.finding.kind == "edited"
        with pytest.raises(LogStopped, match=f"row {last}"):
            ws.people.sign_in(*FLOOR)
    finally:
        ws.close()
    assert rows(db) == last


def test_a_checkpoint_moved_by_hand_is_not_trusted(tmp_path, monkeypatch, clock):
    seq = settled_log(tmp_path, monkeypatch, clock)
    db = tmp_path / "pit.db"
    ws = reopen(tmp_path, clock)
    cp = checkpoint.checkpoint_file(paths.head_file(ws.log.db_id))
    ws.close()
    with attacker(db) as conn:
        conn.execute("UPDATE events SET body = replace(body, '\"settlement\"', '\"settlement\" ') WHERE seq = ?",
                     (seq,))
    r = json.loads(cp.read_text())
    cp.write_text(json.dumps({**r, "seq": rows(db) + 5}))    # the seal no longer matches
    ws = reopen(tmp_path, clock)
    try:
        assert ws.startup_check.after == 0 and ws.startup_check.finding.seq == seq
    finally:
        ws.close()
