"""The million-event log the logs benchmark reads, made once and kept under /tmp between runs.

``pitdesk simulate shift`` plays 12 tables for weeks of simulated time through the real engine
and store (every kind of event the logs show: decks and dice changed, approvals, alarms, device
faults, irregularities, payout slips and voids, sign-ins), about 10.8 events per table per
round: 12 tables x 7,750 rounds come to about a million events (seed 15, from 2026-11-01 08:00).
Making it takes 8-10 minutes on this machine; the file and its install key (``home``) are kept in
``/tmp/pitdesk-logs-bench/`` and used again while the schema version and the recipe are the same.

Run alone: ``.venv/bin/python bench/logs_fixture.py [--rounds N]`` prints where it is.
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CACHE = Path("/tmp/pitdesk-logs-bench")
TABLES, ROUNDS, SEED, START = 12, 7_750, 15, datetime(2026, 11, 1, 8, 0)


def _digest(*names: str) -> str:
    import hashlib
    h = hashlib.sha256()
    for name in names:
        h.update((ROOT / "app" / "store" / name).read_bytes())
    return h.hexdigest()[:8]


def projection() -> str:
    """What the read models are projected by: a cached log made by other code is projected again."""
    return _digest("read_models.py", "logrows.py")


def fixture(rounds: int = ROUNDS, tables: int = TABLES, cache: Path = CACHE, quiet: bool = False) -> dict:
    """The log (made if it is not there): {"db", "home", "events", "built_s"}. PITDESK_HOME is set
    to its home for the rest of the process (the install key its rows are sealed with)."""
    from app.store.schema import MIGRATIONS
    version = max(v for v, _, _ in MIGRATIONS)
    # another schema (its indexes, its tables): another log
    folder = cache / f"v{version}-{_digest('schema.py')}-{tables}x{rounds}-s{SEED}"
    db, home, info = folder / "log.db", folder / "home", folder / "made.json"
    os.environ["PITDESK_HOME"] = str(home)
    if info.exists() and db.exists():
        made = json.loads(info.read_text())
        if made.get("projection") != projection():
            # the same events, read models projected by other code since: projected again
            from app.store.log import AuditLog
            from app.store.read_models import rebuild
            t0 = time.perf_counter()
            with AuditLog(db) as log:
                rebuild(log._conn)
            made |= {"projection": projection(), "reprojected_s": round(time.perf_counter() - t0, 1)}
            info.write_text(json.dumps(made, indent=2) + "\n")
        return made | {"db": str(db), "home": str(home), "cached": True}
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob("log.db*"):
        stale.unlink()
    from app.simulate.shift import run_shift
    if not quiet:
        print(f"making {db}: {tables} tables x {rounds} rounds (8-10 minutes, once)", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    summary = run_shift(db, tables, rounds, START, SEED)
    built = time.perf_counter() - t0
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    made = {"projection": projection(), "events": summary["events"], "built_s": round(built, 1), "tables": tables, "rounds": rounds,
            "seed": SEED, "start": START.isoformat(), "end": summary["end"], "mb": round(db.stat().st_size / 2**20)}
    info.write_text(json.dumps(made, indent=2) + "\n")
    return made | {"db": str(db), "home": str(home), "cached": False}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rounds", type=int, default=ROUNDS)
    ap.add_argument("--tables", type=int, default=TABLES)
    args = ap.parse_args()
    print(json.dumps(fixture(args.rounds, args.tables), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
