"""Fixtures shared by the tests of more than one layer (those of one layer are in its folder's
conftest.py), the check that a test leaves no thread of its own running, and the rule that a
Python error raised in a Qt slot fails the test that caused it.

pytest-qt 4.5 records every exception that reaches ``sys.excepthook`` while a test runs (its
setup, its call, its teardown: an exception raised in a slot, a timer's callback, a virtual
method such as paintEvent; PySide6 hands each to the hook) and fails that phase of the test
with the traceback. It can be turned off for a test (the ``qt_no_exception_capture`` marker) or
for the suite (the ini option of that name): here neither is allowed. The window's lanes hand a
task's bug (an error that is not a workstation's refusal nor a file not written) to the same
hook (app/views/tasks.py, ``report_bug``), so a bug shown to a person as a message fails its
test too. A test that means an exception in a slot catches it with ``qtbot.capture_exceptions()``."""

import multiprocessing
import shutil
import sqlite3
import threading
import time

import pytest

from app.qt import QThreadPool
from app.store.log import AuditLog
from tests.support.shift_report import START
from tests.support.simulated_shift import Shift, make_shift, simulate

pytest_plugins = ["pytester"]     # tests/views/test_slot_errors.py runs a test of its own


def pytest_configure(config):
    if config.getini("qt_no_exception_capture"):
        raise pytest.UsageError("qt_no_exception_capture is set: an exception raised in a Qt slot must fail its "
                                "test (tests/conftest.py)")


def pytest_collection_modifyitems(config, items):
    marked = [i.nodeid for i in items if i.get_closest_marker("qt_no_exception_capture")]
    if marked:
        raise pytest.UsageError(f"{', '.join(marked)}: marked qt_no_exception_capture; catch the exceptions a "
                                "test means with qtbot.capture_exceptions() instead (tests/conftest.py)")


@pytest.fixture
def log(tmp_path, monkeypatch):
    """A real audit database in a temporary folder, with its own install key (PITDESK_HOME)."""
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    with AuditLog(tmp_path / "audit.db") as lg:
        yield lg


@pytest.fixture
def home(tmp_path, monkeypatch):
    """PITDESK_HOME (the install key, the head files) set to a folder of the test's, not made yet."""
    h = tmp_path / "home"
    monkeypatch.setenv("PITDESK_HOME", str(h))
    return h


# -- the shift report's swing shift (the command's, the Reports view's and the printer's tests) -----
@pytest.fixture(scope="session")
def made(tmp_path_factory):
    """A swing shift of three tables, 40 rounds each, every event inside the shift: made once a
    session (a worker's, under xdist) and never written to; a test that writes takes a copy
    (``shift`` below)."""
    d = tmp_path_factory.mktemp("report")
    simulate(d / "shift.db", d / "home", 3, 40, START, 11)
    conn = sqlite3.connect(d / "shift.db")
    last = conn.execute("SELECT max(time) FROM events").fetchone()[0]
    conn.close()
    assert START.isoformat() <= last < "2026-11-22T00:00:00", "the simulated shift must end inside the swing shift"
    return d


@pytest.fixture
def shift(made, tmp_path, monkeypatch):
    """A copy of the shift's log and install key, for a test that logs reports. (The logs' and the
    hold's test modules have a ``shift`` fixture of their own, a simulated shift of another kind.)"""
    shutil.copy(made / "shift.db", tmp_path / "shift.db")
    shutil.copytree(made / "home", tmp_path / "home")
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    return tmp_path / "shift.db"


# -- threads a test leaves behind ---------------------------------------------------------------
THREAD_GRACE_S = 2.0   # a thread told to stop may take a moment to finish
# the test modules checked, by file name prefix. Not yet every module: some tests still leave a
# thread behind now and then (tests/devices/test_device_link.py's TcpDevice serving thread in
# test_watch_prints_events_and_a_summary); add a prefix here once its tests are clean
THREAD_CHECKED = ("test_workstation",)


@pytest.fixture(autouse=True)
def no_thread_left_running(request):
    """Fail a test that leaves a thread running that it started (a link, a simulator, a writer,
    a consumer), daemon or not: compare threading.enumerate() before and after, joining what is
    left for a short grace period first. A child process left running (the links' process,
    app/devices/host.py) fails it too."""
    if not request.node.path.name.startswith(THREAD_CHECKED):
        yield
        return
    before = set(threading.enumerate())
    children = {p.pid for p in multiprocessing.active_children()}
    yield
    end = time.monotonic() + THREAD_GRACE_S
    left = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    for t in left:
        t.join(max(0.0, end - time.monotonic()))
    left = [t for t in left if t.is_alive()]
    orphans = [p for p in multiprocessing.active_children() if p.pid not in children]
    for p in orphans:
        p.join(max(0.0, end - time.monotonic()))
    orphans = [p for p in orphans if p.is_alive()]
    if orphans:
        pytest.fail(f"{request.node.nodeid} left {len(orphans)} process(es) running: "
                    f"{', '.join(f'{p.name} ({p.pid})' for p in orphans)}", pytrace=False)
    if left:
        pytest.fail(f"{request.node.nodeid} left {len(left)} thread(s) running: "
                    f"{', '.join(sorted(t.name for t in left))}", pytrace=False)


@pytest.fixture
def no_threads_left(qapp):
    """Fail a test that leaves a Qt pool thread working or a Python thread of its own running (the
    window's tests, tests/views, and ``pitdesk gui``'s, tests/cli/test_gui_cli.py, ask for it)."""
    before = set(threading.enumerate())
    yield
    pool = QThreadPool.globalInstance()
    pool.waitForDone(5000)
    assert pool.activeThreadCount() == 0, "a task is still running on the global QThreadPool"
    deadline = time.monotonic() + 5
    left = []
    while time.monotonic() < deadline:
        # Qt's own threads appear as dummy threads once they ran Python; the pools are checked above
        left = [t for t in threading.enumerate() if t not in before and t.is_alive()
                and not isinstance(t, threading._DummyThread)]
        if not left:
            break
        time.sleep(0.05)   # threads that were told to stop, ending
    assert not left, f"threads left running: {[t.name for t in left]}"


@pytest.fixture(scope="session")
def logs_shift(tmp_path_factory) -> Shift:
    """The logs' and the hold's simulated shift (tests/support/simulated_shift.py ``SHIFT``), made
    once a session and read only; a test that opens a window on it takes a copy (``Shift.copy``)."""
    return make_shift(tmp_path_factory.mktemp("logs-shift"))
