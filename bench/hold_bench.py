"""Benchmark: the hold view over a long log (issue 15, "Hold"). Measured, never asserted.

The log is ``pitdesk simulate shift`` of 30 tables x 480 rounds (14,400 settled rounds, about 35
seconds to make, kept under /tmp). The real ``MainWindow`` (offscreen unless ``QT_QPA_PLATFORM``
says otherwise, 1920x1080) opens over it with the log's tables (bench/logs_bench.py's
``window_over``), its clock five minutes after the log's last row, and shows the Hold view. Times
are ``time.perf_counter`` from the trigger to the page having drawn the report it asked for:

- ``hold_period_ms``: a chosen period holding every round of the log (14,400 rounds);
- ``hold_shift_ms``: This shift (the rounds of the shift the clock is in);
- ``hold_read_ms``: ``Workstation.hold`` over the whole log alone, on this thread (what the
  lane spends; the rest is drawing the lists and the chart).

While a hold is read, the GUI thread is free: ``stall_max_ms`` is the longest gap between two
ticks of a 10 ms timer during the reads.

``--screenshots DIR`` writes the Hold view at 1920x1080 and 1366x768 over a simulated day shift
(6 tables x 150 rounds from 08:00, seed 4), the clock at 15:55: the pit, and table T2
(``hold-pit-WxH.png``, ``hold-T2-WxH.png``).

Run: ``.venv/bin/python bench/hold_bench.py [--no-bench] [--screenshots docs/screenshots]``; it prints one JSON
object. ``make bench`` runs it (``bench/run_all.py --no-hold`` skips it).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

GOALS = {}       # the issue sets no figure for the hold; its speed is measured so that it is known
FIXTURE = Path(tempfile.gettempdir()) / "pitdesk-hold-bench" / "30x480-s3.db"


def fixture() -> Path:
    if not FIXTURE.exists():
        from app.simulate import run_shift
        FIXTURE.parent.mkdir(parents=True, exist_ok=True)
        part = FIXTURE.with_suffix(".part")
        part.unlink(missing_ok=True)
        print(f"making {FIXTURE}: 30 tables x 480 rounds (about a minute, once)", file=sys.stderr)
        run_shift(part, 30, 480, datetime(2026, 11, 20, 0, 0), 3)
        part.rename(FIXTURE)
    return FIXTURE


def wait_read(app, page, reads: int, limit: float = 60.0) -> None:
    end = time.perf_counter() + limit
    while page.reads <= reads:
        if time.perf_counter() > end:
            raise TimeoutError("the hold was not shown")
        app.processEvents()
        time.sleep(0.001)


def bench(runs: int = 3) -> dict:
    from logs_bench import themed_app, window_over

    from app.qt import QTimer
    db = fixture()
    work = Path(tempfile.mkdtemp(prefix="pitdesk-hold-bench-"))
    os.environ["PITDESK_HOME"] = str(work / "home")
    copy = work / "log.db"
    shutil.copy(db, copy)
    conn = sqlite3.connect(copy)
    first, last = (datetime.fromisoformat(x) for x in conn.execute("SELECT min(time), max(time) FROM settlements")
                   .fetchone())
    rounds = conn.execute("SELECT count(*) FROM settlements").fetchone()[0]
    conn.close()
    app = themed_app()
    w, ws = window_over(copy, app)
    gaps, last_tick = [], [time.perf_counter()]

    def tick():
        t = time.perf_counter()
        gaps.append((t - last_tick[0]) * 1000)
        last_tick[0] = t
    ticker = QTimer()
    ticker.setInterval(10)
    ticker.timeout.connect(tick)
    try:
        page = w.hold_page
        w.show_view("hold")
        wait_read(app, page, 0)
        period, shift, read = [], [], []
        ticker.start()
        for _ in range(runs):
            for kind, out in (("chosen", period), ("shift", shift)):
                n = page.reads
                t0 = time.perf_counter()
                page.choose(kind, first, last + timedelta(seconds=1))
                wait_read(app, page, n)
                out.append((time.perf_counter() - t0) * 1000)
        ticker.stop()
        for _ in range(runs):
            t0 = time.perf_counter()
            ws.reads.hold(first, last + timedelta(seconds=1))
            read.append((time.perf_counter() - t0) * 1000)
    finally:
        w.close()
        ws.close()
        shutil.rmtree(work, ignore_errors=True)
    return {"log": str(db), "rounds": rounds, "runs": runs,
            "hold_period_ms": round(statistics.median(period), 1),
            "hold_shift_ms": round(statistics.median(shift), 1),
            "hold_read_ms": round(statistics.median(read), 1),
            "stall_max_ms": round(max(gaps[1:] or [0.0]), 1)}


def screenshots(folder: Path) -> list[str]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from logs_bench import themed_app, window_over

    from app.simulate import run_shift
    app = themed_app()
    work = Path(tempfile.mkdtemp(prefix="pitdesk-hold-shots-"))
    os.environ["PITDESK_HOME"] = str(work / "home")
    run_shift(work / "shift.db", 6, 150, datetime(2026, 11, 21, 8, 0), 4)
    written = []
    folder.mkdir(parents=True, exist_ok=True)
    for size in ((1920, 1080), (1366, 768)):
        w, ws = window_over(work / "shift.db", app, size, now=datetime(2026, 11, 21, 15, 55))
        try:
            page = w.hold_page
            w.show_view("hold")
            wait_read(app, page, 0)
            for table, name in (("PIT", "pit"), ("T2", "T2")):
                page.choose_table(table)
                end = time.perf_counter() + 0.5
                while time.perf_counter() < end:
                    app.processEvents()
                    time.sleep(0.01)
                path = folder / f"hold-{name}-{size[0]}x{size[1]}.png"
                w.grab().save(str(path), "PNG")
                written.append(str(path))
        finally:
            w.close()
            ws.close()
    shutil.rmtree(work, ignore_errors=True)
    return written


def rows_for_run_all(result: dict) -> list[tuple[str, str, str, str]]:
    n = f"{result['rounds']:,} rounds"
    return [("hold view, a period of every round", n, f"{result['hold_period_ms']} ms", "measured"),
            ("hold view, this shift", n, f"{result['hold_shift_ms']} ms", "measured"),
            ("Workstation.hold, every round", n, f"{result['hold_read_ms']} ms", "measured"),
            ("longest GUI stall while reading", n, f"{result['stall_max_ms']} ms", "measured")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--screenshots", type=Path, metavar="DIR")
    ap.add_argument("--no-bench", action="store_true", help="only the screenshots")
    args = ap.parse_args()
    out = {} if args.no_bench else bench(args.runs)
    if args.screenshots:
        out["screenshots"] = screenshots(args.screenshots)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
