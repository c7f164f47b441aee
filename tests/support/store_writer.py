"""A writer process for tests/store/test_store_log.py: append to an audit log until killed.

    python tests/support/store_writer.py DB SEED [COUNT]

Opens ``AuditLog(DB)`` (the key and head live in $PITDESK_HOME), prints ``ready SEQ`` with the
last sequence number it found, then appends in a loop: single ``append`` calls and
``append_many`` batches of 2 to 40 events, some of them meter readings (projected into a read
model), some with non-ASCII text and padding. Only after a call has returned does it print one
JSON line per acknowledged event, ``{"seq": ..., "time": ..., "table": ..., "type": ...,
"actor": ..., "role": ..., "data": ...}``, and flush, so a line on stdout is a promise that the
event is on disk. With COUNT it stops after that many events and closes the log (exit 0);
without, it runs until it is killed.

    python tests/support/store_writer.py DB SEED [COUNT] --crash-at POINT [--crash-batch N]

kills the process with SIGKILL at one step of its N-th batch of two rows or more (default the
third; rows from other processes do not count): ``before-intent`` (rows inserted, nothing
recorded), ``after-intent`` (the head recorded before COMMIT, not committed), ``after-commit``
(committed, the head not yet recorded as committed), ``after-head`` (recorded, no caller
answered yet). The subclass only adds the kill; every step is the real AuditLog's.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
from datetime import datetime, timedelta

from app.store.log import AuditLog, Record

T0 = datetime(2026, 11, 21, 14, 0)


def record(rng: random.Random, n: int) -> Record:
    t = T0 + timedelta(seconds=n, microseconds=rng.randrange(10**6))
    table = rng.choice(["T1", "T2", "T3", None])
    if rng.random() < 0.3 and table:
        return Record("meter_reading", t, "fay", "floor supervisor", table,
                      {"cents": rng.randrange(10**9), "source": "progressive controller", "n": n})
    data = {"n": n, "pid": os.getpid(), "nonce": rng.getrandbits(64), "text": rng.choice(["ok", "Ünïcødé ♠♥", "a\"b\\c"]),
            "pad": "x" * rng.randrange(0, 600)}
    return Record("note", t, rng.choice(["dee", "fay"]), rng.choice(["dealer", "floor supervisor"]), table, data)


def line(seq: int, r: Record) -> str:
    return json.dumps({"seq": seq, "time": r.time.isoformat(), "table": r.table, "type": r.type, "actor": r.actor,
                       "role": r.role, "data": r.data})


class CrashingLog(AuditLog):
    """An AuditLog that dies (SIGKILL, as from outside) at one step of one of its batches."""

    def __init__(self, db: str, point: str, batch: int):
        self.point, self.batch, self.batches = point, batch, 0
        super().__init__(db)

    def _die(self, point: str) -> None:
        if point == self.point and self.batches == self.batch:
            os.kill(os.getpid(), signal.SIGKILL)

    def _record_intent(self, conn, after, new):
        if new[0] - after[0] >= 2:
            self.batches += 1
        self._die("before-intent")
        super()._record_intent(conn, after, new)
        self._die("after-intent")

    def _record_committed(self, head):
        self._die("after-commit")
        super()._record_committed(head)
        self._die("after-head")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("seed", type=int)
    ap.add_argument("count", type=int, nargs="?")
    ap.add_argument("--crash-at", choices=("before-intent", "after-intent", "after-commit", "after-head"))
    ap.add_argument("--crash-batch", type=int, default=3)
    args = ap.parse_args()
    db, seed, count = args.db, args.seed, args.count
    rng = random.Random(seed)
    out = sys.stdout
    log = CrashingLog(db, args.crash_at, args.crash_batch) if args.crash_at else AuditLog(db)
    out.write(f"ready {log.seq}\n")
    out.flush()
    n = 0
    while count is None or n < count:
        if rng.random() < 0.5:
            r = record(rng, n)
            seqs, recs = [log.append(r.type, r.time, r.actor, r.role, r.table, r.data)], [r]
        else:
            k = rng.randrange(2, 41) if count is None else min(rng.randrange(2, 41), count - n)
            recs = [record(rng, n + i) for i in range(k)]
            seqs = log.append_many(recs)
        n += len(recs)
        out.write("".join(line(s, r) + "\n" for s, r in zip(seqs, recs)))
        out.flush()
    log.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
