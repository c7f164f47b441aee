"""A table's pace and turnover as logged (pure SQL, issue 36): its counted rounds with their time
and what was wagered on them, and the same summed per clock hour.

A round counts as the hold counts it (``hold_lines.COUNTED``: a settlement sent back by a denial
does not, the round settled again does; a void round has no settlement). What was wagered is the
sum of the round's stakes (``hold_stakes``: a wager returned uncovered, 002, is left out). The
seats of a round are the seats with a wager in it (a seat with several bettors counts once).

What players wagered is every result's stake but these (docs/round-format.md): a collection
fee's (its stake is the wager it is charged on, 002 COLLECTION PROCEDURES), a bank's or a
player-dealer's own result (its action is the others' wagers, 000(m)(12), 002 TYPE OF GAME) and
the dealer's wager against a player bank (the house's own, 000(m)(11)).
"""

from __future__ import annotations

import sqlite3

from .hold_lines import _params, _rows, _with

NOT_WAGERED = ("collection fee", "bank", "player-dealer", "dealer wager")
_WAGERED = "h.wager NOT IN (" + ", ".join(f"'{w}'" for w in NOT_WAGERED) + ")"

# a round's seats with a wager (not returned): the positions its results name
_SEATS = """(SELECT COUNT(DISTINCT json_extract(r.value, '$.seat')) FROM json_each(s.settlement, '$.results') r
             WHERE json_extract(r.value, '$.outcome') IS NOT 'returned'
               AND json_extract(r.value, '$.seat') > 0)"""


def rounds(conn: sqlite3.Connection, start: str | None, end: str | None, table: str | None = None) -> list[dict]:
    """Per counted round, in the log's order: ``seq``, ``table_id``, ``time``, ``wagered`` (cents)."""
    sql = _with(conn, "hold_stakes") + f"""
SELECT c.seq, c.table_id, s.time, COALESCE(SUM(h.stake * h.count), 0) AS wagered
FROM counted c JOIN settlements s ON s.seq = c.seq LEFT JOIN hold_stakes h ON h.seq = c.seq AND {_WAGERED}
GROUP BY c.seq ORDER BY c.seq"""
    return _rows(conn, sql, _params(start, end, table))


def hourly(conn: sqlite3.Connection, start: str | None, end: str | None, table: str | None = None) -> list[dict]:
    """Per table and clock hour (``hour``: 'YYYY-MM-DDTHH', the log's local time): ``rounds``,
    ``wagered`` (cents) and ``seat_rounds`` (the rounds' seats with a wager, added: divided by
    ``rounds`` it is the seats in play an average round)."""
    sql = _with(conn, "hold_stakes") + f"""
, per_round AS (
  SELECT c.seq, c.table_id, substr(s.time, 1, 13) AS hour, {_SEATS} AS seats
  FROM counted c JOIN settlements s ON s.seq = c.seq)
SELECT p.table_id, p.hour, COUNT(*) AS rounds,
       COALESCE(SUM((SELECT SUM(h.stake * h.count) FROM hold_stakes h WHERE h.seq = p.seq AND {_WAGERED})), 0) AS wagered,
       SUM(p.seats) AS seat_rounds
FROM per_round p GROUP BY 1, 2 ORDER BY 1, 2"""
    return _rows(conn, sql, _params(start, end, table))


def hours_played(conn: sqlite3.Connection, start: str, end: str) -> list[dict]:
    """Per table and clock hour, the settlements logged (sent back or not: this is the table's
    usual pace, not its money), for each table's usual pace over ``[start, end)``."""
    return _rows(conn, """
SELECT table_id, substr(time, 1, 13) AS hour, COUNT(*) AS rounds FROM settlements
WHERE time >= :start AND time < :end AND table_id IS NOT NULL GROUP BY 1, 2 ORDER BY 1, 2""",
                 {"start": start, "end": end})
