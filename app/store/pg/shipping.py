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

from . import verdicts
from .server import Refused, Unreachable, check_url, connect, one_line, schema_version, where

BATCH = 2000  # rows a transaction
COLUMNS = ("workstation", "seq", "time", "table_id", "type", "actor", "role", "body", "prev_hash", "hash", "hmac")
_TYPES = ["text", "int8", "text", "text", "text", "text", "text", "text", "text", "text", "text"]
_COPY = f"COPY pitdesk.events ({', '.join(COLUMNS)}) FROM STDIN (FORMAT BINARY)"
_LOCAL = ("SELECT seq, time, table_id, type, actor, role, body, prev_hash, hash, hmac FROM events "
          "WHERE seq >= ? ORDER BY seq LIMIT ?")


class LocalBehind(RuntimeError):
    """The local log ends before the row the server holds as its head, and every row it has is
    the server's: it lost rows (a backup behind what was shipped). ``shipped`` says so as JSON."""

    def __init__(self, message: str, server_head: tuple[int, str] = (0, chain.GENESIS),
                 shipped: "Shipped | None" = None):
        super().__init__(message)
        self.server_head = server_head
        self.shipped = shipped


@dataclass
class Shipped:
    workstation: str
    shipped: int = 0
    from_seq: int | None = None
    to_seq: int | None = None
    server_head: tuple[int, str] = (0, chain.GENESIS)
    refused: dict | None = None   # the refusal the server recorded, if it refused
    name: str | None = None       # its name in the casino's register (issue 35; None: not registered)

    def as_json(self) -> dict:
        out = {"workstation": self.workstation, "name": self.name, "shipped": self.shipped, "from_seq": self.from_seq,
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
            if schema_version(conn, parts) >= 5:
                row = conn.execute("SELECT name FROM pitdesk.workstations WHERE workstation = %s", (ws,)).fetchone()
                out.name = row[0] if row else None
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
            if out.refused and "id" in out.refused and about_copies(out.refused["reason"]):
                whose(db, out)
                why_not = verdicts.record(conn, out.refused["id"], out.refused["whose"], out.refused["detail"])
                if why_not:
                    out.refused["verdict_not_recorded"] = why_not
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


def about_copies(reason: str) -> bool:
    """A refusal of a row that is not the server's: one of the two copies was changed (a server
    before migration 4 said "the local log was rewritten" whoever had changed it)."""
    return "one of the two copies was changed" in reason or "the local log was rewritten" in reason


def whose(db: Path, out: Shipped) -> None:
    """Whose copy differs, for a refused row (issue 35, finding 3): the local log checked as
    ``audit verify`` checks it, against this install's key and the head it recorded. A log that
    passes is not the one that was changed: the server's copy differs from it."""
    from app.store import audit, paths
    try:
        key = paths.install_key(create=False)
    except (KeyError, OSError):
        key = None
    rep = audit.verify_db(db, key, key_given=False, read_models=False)
    vouched = (rep.head_checked or {}).get("seq", 0) >= out.refused["seq"]
    if rep.ok and rep.seals == "checked" and not vouched:
        out.refused["whose"] = "unknown"
        out.refused["detail"] = (f"this workstation's log verifies against its key, but no head it recorded outside "
                                 f"the log reaches row {out.refused['seq']}: which copy was changed cannot be told "
                                 "here (pitdesk floor verify --key checks the server's seals)")
    elif rep.ok and rep.seals == "checked":
        out.refused["whose"] = "server"
        out.refused["detail"] = (f"this workstation's log verifies against its key and its recorded head (rows 1 to "
                                 f"{rep.last_seq}): it is the server's copy that differs from it")
    elif rep.ok:
        out.refused["whose"] = "local"
        out.refused["detail"] = (f"this workstation's log links, but its seals could not be checked here "
                                 f"({rep.seals_why}): it cannot be shown to be the workstation's own")
    else:
        out.refused["whose"] = "local"
        out.refused["detail"] = f"the local log fails its own check: {rep.finding}"


def _batch(conn: psycopg.Connection, db: Path, ws: str, batch: int, out: Shipped, again: bool) -> bool:
    """One batch in the open transaction; whether there may be more."""
    conn.execute("SELECT pg_advisory_xact_lock(hashtextextended('pitdesk ship ' || %s, 0))", (ws,))
    before = head(conn, ws)
    out.server_head = before
    first = before[0] if again and before[0] else before[0] + 1
    rows = local_rows(db, first, batch + (first <= before[0]))
    if again and before[0] and (not rows or rows[0][0] != before[0]):
        last = rows[-1][0] if rows else local_last(db)
        if last and last < before[0]:
            # the local log ends before the server's head: its last row is sent for the server to
            # compare with the one it holds; a short fork (cut and written again) differs there and
            # is refused and recorded as a long one is (issue 35, finding 4)
            _copy(conn, ws, local_rows(db, last, 1))
            if _refused(conn, ws, out):
                return False
        why = (f"the server holds rows up to {before[0]} of this log but the local log "
               f"{'ends at row ' + str(last) if last else 'has no row ' + str(before[0])}: it lost rows "
               f"(pitdesk audit verify --db {db}; the server's copy is restored with pitdesk floor restore)")
        out.refused = {"seq": (last or 0) + 1, "reason": why, "server_head": {"seq": before[0], "hash": before[1]},
                       "whose": "local", "detail": f"every row the local log has is the server's; it ends at row "
                                                   f"{last or 0}"}
        raise LocalBehind(why, before, out)
    new = [r for r in rows if r[0] > before[0]]
    if not rows or (not new and not again):
        return False
    _copy(conn, ws, rows)
    after = head(conn, ws)
    out.server_head = after
    if after[0] > before[0]:
        out.from_seq = out.from_seq or before[0] + 1
        out.to_seq = after[0]
        out.shipped += after[0] - before[0]
    _refused(conn, ws, out)
    return len(new) >= batch  # a batch short of full: caught up with the log as it was read


def _copy(conn: psycopg.Connection, ws: str, rows: list[tuple]) -> None:
    with conn.cursor() as cur, cur.copy(_COPY) as copy:
        copy.set_types(_TYPES)
        for r in rows:
            copy.write_row((ws, *r))


def _refused(conn: psycopg.Connection, ws: str, out: Shipped) -> bool:
    """Whether the server refused a row of this transaction; ``out.refused`` says which and why."""
    if conn.execute("SELECT current_setting('pitdesk.arrived', true)").fetchone()[0] != f"{ws} refused":
        return False
    r = conn.execute("SELECT seq, reason, head_seq, head_hash, at, id FROM pitdesk.refusals WHERE workstation = %s "
                     "ORDER BY id DESC LIMIT 1", (ws,)).fetchone()
    out.refused = {"seq": r[0], "reason": r[1], "server_head": {"seq": r[2], "hash": r[3]}, "at": r[4].isoformat(),
                   "id": r[5]}
    return True


def local_last(db: Path) -> int:
    return read_db(db, lambda conn, _: conn.execute("SELECT COALESCE(max(seq), 0) FROM events").fetchone()[0])[0]


def backlog(db: Path, shipped: int) -> tuple[int, str | None]:
    """The local log's last row, and the time of its first row after ``shipped`` (the oldest the
    server lacks; None when it lacks none)."""
    def work(conn, _):
        last = conn.execute("SELECT COALESCE(max(seq), 0) FROM events").fetchone()[0]
        row = conn.execute("SELECT time FROM events WHERE seq = ?", (shipped + 1,)).fetchone()
        return last, row[0] if row and last > shipped else None
    return read_db(db, work)[0]
