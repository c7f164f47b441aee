"""``pitdesk ship``: a workstation's new rows copied to the casino's server, in order, with their
hashes and seals, a batch a transaction (binary COPY).

Each batch: the workstation's turn taken (an advisory lock: two shippers of one log take turns),
the head the server holds read, the local rows after it read (the log is only read:
app/store/reading.py) and copied, the head read again, committed. The server checks every row
itself (app/store/pg/pg_migrations.py, ``event_arrives``), so a run repeated, interrupted or
racing another never doubles or skips a row: what the server holds is the head it says.

The first batch of a run sends the row at the server's head again: the server compares it with
the row it holds, so a local log rewritten at or before what was shipped is refused even when
there is nothing new. A refusal is recorded by the server, in the same transaction, and ends the
run; the rows before it that followed are kept."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import psycopg

from app.store import chain
from app.store.reading import log_meta, read_db, ships_as

from .server import Refused, Unreachable, check_url, connect, one_line, schema_version, where

BATCH = 2000  # rows a transaction
COLUMNS = ("workstation", "seq", "time", "table_id", "type", "actor", "role", "body", "prev_hash", "hash", "hmac")
_TYPES = ["text", "int8", "text", "text", "text", "text", "text", "text", "text", "text", "text"]
_COPY = f"COPY pitdesk.events ({', '.join(COLUMNS)}) FROM STDIN (FORMAT BINARY)"
_LOCAL = ("SELECT seq, time, table_id, type, actor, role, body, prev_hash, hash, hmac FROM events "
          "WHERE seq >= ? ORDER BY seq LIMIT ?")


class LocalBehind(RuntimeError):
    """The local log ends before the row the server holds as its head: it lost rows."""

    def __init__(self, message: str, server_head: tuple[int, str] = (0, chain.GENESIS)):
        super().__init__(message)
        self.server_head = server_head


@dataclass
class Shipped:
    workstation: str
    shipped: int = 0
    from_seq: int | None = None
    to_seq: int | None = None
    server_head: tuple[int, str] = (0, chain.GENESIS)
    refused: dict | None = None   # the refusal the server recorded, if it refused

    def as_json(self) -> dict:
        out = {"workstation": self.workstation, "shipped": self.shipped, "from_seq": self.from_seq,
               "to_seq": self.to_seq, "server_head": {"seq": self.server_head[0], "hash": self.server_head[1]}}
        return {**out, "refused": self.refused} if self.refused else out


class Interrupted(Unreachable):
    """The server went away during a run; ``shipped`` says what was committed before."""

    def __init__(self, message: str, shipped: Shipped):
        super().__init__(message)
        self.shipped = shipped


def workstation_id(db: Path) -> str:
    """The workstation's name on the server: the log's id (its meta ``db_id``), or a backup's
    original's (``ships_as``): a workstation restored from a backup goes on with its chain."""
    return ships_as(read_db(db, lambda conn, _: log_meta(conn, db))[0])


def local_rows(db: Path, first: int, limit: int) -> list[tuple]:
    return read_db(db, lambda conn, _: conn.execute(_LOCAL, (first, limit)).fetchall())[0]


def head(conn: psycopg.Connection, ws: str) -> tuple[int, str]:
    row = conn.execute("SELECT head_seq, head_hash FROM pitdesk.workstations WHERE workstation = %s", (ws,)).fetchone()
    return (row[0], row[1]) if row else (0, chain.GENESIS)


def ship(db: Path, url: str, batch: int = BATCH, after_batch: Callable[[Shipped], None] | None = None) -> Shipped:
    """Every row of the log at ``db`` the server does not hold yet, ``batch`` rows a transaction.
    ``after_batch``: told after each commit (tests, a caller's progress)."""
    parts = check_url(url, "--to")
    ws = workstation_id(db)
    out = Shipped(ws)
    with connect(url, "--to") as conn:
        try:
            schema_version(conn, parts)
            conn.commit()
            again = True  # the server's head row is sent again, once a run
            while True:
                with conn.transaction():
                    if not _batch(conn, db, ws, batch, out, again):
                        break
                again = False
                if after_batch is not None:
                    after_batch(out)
                if out.refused:
                    break
        except psycopg.errors.InsufficientPrivilege as e:
            raise Refused(f"the role {parts.get('user', '(default)')} may not ship to {where(parts)}: {one_line(e)} "
                          f"(it must be a member of pitdesk_ship: docs/casino.md)") from None
        except psycopg.OperationalError as e:
            raise Interrupted(f"the server at {where(parts)} went away while shipping ({one_line(e)}); "
                              f"{out.shipped} rows were shipped before; run ship again: what the server holds is "
                              "kept once", out) from None
        except psycopg.Error as e:
            raise Refused(f"the server at {where(parts)} refused the batch: {one_line(e)}") from None
    return out


def _batch(conn: psycopg.Connection, db: Path, ws: str, batch: int, out: Shipped, again: bool) -> bool:
    """One batch in the open transaction; whether there may be more."""
    conn.execute("SELECT pg_advisory_xact_lock(hashtextextended('pitdesk ship ' || %s, 0))", (ws,))
    before = head(conn, ws)
    out.server_head = before
    first = before[0] if again and before[0] else before[0] + 1
    rows = local_rows(db, first, batch + (first <= before[0]))
    if again and before[0] and (not rows or rows[0][0] != before[0]):
        last = rows[-1][0] if rows else None
        raise LocalBehind(f"the server holds rows up to {before[0]} of this log but the local log "
                          f"{'ends at row ' + str(last) if last else 'has no row ' + str(before[0])}: it lost rows "
                          f"(pitdesk audit verify --db {db}; the server's copy is restored with pitdesk floor restore)", before)
    new = [r for r in rows if r[0] > before[0]]
    if not rows or (not new and not again):
        return False
    with conn.cursor() as cur, cur.copy(_COPY) as copy:
        copy.set_types(_TYPES)
        for r in rows:
            copy.write_row((ws, *r))
    after = head(conn, ws)
    out.server_head = after
    if after[0] > before[0]:
        out.from_seq = out.from_seq or before[0] + 1
        out.to_seq = after[0]
        out.shipped += after[0] - before[0]
    if conn.execute("SELECT current_setting('pitdesk.arrived', true)").fetchone()[0] == f"{ws} refused":
        r = conn.execute("SELECT seq, reason, head_seq, head_hash, at FROM pitdesk.refusals WHERE workstation = %s "
                         "ORDER BY id DESC LIMIT 1", (ws,)).fetchone()
        out.refused = {"seq": r[0], "reason": r[1], "server_head": {"seq": r[2], "hash": r[3]},
                       "at": r[4].isoformat()}
    return len(new) >= batch  # a batch short of full: caught up with the log as it was read


def backlog(db: Path, shipped: int) -> tuple[int, str | None]:
    """The local log's last row, and the time of its first row after ``shipped`` (the oldest the
    server lacks; None when it lacks none)."""
    def work(conn, _):
        last = conn.execute("SELECT COALESCE(max(seq), 0) FROM events").fetchone()[0]
        row = conn.execute("SELECT time FROM events WHERE seq = ?", (shipped + 1,)).fetchone()
        return last, row[0] if row and last > shipped else None
    return read_db(db, work)[0]
