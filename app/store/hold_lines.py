"""What the house took and paid, read from the settled rounds as logged (pure SQL).

The figures come from the ``settlements`` read model (each row holds the settlement exactly as
logged: its results and its ledger, docs/round-format.md, "The settlement printed") and from
the two read models migration 4 takes out of it once, when it is logged (app/store/schema.py):
``hold_house`` (a settlement's ledger lines to and from the house, summed by wager and kind) and
``hold_stakes`` (its wagers counted by wager and stake). A round
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

from .schema import HOLD_HOUSE_SELECT, HOLD_STAKES_SELECT

# the counted settlements: in the period, of the table, and not sent back by a denial (the
# approval requests of settlement S are the rows S+1 .. S+n, and those it merged with a request
# logged before it, app/store/settled_rounds.py)
COUNTED = """
WITH counted AS (
  SELECT s.seq, s.table_id, s.profile, s.banking FROM settlements s
  WHERE s.time >= :start AND s.time < :end AND (:table IS NULL OR s.table_id = :table)
    AND NOT EXISTS (SELECT 1 FROM approvals a WHERE a.request > s.seq AND a.table_id IS s.table_id
                    AND a.request <= s.seq + s.approvals - (SELECT count(*) FROM events e,
                        json_each(json_extract(e.body, '$.data.merged')) WHERE e.seq = s.seq)
                    AND a.status = 'denied')
    AND NOT EXISTS (SELECT 1 FROM events e, json_each(json_extract(e.body, '$.data.merged')) m, approvals a
                    WHERE e.seq = s.seq AND a.request = m.value AND a.status = 'denied'))
"""

_FAR_PAST, _FAR_FUTURE = "0000", "9999"

# a log read as it lies, made before migration 4 (an auditor's copy; reading never migrates):
# the same rows, taken out of the settlements' JSON at the read, as the migration takes them
_ALL = {"seq": "s.seq", "source": "settlements s,", "settlement": "s.settlement", "group": "s.seq, "}
_DERIVED = {
    "hold_house": "hold_house(seq, wager, commission, fees, won, lost, to_meter) AS ("
                  + HOLD_HOUSE_SELECT.format(**_ALL) + ")",
    "hold_stakes": "hold_stakes(seq, wager, stake, count) AS (" + HOLD_STAKES_SELECT.format(**_ALL) + ")",
}


def _with(conn: sqlite3.Connection, model: str) -> str:
    """The counted settlements, and ``model`` derived in the query where the log has no table of it."""
    if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (model,)).fetchone():
        return COUNTED
    return COUNTED.rstrip() + ",\n" + _DERIVED[model] + "\n"


def _params(start: str | None, end: str | None, table: str | None) -> dict:
    return {"start": start or _FAR_PAST, "end": end or _FAR_FUTURE, "table": table}


def house_lines(conn: sqlite3.Connection, start: str | None, end: str | None, table: str | None = None) -> list[dict]:
    """Per (table_id, profile, banking, wager): commission, fees, won, lost, to_meter (cents)."""
    sql = _with(conn, "hold_house") + """
SELECT c.table_id, c.profile, c.banking, h.wager, SUM(h.commission) AS commission, SUM(h.fees) AS fees,
       SUM(h.won) AS won, SUM(h.lost) AS lost, SUM(h.to_meter) AS to_meter
FROM counted c JOIN hold_house h ON h.seq = c.seq
GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4"""
    return _rows(conn, sql, _params(start, end, table))


def stakes(conn: sqlite3.Connection, start: str | None, end: str | None, table: str | None = None) -> list[dict]:
    """Per (table_id, profile, banking, wager, stake): how many wagers of that stake (``count``)."""
    sql = _with(conn, "hold_stakes") + """
SELECT c.table_id, c.profile, c.banking, h.wager, h.stake, SUM(h.count) AS count
FROM counted c JOIN hold_stakes h ON h.seq = c.seq
GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5"""
    return _rows(conn, sql, _params(start, end, table))


def rounds(conn: sqlite3.Connection, start: str | None, end: str | None, table: str | None = None) -> list[dict]:
    """Per table: the rounds counted, the settlements sent back (not counted), the house's net as
    the read model has it (``net_by_party.house``), the first and last settlement's time."""
    sql = COUNTED + """
SELECT s.table_id, COUNT(c.seq) AS rounds, COUNT(*) - COUNT(c.seq) AS sent_back,
       COALESCE(SUM(CASE WHEN c.seq IS NOT NULL THEN s.house_net_cents END), 0) AS house_net,
       MIN(s.time) AS first, MAX(s.time) AS last
FROM settlements s LEFT JOIN counted c ON c.seq = s.seq
WHERE s.time >= :start AND s.time < :end AND (:table IS NULL OR s.table_id = :table)
GROUP BY 1 ORDER BY 1"""
    return _rows(conn, sql, _params(start, end, table))


def lines_hit(conn: sqlite3.Connection, start: str | None, end: str | None, table: str | None = None) -> list[dict]:
    """Per (table_id, profile, wager, line): how many of the counted settlements' wagers won on
    that pay-table line (a result's ``line``: Fortune, the bonuses, the progressive), for the
    count of top awards against their expectation (issue 36, app/workstation/protection.py)."""
    sql = COUNTED + """
SELECT c.table_id, c.profile, json_extract(r.value, '$.wager') AS wager, json_extract(r.value, '$.line') AS line,
       COUNT(*) AS hits
FROM counted c JOIN settlements s ON s.seq = c.seq, json_each(s.settlement, '$.results') r
WHERE json_extract(r.value, '$.line') IS NOT NULL AND json_extract(r.value, '$.outcome') = 'win'
GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4"""
    return _rows(conn, sql, _params(start, end, table))


def base_rounds(conn: sqlite3.Connection, start: str | None, end: str | None) -> list[dict]:
    """Per counted settlement: its table, profile, banking and its base wagers as (seat, stake)
    pairs (a returned one left out), for the seats' covariance against the one banker's hand
    (issue 36, app/workstation/protection.py)."""
    sql = COUNTED + """
SELECT c.table_id, c.profile, c.banking, c.seq,
       json_group_array(json_array(json_extract(r.value, '$.seat'), json_extract(r.value, '$.stake'))) AS wagers
FROM counted c JOIN settlements s ON s.seq = c.seq, json_each(s.settlement, '$.results') r
WHERE json_extract(r.value, '$.wager') = 'base' AND json_extract(r.value, '$.outcome') IS NOT 'returned'
GROUP BY c.seq ORDER BY c.seq"""
    return _rows(conn, sql, _params(start, end, None))


def table_ids(conn: sqlite3.Connection) -> list[str]:
    """Every table configured in the log, and any table with a settlement."""
    sql = "SELECT table_id FROM tables UNION SELECT DISTINCT table_id FROM settlements WHERE table_id IS NOT NULL"
    return sorted(r[0] for r in conn.execute(sql))


def _rows(conn: sqlite3.Connection, sql: str, params: dict) -> list[dict]:
    cur = conn.execute(sql, params)
    cols = [c[0] for c in cur.description]
    return [dict(zip(cols, row)) for row in cur.fetchall()]
