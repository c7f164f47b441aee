"""One workstation on an audit database at a time: ``<db>.holder`` beside the database, locked
while a workstation has it open, holding the host and process id of that workstation.

Two windows on one log would each run the floor's devices, each fold its own alarms and clocks,
and each think its live pit the only one (issue 26). The lock is the operating system's own on the
open file (``flock`` on POSIX, ``msvcrt.locking`` on Windows): the system releases it when the
process ends however it ends, so a holder file left by a process that died (kill -9, a power cut)
never keeps the next start out; its text only names who holds it while someone does. The file is
left in place on close (removing it would race a second start taking it).

The location of a database that cannot be opened is named here as well (``location_fault``): a
folder that does not exist, or one that is read-only, rather than SQLite's "unable to open
database file".
"""

from __future__ import annotations

import os
import socket
from pathlib import Path

try:
    import fcntl
except ImportError:      # Windows
    fcntl = None
    import msvcrt


class InUse(RuntimeError):
    """The database is held by another workstation; the message names its host and process."""


def holder_file(db: Path) -> Path:
    return db.with_name(db.name + ".holder")


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
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            if not _lock(fd):
                raise InUse(f"the audit database {self.db} is in use by another workstation: "
                            f"{_who(self.path)} holds it (close that one first)")
            os.ftruncate(fd, 0)
            os.write(fd, f"host {socket.gethostname()}, process {os.getpid()}\n".encode())
        except BaseException:
            os.close(fd)
            raise
        self._fd: int | None = fd

    def release(self) -> None:
        if self._fd is None:
            return
        fd, self._fd = self._fd, None
        try:
            os.ftruncate(fd, 0)      # nobody holds it now: no name left to mislead
        except OSError:
            pass
        _unlock(fd)
        os.close(fd)


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
