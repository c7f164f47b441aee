"""Benchmark: a workstation's log shipped to the casino's PostgreSQL and verified there (issue 28).

A log of N events (a million by default) written by the store's own writer, a real server
started as the tests start one (tests/support/pg.py: Debian's postgresql, in a temporary folder),
migrated by its owner role; then, timed once each (time.perf_counter):

1. ``shipping.ship`` of the whole log as the shipping role (binary COPY, 2,000 rows a
   transaction, every row checked by the server's trigger as it arrives): events per second;
2. ``floor_check.verify_floor`` without a key (the server walks the chain in one query) and with
   the workstation's key (the seals checked here as the rows stream by).

    .venv/bin/python bench/casino_bench.py [--events N]

Prints a Markdown table; record it in docs/benchmarks.md. Speed is never asserted in tests."""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.store import paths  # noqa: E402
from app.store.log import AuditLog, Record  # noqa: E402
from app.store.pg import floor_check, shipping  # noqa: E402
from tests.support.casino import register  # noqa: E402
from tests.support.pg import AUDITOR, SHIPPER, Server, bin_dir  # noqa: E402

T0 = datetime(2026, 11, 21, 14, 0)


def make_log(db: Path, events: int) -> None:
    """Rows of a busy floor's kinds and sizes (a meter reading, a note), 10,000 an append."""
    with AuditLog(db) as lg:
        for k in range(0, events, 10_000):
            lg.append_many([Record("meter_reading", T0 + timedelta(seconds=i), "fay", "floor supervisor", f"T{i % 40}",
                                   {"cents": 1000 * i, "source": "controller"}) if i % 3 == 0 else
                            Record("note", T0 + timedelta(seconds=i), "dee", "dealer", f"T{i % 40}",
                                   {"text": f"note {i}"}) for i in range(k, min(events, k + 10_000))])


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--events", type=int, default=1_000_000)
    args = ap.parse_args()
    bins = bin_dir()
    if bins is None:
        print("no PostgreSQL server installed (installer/postgres.sh)", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="pitdesk-casino-bench-"))
    os.environ["PITDESK_HOME"] = str(folder / "home")
    db = folder / "pitdesk.db"
    t = time.perf_counter()
    make_log(db, args.events)
    made = time.perf_counter() - t
    ws = shipping.workstation_id(db)
    server = Server(bins)
    rows = []
    try:
        server.start()
        server.roles()
        name = server.casino()
        register(server.url(SHIPPER, name), db)   # the casino's owner registers the workstation
        t = time.perf_counter()
        out = shipping.ship(db, server.url(SHIPPER, name))
        dt = time.perf_counter() - t
        assert out.shipped == args.events and out.refused is None
        rows.append(("ship", f"{args.events:,} events, 2,000 a transaction", f"{dt:.1f} s",
                     f"{args.events / dt:,.0f} events/s"))
        t = time.perf_counter()
        held = floor_check.verify_floor(server.url(AUDITOR, name))
        dt = time.perf_counter() - t
        assert held[0].ok and held[0].rows == args.events
        rows.append(("floor verify", "the chain, in the server", f"{dt:.1f} s", f"{args.events / dt:,.0f} rows/s"))
        t = time.perf_counter()
        held = floor_check.verify_floor(server.url(AUDITOR, name), {ws: paths.install_key(create=False)})
        dt = time.perf_counter() - t
        assert held[0].ok and held[0].seals == "checked"
        rows.append(("floor verify --key", "the chain, and the seals here", f"{dt:.1f} s",
                     f"{args.events / dt:,.0f} rows/s"))
        size = server.sql("SELECT pg_size_pretty(pg_total_relation_size('pitdesk.events'))", name).strip()
    finally:
        server.remove()
        shutil.rmtree(folder, ignore_errors=True)
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, PostgreSQL {bins.parent.name}; local log made in {made:.1f} s; "
          f"pitdesk.events {size}")
    print("| benchmark | what | time | rate |\n|---|---|---:|---:|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
