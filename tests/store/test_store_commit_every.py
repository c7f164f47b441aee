"""A simulated shift's log (``AuditLog(..., commit_every=N)``, app/simulate/shift.py): its rows are
acknowledged when sealed and committed N at a time, at ``flush()`` and at ``close()``; the rows,
the chain and the head file are an ordinary log's; a bad submission is undone alone."""

from __future__ import annotations

import pytest

from app.store.log import AuditLog, Record
from tests.support.store import T0, check_log, read_events, record, verify_ok


def bad(i: int) -> Record:
    def refuse(conn, data):
        raise ValueError("a bad record")
    return Record("note", T0, "dee", "dealer", "T2", {"text": f"bad {i}"}, refuse)


def test_rows_are_committed_n_at_a_time_and_at_flush_and_close(tmp_path, home):
    db = tmp_path / "sim.db"
    told: list[int] = []
    log = AuditLog(db, commit_every=5)
    log.listen(lambda rows: told.extend(r.seq for r in rows))
    acked = {}
    for i in range(12):
        r = record(i)
        acked[log.append(r.type, r.time, r.actor, r.role, r.table, r.data)] = {
            "type": r.type, "time": r.time.isoformat(), "actor": r.actor, "role": r.role, "table": r.table,
            "data": r.data}
    assert sorted(acked) == told == list(range(1, 13))          # acknowledged, and told, as sealed
    assert len(read_events(db)) == 10                             # committed at 5 and at 10
    log.flush()
    assert len(read_events(db)) == 12
    r = record(12)
    log.append(r.type, r.time, r.actor, r.role, r.table, r.data)
    log.close()                                                   # the last row committed on closing
    assert check_log(db, acked) == 13
    out = verify_ok(home, "--db", str(db))
    assert out["rows"] == 13 and out["head_checked"]["seq"] == 13


def test_a_bad_submission_is_undone_alone(tmp_path, home):
    db = tmp_path / "sim.db"
    with AuditLog(db, commit_every=100) as log:
        assert log.append_many([record(0), record(1)]) == [1, 2]
        with pytest.raises(ValueError, match="a bad record"):
            log.append_many([record(2), bad(3)])                  # neither of the two is written
        assert log.append_many([record(4)]) == [3]
        assert log.seq == 3 and not log.stopped
    rows = read_events(db)
    assert [r[0] for r in rows] == [1, 2, 3] and "note 4" in rows[2][6]
    assert verify_ok(home, "--db", str(db))["rows"] == 3


def test_the_rows_and_the_chain_are_an_ordinary_logs(tmp_path, home):
    plain, batched = tmp_path / "plain.db", tmp_path / "batched.db"
    for db, every in ((plain, 0), (batched, 4)):
        with AuditLog(db, commit_every=every) as log:
            for i in range(0, 20, 3):
                log.append_many([record(j) for j in range(i, min(i + 3, 20))])
    assert read_events(plain) == read_events(batched)
    assert check_log(batched, {}) == 20
