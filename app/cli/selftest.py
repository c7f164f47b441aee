"""``pitdesk --self-test``: the installed workstation checks itself, frozen or from source.

A technician runs it after copying a build onto a pit machine (README, "Installing"). It runs on
Qt's offscreen platform (unless ``QT_QPA_PLATFORM`` says otherwise), in a temporary folder of its
own (its database, install key and heads there, ``PITDESK_HOME``; the user's data and remembered
window are never touched), and prints one JSON line per check, in order:

| check | what passes |
|---|---|
| ``qt_plugins`` | Qt started on its platform; the offscreen and xcb platform plugins and the cups print support plugin are in the build (whether xcb loads on this machine is said, not judged: it needs system libraries, README) |
| ``main_window`` | the main window opened on the demo floor, in the faces the build ships (``fonts``), every table a tile, every simulated device online over loopback TCP; a profile no demo table plays has a table of its own, dealt by hand (``floor_tables``) |
| ``settle_<profile>`` | for each rule profile, one example round (docs/rounds/, shipped in the build) settled at a demo table through the window's own lane as the round panel does: approved by the role each approval needs, released with its payouts and slips; its net by party adds to zero in whole cents |
| ``chart`` | a pyqtgraph chart (the progressive meter's, app/views/progressive_chart.py) drawn with its curve, and exported by pyqtgraph's exporter |
| ``report_pdf`` | a one-page PDF report rendered from the log: the shift report's pit page of the shift the demo floor is in (app/reports/shift_report.py), counting the rounds the self-test settled |
| ``printers`` | the printers Qt's print support lists here (none is not a failure) and a QPrinter made |
| ``audit_db`` | the fresh audit database, closed, verifies: chain, seals and the recorded head |

Each line is ``{"check", "ok", "seconds", ...what it found}``, a failure with ``"error"``. The exit
status is 0 only if every check passed, else 1; the summary goes to stderr.
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# the example rounds: docs/rounds/ beside app/ from source, and in the frozen build's _internal/
ROUNDS = Path(__file__).resolve().parents[2] / "docs" / "rounds"
# a round per profile: the house-banked one where there is one (a bank the procedures accept at
# any table), else the profile's first (002 plays only with a player-dealer)
PREFERRED = "house"
WAIT_S = 30.0            # the most any one wait of a check may take
PAYEE = {"name": "Self Test", "address": "1 Test Street, Reno NV", "tin": "000-00-0000",
         "id_type": "driver license", "id_number": "SELFTEST1"}
SIGN_IN = {"dealer": "demo-dealer", "floor supervisor": "demo-floor", "pit manager": "demo-pit"}


class CheckFailed(Exception):
    def __init__(self, message: str, **found):
        super().__init__(message)
        self.found = found


def add_argument(parser) -> None:
    parser.add_argument("--self-test", action="store_true",
                        help="check this installation: the window on the demo floor with simulated devices, a "
                             "round of each profile settled, a chart, a PDF report, the printers, a fresh audit "
                             "database verified; one JSON line per check, exit 0 only if all passed")


def run(args=None, out=None) -> int:
    out = out or sys.stdout
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    start = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="pitdesk-selftest-") as tmp:
        previous = os.environ.get("PITDESK_HOME")
        os.environ["PITDESK_HOME"] = str(Path(tmp) / "home")    # the key and the heads; the link process too
        try:
            results = SelfTest(Path(tmp), out).run()
        finally:
            if previous is None:
                os.environ.pop("PITDESK_HOME", None)
            else:
                os.environ["PITDESK_HOME"] = previous
    failed = [r["check"] for r in results if not r["ok"]]
    took = time.monotonic() - start
    if failed:
        print(f"pitdesk: self-test FAILED: {', '.join(failed)} ({len(results) - len(failed)} of {len(results)} "
              f"checks passed, {took:.1f} s)", file=sys.stderr)
        return 1
    print(f"pitdesk: self-test passed: {len(results)} checks in {took:.1f} s", file=sys.stderr)
    return 0


def round_files() -> dict[str, Path]:
    """profile -> the example round the self-test settles for it."""
    by_profile: dict[str, list[Path]] = {}
    for path in sorted(ROUNDS.glob("*.json")):
        by_profile.setdefault(json.loads(path.read_text(encoding="utf-8"))["profile"], []).append(path)
    return {p: next((f for f in files if f.stem.endswith(PREFERRED)), files[0])
            for p, files in sorted(by_profile.items())}


def floor_tables() -> tuple:
    """The demo floor's tables (app/simulate/demo.py), and for each profile with an example round that
    no demo table plays, a table of its own, dealt by hand with no devices, in the free places."""
    from app.simulate.demo import DEMO_TABLES
    played = {prof for _, prof, _, _ in DEMO_TABLES}
    taken = {pos for _, _, pos, _ in DEMO_TABLES}
    free = ((row, col) for row in range(1, 100) for col in range(1, 5) if (row, col) not in taken)
    extra = tuple((f"T{len(DEMO_TABLES) + 1 + n}", prof, next(free), ())
                  for n, prof in enumerate(p for p in round_files() if p not in played))
    return DEMO_TABLES + extra


class SelfTest:
    def __init__(self, tmp: Path, out):
        self.tmp = tmp
        self.out = out
        self.results: list[dict] = []
        self.app = self.window = self.ws = None
        self.settled: dict[str, int] = {}     # profile -> settlement seq
        self.db = tmp / "selftest.db"

    # -- running the checks ---------------------------------------------------------------------
    def run(self) -> list[dict]:
        try:
            self.check("qt_plugins", self.qt_plugins)
            opened = self.check("main_window", self.main_window)
            files = round_files()
            if not files:
                self.fail("settle", f"no example rounds in {ROUNDS}")
            for prof, path in files.items():
                if opened:
                    self.check(f"settle_{prof}", lambda p=prof, f=path: self.settle(p, f))
                else:
                    self.fail(f"settle_{prof}", "not run: the main window did not open")
            self.check("chart", self.chart)
            self.check("report_pdf", self.report_pdf)
            self.check("printers", self.printers)
        finally:
            self.close()
        self.check("audit_db", self.audit_db)
        return self.results

    def check(self, name: str, fn: Callable[[], dict]) -> bool:
        t0 = time.monotonic()
        try:
            found = fn() or {}
            row = {"check": name, "ok": True, "seconds": round(time.monotonic() - t0, 3), **found}
        except CheckFailed as e:
            row = {"check": name, "ok": False, "seconds": round(time.monotonic() - t0, 3), "error": str(e), **e.found}
        except Exception as e:   # a check that raises fails; the others still run
            row = {"check": name, "ok": False, "seconds": round(time.monotonic() - t0, 3),
                   "error": f"{type(e).__name__}: {e}"}
        self.emit(row)
        return row["ok"]

    def fail(self, name: str, why: str) -> None:
        self.emit({"check": name, "ok": False, "seconds": 0.0, "error": why})

    def emit(self, row: dict) -> None:
        self.results.append(row)
        print(json.dumps(row, default=str), file=self.out, flush=True)

    def wait(self, what: str, done: Callable[[], bool], timeout: float = WAIT_S) -> None:
        """Qt's events run until ``done()``; a check fails naming ``what`` after ``timeout``."""
        from app.qt import QEventLoop
        end = time.monotonic() + timeout
        while not done():
            if time.monotonic() > end:
                raise CheckFailed(f"{what}: not within {timeout:g} s")
            self.app.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
            time.sleep(0.01)

    def on_lane(self, what: str, action: Callable, timeout: float = WAIT_S):
        """``action(workstation)`` on the window's bridge lane, the one thread every action and pump
        takes turns on (app/views/bridge.py), so no device's pump lands in the middle of it."""
        box: dict = {}
        self.window.bridge.act(action, lambda r: box.setdefault("result", r), lambda e: box.setdefault("error", e))
        self.wait(what, lambda: box)
        if "error" in box:
            raise CheckFailed(f"{what}: {box['error']}")
        return box["result"]

    # -- the checks -----------------------------------------------------------------------------
    def qt_plugins(self) -> dict:
        from app.views import startup
        from app.qt import QApplication, QLibraryInfo
        problem = startup.platform_problem()
        if problem is not None:
            raise CheckFailed(problem, platform=os.environ.get("QT_QPA_PLATFORM"))
        self.app = QApplication.instance() or QApplication(["pitdesk"])
        plugins = startup.plugins_dir()
        need = {"offscreen": plugins / "platforms" / "libqoffscreen.so",
                "xcb": plugins / "platforms" / "libqxcb.so",
                "cups": plugins / "printsupport" / "libcupsprintersupport.so"}
        missing = [f"{k} ({p})" for k, p in need.items() if not p.exists()]
        found = {"platform": self.app.platformName(), "qt": QLibraryInfo.version().toString(),
                 "plugins": str(plugins), "frozen": bool(getattr(sys, "frozen", False)),
                 "xcb_loads_here": startup.load_problem("xcb") or True}
        if missing:
            raise CheckFailed(f"plugins missing from the build: {', '.join(missing)}", **found)
        return found

    def main_window(self) -> dict:
        from app.views import theme
        from app.views.main_window import MainWindow
        from app.qt import QSettings
        from app.simulate.demo import open_demo
        theme.apply(self.app)
        self.app.setStyleSheet(theme.stylesheet())
        tables = floor_tables()
        self.ws, _ = open_demo(self.db, tables=tables, faults=(), fault_rate=0.0, seed=17)
        settings = QSettings(str(self.tmp / "settings.ini"), QSettings.Format.IniFormat)
        self.window = MainWindow(self.ws, settings=settings, title="demo floor (self-test)")
        self.window.resize(1366, 768)
        self.window.show()
        self.window.start()
        devices = sum(len(classes) for *_, classes in tables)
        lights: dict = {}

        def online() -> bool:
            lights.clear()
            lights.update({x.serial: x.state for t in self.ws.reads.tiles() for x in t.lights})
            return len(lights) == devices and all(s == "online" for s in lights.values())
        try:
            self.wait(f"all {devices} simulated devices online over loopback", online)
        except CheckFailed as e:
            raise CheckFailed(str(e), lights=lights) from None
        if not self.window.isVisible():
            raise CheckFailed("the main window is not shown")
        from app.reports import fonts
        # the faces the window and the paper are laid out in, read from the build's resources/fonts/
        faces = sorted({f for families in fonts.load().values() for f in families})
        return {"tables": list(self.ws.tables()), "devices_online": len(lights), "window": self.window.windowTitle(),
                "fonts": faces}

    def settle(self, prof: str, path: Path) -> dict:
        obj = json.loads(path.read_text(encoding="utf-8"))
        tables = [t.id for t in self.ws.config.tables if t.profile == prof]
        if not tables:
            raise CheckFailed(f"no demo table plays {prof}")
        table = tables[0]

        from app.workstation.errors import Refused

        def play(ws):
            """A dealer enters and settles the round; each approval is decided by the role it
            needs; a floor supervisor releases the payouts (W-2G data where a slip needs it)."""
            ws.people.sign_in(SIGN_IN["dealer"], "4444")
            bank = obj.get("banking") or {}
            if bank.get("mode", "house") != "house":
                # a player bank sits at the table first (000(m)(2), 002: the player-dealer is seated)
                try:
                    ws.decisions.record(table, "player_seated", {"seat": bank["seat"]})
                except Refused:
                    pass      # seated already; anything else is named by load_round below
            if ws.rounds.draft(table) is not None:     # a card-reading device began one: the file replaces it
                ws.rounds.discard(table)
            ws.rounds.load(table, obj)
            r = ws.rounds.settle(table).result
            for a in r.approvals:
                who = SIGN_IN[a.role_needed]
                ws.people.sign_in(who, {"demo-floor": "2222", "demo-pit": "3333"}[who])
                ws.decisions.decide(a.request, "approved", "pitdesk --self-test")
            ws.people.sign_in(SIGN_IN["floor supervisor"], "2222")
            payees = {p.seat: PAYEE for p in ws.rounds.result(r.settlement).payouts if p.w2g}
            done = ws.rounds.release(r.settlement, payees).result
            ws.people.sign_out()
            return r, done
        settled, released = self.on_lane(f"settling {path.name} at {table}", play)
        net = settled.net_by_party
        if sum(net.values()) != 0 or not all(isinstance(c, int) for c in net.values()):
            raise CheckFailed(f"the net by party does not add to zero cents: {net}")
        if not all(line.rule for line in settled.ledger):
            raise CheckFailed("a ledger line cites no rule")
        if released.status != "released":
            raise CheckFailed(f"the round was not released: {released.status_text}")
        self.settled[prof] = settled.settlement
        return {"table": table, "round_file": path.name, "settlement": settled.settlement,
                "approvals": len(settled.approvals), "payouts": len(released.payouts),
                "slips": [p.slip for p in released.payouts if p.slip], "net_by_party_cents": net}

    def chart(self) -> dict:
        from datetime import datetime, timedelta

        from app.views.progressive_chart import MeterChart
        from app.qt import QColor
        from app.views.theme import TEXT
        from app.workstation.progressive_readout import clock_seconds
        if self.app is None:
            raise CheckFailed("not run: Qt did not start")
        chart = MeterChart("selftest_chart")
        t0 = datetime(2026, 11, 23, 14, 0)
        times = [t0 + timedelta(minutes=m) for m in range(0, 240, 2)]
        # a meter climbing a cent at a time with a hit and a reset to $10,000.00 (000(q)(6))
        cents = [1_000_000 + 37 * i * i for i in range(60)] + [1_000_000 + 11 * i * i for i in range(60)]
        chart.extend([clock_seconds(t) for t in times], cents)
        chart.set_marks([(times[59], cents[59], "PAID")], [(times[60], 1_000_000)])
        if not chart.redraw():
            raise CheckFailed("the chart took no readings")
        chart.span(times[0], times[-1])
        chart.widget.resize(800, 400)
        chart.widget.show()
        self.app.processEvents()
        image = chart.widget.grab().toImage()
        want = QColor(TEXT).rgb() & 0xFFFFFF
        drawn = sum(1 for y in range(0, image.height(), 2) for x in range(0, image.width(), 2)
                    if image.pixel(x, y) & 0xFFFFFF == want)
        exporter = chart.pg.exporters.ImageExporter(chart.widget.getPlotItem())
        png = self.tmp / "chart.png"
        exporter.export(str(png))
        chart.widget.close()
        if drawn < 100:
            raise CheckFailed(f"the meter's curve is not on the chart ({drawn} pixels of its colour)")
        if not png.exists() or png.stat().st_size < 1000:
            raise CheckFailed("pyqtgraph's exporter wrote no picture")
        return {"readings": len(cents), "curve_pixels_sampled": drawn, "exported_png_bytes": png.stat().st_size,
                "pyqtgraph": chart.pg.__version__}

    def report_pdf(self) -> dict:
        if self.ws is None:
            raise CheckFailed("not run: the main window did not open")
        path = self.tmp / "report.pdf"
        shift = self.ws.shifts.shift_of(self.ws.clock())
        report = self.ws.reads.shift_report(shift.start.date(), shift.name)
        # (a self-test that straddles a shift's end leaves some of its rounds in the shift before)
        if not 1 <= report.rounds <= len(self.settled):
            raise CheckFailed(f"the shift report counts {report.rounds} rounds; {len(self.settled)} were settled")
        pages = render_report_pdf(report, path)
        data = path.read_bytes()
        objects = len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", data))     # page objects, not /Pages
        if not data.startswith(b"%PDF-"):
            raise CheckFailed(f"{path.name} is not a PDF")
        if pages < 1 or objects != pages:
            raise CheckFailed(f"the report has {pages} pages drawn, {objects} in the file; expected the same, "
                              "one or more")
        return {"report": "shift", "shift": report.shift.label, "rounds": report.rounds,
                "chain_head": report.head_text, "bytes": len(data), "pages": pages}

    def printers(self) -> dict:
        from app.qt import QPrinter, QPrinterInfo
        if self.app is None:
            raise CheckFailed("not run: Qt did not start")
        names = list(QPrinterInfo.availablePrinterNames())
        default = QPrinterInfo.defaultPrinterName()
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        return {"printers": names, "default": default or None, "printer_resolution_dpi": printer.resolution()}

    def audit_db(self) -> dict:
        from app.workstation.verification import verify_log
        if not self.db.exists():
            raise CheckFailed(f"no audit database was written at {self.db}")
        rep = verify_log(self.db)
        if not rep["ok"]:
            raise CheckFailed(f"the audit database does not verify: {rep['first_bad']}", rows=rep["rows"])
        if not rep["head_checked"]:
            raise CheckFailed("the database verified without the head this install recorded", rows=rep["rows"])
        missing = {p: s for p, s in self.settled.items() if s > rep["head"]["seq"]}
        if missing:
            raise CheckFailed(f"settled rounds are not in the verified log: {missing}", rows=rep["rows"])
        return {"rows": rep["rows"], "head_seq": rep["head"]["seq"], "rounds_in_log": len(self.settled)}

    def close(self) -> None:
        if self.window is not None:
            self.window.close()
            self.window.shutdown()
            self.window.deleteLater()
            self.window = None
        if self.ws is not None:
            self.ws.close()
        if self.app is not None:
            self.app.processEvents()


def render_report_pdf(report, path: Path) -> int:
    """The self-test's report on paper: the shift report's first page, the pit's (app/reports/
    shift_report.py, the function the Reports view and pitdesk report shift draw with); its pages."""
    from app.reports.shift_report import write_pdf
    return write_pdf(report, path, "letter", tables=False)[1]
