"""Reading the progressive meters back from the log: the readings, the hits and the resets.

A progressive controller's readings are the ``meter_reading`` rows its table's mapping logged
(app/devices/mapping.py): ``controller`` when the meter it broadcasts changed, ``reset`` when it
reset the meter (000(q)(6)). A settlement's own reading of the meter after the round
(``source = "settlement"``, app/store/floor.py) is the engine's figure, not the controller's,
and is left out of the controller's series. A hit the controller reported is the
``approval_requested`` row of kind ``progressive_meter_payout`` that the device logged (role
``device``); its decision is in the ``approvals`` read model.

Times are the log's ISO texts (local time); rows come in the log's order (seq).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime, timedelta

from .log import AuditLog

CONTROLLER_SOURCES = ("controller", "reset")
_SOURCES = "source IN ('controller', 'reset')"


@dataclass(frozen=True)
class MeterRow:
    seq: int
    time: datetime
    cents: int
    source: str          # controller or reset


@dataclass(frozen=True)
class HitRow:
    request: int         # the approval request (its row's seq)
    time: datetime
    serial: str          # the controller that reported it
    seat: int | None
    cents: int | None    # what the controller said the hit pays
    line: str            # the pay-table line as the controller named it ("" in a log older than the field)
    reason: str
    rule: str
    role_needed: str
    status: str          # pending, approved, denied
    decided_by: str | None
    decided_role: str | None
    decided: datetime | None
    decision_reason: str | None
    countersigned_by: str | None = None     # the second person whose PIN authorised the decision
    countersigned_role: str | None = None


def _meter(r: dict) -> MeterRow:
    return MeterRow(r["seq"], datetime.fromisoformat(r["time"]), r["cents"], r["source"])


def first_seq_at(log: AuditLog, when: datetime, margin: timedelta = timedelta(minutes=5)) -> int:
    """A row number at or before the first row logged at ``when - margin``: a binary search on the
    log's rows (their times follow their order, but for a device's arrival stamp against a
    person's, hence ``margin``), so that a read from ``when`` on starts there instead of scanning
    the log. A negative ``margin`` gives a row past ``when``."""
    target = (when - margin).isoformat()
    lo, hi = 1, last_seq(log)
    while lo < hi:
        mid = (lo + hi) // 2
        row = log.query("SELECT time FROM events WHERE seq = ?", (mid,))
        if row and row[0]["time"] < target:
            lo = mid + 1
        else:
            hi = mid
    return max(lo - 1, 0)


def series_columns(log: AuditLog, table: str, since: datetime | None = None, after: int = 0,
                   limit: int | None = None) -> tuple[tuple[int, ...], tuple[float, ...], tuple[int, ...]]:
    """The controller's readings of ``table`` logged after seq ``after``, at or after ``since``, as
    three columns for a chart: the rows' seqs, their times as seconds on the log's own clock (the
    local time read as if it were UTC: ``clock_seconds``, no time zone and no daylight-saving
    jump), and the cents; at most ``limit`` of them (the first), so that a long series is read a
    page at a time between other work. No object per reading."""
    sql = (f"SELECT seq, (julianday(time) - 2440587.5) * 86400.0, cents FROM meter_readings WHERE seq > ? AND "
           f"table_id = ? AND {_SOURCES}")
    params: tuple = (after, table)
    if since is not None:
        sql += " AND time >= ?"
        # the first read from ``since`` on starts near its first row; the next ones after the last row read
        params = (after or first_seq_at(log, since), table, since.isoformat())
    sql += " ORDER BY seq"
    if limit is not None:
        sql += " LIMIT ?"
        params += (limit,)
    rows = log.rows(sql, params)
    if not rows:
        return (), (), ()
    seqs, seconds, cents = zip(*rows)
    return seqs, seconds, cents


EPOCH = datetime(1970, 1, 1)


def clock_seconds(when: datetime) -> float:
    """A log time as ``series_columns`` gives it: seconds since 1970 on the log's own clock."""
    return (when - EPOCH).total_seconds()


def reading_at(log: AuditLog, table: str, when: datetime) -> MeterRow | None:
    """The meter as it stood at ``when``: the controller's last reading at or before it (looked
    for backwards from a row just past ``when``, not from the end of the log)."""
    upto = first_seq_at(log, when, -timedelta(minutes=5)) + 1
    rows = log.query(f"SELECT seq, time, cents, source FROM meter_readings WHERE seq <= ? AND table_id = ? AND "
                     f"{_SOURCES} AND time <= ? ORDER BY seq DESC LIMIT 1", (upto, table, when.isoformat()))
    return _meter(rows[0]) if rows else None


def reading_before(log: AuditLog, table: str, seq: int) -> MeterRow | None:
    """The controller's last reading logged before row ``seq``."""
    rows = log.query(f"SELECT seq, time, cents, source FROM meter_readings WHERE seq < ? AND table_id = ? AND "
                     f"{_SOURCES} ORDER BY seq DESC LIMIT 1", (seq, table))
    return _meter(rows[0]) if rows else None


def resets_after(log: AuditLog, after: int, upto: int) -> list[tuple[str, MeterRow]]:
    """(table, reading) of every controller's reset of the meter (000(q)(6)) logged in rows
    ``(after, upto]``, in order."""
    return [(r["table_id"], _meter(r)) for r in log.query(
        "SELECT seq, time, cents, source, table_id FROM meter_readings WHERE seq > ? AND seq <= ? AND "
        "source = 'reset' ORDER BY seq", (after, upto))]


def hits_after(log: AuditLog, after: int, upto: int) -> list[tuple[str, int]]:
    """(table, request) of every hit a controller reported in rows ``(after, upto]``, in order."""
    return [(r["table_id"], r["seq"]) for r in log.query(
        "SELECT seq, table_id FROM events WHERE type = 'approval_requested' AND seq > ? AND seq <= ? AND "
        "role = 'device' AND json_extract(body, '$.data.kind') = 'progressive_meter_payout' ORDER BY seq",
        (after, upto))]


def hits(log: AuditLog, requests: list[int]) -> list[HitRow]:
    """The hits of these approval requests, each with its decision, in the order reported."""
    if not requests:
        return []
    out = []
    marks = ",".join("?" * len(requests))
    for r in log.query("SELECT e.seq, e.time, e.actor, e.body, a.status, a.decided_by, a.decided_role, a.decided, "
                       "a.decision_reason, a.countersigned_by, a.countersigned_role FROM events e JOIN approvals a "
                       "ON a.request = e.seq WHERE e.seq IN "
                       f"({marks}) ORDER BY e.seq", tuple(requests)):
        d = json.loads(r["body"])["data"]
        out.append(HitRow(r["seq"], datetime.fromisoformat(r["time"]), r["actor"], d.get("seat"), d.get("cents"),
                          d.get("line", ""), d.get("reason", ""), d.get("rule", ""), d.get("role_needed", ""),
                          r["status"], r["decided_by"], r["decided_role"],
                          datetime.fromisoformat(r["decided"]) if r["decided"] else None, r["decision_reason"],
                          r["countersigned_by"], r["countersigned_role"]))
    return out


def pending(log: AuditLog, requests: list[int]) -> set[int]:
    """Those of ``requests`` still pending."""
    if not requests:
        return set()
    marks = ",".join("?" * len(requests))
    return {r["request"] for r in log.query(f"SELECT request FROM approvals WHERE status = 'pending' AND request IN "
                                            f"({marks})", tuple(requests))}


def last_seq(log: AuditLog) -> int:
    return log.query("SELECT IFNULL(MAX(seq), 0) AS seq FROM events")[0]["seq"]


def latest(log: AuditLog) -> dict[str, int]:
    """Each table's meter as last logged (any source), in cents."""
    return {r["table_id"]: r["cents"] for r in log.query(
        "SELECT table_id, cents FROM meter_readings WHERE seq IN (SELECT MAX(seq) FROM meter_readings "
        "GROUP BY table_id)")}


def hit_awaiting_reset(log: AuditLog, table: str) -> int | None:
    """The table's last progressive hit approved for payment (its request) with no reset of the
    meter logged since (000(q)(6): the casino funds the meter back after the top award)."""
    rows = log.query("SELECT request FROM approvals WHERE table_id = ? AND kind = 'progressive_meter_payout' AND "
                     "status = 'approved' AND request > IFNULL((SELECT MAX(seq) FROM meter_readings WHERE "
                     "table_id = ? AND source = 'reset'), 0) ORDER BY request DESC LIMIT 1", (table, table))
    return rows[0]["request"] if rows else None


def hits_of_round(log: AuditLog, table: str, round_no: int) -> list[dict]:
    """The progressive controller's hits at ``table`` in its round ``round_no`` that are not denied:
    request, seat, status (the rounds desk merges them with the settlement of the same hits)."""
    return log.query("SELECT a.request, a.seat, a.status FROM approvals a JOIN events e ON e.seq = a.request "
                     "WHERE a.table_id = ? AND a.kind = 'progressive_meter_payout' AND a.status != 'denied' AND "
                     "e.role = 'device' AND json_extract(e.body, '$.data.round') = ? ORDER BY a.request",
                     (table, round_no))
