"""``pitdesk gui``: the workstation window (docs/views.md).

    pitdesk gui --demo                                  the demo floor (app/simulate/demo.py), playing by itself
    pitdesk gui --demo --busy                           ... with a device fault in most rounds (for testing)
    pitdesk gui --demo --rounds-per-hour N              ... at N rounds an hour per table (default 30)
    pitdesk gui --config FILE [--db PATH]               a real installation (docs/workstation.example.toml)
    pitdesk gui --demo --screenshot FILE.png --after SECONDS [--view floor|table:T1|alarms|approvals|progressive|logs:TAB|hold|reports]
                [--size 1920x1080]                      open, wait, save the window as a PNG, exit 0
    pitdesk gui --demo --quit-after SECONDS             open, wait, close everything cleanly, exit 0

    pitdesk gui                                         the configuration found where it is kept (below)

The demo's database is ``demo.db`` in the data folder (app/store/paths.py ``demo_db``: ``PITDESK_HOME``,
a frozen build's ``data/`` folder, else the user's data folder), so a second run continues the same log;
``pitdesk audit verify --demo`` checks it. Without ``--demo`` or
``--config`` the configuration is ``PITDESK_CONFIG``, else ``workstation.toml`` beside a frozen
build's executable, else in the user's configuration folder (app/store/paths.py
``config_candidates``). A bad --view or --size is an error naming the option, exit 2.

A start-up fault (no configuration found, a bad or unreadable configuration file, a Qt platform
plugin that is missing or cannot load, an audit database that cannot be opened, locked by another
workstation, anything raised before the window is up) is written to ``<data folder>/logs/pitdesk.log``
(app/cli/faults.py), said on stderr, and shown in a dialog naming it (on the offscreen platform:
the log and stderr only); exit 2, never a silent exit.
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
    src = g.add_mutually_exclusive_group()
    src.add_argument("--demo", action="store_true",
                     help="the demo floor: seven tables of simulated devices, demo users (README)")
    src.add_argument("--config", metavar="FILE", help="the workstation's TOML configuration (default: PITDESK_CONFIG, "
                                                      "else workstation.toml beside the frozen build's executable, "
                                                      "else in the user's configuration folder)")
    g.add_argument("--busy", action="store_true",
                   help="with --demo: a device fault in most rounds (jams, misreads, a link lost), for testing; "
                        "by default a few per table per shift")
    g.add_argument("--rounds-per-hour", type=float, default=None, metavar="N",
                   help="with --demo: rounds an hour at each table (default: the demo's, 30)")
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
    if not args.demo and (args.busy or args.rounds_per_hour is not None):
        raise GuiError(f"--{'busy' if args.busy else 'rounds-per-hour'}: only with --demo (the demo floor plays "
                       "by itself; real tables play at their own pace)")
    if args.rounds_per_hour is not None and not 1 <= args.rounds_per_hour <= 3600:
        raise GuiError(f"--rounds-per-hour: 1 to 3600 rounds an hour at each table, got {args.rounds_per_hour:g}")
    config = None
    if not args.demo and args.config is None:
        args.config = str(_find_config())
    if args.config is not None:
        from app.workstation.config import load
        config = load(args.config)          # ConfigError names the file, the line and the key
    return wh, config


def _open(args, config):
    """The workstation, and what starts once its floor is painted (the demo's dealers), or None."""
    if args.demo:
        from app.simulate.demo import DEMO_PACE, open_demo, start_dealers
        from dataclasses import replace
        pace = replace(DEMO_PACE, busy=args.busy,
                       rounds_per_hour=args.rounds_per_hour or DEMO_PACE.rounds_per_hour)
        # the dealers sign in and deal once the floor is painted (issue 33): their PINs' hashes
        # and the rankings are not the first paint's to wait for
        ws, devices = open_demo(Path(args.db) if args.db else _demo_db(), play=pace, deal=False)
        return ws, lambda: start_dealers(ws, devices, pace)
    from app.workstation.workstation import Workstation
    return Workstation(config, args.db).start(), None


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
            self.result()[0].close()
        except BaseException:
            pass

    def result(self):
        """The workstation and what starts once its floor is painted (``_open``)."""
        self._thread.join()
        if "error" in self._out:
            raise self._out["error"]
        return self._out["ws"]


def _find_config() -> Path:
    """The configuration where it is kept, when neither --demo nor --config is given."""
    from app.store.paths import config_candidates
    from app.workstation.errors import ConfigError
    places = config_candidates()
    for p in places:
        if p.exists():
            return p
    raise ConfigError("no configuration file: looked for " + ", ".join(str(p) for p in places)
                      + " (give --config FILE, or --demo for the demo floor)")


def _demo_db() -> Path:
    from app.store.paths import demo_db
    db = demo_db()
    db.parent.mkdir(parents=True, exist_ok=True)
    return db


def run(args) -> int:
    from app.workstation.errors import LogStopped, WorkstationError
    try:
        size, config = _check(args)
    except GuiError as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except WorkstationError as e:     # ConfigError: none found, unreadable, or wrong (file, line, key)
        return startup_fault("configuration", str(e))

    try:
        from app.views import startup
        problem = startup.platform_problem()
    except Exception as e:            # Qt itself cannot be imported: a broken installation
        return startup_fault("Qt", f"Qt could not be loaded: {type(e).__name__}: {e}", e, qt_usable=False)
    if problem is not None:           # Qt would end the process from C++, with no dialog and no log
        return startup_fault("Qt platform plugin", problem, qt_usable=False)

    from app.qt import QCoreApplication
    QCoreApplication.setApplicationName("pitdesk")
    if args.demo and not args.db:
        args.db = str(_demo_db())
    # the log opens (a new one hashes its people's PINs) while Qt starts: the window is up sooner
    opening = _Opening(args, config)
    try:
        from app.views import main_window as _, theme  # noqa: F401  (imported while the log opens)
        from app.qt import QApplication
        app = QApplication.instance() or QApplication(sys.argv[:1])
        _set_icon(app)
        theme.apply(app, args.font_pt)
        app.setStyleSheet(theme.stylesheet())
    except Exception as e:
        opening.close()
        return startup_fault("Qt", f"the window system could not be started: {type(e).__name__}: {e}", e)
    except BaseException:
        opening.close()
        raise
    try:
        ws, after_paint = opening.result()
    except LogStopped as e:           # the database: locked by another workstation, read-only, cut, no key
        return startup_fault("audit database", str(e))
    except WorkstationError as e:     # a table whose profile differs from the log's
        return startup_fault("configuration", str(e))
    except Exception as e:
        return startup_fault("opening the workstation", f"{type(e).__name__}: {e}", e)
    try:
        if args.view and args.view.startswith("table:") and args.view[6:] not in ws.tables():
            print(f"pitdesk: error: --view: no table {args.view[6:]!r} on this floor (tables: "
                  f"{', '.join(ws.tables())})", file=sys.stderr)
            return EXIT_BAD_INPUT
        logs = [t.name for t in ws.logs.tabs()]
        if args.view and args.view.startswith("logs:") and args.view[5:] not in logs:
            print(f"pitdesk: error: --view: no log {args.view[5:]!r} (the logs: {', '.join(logs)})", file=sys.stderr)
            return EXIT_BAD_INPUT
        return _window(app, ws, args, size, after_paint)
    finally:
        ws.close()      # links, simulated devices, the log


def startup_fault(kind: str, message: str, error: BaseException | None = None, *, qt_usable: bool = True) -> int:
    """A fault before the window is up: logged (app/cli/faults.py), on stderr, in a dialog; exit 2."""
    from . import faults
    path = faults.record(kind, message, error)
    print(f"pitdesk: error: {message}\npitdesk: the workstation did not start ({kind}); written to {path}",
          file=sys.stderr)
    try:
        from app.views import startup
        startup.show_fault("pitdesk did not start", f"The workstation did not start: {kind}.\n\n{message}",
                           f"This is written to {path}.", qt_usable=qt_usable)
    except Exception as e:           # the dialog itself failed: the log and stderr have it
        faults.record("dialog", f"the fault could not be shown: {type(e).__name__}: {e}", e)
    return EXIT_BAD_INPUT


def _set_icon(app) -> None:
    from app.rules.resources import RESOURCES
    from app.qt import QIcon
    icon = RESOURCES / "icons" / "pitdesk.svg"
    if icon.exists():
        app.setWindowIcon(QIcon(str(icon)))


def _window(app, ws, args, size, after_paint=None) -> int:
    """The window over ``ws`` until it closes; ``after_paint`` is called (on the GUI thread, and
    must return at once) when the window has first painted the floor's readouts."""
    import tempfile

    from app.views.main_window import MainWindow
    from app.qt import QSettings, QTimer
    scratch = None
    if args.screenshot:
        # a picture run leaves the supervisor's remembered window alone
        scratch = tempfile.TemporaryDirectory(prefix="pitdesk-shot-")
        settings = QSettings(str(Path(scratch.name) / "settings.ini"), QSettings.Format.IniFormat)
    else:
        settings = QSettings("pitdesk", "workstation")
    title = "demo floor" if args.demo else str(args.config)
    window = MainWindow(ws, settings=settings, title=title)
    if after_paint is not None:
        window.first_painted.connect(after_paint)
    if args.view:
        window.show_view(args.view)
    if size is not None:
        window.set_size(*size)
    window.show()
    window.start()
    outcome = {"code": 0}

    if args.screenshot:
        def shoot():
            if size is not None:
                window.set_size(*size)
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
