"""The pitdesk link protocol's frames, and a pure decoder (bytes in; frames, bytes used out).

    STX | LEN | SEQ | TYPE | PAYLOAD (LEN bytes) | CRC (2, big-endian) | ETX
    0x02  0-250 0-255  1 byte                     CRC-16/CCITT-FALSE      0x03
                                                  over LEN, SEQ, TYPE, PAYLOAD

Between STX and ETX the bytes 0x02, 0x03 and 0x10 are sent as 0x10 followed by the byte XOR
0x20 (byte stuffing), so a start byte always starts a frame and a lost byte costs one frame,
not the frames after it. The decoder never raises and never yields a frame whose length,
escape, CRC or end byte is wrong; it resynchronises at the next start byte. An incomplete
frame at the end of the buffer is left unconsumed for the next read. docs/devices.md
describes the protocol.
"""

from __future__ import annotations

from binascii import crc_hqx
from dataclasses import dataclass

STX, ETX = 0x02, 0x03
MAX_PAYLOAD = 250
OVERHEAD = 7  # STX LEN SEQ TYPE CRC CRC ETX


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE: polynomial 0x1021, initial 0xFFFF (check value 0x29B1)."""
    return crc_hqx(data, 0xFFFF)


@dataclass(frozen=True, slots=True)
class Frame:
    seq: int
    type: int
    payload: bytes = b""


class FrameError(ValueError):
    pass


DLE = 0x10
_SPECIAL = {STX, ETX, DLE}
_STUFF = {b: bytes((DLE, b ^ 0x20)) for b in _SPECIAL}


def _stuff(body: bytes) -> bytes:
    if not _SPECIAL.intersection(body):
        return body
    return b"".join(_STUFF.get(b, bytes((b,))) for b in body)


def _unstuff(raw: bytes) -> bytes | None:
    if DLE not in raw:
        return raw
    out = bytearray()
    it = iter(raw)
    for b in it:
        if b == DLE:
            nxt = next(it, None)
            if nxt is None or (nxt ^ 0x20) not in _SPECIAL:
                return None
            out.append(nxt ^ 0x20)
        else:
            out.append(b)
    return bytes(out)


def encode(frame: Frame) -> bytes:
    if not 0 <= frame.seq <= 255 or not 0 <= frame.type <= 255:
        raise FrameError(f"sequence and type are bytes, got {frame.seq} and {frame.type}")
    if len(frame.payload) > MAX_PAYLOAD:
        raise FrameError(f"a payload is at most {MAX_PAYLOAD} bytes, got {len(frame.payload)}")
    body = bytes((len(frame.payload), frame.seq, frame.type)) + frame.payload
    return bytes((STX,)) + _stuff(body + crc16(body).to_bytes(2, "big")) + bytes((ETX,))


MAX_WIRE = 2 * (MAX_PAYLOAD + 5) + 2  # every body byte stuffed, plus STX and ETX


@dataclass
class Decoded:
    frames: list[Frame]
    consumed: int      # bytes of the input that are done with (frames and discarded garbage)
    rejected: int      # candidate frames refused: bad length, escape, CRC, or cut short by a new STX
    garbage: int       # bytes skipped outside valid frames


def decode(buf: bytes) -> Decoded:
    frames: list[Frame] = []
    rejected = garbage = 0
    i, n = 0, len(buf)
    while True:
        start = buf.find(STX, i)
        if start < 0:
            return Decoded(frames, n, rejected, garbage + n - i)
        garbage += start - i
        end = buf.find(ETX, start + 1)
        restart = buf.find(STX, start + 1, end if end >= 0 else n)
        if restart >= 0:  # a new frame began before this one ended: this one is lost
            rejected += 1
            garbage += restart - start
            i = restart
            continue
        if end < 0:
            if n - start > MAX_WIRE:  # longer than any frame can be: not a frame
                return Decoded(frames, n, rejected + 1, garbage + n - start)
            return Decoded(frames, start, rejected, garbage)  # wait for the rest
        body = _unstuff(buf[start + 1:end])
        i = end + 1
        if (body is None or len(body) < 5 or body[0] != len(body) - 5 or body[0] > MAX_PAYLOAD
                or crc16(body[:-2]) != int.from_bytes(body[-2:], "big")):
            rejected += 1
            garbage += end + 1 - start
            continue
        frames.append(Frame(body[1], body[2], bytes(body[3:-2])))
class Decoder:
    """Keeps the unconsumed tail between reads; counts what it accepted and refused."""

    def __init__(self, max_buffer: int = 4096):
        self.buf = b""
        self.max_buffer = max_buffer
        self.accepted = self.rejected = self.garbage = 0

    def feed(self, data: bytes) -> list[Frame]:
        d = decode(self.buf + data)
        self.buf = (self.buf + data)[d.consumed:]
        if len(self.buf) > self.max_buffer:  # a flood of bytes that never completes a frame
            self.garbage += len(self.buf)
            self.buf = b""
        self.accepted += len(d.frames)
        self.rejected += d.rejected
        self.garbage += d.garbage
        return d.frames
