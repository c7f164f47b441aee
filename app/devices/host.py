"""The links of a floor in a process of their own (``LinkHost``).

A floor of forty tables has 120 links and 1,200 frames a second to read, check, acknowledge and
decode. In the workstation's process their reader threads take turns with the window and the
log's writer under one interpreter lock, and every frame waits for its turn. Here they run in a
child process (``multiprocessing``, spawned: no fork of a process that holds Qt's threads), each
still a ``Link`` with its own thread, and the child hands the parent what they said in batches
through a pipe. One thread of the parent receives the batches and passes each event on, in the
order each link said them, exactly as a link in the parent would have.

- Stopping: the parent asks through a second pipe; the child stops every link together (their
  last link states, closed by us, come through) and ends the batches with ``None``. A child
  that does not end within the timeout is terminated.
- A child that ends by itself (killed, crashed) is a fault of the workstation, not of a device:
  each link it held is reported lost (``LinkState`` to offline, with the reason), and a new
  child opens the ports again after ``RESTART_S``.
- ``received`` stays comparable: ``time.monotonic`` is the machine's one monotonic clock in every
  process.

Only the device layer runs in the child (app.devices.link and what it imports); a frozen build
needs ``multiprocessing.freeze_support()`` at its entry point.
"""

from __future__ import annotations

import logging
import multiprocessing
import threading
import time
from collections.abc import Callable, Sequence
from datetime import datetime

from .bounded import LIMIT, BoundedQueue
from .link import Link, LinkEvent, LinkLog, LinkState, stop_all
from .session import OFFLINE, Policy

log = logging.getLogger("pitdesk.devices")

RESTART_S = 1.0      # a child that ended by itself is started again after this
BATCH_MAX = 500      # events in one send through the pipe: the pipe's own buffer is its limit, and a
#                      send that waits for the parent leaves the links' queue to fill (and say so)
_WAKE = object()     # in the child: the parent asked to stop


# -- the child -----------------------------------------------------------------------------------
def serve(urls: Sequence[str], policy: Policy | None, install_serial: str, events, control,
          stop_timeout: float, limit: int = LIMIT) -> None:
    """The child's main: one ``Link`` per url; their events to ``events`` in batches until
    ``control`` says stop (or the parent is gone), then the links' last words and ``None``. The
    links' queue holds at most ``limit`` events: what does not fit is dropped and said."""
    said = BoundedQueue(limit, "the links' process queue")
    kw = {"policy": policy} if policy is not None else {}
    links = [Link(url, said.put, install_serial=install_serial, **kw).start() for url in urls]
    stop = threading.Event()

    def listen() -> None:
        try:
            control.recv()
        except (EOFError, OSError):
            pass                 # the parent is gone: stop as if asked
        stop.set()
        said.force(_WAKE)

    threading.Thread(target=listen, name="link host control", daemon=True).start()
    try:
        while not stop.is_set():
            batch = [said.get()]
            batch += said.take(BATCH_MAX - 1)
            batch = [e for e in batch if e is not _WAKE]
            if batch:
                events.send(batch)
        stop_all(links, stop_timeout)
        last = [e for e in said.take() if e is not _WAKE]
        for i in range(0, len(last), BATCH_MAX):
            events.send(last[i:i + BATCH_MAX])
        events.send(None)
    except (BrokenPipeError, EOFError, OSError):
        stop_all(links, stop_timeout)   # the parent is gone: nobody to tell
    finally:
        events.close()


# -- the parent ----------------------------------------------------------------------------------
class LinkHost:
    """``start()`` the child with one link per url, ``stop()`` it; ``on_event`` is called on the
    host's receiving thread with each event, as a ``Link``'s ``on_event`` would be."""

    def __init__(self, urls: Sequence[str], on_event: Callable[[LinkEvent], None], *,
                 policy: Policy | None = None, install_serial: str = "",
                 wall: Callable[[], datetime] = datetime.now, restart_s: float = RESTART_S, limit: int = LIMIT):
        """``limit``: the link events the child holds while the parent does not take them (its
        queue, ``serve``); more are dropped there and said."""
        self.urls = tuple(urls)
        self.limit = limit
        self.on_event = on_event
        self._policy, self._install_serial = policy, install_serial
        self._wall, self._restart_s = wall, restart_s
        self._ctx = multiprocessing.get_context("spawn")
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        self._proc = None
        self._control = None
        self._lock = threading.Lock()           # guards _proc/_control between start, restart, stop
        self.states: dict[str, LinkState] = {}  # url -> the last state its link reported
        self.restarts = 0

    @property
    def pid(self) -> int | None:
        proc = self._proc
        return proc.pid if proc is not None else None

    def start(self, stop_timeout: float = 2.0) -> "LinkHost":
        self._stop_timeout = stop_timeout
        events = self._spawn()
        self._thread = threading.Thread(target=self._receive, args=(events,), name="link host", daemon=True)
        self._thread.start()
        return self

    def _spawn(self):
        events_in, events_out = self._ctx.Pipe(duplex=False)
        control_in, control_out = self._ctx.Pipe(duplex=False)
        proc = self._ctx.Process(target=serve, name="pitdesk links", daemon=True,
                                 args=(self.urls, self._policy, self._install_serial, events_out, control_in,
                                       self._stop_timeout, self.limit))
        with self._lock:
            proc.start()
            self._proc, self._control = proc, control_out
        events_out.close()    # the child's ends: ours are closed so that its end is seen as EOF
        control_in.close()
        return events_in

    def _receive(self, events) -> None:
        while True:
            ended = self._pass_on(events)
            events.close()
            if ended or self._stopping.is_set():
                return
            self._lost()
            if self._stopping.wait(self._restart_s):
                return
            self.restarts += 1
            try:
                events = self._spawn()
            except OSError as e:
                self._emit(LinkLog("link host", f"the links' process could not start again: {e}", self._wall()))
                return

    def _pass_on(self, events) -> bool:
        """Pass on every batch until the child's ``None`` (True) or its end without it (False)."""
        while True:
            try:
                batch = events.recv()
            except (EOFError, OSError):
                return False
            if batch is None:
                return True
            for e in batch:
                if isinstance(e, LinkState):
                    self.states[e.url] = e
                self._emit(e)

    def _lost(self) -> None:
        """The child ended by itself: every link it held is lost, as a link whose port died."""
        proc = self._proc
        if proc is not None:
            proc.join(1.0)
        code = proc.exitcode if proc is not None else None
        reason = f"the links' process ended (exit code {code}); restarting in {self._restart_s:g} s"
        log.error("%s", reason)
        now = self._wall()
        self._emit(LinkLog("link host", reason, now))
        for url in self.urls:
            last = self.states.get(url)
            if last is not None and last.new != OFFLINE:
                lost = LinkState(url, last.serial, last.device, last.new, OFFLINE, reason, now)
                self.states[url] = lost
                self._emit(lost)

    def _emit(self, event: LinkEvent) -> None:
        try:
            self.on_event(event)
        except Exception:  # a consumer's bug must not stop the host  # noqa: BLE001
            log.exception("the event consumer failed on %r", event)

    def stop(self, timeout: float = 2.0) -> None:
        """Ask the child to stop its links, wait for their last words and for it to end (at most
        about ``timeout`` plus a second), terminate it if it does not."""
        self._stopping.set()
        with self._lock:
            proc, control = self._proc, self._control
        if control is not None:
            try:
                control.send("stop")
            except (BrokenPipeError, OSError):
                pass
        deadline = time.monotonic() + timeout + 1.0
        if self._thread is not None:
            self._thread.join(max(0.0, deadline - time.monotonic()))
        if proc is not None:
            proc.join(max(0.0, deadline - time.monotonic()))
            if proc.is_alive():
                log.error("the links' process did not stop within %.1f s: terminated", timeout + 1.0)
                proc.terminate()
                proc.join(1.0)
        if control is not None:
            control.close()
        if self._thread is not None:
            self._thread.join(1.0)
