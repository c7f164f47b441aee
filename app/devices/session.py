"""The workstation's end of one device link, as a pure state machine (docs/devices.md, "The session").

Nothing here touches a port, a thread or a clock: the link runner (``link.py``) feeds in what
happened (the port opened or failed, bytes arrived, time passed) with the monotonic time, and
carries out what comes back (bytes to send, messages to pass on, state changes, log lines, close
the port). That keeps every timeout and retry testable to the millisecond, as pymodbus keeps its
framers apart from its transports and OctoPrint its comm states apart from the serial port.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .frame import Decoder, Frame, encode
from .messages import MessageError, decode_message, encode_message
from .reorder import DUPLICATE, LATE, NEW, Gap, ReorderBuffer, ahead

CONNECTING, ONLINE, DEGRADED, OFFLINE = "connecting", "online", "degraded", "offline"
STATES = (CONNECTING, ONLINE, DEGRADED, OFFLINE)
LINK_TYPES = ("ack", "nak", "heartbeat")   # never acknowledged, never numbered on
NAK_BAD_FRAME, NAK_UNKNOWN, NAK_BAD_PAYLOAD = 1, 2, 3
DEVICE_CLASSES = ("shuffler", "shoe", "progressive", "rng")
CLOSED_BY_US = "closed by the workstation"   # a deliberate close, not an outage
_REFUSED = object()   # a sound frame whose message was refused (nak 2 or 3): taken, never passed on


@dataclass(frozen=True)
class Policy:
    """The timeout policy; docs/devices.md gives these numbers."""
    heartbeat_s: float = 1.0         # send a heartbeat after this long without sending
    ack_timeout_s: float = 0.3       # retransmit an unacknowledged frame after this
    max_retries: int = 3             # retransmissions before a frame is given up
    window: int = 8                  # SEQs from the oldest unacknowledged frame a sender may use, and
    #                                  so the frames a receiver holds ahead of a missing one, plus one
    hello_every_s: float = 1.0       # while connecting, hello again after this
    hello_tries: int = 3             # hellos before the port is closed as offline
    degraded_after_s: float = 3.0    # silence that makes an online link degraded
    offline_after_s: float = 10.0    # silence that closes the port
    recover_after_s: float = 3.0     # fault-free time before a degraded link is online again
    fault_window_s: float = 10.0     # refused frames counted over this window ...
    fault_limit: int = 5             # ... degrade the link at this many
    backoff_first_s: float = 0.5     # reconnect after this, doubling ...
    backoff_max_s: float = 30.0      # ... up to this
    overrun_limit: int = 3           # reads that bring more new frames than the window, within
    #                                  fault_window_s, that cut the device off (it ignores our acks)


# -- what the machine asks the runner to do --------------------------------------------------
@dataclass(frozen=True)
class Send:
    data: bytes


@dataclass(frozen=True)
class Deliver:
    message: dict                    # messages.decode_message's dict: type, device, seq, fields


@dataclass(frozen=True)
class StateChanged:
    old: str
    new: str
    reason: str


@dataclass(frozen=True)
class Log:
    text: str


@dataclass(frozen=True)
class Close:
    reason: str


# Gap (app/devices/reorder.py): device frames that will never be passed on, in their place among the
# Delivers (docs/devices.md, "In order, once each"); the application logs it as a device fault
Output = Send | Deliver | Gap | StateChanged | Log | Close


@dataclass
class _Pending:
    frame: Frame
    sent: float
    retries: int = 0


@dataclass
class Counters:
    frames_accepted: int = 0         # sound frames from the device
    frames_rejected: int = 0         # candidates the decoder refused (CRC, escape, length)
    garbage_bytes: int = 0
    duplicates: int = 0              # retransmissions of a frame already taken
    held: int = 0                    # frames that arrived ahead of a missing one and waited for it
    gaps: int = 0                    # device frames never received (given up, or lost with the link)
    late: int = 0                    # copies of a frame that arrived after its gap was declared
    bad_messages: int = 0            # sound frames whose message did not match the table
    retransmitted: int = 0           # our frames sent again
    given_up: int = 0                # our frames never acknowledged
    delivered: int = 0               # device messages passed on
    opens: int = 0                   # times the port opened
    hellos: int = 0                  # our hellos sent
    connects: int = 0                # times the device said hello
    overruns: int = 0                # reads that brought more new frames than the window allows
    cut_off: int = 0                 # times the device was cut off for ignoring the window


@dataclass
class Session:
    """One port's conversation. Times are monotonic seconds supplied by the caller."""
    name: str = "pitdesk"
    serial: str = ""
    firmware: str = ""
    policy: Policy = field(default_factory=Policy)
    state: str = OFFLINE
    device: str | None = None        # the class the device named in its last hello (kept when offline)
    device_serial: str | None = None
    firmware_seen: str | None = None
    retry_at: float = 0.0            # when offline: the next attempt to open the port
    counters: Counters = field(default_factory=Counters)

    def __post_init__(self) -> None:
        self._reset_link()
        # the device's numbering, kept across connections: it runs on across them (docs/devices.md)
        self._order = ReorderBuffer(self.policy.window)
        self._backoff = self.policy.backoff_first_s
        self._failure: str | None = None   # the last failure's kind, logged in full once
        self._failure_text = ""
        self.last_failure: str | None = None   # what went wrong last, repeats included (for a summary)
        self._repeats = 0
        self._suspect = False     # cut off for ignoring the window: its hello does not reset the backoff
        self._overruns: list[float] = []

    def _reset_link(self) -> None:
        self._decoder = Decoder()
        self._tx_seq = 0
        self._pending: dict[int, _Pending] = {}   # in the order sent: the first is the oldest
        self._last_rx = self._last_tx = self._opened = self._hello_sent = 0.0
        self._hellos = 0
        self._identified = False         # the device has said hello on this connection
        self._faults: list[float] = []
        self._last_fault = float("-inf")
        self._online_since = 0.0
        self._taken = 0                  # new frames taken in the read being worked through

    # -- inputs ----------------------------------------------------------------------------
    def opened(self, now: float) -> list[Output]:
        """The port is open: say hello and wait for the device's."""
        out = self._settle(now, "the link was reopened before it arrived")
        self._reset_link()
        self.counters.opens += 1
        self._opened = self._last_rx = now
        out += self._move(CONNECTING, "port open, waiting for the device's hello")
        return out + self._hello(now)

    def open_failed(self, now: float, error: str) -> list[Output]:
        return self._go_offline(now, "open", f"cannot open the port: {error}")

    def lost(self, now: float, error: str) -> list[Output]:
        """The port failed under us (read or write error, the other end closed)."""
        return self._go_offline(now, "lost", f"the link was lost: {error}")

    def close(self, now: float) -> list[Output]:
        """The workstation closes the port on purpose (shutting down)."""
        out = self._settle(now, "the workstation closed the link before it arrived")
        out += self._move(OFFLINE, CLOSED_BY_US)
        return out + [Close(CLOSED_BY_US)]

    @property
    def waiting(self) -> int:
        """Device frames held because an earlier one has not arrived yet."""
        return len(self._order.held)

    def received(self, now: float, data: bytes) -> list[Output]:
        if self.state == OFFLINE:
            return []
        c = self.counters
        before_rej, before_garbage = self._decoder.rejected, self._decoder.garbage
        frames = self._decoder.feed(data)
        rejected = self._decoder.rejected - before_rej
        c.garbage_bytes += self._decoder.garbage - before_garbage
        out: list[Output] = []
        if rejected:
            c.frames_rejected += rejected
            out += self._fault(now, "frame", f"{rejected} bad frame(s) refused (CRC, escape or length)")
            out.append(self._send_link("nak", nakked=0, reason=NAK_BAD_FRAME))
        self._taken = 0
        for frame in frames:
            out += self._frame(now, frame)
            if self.state == OFFLINE:
                return out
        if self._taken > self.policy.window:
            out += self._overrun(now, self._taken)
        return out

    def tick(self, now: float) -> list[Output]:
        """Time passed: retransmit, give up, send heartbeats, notice silence."""
        p = self.policy
        out: list[Output] = []
        if self.state == OFFLINE:
            return out
        if self.state == CONNECTING:
            if not self._identified and now - self._hello_sent >= p.hello_every_s:
                if self._hellos >= p.hello_tries:
                    return self._go_offline(now, "hello", f"no hello from the device after {self._hellos} tries")
                out += self._hello(now)
        gave_up = False
        for seq, pend in list(self._pending.items()):
            if now - pend.sent < p.ack_timeout_s:
                continue
            if pend.retries >= p.max_retries:
                del self._pending[seq]
                self.counters.given_up += 1
                gave_up = True
                out += self._fault(now, "given-up", f"frame {seq} was never acknowledged after "
                                   f"{p.max_retries} retransmissions", degrade=True)
            else:
                pend.retries += 1
                pend.sent = now
                self.counters.retransmitted += 1
                out.append(self._wire(now, pend.frame))
        if gave_up:   # our window base moved: say so at once, so the device need not wait for it
            out.append(self._send_link("heartbeat", uptime_s=int(now - self._opened), now=now))
        if self._suspect and self.state == ONLINE and now - self._online_since >= p.offline_after_s:
            self._suspect = False   # it kept to the window for a while: the next outage backs off afresh
            self._backoff = p.backoff_first_s
        silent = now - self._last_rx
        if silent >= p.offline_after_s and self.state != CONNECTING:
            return out + self._go_offline(now, "silence", f"nothing from the device for {silent:.1f} s")
        if self.state == ONLINE and silent >= p.degraded_after_s:
            out += self._move(DEGRADED, f"nothing from the device for {silent:.1f} s")
        if self.state in (ONLINE, DEGRADED) and now - self._last_tx >= p.heartbeat_s:
            out.append(self._send_link("heartbeat", uptime_s=int(now - self._opened), now=now))
        return out

    def send(self, now: float, name: str, **values) -> list[Output]:
        """Send a message that the device must acknowledge (refused past the window)."""
        base, window = self._base(), self.policy.window
        if (self._tx_seq - base) % 256 >= window:
            # the SEQs in use may not run 8 past the oldest unacknowledged frame (docs/devices.md)
            raise OverflowError(f"{len(self._pending)} frames already await an acknowledgement, the oldest "
                                f"{base}: the window of {window} is full")
        frame = encode_message(name, self._tx_seq, **values)
        self._tx_seq = (self._tx_seq + 1) % 256
        self._pending[frame.seq] = _Pending(frame, now)
        return [self._wire(now, frame)]

    def wake_at(self, now: float) -> float:
        """When ``tick`` may next have something to do (a retransmission, a hello, a heartbeat,
        a silence that degrades or closes the link): a reader may block on its port until then
        (docs/devices.md, "The session"). ``now`` while offline: opening is the runner's timer."""
        p = self.policy
        if self.state == OFFLINE:
            return now
        times = [pend.sent + p.ack_timeout_s for pend in self._pending.values()]
        if self.state == CONNECTING:
            if not self._identified:
                times.append(self._hello_sent + p.hello_every_s)
        else:
            times.append(self._last_tx + p.heartbeat_s)
            times.append(self._last_rx + (p.degraded_after_s if self.state == ONLINE else p.offline_after_s))
        return min(times, default=now + p.heartbeat_s)

    def ready_to_open(self, now: float) -> bool:
        return self.state == OFFLINE and now >= self.retry_at

    # -- internals -------------------------------------------------------------------------
    def _frame(self, now: float, frame: Frame) -> list[Output]:
        c = self.counters
        c.frames_accepted += 1
        self._last_rx = now
        out: list[Output] = []
        try:
            msg = decode_message(frame)
        except MessageError as e:
            c.bad_messages += 1
            unknown = str(e).startswith("unknown message type")
            out += self._fault(now, "message", f"frame {frame.seq}: {e}")
            out.append(self._send_link("nak", nakked=frame.seq, reason=NAK_UNKNOWN if unknown else NAK_BAD_PAYLOAD))
            if self._identified:   # taken in its place, so the frames after it need not wait for it
                out += self._pass_on(now, self._order.offer(frame.seq, _REFUSED)[1])
            return out
        kind = msg["type"]
        if kind in LINK_TYPES:
            out += self._link_frame(now, msg)
            if self._identified:   # its SEQ is the device's oldest unacknowledged frame
                out += self._pass_on(now, self._order.sender_base(frame.seq))
        elif kind == "hello" and self._renumbers(frame.seq, msg):
            out.append(self._send_link("ack", acked=frame.seq, now=now))
            out += self._start_numbering(now, frame.seq, msg)
        elif self._identified:
            verdict, released = self._order.offer(frame.seq, msg)
            if verdict != LATE:   # a late frame was not taken: unacknowledged, the device gives it up too
                out.append(self._send_link("ack", acked=frame.seq, now=now))
            if verdict == NEW:
                self._taken += 1
            if verdict == DUPLICATE:
                c.duplicates += 1     # its ack was lost: acknowledged again, passed on once
            elif verdict == LATE:
                c.late += 1
            elif frame.seq in self._order.held:
                c.held += 1
            out += self._pass_on(now, released)
        # before the device's hello nothing is acknowledged: the device sends it again after its hello
        if self.state == DEGRADED and now - self._last_fault >= self.policy.recover_after_s:
            out += self._move(ONLINE, "frames arrive again without faults")
        return out

    def _overrun(self, now: float, taken: int) -> list[Output]:
        """A read brought more new frames than a sender may send before our acks reach it: every
        frame taken is acknowledged before the next read, so a sender keeping to its window has at
        most ``window`` new ones in any read. A few such reads in a short time mean it ignores the
        window and our acks (a flood): the port is closed, the device named, and reopened only
        after a backoff that keeps doubling until it keeps to the window (docs/devices.md, "Bounded
        input")."""
        p = self.policy
        self.counters.overruns += 1
        self._overruns = [t for t in self._overruns if now - t < p.fault_window_s] + [now]
        if len(self._overruns) < p.overrun_limit:
            return []
        self._overruns = []
        self.counters.cut_off += 1
        self._suspect = True
        who = " ".join(x for x in (self.device, self.device_serial) if x) or "the device"
        return self._go_offline(now, "flood", f"cut off: {who} ignores the window and our acknowledgements "
                                f"({p.overrun_limit} reads in {p.fault_window_s:g} s brought more than "
                                f"{p.window} new frames, the last {taken})")

    def _link_frame(self, now: float, msg: dict) -> list[Output]:
        """An ack or nak of our frames (a heartbeat only shows the link is alive)."""
        out: list[Output] = []
        if msg["type"] == "ack":
            self._pending.pop(msg["acked"], None)
        elif msg["type"] == "nak":
            pend = self._pending.get(msg["nakked"])
            if msg["reason"] == NAK_BAD_FRAME and self._pending:
                # the device refused a frame on the line: send the oldest unacknowledged one again, if
                # it has a retransmission left (one without keeps its full timeout for an ack on its way)
                pend = self._pending[next(iter(self._pending))]
                if pend.retries < self.policy.max_retries:
                    pend.retries += 1
                    pend.sent = now
                    self.counters.retransmitted += 1
                    out.append(self._wire(now, pend.frame))
            elif pend is not None:
                del self._pending[msg["nakked"]]
                out += self._fault(now, "refused", f"the device refused frame {msg['nakked']} (reason "
                                   f"{msg['reason']})")
        return out

    def _renumbers(self, seq: int, msg: dict) -> bool:
        """Does this hello start the device's numbering afresh? Its first hello on a connection does;
        so does a hello from another device, or one more than a window behind the numbering (the
        device restarted: a copy still on the line is at most a window behind). Any other hello is
        taken in its place like any frame."""
        if not self._identified:
            return True
        if msg["serial"] != self.device_serial:
            return True
        return ahead(seq, self._order.expected) < -self.policy.window and seq not in self._order.recent

    def _start_numbering(self, now: float, seq: int, msg: dict) -> list[Output]:
        if msg["device"] not in DEVICE_CLASSES:
            return [Log(f"{self.name}: hello from an unknown device class {msg['device']!r} "
                        f"(one of {', '.join(DEVICE_CLASSES)})")]
        expected = self._order.expected
        out = self._settle(now, "the device started its numbering again before it arrived")
        if expected is not None and msg["serial"] == self.device_serial:
            d = ahead(seq, expected)
            if d > 0:
                # the frames numbered between: sent while the link was down, or in flight when it was
                # lost; a device drops those on a new connection (docs/devices.md)
                gap = Gap(expected, d, "sent before the device's hello on this connection and never received "
                                       "(in flight when the link was lost, or sent while it was down)")
                self.counters.gaps += d
                out.append(gap)
            elif d < 0:
                out.append(Log(f"{self.name}: the device's numbering went back from {expected} to {seq}: it "
                               f"restarted, and what it sent after frame {(expected - 1) % 256} before that "
                               f"is unknown"))
        self._order.start(seq)
        return out + self._pass_on(now, self._order.offer(seq, msg)[1])

    def _settle(self, now: float, reason: str) -> list[Output]:
        """Stop waiting for missing frames (the link is going, or the numbering restarts)."""
        return self._pass_on(now, self._order.settle(reason), degrade=False)

    def _pass_on(self, now: float, released, degrade: bool = True) -> list[Output]:
        """What the reorder buffer releases, in the device's order: messages, hellos and gaps."""
        out: list[Output] = []
        for r in released:
            if isinstance(r, Gap):
                self.counters.gaps += r.count
                out.append(r)
                if degrade:   # a frame given up degrades the link (the states table); the Gap is its log line
                    out += self._fault(now, "gap", r.describe(), degrade=True, note=False)
                continue
            _seq, msg = r
            if msg is _REFUSED:
                continue
            if msg["type"] == "hello":
                out += self._hello_from_device(msg)
            else:
                self.counters.delivered += 1
                out.append(Deliver(msg))
        return out

    def _hello_from_device(self, msg: dict) -> list[Output]:
        if msg["device"] not in DEVICE_CLASSES:
            return [Log(f"{self.name}: hello from an unknown device class {msg['device']!r} "
                        f"(one of {', '.join(DEVICE_CLASSES)})")]
        changed = self.device_serial not in (None, msg["serial"])
        self.device, self.device_serial, self.firmware_seen = msg["device"], msg["serial"], msg["firmware"]
        if not self._identified:
            self.counters.connects += 1   # once per connection; a device may say hello again
        self._identified = True
        self._online_since = self._last_rx
        if not self._suspect:   # a device cut off for a flood keeps its doubled backoff until it behaves
            self._backoff = self.policy.backoff_first_s
        out: list[Output] = [Log(f"{self.name}: the device on this port changed to {msg['serial']}")] if changed else []
        return out + self._move(ONLINE, f"hello from {msg['device']} {msg['serial']} (firmware {msg['firmware']})")

    def _hello(self, now: float) -> list[Output]:
        self._hellos += 1
        self.counters.hellos += 1
        self._hello_sent = now
        self._pending.clear()  # an older hello still unanswered is superseded
        return self.send(now, "hello", device="pitdesk", serial=self.serial, firmware=self.firmware)

    def _base(self) -> int:
        """Our oldest unacknowledged SEQ, or the next one when none awaits an acknowledgement."""
        return next(iter(self._pending), self._tx_seq)

    def _send_link(self, name: str, now: float | None = None, **values) -> Send:
        # ack, nak and heartbeat carry our window base and do not advance the numbering: the device
        # learns from it which of our frames we gave up (docs/devices.md, "In order, once each")
        if now is not None:
            self._last_tx = now
        return Send(encode(encode_message(name, self._base(), **values)))

    def _wire(self, now: float, frame: Frame) -> Send:
        self._last_tx = now
        return Send(encode(frame))

    def _fault(self, now: float, kind: str, text: str, degrade: bool = False, note: bool = True) -> list[Output]:
        p = self.policy
        self._last_fault = now
        self._faults = [t for t in self._faults if now - t < p.fault_window_s] + [now]
        out = self._note_failure(kind, text) if note else []
        if self.state == ONLINE and (degrade or len(self._faults) >= p.fault_limit):
            why = text if degrade else f"{len(self._faults)} faults in {p.fault_window_s:g} s (last: {text})"
            out += self._move(DEGRADED, why)
        return out

    def _note_failure(self, kind: str, text: str) -> list[Output]:
        """The first failure of a kind is logged in full; repeats are counted."""
        self.last_failure = text
        if kind == self._failure:
            self._repeats += 1
            return []
        out = self._flush_repeats()
        self._failure, self._failure_text = kind, text
        return out + [Log(f"{self.name}: {text}")]

    def _flush_repeats(self) -> list[Output]:
        if not self._repeats:
            return []
        n, self._repeats = self._repeats, 0
        return [Log(f"{self.name}: {self._failure_text}: and {n} more time{'s' if n > 1 else ''}")]

    def _go_offline(self, now: float, kind: str, text: str) -> list[Output]:
        was_open = self.state != OFFLINE
        # what arrived is passed on and what did not is named, before the state says offline
        out = self._settle(now, f"the link went offline before it arrived ({text})")
        out += self._note_failure(kind, text)
        out += self._move(OFFLINE, f"{text}; next attempt in {self._backoff:g} s")
        self.retry_at = now + self._backoff
        self._backoff = min(self._backoff * 2, self.policy.backoff_max_s)
        return out + ([Close(text)] if was_open else [])

    def _move(self, new: str, reason: str) -> list[Output]:
        if new == self.state:
            return []
        old, self.state = self.state, new
        if new == ONLINE:
            self._failure = None
        return self._flush_repeats() + [StateChanged(old, new, reason)]
