"""Benchmark: the logs view over a log of a million events (issue 15, "Speed"). Measured, never
asserted in a test.

The log is ``pitdesk simulate shift`` of 12 tables over about two weeks of simulated time, 1,001,872
events (bench/logs_fixture.py: made once, about 13 minutes, and kept under /tmp). Each run works on
a copy of it (the workstation writes a few rows as it opens). The real ``MainWindow`` (offscreen
unless ``QT_QPA_PLATFORM`` says otherwise, 1920x1080) opens over it as a real installation would: a
``Workstation`` whose configuration has the log's twelve tables (no devices), its clock at the log's
last row. Opening it replays every table's procedure events (about two minutes for this log); that
is not timed here.

For every tab, the times are from the trigger to the first paint of the table's viewport after its
model holds the query's first page (an event filter on the viewport; ``time.perf_counter``):

- ``open``: the tab shown for the first time (``show_view("logs:TAB")``): its count and first page
  read, newest first (goal <= 1 s);
- ``filter by table``: a table chosen and Apply pressed, for three tables in turn, the median
  (goal <= 1 s);
- for the whole log (``Every event``) also: jumping to the middle of the million rows (the page
  there read and painted), a sort by a column (the order of every row read once), and free text
  over every event's data.

``--screenshots DIR`` also writes the logs view at 1920x1080 and 1366x768 over a simulated shift
(``pitdesk simulate shift --tables 4 --rounds 200 --seed 1``): the deck log, the irregularities and
every event of table T2 with "deck" in them (``logs-TAB-WxH.png``).

Run: ``.venv/bin/python bench/logs_bench.py [--screenshots docs/screenshots]``; it prints one JSON
object. ``make bench`` runs it (``bench/run_all.py --no-logs`` skips it).
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

GOALS = {"logs_open": "a logs tab opens (model filled, first paint) <= 1 s on a log of 1,000,000 events",
         "logs_filter_table": "a filter by table applies <= 1 s on a log of 1,000,000 events"}
TABLES = ("T7", "T2", "T11")


class Painted:
    """Notes the first paint of a view's viewport once its model holds the query asked for."""

    def __init__(self, page):
        from app.qt import QEvent, QObject

        class Filter(QObject):
            def eventFilter(inner, obj, event):       # noqa: N805
                if event.type() == QEvent.Type.Paint and self.armed and self.opened is not None \
                        and self.painted is None:
                    self.painted = time.perf_counter()
                return False

        self.page = page
        self.filter = Filter()
        page.view.viewport().installEventFilter(self.filter)
        page.model.opened.connect(self._opened)
        self.armed = False
        self.opened = self.painted = None

    def _opened(self) -> None:
        if self.armed and self.opened is None:
            self.opened = time.perf_counter()

    def arm(self) -> float:
        self.armed, self.opened, self.painted = True, None, None
        return time.perf_counter()

    def wait(self, app, t0: float, limit: float = 120.0) -> tuple[float, float]:
        while self.painted is None:
            app.processEvents()
            if time.perf_counter() - t0 > limit:
                raise TimeoutError(f"the {self.page.tab.name} tab was not painted within {limit} s")
        self.armed = False
        return (self.opened - t0) * 1000, (self.painted - t0) * 1000


def themed_app():
    """The QApplication with the window's theme, as pitdesk gui makes it (offscreen unless set)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from app.views import theme
    from app.qt import QApplication
    app = QApplication.instance() or QApplication([])
    theme.apply(app)
    app.setStyleSheet(theme.stylesheet())
    return app


def window_over(db: Path, app, size=(1920, 1080), now: datetime | None = None):
    """The real window over ``db``: its tables from the log, its clock at ``now`` (default: five
    minutes after the last row)."""
    from app.views.main_window import MainWindow
    from app.qt import QSettings
    from app.workstation.config import TableSetup, WorkstationConfig
    from app.workstation.workstation import Workstation

    conn = sqlite3.connect(db)
    tables = conn.execute("SELECT table_id, profile FROM tables").fetchall()
    last = datetime.fromisoformat(conn.execute("SELECT max(time) FROM events").fetchone()[0])
    conn.close()
    order = sorted(tables, key=lambda t: (len(t[0]), t[0]))
    config = WorkstationConfig(tuple(TableSetup(t, p) for t, p in order), source="the logs bench")
    at = now or last + timedelta(minutes=5)
    ws = Workstation(config, db, clock=lambda: at)
    scratch = tempfile.mkdtemp(prefix="pitdesk-logs-settings-")
    w = MainWindow(ws, settings=QSettings(str(Path(scratch) / "s.ini"), QSettings.Format.IniFormat),
                   title="logs bench")
    w.resize(*size)
    w.show()
    w.start()
    return w, ws


def settle(app, page, seconds: float = 0.3) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end or page.model.busy:
        app.processEvents()
        time.sleep(0.002)


def bench(runs: int = 3) -> dict:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    import logs_fixture
    made = logs_fixture.fixture()
    app = themed_app()
    work = Path(tempfile.mkdtemp(prefix="pitdesk-logs-bench-"))
    db = work / "log.db"
    t0 = time.perf_counter()
    shutil.copy(made["db"], db)
    copied = time.perf_counter() - t0
    t0 = time.perf_counter()
    w, ws = window_over(db, app)
    opened_s = time.perf_counter() - t0
    out = {"events": made["events"], "db_mb": round(db.stat().st_size / 2**20), "copy_s": round(copied, 1),
           "window_open_s": round(opened_s, 1), "tabs": {}}
    try:
        settle(app, w.logs_page.current(), 1.0)
        for name, page in w.logs_page.pages.items():
            p = Painted(page)
            t = p.arm()
            w.show_view(f"logs:{name}")
            filled, painted = p.wait(app, t)
            row = {"rows": page.model.total, "open_filled_ms": round(filled, 1), "open_painted_ms": round(painted, 1)}
            settle(app, page)
            if page.tab.by_table:
                fills, paints, counts = [], [], []
                for table in TABLES:
                    page.table.setCurrentIndex(page.table.findData(table))
                    t = p.arm()
                    page.apply_button.click()
                    f, pt = p.wait(app, t)
                    fills.append(f)
                    paints.append(pt)
                    counts.append(page.model.total)
                    settle(app, page)
                row |= {"filter_filled_ms": round(statistics.median(fills), 1),
                        "filter_painted_ms": round(statistics.median(paints), 1),
                        "filter_painted_max_ms": round(max(paints), 1), "filter_rows": counts}
                page.table.setCurrentIndex(0)
                page.apply_button.click()
                settle(app, page)
            out["tabs"][name] = row
        out["events"] = w.logs_page.pages["events"].model.total
        out["whole_log"] = whole_log(app, w)
    finally:
        w.close()
        ws.close()
        shutil.rmtree(work, ignore_errors=True)
    return out


def whole_log(app, w) -> dict:
    """The million rows: the middle, a sort by a column, free text."""
    from app.qt import Qt
    page = w.logs_page.pages["events"]
    w.show_view("logs:events")
    settle(app, page)
    m, v = page.model, page.view
    out = {}
    # the middle of the log: the page there read, then painted
    p = Painted(page)
    reads = m.reads
    t = time.perf_counter()
    v.scrollTo(m.index(m.total // 2, 0))
    while m.reads == reads or m.busy:
        app.processEvents()
    t_read = time.perf_counter()
    app.processEvents()
    v.viewport().repaint()
    out["jump_to_middle_ms"] = round((time.perf_counter() - t) * 1000, 1)
    out["jump_to_middle_read_ms"] = round((t_read - t) * 1000, 1)
    for label, column in (("sort_by_event_ms", "Event"), ("sort_by_details_ms", "Details")):
        c = next(n for n, col in enumerate(m.columns) if col.title == column)
        t = p.arm()
        v.horizontalHeader().setSortIndicator(c, Qt.SortOrder.DescendingOrder)
        out[label] = round(p.wait(app, t)[1], 1)
        settle(app, page)
    time_col = next(n for n, col in enumerate(m.columns) if col.field == page.tab.time_field)
    t = p.arm()
    v.horizontalHeader().setSortIndicator(time_col, Qt.SortOrder.DescendingOrder)
    out["back_to_time_ms"] = round(p.wait(app, t)[1], 1)
    settle(app, page)
    page.text.setText("shoe jam")
    t = p.arm()
    page.apply_button.click()
    out["free_text_ms"] = round(p.wait(app, t)[1], 1)
    out["free_text_rows"] = m.total
    return out


def screenshots(folder: Path) -> list[str]:
    """The logs view over a simulated shift at both sizes."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from app.simulate import run_shift
    app = themed_app()
    work = Path(tempfile.mkdtemp(prefix="pitdesk-logs-shots-"))
    os.environ["PITDESK_HOME"] = str(work / "home")
    run_shift(work / "shift.db", 4, 200, datetime(2026, 11, 21, 14, 0), 1)
    written = []
    for size in ((1920, 1080), (1366, 768)):
        w, ws = window_over(work / "shift.db", app, size)
        try:
            for tab, table, text in (("decks", None, ""), ("irregularities", None, ""), ("events", "T2", "deck")):
                w.show_view(f"logs:{tab}")
                page = w.logs_page.current()
                settle(app, page, 0.5)
                if table or text:
                    page.table.setCurrentIndex(page.table.findData(table))
                    page.text.setText(text)
                    page.apply()
                settle(app, page, 0.8)
                w.resize(*size)
                app.processEvents()
                path = folder / f"logs-{tab}-{size[0]}x{size[1]}.png"
                w.grab().save(str(path), "PNG")
                written.append(str(path))
        finally:
            w.close()
            ws.close()
    shutil.rmtree(work, ignore_errors=True)
    return written


def rows_for_run_all(result: dict) -> list[tuple[str, str, str, str]]:
    """(benchmark, what, figure, note) for bench/run_all.py."""
    out = []
    for name, r in result["tabs"].items():
        out.append(("logs_open", f"{name} tab opened ({r['rows']:,} rows)", f"{r['open_painted_ms']:.0f} ms",
                    f"model filled {r['open_filled_ms']:.0f} ms"))
        if "filter_painted_ms" in r:
            out.append(("logs_filter_table", f"{name} tab filtered by table ({'/'.join(map(str, r['filter_rows']))} "
                                             "rows)", f"{r['filter_painted_ms']:.0f} ms",
                        f"median of {len(TABLES)}, max {r['filter_painted_max_ms']:.0f} ms"))
    wl = result["whole_log"]
    out += [("logs_events", "every event: jump to the middle row", f"{wl['jump_to_middle_ms']:.0f} ms", ""),
            ("logs_events", "every event sorted by Event (an index)", f"{wl['sort_by_event_ms']:.0f} ms", ""),
            ("logs_events", "every event sorted by Details (no index)", f"{wl['sort_by_details_ms']:.0f} ms", ""),
            ("logs_events", "every event: free text 'shoe jam'", f"{wl['free_text_ms']:.0f} ms",
             f"{wl['free_text_rows']:,} rows")]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--screenshots", metavar="DIR", help="also write the logs view's screenshots there")
    ap.add_argument("--no-bench", action="store_true", help="only the screenshots")
    args = ap.parse_args()
    result = {}
    if not args.no_bench:
        load = os.getloadavg()
        result = bench()
        result["load"] = {"before": [round(x, 2) for x in load], "after": [round(x, 2) for x in os.getloadavg()]}
    if args.screenshots:
        result["screenshots"] = screenshots(Path(args.screenshots))
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
