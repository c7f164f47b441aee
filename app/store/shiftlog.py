"""What a shift report lists, read from the read models (pure SQL, one period ``[start, end)``).

Every function takes the period as ISO times in the log's local time and returns plain rows
(dicts), ordered as the report prints them. Nothing is computed here beyond picking the rows
and saying how each stood at the shift's end; the figures of money come from app/store/hold_lines.py.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime

from app.engine.deadlines import overdue

from .hold_lines import COUNTED


def _rows(conn: sqlite3.Connection, sql: str, params: dict) -> list[dict]:
    cur = conn.execute(sql, params)
    cols = [c[0] for c in cur.description]
    return [dict(zip(cols, row)) for row in cur.fetchall()]


def _p(start: str, end: str, table: str | None) -> dict:
    return {"start": start, "end": end, "table": table}


_TABLE = "(:table IS NULL OR table_id = :table)"


def rounds(conn, start: str, end: str, table: str | None = None) -> list[dict]:
    """Per table: rounds ended in the period, settled and void."""
    return _rows(conn, f"""
SELECT table_id, SUM(status = 'settled') AS settled, SUM(status = 'void') AS void FROM rounds
WHERE ended >= :start AND ended < :end AND {_TABLE} GROUP BY table_id ORDER BY table_id""", _p(start, end, table))


def banking(conn, start: str, end: str, table: str | None = None) -> list[dict]:
    """Per table and banking mode: the settlements the hold counts (``hold_lines.COUNTED``: not
    sent back by a denial of one of their requests or of one they merged) and the house's net by
    the settlement's own net by party."""
    return _rows(conn, COUNTED + """
SELECT c.table_id, c.banking, COUNT(*) AS rounds, SUM(s.house_net_cents) AS house_net
FROM counted c JOIN settlements s ON s.seq = c.seq GROUP BY 1, 2 ORDER BY 1, 2""", _p(start, end, table))


def meter(conn, start: str, end: str, table: str | None = None) -> list[dict]:
    """Per table with a meter: the last reading at or before the start (else the first in the
    period, ``start_before_shift`` False), the last before the end (``cents`` and its ``time``),
    and every reset in the period."""
    out = []
    tables = [t for (t,) in conn.execute(
        f"SELECT DISTINCT table_id FROM meter_readings WHERE time < :end AND {_TABLE} ORDER BY table_id",
        _p(start, end, table))]
    for t in tables:
        at_start = conn.execute("SELECT cents, time FROM meter_readings WHERE table_id = ? AND time <= ? "
                                "ORDER BY time DESC, seq DESC LIMIT 1", (t, start)).fetchone()
        before = at_start is not None
        if not before:     # a meter first read during the shift: its first reading, said as such
            at_start = conn.execute("SELECT cents, time FROM meter_readings WHERE table_id = ? AND time > ? AND "
                                    "time < ? ORDER BY time, seq LIMIT 1", (t, start, end)).fetchone()
        at_end = conn.execute("SELECT cents, time FROM meter_readings WHERE table_id = ? AND time < ? "
                              "ORDER BY time DESC, seq DESC LIMIT 1", (t, end)).fetchone()
        resets = _rows(conn, "SELECT seq, time, cents FROM meter_readings WHERE table_id = :t AND source = 'reset' "
                             "AND time >= :start AND time < :end ORDER BY seq", {"t": t, "start": start, "end": end})
        out.append({"table_id": t, "start_cents": at_start[0] if at_start else None,
                    "start_time": at_start[1] if at_start else None, "start_before_shift": before,
                    "end_cents": at_end[0] if at_end else None, "end_time": at_end[1] if at_end else None,
                    "resets": resets})
    return out


def approvals(conn, start: str, end: str, table: str | None = None, kind: str | None = None) -> list[dict]:
    """Requests made in the period, in the order made; ``kind`` picks one kind."""
    return _rows(conn, f"""
SELECT request, kind, table_id, seat, cents, role_needed, reason, rule, requested, requested_by, status,
       decided_by, decided_role, decision_reason, decided, countersigned_by, countersigned_role FROM approvals
WHERE requested >= :start AND requested < :end AND {_TABLE} AND (:kind IS NULL OR kind = :kind)
ORDER BY request""", {**_p(start, end, table), "kind": kind})


def slips(conn, start: str, end: str, table: str | None = None) -> list[dict]:
    """Payout slips issued in the period, in number order, with their voids."""
    return _rows(conn, f"""
SELECT number, table_id, seat, wager, wager_cents, win_cents, time, issued_by, status, void_reason, voided_by,
       voided, issue_countersigned_by, issue_countersigned_role, void_countersigned_by, void_countersigned_role
FROM slips WHERE time >= :start AND time < :end AND {_TABLE} ORDER BY number""", _p(start, end, table))


def _late(found: list[dict], done: str, end: str, as_of: str | None) -> list[dict]:
    """Each row's ``late``, by the engine's one test (app/engine/deadlines.py ``overdue``, as the
    tiles' clocks): changed (``done``) within the period and after its due time, or still at the
    table past it at ``as_of``, the moment the report speaks for: the shift's end, or the moment
    it was made when that is sooner (an interim report does not call a deck late that is not yet
    due)."""
    at = datetime.fromisoformat(end)
    if as_of is not None:
        at = min(at, datetime.fromisoformat(as_of))
    for r in found:
        gone = datetime.fromisoformat(r[done]) if r[done] is not None else None
        r["late"] = overdue(datetime.fromisoformat(r["due"]), gone if gone is not None and gone <= at else at)
    return found


def decks(conn, start: str, end: str, table: str | None = None, as_of: str | None = None) -> list[dict]:
    """Decks changed in the period, and decks still in use at its end, against their due times (the
    engine's deadlines, projected into the read model with their rule): ``late`` (``_late``) when
    changed after its due time, or in use past it at ``as_of`` (the shift's end by default)."""
    return _late(_rows(conn, f"""
SELECT table_id, deck, received, received_by, changed, changed_by, due, rule, status FROM decks
WHERE {_TABLE} AND received < :end AND ((changed >= :start AND changed < :end) OR changed IS NULL OR changed >= :end)
ORDER BY table_id, COALESCE(changed, :end), received""", _p(start, end, table)), "changed", end, as_of)


def dice(conn, start: str, end: str, table: str | None = None, as_of: str | None = None) -> list[dict]:
    """Dice changed (removed) in the period, and dice in use at its end, against the 24-hour rule
    (``late`` as for the decks)."""
    return _late(_rows(conn, f"""
SELECT table_id, placed, placed_by, removed, changed_by, due, rule FROM dice
WHERE {_TABLE} AND placed < :end AND ((removed >= :start AND removed < :end) OR removed IS NULL OR removed >= :end)
ORDER BY table_id, COALESCE(removed, :end), placed""", _p(start, end, table)), "removed", end, as_of)


def irregularities(conn, start: str, end: str, table: str | None = None) -> list[dict]:
    return _rows(conn, f"""
SELECT table_id, ref, round, kind, time, consequence, rule, needs_ack, acknowledged_by, acknowledged, reported_by,
       countersigned_by, countersigned_role FROM irregularities WHERE time >= :start AND time < :end AND {_TABLE} ORDER BY time, table_id, ref""",
                 _p(start, end, table))


def alarms(conn, start: str, end: str, table: str | None = None) -> list[dict]:
    return _rows(conn, f"""
SELECT seq, table_id, kind, message, rule, raised, cleared, cleared_how, acknowledged_by, acknowledged_role,
       acknowledged, acknowledged_reason, countersigned_by, countersigned_role FROM alarms
WHERE raised >= :start AND raised < :end AND {_TABLE} ORDER BY seq""", _p(start, end, table))


def chain_head(conn, end: str) -> tuple[int, str] | None:
    """The last event logged before ``end``: (seq, hash), the chain's head at the shift's end."""
    row = conn.execute("SELECT seq, hash FROM events WHERE seq = (SELECT MAX(seq) FROM events WHERE time < ?)",
                       (end,)).fetchone()
    return (row[0], row[1]) if row else None


def events_in(conn, start: str, end: str) -> int:
    return conn.execute("SELECT COUNT(*) FROM events WHERE time >= ? AND time < ?", (start, end)).fetchone()[0]


def report_numbers(conn) -> list[int]:
    """Every number a shift report was given, printed (``report_printed``) or not made
    (``report_failed``): a number is never given twice, so a failed one stays a gap explained."""
    return [json.loads(b)["data"].get("number", 0) for (b,) in conn.execute(
        "SELECT body FROM events WHERE type IN ('report_printed', 'report_failed') ORDER BY seq")]


def reports_printed(conn) -> list[dict]:
    """The data of every ``report_printed`` row, in order (numbered inside the writer's
    transaction: ``conn`` is the writer's)."""
    return [json.loads(b)["data"] for (b,) in conn.execute(
        "SELECT body FROM events WHERE type = 'report_printed' ORDER BY seq")]
