"""The logs' own read models, folded from the log beside the others (app/store/read_models.py).

``device_log``: every device fault, and every change of a device's link: a link that went offline
or failed (the device faults ``offline``, ``link`` and ``gap``), came back (the ``alarm_cleared``
of its ``*_offline`` alarm), and the table's progressive wagers closing and opening with their
controllers (the procedure event ``progressive_link``, 000(q)(2)).

``sign_ins``: who signed in, failed to, was locked out (five wrong PINs, docs/audit.md "People")
or locked and unlocked by an administrator, and signed out (and why: idle, by hand).
"""

from __future__ import annotations

import sqlite3

LINK_CODES = frozenset({"offline", "link", "gap"})     # device faults that are a change of the link
SIGN_INS = frozenset({"sign_in", "sign_in_failed", "signed_out", "user_locked", "user_unlocked"})


def project(conn: sqlite3.Connection | None, seq: int, time: str, table: str | None, type_: str, actor: str,
            role: str, data: dict) -> None:
    """Fold one logged event into the logs' read models (nothing for most events)."""
    if conn is None:
        return
    if type_ == "device_fault":
        code = data.get("code", "")
        _device(conn, seq, time, table, data.get("device", ""), data.get("serial") or actor,
                "link" if code in LINK_CODES else "fault", code, data.get("message", ""))
    elif type_ == "alarm_cleared" and str(data.get("kind", "")).endswith("_offline"):
        _device(conn, seq, time, table, data["kind"].removesuffix("_offline"), actor, "link", "online",
                data.get("how", ""))
    elif type_ == "progressive_link" and table is not None:
        online = bool(data.get("online"))
        _device(conn, seq, time, table, "progressive", actor, "link", "online" if online else "offline",
                "progressive wagers open again: every controller of the table is online" if online else
                "progressive wagers closed: a controller of the table is offline")
    elif type_ in SIGN_INS:
        name = data.get("name") or actor
        by = actor if type_ in ("user_locked", "user_unlocked") else name
        reason = data.get("reason") or ("" if type_ != "user_locked" else "locked by an administrator")
        until = data.get("locked_until") or data.get("until")
        conn.execute("INSERT INTO sign_ins (seq, time, name, role, event, reason, failures, locked_until, by_name) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (seq, time, name, role if by == name else None, type_, reason, data.get("failures"), until, by))


def _device(conn, seq, time, table, device, serial, kind, code, message) -> None:
    conn.execute("INSERT INTO device_log (seq, time, table_id, device, serial, kind, code, message) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", (seq, time, table, device, serial, kind, code, message))
