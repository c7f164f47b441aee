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

from . import rows
from .log import AuditLog, where
from .rows import DECISIONS, KINDS, ApprovalError
from .users import Session

__all__ = ["DECISIONS", "KINDS", "ApprovalError", "Approvals", "listing", "pending_counts", "request_row"]


class Approvals:
    def __init__(self, log: AuditLog):
        self.log = log

    def request(self, kind: str, now: datetime, actor: str, role: str, table: str | None = None,
                seat: int | None = None, cents: int | None = None, role_needed: str | None = None,
                reason: str = "", rule: str | None = None) -> int:
        return self.log.append_many([rows.approval_requested(now, actor, role, table, kind, seat, cents, role_needed,
                                                             reason, rule)])[0]

    def pending(self, table: str | None = None) -> list[dict]:
        if table is None:
            return self.log.query("SELECT * FROM approvals WHERE status = 'pending' ORDER BY request")
        return self.log.query("SELECT * FROM approvals WHERE status = 'pending' AND table_id = ? ORDER BY request",
                              (table,))

    def decide(self, by: Session, request: int, decision: str, reason: str, now: datetime,
               countersigned: Session | None = None) -> int:
        """``by`` decides ``request``; ``countersigned``: a second person whose PIN authorises it at
        ``by``'s session (a pit manager's request decided at a floor supervisor's): both may
        approve, and one of them has the role the request needs. The row names both."""
        req = request_row(self.log, request)
        if req is None:
            raise ApprovalError(f"no approval request {request}")
        if req["status"] != "pending":
            raise ApprovalError(f"request {request} was already {req['status']} by {req['decided_by']}")
        record = rows.approval_decided(now, by.name, by.role, req["table_id"], request, decision, reason,
                                       (countersigned.name, countersigned.role) if countersigned else None)
        signers = [by] + ([countersigned] if countersigned is not None else [])
        for s in signers:
            if s.role not in APPROVER_LEVEL:
                article = "an" if s.role[0] in "aeiou" else "a"
                raise ApprovalError(f"{article} {s.role} can never approve; {req['kind']} needs a {req['role_needed']}")
        if max(APPROVER_LEVEL[s.role] for s in signers) < APPROVER_LEVEL[req["role_needed"]]:
            raise ApprovalError(f"request {request} ({req['kind']}) needs a {req['role_needed']}; "
                                + " and ".join(f"{s.name} is a {s.role}" for s in signers))
        return self.log.append_many([record])[0]


def listing(log: AuditLog, pending_only: bool = True, table: str | None = None) -> list[dict]:
    """Approval requests, oldest first (the queue): pending only unless ``pending_only`` is False."""
    sql, params = where(("status = 'pending'", ()) if pending_only else None,
                        ("table_id = ?", (table,)) if table is not None else None)
    return log.query(f"SELECT * FROM approvals{sql} ORDER BY request", params)


def request_row(log: AuditLog, request: int) -> dict | None:
    """The request's read-model row, or None."""
    found = log.query("SELECT * FROM approvals WHERE request = ?", (request,))
    return found[0] if found else None


def pending_counts(log: AuditLog) -> dict[str | None, int]:
    """Requests waiting for a decision, per table."""
    return {r["table_id"]: r["n"] for r in log.query(
        "SELECT table_id, count(*) AS n FROM approvals WHERE status = 'pending' GROUP BY table_id")}
