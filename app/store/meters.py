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
from datetime import datetime

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


def _meter(r: dict) -> MeterRow:
    return MeterRow(r["seq"], datetime.fromisoformat(r["time"]), r["cents"], r["source"])


def series(log: AuditLog, table: str, since: datetime | None = None, after: int = 0) -> list[MeterRow]:
    """The controller's readings of ``table`` logged after seq ``after``, at or after ``since``."""
    sql = f"SELECT seq, time, cents, source FROM meter_readings WHERE seq > ? AND table_id = ? AND {_SOURCES}"
    params: tuple = (after, table)
    if since is not None:
        sql += " AND time >= ?"
        params += (since.isoformat(),)
    return [_meter(r) for r in log.query(sql + " ORDER BY seq", params)]


def reading_at(log: AuditLog, table: str, when: datetime) -> MeterRow | None:
    """The meter as it stood at ``when``: the controller's last reading at or before it."""
    rows = log.query(f"SELECT seq, time, cents, source FROM meter_readings WHERE table_id = ? AND {_SOURCES} "
                     "AND time <= ? ORDER BY seq DESC LIMIT 1", (table, when.isoformat()))
    return _meter(rows[0]) if rows else None


def reading_before(log: AuditLog, table: str, seq: int) -> MeterRow | None:
    """The controller's last reading logged before row ``seq``."""
    rows = log.query(f"SELECT seq, time, cents, source FROM meter_readings WHERE seq < ? AND table_id = ? AND "
                     f"{_SOURCES} ORDER BY seq DESC LIMIT 1", (seq, table))
    return _meter(rows[0]) if rows else None


def resets(log: AuditLog, table: str, start: datetime | None = None, end: datetime | None = None) -> list[MeterRow]:
    """The controller's resets of the meter (000(q)(6)) in ``[start, end)``, in order."""
    sql, params = ("SELECT seq, time, cents, source FROM meter_readings WHERE table_id = ? AND source = 'reset'",
                   (table,))
    if start is not None:
        sql += " AND time >= ?"
        params += (start.isoformat(),)
    if end is not None:
        sql += " AND time < ?"
        params += (end.isoformat(),)
    return [_meter(r) for r in log.query(sql + " ORDER BY seq", params)]


def hits(log: AuditLog, table: str, since: datetime | None = None) -> list[HitRow]:
    """The hits the controller of ``table`` reported (at or after ``since``), in the order it
    reported them (000(q)(3)), each with its decision."""
    sql = ("SELECT e.seq, e.time, e.actor, e.body, a.status, a.decided_by, a.decided_role, a.decided, "
           "a.decision_reason FROM events e JOIN approvals a ON a.request = e.seq WHERE e.type = "
           "'approval_requested' AND e.table_id = ? AND e.role = 'device' AND a.kind = 'progressive_meter_payout'")
    params: tuple = (table,)
    if since is not None:
        sql += " AND e.time >= ?"
        params += (since.isoformat(),)
    out = []
    for r in log.query(sql + " ORDER BY e.seq", params):
        d = json.loads(r["body"])["data"]
        out.append(HitRow(r["seq"], datetime.fromisoformat(r["time"]), r["actor"], d.get("seat"), d.get("cents"),
                          d.get("line", ""), d.get("reason", ""), d.get("rule", ""), d.get("role_needed", ""),
                          r["status"], r["decided_by"], r["decided_role"],
                          datetime.fromisoformat(r["decided"]) if r["decided"] else None, r["decision_reason"]))
    return out


def last_seq(log: AuditLog) -> int:
    return log.query("SELECT IFNULL(MAX(seq), 0) AS seq FROM events")[0]["seq"]
