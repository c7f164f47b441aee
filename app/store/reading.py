"""Reading an audit database without writing anything beside it, wherever it lies.

Commands that only read (``audit verify``, ``audit export``, ``audit backup``'s source,
``users list``) never create a database, never write the file, never leave a ``-wal`` or
``-shm`` behind, and read what an auditor brings as well as the workstation's live file:

- a ``-wal`` with its ``-shm`` beside the file, in a folder this process may write: the
  workstation has the database open, or its writer stopped without closing; the rows committed
  in the WAL are part of the log (acknowledged), so they are read through SQLite's read-only
  mode, which uses the WAL without applying it to the file;
- no ``-wal``: nobody has the database open; it is read with ``immutable=1``, which creates no
  file beside it (a read-only mode reader would leave an empty ``-wal`` and ``-shm``) and works
  on read-only media (a mounted backup, a disc), where read-only mode cannot open a WAL
  database at all ("unable to open database file"). If a writer starts meanwhile the file may
  change under the reader, so its identity is compared before and after and the read is done
  again through the WAL;
- a ``-wal`` on read-only media, or without its ``-shm``: it is not this workstation's live
  WAL but a file copied or left beside the database, of unknown age, and read-only mode would
  apply it (pages of another moment laid over the file). It is not read (``immutable=1``), and
  the result says so.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


class NotALog(ValueError):
    """The file exists but is not a pitdesk audit database (or cannot be read as one)."""


@dataclass
class Access:
    """How the file was read: ``wal`` is None without a ``-wal`` file, else its size and whether
    its rows were read."""

    mode: str  # "wal" (read-only, through the WAL) or "immutable" (the file alone)
    wal: dict | None = None
    notes: list[str] = field(default_factory=list)


def missing(path: Path) -> FileNotFoundError:
    return FileNotFoundError(f"no audit database at {path}")


def _sidecar(path: Path, suffix: str) -> Path:
    return path.with_name(path.name + suffix)


def _identity(path: Path) -> tuple:
    st = path.stat()
    wal = _sidecar(path, "-wal")
    return st.st_ino, st.st_size, st.st_mtime_ns, wal.exists()


def uri(path: Path, mode: str) -> str:
    """The URI a read in ``mode`` opens (another process reads the same way: app/store/walk.py)."""
    # a proper file: URI, so '?', '#' and '%' in a folder name are part of the path (a bare
    # f"file:{path}" would open, and even create, some other file)
    query = "?mode=ro" if mode == "wal" else "?mode=ro&immutable=1"
    return Path(path).absolute().as_uri() + query


def _connect(path: Path, mode: str) -> sqlite3.Connection:
    return sqlite3.connect(uri(path, mode), uri=True, isolation_level=None, check_same_thread=False)


def _choose(path: Path) -> Access:
    wal, shm = _sidecar(path, "-wal"), _sidecar(path, "-shm")
    if not wal.exists():
        return Access("immutable")
    size = wal.stat().st_size
    if shm.exists() and os.access(path.parent, os.W_OK):
        return Access("wal", {"file": str(wal), "bytes": size, "read": True})
    why = "the folder is read-only" if shm.exists() else "it has no -shm beside it"
    acc = Access("immutable", {"file": str(wal), "bytes": size, "read": False})
    if size:
        acc.notes.append(f"a -wal file ({size} bytes) is beside the database and was not read ({why}: it is not "
                         "a live workstation's WAL, and its pages may be of another moment); the database file "
                         "alone was checked")
    return acc


def read_db(path: Path, work: Callable[[sqlite3.Connection, Access], T]) -> tuple[T, Access]:
    """``work(conn, access)`` on a read-only connection to ``path``; it runs again if the file
    changed under an immutable read (a writer started meanwhile)."""
    path = Path(path)
    if path.is_dir():
        raise NotALog(f"{path} is a folder, not an audit database")
    if not path.is_file():
        raise missing(path)
    for _ in range(3):
        acc = _choose(path)
        before = _identity(path)
        try:
            conn = _connect(path, acc.mode)
        except sqlite3.Error as e:
            raise NotALog(f"{path} cannot be read as a pitdesk audit database ({e})") from None
        try:
            try:
                result = work(conn, acc)
            except sqlite3.Error as e:
                if acc.mode == "immutable" and _identity(path) != before:
                    continue  # torn by a writer that started meanwhile: read again through the WAL
                raise NotALog(f"{path} cannot be read as a pitdesk audit database ({e})") from None
        finally:
            conn.close()
        if acc.mode == "immutable" and _identity(path) != before:
            continue
        return result, acc
    raise NotALog(f"{path} kept changing while it was read; try again")


def ships_as(meta: dict[str, str]) -> str:
    """The workstation's name on the casino's server (docs/casino.md): its log's id, or for a
    backup (``pitdesk audit backup``) its original's, through backups of backups, so that a
    workstation restored from a backup goes on with its own chain there, not a second copy of
    its rows under a new name. The server, not this name, decides whether the rows follow."""
    return meta.get("ships_as") or meta.get("backup_of") or meta["db_id"]


def log_meta(conn: sqlite3.Connection, path: Path) -> dict[str, str]:
    """The meta table (db_id, and a backup's own head); NotALog if there is none."""
    try:
        m = dict(conn.execute("SELECT key, value FROM meta"))
    except sqlite3.Error as e:
        raise NotALog(f"{path} cannot be read as a pitdesk audit database ({e})") from None
    if "db_id" not in m:
        raise NotALog(f"{path} cannot be read as a pitdesk audit database (its meta has no db_id)")
    return m
