"""Approval requests and decisions.

Requests come from the engine (a settlement's approvals: progressive meter payouts, payoffs at
or above the profile's threshold, aggregate-limit applications) and from the floor (re-cuts,
irregularities, bank eligibility decided by the supervisor, meter resets). A decision needs a
signed-in session of at least the role the request names: a pit manager's request is refused
to a floor supervisor, and a dealer (or an administrator, who runs the system, not the game)
can never approve.
"""

from __future__ import annotations

from datetime import datetime

from app.engine.roles import APPROVER_LEVEL

from .log import AuditLog, Record, where
from .users import Session

KINDS = {
    # kind: (the role it needs unless the request says more, the rule behind it)
    "progressive_meter_payout": ("floor supervisor", "000(q)(3)(iii)"),
    "payoff_threshold": ("floor supervisor", "003 Clearing the Layout 1a"),
    "aggregate_limit": ("pit manager", "000(s)(3); 003 Aggregate Limit"),
    "recut": ("floor supervisor", "000(f)(6)"),
    "irregularity": ("floor supervisor", "000(n)"),
    "bank_eligibility": ("floor supervisor", "003 PLAYER BANK 3"),
    "meter_reset": ("pit manager", "000(q)(6)"),
}
DECISIONS = ("approved", "denied")


class ApprovalError(ValueError):
    pass


def request_record(kind: str, now: datetime, actor: str, role: str, table: str | None = None,
                   seat: int | None = None, cents: int | None = None, role_needed: str | None = None,
                   reason: str = "", rule: str | None = None, line: str = "") -> Record:
    """The ``approval_requested`` row, checked; for callers that log it in a batch with others.
    ``line``: a progressive hit's pay-table line as the controller named it (kept in the row)."""
    if kind not in KINDS:
        raise ApprovalError(f"unknown approval kind {kind!r}; kinds are {', '.join(KINDS)}")
    need = role_needed or KINDS[kind][0]
    if need not in APPROVER_LEVEL:
        raise ApprovalError(f"an approval is given by a floor supervisor or a pit manager, not a {need}")
    if cents is not None and (not isinstance(cents, int) or isinstance(cents, bool)):
        raise ApprovalError(f"an amount is whole cents, got {cents!r}")
    data = {"kind": kind, "seat": seat, "cents": cents, "role_needed": need, "reason": reason,
            "rule": rule or KINDS[kind][1]}
    if line:
        data["line"] = line
    return Record("approval_requested", now, actor, role, table, data)


class Approvals:
    def __init__(self, log: AuditLog):
        self.log = log

    def request(self, kind: str, now: datetime, actor: str, role: str, table: str | None = None,
                seat: int | None = None, cents: int | None = None, role_needed: str | None = None,
                reason: str = "", rule: str | None = None) -> int:
        return self.log.append_many([request_record(kind, now, actor, role, table, seat, cents, role_needed,
                                                    reason, rule)])[0]

    def pending(self, table: str | None = None) -> list[dict]:
        if table is None:
            return self.log.query("SELECT * FROM approvals WHERE status = 'pending' ORDER BY request")
        return self.log.query("SELECT * FROM approvals WHERE status = 'pending' AND table_id = ? ORDER BY request",
                              (table,))

    def decide(self, by: Session, request: int, decision: str, reason: str, now: datetime) -> int:
        rows = self.log.query("SELECT * FROM approvals WHERE request = ?", (request,))
        if not rows:
            raise ApprovalError(f"no approval request {request}")
        req = rows[0]
        if req["status"] != "pending":
            raise ApprovalError(f"request {request} was already {req['status']} by {req['decided_by']}")
        if decision not in DECISIONS:
            raise ApprovalError(f"a decision is 'approved' or 'denied', got {decision!r}")
        if not reason.strip():
            raise ApprovalError("a decision records its reason")
        level = APPROVER_LEVEL.get(by.role)
        if level is None:
            article = "an" if by.role[0] in "aeiou" else "a"
            raise ApprovalError(f"{article} {by.role} can never approve; {req['kind']} needs a {req['role_needed']}")
        if level < APPROVER_LEVEL[req["role_needed"]]:
            raise ApprovalError(f"request {request} ({req['kind']}) needs a {req['role_needed']}; {by.name} is a "
                                f"{by.role}")
        return self.log.append("approval_decided", now, by.name, by.role, req["table_id"],
                               {"request": request, "decision": decision, "reason": reason})


def listing(log: AuditLog, pending_only: bool = True, table: str | None = None) -> list[dict]:
    """Approval requests, oldest first (the queue): pending only unless ``pending_only`` is False."""
    sql, params = where(("status = 'pending'", ()) if pending_only else None,
                        ("table_id = ?", (table,)) if table is not None else None)
    return log.query(f"SELECT * FROM approvals{sql} ORDER BY request", params)


def request_row(log: AuditLog, request: int) -> dict | None:
    """The request's read-model row, or None."""
    rows = log.query("SELECT * FROM approvals WHERE request = ?", (request,))
    return rows[0] if rows else None


def pending_counts(log: AuditLog) -> dict[str | None, int]:
    """Requests waiting for a decision, per table."""
    return {r["table_id"]: r["n"] for r in log.query(
        "SELECT table_id, count(*) AS n FROM approvals WHERE status = 'pending' GROUP BY table_id")}
