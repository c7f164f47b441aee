"""The lines a simulated device talks on (app/simulate/sim_device.py): a pseudo-terminal behind a
symlink, or a TCP server for one workstation at a time. Each waits (select) until there is
something to read or room to write, or until it is woken from another thread, and never blocks
on a write: ``write`` returns how many bytes went out.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import socket
import termios
import threading
import tty

from .device_kinds import SimError


class _Wakeable:
    def __init__(self):
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        os.set_blocking(self._wake_w, False)
        self._closed = False

    def wake(self) -> None:
        if not self._closed:
            with contextlib.suppress(OSError):
                os.write(self._wake_w, b"!")

    def _drain_wake(self, ready) -> None:
        if self._wake_r in ready:
            with contextlib.suppress(OSError):
                os.read(self._wake_r, 4096)

    def _close_wake(self) -> None:
        self._closed = True
        for fd in (self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)


class Pty(_Wakeable):
    """A pseudo-terminal; ``path`` is a symlink to the slave. The simulator keeps the slave open
    too, so that the master never reads EIO while the workstation closes and reopens the port;
    bytes the workstation does not read are flushed when the line is full (they would be lost on
    a real serial line with nobody listening)."""

    connected = True

    def __init__(self, path: str):
        self.path = os.path.abspath(path)
        if os.path.lexists(self.path) and not os.path.islink(self.path):
            raise SimError(f"{self.path} exists and is not a symlink; not replacing it", "port")
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        os.set_blocking(self.master, False)
        self.pts = os.ttyname(self.slave)
        tmp = f"{self.path}.{os.getpid()}.{threading.get_ident()}.tmp"
        try:
            os.symlink(self.pts, tmp)
            os.replace(tmp, self.path)
        except OSError as e:
            os.close(self.master)
            os.close(self.slave)
            raise SimError(f"cannot create the symlink {self.path}: {e.strerror}", "port") from None
        super().__init__()
        self.url = self.path
        self.info = {"port": self.path, "pts": self.pts, "url": self.url}

    def wait(self, timeout: float, writing: bool):
        r, _, _ = select.select([self.master, self._wake_r], [self.master] if writing else [], [], timeout)
        self._drain_wake(r)
        return self.master in r

    def read(self):
        chunks = []
        while True:
            try:
                data = os.read(self.master, 4096)
            except (BlockingIOError, InterruptedError):
                break
            except OSError as e:
                if e.errno != errno.EIO:
                    raise
                break
            if not data:
                break
            chunks.append(data)
        return chunks

    def accept(self) -> bool:
        return False

    def write(self, data) -> int:
        try:
            return os.write(self.master, data)
        except BlockingIOError:  # the line is full: nobody reads the port, so the old bytes are lost
            termios.tcflush(self.slave, termios.TCIFLUSH)
            try:
                return os.write(self.master, data)
            except BlockingIOError:
                return 0

    def close(self) -> None:
        with contextlib.suppress(OSError):
            if os.path.islink(self.path) and os.readlink(self.path) == self.pts:
                os.unlink(self.path)
        for fd in (self.master, self.slave):
            with contextlib.suppress(OSError):
                os.close(fd)
        self._close_wake()


class Tcp(_Wakeable):
    """A TCP server with one workstation connection at a time: a new connection replaces the open
    one. When the workstation goes, the device waits for the next."""

    def __init__(self, host: str, port: int):
        try:
            family, kind, proto, _, addr = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                                              flags=socket.AI_PASSIVE)[0]
            self.listener = socket.socket(family, kind, proto)
        except (OSError, UnicodeError) as e:
            raise SimError(f"cannot listen on {host}:{port}: {e}", "listen") from None
        try:
            self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            self.listener.bind(addr)
            self.listener.listen(4)
        except OSError as e:
            self.listener.close()
            raise SimError(f"cannot listen on {host}:{port}: {e.strerror}", "listen") from None
        self.listener.setblocking(False)
        bound_host, bound_port = self.listener.getsockname()[:2]
        where = f"[{bound_host}]:{bound_port}" if ":" in bound_host else f"{bound_host}:{bound_port}"
        self.conn: socket.socket | None = None
        self._pending = False
        super().__init__()
        self.url = f"socket://{where}"
        self.info = {"listen": where, "url": self.url}

    @property
    def connected(self) -> bool:
        return self.conn is not None

    def wait(self, timeout: float, writing: bool):
        rl = [self.listener, self._wake_r] + ([self.conn] if self.conn else [])
        wl = [self.conn] if self.conn and writing else []
        r, _, _ = select.select(rl, wl, [], timeout)
        self._drain_wake(r)
        self._pending = self.listener in r
        return self.conn is not None and self.conn in r

    def read(self):
        chunks = []
        while self.conn is not None:
            try:
                data = self.conn.recv(65536)
            except (BlockingIOError, InterruptedError):
                break
            except OSError:
                data = b""
            if not data:  # the workstation closed the connection
                self._drop()
                break
            chunks.append(data)
        return chunks

    def accept(self) -> bool:
        if not self._pending:
            return False
        self._pending = False
        try:
            conn, _ = self.listener.accept()
        except OSError:
            return False
        # one workstation at a time: the newest, so that a workstation that restarted without
        # closing its socket (a crash, a pulled cable) is not locked out by the old one
        self._drop()
        conn.setblocking(False)
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.conn = conn
        return True

    def write(self, data) -> int:
        if self.conn is None:
            return len(data)
        try:
            return self.conn.send(data)
        except (BlockingIOError, InterruptedError):
            return 0
        except OSError:
            self._drop()
            return len(data)

    def _drop(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    def close(self) -> None:
        self._drop()
        self.listener.close()
        self._close_wake()
