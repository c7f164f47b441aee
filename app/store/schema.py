"""The database file: pragmas on every connection, and migrations through sqlite-utils.

Every connection runs in WAL mode with synchronous=FULL, so a commit that returned is on disk.
The event log is append-only by trigger: no UPDATE, no DELETE, and an INSERT must carry the
next sequence number and the previous row's hash. Read models are ordinary tables that
``app.store.read_models`` rebuilds from the log.
"""

from __future__ import annotations

import os
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
    if not Path(path).exists():
        # private from the start (issue 26): SQLite gives the -wal and -shm the file's own mode
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
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


# migration 3, the logs: who did what in each read model, the logs' own read models (device
# faults with the link changes, sign-ins), and the indexes a tab pages and filters by (its time,
# and the table with its time); the read models are projected again to fill the new columns
LOG_COLUMNS = {
    "decks": {"seq": int, "received_by": str, "inspected_by": str, "changed_by": str, "rule": str},
    "dice": {"seq": int, "placed_by": str, "changed_by": str, "rule": str},
    "approvals": {"requested_by": str},
    "alarms": {"rule": str, "serial": str, "cleared": str, "cleared_how": str, "acknowledged_role": str,
               "acknowledged_reason": str},
    "irregularities": {"seq": int, "reported_by": str, "acknowledged": str},
    "slips": {"voided": str},
}
EVENT_SORTS = {"table": "COALESCE(table_id, '')", "type": "type", "actor": "actor", "role": "role"}
LOG_INDEXES = {"events": "time", "decks": "received", "dice": "placed", "approvals": "requested",
               "alarms": "raised", "device_log": "time", "irregularities": "time", "slips": "time",
               "sign_ins": "time"}


def _v3_logs(db: sqlite_utils.Database) -> None:
    for table, columns in LOG_COLUMNS.items():
        for name, kind in columns.items():
            db[table].add_column(name, kind)
    db["device_log"].create({"seq": int, "time": str, "table_id": str, "device": str, "serial": str, "kind": str,
                             "code": str, "message": str}, pk="seq")
    db["sign_ins"].create({"seq": int, "time": str, "name": str, "role": str, "event": str, "reason": str,
                           "failures": int, "locked_until": str, "by_name": str}, pk="seq")
    for table, time in LOG_INDEXES.items():
        seq = "request" if table == "approvals" else "seq"
        db.execute(f"CREATE INDEX IF NOT EXISTS {table}_by_time ON {table} ({time}, {seq})")
        if table != "sign_ins":
            db.execute(f"CREATE INDEX IF NOT EXISTS {table}_by_table_time ON {table} (table_id, {time}, {seq})")
    # the whole log sorted by a column reads one of these, not the rows (a million rows: a second,
    # not five); the table as the logs view sorts it, no table first
    for name, column in EVENT_SORTS.items():
        db.execute(f"CREATE INDEX IF NOT EXISTS events_by_{name} ON events ({column}, time, seq)")
    if db.execute("SELECT 1 FROM events LIMIT 1").fetchone():
        db["meta"].upsert({"key": REPROJECT, "value": "3 logs"}, pk="key")


# migration 4, the hold: the hold's figures per settlement, taken out of its JSON once when
# it is logged instead of at every read (a shift of 14,400 rounds read its ledgers in a second).
# ``{settlement}`` is the settlement's JSON: a parameter when one is projected, the column when
# the migration fills them from the settlements already logged. A line's or result's wager is
# the hold's (``additional N`` as ``additional``, ``envy of seat N`` as ``envy``).
_WAGER = "CASE WHEN {w} LIKE 'additional %' THEN 'additional' WHEN {w} LIKE 'envy%' THEN 'envy' ELSE {w} END"
_FROM, _TO = "json_extract(l.value, '$.from')", "json_extract(l.value, '$.to')"
_CENTS, _REASON = "json_extract(l.value, '$.cents')", "json_extract(l.value, '$.reason')"
_LW = "json_extract(l.value, '$.wager')"
_COMMISSION = f"({_REASON} LIKE 'commission%' OR {_REASON} LIKE 'vigorish%')"
HOLD_HOUSE_SELECT = f"""
SELECT {{seq}}, {_WAGER.format(w=_LW)} AS wager,
  SUM(CASE WHEN {_TO} = 'house' AND {_COMMISSION} THEN {_CENTS} ELSE 0 END),
  SUM(CASE WHEN {_TO} = 'house' AND {_LW} = 'collection fee' THEN {_CENTS} ELSE 0 END),
  SUM(CASE WHEN {_TO} = 'house' AND {_FROM} != 'meter' AND NOT {_COMMISSION}
           AND {_LW} != 'collection fee' THEN {_CENTS} ELSE 0 END),
  SUM(CASE WHEN {_FROM} = 'house' AND {_TO} != 'meter' THEN {_CENTS} ELSE 0 END),
  SUM(CASE WHEN {_FROM} = 'house' AND {_TO} = 'meter' THEN {_CENTS}
           WHEN {_FROM} = 'meter' AND {_TO} = 'house' THEN -{_CENTS} ELSE 0 END)
FROM {{source}} json_each({{settlement}}, '$.ledger') l
WHERE {_FROM} = 'house' OR {_TO} = 'house'
GROUP BY {{group}}2"""
_RW = "json_extract(r.value, '$.wager')"
HOLD_STAKES_SELECT = f"""
SELECT {{seq}}, {_WAGER.format(w=_RW)} AS wager, json_extract(r.value, '$.stake') AS stake, COUNT(*)
FROM {{source}} json_each({{settlement}}, '$.results') r
WHERE json_extract(r.value, '$.outcome') != 'returned'
GROUP BY {{group}}2, 3"""
HOLD_HOUSE_INSERT = "INSERT INTO hold_house (seq, wager, commission, fees, won, lost, to_meter)"
HOLD_STAKES_INSERT = "INSERT INTO hold_stakes (seq, wager, stake, count)"


def _v4_hold(db: sqlite_utils.Database) -> None:
    db["hold_house"].create({"seq": int, "wager": str, "commission": int, "fees": int, "won": int, "lost": int,
                             "to_meter": int})
    db["hold_stakes"].create({"seq": int, "wager": str, "stake": int, "count": int})
    db.execute("CREATE INDEX hold_house_by_seq ON hold_house (seq)")
    db.execute("CREATE INDEX hold_stakes_by_seq ON hold_stakes (seq)")
    db.execute("CREATE INDEX IF NOT EXISTS settlements_by_time ON settlements (time, seq)")
    # the settlements already logged, straight from their read model (no projection again)
    src = {"seq": "s.seq", "source": "settlements s,", "settlement": "s.settlement", "group": "s.seq, "}
    db.execute(HOLD_HOUSE_INSERT + HOLD_HOUSE_SELECT.format(**src))
    db.execute(HOLD_STAKES_INSERT + HOLD_STAKES_SELECT.format(**src))


# migration 5, a settlement's release: its ``round_released`` row and its ``payout`` rows found by
# the settlement they name (app/store/settled_rounds.py), not by reading every payout of the log,
# which a round's settle and release each read (a log of 14,400 rounds holds 70,000 payouts)
RELEASE_ROWS = ("round_released", "payout")


def _v5_releases(db: sqlite_utils.Database) -> None:
    for kind in RELEASE_ROWS:
        db.execute(f"CREATE INDEX IF NOT EXISTS events_{kind}_by_settlement ON events "
                   f"(json_extract(body, '$.data.settlement'), seq) WHERE type = '{kind}'")


# migration 6, the PINs (issue 26): a user's PIN hash is kept out of the sealed events, in
# ``pins``, keyed with the install key and bound to the user's name and the credential id the
# event carries (app/store/credentials.py); ``users.credential`` names it. ``pins`` is no read
# model: the log cannot give it back, and a rebuild leaves it alone. The user events are indexed
# by the name they are about, so that a sign-in reads one user's events from the chain.
USER_EVENTS = ("user_added", "role_changed", "pin_changed", "sign_in", "sign_in_failed", "user_locked",
               "user_unlocked")
USER_EVENTS_WHERE = "type IN (" + ", ".join(f"'{t}'" for t in USER_EVENTS) + ")"
USER_NAME = "json_extract(body, '$.data.name')"


def _v6_pins(db: sqlite_utils.Database) -> None:
    db["pins"].create({"credential": str, "name": str, "salt": str, "pin_hash": str, "kdf": str}, pk="credential")
    db["users"].add_column("credential", str)
    db.execute(f"CREATE INDEX IF NOT EXISTS events_by_user ON events ({USER_NAME}, seq) WHERE {USER_EVENTS_WHERE}")


# migration 7, counter-signatures (issue 27): a decision signed at one person's session with a
# second person's PIN names that person and their role. Decisions logged before it had none, so
# the columns are added empty: nothing to project again.
def _v7_countersigned(db: sqlite_utils.Database) -> None:
    db["approvals"].add_column("countersigned_by", str)
    db["approvals"].add_column("countersigned_role", str)


# migration 8, every PIN decision a counter-signature (issue 27): an alarm (and the irregularity
# it stands for) acknowledged, a payout slip issued or voided at one person's session with a
# second person's PIN names that person and their role. Empty for the rows before: nothing to
# project again.
COUNTERSIGNED = {"alarms": ("countersigned",), "irregularities": ("countersigned",),
                 "slips": ("issue_countersigned", "void_countersigned")}


def _v8_countersigned(db: sqlite_utils.Database) -> None:
    for table, prefixes in COUNTERSIGNED.items():
        for prefix in prefixes:
            db[table].add_column(f"{prefix}_by", str)
            db[table].add_column(f"{prefix}_role", str)


# migration 9, each table its own law (issue 33): the devices log said "progressive wagers closed:
# a controller of the table is offline (000(q)(2))" at every table, an nj or a casino table too.
# The words now cite nothing (the table's own paragraph is in the alarm its controller raised);
# a log with rows is projected again, so that its device_log says what a log made now says.
WORDS_CHANGED = {9: ("device_log",)}   # migration -> the read models whose words it changed


def _v9_own_citations(db: sqlite_utils.Database) -> None:
    if db.execute("SELECT 1 FROM events LIMIT 1").fetchone():
        db["meta"].upsert({"key": REPROJECT, "value": "9 own citations"}, pk="key")


# migration 10, the pit's money (issue 34, docs/inventory.md): each table's openers and closers, its
# fill and credit slips, its buy-ins and drops, and each settlement's flow through the tray (so that
# a shift's expected tray is a sum, not a reading of every ledger). ``opener`` names the shift (the
# seq of the opener it ran from); a settlement of a table that was not open has none.
TRAY_TABLES = ("trays", "tray_slips", "buy_ins", "drops", "tray_rounds")
MONEY_EVENTS = ("tray_opener", "tray_closer", "tray_slip_requested", "tray_slip_signed", "tray_slip_voided", "buy_in",
                "drop_counted")


def _v10_tray(db: sqlite_utils.Database) -> None:
    db["trays"].create({"seq": int, "table_id": str, "kind": str, "time": str, "cents": int, "count": str,
                        "signed_by": str, "opener": int, "expected": int, "last_closer": int,
                        "last_closer_cents": int, "closer": int}, pk="seq")
    db.execute("CREATE INDEX trays_by_table ON trays (table_id, kind, seq)")
    db["tray_slips"].create({"kind": str, "number": int, "seq": int, "request": int, "table_id": str, "opener": int,
                             "cents": int,
                             "count": str, "reason": str, "requested": str, "requested_by": str, "status": str,
                             "approved": str, "approved_by": str, "approved_role": str, "cage_signed": str,
                             "cage_signers": str, "table_signed": str, "table_signers": str, "tray_moved": str,
                             "voided": str, "voided_by": str, "void_reason": str}, pk=("kind", "number"))
    db.execute("CREATE INDEX tray_slips_by_opener ON tray_slips (opener, kind)")
    db.execute("CREATE INDEX tray_slips_by_time ON tray_slips (requested, kind, number)")
    db["buy_ins"].create({"seq": int, "table_id": str, "opener": int, "time": str, "seat": int, "cents": int,
                          "player": str, "recorded_by": str}, pk="seq")
    db.execute("CREATE INDEX buy_ins_by_opener ON buy_ins (opener)")
    db["drops"].create({"seq": int, "table_id": str, "opener": int, "time": str, "cents": int, "count": str,
                        "signed_by": str, "source": str}, pk="seq")
    db.execute("CREATE INDEX drops_by_opener ON drops (opener)")
    db["tray_rounds"].create({"seq": int, "table_id": str, "opener": int, "tray": int, "house_net": int,
                              "to_meter": int, "replaced": int}, pk="seq")
    db.execute("CREATE INDEX tray_rounds_by_opener ON tray_rounds (opener, replaced)")
    # a log whose rows name the money already (written by this version, its migration record lost)
    # is projected again; any other has no opener: its settlements' rows come straight from their
    # read model in SQL (a second's work on a long log, not a start spent projecting every row), the
    # tray's flow as app/engine/inventory.py ``tray_change`` reads a ledger, and no shift
    money = ", ".join(f"'{t}'" for t in MONEY_EVENTS)
    if db.execute(f"SELECT 1 FROM events WHERE type IN ({money}) LIMIT 1").fetchone():
        db["meta"].upsert({"key": REPROJECT, "value": "10 tray"}, pk="key")
        return
    db.execute(f"""INSERT INTO tray_rounds (seq, table_id, opener, tray, house_net, to_meter, replaced)
        SELECT s.seq, s.table_id, NULL,
          IFNULL(SUM(CASE WHEN {_TO} = 'house' AND {_FROM} != 'meter' THEN {_CENTS}
                          WHEN {_FROM} = 'house' AND {_TO} != 'meter' THEN -{_CENTS} ELSE 0 END), 0),
          s.house_net_cents,
          IFNULL(SUM(CASE WHEN {_FROM} = 'house' AND {_TO} = 'meter' THEN {_CENTS}
                          WHEN {_FROM} = 'meter' AND {_TO} = 'house' THEN -{_CENTS} ELSE 0 END), 0), NULL
        FROM settlements s LEFT JOIN json_each(s.settlement, '$.ledger') l GROUP BY s.seq""")
    db.execute("""UPDATE tray_rounds SET replaced = r.seq FROM (
                    SELECT seq, json_extract(body, '$.data.replaces') AS old FROM events
                    WHERE type = 'settlement' AND json_extract(body, '$.data.replaces') IS NOT NULL) r
                  WHERE tray_rounds.seq = r.old""")


def _v11_pin_seals(db: sqlite_utils.Database) -> None:
    """Issue 35 (finding 9): each PIN record sealed with the install key (app/store/credentials.py);
    the records written from here on must have a seal (``pins_sealed_from``)."""
    db["pins"].add_column("seal", str)
    first = db.execute("SELECT COALESCE(max(seq), 0) + 1 FROM events").fetchone()[0]
    db["meta"].upsert({"key": "pins_sealed_from", "value": str(first)}, pk="key")


MIGRATIONS: list[tuple[int, str, Callable[["sqlite_utils.Database"], None]]] = [
    (1, "event log", _v1_log),
    (2, "read models", _v1_read_models),
    (3, "logs", _v3_logs),
    (4, "hold", _v4_hold),
    (5, "releases", _v5_releases),
    (6, "pins", _v6_pins),
    (7, "counter-signatures", _v7_countersigned),
    (8, "counter-signatures of every decision", _v8_countersigned),
    (9, "each table's own citations in the devices log", _v9_own_citations),
    (10, "the pit's money: trays, fills and credits, buy-ins, drops", _v10_tray),
    (11, "sealed PIN records", _v11_pin_seals),
]
READ_MODELS = ("tables", "decks", "dice", "rounds", "settlements", "meter_readings", "slips", "approvals", "alarms",
               "device_faults", "irregularities", "users", "device_log", "sign_ins", "hold_house", "hold_stakes",
               *TRAY_TABLES)


REPROJECT = "reproject"   # meta key: a migration added read-model columns the log must fill


def migrate(conn: sqlite3.Connection) -> int:
    """Apply the migrations not yet applied, each in its own transaction; the schema version. A
    step that added read-model columns leaves ``REPROJECT`` in meta for ``read_models.reproject``.

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
