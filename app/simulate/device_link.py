"""The simulated device's end of a session (docs/devices.md, "The session"), without I/O.

The caller feeds ``receive`` what it read and writes what ``poll`` returns, telling ``sent`` when
a frame really went out (a heartbeat is due after 1 s of sending nothing). The link numbers the
device's frames, keeps at most 8 unacknowledged, retransmits one unchanged after 0.3 s without an
ack (at once on nak reason 1) and gives it up after 3 retransmissions; it acks the host's frames,
naks reason 2 (unknown message) and 3 (payload does not match the table), and naks reason 1 when
its decoder refuses candidate frames: one nak per read, however many candidates that read cut.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from dataclasses import dataclass

from app.devices.frame import DLE, ETX, STX, Decoder, Frame, crc16, decode
from app.devices.messages import BY_CODE, MessageError, decode_message, encode_message

ACK_TIMEOUT = 0.3
MAX_RETRANSMISSIONS = 3
WINDOW = 8
HEARTBEAT_AFTER = 1.0
NAK_LINE, NAK_UNKNOWN, NAK_PAYLOAD = 1, 2, 3
LINK_TYPES = {BY_CODE[c].name for c in (0x01, 0x06, 0x15)}  # heartbeat, ack, nak: never answered
OUTBOX_LIMIT = 64  # messages waiting for room in the window; older ones are dropped beyond it


@dataclass
class _Unacked:
    frame: Frame
    due: float
    retransmissions: int = 0


class DeviceLink:
    def __init__(self, started: float, ack_timeout: float = ACK_TIMEOUT, stats: Counter | None = None):
        self.started = started
        self.ack_timeout = ack_timeout
        self.seq = 0                      # one counter for the device's frames, across connections
        self.stats: Counter = Counter() if stats is None else stats
        self.refused: deque = deque(maxlen=100)  # (seq, reason) of frames the host refused (nak 2/3)
        self.reset(started)

    def reset(self, now: float) -> None:
        """A new connection: nothing in flight, nothing heard from this host yet."""
        self.unacked: dict[int, _Unacked] = {}
        self.outbox: deque[tuple[str, dict]] = deque()
        self.control: list[Frame] = []
        self.decoder = Decoder()
        self.last_host_seq: int | None = None
        self.last_sent = now

    def queue(self, name: str, fields: dict) -> None:
        self.outbox.append((name, fields))
        if len(self.outbox) > OUTBOX_LIMIT:
            self.outbox.popleft()
            self.stats["outbox_overflow"] += 1

    def _control(self, name: str, **fields) -> None:
        # ack, nak and heartbeat carry the next SEQ and do not advance it
        self.control.append(encode_message(name, self.seq, **fields))

    def receive(self, data: bytes, now: float) -> list[dict]:
        """Decode what the host sent, queue the answers; returns the host's messages to act on."""
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
            # a repeat of the last accepted frame (our ack was lost) is acked, not passed on twice;
            # a hello always is: a host that reopened the port may start its numbering again
            if f.seq == self.last_host_seq and msg["type"] != "hello":
                self.stats["duplicates_received"] += 1
                continue
            self.last_host_seq = f.seq
            out.append(msg)
        return out

    def _link_message(self, msg: dict, now: float) -> None:
        if msg["type"] == "ack":
            if self.unacked.pop(msg["acked"], None) is not None:
                self.stats["acks_received"] += 1
        elif msg["type"] == "nak":
            self.stats["naks_received"] += 1
            if msg["reason"] == NAK_LINE:
                if self.unacked:  # the oldest unacknowledged frame, at once
                    self.unacked[next(iter(self.unacked))].due = now
            elif msg["nakked"] in self.unacked:  # refused (2, 3): a fault in the sender, not retried
                del self.unacked[msg["nakked"]]
                self.refused.append((msg["nakked"], msg["reason"]))

    def poll(self, now: float) -> list[tuple[str, Frame]]:
        """What to write now: ("control" | "retransmit" | "new" | "heartbeat", frame), in order."""
        out = [("control", f) for f in self.control]
        self.control = []
        for seq, u in list(self.unacked.items()):
            if u.due > now:
                continue
            if u.retransmissions >= MAX_RETRANSMISSIONS:
                del self.unacked[seq]
                self.stats["given_up"] += 1
                continue
            u.retransmissions += 1
            u.due = now + self.ack_timeout
            self.stats["retransmitted"] += 1
            out.append(("retransmit", u.frame))
        while self.outbox and len(self.unacked) < WINDOW:
            name, fields = self.outbox.popleft()
            frame = encode_message(name, self.seq, **fields)
            self.unacked[self.seq] = _Unacked(frame, now + self.ack_timeout)
            self.seq = (self.seq + 1) % 256
            self.stats["messages_sent"] += 1
            out.append(("new", frame))
        if not out and now - self.last_sent >= HEARTBEAT_AFTER:
            out.append(("heartbeat", encode_message("heartbeat", self.seq, uptime_s=int(now - self.started))))
        return out

    def sent(self, now: float) -> None:
        self.last_sent = now

    def next_deadline(self, now: float) -> float:
        if self.control or (self.outbox and len(self.unacked) < WINDOW):
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
