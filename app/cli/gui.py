"""``pitdesk gui``: the workstation window (docs/views.md).

    pitdesk gui --demo                                  the demo floor (app/workstation/demo.py)
    pitdesk gui --config FILE [--db PATH]               a real installation (docs/workstation.example.toml)
    pitdesk gui --demo --screenshot FILE.png --after SECONDS [--view floor|table:T1|alarms|approvals|progressive|logs:TAB|hold|reports]
                [--size 1920x1080]                      open, wait, save the window as a PNG, exit 0
    pitdesk gui --demo --quit-after SECONDS             open, wait, close everything cleanly, exit 0

The demo's database is ``demo.db`` in the user's data folder (QStandardPaths' AppDataLocation),
so a second run continues the same log. A bad configuration file, a bad --view or --size is an
error naming the fault (the key and line of the file), exit 2, before any window opens.
"""

from __future__ import annotations

import re
import signal
import sys
from pathlib import Path

from .common import EXIT_BAD_INPUT

VIEW = re.compile(r"^(floor|alarms|approvals|progressive|hold|reports|table(:[^\s:]+)?|logs(:[a-z_]+)?)$")
SIZE = re.compile(r"^(\d{3,5})x(\d{3,5})$")
DEFAULT_SIZE = "1920x1080"


class GuiError(ValueError):
    pass


def add_parser(sub) -> None:
    g = sub.add_parser("gui", help="the workstation window: floor, tables, alarms, approvals",
                       description="Open the pit supervisor's window on the demo floor (--demo) or on the tables "
                                   "of a configuration file (--config). Shortcuts: Help > Shortcuts (F1).")
    src = g.add_mutually_exclusive_group(required=True)
    src.add_argument("--demo", action="store_true",
                     help="the demo floor: seven tables of simulated devices, demo users (README)")
    src.add_argument("--config", metavar="FILE", help="the workstation's TOML configuration")
    g.add_argument("--db", metavar="PATH", help="the audit database (default: the configuration's, else the "
                                                "user data folder's; --demo: demo.db there)")
    g.add_argument("--view", default=None, metavar="VIEW",
                   help="open on floor, table:T1, alarms, approvals, progressive, logs, logs:TAB "
                        "(logs:events), hold or reports (default: the view open last time)")
    g.add_argument("--size", default=None, metavar="WxH",
                   help=f"window size in pixels (default with --screenshot: {DEFAULT_SIZE}; otherwise as last time)")
    g.add_argument("--font-pt", type=float, default=None, metavar="PT",
                   help="base font size in points; every size scales with it (default 12)")
    g.add_argument("--screenshot", metavar="FILE.png", help="save the window as a PNG after --after seconds, exit")
    g.add_argument("--after", type=float, default=5.0, metavar="SECONDS",
                   help="with --screenshot: seconds to wait first (default 5)")
    g.add_argument("--quit-after", type=float, default=None, metavar="SECONDS",
                   help="close cleanly after SECONDS (links, simulated devices and the log closed)")


def _check(args) -> tuple[tuple[int, int] | None, object]:
    """The window size and the configuration, checked before Qt starts."""
    if args.view is not None and not VIEW.match(args.view):
        raise GuiError(f"--view: floor, table:T1, alarms, approvals, progressive, logs, logs:TAB, hold or reports, got "
                       f"{args.view!r}")
    size = args.size or (DEFAULT_SIZE if args.screenshot else None)
    wh = None
    if size is not None:
        m = SIZE.match(size)
        if not m:
            raise GuiError(f"--size: WIDTHxHEIGHT in pixels such as 1366x768, got {size!r}")
        wh = (int(m.group(1)), int(m.group(2)))
    if args.screenshot is not None:
        if not args.screenshot.lower().endswith(".png"):
            raise GuiError(f"--screenshot: a .png file, got {args.screenshot!r}")
        if not args.after >= 0:
            raise GuiError(f"--after: seconds, 0 or more, got {args.after:g}")
    if args.quit_after is not None and not args.quit_after >= 0:
        raise GuiError(f"--quit-after: seconds, 0 or more, got {args.quit_after:g}")
    if args.font_pt is not None and not 6 <= args.font_pt <= 72:
        raise GuiError(f"--font-pt: 6 to 72 points, got {args.font_pt:g}")
    config = None
    if args.config is not None:
        from app.workstation.config import load
        config = load(args.config)          # ConfigError names the file, the line and the key
    return wh, config


def _open(args, config):
    """The workstation (and the demo's devices, or None)."""
    if args.demo:
        from app.workstation.demo import open_demo
        ws, _devices = open_demo(Path(args.db) if args.db else _demo_db())
        return ws
    from app.workstation.workstation import Workstation
    return Workstation(config, args.db).start()


class _Opening:
    """``_open`` on a thread of its own; ``result()`` waits for it and raises what it raised."""

    def __init__(self, args, config):
        import threading
        self._out: dict = {}
        self._thread = threading.Thread(target=self._run, args=(args, config), name="open workstation")
        self._thread.start()

    def _run(self, args, config) -> None:
        try:
            self._out["ws"] = _open(args, config)
        except BaseException as e:   # handed to the main thread in result()
            self._out["error"] = e

    def close(self) -> None:
        """Qt failed to start: the workstation is closed as soon as it is open."""
        try:
            self.result().close()
        except BaseException:
            pass

    def result(self):
        self._thread.join()
        if "error" in self._out:
            raise self._out["error"]
        return self._out["ws"]


def _demo_db() -> Path:
    from app.views.qt import QStandardPaths
    folder = Path(QStandardPaths.writableLocation(QStandardPaths.StandardLocation.AppDataLocation))
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "demo.db"


def run(args) -> int:
    from app.workstation.errors import WorkstationError
    try:
        size, config = _check(args)
    except (GuiError, WorkstationError) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT

    from app.views.qt import QCoreApplication
    QCoreApplication.setApplicationName("pitdesk")
    if args.demo and not args.db:
        args.db = str(_demo_db())
    # the log opens (a new one hashes its people's PINs) while Qt starts: the window is up sooner
    opening = _Opening(args, config)
    try:
        from app.views import main_window as _, theme  # noqa: F401  (imported while the log opens)
        from app.views.qt import QApplication
        app = QApplication.instance() or QApplication(sys.argv[:1])
        theme.apply(app, args.font_pt)
        app.setStyleSheet(theme.stylesheet())
    except BaseException:
        opening.close()
        raise
    try:
        ws = opening.result()
    except WorkstationError as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    try:
        if args.view and args.view.startswith("table:") and args.view[6:] not in ws.tables():
            print(f"pitdesk: error: --view: no table {args.view[6:]!r} on this floor (tables: "
                  f"{', '.join(ws.tables())})", file=sys.stderr)
            return EXIT_BAD_INPUT
        logs = [t.name for t in ws.logs.tabs()]
        if args.view and args.view.startswith("logs:") and args.view[5:] not in logs:
            print(f"pitdesk: error: --view: no log {args.view[5:]!r} (the logs: {', '.join(logs)})", file=sys.stderr)
            return EXIT_BAD_INPUT
        return _window(app, ws, args, size)
    finally:
        ws.close()      # links, simulated devices, the log


def _window(app, ws, args, size) -> int:
    import tempfile

    from app.views.main_window import MainWindow
    from app.views.qt import QSettings, QTimer
    scratch = None
    if args.screenshot:
        # a picture run leaves the supervisor's remembered window alone
        scratch = tempfile.TemporaryDirectory(prefix="pitdesk-shot-")
        settings = QSettings(str(Path(scratch.name) / "settings.ini"), QSettings.Format.IniFormat)
    else:
        settings = QSettings("pitdesk", "workstation")
    title = "demo floor" if args.demo else str(args.config)
    window = MainWindow(ws, settings=settings, title=title)
    if args.view:
        window.show_view(args.view)
    if size is not None:
        window.resize(*size)
    window.show()
    window.start()
    outcome = {"code": 0}

    if args.screenshot:
        def shoot():
            if size is not None:
                window.resize(*size)
            app.processEvents()
            path = Path(args.screenshot)
            path.parent.mkdir(parents=True, exist_ok=True)
            if not window.grab().save(str(path), "PNG"):
                print(f"pitdesk: error: could not write {path}", file=sys.stderr)
                outcome["code"] = 1
            window.close()
        QTimer.singleShot(int(args.after * 1000), shoot)
    if args.quit_after is not None:
        QTimer.singleShot(int(args.quit_after * 1000), window.close)

    # Ctrl-C and SIGTERM close the window as the Quit command does; the timer lets Python run
    # its signal handlers while Qt's loop waits
    def stop(*_):
        window.close()
    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    tick = QTimer()
    tick.start(200)
    tick.timeout.connect(lambda: None)
    app.setQuitOnLastWindowClosed(True)
    try:
        code = app.exec()
    finally:
        tick.stop()
        for s, h in previous.items():
            signal.signal(s, h)
        window.shutdown()
        if scratch is not None:
            scratch.cleanup()
    return outcome["code"] or code
