"""The window's tests (tests/views): a real demo floor of simulated devices over loopback TCP,
the real workstation on a clock the test moves, and the real main window on the offscreen
platform; and a person at its dialogs.

The fixtures built on them are in tests/views/conftest.py (``themed``, ``pit``, ``hit_pit``) and
tests/conftest.py (``no_threads_left``): every test that uses them fails if it leaves a Qt pool
thread busy, a timer of the window running, or a thread of its own (a link, a simulated device,
the audit writer) alive (napari's conftest does the same for its viewer).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import shiboken6

from app.devices.session import Policy
from app.engine.cards import cards_str, full_deck
from app.simulate.sim_device import SimDevice
from app.views.main_window import MainWindow
from app.qt import QSettings, Qt, QTimer
from app.simulate import demo
from app.workstation.workstation import Workstation

T0 = datetime(2026, 11, 23, 20, 0, 0)
# T1: section6, every device (the device tests); T7: sd, dealt by hand, no devices (the clocks)
TABLES = tuple(t for t in demo.DEMO_TABLES if t[0] in ("T1", "T7"))
PACE = 0.1                      # a round of each device in about half a second
# the backoff is long enough for a pump (30 ms) to see a link OFFLINE before it reconnects
QUICK = Policy(degraded_after_s=0.6, offline_after_s=1.5, backoff_first_s=0.5, backoff_max_s=1.0)
USERS = {u.role: u for u in demo.DEMO_USERS}
WAIT_MS = 25_000                # real sockets and threads: waited for, never slept through
ADMIN, FLOOR, PIT, DEALER = (USERS[r] for r in ("administrator", "floor supervisor", "pit manager", "dealer"))


class Clock:
    """The workstation's clock: the test moves it; nothing waits for it."""

    def __init__(self, start: datetime = T0):
        self._now = start
        self._lock = threading.Lock()

    def __call__(self) -> datetime:
        with self._lock:
            return self._now

    def set(self, when: datetime) -> None:
        with self._lock:
            self._now = when

    def advance(self, **kw) -> None:
        with self._lock:
            self._now += timedelta(**kw)


def open_floor(db: Path, clock: Clock, *, hits: bool = False, silence: float = 2.0):
    """The demo floor of ``TABLES`` as ``demo.open_demo`` builds it, with no random faults, quick
    devices and no random hit; with ``hits``, T1's shuffler and controller say only what the test
    makes them say (``claim_hit``)."""
    devices = demo.DemoDevices(TABLES, faults=(), fault_rate=0.0, pace=PACE, seed=13)
    for n, (serial_, dev) in enumerate(list(devices.devices.items())):
        tuning = {"hit_rate": 0.0} if dev.kind == "progressive" else {}
        driven = hits and serial_ in ("SHF-T1", "PRG-T1")
        devices.devices[serial_] = SimDevice(dev.kind, serial_, faults=(), seed=n, pace=PACE, fault_rate=0.0,
                                             silence=(silence, silence), driven=driven, **tuning)
    return start_floor(db, clock, devices, devices.start()), devices


def start_floor(db: Path, clock, devices, urls: dict[str, str]) -> Workstation:
    """The workstation of the floor of ``TABLES`` over ``devices`` served at ``urls``, its demo
    people added, its tables opened, started; ``devices`` stopped if it cannot be."""
    try:
        ws = Workstation(demo.demo_config(urls, TABLES), db, clock=clock, policy=QUICK,
                         install_serial="pitdesk-test", on_close=[devices.stop])
    except BaseException:
        devices.stop()
        raise
    try:
        demo.add_demo_users(ws)
        demo.open_demo_tables(ws)
        ws.start()
    except BaseException:
        ws.close()
        raise
    return ws


@dataclass
class Pit:
    window: MainWindow
    ws: Workstation
    devices: demo.DemoDevices
    clock: Clock
    settings: QSettings


NATURAL_ROYAL_AND_PAIR = ["As", "Ks", "Qs", "Js", "Ts", "2h", "2d"]


def claim_hit(qtbot, p: "Pit", seat: int = 2, table: str = "T1") -> None:
    """A round at ``table`` with a progressive wager at ``seat``, entered by the demo dealer; the
    shuffler deals it, seat ``seat`` a natural royal flush and pair; the controller claims the
    top award for it (000(q)(3)), as its key is pressed: a hit the hand makes (app/workstation/hits.py)."""
    ws = p.ws
    wait_online(qtbot, p, table, ("shuffler", "progressive"))
    ws.people.sign_in(USERS["dealer"].name, USERS["dealer"].pin)
    ws.rounds.start(table)
    ws.rounds.set_wagers(table, seat, {"base": "10", "progressive": "1"})
    ws.people.sign_out()
    rest = [c for c in cards_str(full_deck()) if c not in NATURAL_ROYAL_AND_PAIR]
    shuffler = p.devices.served[f"SHF-{table}"]
    shuffler.say("hands_dispensed", deck="red", hands=7, cards_per_hand=7)
    for position in range(7):
        shuffler.say("hand_read", deck="red", position=position,
                     cards=NATURAL_ROYAL_AND_PAIR if position == seat else [rest.pop() for _ in range(7)])

    def dealt():
        d = ws.rounds.draft(table)
        return d is not None and d.positions[seat].cards == tuple(NATURAL_ROYAL_AND_PAIR)
    qtbot.waitUntil(dealt, timeout=WAIT_MS)
    controller = p.devices.served[f"PRG-{table}"]
    controller.say("increment", seat=seat, cents=21)   # 000(q)(5): the wager moves the meter
    meter = p.devices.devices[f"PRG-{table}"]._class.meter
    controller.say("meter", cents=meter)   # the meter the hit is paid from, on its display first (000(q)(7))
    controller.say("hit_pending", seat=seat, line="Natural Royal Flush and Pair", cents=meter)


def make_pit(tmp_path, qtbot, monkeypatch, hits: bool = False, view: str | None = None,
             size: tuple[int, int] | None = (1600, 900), **kw) -> Pit:
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    clock = Clock()
    ws, devices = open_floor(tmp_path / "audit.db", clock, hits=hits, **kw)
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    if view:
        settings.setValue("window/view", view)
    window = open_window(qtbot, ws, settings, "test floor", size)
    return Pit(window, ws, devices, clock, settings)


def open_window(qtbot, ws, settings: QSettings, title: str,
                size: tuple[int, int] | None = (1600, 900)) -> MainWindow:
    """The real window over ``ws``, shown and pumping every 30 ms; ``ws`` is closed if the window
    cannot be made. ``size`` None: the size the window chooses (saved, or its screen's)."""
    try:
        window = MainWindow(ws, settings=settings, pump_ms=30, title=title)
    except BaseException:
        ws.close()
        raise
    qtbot.addWidget(window)
    if size is not None:
        window.set_size(*size)
    window.show()
    window.start()
    return window


def shift_workstation(own, source: str) -> tuple[Workstation, "Clock"]:
    """A workstation over a copy of a simulated shift (tests/support/simulated_shift.py ``Shift``),
    its tables the shift's and its clock five minutes after the shift's last row (PITDESK_HOME set
    to ``own.home`` by the caller)."""
    from app.workstation.config import TableSetup, WorkstationConfig

    clock = Clock(datetime.fromisoformat(own.one("SELECT max(time) FROM events")) + timedelta(minutes=5))
    config = WorkstationConfig(tuple(TableSetup(t, p) for t, p in own.tables()), source=source)
    return Workstation(config, own.db, clock=clock), clock


def close_window(window: MainWindow, ws) -> None:
    """Close the window as Quit does, then the workstation; nothing of either may still run."""
    window.close()
    lane = window.bridge.lane
    assert lane.closed and lane.active == 0, "the bridge's lane still runs a task"
    running = [f"{t.parent().objectName() or type(t.parent()).__name__}/{t.objectName() or 'QTimer'}"
               for t in window.findChildren(QTimer) if t.isActive()]
    assert not running, f"timers still running on the closed window: {running}"
    ws.close()


def close_pit(p: Pit) -> None:
    close_window(p.window, p.ws)


def wait_online(qtbot, p: Pit, table: str = "T1", classes=("shuffler", "shoe", "progressive", "rng")) -> None:
    tile = p.window.floor

    def online():
        w = tile.tiles.get(table)
        return w is not None and all(w.light(c) is not None and "ONLINE" in w.light(c).text() for c in classes)
    qtbot.waitUntil(online, timeout=WAIT_MS)


# -- a person at a dialog -----------------------------------------------------------------------
def fill(qtbot, dialog, name: str, pin: str, reason: str | None = None) -> None:
    """Type into a dialog as a person would, and press its OK button."""
    dialog.name.clear()
    qtbot.keyClicks(dialog.name, name)
    dialog.pin.clear()
    qtbot.keyClicks(dialog.pin, pin)
    if reason is not None:
        dialog.reason.clear()
        qtbot.keyClicks(dialog.reason, reason)
    qtbot.mouseClick(dialog.ok, Qt.MouseButton.LeftButton)


def gone(dialog) -> bool:
    """Closed (an accepted dialog is also deleted: WA_DeleteOnClose)."""
    return not shiboken6.isValid(dialog) or not dialog.isVisible()


def error_shown(dialog, *words) -> bool:
    return dialog.error.isVisible() and all(w in dialog.error.text() for w in words)
