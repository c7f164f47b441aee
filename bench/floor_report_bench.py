"""Benchmark: the floor's shift report from the casino's PostgreSQL (issue 28).

P pits, each its own workstation's log of a simulated swing shift (``pitdesk simulate shift``:
T tables, R rounds each), shipped to a real server started as the tests start one
(tests/support/pg.py); then, each timed once as a person runs it (the command in a process of
its own, time.perf_counter around it):

1. ``pitdesk report shift --pg URL --json``: every pit's report rebuilt from the server and the
   floor's sum;
2. ``pitdesk report shift --pg URL --out floor.pdf``: the same, drawn, written and recorded;
3. ``pitdesk hold --pg URL --json``: every pit's hold and the floor's;
4. ``pitdesk floor verify --pg URL --json``: the server's check of every chain, which each of
   the three runs first since issue 35 (finding 1 on the server): its share of their times.

    .venv/bin/python bench/floor_report_bench.py [--pits P] [--tables T] [--rounds R]

Prints a Markdown table; record it in docs/benchmarks.md. Speed is never asserted in tests."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.casino_runs import casino, print_table, run  # noqa: E402
from tests.support.casino import register  # noqa: E402
from tests.support.pg import AUDITOR, SHIPPER  # noqa: E402
from tests.support.simulated_shift import simulate  # noqa: E402

START = datetime(2026, 11, 21, 16, 0)      # the swing shift


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pits", type=int, default=5)
    ap.add_argument("--tables", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=200)
    args = ap.parse_args()
    rows = []
    with casino("pitdesk-floor-report-bench-") as (bins, folder, server, name):
        events = 0
        for n in range(args.pits):
            d = folder / f"pit{n}"
            simulate(d / "log.db", d / "home", args.tables, args.rounds, START, 100 + n)
            register(server.url(SHIPPER, name), d / "log.db", f"Pit {n + 1}")   # the owner registers it
            _, shipped = run("ship", "--db", str(d / "log.db"), "--to", server.url(SHIPPER, name))
            events += shipped["shipped"]
        shift = ("--pg", server.url(AUDITOR, name), "--date", f"{START:%Y-%m-%d}", "--shift", "swing")
        dt, floor = run("report", "shift", *shift, "--json")
        what = (f"{args.pits} pits x {args.tables} tables x {args.rounds} rounds "
                f"({floor['floor']['rounds']:,} rounds, {events:,} events on the server)")
        rows.append(("report shift --pg --json", what, f"{dt:.1f} s"))
        dt, made = run("report", "shift", *shift, "--out", str(folder / "floor.pdf"))
        size = (folder / "floor.pdf").stat().st_size
        rows.append(("report shift --pg --out", f"the same, {made['pages']} pages, {size / 1e6:.1f} MB", f"{dt:.1f} s"))
        dt, _ = run("hold", "--pg", server.url(AUDITOR, name), "--json")
        rows.append(("hold --pg --json", "the same server, every row", f"{dt:.1f} s"))
        dt, _ = run("floor", "verify", "--pg", server.url(AUDITOR, name), "--json")
        rows.append(("floor verify --pg --json", "the check each of the above runs first", f"{dt:.1f} s"))
    print_table(rows, bins)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
