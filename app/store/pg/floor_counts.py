"""What the floor's shift report counts, kept on the casino's server as rows arrive (issue 35,
finding 5; PostgreSQL migration 10): its payout slips and their voids, alarms, approval requests
(aggregate-limit applications and progressive hits among them) and each pit's own shift reports
printed, for ``pitdesk report shift --pg`` to read without rebuilding a log.

One read model beside the money's (app/store/pg/floor_money.py, floor_trays.py), written by the
same statement trigger in the shipping transaction and checked with them (the digests, the rows
past the mark, ``floor verify``):

- ``report_rows``: those rows as logged (type, time, table, actor and data), a few a table shift.

And an index of each workstation's events by time, for the events of a shift and the chain's
head at its end (``shift_heads``), as a workstation reads its own (app/store/shiftlog.py
``events_in``, ``chain_head``).

What the report lists from the workstation's procedures (void rounds, irregularities, deck and
dice changes against their deadlines) is the engine's verdict replayed over every row of the
table: the server keeps no such sums, and the floor report says where each pit's own report of
the shift states them."""

from __future__ import annotations

from collections import defaultdict

import psycopg

NO_TABLE = "(no table)"     # rows logged without a table (as app/workstation/shift_figures.py ``NO_TABLE``)

_TYPES = ("slip_issued", "slip_voided", "alarm_raised", "approval_requested", "report_printed")
ROWS = ("SELECT workstation, seq, time, table_id, type, actor, body::jsonb->'data' FROM {src} WHERE type IN ("
        + ", ".join(f"'{t}'" for t in _TYPES) + ")")

MODELS = {"report_rows": ("workstation, seq, time, table_id, type, actor, data", ROWS)}

_V10 = """
CREATE TABLE pitdesk.report_rows (
    workstation text NOT NULL, seq bigint NOT NULL, time text NOT NULL, table_id text, type text NOT NULL,
    actor text NOT NULL, data jsonb NOT NULL, PRIMARY KEY (workstation, seq));
CREATE INDEX report_rows_by_time ON pitdesk.report_rows (time);
CREATE INDEX events_by_workstation_time ON pitdesk.events (workstation, time) INCLUDE (seq);
"""


def fill_sql(src: str) -> str:
    return "\n".join(f"INSERT INTO pitdesk.{m} ({cols}) {sql.format(src=src)};" for m, (cols, sql) in MODELS.items())


def migrate_v10(conn: psycopg.Connection) -> None:
    """The report's read model and the events' index, and the events already held taken apart
    (the money trigger fills it from now on: app/store/pg/pg_migrations.py)."""
    from .floor_trays import read_model_grants
    conn.execute(_V10)
    conn.execute(fill_sql("pitdesk.events"))
    read_model_grants(conn, MODELS)


# -- reading: a shift's counts --------------------------------------------------------------------
_COUNTS = """
SELECT r.workstation, COALESCE(r.table_id, %(no_table)s) AS table_id,
       count(*) FILTER (WHERE r.type = 'slip_issued') AS slips,
       count(*) FILTER (WHERE r.type = 'slip_issued' AND EXISTS (
           SELECT 1 FROM pitdesk.report_rows v WHERE v.workstation = r.workstation AND v.type = 'slip_voided'
              AND v.data->'number' = r.data->'number')) AS void_slips,
       count(*) FILTER (WHERE r.type = 'alarm_raised') AS alarms,
       count(*) FILTER (WHERE r.type = 'approval_requested') AS approvals,
       count(*) FILTER (WHERE r.type = 'approval_requested' AND r.data->>'kind' = 'aggregate_limit') AS aggregate_limits,
       count(*) FILTER (WHERE r.type = 'approval_requested' AND r.data->>'kind' = 'progressive_meter_payout') AS hits
  FROM pitdesk.report_rows r
 WHERE r.time >= %(start)s AND r.time < %(end)s AND r.type IN ('slip_issued', 'alarm_raised', 'approval_requested')
 GROUP BY 1, 2"""
COUNT_KEYS = ("slips", "void_slips", "alarms", "approvals", "aggregate_limits", "hits")

# each pit's own reports of the shift, printed (app/workstation/shift_figures.py ``printed_record``)
_OWN = """
SELECT workstation, seq, time, actor, data FROM pitdesk.report_rows
 WHERE type = 'report_printed' AND data->>'kind' = 'shift' AND COALESCE(data->>'scope', 'pit') = 'pit'
   AND data->>'shift' = %(shift)s AND data->>'date' = %(date)s ORDER BY workstation, seq"""

# each workstation's events in the shift and its chain's head at the shift's end: one pass over its
# rows before the end in the index by time
_HEADS = """
SELECT w.workstation, n.events, h.seq, h.hash FROM pitdesk.workstations w
 CROSS JOIN LATERAL (SELECT count(*) FILTER (WHERE e.time >= %(start)s) AS events, max(e.seq) AS last
                       FROM pitdesk.events e WHERE e.workstation = w.workstation AND e.time < %(end)s) n
 LEFT JOIN pitdesk.events h ON h.workstation = w.workstation AND h.seq = n.last"""


def shift_counts(pg: psycopg.Connection, start: str, end: str) -> dict[str, dict[str, dict[str, int]]]:
    """Per workstation, per table (``NO_TABLE`` for rows of none), the shift's counts
    (``COUNT_KEYS``), read in the caller's snapshot: a slip counted void whatever time its void
    was logged, as a workstation's read model says at the moment it is read."""
    out: dict[str, dict[str, dict[str, int]]] = defaultdict(dict)
    for ws, table, *n in pg.execute(_COUNTS, {"start": start, "end": end, "no_table": NO_TABLE}):
        out[ws][table] = dict(zip(COUNT_KEYS, (int(x) for x in n)))
    return out


def own_reports(pg: psycopg.Connection, shift: str, date: str) -> dict[str, list[dict]]:
    """Per workstation, its own reports of the shift printed, in the order printed: number,
    printed (the time logged), by, copy_of, interim or not (to), rounds and the chain head it printed."""
    out: dict[str, list[dict]] = defaultdict(list)
    for ws, seq, time, actor, data in pg.execute(_OWN, {"shift": shift, "date": date}):
        out[ws].append({"number": data.get("number"), "seq": seq, "printed": time, "by": actor,
                        "copy_of": data.get("copy_of"), "rounds": data.get("rounds"), "head": data.get("head"),
                        "verified": data.get("verified", True) is not False})
    return out


def shift_heads(pg: psycopg.Connection, start: str, end: str) -> dict[str, tuple[int, tuple[int, str] | None]]:
    """Per workstation: its events logged in the shift, and its chain's head at the shift's end
    (the last row logged before it: (seq, hash), None if none was)."""
    return {ws: (int(n), (seq, h) if seq is not None else None)
            for ws, n, seq, h in pg.execute(_HEADS, {"start": start, "end": end})}
