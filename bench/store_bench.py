"""Benchmark: the audit store (issue 5) on real files, with WAL and synchronous=FULL.

Every append is durable: the batch's head recorded outside the database before its COMMIT and
again after it (each fsynced with its folder), the commit itself with synchronous=FULL.

1. Durable batched appends: ``append_many`` of 100 events per call from one thread, and from
   eight threads at once (the writer folds whatever is queued into one transaction). Goal:
   at least 2,000 events/s.
2. Durable single appends from 16 threads at once (group commit only).
3. Single-event commit latency: 2,000 ``append`` calls one after the other, each answered only
   after its commit is on disk. Goal: p99 <= 20 ms.
4. ``audit verify`` (``app.store.audit.verify_db``, the function behind the command) of one
   million events, checked against the recorded head, the chain alone and with its read models
   derived and compared (issue 26); and the command itself, ``pitdesk audit verify --db``, in a
   process of its own, with its peak memory (the process's maximum resident set). Goal (issue
   26): within 3 s and 100 MB with the read models. The chain is walked over one worker
   process a core (app/store/walk.py), so the seconds depend on what else the machine runs;
   the command's CPU seconds (all its processes) are given beside them. The million-row
   fixture is written directly with ``app.store.chain`` in one transaction (triggers on), not
   through the writer thread, and its read models projected from it
   (``read_models.project_all``) in the same transaction.

Run alone: ``.venv/bin/python bench/store_bench.py [--verify-rows N]``; also part of ``make bench``.
Everything lives in a temporary directory (PITDESK_HOME points there for the run).
"""

from __future__ import annotations

import argparse
import os
import random
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from datetime import datetime, timedelta
from pathlib import Path

from app.store import audit, chain, heads, paths
from app.store.log import AuditLog, Record
from app.store.read_models import project_all

GOALS = {
    "store_batched_append": ">= 2,000 events/s",
    "store_commit_latency": "p99 <= 20 ms",
    "store_verify_1m": "1,000,000 events with read models within 3 s, 100 MB (issue 26)",
}
T0 = datetime(2026, 11, 21, 14, 0)


@contextmanager
def scratch():
    """A temporary directory that is also PITDESK_HOME (key and heads) for the duration."""
    old = os.environ.get("PITDESK_HOME")
    with tempfile.TemporaryDirectory(prefix="pitdesk-bench-") as d:
        os.environ["PITDESK_HOME"] = str(Path(d) / "home")
        try:
            yield Path(d)
        finally:
            if old is None:
                os.environ.pop("PITDESK_HOME", None)
            else:
                os.environ["PITDESK_HOME"] = old


def event(i: int, rng: random.Random) -> Record:
    """A meter reading (projected into a read model) or a plain note, ~200 bytes of body."""
    t = T0 + timedelta(seconds=i)
    if i % 2:
        return Record("meter_reading", t, "fay", "floor supervisor", f"T{i % 12 + 1}",
                      {"cents": rng.randrange(10**9), "source": "progressive controller"})
    return Record("note", t, "dee", "dealer", f"T{i % 12 + 1}",
                  {"text": f"note {i}", "seat": rng.randrange(1, 7), "ref": rng.randrange(10**6)})


def _timed_threads(log: AuditLog, work_of: list[list[list[Record]]]) -> float:
    """One thread per list of calls, all released at once: seconds until the last is done."""
    start = threading.Barrier(len(work_of) + 1)

    def work(calls):
        start.wait()
        for records in calls:
            log.append_many(records)

    ts = [threading.Thread(target=work, args=(calls,)) for calls in work_of]
    for t in ts:
        t.start()
    start.wait()
    t0 = time.perf_counter()
    for t in ts:
        t.join()
    return time.perf_counter() - t0


def batched(threads: int, calls_per_thread: int, per_call: int = 100) -> dict:
    rng = random.Random(5)
    with scratch() as d, AuditLog(d / "audit.db") as log:
        log.append_many([event(i, rng) for i in range(per_call)])  # warm up: schema, key, head file
        batches = [[[event(i, rng) for i in range(per_call)] for _ in range(calls_per_thread)]
                   for _ in range(threads)]
        dt = _timed_threads(log, batches)
        n = threads * calls_per_thread * per_call
        assert log.seq == n + per_call, "lost events"
        commits = log.query("SELECT COUNT(*) AS n FROM events")[0]["n"]
    return {"events": n, "seconds": dt, "rate": n / dt, "rows": commits}


def single_threads(threads: int, per_thread: int) -> dict:
    rng = random.Random(6)
    with scratch() as d, AuditLog(d / "audit.db") as log:
        log.append("note", T0, "dee", "dealer")
        recs = [[event(i, rng) for i in range(per_thread)] for _ in range(threads)]
        dt = _timed_threads(log, [[[r] for r in mine] for mine in recs])
    n = threads * per_thread
    return {"events": n, "seconds": dt, "rate": n / dt}


def latency(samples: int = 2000) -> dict:
    rng = random.Random(7)
    with scratch() as d, AuditLog(d / "audit.db") as log:
        log.append("note", T0, "dee", "dealer")
        recs = [event(i, rng) for i in range(samples)]
        ms = []
        for r in recs:
            t0 = time.perf_counter()
            log.append_many([r])
            ms.append((time.perf_counter() - t0) * 1000)
    ms.sort()
    q = statistics.quantiles(ms, n=100, method="inclusive")
    return {"samples": samples, "p50": statistics.median(ms), "p99": q[98], "max": ms[-1],
            "rate": 1000 / statistics.mean(ms)}


def build_log(db: Path, rows: int, key: bytes, chunk: int = 50_000) -> None:
    """A log of ``rows`` events written straight into the file with the chain functions, in one
    transaction (the triggers stay on, so every row is still checked as it goes in), and the
    head recorded outside it as the writer would."""
    with AuditLog(db, key=key):  # schema, meta, and the head file's location
        pass
    rng = random.Random(8)
    conn = sqlite3.connect(db, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("BEGIN IMMEDIATE")
    head, seq = chain.GENESIS, 0
    types = (("meter_reading", "fay", "floor supervisor"), ("note", "dee", "dealer"),
             ("sign_in", "pat", "pit manager"))
    while seq < rows:
        out = []
        for _ in range(min(chunk, rows - seq)):
            seq += 1
            type_, actor, role = types[seq % 3]
            t = (T0 + timedelta(seconds=seq)).isoformat()
            table = f"T{seq % 12 + 1}" if type_ != "sign_in" else None
            data = {"cents": rng.randrange(10**9), "source": "progressive controller"} if seq % 3 == 0 else \
                {"text": f"note {seq}", "seat": seq % 7}
            body = chain.body(seq, t, table, type_, actor, role, data)
            h = chain.link(head, body)
            out.append((seq, t, table, type_, actor, role, body, head, h, chain.seal(key, h)))
            head = h
        conn.executemany("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", out)
    project_all(conn)  # the read models, as the writer would have left them
    conn.execute("COMMIT")
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db_id = conn.execute("SELECT value FROM meta WHERE key = 'db_id'").fetchone()[0]
    conn.close()
    heads.record_committed(paths.head_file(db_id), key, db_id, (seq, head))


def _verify_best(db: Path, key: bytes, rows: int, read_models: bool) -> float:
    best = float("inf")
    for _ in range(2):
        t0 = time.perf_counter()
        rep = audit.verify_db(db, key, read_models=read_models)
        best = min(best, time.perf_counter() - t0)
        assert rep.ok and rep.rows == rows and rep.head_checked, rep.as_json()
    return best


def _command(db: Path) -> tuple[float, float, float]:
    """``pitdesk audit verify --db`` in a process of its own: seconds, the peak RSS in MiB of the
    largest of its processes (it walks the chain in worker processes, app/store/walk.py), and
    the CPU seconds of them all (a machine that other work shares shows it in the seconds, not
    in the CPU seconds)."""
    code = ("import resource, subprocess, sys, time; t0 = time.perf_counter(); "
            "p = subprocess.run([sys.argv[1], 'audit', 'verify', '--db', sys.argv[2]], capture_output=True); "
            "dt = time.perf_counter() - t0; assert p.returncode == 0, p.stderr; "
            "r = resource.getrusage(resource.RUSAGE_CHILDREN); print(dt, r.ru_maxrss / 1024, r.ru_utime + r.ru_stime)")
    pitdesk = str(Path(sys.executable).with_name("pitdesk"))
    out = subprocess.run([sys.executable, "-c", code, pitdesk, str(db)], capture_output=True, text=True, check=True)
    seconds, mib, cpu = out.stdout.split()
    return float(seconds), float(mib), float(cpu)


def verify(rows: int = 1_000_000) -> dict:
    with scratch() as d:
        key = paths.install_key()
        db = d / "audit.db"
        t0 = time.perf_counter()
        build_log(db, rows, key)
        built = time.perf_counter() - t0
        size = db.stat().st_size
        chain_only = _verify_best(db, key, rows, False)
        best = _verify_best(db, key, rows, True)
        cmd_s, cmd_mib, cmd_cpu = min(_command(db) for _ in range(2))
    return {"rows": rows, "seconds": best, "rate": rows / best, "build_seconds": built, "mb": size / 2**20,
            "chain_seconds": chain_only, "command_seconds": cmd_s, "command_mib": cmd_mib, "command_cpu": cmd_cpu,
            "load": os.getloadavg()[0]}


def run(verify_rows: int = 1_000_000) -> list[tuple[str, str, float, str]]:
    """Rows for run_all: (benchmark, what, events/s, note)."""
    out = []
    b1 = batched(1, 200)
    out.append(("store_batched_append", "append_many of 100 events, 1 thread, 20,000 events", b1["rate"],
                f"{b1['seconds']:.2f} s"))
    b8 = batched(8, 25)
    out.append(("store_batched_append", "append_many of 100 events, 8 threads at once, 20,000 events", b8["rate"],
                f"{b8['seconds']:.2f} s"))
    s16 = single_threads(16, 200)
    out.append(("store_single_threads", "append of 1 event, 16 threads at once, 3,200 events", s16["rate"],
                f"{s16['seconds']:.2f} s (group commit)"))
    lat = latency(2000)
    out.append(("store_commit_latency", "append of 1 event, one after the other, 2,000 samples", lat["rate"],
                f"p50 {lat['p50']:.2f} ms, p99 {lat['p99']:.2f} ms, max {lat['max']:.2f} ms"))
    v = verify(verify_rows)
    out.append(("store_verify_1m" if verify_rows == 1_000_000 else "store_verify",
                f"audit verify_db of {v['rows']:,} events ({v['mb']:.0f} MiB file), against the head file, "
                "read models derived and compared", v["rate"],
                f"{v['seconds']:.2f} s (the chain alone {v['chain_seconds']:.2f} s); the command "
                f"{v['command_seconds']:.2f} s ({v['command_cpu']:.1f} CPU s over its processes), peak "
                f"{v['command_mib']:.0f} MiB (fixture built in {v['build_seconds']:.1f} s; load average "
                f"{v['load']:.1f})"))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--verify-rows", type=int, default=1_000_000)
    args = ap.parse_args()
    print("| benchmark | what | events/s | note | goal |")
    print("|---|---|---:|---|---|")
    for key, what, rate, note in run(args.verify_rows):
        print(f"| {key} | {what} | {rate:,.0f} | {note} | {GOALS.get(key, '')} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
