"""Helpers shared by the audit store's tests (tests/store/test_store_*.py): the command line, real
writer processes (tests/support/store_writer.py) and an attacker's plain connection to the file."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

from app.store import chain
from app.store.log import Record

PITDESK = str(Path(sys.executable).with_name("pitdesk"))
WRITER = str(Path(__file__).with_name("store_writer.py"))
T0 = datetime(2026, 11, 21, 14, 0)
TRIGGERS = {"events_no_update", "events_no_delete", "events_gapless"}


def env_for(home: Path) -> dict:
    return {**os.environ, "PITDESK_HOME": str(home)}


def cli(home: Path, *args: str) -> tuple[int, dict | None, str]:
    p = subprocess.run([PITDESK, *args], env=env_for(home), capture_output=True, text=True, timeout=120)
    return p.returncode, json.loads(p.stdout) if p.stdout.strip() else None, p.stderr


def verify_ok(home: Path, *args: str) -> dict:
    rc, out, err = cli(home, "audit", "verify", *args)
    assert rc == 0 and out["ok"] and out["first_bad"] is None, (rc, out, err)
    assert "Traceback" not in err
    return out


def first_bad(home: Path, *args: str) -> tuple[int, str, str]:
    """``audit verify`` must exit 1 and name the first bad row, in the JSON and on stderr."""
    rc, out, err = cli(home, "audit", "verify", *args)
    assert rc == 1 and out is not None and not out["ok"], (rc, out, err)
    bad = out["first_bad"]
    assert f"audit log does not verify: row {bad['seq']}: {bad['kind']}: {bad['detail']}" in err
    return bad["seq"], bad["kind"], bad["detail"]


def read_events(db: Path) -> list[tuple]:
    conn = sqlite3.connect(db.absolute().as_uri() + "?mode=ro", uri=True)
    try:
        return conn.execute("SELECT seq, time, table_id, type, actor, role, body, prev_hash, hash, hmac "
                            "FROM events ORDER BY seq").fetchall()
    finally:
        conn.close()


def check_log(db: Path, acked: dict[int, dict], seen: list[tuple] | None = None) -> int:
    """Gapless from 1, every acknowledged event there with the body its writer sent, and every
    row seen before (``seen``, updated in place) still there unchanged; the number of rows."""
    rows = read_events(db)
    if seen is not None:
        assert rows[:len(seen)] == seen, "a row seen before has changed or gone"
        seen[:] = rows
    seqs = [r[0] for r in rows]
    assert seqs == list(range(1, len(seqs) + 1)), "the log has a gap"
    for seq, a in acked.items():
        assert seq <= len(rows), f"acknowledged row {seq} is missing (the log ends at {len(rows)})"
        r = rows[seq - 1]
        assert r[6] == chain.body(seq, a["time"], a["table"], a["type"], a["actor"], a["role"], a["data"]), seq
        assert r[1:6] == (a["time"], a["table"], a["type"], a["actor"], a["role"]), seq
    return len(rows)


def record(i: int, marker: str = "", pad: int = 0) -> Record:
    t = T0 + timedelta(seconds=i)
    if i % 3 == 0:
        return Record("meter_reading", t, "fay", "floor supervisor", "T1",
                      {"cents": 1000 * i, "source": "controller", "marker": marker})
    return Record("note", t, "dee", "dealer", "T2", {"text": f"note {i}", "marker": marker, "pad": "x" * pad})


def as_acked(seq: int, r: Record) -> dict:
    return {"seq": seq, "time": r.time.isoformat(), "table": r.table, "type": r.type, "actor": r.actor,
            "role": r.role, "data": r.data}


class Writer:
    """tests/support/store_writer.py in its own process; its stdout lines collected as they come."""

    def __init__(self, db: Path, home: Path, seed: int, err: Path, count: int | None = None, *args: str):
        self.err = err
        with open(err, "ab") as e:
            self.p = subprocess.Popen([sys.executable, WRITER, str(db), str(seed)] + ([str(count)] if count else [])
                                      + list(args), stdout=subprocess.PIPE, stderr=e, env=env_for(home))
        self.lines: list[bytes] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for raw in self.p.stdout:
            self.lines.append(raw)

    def wait_lines(self, n: int, timeout: float = 20) -> None:
        deadline = time.monotonic() + timeout
        while len(self.lines) < n and self.p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.001)
        assert self.p.poll() is None, f"the writer ended by itself ({self.p.returncode}): {self.err.read_text()}"
        assert len(self.lines) >= n, "the writer is too slow"

    def kill(self) -> tuple[int, list[dict]]:
        self.p.send_signal(signal.SIGKILL)
        assert self.p.wait(timeout=20) == -signal.SIGKILL
        return self.finish()

    def finish(self) -> tuple[int, list[dict]]:
        self.reader.join(timeout=20)
        self.p.stdout.close()
        whole = [line for line in self.lines if line.endswith(b"\n")]  # a cut-off last line is no promise
        assert whole and whole[0].startswith(b"ready "), self.err.read_text()
        return int(whole[0].split()[1]), [json.loads(line) for line in whole[1:]]


def head_record(home: Path) -> dict:
    """The one head file in ``home`` (the tests' PITDESK_HOME), as JSON."""
    (path,) = (home / "heads").glob("*.json")
    return json.loads(path.read_text())


def head_reach(home: Path) -> int:
    """The highest row the head file speaks for (its pending head, if it has one)."""
    h = head_record(home)
    return max(h["seq"], (h.get("pending") or {}).get("seq", 0))


def cut_copy(db: Path, out: Path, first_gone: int) -> Path:
    """A copy of ``db`` that keeps its db_id (so its head file applies), with rows from
    ``first_gone`` on deleted, as someone hiding the tail would."""
    src = sqlite3.connect(db.absolute().as_uri() + "?mode=ro", uri=True)
    dst = sqlite3.connect(out)
    src.backup(dst)
    src.close()
    dst.close()
    with attacker(out) as conn:
        conn.execute("DELETE FROM events WHERE seq >= ?", (first_gone,))
    return out


@contextmanager
def attacker(db: Path, recreate: bool = True):
    """A plain connection to the file with the triggers dropped, as someone bypassing them would."""
    conn = sqlite3.connect(db, isolation_level=None)
    triggers = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"))
    assert set(triggers) == TRIGGERS
    for name in triggers:
        conn.execute(f"DROP TRIGGER {name}")
    try:
        yield conn
    finally:
        if recreate:
            for sql in triggers.values():
                conn.execute(sql)
        conn.close()
