"""``pitdesk floor restore``: a workstation's log written back from the casino's copy (issue 28).

When a workstation's disk is lost, its last ``audit backup`` is older than what it shipped: the
server holds its rows up to a few seconds before the loss. The restore writes those rows, as
shipped (their hashes and seals), into a new SQLite log with the workstation's migrations and
its read models folded from them (app/store/pg/rebuild.py), after the server's own check of the
chain finds it whole. The new log has an id of its own (as a backup has: the original's head
file, which went past the rows that were lost, stays the original's) and ``ships_as`` the
workstation's name, so the workstation opened on it goes on with its chain on the server:
its next row follows the server's head, and nothing is shipped twice or under a second name.

The file is written beside its path, fsynced, and moved into place only when whole; it never
replaces a file."""

from __future__ import annotations

import os
import sqlite3
import uuid
from datetime import datetime
from pathlib import Path

from app.store.limited import private_file

from . import floor_check
from .rebuild import fill
from .register import names
from .server import check_url, connect, schema_version, speaking, where


class RestoreError(ValueError):
    """The log cannot be restored; the message says why. Nothing is left at the path."""


def restore(url: str, ws: str, out: Path | str, now: datetime) -> dict:
    """Workstation ``ws``'s log as the server holds it, written to ``out``; what was written."""
    parts = check_url(url, "--pg")
    out = Path(out)
    if out.exists():
        raise RestoreError(f"--out {out} exists; a restore never replaces a file")
    if not out.parent.is_dir():
        raise RestoreError(f"--out {out}: no folder {out.parent} to write the log in")
    tmp = out.with_name(f".{out.name}.{os.getpid()}.partial")
    try:
        with connect(url) as pg, speaking(parts, "read the workstation's log"):
            schema_version(pg, parts)
            pg.commit()
            with pg.transaction():
                pg.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                head = pg.execute("SELECT head_seq, head_hash FROM pitdesk.workstations WHERE workstation = %s",
                                  (ws,)).fetchone()
                if head is None:
                    raise RestoreError(f"--workstation {ws}: the server at {where(parts)} holds no workstation {ws} "
                                       "(pitdesk floor verify lists them)")
                name = names(pg).get(ws)
                if name is None and schema_version(pg, parts) >= 5:
                    raise RestoreError(f"--workstation {ws} is not registered on the server at {where(parts)}: a "
                                       "workstation the casino does not know is not restored (the owner registers "
                                       f"it first: pitdesk floor register --pg URL --workstation {ws} --name NAME "
                                       "--login LOGIN)")
                held = floor_check.check_one(pg, ws, (head[0], head[1]), None)
                if not held.ok:
                    raise RestoreError(f"the server's copy of {ws} does not verify, so it is not restored: "
                                       f"{held.finding}")
                ident = str(uuid.uuid4())
                conn = sqlite3.connect(private_file(tmp), isolation_level=None)
                try:
                    rows = fill(pg, conn, ws)
                    conn.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)",
                                     [("db_id", ident), ("ships_as", ws), ("restored_from", where(parts)),
                                      ("restored_at", now.isoformat(timespec="seconds"))])
                    conn.execute("PRAGMA journal_mode=DELETE")
                finally:
                    conn.close()
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.link(tmp, out)           # into place, never over a file that appeared meanwhile
        tmp.unlink()
        fd = os.open(out.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except FileExistsError:
        raise RestoreError(f"--out {out} exists; a restore never replaces a file") from None
    except OSError as e:
        raise RestoreError(f"cannot write the log {out}: {e.strerror or e}") from None
    finally:
        tmp.unlink(missing_ok=True)
    return {"restored": str(out), "workstation": ws, "name": name, "db_id": ident, "rows": rows,
            "head": {"seq": head[0], "hash": head[1]}, "server": where(parts)}
