"""Benchmark: how often game protection speaks up on calm play, and whether it finds planted top
awards (issue 36, "Calibrated, not guessed"; app/workstation/protection.py, docs/protection.md).

Many simulated shifts (``pitdesk simulate shift``, every hand dealt from a shuffled deck), each
into its own log with its own seed, side by side; then ``pitdesk protect``'s checks over each:
per wager type, how many checks (a table's shift and wager type, in sigmas) and how many of them
reached |z| >= the threshold, beside the 0.27% a normal sum would give at 3; and how many counts
of top awards were notices. ``--plant`` runs the same shifts with rare hands planted now and then
(``simulate shift --plant``: a cold deck's top awards), to show how many planted table-shifts
are found.

    .venv/bin/python bench/protection_bench.py [--shifts 40 --tables 3 --rounds 200 --workers 2]
                                               [--threshold 3] [--plant] [--json FILE]

Prints a Markdown table; record it in docs/benchmarks.md. Speed and rates are never asserted in tests."""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sqlite3
import sys
import tempfile
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.engine.dispersion import normal_tail  # noqa: E402
from app.workstation.protection import award_checks, table_checks  # noqa: E402

START = datetime(2026, 11, 21, 16, 0)


def one_shift(args: tuple) -> tuple[list, list]:
    """A shift simulated into ``db``, then its checks: (sigma checks, top-award counts) as plain rows."""
    db, home, tables, rounds, seed, plant, threshold = args
    os.environ["PITDESK_HOME"] = home
    from app.simulate import run_shift
    run_shift(db, tables, rounds, START, seed, plant=plant)
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        end = START + timedelta(days=1)
        sigmas = [(c.wager, c.z, c.notice(threshold), c.table) for c in table_checks(conn, START, end)]
        awards = [(a.wager, a.hits, float(a.expected), a.notice(threshold), a.table) for a in award_checks(conn, START, end)]
    finally:
        conn.close()
    return sigmas, awards


def interval(k: int, n: int) -> str:
    """k of n as a rate with its 95% Wilson interval."""
    if n == 0:
        return "—"
    z = 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return f"{100 * p:.2f}% ({100 * max(0.0, centre - half):.2f}-{100 * min(1.0, centre + half):.2f}%)"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shifts", type=int, default=40)
    ap.add_argument("--tables", type=int, default=3)
    ap.add_argument("--rounds", type=int, default=200)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=5000)
    ap.add_argument("--threshold", type=float, default=3.0)
    ap.add_argument("--plant", action="store_true")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args()
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pitdesk-protection-") as tmp:
        home = str(Path(tmp) / "home")
        Path(home).mkdir()
        os.environ["PITDESK_HOME"] = home
        from app.store import paths
        paths.install_key()   # one install key, made before the workers race to make it
        jobs = [(str(Path(tmp) / f"shift-{k}.db"), home, args.tables, args.rounds, args.seed + k, args.plant,
                 args.threshold) for k in range(args.shifts)]
        with ProcessPoolExecutor(args.workers) as pool:
            results = list(pool.map(one_shift, jobs))
    took = time.perf_counter() - began
    by = defaultdict(lambda: [0, 0, 0.0, 0.0])       # checks, notices, sum z, sum z^2
    awards = defaultdict(lambda: [0, 0, 0, 0.0])     # counts, notices, hits, expected
    found_tables = 0
    for sigmas, counts in results:
        flagged = set()
        for w, z, notice, t in sigmas:
            b = by[w]
            b[0] += 1
            b[1] += notice
            b[2] += z
            b[3] += z * z
            if notice:
                flagged.add(t)
        for w, hits, lam, notice, t in counts:
            a = awards[w]
            a[0] += 1
            a[1] += notice
            a[2] += hits
            a[3] += lam
            if notice:
                flagged.add(t)
        found_tables += len(flagged)
    table_shifts = args.shifts * args.tables
    expected = 2 * normal_tail(args.threshold)
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}; {args.shifts} shifts x {args.tables} tables x {args.rounds} rounds"
          f"{' with rare hands planted' if args.plant else ''}, |z| >= {args.threshold:g} "
          f"(a normal sum: {100 * expected:.2f}%), {took:.0f} s")
    print("| wager | checks | notices | rate (95% interval) | mean z | sd of z |\n|---|---:|---:|---:|---:|---:|")
    rows = []
    for w, (n, k, s1, s2) in sorted(by.items()):
        mean = s1 / n
        sd = math.sqrt(max(0.0, s2 / n - mean * mean))
        rows.append({"wager": w, "checks": n, "notices": k, "mean_z": mean, "sd_z": sd})
        print(f"| {w} | {n} | {k} | {interval(k, n)} | {mean:+.3f} | {sd:.3f} |")
    n, k = sum(r["checks"] for r in rows), sum(r["notices"] for r in rows)
    print(f"| all | {n} | {k} | {interval(k, n)} | | |")
    print("\n| top awards of | counts | notices | hits | expected hits |\n|---|---:|---:|---:|---:|")
    for w, (n_, k_, h, lam) in sorted(awards.items()):
        print(f"| {w} | {n_} | {k_} | {h} | {lam:.3f} |")
    print(f"\ntable-shifts with any notice: {found_tables} of {table_shifts} ({interval(found_tables, table_shifts)})")
    if args.json:
        args.json.write_text(json.dumps({"args": vars(args) | {"json": str(args.json)}, "wagers": rows,
                                         "awards": {w: v for w, v in awards.items()},
                                         "table_shifts_found": found_tables, "table_shifts": table_shifts},
                                        indent=2, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
