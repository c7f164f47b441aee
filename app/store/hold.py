"""What the house took and paid, read from the settled rounds as logged (pure SQL).

The figures come from the ``settlements`` read model: each row holds the settlement exactly as
logged (its results and its ledger, docs/round-format.md, "The settlement printed"). A round
counts in the period of its settlement's time, ``start <= time < end`` (the log's local time).
A settlement a denial sent back (an approval of its own denied: docs/workstation.md, "Rounds")
moved no money and does not count; the round settled again does. A void round has no
settlement.

Two aggregates, both grouped by table, profile, banking mode and wager (the ledger's and the
results' ``wager`` with ``additional N`` read as ``additional`` and ``envy of seat N`` as
``envy``):
- ``house_lines``: the ledger lines to or from the house (the table inventory), by kind:
  ``commission`` (commission on a win and vigorish on a bank's surplus, 000(l)(9),
  000(m)(12)-(15)), ``fees`` (002's collection fees), ``won`` (every other line to the house),
  ``lost`` (every line from the house to a player, the tokes or the center) and ``to_meter`` (the
  house's lines to the progressive meter less the meter's to the house, 000(q)(5), (6));
- ``stakes``: the wagers' stakes by amount (wagers returned uncovered, 002, are left out).
"""

from __future__ import annotations

import sqlite3

_WAGER = ("CASE WHEN {w} LIKE 'additional %' THEN 'additional' WHEN {w} LIKE 'envy%' THEN 'envy' "
          "ELSE {w} END")

# the counted settlements: in the period, of the table, and not sent back by a denial (the
# approval requests of settlement S are the rows S+1 .. S+n, app/workstation/roundlog.py)
_COUNTED = """
WITH counted AS (
  SELECT s.seq, s.table_id, s.profile, s.banking, s.settlement FROM settlements s
  WHERE s.time >= :start AND s.time < :end AND (:table IS NULL OR s.table_id = :table)
    AND NOT EXISTS (SELECT 1 FROM approvals a WHERE a.request > s.seq AND a.request <= s.seq + s.approvals
                    AND a.table_id IS s.table_id AND a.status = 'denied'))
"""

_FAR_PAST, _FAR_FUTURE = "0000", "9999"


def _params(start: str | None, end: str | None, table: str | None) -> dict:
    return {"start": start or _FAR_PAST, "end": end or _FAR_FUTURE, "table": table}


def house_lines(conn: sqlite3.Connection, start: str | None, end: str | None, table: str | None = None) -> list[dict]:
    """Per (table_id, profile, banking, wager): commission, fees, won, lost, to_meter (cents)."""
    frm, to, cents = "json_extract(l.value, '$.from')", "json_extract(l.value, '$.to')", \
        "json_extract(l.value, '$.cents')"
    reason = "json_extract(l.value, '$.reason')"
    wager = _WAGER.format(w="json_extract(l.value, '$.wager')")
    sql = _COUNTED + f"""
SELECT c.table_id, c.profile, c.banking, {wager} AS wager,
  SUM(CASE WHEN {to} = 'house' AND ({reason} LIKE 'commission%' OR {reason} LIKE 'vigorish%')
           THEN {cents} ELSE 0 END) AS commission,
  SUM(CASE WHEN {to} = 'house' AND json_extract(l.value, '$.wager') = 'collection fee' THEN {cents} ELSE 0 END) AS fees,
  SUM(CASE WHEN {to} = 'house' AND {frm} != 'meter' AND NOT ({reason} LIKE 'commission%' OR {reason} LIKE 'vigorish%')
           AND json_extract(l.value, '$.wager') != 'collection fee' THEN {cents} ELSE 0 END) AS won,
  SUM(CASE WHEN {frm} = 'house' AND {to} != 'meter' THEN {cents} ELSE 0 END) AS lost,
  SUM(CASE WHEN {frm} = 'house' AND {to} = 'meter' THEN {cents}
           WHEN {frm} = 'meter' AND {to} = 'house' THEN -{cents} ELSE 0 END) AS to_meter
FROM counted c, json_each(c.settlement, '$.ledger') l
WHERE {frm} = 'house' OR {to} = 'house'
GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4"""
    return _rows(conn, sql, _params(start, end, table))


def stakes(conn: sqlite3.Connection, start: str | None, end: str | None, table: str | None = None) -> list[dict]:
    """Per (table_id, profile, banking, wager, stake): how many wagers of that stake (``count``)."""
    wager = _WAGER.format(w="json_extract(r.value, '$.wager')")
    sql = _COUNTED + f"""
SELECT c.table_id, c.profile, c.banking, {wager} AS wager, json_extract(r.value, '$.stake') AS stake, COUNT(*) AS count
FROM counted c, json_each(c.settlement, '$.results') r
WHERE json_extract(r.value, '$.outcome') != 'returned'
GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5"""
    return _rows(conn, sql, _params(start, end, table))


def rounds(conn: sqlite3.Connection, start: str | None, end: str | None, table: str | None = None) -> list[dict]:
    """Per table: the rounds counted, the settlements sent back (not counted), the house's net as
    the read model has it (``net_by_party.house``), the first and last settlement's time."""
    sql = _COUNTED + """
SELECT s.table_id, COUNT(c.seq) AS rounds, COUNT(*) - COUNT(c.seq) AS sent_back,
       COALESCE(SUM(CASE WHEN c.seq IS NOT NULL THEN s.house_net_cents END), 0) AS house_net,
       MIN(s.time) AS first, MAX(s.time) AS last
FROM settlements s LEFT JOIN counted c ON c.seq = s.seq
WHERE s.time >= :start AND s.time < :end AND (:table IS NULL OR s.table_id = :table)
GROUP BY 1 ORDER BY 1"""
    return _rows(conn, sql, _params(start, end, table))


def table_ids(conn: sqlite3.Connection) -> list[str]:
    """Every table configured in the log, and any table with a settlement."""
    sql = "SELECT table_id FROM tables UNION SELECT DISTINCT table_id FROM settlements WHERE table_id IS NOT NULL"
    return sorted(r[0] for r in conn.execute(sql))


def _rows(conn: sqlite3.Connection, sql: str, params: dict) -> list[dict]:
    cur = conn.execute(sql, params)
    cols = [c[0] for c in cur.description]
    return [dict(zip(cols, row)) for row in cur.fetchall()]
