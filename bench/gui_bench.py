"""Benchmark: the workstation window (issue 13, "Speed"). Measured, never asserted in a test.

1. Cold start: ``pitdesk gui --demo`` from process start to the first paint of the main window
   (goal <= 2 s), and on to the first paint of the floor's tiles with the workstation's first
   readout in them. Each run is a new process on a new temporary data folder: the first run of
   a pair makes the demo database (its four people, their PIN hashes, the tables opened), the
   second continues it, as a second ``make run`` does. The process is this file with
   ``--cold-child``, which runs ``app.cli.main(["gui", "--demo", ...])`` exactly as the
   ``pitdesk`` script does, with an application event filter that notes the phases and closes
   the window (the Quit path: links, devices, log) once the tiles are painted. The time is
   ``time.monotonic()`` (CLOCK_MONOTONIC, one clock for every process) taken by this process
   just before it starts the child, and by the child at each phase.
2. The live floor: the real ``MainWindow`` (offscreen) over a real ``Workstation`` of
   ``--tables`` tables (section6: shuffler, progressive controller, RNG display) whose simulated
   devices (app/simulate/sim_device.py, no faults, no progressive hits) serve each on its own
   loopback TCP port, paced to about 10 frames/s each, for ``--seconds``:
   - event-loop stalls: a 5 ms precise ``QTimer`` on the GUI thread notes how late each of its
     timeouts is; a stall is a timeout more than 50 ms late (goal: none);
   - frame sent to tile repainted: the progressive controller's meter grows by 21 cents with
     every progressive wager, so each new meter value names one frame. The device side notes
     the moment it hands a meter frame with a new value to the line (``time.perf_counter``, the
     same CLOCK_MONOTONIC in every process of the machine); an event filter on each tile's meter
     label notes the moment its ``paintEvent`` shows a value. The latency of a value is from its
     frame's send to the first paint of that value or a later one (a pump that drains two
     frames of a table shows only the later; goal p99 <= 50 ms).
   The devices run in a separate process by default (``--devices process``: real devices are
   not in the workstation's process, and do not take its GIL); ``--devices thread`` runs them
   in this process, as the demo floor does.

Run alone: ``.venv/bin/python bench/gui_bench.py [--tables 40 --seconds 30]`` (both), or
``--cold-start-only`` / ``--floor-only``; it prints one JSON object. ``--profile FILE`` writes
cProfile's account of the pump, the tiles' read, the window's update and the log writer's commit
while the floor is measured (where a pump's time goes, issue 33). ``make bench`` runs it too
(``bench/run_all.py --no-gui`` skips it). Set ``QT_QPA_PLATFORM`` (offscreen by default), or run
under ``xvfb-run -a`` with ``--platform xcb``.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import math
import os
import pstats
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MARK = "GUI_BENCH "          # the child's line of figures on stdout

GOALS = {
    "gui_cold_start": "first paint of the main window <= 2 s; the floor's tiles painted <= 1.0 s on an existing log, "
                      "<= 1.5 s on a new one (issue 33)",
    "gui_frame_to_tile": "no event-loop stall over 50 ms; frame sent to tile repainted p99 <= 50 ms",
}


# -- 1. cold start ---------------------------------------------------------------------------------
def _cold_child(argv: list[str]) -> int:
    """In the child: ``pitdesk gui --demo`` with the phases noted (see the module's text)."""
    marks = {"python_up": time.monotonic()}
    from app.cli import gui_command as cli_gui
    from app.cli import main
    marks["app_cli_imported"] = time.monotonic()

    state = {"window": None, "filter": None}
    open_original, window_original = cli_gui._open, cli_gui._window

    def timed_open(args, config):
        # on the thread that opens the log while Qt starts (app/cli/gui_command.py)
        opened = open_original(args, config)
        marks["workstation_open"] = time.monotonic()
        return opened

    def timed_window(app, ws, args, size, *rest):
        from app.views import main_window
        from app.qt import QApplication, QEvent, QObject, QTimer
        marks["qt_app_ready"] = marks["main_window_imported"] = time.monotonic()

        class Phases(QObject):
            def eventFilter(self, obj, event):
                if event.type() != QEvent.Type.Paint:
                    return False
                w = state["window"]
                if w is None:
                    return False
                if "main_window_first_paint" not in marks and obj is w:
                    marks["main_window_first_paint"] = time.monotonic()
                elif "tiles_first_paint" not in marks and obj.objectName() == "tile" \
                        and getattr(obj, "tile", None) is not None:
                    marks["tiles_first_paint"] = time.monotonic()
                    QApplication.instance().removeEventFilter(self)
                    QTimer.singleShot(0, w.close)   # the Quit command's path
                return False

        state["filter"] = Phases()
        QApplication.instance().installEventFilter(state["filter"])
        show = main_window.MainWindow.show

        def shown(self):
            state["window"] = self
            marks["window_built"] = time.monotonic()
            show(self)
        main_window.MainWindow.show = shown
        return window_original(app, ws, args, size, *rest)

    cli_gui._open, cli_gui._window = timed_open, timed_window
    code = main(["gui", "--demo", *argv])
    marks["exited"] = time.monotonic()
    print(MARK + json.dumps({"code": code, "marks": marks}), flush=True)
    return code


def cold_start(runs: int = 5, platform: str | None = None) -> dict:
    """``runs`` cold starts on a new database and ``runs`` on a database made by a run before;
    the seconds from process start to each phase, per run, and their medians."""
    out: dict = {"runs": runs, "platform": platform or os.environ.get("QT_QPA_PLATFORM", "offscreen"),
                 "load_average_1min_before": round(os.getloadavg()[0], 2)}
    samples: dict[str, list[dict]] = {"new_db": [], "existing_db": []}
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="pitdesk-cold-") as home:
            env = {**os.environ, "PITDESK_HOME": home, "XDG_DATA_HOME": home, "XDG_CONFIG_HOME": home,
                   "XDG_CACHE_HOME": home, "QT_QPA_PLATFORM": out["platform"]}
            for kind in ("new_db", "existing_db"):
                t0 = time.monotonic()
                p = subprocess.run([sys.executable, __file__, "--cold-child", "--db", f"{home}/demo.db"],
                                   cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
                line = next((x for x in p.stdout.splitlines() if x.startswith(MARK)), None)
                if p.returncode != 0 or line is None:
                    raise SystemExit(f"cold start run failed ({p.returncode}): {p.stderr[-2000:]}")
                marks = json.loads(line[len(MARK):])["marks"]
                samples[kind].append({k: round(v - t0, 3) for k, v in marks.items()})
    for kind, rows in samples.items():
        phases = list(rows[0])
        out[kind] = {"median_s": {ph: round(statistics.median(r[ph] for r in rows), 3) for ph in phases},
                     "runs_s": rows}
    return out


# -- 2. the live floor -------------------------------------------------------------------------------
CLASSES = ("shuffler", "progressive", "rng")
PREFIX = {"shuffler": "SHF", "progressive": "PRG", "rng": "RNG"}
# About 10 frames/s from each device (docs/devices.md, "Simulators": a step waits its delay times
# the pace): the shuffler's steps average 1.45 s at pace 1, the controller's 0.9 s plus the meter
# broadcast every second, the RNG display's 2 s. The measured rates are in the figures.
PACE = {"shuffler": 0.13, "progressive": 0.2, "rng": 0.05}   # the shuffler sends a hand_read per position each deal (issue 14): 0.13 keeps it at 10 frames/s
STALL_TIMER_MS = 5
STALL_MS = 50.0


def _serial(cls: str, n: int) -> str:
    return f"{PREFIX[cls]}-T{n}"


def _make_devices(tables: int, seed: int = 13) -> dict:
    """serial -> a simulated device whose meter frames are stamped as they go to the line."""
    from app.devices.messages import BY_NAME, decode_message
    from app.simulate.sim_device import SimDevice
    meter = BY_NAME["meter"].code

    class Stamped(SimDevice):
        """A meter frame with a new value: (cents, time.perf_counter()) as it is written out."""
        def __init__(self, *a, **kw):
            super().__init__(*a, **kw)
            self.sent: list[tuple[int, float]] = []
            self._last_cents = None

        def _emit(self, kind, frame, now):
            if kind == "new" and frame.type == meter:
                cents = decode_message(frame)["cents"]
                if cents != self._last_cents:
                    self._last_cents = cents
                    self.sent.append((cents, time.perf_counter()))
            super()._emit(kind, frame, now)

    out, k = {}, 0
    for n in range(1, tables + 1):
        for cls in CLASSES:
            # no faults and no progressive hits: every meter value is new and the meter only grows
            tuning = {"hit_rate": 0.0} if cls == "progressive" else {}
            out[_serial(cls, n)] = Stamped(cls, _serial(cls, n), faults=(), seed=seed * 1000 + k, pace=PACE[cls],
                                           fault_rate=0.0, **tuning)
            k += 1
    return out


def _frames(served: dict) -> dict:
    return {s: h.stats["frames_sent"] for s, h in served.items()}


def _mark(served: dict) -> tuple[float, dict, float]:
    return time.perf_counter(), _frames(served), sum(os.times()[:2])


def _device_report(devices: dict, served: dict, mark: tuple[float, dict, float]) -> dict:
    """What was sent: the meter stamps, and the frames each class sent a second since ``mark``
    (the start of the measurement: the time, every device's frame count, the CPU time)."""
    at, before, cpu = mark
    seconds = time.perf_counter() - at
    after = _frames(served)
    frames = {cls: 0 for cls in CLASSES}
    for s, dev in devices.items():
        frames[dev.kind] += after[s] - before.get(s, 0)
    n = len(devices) // len(CLASSES)
    return {"stamps": {s: dev.sent for s, dev in devices.items() if dev.kind == "progressive"},
            "frames_per_s_per_device": {cls: round(v / n / seconds, 2) for cls, v in frames.items()},
            "retransmitted": sum(h.stats["retransmitted"] for h in served.values()),
            "given_up": sum(h.stats["given_up"] for h in served.values()),
            "cpu_s": round(sum(os.times()[:2]) - cpu, 2)}


def _devices_child(tables: int) -> int:
    """In the device process: serve every device and print their URLs (one JSON line); a line
    on stdin starts the measurement, the next ends it: what was sent is printed (one JSON line)
    and the devices stop. The end of stdin does too, if the workstation's side is gone."""
    from app.workstation.runner import stop_together
    devices = _make_devices(tables)
    served = {s: d.serve_tcp("127.0.0.1", 0) for s, d in devices.items()}
    print(json.dumps({s: h.url for s, h in served.items()}), flush=True)
    sys.stdin.readline()                       # the measurement starts
    mark = _mark(served)
    sys.stdin.readline()                       # and ends
    report = _device_report(devices, served, mark)
    stop_together([h.stop for h in served.values()])
    print(json.dumps(report), flush=True)
    return 0


class _DevicesHere:
    """The devices in this process, as the demo floor runs them."""

    def __init__(self, tables: int):
        self.devices = _make_devices(tables)
        self.served = {s: d.serve_tcp("127.0.0.1", 0) for s, d in self.devices.items()}
        self.urls = {s: h.url for s, h in self.served.items()}
        self.at = _mark(self.served)
        self.report: dict | None = None

    def mark(self) -> None:
        self.at = _mark(self.served)

    def end(self) -> None:
        self.report = _device_report(self.devices, self.served, self.at)

    def stop(self) -> None:
        from app.workstation.runner import stop_together
        stop_together([h.stop for h in self.served.values()])


class _DevicesThere:
    """The devices in a process of their own (real devices do not share the workstation's GIL)."""

    def __init__(self, tables: int):
        self.proc = subprocess.Popen([sys.executable, __file__, "--devices-child", "--tables", str(tables)],
                                     cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.urls = json.loads(self.proc.stdout.readline())
        self.report: dict | None = None
        self.marked = False

    def _say(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def mark(self) -> None:
        self._say("mark")
        self.marked = True

    def end(self) -> None:
        if not self.marked:
            self.mark()
        self._say("end")
        self.report = json.loads(self.proc.stdout.readline())

    def stop(self) -> None:
        if self.proc.poll() is None:
            if self.report is None:
                self.end()
            self.proc.wait(30)


def _config(urls: dict, tables: int, cols: int):
    from app.workstation.config import DeviceSetup, TableSetup, WorkstationConfig
    return WorkstationConfig(tuple(
        TableSetup(f"T{n}", "section6", tuple(DeviceSetup(cls, _serial(cls, n), urls[_serial(cls, n)])
                                              for cls in CLASSES), (n - 1) // cols + 1, (n - 1) % cols + 1)
        for n in range(1, tables + 1)), source="gui_bench")


def _pct(xs: list[float], q: float) -> float:
    """The q-quantile by the nearest rank (q=0.99: 99 % of the values are at or below it)."""
    s = sorted(xs)
    return s[max(0, math.ceil(q * len(s) - 1e-9) - 1)] if s else float("nan")


def _summary(xs: list[float], digits: int = 1) -> dict:
    if not xs:
        return {"n": 0}
    return {"n": len(xs), "p50": round(statistics.median(xs), digits), "p99": round(_pct(xs, 0.99), digits),
            "max": round(max(xs), digits), "mean": round(statistics.fmean(xs), digits)}


def _cents(text: str) -> int | None:
    digits = "".join(ch for ch in text if ch.isdigit())
    return int(digits) if digits else None


def floor_bench(tables: int = 40, seconds: float = 30.0, pump_ms: int = 100, devices: str = "process",
                size: tuple[int, int] = (1920, 1080), warmup: float = 3.0, cols: int = 8,
                playing: float = 0.0, profile: str | None = None) -> dict:
    """The real window over the real workstation and ``tables`` x 3 simulated devices; see the
    module's text. ``playing``: besides them, the seven demo tables (P1 to P7) play by themselves
    at that many rounds an hour (app/simulate/table_play.py), their devices in this process, as
    on the demo floor. ``profile``: a file for cProfile's account of the pump, the tiles' read,
    the window's update and the log writer's commit while measured. The figures as a dict
    (milliseconds unless said)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    home = tempfile.TemporaryDirectory(prefix="pitdesk-gui-bench-")
    saved_home = os.environ.get("PITDESK_HOME")
    os.environ["PITDESK_HOME"] = home.name     # the install key and heads of this run only
    from app.views import theme
    from app.views.bridge import Bridge
    from app.views.main_window import MainWindow
    from app.qt import QApplication, QEvent, QObject, QSettings, Qt, QTimer
    from app.simulate import demo
    from app.workstation.workstation import Workstation

    app = QApplication.instance() or QApplication(sys.argv[:1])
    theme.apply(app)
    app.setStyleSheet(theme.stylesheet())

    # Where the time goes: the lane's pump and reads; on the GUI thread the handling of an
    # update and the repaint of the window; the audit writer's commit (on its own thread: the
    # pump waits for it). Each span is (start, end, the thread's CPU seconds meanwhile): wall time
    # beyond the CPU time is time the thread waited, for the GIL, or (the lane) for the audit
    # writer's commit, or (the writer) for the disk.
    spans: dict[str, list[tuple[float, float, float]]] = {
        k: [] for k in ("lane_pump_and_read", "ws_pump", "ws_tiles", "gui_on_update", "gui_repaint", "log_commit")}
    measuring = [False]
    # one profiler a span that no other profiled span runs inside (a profiler is its thread's)
    profilers = {k: cProfile.Profile() for k in ("ws_pump", "ws_tiles", "gui_on_update", "log_commit")} \
        if profile else {}

    def timed(key, fn):
        prof = profilers.get(key)

        def run(*a, **kw):
            t, c = time.perf_counter(), time.thread_time()
            on = prof is not None and measuring[0]
            if on:
                prof.enable()
            try:
                return fn(*a, **kw)
            finally:
                if on:
                    prof.disable()
                if measuring[0]:
                    spans[key].append((t, time.perf_counter(), time.thread_time() - c))
        return run

    class Window(MainWindow):
        """The real main window; only its repaint (every widget's paintEvent, the flush) is timed."""
        def event(self, e):
            if e.type() != QEvent.Type.UpdateRequest:
                return super().event(e)
            return timed("gui_repaint", super().event)(e)

    dev = _DevicesThere(tables) if devices == "process" else _DevicesHere(tables)
    played = None
    config = _config(dev.urls, tables, cols)
    if playing:
        from app.workstation.config import WorkstationConfig
        below = (tables - 1) // cols + 1
        ptables = tuple((f"P{n}", prof, (below + row, col), classes)
                        for n, (_, prof, (row, col), classes) in enumerate(demo.DEMO_TABLES, start=1))
        played = demo.DemoDevices(ptables, driven=True, seed=5)
        config = WorkstationConfig(config.tables + demo.demo_config(played.start(), ptables).tables,
                                   source="gui_bench")
    try:
        ws = Workstation(config, Path(home.name) / "bench.db", install_serial="pitdesk-bench",
                         on_close=[played.stop] if played else [])
    except BaseException:
        dev.stop()
        if played:
            played.stop()
        raise
    pump_work, on_update = Bridge._pump_work, MainWindow.on_update
    try:
        demo.open_demo_tables(ws)
        ws.live.pump = timed("ws_pump", ws.live.pump)
        ws.reads.tiles = timed("ws_tiles", ws.reads.tiles)
        ws.log._commit = timed("log_commit", ws.log._commit)   # on the writer's thread
        Bridge._pump_work = lambda self, wanted: timed("lane_pump_and_read", pump_work)(self, wanted)
        MainWindow.on_update = lambda self, u: timed("gui_on_update", on_update)(self, u)
        ws.start()
        if played:
            from app.simulate.table_play import Pace
            demo.add_demo_users(ws)
            demo.start_dealers(ws, played, Pace(rounds_per_hour=playing), seed=5)
        settings = QSettings(str(Path(home.name) / "settings.ini"), QSettings.Format.IniFormat)
        window = Window(ws, settings=settings, pump_ms=pump_ms, title="gui bench")
        # the size asked for: a first window fills its screen, maximized (issue 27), and the offscreen
        # screen is 800x800, where 28 of the 40 tiles were out of sight and never painted
        window.set_size(*size)
        window.show()
        window.start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (
                len(window.floor.tiles) == len(config.tables)
                and all(light.state == "online" for t in window.tiles.values() for light in t.lights)):
            app.processEvents()
            time.sleep(0.01)
        online = sum(light.state == "online" for t in window.tiles.values() for light in t.lights)

        # every tile's meter label: the paints that show a new value
        painted: dict[str, list[tuple[int, float]]] = {t: [] for t in window.floor.tiles}
        label_table = {}

        class MeterPaints(QObject):
            def eventFilter(self, obj, event):
                if event.type() == QEvent.Type.Paint:
                    cents = _cents(obj.text())
                    seen = painted[label_table[id(obj)]]
                    if cents is not None and (not seen or seen[-1][0] != cents):
                        seen.append((cents, time.perf_counter()))
                return False

        meter_paints = MeterPaints()
        for table, w in window.floor.tiles.items():
            label_table[id(w.meter)] = table
            w.meter.installEventFilter(meter_paints)

        # the event loop's stalls: how late each 5 ms timeout is
        late: list[tuple[float, float]] = []
        last = [0.0]
        depth: list[int] = []         # the link queue, about once a second: does the pump keep up?

        def tick():
            now = time.perf_counter()
            late.append((now, (now - last[0]) * 1000 - STALL_TIMER_MS))
            if len(late) % (1000 // STALL_TIMER_MS) == 0:
                depth.append(ws.events.qsize())
            last[0] = now
        stall_timer = QTimer()
        stall_timer.setTimerType(Qt.TimerType.PreciseTimer)
        stall_timer.setInterval(STALL_TIMER_MS)
        stall_timer.timeout.connect(tick)

        marks = {}

        def start_measuring():
            marks["load"] = round(os.getloadavg()[0], 2)   # other work on the machine, before and after
            marks["seq"] = ws.log.seq
            marks["from"] = last[0] = time.perf_counter()
            marks["cpu"] = os.times()
            marks["updates"], marks["pumps"] = window.updates, window.bridge.pumps
            measuring[0] = True
            stall_timer.start()
            dev.mark()

        def stop_measuring():
            marks["end"] = time.perf_counter()
            marks["cpu_end"] = os.times()
            measuring[0] = False
            stall_timer.stop()
            marks["updates"], marks["pumps"] = (window.updates - marks["updates"],
                                                window.bridge.pumps - marks["pumps"])
            app.quit()
        QTimer.singleShot(int(warmup * 1000), start_measuring)
        QTimer.singleShot(int((warmup + seconds) * 1000), stop_measuring)
        app.exec()
        dev.end()
        window.bridge.lane.wait(10_000)
        rows = {r["type"]: r["n"] for r in ws.log.query(
            "SELECT type, count(*) AS n FROM events WHERE seq > ? GROUP BY type ORDER BY n DESC", (marks["seq"],))}
        zoom = window.floor.zoom
        window_size = window.size()   # as it was measured (the size asked for, not its screen)
        window.close()
        app.processEvents()
    finally:
        Bridge._pump_work, MainWindow.on_update = pump_work, on_update
        ws.close()
        dev.stop()
        home.cleanup()
        if saved_home is None:
            os.environ.pop("PITDESK_HOME", None)
        else:
            os.environ["PITDESK_HOME"] = saved_home

    if profile:
        with open(profile, "w", encoding="utf-8") as f:
            for key, prof in profilers.items():
                f.write(f"===== {key}: cProfile, cumulative, while measured\n")
                pstats.Stats(prof, stream=f).sort_stats("cumulative").print_stats(40)

    # frame sent -> the first paint of its value (or a later one) on its table's tile
    report = dev.report
    latencies, unpainted = [], 0
    for serial_, sent in report["stamps"].items():
        shown = painted.get("T" + serial_.split("-T", 1)[1], [])
        k = 0
        for cents, at in sent:
            if not marks["from"] <= at < marks["end"] - 1.0:   # the last second's may not be painted yet
                continue
            while k < len(shown) and shown[k][0] < cents:
                k += 1
            if k == len(shown):
                unpainted += 1
            else:
                latencies.append((shown[k][1] - at) * 1000)
    stalls = [(ms_, at - marks["from"]) for at, ms_ in late if at >= marks["from"]]
    took = marks["end"] - marks["from"]

    def overlap(a: float, b: float, key: str) -> float:
        return sum(max(0.0, min(b, e) - max(a, s)) for s, e, _ in spans[key])
    # each stall over 50 ms: how much of it the GUI thread spent handling an update, repainting,
    # and the rest (other events, or waiting for the GIL between them)
    long = [(at - x / 1000 - STALL_TIMER_MS / 1000, at) for at, x in late if at >= marks["from"] and x > STALL_MS]
    in_update = sum(overlap(a, b, "gui_on_update") for a, b in long) * 1000
    in_repaint = sum(overlap(a, b, "gui_repaint") for a, b in long) * 1000
    total_long = sum(b - a for a, b in long) * 1000

    def where(key: str) -> dict:
        wall = [(e - s) * 1000 for s, e, _ in spans[key]]
        return {**_summary(wall), "cpu_share": round(sum(c for *_, c in spans[key]) / max(1e-9, sum(wall) / 1000), 2)}
    cpu = sum(b - a for a, b in list(zip(marks["cpu"], marks["cpu_end"]))[:2])
    return {
        "tables": tables, "devices": tables * len(CLASSES), "devices_in": devices, "seconds": round(took, 1),
        "pump_ms": pump_ms, "window": f"{window_size.width()}x{window_size.height()}",
        "platform": os.environ.get("QT_QPA_PLATFORM"),
        "cores": os.cpu_count(), "load_average_1min": [marks["load"], round(os.getloadavg()[0], 2)],
        "links_online_at_start": online,
        "tiles_whose_meter_painted": sum(any(at >= marks["from"] for _, at in v) for v in painted.values()),
        "floor_zoom": round(zoom, 3),
        "device_frames_per_s": report["frames_per_s_per_device"],
        "retransmitted": report["retransmitted"], "given_up": report["given_up"],
        "frame_to_tile_ms": {**_summary(latencies), "unpainted": unpainted},
        "stall_ms": {**_summary([x for x, _ in stalls]), "over_50ms": sum(x > STALL_MS for x, _ in stalls),
                     "worst_at_s": [[round(x, 1), round(at, 2)] for x, at in sorted(stalls, reverse=True)[:5]],
                     "over_50ms_total": round(total_long), "of_which_on_update": round(in_update),
                     "of_which_repaint": round(in_repaint)},
        "updates": marks["updates"], "pumps": marks["pumps"],
        "link_queue_depth": {"max": max(depth, default=0), "last": depth[-1] if depth else 0,
                             "each_s": depth[:: max(1, len(depth) // 10)]},
        "where_ms": {k: where(k) for k in spans},
        "gui_thread_busy_fraction": round(sum(e - s for k in ("gui_on_update", "gui_repaint")
                                              for s, e, _ in spans[k]) / took, 3),
        "rows_logged_per_s": {k: round(v / took, 1) for k, v in rows.items()},
        "cpu_cores_used": {"workstation_process": round(cpu / took, 2),
                           "device_process": round(report["cpu_s"] / took, 2) if devices == "process" else None},
    }


def bench(seconds: float = 30.0, tables: int = 40, runs: int = 5) -> list[tuple[str, str, str, str]]:
    """The rows ``bench/run_all.py`` prints: (benchmark, what, figure, note). The floor runs in a
    process of its own, as it does alone: run_all's process still holds what the hand
    benchmarks made (a million hands in lists), which the collector would walk meanwhile."""
    cold = cold_start(runs)
    p = subprocess.run([sys.executable, __file__, "--floor-only", "--tables", str(tables), "--seconds", str(seconds)],
                       cwd=ROOT, capture_output=True, text=True, timeout=seconds + 300,
                       env={**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")})
    if p.returncode != 0:
        raise SystemExit(f"the floor benchmark failed ({p.returncode}): {p.stderr[-2000:]}")
    floor = json.loads(p.stdout)["floor"]
    rows = []
    for kind, what in (("new_db", "a new demo database"), ("existing_db", "the demo database of a run before")):
        m = cold[kind]["median_s"]
        rows.append(("gui_cold_start", f"pitdesk gui --demo on {what}: process start to the main window's first "
                     f"paint, median of {runs} ({cold['platform']})", f"{m['main_window_first_paint']:.2f} s",
                     f"tiles painted {m['tiles_first_paint']:.2f} s; workstation open {m['workstation_open']:.2f} s"))
    lat, st = floor["frame_to_tile_ms"], floor["stall_ms"]
    rows.append(("gui_frame_to_tile", f"{tables} tables x 3 devices x 10 frames/s, {seconds:g} s, the real window "
                 f"({floor['platform']}), devices in their own process, pump {floor['pump_ms']} ms",
                 f"p99 {lat['p99']:.0f} ms", f"p50 {lat['p50']:.0f} ms, max {lat['max']:.0f} ms over {lat['n']} meter "
                 f"frames; event-loop stalls over 50 ms: {st['over_50ms']}, longest {st['max']:.0f} ms"))
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cold-child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--devices-child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--tables", type=int, default=40)
    ap.add_argument("--seconds", type=float, default=30.0)
    ap.add_argument("--pump-ms", type=int, default=100, help="the bridge's pump interval (default 100, "
                                                              "the window's own)")
    ap.add_argument("--devices", choices=("process", "thread"), default="process",
                    help="the simulated devices in a process of their own (default) or in this one")
    ap.add_argument("--size", default="1920x1080", help="the window's size (default 1920x1080)")
    ap.add_argument("--cols", type=int, default=8, help="tiles a row on the floor (default 8)")
    ap.add_argument("--switch-interval", type=float, default=None, metavar="S",
                    help="sys.setswitchinterval for this process (an experiment; Python's default is 0.005)")
    ap.add_argument("--playing", type=float, default=0.0, metavar="ROUNDS_PER_HOUR",
                    help="besides the tables, the seven demo tables playing by themselves at that pace (default: none)")
    ap.add_argument("--profile", default=None, metavar="FILE",
                    help="the floor: cProfile's account of the pump, the tiles' read, the window's update and the "
                         "log writer's commit while measured, written to FILE")
    ap.add_argument("--cold-start-only", action="store_true")
    ap.add_argument("--floor-only", action="store_true")
    ap.add_argument("--runs", type=int, default=5, help="cold starts of each kind (default 5)")
    ap.add_argument("--platform", default=None, help="QT_QPA_PLATFORM for the cold starts (default: as set, "
                                                     "else offscreen)")
    args, rest = ap.parse_known_args()
    if args.cold_child:
        return _cold_child(rest)
    if args.devices_child:
        return _devices_child(args.tables)
    if rest:
        ap.error(f"unrecognised arguments: {' '.join(rest)}")
    out = {}
    if args.switch_interval:
        sys.setswitchinterval(args.switch_interval)
    if not args.floor_only:
        out["cold_start"] = cold_start(args.runs, args.platform)
    if not args.cold_start_only:
        w, h = (int(x) for x in args.size.split("x"))
        out["floor"] = floor_bench(args.tables, args.seconds, args.pump_ms, args.devices, (w, h), cols=args.cols,
                                   playing=args.playing, profile=args.profile)
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
