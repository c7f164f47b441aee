"""Benchmark: a shift report and a hold checked first (issue 35, finding 1). Measured, never asserted.

The log is ``pitdesk simulate shift`` of ``--tables`` x ``--rounds`` (12 x 800 by default: about
131,600 events, 9,600 settled rounds over a day and a half, about 80 s to make), kept in
``--cache`` (default /tmp/pitdesk-figures-bench) and used again. A workstation's start-up check is
run on it once (``AuditLog.check``: its checkpoint recorded, as a workstation that has opened the
log leaves it), then each command runs in its own process, best of ``--repeat``:

- ``report shift --json`` of the log's last shift, and ``hold --json`` over the whole log;
- with ``--trees A B ...`` each command runs once per tree on PYTHONPATH (e.g. a worktree of main
  before the check, and this one), so before and after are measured on the same log.

Run: ``.venv/bin/python bench/figures_check_bench.py [--trees OLD NEW]``; it prints one JSON object.
Not part of ``make bench``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PITDESK = [sys.executable, "-m", "app.cli"]


def _env(tree: Path, home: Path) -> dict:
    return {**os.environ, "PYTHONPATH": str(tree), "PITDESK_HOME": str(home)}


def fixture(cache: Path, tables: int, rounds: int) -> Path:
    db = cache / f"log-{tables}x{rounds}.db"
    if not db.exists():
        cache.mkdir(parents=True, exist_ok=True)
        subprocess.run([*PITDESK, "simulate", "shift", "--tables", str(tables), "--rounds", str(rounds),
                        "--db", str(db), "--start", "2026-11-20 06:00", "--seed", "5"],
                       env=_env(ROOT, cache / "home"), check=True, stdout=subprocess.DEVNULL)
    return db


def timed(args: list[str], env: dict, repeat: int, tree: Path) -> tuple[float, int, str]:
    best, rc, out = float("inf"), 0, ""
    for _ in range(repeat):
        t0 = time.perf_counter()
        p = subprocess.run([*PITDESK, *args], env=env, capture_output=True, text=True, cwd=tree)  # -m: cwd first
        best = min(best, time.perf_counter() - t0)
        rc, out = p.returncode, p.stdout
    return best, rc, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tables", type=int, default=12)
    ap.add_argument("--rounds", type=int, default=800)
    ap.add_argument("--cache", type=Path, default=Path("/tmp/pitdesk-figures-bench"))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--trees", nargs="*", type=Path, default=[ROOT])
    ap.add_argument("--db", type=Path, help="an existing log (its install's home in --cache/home)")
    a = ap.parse_args()
    db = a.db or fixture(a.cache, a.tables, a.rounds)
    home = a.cache / "home"
    os.environ["PITDESK_HOME"] = str(home)
    sys.path.insert(0, str(ROOT))
    from app.store.log import AuditLog
    import sqlite3
    with AuditLog(db) as log:               # the workstation's start-up check: its checkpoint
        log.check()
    conn = sqlite3.connect(db)
    events, last = conn.execute("SELECT count(*), max(time) FROM events").fetchone()
    conn.close()
    day, hour = last[:10], int(last[11:13])
    shift = "grave" if hour < 8 else "day" if hour < 16 else "swing"
    out = {"db": str(db), "events": events, "shift": f"{day} {shift}", "runs": []}
    for tree in a.trees:
        env = _env(tree, home)
        for name, args in (("report_shift_json", ["report", "shift", "--db", str(db), "--date", day, "--shift", shift,
                                                  "--json"]),
                           ("hold_json", ["hold", "--db", str(db), "--json"])):
            s, rc, text = timed(args, env, a.repeat, tree)
            v = json.loads(text).get("verified") if rc == 0 and text else None
            out["runs"].append({"tree": str(tree), "what": name, "seconds": round(s, 3), "exit": rc,
                                "verified": v})
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
