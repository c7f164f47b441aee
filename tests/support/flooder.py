"""A progressive controller that floods: valid meter frames, the meter one cent higher each, as fast
as a loopback socket takes them (issue 26, finding 4). Shared by the device and workstation
tests and bench/flood_bench.py.

``message`` picks what it floods (``MESSAGES``): ``meter`` (a broadcast, coalesced at the link),
``increment`` (21 cents for seat 1: never coalesced, a reading with no row), ``low-increment``
(5 cents: each makes alarm ``meter_rate``, 000(q)(5)) or ``bad-seat`` (seat 9, which no table
has: each makes fault ``bad_seat``).

``Flooder(ignore_acks=True)`` ignores the window and every acknowledgement: it writes frames in a
tight loop, numbering on, and reads what the workstation says only to throw it away (so the
socket never fills up and the flood is about the window, not TCP). ``ignore_acks=False`` keeps to
the window of 8 (docs/devices.md, "The window"): it sends a new frame only while fewer than 8
await an acknowledgement, and acknowledges the workstation's frames, so it is a fast device the
protocol allows; nothing but the link's coalescing thins it.

It serves one workstation at a time on 127.0.0.1 (a new connection replaces the open one), says
hello when a connection starts and whenever the workstation says hello, and counts what it sent.
"""

from __future__ import annotations

import socket
import threading

from app.devices.frame import Decoder, encode
from app.devices.messages import decode_message, encode_message

WINDOW = 8
MESSAGES = {   # name -> (message type, its fields); the meter's cents are the flooder's running figure
    "meter": ("meter", {}),
    "increment": ("increment", {"seat": 1, "cents": 21}),
    "low-increment": ("increment", {"seat": 1, "cents": 5}),
    "bad-seat": ("increment", {"seat": 9, "cents": 21}),
}
CHUNK = 64   # frames written in one sendall when ignoring the window


class Flooder:
    def __init__(self, serial: str = "PRG-FLOOD", *, ignore_acks: bool = True, start_cents: int = 1_000_000,
                 message: str = "meter"):
        self.serial = serial
        if message not in MESSAGES:
            raise ValueError(f"message {message!r}: one of {', '.join(MESSAGES)}")
        self.message = message        # a name of MESSAGES
        self.ignore_acks = ignore_acks
        self.cents = start_cents
        self.seq = 0
        self.sent = 0                 # meter frames written
        self.connections = 0
        self._server = socket.create_server(("127.0.0.1", 0))
        self.url = f"socket://127.0.0.1:{self._server.getsockname()[1]}"
        self._stop = threading.Event()
        self._conn: socket.socket | None = None
        self._lock = threading.Condition()
        self._unacked: list[int] = []
        self._hello_asked = False
        self._threads = [threading.Thread(target=self._accept, name="flooder accept", daemon=True)]

    def start(self) -> "Flooder":
        for t in self._threads:
            t.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        with self._lock:
            self._lock.notify_all()
        try:
            self._server.close()
        except OSError:
            pass
        conn = self._conn
        if conn is not None:
            _close(conn)
        for t in self._threads:
            t.join(3.0)

    # -- the connections ---------------------------------------------------------------------
    def _accept(self) -> None:
        self._server.settimeout(0.1)
        while not self._stop.is_set():
            try:
                conn, _ = self._server.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            old, self._conn = self._conn, conn
            if old is not None:
                _close(old)
            self.connections += 1
            with self._lock:
                self._unacked.clear()
                self._hello_asked = False
            reader = threading.Thread(target=self._read, args=(conn,), name="flooder read", daemon=True)
            writer = threading.Thread(target=self._write, args=(conn,), name="flooder write", daemon=True)
            self._threads += [reader, writer]
            reader.start()
            writer.start()

    def _read(self, conn: socket.socket) -> None:
        decoder = Decoder()
        while not self._stop.is_set() and self._conn is conn:
            try:
                data = conn.recv(65536)
            except OSError:
                return
            if not data:
                return
            for frame in decoder.feed(data):
                try:
                    msg = decode_message(frame)
                except Exception:  # noqa: BLE001 - a flooder does not care
                    continue
                with self._lock:
                    if msg["type"] == "hello":
                        self._hello_asked = True
                        if not self.ignore_acks:
                            self._send(conn, encode(encode_message("ack", self.seq, acked=frame.seq)))
                    elif msg["type"] == "ack" and msg["acked"] in self._unacked:
                        self._unacked.remove(msg["acked"])
                    self._lock.notify_all()

    def _write(self, conn: socket.socket) -> None:
        try:
            self._hello(conn)
            while not self._stop.is_set() and self._conn is conn:
                with self._lock:
                    if self._hello_asked:
                        self._hello_asked = False
                        self._hello(conn)
                    if self.ignore_acks:
                        conn.sendall(b"".join(self._meter() for _ in range(CHUNK)))
                        continue
                    while len(self._unacked) >= WINDOW and not self._stop.is_set() and self._conn is conn:
                        self._lock.wait(0.5)
                        if self._hello_asked:
                            break
                    if len(self._unacked) < WINDOW:
                        self._unacked.append(self.seq)
                        conn.sendall(self._meter())
        except OSError:
            return

    def _hello(self, conn: socket.socket) -> None:
        frame = encode(encode_message("hello", self.seq, device="progressive", serial=self.serial, firmware="flood"))
        if not self.ignore_acks:
            self._unacked.clear()     # a new conversation: what was in flight is given up
            self._unacked.append(self.seq)
        self.seq = (self.seq + 1) % 256
        self._send(conn, frame)

    def _meter(self) -> bytes:
        self.cents += 1
        self.sent += 1
        kind, fields = MESSAGES[self.message]
        frame = encode(encode_message(kind, self.seq, **(fields or {"cents": self.cents})))
        self.seq = (self.seq + 1) % 256
        return frame

    @staticmethod
    def _send(conn: socket.socket, data: bytes) -> None:
        try:
            conn.sendall(data)
        except OSError:
            pass


def _close(conn: socket.socket) -> None:
    try:
        conn.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    conn.close()
