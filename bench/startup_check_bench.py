"""Benchmark: the workstation's start-up check (issue 26, app/store/checkpoint.py) on a log of
100,000 events (``--rows``).

The log is written as bench/store_bench.py writes its verify fixture (the chain functions, one
transaction, the head file recorded). Then, each on the real file with this install's key:

1. the first start: ``AuditLog(db).check()`` with no checkpoint recorded: every row checked (the
   chain, the columns, the seals) and the head file, the checkpoint recorded;
2. a later start after 100 rows were appended: only those rows, the head and the checkpoint's
   row are checked;
3. a later start with nothing new.

Each is the best of three opens (the first start is made "first" again by removing the
checkpoint file). The time is ``check()`` alone; opening the log (schema, tail) is apart.

Run: ``.venv/bin/python bench/startup_check_bench.py [--rows N]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from store_bench import T0, build_log, scratch  # noqa: E402

from app.store import checkpoint, paths  # noqa: E402
from app.store.log import AuditLog  # noqa: E402


def _open_and_check(db: Path) -> tuple[float, float, checkpoint.Checked]:
    t0 = time.perf_counter()
    log = AuditLog(db)
    opened = time.perf_counter() - t0
    try:
        done = log.check()
    finally:
        log.close()
    assert done.ok, done.finding
    return opened, done.seconds, done


def run(rows: int = 100_000) -> dict:
    with scratch() as d:
        key = paths.install_key()
        db = d / "audit.db"
        build_log(db, rows, key)
        with AuditLog(db) as log:
            cp = checkpoint.checkpoint_file(paths.head_file(log.db_id))
        first = []
        for _ in range(3):
            cp.unlink(missing_ok=True)
            first.append(_open_and_check(db))
        assert first[0][2].rows == rows
        with AuditLog(db) as log:
            for i in range(100):
                log.append("note", T0, "dee", "dealer", "T1", {"text": f"after {i}"})
        later = [_open_and_check(db)]             # checks the 100 new rows, then the checkpoint is there
        assert later[0][2].rows == 100
        again = [_open_and_check(db) for _ in range(3)]
        assert again[0][2].rows == 0
    return {"rows": rows, "first": min(f[1] for f in first), "open": min(f[0] for f in first),
            "new_100": later[0][1], "nothing_new": min(a[1] for a in again)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, default=100_000)
    r = run(ap.parse_args().rows)
    print(f"log of {r['rows']:,} events: the first start-up check (every row) {r['first']:.3f} s "
          f"(opening the log before it {r['open']:.3f} s); after 100 new rows {r['new_100'] * 1000:.1f} ms; "
          f"nothing new {r['nothing_new'] * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
