"""Benchmark: the progressive chart over a whole shift (issue 15, "Speed"): at 10 updates a second
over 8 hours of points (288,000), a redraw takes <= 20 ms. Measured, never asserted in a test.

The chart is the progressive view's own (app/views/progressive_chart.py ``MeterChart``: clipped to
what is in view, downsampled by peaks), at the size a controller's chart has at 1920x1080 (two
cards a row, ``--width`` x ``--height``), offscreen unless ``QT_QPA_PLATFORM`` says otherwise. It is
filled with 8 hours of readings, one every 0.1 s (a meter rising by 21 cents at each, reset to
$10,000 after a hit every 40 minutes), and the last ``--updates`` readings then arrive one at a
time at 10 a second, as a live controller's would: each is appended, handed to the curve
(``redraw``: pyqtgraph's ``setData``) and the plot painted (``repaint()``, synchronous). Three
figures per update, p50, p99 and max in milliseconds:

- ``paint``: the plot widget's paint alone (its viewport's ``repaint()``, which paints the scene at
  once), the goal's figure;
- ``set_data``: the new series handed to the curve (the copy, clip and downsample);
- ``update``: both, a reading in to the plot on screen;
- ``paint_cpu``, ``update_cpu``: the same in the GUI thread's CPU time (``time.thread_time``): what the
  chart costs, whatever else the two shared cores are doing meanwhile (the wall-clock figures
  include the time the thread waited for a core).

``--screenshots DIR`` also writes the progressive view of a demo floor (``progressive-WxH.png`` at
1920x1080 and 1366x768): the demo's tables and their simulated devices live on loopback TCP, the
log holding five and a half hours of the four controllers' readings before the window opens
(sent through the workstation's link queue as the links would, on a clock moved through the
shift), with hits approved, denied and one still pending; and the Meter record tab at 1366x768
(``progressive-record-1366x768.png``).

Also (skip with ``--no-read``) the workstation's read behind the view, ``Workstation.progressive``, on
a log holding the same 288,000 readings logged through the live pit: the shift read from its start
in pages of the view's size (each page one task on the bridge's lane, between two pumps), and the
next reads (what the view's refresh asks for twice a second).

Run: ``.venv/bin/python bench/progressive_bench.py [--updates 300] [--no-read] [--screenshots
docs/screenshots]``; it prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
GOAL = "redraw <= 20 ms at 10 updates/s over 8 hours of points (288,000)"
GOALS = {"progressive_chart_paint": "<= 20 ms", "progressive_chart_update": ""}
POINTS = 8 * 3600 * 10
START = datetime(2026, 11, 23, 16, 0)    # a swing shift


def percentile(values: list[float], q: float) -> float:
    s = sorted(values)
    k = max(0, min(len(s) - 1, round(q / 100 * (len(s) - 1))))
    return s[k]


def figures(ms: list[float]) -> dict:
    return {"p50_ms": round(statistics.median(ms), 2), "p99_ms": round(percentile(ms, 99), 2),
            "max_ms": round(max(ms), 2)}


def app():
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from app.views import theme
    from app.qt import QApplication
    a = QApplication.instance() or QApplication([])
    theme.apply(a)
    a.setStyleSheet(theme.stylesheet())
    return a


def shift_series(n: int):
    """``n`` readings 0.1 s apart from ``START``: seconds and dollars, with a reset every 40 minutes."""
    import numpy as np
    from app.workstation.progressive_readout import clock_seconds
    t = clock_seconds(START) + np.arange(n) * 0.1
    step = np.arange(n) % (40 * 60 * 10)            # readings since the last reset
    cents = 1_000_000 + 21 * step
    return t, cents / 100


def chart_bench(updates: int, width: int, height: int) -> dict:
    qapp = app()
    from app.views.progressive_chart import MeterChart
    t, dollars = shift_series(POINTS)
    chart = MeterChart()
    w = chart.widget
    w.resize(width, height)
    w.show()
    qapp.processEvents()
    start = time.perf_counter()
    chart.extend_arrays(t[:POINTS - updates], dollars[:POINTS - updates])
    chart.redraw()
    chart.span(START, START + timedelta(hours=8))
    w.viewport().repaint()
    first = (time.perf_counter() - start) * 1000
    paint, set_data, update, paint_cpu, update_cpu = [], [], [], [], []
    period = 0.1
    due = time.perf_counter()
    for k in range(POINTS - updates, POINTS):
        due += period                      # 10 updates a second, as a live controller's
        while time.perf_counter() < due:
            qapp.processEvents()
            time.sleep(0.002)
        a, a_cpu = time.perf_counter(), time.thread_time()
        chart.extend_arrays(t[k:k + 1], dollars[k:k + 1])
        chart.redraw()
        b, b_cpu = time.perf_counter(), time.thread_time()
        w.viewport().repaint()    # the plot's scene painted now (a QGraphicsView paints its viewport)
        c, c_cpu = time.perf_counter(), time.thread_time()
        set_data.append((b - a) * 1000)
        paint.append((c - b) * 1000)
        update.append((c - a) * 1000)
        paint_cpu.append((c_cpu - b_cpu) * 1000)
        update_cpu.append((c_cpu - a_cpu) * 1000)
    w.close()
    return {"points": POINTS, "updates": updates, "size": f"{width}x{height}",
            "first_draw_ms": round(first, 1), "paint": figures(paint), "set_data": figures(set_data),
            "update": figures(update), "paint_cpu": figures(paint_cpu), "update_cpu": figures(update_cpu)}


# -- screenshots -----------------------------------------------------------------------------------
def history(serials, until: datetime, rng: random.Random):
    """Hours of each controller's messages from ``START`` to ``until``: (serial, time, message,
    fields), a meter change every 15 to 45 s (one to four $1 wagers at 21 cents, 000(q)(5)), now
    and then a hit at the top award and the reset 40 s later (000(q)(6)); and where each meter ends."""
    meters = {s: 1_000_000 + rng.randrange(0, 400_000, 21) for s in serials}
    out = []
    when = START + timedelta(minutes=1)
    while when < until:
        for serial in serials:
            if rng.random() < 0.5:
                continue
            meters[serial] += 21 * rng.randint(1, 4)
            out.append((serial, when, "meter", {"cents": meters[serial]}))
            if rng.random() < 0.0025:
                out.append((serial, when, "hit_pending", {"seat": rng.randint(1, 6), "line": "natural_royal_and_pair",
                                                          "cents": meters[serial]}))
                meters[serial] = 1_000_000
                out.append((serial, when + timedelta(seconds=40), "reset", {"cents": 1_000_000}))
        when += timedelta(seconds=rng.randint(15, 45))
    return sorted(out, key=lambda m: m[1]), meters


def feed(ws, clock, messages) -> None:
    """The messages through the workstation's link queue, as a link would put them, pumped in
    batches with the clock moved along."""
    from app.devices.link import DeviceMessage
    from app.devices.messages import decode_message, encode_message
    for n, (serial, when, name, fields) in enumerate(messages):
        m = decode_message(encode_message(name, n % 256, **fields))
        ws.events.put(DeviceMessage(f"history://{serial}", serial, m["device"], m, when, 0.0))
        if ws.events.qsize() >= 500:
            clock.set(when)
            ws.live.pump(when)
    if messages:
        clock.set(messages[-1][1])
        ws.live.pump(messages[-1][1])


def take_screenshots(folder: Path) -> list[str]:
    qapp = app()
    from app.simulate.sim_device import SimDevice
    from app.views.main_window import MainWindow
    from app.qt import QSettings
    from app.simulate import demo
    from app.workstation.workstation import Workstation

    class Clock:
        def __init__(self, t):
            self.t = t

        def __call__(self):
            return self.t

        def set(self, t):
            self.t = t

    home = Path(tempfile.mkdtemp(prefix="progressive-bench-"))
    os.environ["PITDESK_HOME"] = str(home)
    now = START + timedelta(hours=5, minutes=30)
    clock = Clock(START)
    devices = demo.DemoDevices(demo.DEMO_TABLES, faults=(), fault_rate=0.0, seed=5)
    serials = [s for s, d in devices.devices.items() if d.kind == "progressive"]
    messages, meters = history(serials, now - timedelta(minutes=3), random.Random(7))
    for n, (serial, dev) in enumerate(list(devices.devices.items())):
        # the live controllers carry on from where the hours before left their meters
        tuning = {"hit_rate": 0.0, "meter": meters[serial]} if dev.kind == "progressive" else {}
        devices.devices[serial] = SimDevice(dev.kind, serial, faults=(), seed=n, pace=1.0, fault_rate=0.0, **tuning)
    urls = devices.start()
    ws = Workstation(demo.demo_config(urls), home / "bench.db", clock=clock, install_serial="pitdesk-bench",
                     on_close=[devices.stop])
    out = []
    try:
        demo.add_demo_users(ws)
        feed(ws, clock, messages)
        clock.set(now - timedelta(minutes=20))   # the tables opened with fresh decks (not overdue in the picture)
        demo.open_demo_tables(ws)
        # the hits were decided by the pit manager, one denied; then a hit at T5 that waits
        ws.people.sign_in("demo-pit", "3333")
        for n, r in enumerate(r for r in ws.reads.approvals() if r.table and r.kind in ("progressive_meter_payout",
                                                                                    "meter_reset")):
            if r.kind == "progressive_meter_payout" and n == 2:
                ws.decisions.decide(r.request, "denied", "the hand was a straight flush: paid from the pay table")
            else:
                ws.decisions.decide(r.request, "approved")
        ws.people.sign_out()
        t5 = next(s for s in serials if s.endswith("T5"))
        feed(ws, clock, [(t5, now - timedelta(minutes=1), "hit_pending",
                          {"seat": 4, "line": "five_aces_and_pair", "cents": meters[t5]})])
        clock.set(now)
        ws.live.pump(now)
        ws.start()
        settings = QSettings(str(home / "settings.ini"), QSettings.Format.IniFormat)
        window = MainWindow(ws, settings=settings, pump_ms=100, title="demo floor")
        window.start()
        for w, h in ((1920, 1080), (1366, 768)):
            window.resize(w, h)
            window.show()
            window.show_view("progressive")
            end = time.monotonic() + 8
            while time.monotonic() < end:
                qapp.processEvents()
                time.sleep(0.02)
            path = folder / f"progressive-{w}x{h}.png"
            window.grab().save(str(path))
            out.append(str(path))
        # the auditor's tab: the meter at each shift's start and end, and every reset
        page = window.progressive_page
        page.tabs.setCurrentIndex(1)
        end = time.monotonic() + 1
        while time.monotonic() < end:
            qapp.processEvents()
            time.sleep(0.02)
        path = folder / "progressive-record-1366x768.png"
        window.grab().save(str(path))
        out.append(str(path))
        window.close()
    finally:
        ws.close()
        shutil.rmtree(home, ignore_errors=True)
    return out


def read_bench(reads: int) -> dict:
    """The workstation's read of the progressive view (``Workstation.progressive``) on a log
    holding a controller's 8 hours at 10 readings a second (288,000 ``meter_reading`` rows, logged
    through the live pit as its link would put them): the shift read from its start a page at a
    time as the view does (each page one task on the bridge's lane), then the next reads, each
    after 5 more readings (the view's refresh); p50/p99/max in milliseconds."""
    from app.workstation import config
    from app.workstation.workstation import Workstation

    class Clock:
        def __init__(self, t):
            self.t = t

        def __call__(self):
            return self.t

        def set(self, t):
            self.t = t

    home = Path(tempfile.mkdtemp(prefix="progressive-read-"))
    os.environ["PITDESK_HOME"] = str(home)
    cfg = config.parse('[[tables]]\nid = "T1"\nprofile = "section6"\ndevices = [{class = "progressive", '
                       'serial = "PRG-T1", url = "socket://127.0.0.1:9"}]\n', "bench.toml")
    clock = Clock(START)
    ws = Workstation(cfg, home / "read.db", clock=clock)
    try:
        t0 = time.perf_counter()
        n = POINTS
        feed(ws, clock, [("PRG-T1", START + timedelta(seconds=i / 10), "meter", {"cents": 1_000_000 + 21 * i})
                         for i in range(n - reads * 5)] + [
            ("PRG-T1", START + timedelta(seconds=i / 10), "hit_pending",
             {"seat": 3, "line": "natural_royal_and_pair", "cents": 1_000_000 + 21 * i}) for i in (n // 2,)])
        logged = time.perf_counter() - t0
        now = START + timedelta(hours=8)
        clock.set(now)
        from app.views.progressive_view import PAGE   # the view's page: what one read on the lane takes
        pages, after, got = [], {}, 0
        while True:
            a = time.perf_counter()
            r = ws.reads.progressive(since=START, after=after, now=now, limit=PAGE)[0]
            pages.append((time.perf_counter() - a) * 1000)
            after, got = {r.serial: r.last_seq}, got + len(r.series)
            if not r.more:
                break
        times = []
        for k in range(reads):
            base = n - reads * 5 + k * 5
            feed(ws, clock, [("PRG-T1", START + timedelta(seconds=i / 10), "meter", {"cents": 1_000_000 + 21 * i})
                             for i in range(base, base + 5)])
            a = time.perf_counter()
            r = ws.reads.progressive(since=START, after=after, now=now, limit=PAGE)[0]
            times.append((time.perf_counter() - a) * 1000)
            after, got = {r.serial: r.last_seq}, got + len(r.series)
        return {"readings": got, "hits": len(r.hits), "logged_s": round(logged, 1), "page": PAGE,
                "first_pages": len(pages), "first_total_ms": round(sum(pages), 1), "page_read": figures(pages),
                "next_read": figures(times)}
    finally:
        ws.close()
        shutil.rmtree(home, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--updates", type=int, default=300, help="live updates measured at 10 a second (default 300)")
    ap.add_argument("--width", type=int, default=700, help="the chart's width in pixels (a card's at 1920x1080)")
    ap.add_argument("--height", type=int, default=330, help="the chart's height in pixels")
    ap.add_argument("--screenshots", type=Path, help="write progressive-1920x1080.png and -1366x768.png here too")
    ap.add_argument("--no-read", action="store_true", help="skip the workstation's read over 288,000 logged readings")
    args = ap.parse_args(argv)
    result = {"goal": GOAL, "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, "
                                       f"Python {platform.python_version()}",
              "load": os.getloadavg()[0], "chart": chart_bench(args.updates, args.width, args.height)}
    if not args.no_read:
        result["read"] = read_bench(100)
    if args.screenshots is not None:
        args.screenshots.mkdir(parents=True, exist_ok=True)
        result["screenshots"] = take_screenshots(args.screenshots)
    print(json.dumps(result, indent=2))
    return 0


def bench() -> list[tuple[str, str, str, str]]:
    """For bench/run_all.py: rows of (benchmark, what, figure, note)."""
    r = chart_bench(300, 700, 330)
    p, u, pc = r["paint"], r["update"], r["paint_cpu"]
    return [("progressive_chart_paint", f"the meter chart's paint, {r['points']:,} points, 10 updates/s "
                                        f"({r['size']})", f"p99 {p['p99_ms']} ms",
             f"p50 {p['p50_ms']} ms, max {p['max_ms']} ms; CPU p50 {pc['p50_ms']} ms, p99 {pc['p99_ms']} ms; "
             f"load {os.getloadavg()[0]:.1f}"),
            ("progressive_chart_update", "a reading appended, handed to the curve and painted",
             f"p99 {u['p99_ms']} ms", f"p50 {u['p50_ms']} ms, max {u['max_ms']} ms; first draw "
                                      f"{r['first_draw_ms']} ms")]


if __name__ == "__main__":
    raise SystemExit(main())
