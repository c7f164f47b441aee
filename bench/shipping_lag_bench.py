"""Benchmark: the lag of 40 tables at full play, shipped in the background (issue 28).

A writer appends the rows 40 tables make at full play to a log, a batch every 100 ms as the
workstation's pump does, while the workstation's background shipper (app/workstation/shipper.py,
``[shipping]`` with ``every_seconds``) ships it to a real server started as the tests start one
(tests/support/pg.py). A sampler looks at the shipper every 20 ms: each row's lag is the time
from its append to the first look that finds the server holding it; the lag in rows is the log's
last row less the server's, at each look.

Full play: ``--rounds-per-hour`` rounds at each table (60: a fast dealer; the demo's pace is 30
to 36) of ``--rows-per-round`` rows (25: the simulated shift logs 14 a settled round with the
table's openings, alarms and sign-ins, `pitdesk simulate shift --tables 4 --rounds 40`; a
card-reading shuffler adds its 7 reads, the progressive controller and the devices' states a few
more). ``--times K`` plays K floors' worth at once (headroom).

    .venv/bin/python bench/shipping_lag_bench.py [--tables 40] [--seconds 120] [--every 5] [--times 1]

Prints a Markdown row; record it in docs/benchmarks.md. Speed is never asserted in tests."""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import sys
import tempfile
import threading
import time
from datetime import datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.store.log import AuditLog, Record  # noqa: E402
from app.workstation.config import ShippingSetup  # noqa: E402
from app.workstation.shipper import Shipper  # noqa: E402
from tests.support.casino import register  # noqa: E402
from tests.support.pg import SHIPPER, Server, bin_dir  # noqa: E402

TICK = 0.1       # the writer's batch, as the pump's
LOOK = 0.02      # the sampler's


def row(i: int, tables: int) -> Record:
    t = f"T{i % tables + 1}"
    if i % 3 == 0:
        return Record("meter_reading", datetime.now(), "PRG-1", "device", t, {"cents": 1000 * i, "source": "controller"})
    return Record("note", datetime.now(), "dee", "dealer", t, {"text": f"row {i} of a round"})


def pct(xs: list[float], p: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))] if xs else 0.0


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=40)
    ap.add_argument("--rounds-per-hour", type=float, default=60)
    ap.add_argument("--rows-per-round", type=float, default=25)
    ap.add_argument("--times", type=float, default=1)
    ap.add_argument("--seconds", type=float, default=120)
    ap.add_argument("--every", type=float, default=5.0, help="[shipping] every_seconds")
    ap.add_argument("--outage", type=float, default=0, metavar="S",
                    help="the server stopped for S seconds a third of the way in, then started again")
    args = ap.parse_args()
    bins = bin_dir()
    if bins is None:
        print("no PostgreSQL server installed (installer/postgres.sh)", file=sys.stderr)
        return 2
    rate = args.tables * args.rounds_per_hour * args.rows_per_round / 3600 * args.times   # rows a second
    folder = Path(tempfile.mkdtemp(prefix="pitdesk-lag-bench-"))
    os.environ["PITDESK_HOME"] = str(folder / "home")
    db = folder / "pitdesk.db"
    server = Server(bins)
    appended: dict[int, float] = {}     # seq -> when appended (monotonic)
    lags: list[float] = []              # each row's, seconds
    behind: list[int] = []              # rows the server lacked, at each look
    done = threading.Event()
    try:
        server.start()
        server.roles()
        name = server.casino()
        log = AuditLog(db)
        log.append_many([row(0, args.tables)])
        appended[1] = time.monotonic()
        register(server.url(SHIPPER, name), db)   # the casino's owner registers the workstation
        shipper = Shipper(ShippingSetup(server.url(SHIPPER, name), args.every, None, None), db)

        def sample() -> None:
            seen = 0
            while not done.is_set():
                now, held, head = time.monotonic(), shipper.state.shipped, max(appended)
                for seq in range(seen + 1, held + 1):
                    lags.append(now - appended[seq])
                seen = max(seen, held)
                behind.append(head - held)
                time.sleep(LOOK)

        sampler = threading.Thread(target=sample, name="sampler")
        shipper.start()
        sampler.start()
        start, owed, i, ticks = time.monotonic(), 0.0, 1, 0
        down = up = caught = None     # the outage: stopped, started again (its last row then), caught up
        while time.monotonic() - start < args.seconds:
            ticks += 1
            if args.outage and down is None and time.monotonic() - start >= args.seconds / 3:
                server.stop("fast")
                down = time.monotonic()
            if down is not None and up is None and time.monotonic() - down >= args.outage:
                server.start()
                up = (time.monotonic(), max(appended))
            if up is not None and caught is None and shipper.state.shipped >= up[1]:
                caught = time.monotonic() - up[0]
            owed += rate * TICK
            n, owed = int(owed), owed - int(owed)
            if n:
                seqs = log.append_many([row(i + k, args.tables) for k in range(n)])
                at = time.monotonic()
                appended.update((s, at) for s in seqs)
                i += n
            time.sleep(max(0.0, start + ticks * TICK - time.monotonic()))
        written = time.monotonic() - start
        end = time.monotonic() + 120
        while shipper.state.shipped < max(appended) and time.monotonic() < end:
            time.sleep(LOOK)
        time.sleep(2 * LOOK)
        done.set()
        sampler.join()
        shipper.stop()
        log.close()
        state = shipper.state
    finally:
        server.remove()
        shutil.rmtree(folder, ignore_errors=True)
    rows = max(appended)
    if args.outage:
        print(f"outage: the server stopped {args.outage:g} s; started again with {up[1]:,} rows logged, all of them "
              f"on the server {caught:.2f} s later" if caught is not None else "outage: never caught up")
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), platform.machine()) if Path("/proc/cpuinfo").exists() else ""
    print(f"machine: {cpu}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, PostgreSQL {bins.parent.name}; load average {os.getloadavg()[0]:.2f}")
    print(f"{rows:,} rows in {written:.0f} s ({rows / written:,.1f} rows/s asked {rate:,.1f}); shipper runs "
          f"{state.runs}, last error {state.error or 'none'}; every row arrived: {len(lags) == rows}")
    print("| tables x pace | rows/s | every_seconds | lag p50 | lag p99 | lag max | rows behind p50 | p99 | max |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    print(f"| {args.tables} x {args.rounds_per_hour:g} rounds/h x {args.rows_per_round:g} rows"
          f"{f' x {args.times:g}' if args.times != 1 else ''} | {rate:,.1f} | {args.every:g} | "
          f"{statistics.median(lags):.2f} s | {pct(lags, 99):.2f} s | {max(lags):.2f} s | "
          f"{statistics.median(behind):,.0f} | {pct(behind, 99):,.0f} | {max(behind):,} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
