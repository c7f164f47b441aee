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
import re
import sqlite3
from datetime import datetime

from .log import AuditLog, Record

W2G_MIN_CENTS = 60_000
W2G_MIN_MULTIPLE = 300
W2G_PAYEE_FIELDS = ("name", "address", "tin", "id_type", "id_number")


class SlipError(ValueError):
    pass


def needs_w2g(win_cents: int, wager_cents: int) -> bool:
    return win_cents >= W2G_MIN_CENTS and win_cents >= W2G_MIN_MULTIPLE * wager_cents


def _next_number(conn: sqlite3.Connection, data: dict) -> None:
    data["number"] = conn.execute("SELECT IFNULL(MAX(number), 0) + 1 FROM slips").fetchone()[0]


def slip_record(now: datetime, actor: str, role: str, table: str, seat: int | None, wager: str, wager_cents: int,
                win_cents: int, payee: dict | None = None, extra: dict | None = None) -> Record:
    """The ``slip_issued`` row, checked (``SlipError`` naming the fault), numbered next in the
    writer's transaction: for callers that log a slip in one append with other rows (the
    workstation's release of a round's payouts). ``extra`` adds fields (the payout it is for, the
    void slip it replaces)."""
    for what, v in (("wager_cents", wager_cents), ("win_cents", win_cents)):
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise SlipError(f"{what} must be whole, non-negative cents, got {v!r}")
    w2g = None
    if needs_w2g(win_cents, wager_cents):
        payee = payee or {}
        missing = [f for f in W2G_PAYEE_FIELDS if not str(payee.get(f, "")).strip()]
        if missing:
            raise SlipError(f"a win of {win_cents} cents on {wager_cents} cents needs the W-2G data: missing "
                            f"{', '.join(missing)}")
        if not re.fullmatch(r"\d{3}-?\d{2}-?\d{4}|\d{2}-?\d{7}", str(payee["tin"])):
            raise SlipError(f"the taxpayer identification number must be an SSN or EIN, got {payee['tin']!r}")
        w2g = {"box1_gross_winnings_cents": win_cents, "box2_date_won": now.date().isoformat(),
               "box3_type_of_wager": f"table game: pai gow poker {wager}", "box5_transaction": f"table {table}"
               + (f" seat {seat}" if seat else ""), "box7_identical_wagers_cents": win_cents,
               "box10_window": table, "box11_first_id": f"{payee['id_type']} {payee['id_number']}",
               "box12_second_id": payee.get("second_id", ""), "wager_cents": wager_cents,
               **{f"payee_{f}": payee[f] for f in ("name", "address", "tin")}}
    return Record("slip_issued", now, actor, role, table,
                  {"seat": seat, "wager": wager, "wager_cents": wager_cents, "win_cents": win_cents, "w2g": w2g,
                   **(extra or {})}, prepare=_next_number)


class Slips:
    def __init__(self, log: AuditLog):
        self.log = log

    def issue(self, now: datetime, actor: str, role: str, table: str, seat: int | None, wager: str,
              wager_cents: int, win_cents: int, payee: dict | None = None) -> int:
        """The slip's number."""
        seq = self.log.append_many([slip_record(now, actor, role, table, seat, wager, wager_cents, win_cents,
                                                payee)])[0]
        return self.log.query("SELECT number FROM slips WHERE seq = ?", (seq,))[0]["number"]

    def void(self, number: int, reason: str, now: datetime, actor: str, role: str) -> None:
        rows = self.log.query("SELECT * FROM slips WHERE number = ?", (number,))
        if not rows:
            raise SlipError(f"no slip {number}")
        if rows[0]["status"] == "VOID":
            raise SlipError(f"slip {number} is already VOID")
        if not reason.strip():
            raise SlipError("a void slip records its reason")
        self.log.append("slip_voided", now, actor, role, rows[0]["table_id"], {"number": number, "reason": reason})

    def book(self) -> list[dict]:
        return self.log.query("SELECT * FROM slips ORDER BY number")


def slip(log: AuditLog, number: int) -> dict | None:
    """Slip ``number``'s read-model row with its ``slip_issued`` row's ``data``, or None."""
    rows = log.query("SELECT s.*, e.body FROM slips s JOIN events e ON e.seq = s.seq WHERE s.number = ?", (number,))
    if not rows:
        return None
    return {**rows[0], "data": json.loads(rows[0]["body"])["data"]}


def issued_again_as(log: AuditLog, number: int) -> int | None:
    """The slip that replaced void slip ``number``, if one was issued."""
    rows = log.query("SELECT number FROM slips s JOIN events e ON e.seq = s.seq WHERE "
                     "json_extract(e.body, '$.data.replaces') = ?", (number,))
    return rows[0]["number"] if rows else None


def book_rows(log: AuditLog, table: str | None = None) -> list[dict]:
    """The slip book in number order (of one table if given), each row with its ``data``."""
    rows = log.query("SELECT s.*, e.body FROM slips s JOIN events e ON e.seq = s.seq"
                     + (" WHERE s.table_id = ?" if table is not None else "") + " ORDER BY s.number",
                     (table,) if table is not None else ())
    return [{**r, "data": json.loads(r["body"])["data"]} for r in rows]


def last_number(conn: sqlite3.Connection, data: dict) -> None:
    """A payout row's slip (``Record.prepare``): the one issued just before it in the same
    transaction."""
    data["slip"] = conn.execute("SELECT MAX(number) FROM slips").fetchone()[0]
