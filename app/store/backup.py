"""``pitdesk audit backup``: a consistent copy of the log while the workstation runs, with its
own sealed head.

The copy is made with SQLite's backup API from one read snapshot, so a writer going on at the
same time neither blocks nor tears it. It is then made a file that stands alone: rollback
journal instead of WAL (one file, readable on read-only media), a new ``db_id`` (a copy that
kept the original's id would share its head file, which goes on, and be reported truncated),
``backup_of`` naming the original, ``ships_as`` the name the original goes by on the casino's
server (app/store/reading.py ``ships_as``), and its head sealed with the install key in its meta
(``app.store.heads.seal_backup``) and recorded in this install's heads folder as well. The copy
is verified, against its own head and the original's head as recorded before the copy, before
it is put in place under its name (never replacing a file).
"""

from __future__ import annotations

import json
import os
import sqlite3
import uuid
from datetime import datetime
from pathlib import Path

from . import heads, paths
from .audit import verify_conn
from .limited import private_file
from .reading import Access, log_meta, read_db, ships_as
from .verify import Report


class BackupError(ValueError):
    """The backup cannot be made; the message says why. Nothing is left under the backup's name."""


def _tail(conn: sqlite3.Connection) -> tuple[int, str]:
    last = conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    return last if last else (0, "0" * 64)


def take(db: Path, out: Path, key: bytes, now: datetime) -> tuple[Report, dict]:
    """Copy ``db`` to ``out``; the copy's verification and what was made."""
    db, out = Path(db), Path(out)
    if out.exists():
        raise BackupError(f"{out} exists; a backup never replaces a file")
    if not out.parent.is_dir():
        raise BackupError(f"no folder {out.parent} to write the backup in")
    tmp = out.with_name(f".{out.name}.{os.getpid()}.partial")

    def copy(conn: sqlite3.Connection, acc: Access) -> tuple[dict, heads.Head | None]:
        m = log_meta(conn, db)
        # the original's head before the snapshot: every committed row it names is in the copy
        recorded = heads.read(paths.head_file(m["db_id"]), key, m["db_id"])
        dst = sqlite3.connect(private_file(tmp), isolation_level=None)
        try:
            conn.backup(dst)  # all pages in one step: one read transaction, one consistent snapshot
        except sqlite3.Error as e:
            raise BackupError(f"cannot write the backup {out} ({e})") from None
        finally:
            dst.close()
        return m, recorded

    try:
        (m, recorded), source = read_db(db, copy)
        info = _seal(tmp, out, key, m["db_id"], now, ships_as(m))
        also = [] if recorded is None else [{"seq": recorded.seq, "hash": recorded.hash,
                                             "source": f"in the original's head file {paths.head_file(m['db_id'])}"}]
        rep, _ = read_db(tmp, lambda conn, acc: verify_conn(conn, acc, tmp, key, [], also))
        rep.notes = source.notes + rep.notes
        # the copy's head outside the copy too, where this install keeps heads; an auditor who may
        # not write there still gets a copy whose head is sealed inside it
        where = paths.head_file(info["db_id"])
        try:
            heads.record_committed(where, key, info["db_id"], (info["head"]["seq"], info["head"]["hash"]))
            info["head_file"] = str(where)
        except OSError as e:
            info["head_file"] = None
            rep.notes.append(f"the copy's head could not be recorded in {where.parent} ({e.strerror}); it is sealed "
                             "in the copy, and printed here: keep it with the copy")
        _place(tmp, out)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return rep, info


def _seal(tmp: Path, out: Path, key: bytes, original: str, now: datetime, workstation: str) -> dict:
    """Make the copy a file of its own: one file, a new id, its head sealed in its meta."""
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            mode = conn.execute("PRAGMA journal_mode=DELETE").fetchone()[0]
            if mode.lower() != "delete":
                raise sqlite3.OperationalError(f"the copy stayed in {mode} mode")
            seq, h = _tail(conn)
            ident = str(uuid.uuid4())
            taken = now.isoformat(timespec="seconds")
            sealed = heads.seal_backup(key, ident, original, taken, seq, h)
            conn.execute("BEGIN IMMEDIATE")
            conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                             [("db_id", ident), ("backup_of", original), ("ships_as", workstation),
                              ("backup_taken", taken),
                              ("backup_head", json.dumps(sealed, sort_keys=True))])
            conn.execute("COMMIT")
        finally:
            conn.close()
    except sqlite3.Error as e:
        raise BackupError(f"cannot write the backup {out} ({e})") from None
    return {"backup": str(out), "db_id": ident, "backup_of": original, "taken": taken,
            "rows": seq, "head": {"seq": seq, "hash": h}, "head_text": f"{seq}:{h}"}


def _place(tmp: Path, out: Path) -> None:
    """On disk, then under its name; a file that appeared there meanwhile is not replaced."""
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, out)
    except FileExistsError:
        raise BackupError(f"{out} exists; a backup never replaces a file") from None
    os.unlink(tmp)
    heads.fsync_dir(out.parent)
