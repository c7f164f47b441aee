"""Simulated table devices speaking the pitdesk link protocol, from the device's side.

``SimDevice(kind, serial, faults=(), seed=None, pace=1.0, fault_rate=0.1)`` is a shuffler, shoe,
progressive controller or RNG display; ``serve_pty(path)`` or ``serve_tcp(host, port)`` starts it
on a pseudo-terminal (``path`` becomes a symlink to the slave) or a TCP server, one thread per
device, and returns a ``Served`` handle: ``.url`` for ``serial.serial_for_url``, ``.inject(fault)``,
``.stats``, ``.fault_log``, ``.stop()``. No Qt; the demo floor and the tests start many devices in
one process, and ``pitdesk simulate device`` one per process. docs/devices.md, "Simulators",
describes the behaviour; the session itself is app/simulate/device_link.py, what each class does
app/simulate/device_kinds.py.

Faults: ``faults`` are those a round may draw at random (each round, with probability
``fault_rate``, one of them); ``inject`` accepts any fault the class has. jam, miscount and
misread show in the class's messages; garbage, bad-crc and drop on the next frame written; silence
and slow start at once and last ``silence`` / ``slow`` seconds (a range, drawn each time).
"""

from __future__ import annotations

import math
import queue
import random
import threading
import time
from collections import Counter, deque

from app.devices.frame import encode
from app.devices.messages import encode_message

from .device_kinds import CLASSES, ROUND, SERIAL_PREFIX, SimError, check_fault, check_kind
from .device_link import ACK_TIMEOUT, DeviceLink, bad_crc, garbage
from .device_transports import Pty, Tcp

__all__ = ["SimDevice", "Served", "SimError"]

FIRMWARE = "sim-1.0"
SLOW_BYTE_S = (0.002, 0.02)
OUT_LIMIT = 65536  # bytes waiting for a line that does not take them: dropped beyond this


def _span(value, option: str) -> tuple[float, float]:
    lo, hi = (value, value) if isinstance(value, (int, float)) else value
    if not 0 < lo <= hi:
        raise SimError(f"expected seconds MIN <= MAX, more than 0, got {value!r}", option)
    return float(lo), float(hi)


class SimDevice:
    def __init__(self, kind: str, serial: str | None = None, faults=(), seed: int | None = None,
                 pace: float = 1.0, fault_rate: float = 0.1, *, silence=(5.0, 12.0), slow=(3.0, 8.0),
                 ack_timeout: float = ACK_TIMEOUT, driven: bool = False, **tuning):
        self.kind = check_kind(kind)
        self.serial = serial if serial is not None else f"{SERIAL_PREFIX[kind]}-1"
        if not self.serial or len(self.serial.encode()) > 60:
            raise SimError(f"a serial is 1 to 60 bytes of text, got {self.serial!r}", "serial")
        if isinstance(faults, str):
            faults = faults.split(",")
        self.faults = frozenset(check_fault(f.strip(), kind) for f in faults if f.strip())
        if not pace > 0:
            raise SimError(f"the pace is a multiplier more than 0, got {pace!r}", "pace")
        if not 0 <= fault_rate <= 1:
            raise SimError(f"the fault rate is a probability, 0 to 1, got {fault_rate!r}", "fault-rate")
        self.pace, self.fault_rate = pace, fault_rate
        self.driven = driven   # says only what the table's play makes it say (``say``), and its broadcasts
        self.silence, self.slow = _span(silence, "silence"), _span(slow, "slow")
        base = random.Random(seed)
        # separate streams, so the timing of the line does not change what the device does
        self._fault_rng = random.Random(base.getrandbits(64))
        self._wire_rng = random.Random(base.getrandbits(64))
        try:
            self._class = CLASSES[kind](random.Random(base.getrandbits(64)), **tuning)
        except TypeError as e:
            raise SimError(f"{kind}: {e}", "device") from None
        self._ack_timeout = ack_timeout
        self._commands: queue.SimpleQueue = queue.SimpleQueue()
        # written by the device thread only; copying a Counter is atomic under the GIL
        self._stats: Counter = Counter()
        self._fault_counts: Counter = Counter()
        self.fault_log: deque[dict] = deque(maxlen=1000)
        self._served: Served | None = None

    # -- the handle's side: any thread ---------------------------------------------------------
    def inject(self, fault: str) -> None:
        self._commands.put(check_fault(fault, self.kind))
        if self._served is not None:
            self._served._wake()

    def say(self, message: str, **fields) -> None:
        """Send ``message`` now, besides what the class does by itself: what a person at the table
        makes the device say (the dealer presses the shuffler's deal button, the controller's hit
        key), as the table's play (app/simulate/table_play.py) drives it."""
        encode_message(message, 0, **fields)   # a message the device cannot say is refused here, not on the line
        self._commands.put(("say", message, fields))
        if self._served is not None:
            self._served._wake()

    @property
    def stats(self) -> dict:
        out = dict(self._stats)
        out["faults"] = dict(self._fault_counts)
        for key in ("frames_sent", "messages_sent", "retransmitted", "given_up", "acks_received",
                    "naks_received", "faults_injected", "connections"):
            out.setdefault(key, 0)
        return out

    def serve_pty(self, path: str) -> Served:
        """``path`` becomes a symlink to a new pseudo-terminal's slave (an old symlink is replaced,
        anything else refused); the handle's url is ``path``."""
        self._check_unserved()
        self._served = Served(self, Pty(path))
        return self._served

    def serve_tcp(self, host: str = "127.0.0.1", port: int = 0) -> Served:
        """A TCP server (port 0: a free one); the handle's url is socket://HOST:PORT."""
        self._check_unserved()
        self._served = Served(self, Tcp(host, port))
        return self._served

    def _check_unserved(self) -> None:
        if self._served is not None:  # one thread and one line per device: make another SimDevice
            raise SimError(f"{self.kind} {self.serial} is already served at {self._served.url}")

    # -- the device thread ---------------------------------------------------------------------
    def _run(self, t, stopping: threading.Event) -> None:
        now = time.monotonic()
        self._link = DeviceLink(now, {"device": self.kind, "serial": self.serial, "firmware": FIRMWARE},
                                self._class.greeting, self._ack_timeout, self._stats)
        self._out = bytearray()
        self._armed: Counter = Counter()
        self._silent_until = self._slow_until = self._next_byte = 0.0
        self._cycle = self._class.rounds(self._take) if not self.driven else None
        self._said: deque = deque()   # messages a person made the device say, sent once it is greeted
        self._tick_due = None
        self._step_delay = math.inf
        self._step_due = math.inf
        if self._cycle is not None:
            self._advance(now)
        if t.connected:
            self._connected(now)
        while not stopping.is_set():
            now = time.monotonic()
            deadlines = [now + 0.5]  # the thread sleeps until the earliest of these
            if t.connected and now < self._silent_until:
                deadlines.append(self._silent_until)
            elif t.connected:
                deadlines.append(self._link.next_deadline(now))
                if self._link.greeted:  # the rounds wait for the workstation to take the hello
                    deadlines.append(self._step_due)
                    if self._tick_due is not None:
                        deadlines.append(self._tick_due)
                if self._out and now < self._slow_until:
                    deadlines.append(self._next_byte)
            timeout = max(0.0, min(deadlines) - now)
            writing = bool(self._out) and now >= max(self._slow_until, self._silent_until)
            readable = t.wait(timeout, writing)
            now = time.monotonic()
            self._drain_commands(now)
            if readable:
                for data in t.read():
                    if now >= self._silent_until:  # a silent device hears nothing either
                        self._link.receive(data, now)  # the workstation sends only hellos, the link's business
            if t.accept():  # a new connection starts afresh (a closed one waits for this)
                self._connected(now)
            if not t.connected or now < self._silent_until:
                continue
            while self._link.greeted and self._said:
                self._link.queue(*self._said.popleft())
            if self._link.greeted and now >= self._step_due:
                self._link.queue(*self._step)
                self._advance(now)
            if self._link.greeted and self._tick_due is not None and now >= self._tick_due:
                self._link.queue(*self._class.broadcast())
                self._tick_due = now + self._class.tick * self.pace
            for kind, frame in self._link.poll(now):
                self._emit(kind, frame, now)
            self._pump(t, now)

    def _connected(self, now: float) -> None:
        """A connection starts (a TCP client, or the PTY when the device starts): hello unasked (the
        link says it first, and the greeting once the workstation has acknowledged it)."""
        self._stats["connections"] += 1
        self._link.reset(now)
        self._out.clear()
        self._step_due = now + self._step_delay
        if self._class.tick is not None:
            self._tick_due = now + self._class.tick * self.pace

    def _advance(self, now: float) -> None:
        """The class's next step; a round start may draw a random fault."""
        while True:
            step = next(self._cycle)
            if step == ROUND:
                if self.faults and self._fault_rng.random() < self.fault_rate:
                    self._arm(self._fault_rng.choice(sorted(self.faults)), now)
                continue
            self._step_delay = step[0] * self.pace
            self._step = step[1:]
            self._step_due = now + self._step_delay
            return

    def _drain_commands(self, now: float) -> None:
        while True:
            try:
                command = self._commands.get_nowait()
            except queue.Empty:
                return
            if isinstance(command, tuple):
                _, message, fields = command
                self._said.append((message, fields))
                heard = getattr(self._class, "said", None)
                if heard is not None:
                    heard(message, fields)   # the device's own state follows what it said (its meter)
            else:
                self._arm(command, now)

    def _arm(self, fault: str, now: float) -> None:
        if fault in ("silence", "slow"):
            seconds = self._wire_rng.uniform(*(self.silence if fault == "silence" else self.slow))
            if fault == "silence":
                self._silent_until = now + seconds
                self._step_due = max(self._step_due, now) + seconds  # the device is hung, its rounds too
                if self._tick_due is not None:
                    self._tick_due = max(self._tick_due, now) + seconds
            else:
                self._slow_until = now + seconds
                self._next_byte = now
            self._record(fault, now, seconds=round(seconds, 3))
        else:
            self._armed[fault] += 1

    def _take(self, fault: str) -> bool:
        if not self._armed[fault]:
            return False
        self._armed[fault] -= 1
        self._record(fault, time.monotonic())
        return True

    def _record(self, fault: str, now: float, **detail) -> None:
        self._fault_counts[fault] += 1
        self._stats["faults_injected"] += 1
        self.fault_log.append({"fault": fault, "at": now, **detail})

    def _emit(self, kind: str, frame, now: float) -> None:
        if self._armed["garbage"]:  # line noise between two frames
            self._armed["garbage"] -= 1
            noise = garbage(self._wire_rng)
            self._out += noise
            self._record("garbage", now, bytes=len(noise))
        if kind == "new" and self._armed["drop"]:  # lost on the line: the ack timeout brings it back
            self._armed["drop"] -= 1
            self._record("drop", now, seq=frame.seq)
            return
        if kind == "new" and self._armed["bad-crc"]:  # refused by the host: a nak or the timeout brings it back
            self._armed["bad-crc"] -= 1
            self._record("bad-crc", now, seq=frame.seq)
            self._out += bad_crc(frame)
        else:
            self._out += encode(frame)
        self._stats["frames_sent"] += 1
        self._link.sent(now)

    def _pump(self, t, now: float) -> None:
        if not self._out:
            return
        if now < self._slow_until:  # a byte at a time, 2 to 20 ms apart
            if now >= self._next_byte:
                del self._out[:t.write(self._out[:1])]
                self._next_byte = now + self._wire_rng.uniform(*SLOW_BYTE_S)
        else:
            del self._out[:t.write(self._out)]
        if len(self._out) > OUT_LIMIT:
            self._out.clear()
            self._stats["line_overrun"] += 1


class Served:
    """A device at work on a transport, in its own thread: ``url`` (what serial_for_url opens),
    ``info`` (what the command line prints), ``inject``, ``stats``, ``fault_log`` (each fault as
    it showed: name, time.monotonic() and detail such as the SEQ it hit), ``alive``, ``error``
    (what stopped the thread, if it died) and ``stop`` (idempotent; joins the thread, closes the
    line and removes the symlink)."""

    def __init__(self, device: SimDevice, transport):
        self.device, self._t = device, transport
        self.url = transport.url
        self.info = {"device": device.kind, "serial": device.serial, **transport.info}
        self.error: BaseException | None = None
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._main, name=f"sim-{device.kind}-{device.serial}", daemon=True)
        self._thread.start()

    def _main(self) -> None:
        try:
            self.device._run(self._t, self._stopping)
        except BaseException as e:  # reported by .alive / .error; the CLI exits 1 on it
            self.error = e
        finally:
            self._t.close()

    def _wake(self) -> None:
        self._t.wake()

    def inject(self, fault: str) -> None:
        self.device.inject(fault)

    def say(self, message: str, **fields) -> None:
        self.device.say(message, **fields)

    @property
    def stats(self) -> dict:
        return self.device.stats

    @property
    def fault_log(self) -> list[dict]:
        return list(self.device.fault_log)

    @property
    def alive(self) -> bool:
        return self._thread.is_alive()

    def stop(self, wait: bool = True) -> None:
        """``wait=False`` only asks: a floor asks every device, then waits for each."""
        self._stopping.set()
        self._t.wake()
        if wait:
            self._thread.join(5)

    def __enter__(self) -> Served:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
