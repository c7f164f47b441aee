"""One workstation on an audit database at a time: ``<db>.holder`` beside the database, locked
while a workstation has it open, holding the host and process id of that workstation.

Two windows on one log would each run the floor's devices, each fold its own alarms and clocks,
and each think its live pit the only one (issue 26). The lock is the operating system's own on the
open file (``flock`` on POSIX, ``msvcrt.locking`` on Windows): the system releases it when the
process ends however it ends, so a holder file left by a process that died (kill -9, a power cut)
never keeps the next start out; its text only names who holds it while someone does. The file is
left in place on close (removing it would race a second start taking it).

The holder is keyed on the database file itself, not on the path it was named by (issue 35,
finding 7): the holder file stands beside the file a symlink leads to, and on POSIX the database
file is itself locked (``flock`` on its inode, which SQLite's own POSIX locks never touch), so a
symlink, a hard link or a path spelled another way cannot open a second writer. The database
file's descriptor is kept open for the process's life once opened (``_FILES``): closing any
descriptor of a file drops every POSIX lock the process holds on it, SQLite's included.

The location of a database that cannot be opened is named here as well (``location_fault``): a
folder that does not exist, or one that is read-only, rather than SQLite's "unable to open
database file".
"""

from __future__ import annotations

import os
import socket
import threading
from pathlib import Path

try:
    import fcntl
except ImportError:      # Windows
    fcntl = None
    import msvcrt


class InUse(RuntimeError):
    """The database is held by another workstation; the message names its host and process."""


# the database files this process opened to lock, by (device, inode), never closed; and those it holds
_FILES: dict[tuple[int, int], int] = {}
_HELD: set[tuple[int, int]] = set()
_GUARD = threading.Lock()


def holder_file(db: Path) -> Path:
    """``<db>.holder`` beside the file ``db`` names (a symlink followed)."""
    real = Path(os.path.realpath(db))
    return real.with_name(real.name + ".holder")


def location_fault(db: Path) -> str | None:
    """Why a workstation cannot open or create the audit database ``db`` where it is, or None."""
    db = Path(db)
    folder = db.resolve().parent
    if not folder.exists():
        return (f"the folder {folder} of the audit database {db} does not exist "
                f"('pitdesk users init NAME --db {db}' creates it and the log)")
    if not folder.is_dir():
        return f"{folder} (the audit database {db}'s folder) is not a folder"
    if not os.access(folder, os.W_OK):
        return f"the folder {folder} is read-only: the audit database {db} cannot be written there"
    if db.exists() and not os.access(db, os.W_OK):
        return f"the audit database {db} is read-only"
    return None


class Holder:
    """The database held by this process until ``release()``; InUse if another holds it."""

    def __init__(self, db: Path | str):
        self.path = holder_file(Path(db))
        self.db = Path(db)
        self._file: tuple[int, int] | None = None
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if not _lock(fd):
                raise self._in_use()
            if fcntl is not None:
                self._file = _hold_file(self.db, self._in_use)
            os.ftruncate(fd, 0)
            os.write(fd, f"host {socket.gethostname()}, process {os.getpid()}\n".encode())
        except BaseException:
            os.close(fd)
            raise
        self._fd: int | None = fd

    def _in_use(self) -> InUse:
        return InUse(f"the audit database {self.db} is in use by another workstation: "
                     f"{_who(self.path)} holds it (close that one first)")

    def release(self) -> None:
        if self._fd is None:
            return
        if self._file is not None:
            _let_go(self._file)
            self._file = None
        fd, self._fd = self._fd, None
        try:
            os.ftruncate(fd, 0)      # nobody holds it now: no name left to mislead
        except OSError:
            pass
        _unlock(fd)
        os.close(fd)


def _hold_file(db: Path, in_use) -> tuple[int, int]:
    """The database file itself locked for this holder (created empty if it is not there yet:
    SQLite makes a new log of an empty file); its (device, inode). ``in_use()`` is raised when
    another process, or another holder in this one, has it."""
    with _GUARD:
        fd = os.open(db, os.O_RDONLY | os.O_CREAT, 0o600)
        st = os.fstat(fd)
        key = (st.st_dev, st.st_ino)
        if key in _FILES:
            _FILES.setdefault((-1, fd), fd)     # kept open as well: closing it would drop SQLite's locks
            fd = _FILES[key]
        else:
            _FILES[key] = fd
        if key in _HELD or not _lock(fd):
            raise in_use()
        _HELD.add(key)
        return key


def _let_go(key: tuple[int, int]) -> None:
    with _GUARD:
        _HELD.discard(key)
        _unlock(_FILES[key])


def _lock(fd: int) -> bool:
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        return True
    except OSError:
        return False


def _unlock(fd: int) -> None:
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_UN)
        else:
            os.lseek(fd, 0, os.SEEK_SET)
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    except OSError:
        pass


def _who(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        text = ""
    return text or "a process that has not yet written its name"


__all__ = ["Holder", "InUse", "holder_file", "location_fault"]
