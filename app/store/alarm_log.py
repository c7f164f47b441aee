"""Alarms as logged: the ``alarm_raised`` rows (their seq is the alarm's id), their clearing and
their acknowledgement with who, when and why, read back for the alarm book and the alarms list."""

from __future__ import annotations

import json

from .log import AuditLog, Logged, logged, where

ALARM_ROWS = ("alarm_raised", "alarm_acknowledged", "alarm_cleared")


def every_row(log: AuditLog) -> list[Logged]:
    """Every alarm row of the log, in order (the alarm book's start)."""
    return [logged(*r) for r in log.rows(
        "SELECT seq, time, table_id, type, actor, role, body FROM events WHERE type IN (?, ?, ?) ORDER BY seq",
        ALARM_ROWS)]


def raised_of_kind(log: AuditLog, kind: str) -> list[Logged]:
    """The ``alarm_raised`` rows of one kind, in order."""
    return [logged(*r) for r in log.rows(
        "SELECT seq, time, table_id, type, actor, role, body FROM events WHERE type = 'alarm_raised' AND "
        "json_extract(body, '$.data.kind') = ? ORDER BY seq", (kind,))]


def alarm(log: AuditLog, alarm_id: int) -> dict | None:
    """The alarm's read-model row with its raised row's ``data``, or None."""
    rows = log.query("SELECT a.*, e.body FROM alarms a JOIN events e ON e.seq = a.seq WHERE a.seq = ?", (alarm_id,))
    if not rows:
        return None
    return {**rows[0], "data": json.loads(rows[0]["body"])["data"]}


def acknowledged_why(log: AuditLog, alarm_id: int) -> str:
    """The reason the alarm was acknowledged with ('' if none is logged)."""
    why = log.query("SELECT json_extract(body, '$.data.reason') AS reason FROM events WHERE "
                    "type = 'alarm_acknowledged' AND json_extract(body, '$.data.alarm') = ?", (alarm_id,))
    return why[0]["reason"] or "" if why else ""


def listing(log: AuditLog, open_only: bool, table: str | None) -> list[dict]:
    """Alarms newest first (only those not yet acknowledged if ``open_only``; of one table if
    given), each its read-model row with ``data`` (as raised), ``ack`` (role, reason) and
    ``cleared`` (time, how), the last two None where there is none."""
    sql, params = where(("a.acknowledged IS NULL", ()) if open_only else None,
                        ("a.table_id = ?", (table,)) if table is not None else None)
    rows = log.query(f"SELECT a.*, e.body FROM alarms a JOIN events e ON e.seq = a.seq{sql} ORDER BY a.seq DESC",
                     params)
    if not rows:
        return []
    low = min(r["seq"] for r in rows)
    acks = {r["alarm"]: r for r in log.query(
        "SELECT json_extract(body, '$.data.alarm') AS alarm, role, json_extract(body, '$.data.reason') AS reason "
        "FROM events WHERE type = 'alarm_acknowledged' AND seq > ?", (low,))}
    cleared = {r["alarm"]: r for r in log.query(
        "SELECT json_extract(body, '$.data.alarm') AS alarm, time, json_extract(body, '$.data.how') AS how "
        "FROM events WHERE type = 'alarm_cleared' AND seq > ?", (low,))}
    return [{**r, "data": json.loads(r["body"])["data"], "ack": acks.get(r["seq"]), "cleared": cleared.get(r["seq"])}
            for r in rows]


def open_counts(log: AuditLog) -> dict[str | None, int]:
    """Alarms not yet acknowledged, per table (None: the pit's own)."""
    return {r["table_id"]: r["n"] for r in log.query(
        "SELECT table_id, count(*) AS n FROM alarms WHERE acknowledged IS NULL GROUP BY table_id")}
