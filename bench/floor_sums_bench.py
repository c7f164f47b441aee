"""Benchmark: the floor's money and shift report at 40 pits from the sums the casino's server
keeps (issue 35, finding 5; app/store/pg/floor_money.py, floor_sums.py).

One pit's day is played once (``pitdesk simulate shift``: T tables, R rounds each), and its log
copied as P workstations (each copy its own log id, registered and shipped as a pit of its own:
the server keeps each one's sums as its rows arrive). Then, each timed once as a person runs it
(the command in a process of its own):

1. ``pitdesk hold --pg URL --json`` the first time: every chain walked and every sum checked
   against the events whole (app/store/pg/chain_marks.py remembers where it passed);
2. ``pitdesk hold --pg URL --json`` again, best of 3: the check walks on from there;
3. with ``--before TREE`` (a worktree of a parent commit, run with PYTHONPATH=TREE and the same
   venv), ``hold --pg --json`` as it was there; runs alternated with 2;
4. ``pitdesk report shift --pg URL --date D --shift day`` as ``--json`` and ``--out F.pdf``, best
   of 3 (with ``--before``, the report as it was there, once: before 89d8e80 it rebuilt every log);
5. ``pitdesk floor verify --pg URL --json``: every chain walked whole.

The shipping time (the trigger that keeps the sums included) is given per row.

    .venv/bin/python bench/floor_sums_bench.py [--pits 40] [--tables 6] [--rounds 400] [--before TREE]

Prints a Markdown table; record it in docs/benchmarks.md. Speed is never asserted in tests."""

from __future__ import annotations

import argparse
import os
import shutil
import sqlite3
import sys
import time
import uuid
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.casino_runs import casino, print_table, run  # noqa: E402
from tests.support.casino import register  # noqa: E402
from tests.support.pg import AUDITOR, SHIPPER  # noqa: E402
from tests.support.simulated_shift import simulate  # noqa: E402

START = datetime(2026, 11, 21, 8, 0)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pits", type=int, default=40)
    ap.add_argument("--tables", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=400)
    ap.add_argument("--before", type=Path, help="a worktree of a parent commit to compare with (PYTHONPATH)")
    args = ap.parse_args()
    rows = []
    with casino("pitdesk-floor-sums-bench-") as (bins, folder, server, name):
        from app.store.pg.shipping import ship
        day = folder / "day"
        t = time.perf_counter()
        simulate(day / "log.db", day / "home", args.tables, args.rounds, START, 4242)
        played = time.perf_counter() - t
        os.environ["PITDESK_HOME"] = str(day / "home")
        shipped, ship_s = 0, 0.0
        for n in range(args.pits):
            db = folder / f"pit{n}.db"
            shutil.copy(day / "log.db", db)
            conn = sqlite3.connect(db)
            conn.execute("UPDATE meta SET value = ? WHERE key = 'db_id'", (str(uuid.uuid4()),))
            conn.commit()
            conn.close()
            register(server.url(SHIPPER, name), db, f"Pit {n + 1}")
            t = time.perf_counter()
            shipped += ship(db, server.url(SHIPPER, name)).shipped
            ship_s += time.perf_counter() - t
        server.sql("VACUUM ANALYZE", name)
        url = server.url(AUDITOR, name)
        dt, hold = run("hold", "--pg", url, "--json")
        what = (f"{args.pits} pits x {args.tables} tables x {args.rounds} rounds ({hold['floor']['rounds']:,} rounds, "
                f"{shipped:,} events on the server)")
        rows.append(("simulate shift (one pit's day)", f"{args.tables} tables x {args.rounds} rounds",
                     f"{played:.1f} s"))
        rows.append(("ship (sums kept by the server's trigger)", f"{shipped:,} rows, {args.pits} workstations",
                     f"{ship_s:.1f} s ({1e6 * ship_s / shipped:.0f} us a row)"))
        rows.append(("hold --pg --json, the first: every chain walked and every sum checked whole", what,
                     f"{dt:.2f} s"))
        new, old = [], []
        for _ in range(3):
            if args.before is not None:
                old.append(run("hold", "--pg", url, "--json", tree=args.before)[0])
            new.append(run("hold", "--pg", url, "--json")[0])
        rows.append(("hold --pg --json, from the sums, checked past the last check", "the same, best of 3",
                     f"{min(new):.2f} s"))
        if old:
            rows.append(("hold --pg --json, the tree before", f"{args.before}, alternated, best of 3",
                         f"{min(old):.1f} s ({min(old) / min(new):.0f}x the sums' time)"))
        # the floor's shift report from the sums (the day shift: the most rounds of the day)
        shift = ("report", "shift", "--pg", url, "--date", f"{START:%Y-%m-%d}", "--shift", "day")
        new, old, pdf = [], [], []
        for n in range(3):
            if args.before is not None and n == 0:     # once: a tree that rebuilds every log takes minutes
                old.append(run(*shift, "--json", tree=args.before)[0])
            dt, floor = run(*shift, "--json")
            new.append(dt)
            dt, made = run(*shift, "--out", str(folder / "floor.pdf"))
            pdf.append(dt)
        rows.append(("report shift --pg --json (day shift), from the sums, checked past the last check",
                     f"{floor['floor']['rounds']:,} rounds at {len(floor['pits'])} pits, best of 3", f"{min(new):.2f} s"))
        rows.append(("report shift --pg --out floor.pdf, the same", f"{made['pages']} pages, "
                     f"{(folder / 'floor.pdf').stat().st_size / 1e6:.1f} MB, best of 3", f"{min(pdf):.2f} s"))
        if old:
            rows.append(("report shift --pg --json, the tree before", f"{args.before}, once",
                         f"{old[0]:.1f} s ({old[0] / min(new):.0f}x the sums' time)"))
        dt, _ = run("floor", "verify", "--pg", url, "--json")
        rows.append(("floor verify --pg --json", "every chain walked and every read model derived, whole",
                     f"{dt:.2f} s"))
    print_table(rows, bins)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
