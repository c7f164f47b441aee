"""The database file: pragmas on every connection, and migrations through sqlite-utils.

Every connection runs in WAL mode with synchronous=FULL, so a commit that returned is on disk.
The event log is append-only by trigger: no UPDATE, no DELETE, and an INSERT must carry the
next sequence number and the previous row's hash. Read models are ordinary tables that
``app.store.models`` rebuilds from the log.
"""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING

from .chain import GENESIS

if TYPE_CHECKING:   # imported when a migration is due: a quarter second of every start otherwise
    import sqlite_utils


BUSY_TIMEOUT = 30  # seconds a writer waits for another process's write transaction to end


def connect(path: Path, busy_timeout: float = BUSY_TIMEOUT) -> sqlite3.Connection:
    """A writer's connection (readers use ``app.store.reading``, which never writes)."""
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=busy_timeout)
    mode = conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    if mode.lower() != "wal":
        raise sqlite3.OperationalError(f"could not put {path} in WAL mode (got {mode})")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


def _v1_log(db: sqlite_utils.Database) -> None:
    db["meta"].create({"key": str, "value": str}, pk="key")
    db["events"].create({"seq": int, "time": str, "table_id": str, "type": str, "actor": str, "role": str,
                         "body": str, "prev_hash": str, "hash": str, "hmac": str}, pk="seq",
                        not_null={"time", "type", "actor", "role", "body", "prev_hash", "hash", "hmac"})
    db["events"].create_index(["table_id", "seq"])
    db["events"].create_index(["type", "seq"])
    db.execute("""CREATE TRIGGER events_no_update BEFORE UPDATE ON events
                  BEGIN SELECT RAISE(ABORT, 'the event log is append-only: rows cannot be changed'); END""")
    db.execute("""CREATE TRIGGER events_no_delete BEFORE DELETE ON events
                  BEGIN SELECT RAISE(ABORT, 'the event log is append-only: rows cannot be deleted'); END""")
    db.execute(f"""CREATE TRIGGER events_gapless BEFORE INSERT ON events
                  WHEN NEW.seq IS NOT (SELECT IFNULL(MAX(seq), 0) + 1 FROM events)
                    OR NEW.prev_hash IS NOT IFNULL((SELECT hash FROM events ORDER BY seq DESC LIMIT 1), '{GENESIS}')
                  BEGIN SELECT RAISE(ABORT, 'the event log is a chain: the next row links to the last'); END""")
    db["meta"].insert_all([{"key": "db_id", "value": str(uuid.uuid4())},
                           {"key": "created", "value": datetime.now(timezone.utc).isoformat(timespec="seconds")}])


def _v1_read_models(db: sqlite_utils.Database) -> None:
    db["tables"].create({"table_id": str, "profile": str, "configured_seq": int}, pk="table_id")
    db["decks"].create({"table_id": str, "deck": str, "received": str, "inspected": int, "verified_by": str,
                        "in_play_since": str, "changed": str, "due": str, "status": str}, pk=("table_id", "deck", "received"))
    db["dice"].create({"table_id": str, "placed": str, "due": str, "removed": str}, pk=("table_id", "placed"))
    db["rounds"].create({"table_id": str, "round": int, "started": str, "ended": str, "status": str,
                         "method": str, "bank_mode": str, "bank": str}, pk=("table_id", "round"))
    db["settlements"].create({"seq": int, "table_id": str, "round": int, "time": str, "profile": str, "banking": str,
                              "house_net_cents": int, "approvals": int, "settlement": str}, pk="seq")
    db["meter_readings"].create({"seq": int, "table_id": str, "time": str, "cents": int, "source": str}, pk="seq")
    db["slips"].create({"number": int, "seq": int, "table_id": str, "seat": int, "wager": str, "wager_cents": int,
                        "win_cents": int, "time": str, "issued_by": str, "status": str, "void_reason": str,
                        "voided_by": str, "w2g": str}, pk="number")
    db["approvals"].create({"request": int, "kind": str, "table_id": str, "seat": int, "cents": int,
                            "role_needed": str, "reason": str, "rule": str, "requested": str, "status": str,
                            "decided_by": str, "decided_role": str, "decision_reason": str, "decided": str},
                           pk="request")
    db["alarms"].create({"seq": int, "table_id": str, "kind": str, "message": str, "raised": str,
                         "acknowledged_by": str, "acknowledged": str}, pk="seq")
    db["device_faults"].create({"seq": int, "table_id": str, "device": str, "code": str, "message": str,
                                "time": str}, pk="seq")
    db["irregularities"].create({"table_id": str, "ref": int, "round": int, "kind": str, "time": str,
                                 "consequence": str, "rule": str, "needs_ack": int, "acknowledged_by": str},
                                pk=("table_id", "ref"))
    db["users"].create({"name": str, "role": str, "salt": str, "pin_hash": str, "kdf": str, "failures": int,
                        "locked_until": str, "locked_by": str, "created": str}, pk="name")


MIGRATIONS: list[tuple[int, str, Callable[["sqlite_utils.Database"], None]]] = [
    (1, "event log", _v1_log),
    (2, "read models", _v1_read_models),
]
READ_MODELS = ("tables", "decks", "dice", "rounds", "settlements", "meter_readings", "slips", "approvals", "alarms",
               "device_faults", "irregularities", "users")


def migrate(conn: sqlite3.Connection) -> int:
    """Apply the migrations not yet applied, each in its own transaction; the schema version.

    Two processes may open a new database at the same moment (two commands at first run): each
    step is decided inside its write transaction, so only one of them applies it."""
    conn.execute("CREATE TABLE IF NOT EXISTS _migrations (version INTEGER PRIMARY KEY, name TEXT, applied TEXT)")
    db = None
    for version, name, step in MIGRATIONS:
        if conn.execute("SELECT 1 FROM _migrations WHERE version = ?", (version,)).fetchone():
            continue
        if db is None:
            import sqlite_utils
            db = sqlite_utils.Database(conn)
        conn.execute("BEGIN IMMEDIATE")
        if conn.execute("SELECT 1 FROM _migrations WHERE version = ?", (version,)).fetchone():
            conn.execute("COMMIT")  # the other process applied it while this one waited
            continue
        try:
            step(db)
            db["_migrations"].insert({"version": version, "name": name,
                                      "applied": datetime.now(timezone.utc).isoformat(timespec="seconds")})
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise
    return max(v for v, _, _ in MIGRATIONS)
