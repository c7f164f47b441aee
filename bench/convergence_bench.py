"""Benchmark: a simulated day's hold per wager type converges on the theoretical (issue 25, "The
demo floor is a believable pit"). Checked here, never in a test: it takes minutes.

``pitdesk simulate shift`` without planted hands deals every hand from a shuffled deck, so over
many rounds each side wager's actual hold (the house's net over what was wagered, as the hold
reads the log: app/workstation/hold.py) must come within its 95% interval of the exact figure the
engine prices for the same wagers at the same stakes (app/workstation/theoretical.py, from the
enumeration in resources/analysis/enumeration.json). The interval is the sampling error of the
actual hold: ``theoretical +- 1.96 * sqrt(sum of each wager's variance) / wagered``, each wager's
variance exact from the pay table's line probabilities at its stake (a toke bet's win capped at
$500, 003 GENERAL RULES 6; an additional wager's one number in seven, 000(p)).

The shifts run side by side (``--workers`` processes), each into its own database with its own
seed, and the pit's lines of every shift are added up. Where the theoretical is not comparable
with the hold as it is counted it is shown and not judged:
- the progressive: the theoretical is priced at the minimum reset meter without the rate of
  progression (docs/analysis.md), while the hold counts what went to the meter (000(q)(5), (6));
- the base game, the dealer's wager: an estimate with its own interval (app/analysis/estimate.py);
- the player bank, envy: not priced.

``--plant`` runs the same shifts with planted rare hands, to show what a planted shift's hold is
worth (nothing). Run: ``.venv/bin/python bench/convergence_bench.py [--shifts 4 --tables 30
--rounds 250 --workers 2] [--json FILE]``; it prints a Markdown table and, with ``--json``, writes
the figures. Exit status 0 when every judged wager is within its interval, 1 otherwise.
"""

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
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.workstation.hold import HoldLine, hold  # noqa: E402
from app.workstation.theoretical import EXACT  # noqa: E402

START = datetime(2026, 11, 21, 8, 0)
Z95 = 1.959963984540054
JUDGED = ("fortune", "fortune_toke", "insurance", "three_card", "seven_card", "ace_high", "additional",
          "collection_fee")


def one_shift(args: tuple) -> dict:
    """``run_shift`` into ``db``: its summary."""
    db, home, tables, rounds, seed, plant = args
    os.environ["PITDESK_HOME"] = home
    from app.simulate import run_shift
    return run_shift(db, tables, rounds, START, seed, plant=plant)


def read(db: str, home: str) -> tuple[dict[str, HoldLine], dict[str, Fraction], int]:
    """The pit's hold lines of ``db``, each judged wager's variance (cents squared: the hold's own
    expectation carries it, app/workstation/theoretical.py ``Expectation.variance``), its rounds."""
    os.environ["PITDESK_HOME"] = home
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        report = hold(conn)
    finally:
        conn.close()
    variance = {ln.wager: ln.expected.variance() for ln in report.pit
                if ln.wager in JUDGED and ln.expected is not None and not ln.unpriced}
    return {ln.wager: ln for ln in report.pit}, variance, report.rounds


def judge(lines: dict[str, HoldLine], variance: dict[str, Fraction]) -> list[dict]:
    out = []
    for w, ln in lines.items():
        th = ln.theoretical
        row = {"wager": w, "wagered_cents": ln.wagered, "house_net_cents": ln.house_net,
               "actual_hold": float(ln.actual_hold) if ln.actual_hold is not None else None,
               "theoretical_hold": float(th.hold) if th else None, "basis": th.basis if th else None}
        if th is not None and th.basis == EXACT and w in variance:
            half = Z95 * math.sqrt(variance[w]) / ln.wagered
            row["interval_95"] = [float(th.hold) - half, float(th.hold) + half]
            row["z"] = float(ln.actual_hold - th.hold) / (half / Z95) if half else 0.0
            row["within"] = abs(float(ln.actual_hold - th.hold)) <= half + 1e-12
        elif th is not None and th.interval is not None:
            row["interval_95"] = list(th.interval)
        out.append(row)
    return out


def pct(x: float | None, places: int = 2) -> str:
    return "—" if x is None else f"{x * 100:.{places}f}%"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shifts", type=int, default=4, help="simulated shifts, each its own seed (default 4)")
    ap.add_argument("--tables", type=int, default=30, help="tables a shift (default 30: five a profile)")
    ap.add_argument("--rounds", type=int, default=250, help="settled rounds a table (default 250)")
    ap.add_argument("--workers", type=int, default=2, help="shifts simulated at once (default 2)")
    ap.add_argument("--seed", type=int, default=100, help="the first shift's seed (default 100)")
    ap.add_argument("--plant", action="store_true", help="plant rare hands (pitdesk simulate shift --plant)")
    ap.add_argument("--json", metavar="FILE", help="write the figures to FILE")
    args = ap.parse_args()
    began = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="pitdesk-convergence-") as tmp:
        jobs = [(str(Path(tmp) / f"shift-{k}.db"), str(Path(tmp) / "home"), args.tables, args.rounds,
                 args.seed + k, args.plant) for k in range(args.shifts)]
        Path(jobs[0][1]).mkdir()
        os.environ["PITDESK_HOME"] = jobs[0][1]
        from app.store import paths
        paths.install_key()   # one install key, made before the workers race to make it
        with ProcessPoolExecutor(args.workers) as pool:
            summaries = list(pool.map(one_shift, jobs))
        simulated = time.perf_counter() - began
        lines: dict[str, HoldLine] = {}
        variance: dict[str, Fraction] = {}
        rounds = 0
        for db, home, *_ in jobs:
            ls, var, n = read(db, home)
            rounds += n
            for w, ln in ls.items():
                lines.setdefault(w, HoldLine(w, expected=None)).add(ln)
            for w, v in var.items():
                variance[w] = variance.get(w, Fraction(0)) + v
    rows = judge(lines, variance)
    events = sum(s["events"] for s in summaries)
    result = {
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
                   f"{platform.python_version()}, {platform.system()}",
        "command": " ".join(["bench/convergence_bench.py", *sys.argv[1:]]),
        "shifts": args.shifts, "tables": args.tables, "rounds_per_table": args.rounds, "plant": args.plant,
        "rounds": rounds, "events": events, "plants": sum(s["plants"] for s in summaries),
        "simulate_seconds": round(simulated, 1), "total_seconds": round(time.perf_counter() - began, 1),
        "rows_per_second": round(events / simulated), "wagers": rows,
    }
    print(f"{rounds:,} rounds, {events:,} rows in {simulated:.0f} s ({result['rows_per_second']:,} rows/s over "
          f"{args.workers} workers){', planted: ' + str(result['plants']) if args.plant else ''}\n")
    print("| wager | wagered | actual hold | theoretical | 95% interval | z | within |")
    print("|---|---:|---:|---:|---|---:|---|")
    for r in rows:
        iv = r.get("interval_95")
        print(f"| {r['wager']} | ${r['wagered_cents'] / 100:,.0f} | {pct(r['actual_hold'])} | "
              f"{pct(r['theoretical_hold'], 3)}{' est.' if r['basis'] == 'estimate' else ''} | "
              f"{f'{pct(iv[0])} to {pct(iv[1])}' if iv else '—'} | "
              f"{format(r['z'], '+.2f') if 'z' in r else ''} | "
              f"{('yes' if r['within'] else 'NO') if 'within' in r else 'not judged'} |")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=2) + "\n")
    return 0 if all(r.get("within", True) for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
