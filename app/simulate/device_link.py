"""The simulated device's end of a session (docs/devices.md, "The session"), without I/O.

The caller feeds ``receive`` what it read and writes what ``poll`` returns, telling ``sent`` when
a frame really went out (a heartbeat is due after 1 s of sending nothing), and calls ``reset`` when
a connection starts. The link numbers the device's frames; a new frame's SEQ stays within 8 of the
oldest unacknowledged one; it retransmits a frame unchanged after 0.3 s without an ack (at once on
nak reason 1, or on the workstation's hello while its own hello awaits an ack) and gives it up
after 3 retransmissions, saying so at once in a heartbeat, whose SEQ (like every ack's and nak's)
is its oldest unacknowledged frame. It says hello first on every connection and sends nothing
else until the workstation has acknowledged that hello; then the class's greeting (the deck
colours, the meter), once per conversation. It acks the host's frames, naks reason 2 (unknown
message) and 3 (payload does not match the table), and naks reason 1 when its decoder refuses
candidate frames: one nak per read, however many candidates that read cut.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from collections.abc import Callable
from dataclasses import dataclass

from app.devices.frame import DLE, ETX, STX, Decoder, Frame, crc16, decode
from app.devices.messages import BY_CODE, BY_NAME, MessageError, decode_message, encode_message

ACK_TIMEOUT = 0.3
MAX_RETRANSMISSIONS = 3
WINDOW = 8
HEARTBEAT_AFTER = 1.0
NAK_LINE, NAK_UNKNOWN, NAK_PAYLOAD = 1, 2, 3
LINK_TYPES = {BY_CODE[c].name for c in (0x01, 0x06, 0x15)}  # heartbeat, ack, nak: never answered
HELLO = BY_NAME["hello"].code
OUTBOX_LIMIT = 64  # messages waiting for room in the window; older ones are dropped beyond it


@dataclass
class _Unacked:
    frame: Frame
    due: float
    retransmissions: int = 0


class DeviceLink:
    def __init__(self, started: float, hello: dict, greeting: Callable[[], list] = list,
                 ack_timeout: float = ACK_TIMEOUT, stats: Counter | None = None):
        self.started = started
        self.hello = dict(hello)          # device, serial, firmware: what the device's hello says
        self.greeting = greeting          # the messages that follow an acknowledged hello
        self.ack_timeout = ack_timeout
        self.seq = 0                      # one counter for the device's frames, across connections
        self.stats: Counter = Counter() if stats is None else stats
        self.refused: deque = deque(maxlen=100)  # (seq, reason) of frames the host refused (nak 2/3)
        self.given_up: deque[Frame] = deque(maxlen=256)  # frames given up, for whoever keeps account
        self.unacked: dict[int, _Unacked] = {}  # in the order numbered: the first is the oldest
        self.outbox: deque[tuple[str, dict]] = deque()
        self.greeted = False
        self.reset(started)

    def reset(self, now: float) -> None:
        """A new connection: the frames in flight are given up (whoever had them is gone), the
        messages not yet numbered wait, and the device says hello before anything else."""
        for u in self.unacked.values():
            self._give_up(u.frame)
        self.unacked = {}
        self.control: list[Frame] = []
        self.decoder = Decoder()
        self.last_host_seq: int | None = None
        self.last_sent = now
        self._say_hello()

    def queue(self, name: str, fields: dict) -> None:
        self.outbox.append((name, fields))
        if len(self.outbox) > OUTBOX_LIMIT:
            self.outbox.popleft()
            self.stats["outbox_overflow"] += 1

    def base(self) -> int:
        """The oldest unacknowledged SEQ, or the next one when nothing awaits an ack."""
        return next(iter(self.unacked), self.seq)

    def _control(self, name: str, **fields) -> None:
        # ack, nak and heartbeat carry the window base and do not advance the numbering
        self.control.append(encode_message(name, self.base(), **fields))

    def _say_hello(self) -> None:
        """A new conversation: hello first; the rest waits until it is acknowledged."""
        self.greeted = False
        if not any(name == "hello" for name, _ in self.outbox):
            self.outbox.appendleft(("hello", dict(self.hello)))

    def _hello_in_flight(self) -> bool:
        return any(u.frame.type == HELLO for u in self.unacked.values())

    def _give_up(self, frame: Frame) -> None:
        self.stats["given_up"] += 1
        self.given_up.append(frame)

    def receive(self, data: bytes, now: float) -> list[dict]:
        """Decode what the host sent, queue the answers; returns the host's messages to act on (a
        hello is the link's own business)."""
        before = self.decoder.rejected
        frames = self.decoder.feed(data)
        if self.decoder.rejected > before:
            self.stats["frames_rejected"] += self.decoder.rejected - before
            self.stats["naks_sent"] += 1
            self._control("nak", nakked=0, reason=NAK_LINE)
        out = []
        for f in frames:
            self.stats["frames_received"] += 1
            spec = BY_CODE.get(f.type)
            if spec is None:
                self.stats["naks_sent"] += 1
                self._control("nak", nakked=f.seq, reason=NAK_UNKNOWN)
                continue
            try:
                msg = decode_message(f)
            except MessageError:
                if spec.name not in LINK_TYPES:
                    self.stats["naks_sent"] += 1
                    self._control("nak", nakked=f.seq, reason=NAK_PAYLOAD)
                continue
            if spec.name in LINK_TYPES:
                self._link_message(msg, now)
                continue
            self._control("ack", acked=f.seq)
            if msg["type"] == "hello":
                # answered even when its SEQ repeats the last one: a host that reopened the port may
                # number from 0 again
                self.last_host_seq = f.seq
                self._host_hello(now)
                continue
            # a repeat of the last accepted frame (our ack was lost) is acked, not passed on twice
            if f.seq == self.last_host_seq:
                self.stats["duplicates_received"] += 1
                continue
            self.last_host_seq = f.seq
            out.append(msg)
        return out

    def _host_hello(self, now: float) -> None:
        if self._hello_in_flight():
            # the host opened the port after our hello went (pyserial empties its input when it
            # opens): everything in flight goes again now, and nothing new, so the greeting is not
            # said twice
            for u in self.unacked.values():
                self._again_now(u, now)
            self.stats["hello_repeated"] += 1
        else:
            self._say_hello()   # a host that (re)opened the port: a new conversation

    def _link_message(self, msg: dict, now: float) -> None:
        if msg["type"] == "ack":
            u = self.unacked.pop(msg["acked"], None)
            if u is None:
                return
            self.stats["acks_received"] += 1
            if u.frame.type == HELLO and not self.greeted:
                self.greeted = True
                self.outbox.extendleft(reversed(self.greeting()))   # before anything that waited
        elif msg["type"] == "nak":
            self.stats["naks_received"] += 1
            if msg["reason"] == NAK_LINE:
                if self.unacked:  # the oldest unacknowledged frame, at once
                    self._again_now(self.unacked[next(iter(self.unacked))], now)
            elif msg["nakked"] in self.unacked:  # refused (2, 3): a fault in the sender, not retried
                del self.unacked[msg["nakked"]]
                self.refused.append((msg["nakked"], msg["reason"]))

    @staticmethod
    def _again_now(u: _Unacked, now: float) -> None:
        # only a frame with a retransmission left: the last copy of one without still has its full
        # 0.3 s for an ack, which may be on its way (giving it up now would lose a frame that arrived)
        if u.retransmissions < MAX_RETRANSMISSIONS:
            u.due = now

    def _may_number(self) -> bool:
        # a new SEQ stays within the window of the oldest unacknowledged one; before the hello is
        # acknowledged, only a hello goes
        return (bool(self.outbox) and (self.seq - self.base()) % 256 < WINDOW
                and (self.greeted or self.outbox[0][0] == "hello"))

    def poll(self, now: float) -> list[tuple[str, Frame]]:
        """What to write now: ("control" | "retransmit" | "new" | "heartbeat", frame), in order."""
        out = [("control", f) for f in self.control]
        self.control = []
        gave_up = False
        for seq, u in list(self.unacked.items()):
            if u.due > now:
                continue
            if u.retransmissions >= MAX_RETRANSMISSIONS:
                del self.unacked[seq]
                self._give_up(u.frame)
                gave_up = True
                if u.frame.type == HELLO and not self.greeted and not self._hello_in_flight():
                    self._say_hello()   # nobody took it: a new hello, until one is acknowledged
                continue
            u.retransmissions += 1
            u.due = now + self.ack_timeout
            self.stats["retransmitted"] += 1
            out.append(("retransmit", u.frame))
        while self._may_number():
            name, fields = self.outbox.popleft()
            frame = encode_message(name, self.seq, **fields)
            self.unacked[self.seq] = _Unacked(frame, now + self.ack_timeout)
            self.seq = (self.seq + 1) % 256
            self.stats["messages_sent"] += 1
            out.append(("new", frame))
        if gave_up or (not out and now - self.last_sent >= HEARTBEAT_AFTER):
            # after a give-up at once: the heartbeat's SEQ tells the workstation the frame is gone
            out.append(("heartbeat", encode_message("heartbeat", self.base(), uptime_s=int(now - self.started))))
        return out

    def sent(self, now: float) -> None:
        self.last_sent = now

    def next_deadline(self, now: float) -> float:
        if self.control or self._may_number():
            return now
        due = [u.due for u in self.unacked.values()]
        return min(due + [self.last_sent + HEARTBEAT_AFTER])


def bad_crc(frame: Frame) -> bytes:
    """The frame on the wire with its CRC corrupted (and the body still correctly stuffed), so that
    the host's decoder refuses it for the CRC alone."""
    body = bytes((len(frame.payload), frame.seq, frame.type)) + frame.payload
    inner = body + (crc16(body) ^ 0xA5A5).to_bytes(2, "big")
    stuffed = b"".join(bytes((DLE, b ^ 0x20)) if b in (STX, ETX, DLE) else bytes((b,)) for b in inner)
    return bytes((STX,)) + stuffed + bytes((ETX,))


def garbage(rng: random.Random) -> bytes:
    """Line noise: 8 to 64 random bytes, sometimes with a start byte in them, never a whole frame."""
    while True:
        noise = bytearray(rng.randbytes(rng.randint(8, 64)))
        if rng.random() < 0.5:
            noise[rng.randrange(len(noise))] = STX
        if not decode(bytes(noise)).frames:
            return bytes(noise)
