"""Settled rounds as logged: a settlement's row, its approval requests, its release and payouts,
the settlement that replaced it, and a table's settlements newest first.

A settlement row (``Floor.settle``) is followed in the same append by one ``approval_requested``
row per approval it needs, in order: the requests of the settlement at seq S are S+1 .. S+n,
except an approval the settlement ``merged`` with a request logged before it (a progressive
controller's report of the hit it pays: one hit, one request), which names that request. A
release logs ``round_released`` {settlement} and a ``payout`` row per payout.
"""

from __future__ import annotations

import json

from .log import AuditLog


def settlement(log: AuditLog, seq: int) -> dict | None:
    """The settlement row ``seq`` (seq, time, table_id, actor, role, data), or None."""
    rows = log.query("SELECT seq, time, table_id, actor, role, body FROM events WHERE seq = ? AND type = 'settlement'",
                     (seq,))
    if not rows:
        return None
    r = rows[0]
    return {**r, "data": json.loads(r["body"])["data"]}


def requests(log: AuditLog, seq: int, table: str | None, n: int, merged: dict | None = None) -> list[dict]:
    """The requests of settlement ``seq``'s ``n`` approvals, in their order: the rows logged right
    after it, and the ``merged`` ones (approval index -> request) where they stand."""
    merged = {int(i): r for i, r in (merged or {}).items()}
    own = n - len(merged)
    rows = log.query("SELECT * FROM approvals WHERE request > ? AND request <= ? AND table_id IS ? ORDER BY request",
                     (seq, seq + own, table)) if own > 0 else []
    if not merged:
        return rows
    earlier = {r["request"]: r for r in log.query(
        f"SELECT * FROM approvals WHERE request IN ({','.join('?' * len(merged))})", tuple(merged.values()))}
    ordered, following = [], iter(rows)
    for i in range(n):
        row = earlier.get(merged[i]) if i in merged else next(following, None)
        if row is not None:
            ordered.append(row)
    return ordered


def settlement_of_request(log: AuditLog, request: int) -> int | None:
    """The settlement whose approval ``request`` is, or None (a request of its own)."""
    req = log.query("SELECT table_id FROM approvals WHERE request = ?", (request,))
    if not req:
        return None
    joined = log.query("SELECT e.seq FROM events e, json_each(json_extract(e.body, '$.data.merged')) m "
                       "WHERE e.type = 'settlement' AND e.table_id IS ? AND e.seq > ? AND m.value = ? "
                       "ORDER BY e.seq LIMIT 1", (req[0]["table_id"], request, request))
    if joined:
        return joined[0]["seq"]
    rows = log.query("SELECT seq, json_extract(body, '$.data.settlement.approvals') AS a, "
                     "json_extract(body, '$.data.merged') AS m FROM events "
                     "WHERE type = 'settlement' AND table_id IS ? AND seq < ? ORDER BY seq DESC LIMIT 1",
                     (req[0]["table_id"], request))
    if rows:
        own = len(json.loads(rows[0]["a"] or "[]")) - len(json.loads(rows[0]["m"] or "{}"))
        if request - rows[0]["seq"] <= own:
            return rows[0]["seq"]
    return None


def released(log: AuditLog, seq: int) -> dict | None:
    """The ``round_released`` row (seq, time, actor) of settlement ``seq``, or None."""
    rows = log.query("SELECT seq, time, actor FROM events WHERE type = 'round_released' AND "
                     "json_extract(body, '$.data.settlement') = ? ORDER BY seq LIMIT 1", (seq,))
    return rows[0] if rows else None


def settled_again(log: AuditLog, seq: int) -> int | None:
    """The settlement that settled again a round a denial sent back, if any."""
    rows = log.query("SELECT seq FROM events WHERE type = 'settlement' AND json_extract(body, '$.data.replaces') = ? "
                     "ORDER BY seq LIMIT 1", (seq,))
    return rows[0]["seq"] if rows else None


def payouts(log: AuditLog, seq: int) -> list[dict]:
    """The data of the ``payout`` rows of settlement ``seq``, in order."""
    return [json.loads(p["body"])["data"] for p in log.query(
        "SELECT body FROM events WHERE type = 'payout' AND json_extract(body, '$.data.settlement') = ? ORDER BY seq",
        (seq,))]


def page(log: AuditLog, table: str, before: int | None, limit: int) -> list[dict]:
    """The table's settlements newest first, before seq ``before``: seq, time, round, banking,
    house_net_cents, approvals (how many) and who settled it (actor)."""
    return log.query("SELECT s.seq, s.time, s.round, s.banking, s.house_net_cents, s.approvals, e.actor, "
                     "json_extract(e.body, '$.data.merged') AS merged "
                     "FROM settlements s JOIN events e ON e.seq = s.seq "
                     "WHERE s.table_id = ? AND s.seq < ? ORDER BY s.seq DESC LIMIT ?",
                     (table, before if before is not None else 2 ** 62, limit))
