"""Payout slips: numbered in sequence inside the writer's transaction, never reused; a void
slip stays in the book marked VOID.

A table-game win of $600 or more that is at least 300 times the wager carries the W-2G data
(IRS Form W-2G, box 1 gross winnings, box 2 date won, box 3 type of wager, box 5 transaction,
box 7 winnings from identical wagers, box 10 window, box 11 and 12 first and second ID, and
the winner's name, address and taxpayer identification number); such a slip is refused until
they are given.
"""

from __future__ import annotations

import json
from datetime import datetime

from . import rows
from .log import AuditLog
from .rows import W2G_MIN_CENTS, W2G_MIN_MULTIPLE, W2G_PAYEE_FIELDS, SlipError, needs_w2g

__all__ = ["W2G_MIN_CENTS", "W2G_MIN_MULTIPLE", "W2G_PAYEE_FIELDS", "SlipError", "Slips", "book_rows",
           "issued_again_as", "needs_w2g", "slip"]


class Slips:
    def __init__(self, log: AuditLog):
        self.log = log

    def issue(self, now: datetime, actor: str, role: str, table: str, seat: int | None, wager: str,
              wager_cents: int, win_cents: int, payee: dict | None = None) -> int:
        """The slip's number."""
        seq = self.log.append_many([rows.slip_issued(now, actor, role, table, seat, wager, wager_cents, win_cents,
                                                     payee)])[0]
        return self.log.query("SELECT number FROM slips WHERE seq = ?", (seq,))[0]["number"]

    def void(self, number: int, reason: str, now: datetime, actor: str, role: str,
             countersigned: tuple[str, str] | None = None) -> None:
        """``countersigned``: the (name, role) whose PIN authorised the void at ``actor``'s session."""
        found = self.log.query("SELECT * FROM slips WHERE number = ?", (number,))
        if not found:
            raise SlipError(f"no slip {number}")
        if found[0]["status"] == "VOID":
            raise SlipError(f"slip {number} is already VOID")
        self.log.append_many(rows.countersigned([rows.slip_voided(now, actor, role, found[0]["table_id"], number,
                                                                  reason)], countersigned))

    def book(self) -> list[dict]:
        return self.log.query("SELECT * FROM slips ORDER BY number")


def slip(log: AuditLog, number: int) -> dict | None:
    """Slip ``number``'s read-model row with its ``slip_issued`` row's ``data``, or None."""
    found = log.query("SELECT s.*, e.body FROM slips s JOIN events e ON e.seq = s.seq WHERE s.number = ?", (number,))
    if not found:
        return None
    return {**found[0], "data": json.loads(found[0]["body"])["data"]}


def issued_again_as(log: AuditLog, number: int) -> int | None:
    """The slip that replaced void slip ``number``, if one was issued."""
    found = log.query("SELECT number FROM slips s JOIN events e ON e.seq = s.seq WHERE "
                      "json_extract(e.body, '$.data.replaces') = ?", (number,))
    return found[0]["number"] if found else None


def book_rows(log: AuditLog, table: str | None = None) -> list[dict]:
    """The slip book in number order (of one table if given), each row with its ``data``."""
    found = log.query("SELECT s.*, e.body FROM slips s JOIN events e ON e.seq = s.seq"
                      + (" WHERE s.table_id = ?" if table is not None else "") + " ORDER BY s.number",
                      (table,) if table is not None else ())
    return [{**r, "data": json.loads(r["body"])["data"]} for r in found]

