"""One thread per port: opens it, reads it, runs its Session and hands events to the application.

Ports are opened through ``serial.serial_for_url`` behind an injectable factory, so a real port
(/dev/ttyUSB0, COM3), a device server (``socket://host:port``, ``rfc2217://host:port``), a
pseudo-terminal and a test port all run the same code. The layer knows nothing of Qt: events go
to a callback (the workstation's inbox, ``queue.Queue.put``: thread-safe), which the
workstation's pump drains in batches (app/workstation/desks/live.py).
"""

from __future__ import annotations

import logging
import select
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Protocol

import serial

from .coalesce import BURST, Coalescer
from .session import Close, Deliver, Gap, Log, Policy, Send, Session, StateChanged

log = logging.getLogger("pitdesk.devices")
READ_WAIT_S = 0.25   # the longest a reader blocks before it looks at its timers: it blocks until the
#                      session's next timer (Session.wake_at), and a frame sent meanwhile from another
#                      thread is retransmitted no sooner than ack_timeout_s (0.3 s) after it
MIN_WAIT_S = 0.002   # a timer already due: look at the port once without blocking for long


class Port(Protocol):
    """What a link needs of a port: pyserial's objects have it, and so must a vendor adapter
    that speaks a device's own protocol and hands the link pitdesk frames (docs/devices.md).
    ``fileno`` is optional: with it the link waits on the descriptor and reads with a zero
    timeout; without it the link sets ``timeout`` and reads the first byte, then ``in_waiting``."""
    timeout: float | None

    def read(self, size: int = 1) -> bytes: ...
    def write(self, data: bytes) -> int | None: ...
    def close(self) -> None: ...
    @property
    def in_waiting(self) -> int: ...


def open_port(url: str) -> Port:
    """The default factory: any URL pyserial knows, opened for non-blocking reads where it can be."""
    port = serial.serial_for_url(url, do_not_open=True, baudrate=115200, timeout=0, write_timeout=2)
    port.open()
    return port


@dataclass(frozen=True)
class DeviceMessage:
    """A message a device sent, with where and when it arrived."""
    url: str
    serial: str | None
    device: str | None
    message: dict
    time: datetime            # wall clock at arrival, for the engine's events
    received: float           # monotonic, for latency


@dataclass(frozen=True)
class LinkState:
    url: str
    serial: str | None
    device: str | None
    old: str
    new: str
    reason: str
    time: datetime


@dataclass(frozen=True)
class LinkLog:
    url: str
    text: str
    time: datetime


@dataclass(frozen=True)
class LinkGap(LinkLog):
    """Device frames that will never be passed on (given up by the device, or lost with the link),
    in their place among the device's messages (docs/devices.md, "In order, once each"). It is a
    LinkLog whose text names the gap, so a consumer that logs link faults logs it as one."""
    serial: str | None
    device: str | None
    first_seq: int
    count: int
    reason: str


@dataclass(frozen=True)
class LinkDropped(LinkLog):
    """Events of one device dropped because a queue on their way was full (app/devices/bounded.py,
    docs/devices.md "Bounded input"); a LinkLog whose text says how many, from whom and where."""
    serial: str | None
    count: int
    where: str


LinkEvent = DeviceMessage | LinkState | LinkLog   # LinkGap and LinkDropped are LinkLogs


@dataclass
class Link:
    """The reader thread of one port. ``start()``, then ``stop()``; ``session`` shows its state."""
    url: str
    on_event: Callable[[LinkEvent], None]
    factory: Callable[[str], Port] = open_port
    policy: Policy = field(default_factory=Policy)
    install_serial: str = ""
    firmware: str = ""
    monotonic: Callable[[], float] = time.monotonic
    wall: Callable[[], datetime] = datetime.now

    def __post_init__(self) -> None:
        self.session = Session(self.url, self.install_serial, self.firmware, self.policy)
        self.coalescer = Coalescer(burst=BURST)    # the device's broadcasts thinned (docs/devices.md, "Bounded input")
        self._port = None
        self._lock = threading.Lock()   # guards the session between the reader and send()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"link {self.url}", daemon=True)

    @property
    def state(self) -> str:
        return self.session.state

    def start(self) -> "Link":
        self._thread.start()
        return self

    def stop(self, timeout: float = 5.0, wait: bool = True) -> None:
        """Close the port and end the reader thread; ``wait=False`` only asks (``stop_all``)."""
        self._stop.set()
        if wait:
            self._thread.join(timeout)

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def send(self, name: str, **values) -> None:
        """Send a message the device must acknowledge (from any thread)."""
        with self._lock:
            self._carry_out(self.session.send(self.monotonic(), name, **values))

    # -- the reader thread -----------------------------------------------------------------
    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                now = self.monotonic()
                if self._port is None:
                    if self.session.ready_to_open(now):
                        self._open(now)
                    else:
                        self._stop.wait(min(READ_WAIT_S * 5, max(0.0, self.session.retry_at - now)))
                    continue
                try:
                    data = self._read()
                except (serial.SerialException, OSError, ValueError, TypeError) as e:
                    # TypeError/ValueError: pyserial's posix read on a closed descriptor
                    with self._lock:
                        self._carry_out(self.session.lost(self.monotonic(), _describe(e)))
                    continue
                with self._lock:
                    now = self.monotonic()
                    out = self.session.received(now, data) if data else []
                    self._carry_out(out + self.session.tick(now))
                    self._pass_on(self.coalescer.due(now))
        finally:
            with self._lock:
                if self._port is not None:
                    self._carry_out(self.session.close(self.monotonic()))
                self._pass_on(self.coalescer.flush())

    def _open(self, now: float) -> None:
        try:
            port = self.factory(self.url)
        except (serial.SerialException, OSError, ValueError) as e:
            with self._lock:
                self._carry_out(self.session.open_failed(now, _describe(e)))
            return
        with self._lock:
            self._port = port
            self._carry_out(self.session.opened(self.monotonic()))

    def _read(self) -> bytes:
        port = self._port
        fileno = getattr(port, "fileno", None)
        if fileno is not None:
            # a descriptor to wait on (a serial port, a pseudo-terminal, a TCP socket): block
            # here, then take everything that is there with the port's zero timeout
            try:
                fd = fileno()
            except (AttributeError, serial.SerialException):
                fd = None
            if fd is not None:
                ready, _, _ = select.select([fd], [], [], self._wait())
                if not ready:
                    return b""
                data = port.read(65536)
                if not data:
                    raise serial.SerialException("the port reports data but gives none: the other end is gone")
                return data
        port.timeout = self._wait()  # no descriptor (rfc2217://, loop://): pyserial's own wait
        first = port.read(1)
        return first + (port.read(port.in_waiting) if first and port.in_waiting else b"")

    def _wait(self) -> float:
        """Seconds to block on the port: until the session's next timer, at most ``READ_WAIT_S``."""
        with self._lock:
            now = self.monotonic()
            due = self.coalescer.next_due()
            wake = self.session.wake_at(now) if due is None else min(due, self.session.wake_at(now))
            return min(READ_WAIT_S, max(MIN_WAIT_S, wake - now))

    def _carry_out(self, outputs) -> None:
        """Called with the lock held."""
        failed: str | None = None
        for o in outputs:
            if not isinstance(o, (Send, Deliver, Close)):
                self._pass_on(self.coalescer.flush())   # what it held comes first, in the device's order
            if isinstance(o, Send):
                if self._port is None or failed is not None:
                    continue
                try:
                    self._port.write(o.data)
                except (serial.SerialException, OSError) as e:
                    # the messages after it were taken all the same: passed on before the loss is said
                    failed = _describe(e)
            elif isinstance(o, Deliver):
                now = self.monotonic()
                self._pass_on(self.coalescer.offer(now, o.message, (self.wall(), now)))
            elif isinstance(o, StateChanged):
                log.info("%s: %s -> %s (%s)", self.url, o.old, o.new, o.reason)
                self._emit(LinkState(self.url, self.session.device_serial, self.session.device, o.old, o.new,
                                     o.reason, self.wall()))
            elif isinstance(o, Gap):
                who = " ".join(x for x in (self.session.device, self.session.device_serial) if x) or "the device"
                text = f"{self.url}: {who}: {o.describe()}"
                log.warning("%s", text)
                self._emit(LinkGap(self.url, text, self.wall(), self.session.device_serial, self.session.device,
                                   o.first_seq, o.count, o.reason))
            elif isinstance(o, Log):
                log.info("%s", o.text)
                self._emit(LinkLog(self.url, o.text, self.wall()))
            elif isinstance(o, Close):
                port, self._port = self._port, None
                if port is not None:
                    try:
                        port.close()
                    except (serial.SerialException, OSError) as e:   # already gone; the session said why
                        log.debug("%s: closing the port: %s", self.url, _describe(e))
        if failed is not None:
            self._carry_out(self.session.lost(self.monotonic(), failed))

    def _pass_on(self, released) -> None:
        """The device's messages the coalescer lets through, each with its arrival."""
        for message, (wall, received) in released:
            self._emit(DeviceMessage(self.url, self.session.device_serial, self.session.device, message,
                                     wall, received))

    def _emit(self, event: LinkEvent) -> None:
        try:
            self.on_event(event)
        except Exception:  # a consumer's bug must not kill the reader  # noqa: BLE001
            log.exception("%s: the event consumer failed on %r", self.url, event)


def stop_all(links: list[Link], timeout: float = 5.0) -> None:
    """Stop many links together: each closes its own port on its own thread, at once (pyserial's
    socket:// close alone waits 0.3 s, so one after another a floor of 16 took 5 s to stop)."""
    for link in links:
        link.stop(wait=False)
    deadline = time.monotonic() + timeout
    for link in links:
        link._thread.join(max(0.0, deadline - time.monotonic()))


def _describe(e: BaseException) -> str:
    return str(e) or type(e).__name__
