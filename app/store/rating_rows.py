"""Player ratings as logged (issue 36, docs/ratings.md): the rating rows, and the rounds a
rating's table settled in a period with their results as logged (pure SQL).

A rating is its ``rating_started`` row (its seq is the rating's number), the ``rating_moved``,
``rating_ended`` and ``rating_corrected`` rows that name it. A round counts as the hold counts it
(``hold_lines.COUNTED``).
"""

from __future__ import annotations

import json
import sqlite3

from .hold_lines import COUNTED, _params

RATING_EVENTS = ("rating_started", "rating_moved", "rating_ended", "rating_corrected")


def rating_events(conn: sqlite3.Connection, end: str | None = None) -> list[dict]:
    """Every rating row logged before ``end`` (all if None), in the log's order: seq, time,
    table_id, type, actor, role, data."""
    marks = ", ".join(f"'{t}'" for t in RATING_EVENTS)
    rows = conn.execute(f"SELECT seq, time, table_id, type, actor, role, body FROM events WHERE type IN ({marks}) "
                        "AND (:end IS NULL OR time < :end) ORDER BY seq", {"end": end}).fetchall()
    return [{"seq": s, "time": t, "table_id": tb, "type": ty, "actor": a, "role": r, "data": json.loads(b)["data"]}
            for s, t, tb, ty, a, r, b in rows]


def rounds(conn: sqlite3.Connection, start: str | None, end: str | None, table: str | None = None) -> list[dict]:
    """The counted rounds of ``table`` (every table if None) settled in ``[start, end)``, in the
    log's order: seq, table_id, time, profile, banking and its ``results`` as logged."""
    cur = conn.execute(COUNTED + """
SELECT c.seq, c.table_id, s.time, c.profile, c.banking, json_extract(s.settlement, '$.results')
FROM counted c JOIN settlements s ON s.seq = c.seq ORDER BY c.seq""", _params(start, end, table))
    return [{"seq": q, "table_id": t, "time": tm, "profile": p, "banking": b, "results": json.loads(r)}
            for q, t, tm, p, b, r in cur.fetchall()]
