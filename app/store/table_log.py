"""One table's rows as logged: who sat where, this round's irregularities, the cards read in the
round in progress, and the table's history a page at a time (newest first)."""

from __future__ import annotations

from .log import AuditLog, Logged, logged

_ROW = "SELECT seq, time, table_id, type, actor, role, body FROM events"


def seatings(log: AuditLog, table: str, limit: int = 200) -> list[Logged]:
    """The table's last ``player_seated`` rows, newest first."""
    return [logged(*r) for r in log.rows(
        f"{_ROW} WHERE table_id = ? AND type = 'player_seated' ORDER BY seq DESC LIMIT ?", (table, limit))]


def irregularities(log: AuditLog, table: str, round_no: int) -> list[dict]:
    """The irregularities read model's rows of the table's round ``round_no``, by ref."""
    return log.query("SELECT * FROM irregularities WHERE table_id = ? AND round = ? ORDER BY ref", (table, round_no))


def cards_this_round(log: AuditLog, table: str) -> list[Logged]:
    """The ``hand_read`` and ``hand_corrected`` rows logged since the table's round began (its
    last ``no_more_bets`` or ``settlement``), in order."""
    start = log.query("SELECT IFNULL(MAX(seq), 0) AS s FROM events WHERE table_id = ? AND type IN "
                      "('no_more_bets', 'settlement')", (table,))[0]["s"]
    return [logged(*r) for r in log.rows(
        f"{_ROW} WHERE table_id = ? AND seq > ? AND type IN ('hand_read', 'hand_corrected') ORDER BY seq",
        (table, start))]


def history(log: AuditLog, table: str, before: int | None, limit: int) -> list[Logged]:
    """Up to ``limit`` of the table's rows before seq ``before``, newest first."""
    return [logged(*r) for r in log.rows(
        f"{_ROW} WHERE table_id = ? AND seq < ? ORDER BY seq DESC LIMIT ?",
        (table, before if before is not None else 2 ** 62, limit))]
