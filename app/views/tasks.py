"""Work off the GUI thread, its result handed back to the GUI thread by a queued call.

As Picard's ``picard/util/thread.py`` (``run_task``) and Anki's ``aqt/taskman.py``: a function
runs in a ``QThreadPool``; when it returns (or raises) its callback runs on the GUI thread, the
only thread that touches a widget. A ``Lane`` has its own pool of ONE thread, so everything sent
down it runs in order, one at a time: the workstation is called from that thread only, and the
window never waits for the database, a PIN's scrypt (about 40 ms) or a device.

After ``close()`` nothing more is started and no callback runs: a result that arrives after the
window closed reaches no widget.
"""

from __future__ import annotations

import logging
import sys
import traceback
from collections.abc import Callable
from typing import Any

from app.qt import QObject, QRunnable, Qt, QThreadPool, Signal

log = logging.getLogger(__name__)

Done = Callable[[Any], None]
Failed = Callable[[BaseException], None]


def is_bug(error: BaseException) -> bool:
    """What a task may fail with and a view says in words is an error pitdesk names (the
    workstation's refusals, a report with no events, a round not found: a class of ``app``) or a
    file not written (OSError); Python's own (an AttributeError, a TypeError, a KeyError) is a bug."""
    return not (isinstance(error, OSError) or type(error).__module__.startswith("app."))


def report_bug(error: BaseException) -> None:
    """A bug goes to ``sys.excepthook`` with its traceback, as an exception raised in a slot
    does, besides the callback that shows it: on stderr in use, and a test failure under
    pytest-qt, whose hook records it (tests/conftest.py)."""
    if is_bug(error):
        sys.excepthook(type(error), error, error.__traceback__)


class _Outcome:
    """A task's end, carried in ONE object: PySide6 on Python 3.11 mis-counts references to a
    bare None sent through a queued ``Signal(object)``, and enough of them crash the interpreter
    at exit ("none_dealloc"), so no signal here ever carries None itself."""
    __slots__ = ("on_done", "on_error", "result", "error")

    def __init__(self, on_done, on_error, result, error):
        self.on_done, self.on_error, self.result, self.error = on_done, on_error, result, error


class _Relay(QObject):
    """Lives on the GUI thread; a signal emitted from a pool thread reaches it queued."""
    finished = Signal(object)   # _Outcome


class _Task(QRunnable):
    def __init__(self, fn: Callable[[], Any], relay: _Relay, on_done: Done | None, on_error: Failed | None):
        super().__init__()
        self.fn, self.relay, self.on_done, self.on_error = fn, relay, on_done, on_error
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            result = self.fn()
        except BaseException as e:    # handed to the GUI thread as it is, never lost in a pool thread
            self.relay.finished.emit(_Outcome(self.on_done, self.on_error, None, e))
        else:
            self.relay.finished.emit(_Outcome(self.on_done, self.on_error, result, None))


class Lane(QObject):
    """A serial lane: tasks run one at a time, in the order given, on one pool thread."""

    failed = Signal(object)          # an error no callback took

    def __init__(self, name: str, parent: QObject | None = None):
        super().__init__(parent)
        self.setObjectName(name)
        self.pool = QThreadPool(self)
        self.pool.setObjectName(name)
        self.pool.setMaxThreadCount(1)
        self._relay = _Relay(self)
        # explicit, as Picard's log view: the slot runs on the GUI thread, whatever thread emits
        self._relay.finished.connect(self._deliver, Qt.ConnectionType.QueuedConnection)
        self.pending = 0
        self.closed = False

    def run(self, fn: Callable[[], Any], on_done: Done | None = None, on_error: Failed | None = None) -> bool:
        """Start ``fn`` on the lane; False (and nothing run) once the lane is closed."""
        if self.closed:
            return False
        self.pending += 1
        self.pool.start(_Task(fn, self._relay, on_done, on_error))
        return True

    def _deliver(self, outcome: _Outcome) -> None:
        on_done, on_error, result, error = outcome.on_done, outcome.on_error, outcome.result, outcome.error
        self.pending -= 1
        if self.closed:
            return
        if error is not None:
            report_bug(error)
            if on_error is not None:
                on_error(error)
            else:
                log.error("task failed: %s", "".join(traceback.format_exception(error)))
                self.failed.emit(error)
        elif on_done is not None:
            on_done(result)

    def wait(self, msecs: int = -1) -> bool:
        """Block until the lane is idle (tests, and closing); True if it is."""
        return self.pool.waitForDone(msecs)

    def close(self, msecs: int = -1) -> bool:
        """Start nothing more, let what was sent finish (an acknowledgement already asked for
        is written, not dropped), and drop every callback still due."""
        self.closed = True
        # Qt's waitForDone also ends the pool's idle threads: nothing of the lane runs after it
        return self.pool.waitForDone(msecs)

    @property
    def active(self) -> int:
        return self.pool.activeThreadCount()
