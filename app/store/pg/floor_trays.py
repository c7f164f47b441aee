"""The pits' money kept on the casino's server as rows arrive (issue 35, finding 5; PostgreSQL
migration 9): each table shift's opener, fills, credits, buy-ins, rounds, closer and drop, for
the floor's shift report to read without rebuilding a log.

Two read models beside the hold's (app/store/pg/floor_money.py), written by the same statement
trigger in the shipping transaction:

- ``money_tray_rounds``: each settlement's flow through the tray, its house net and what it left
  for the meter (app/engine/inventory.py ``tray_change``, ``house_net``, ``to_meter``), and the
  settlement it replaced (a round sent back by a denial and settled again);
- ``money_tray_events``: the money's own rows as logged (openers, closers, fill and credit slips
  and their signatures and voids, buy-ins, drops) and the approval requests and decisions of the
  slips: a few rows a table shift.

``tray_money`` folds the second through the workstation's own projector handlers
(app/store/tray_models.py) into the workstation's own tables in memory, sums the first per table
shift in SQL, and gives each table shift's money by the workstation's own ``trays.shift_money``:
each pit's is its own report's, to the cent."""

from __future__ import annotations

import json
import sqlite3
from collections import defaultdict
from datetime import datetime

import psycopg

from app.engine.inventory import ShiftMoney, sum_money
from app.store import trays
from app.store.schema import MONEY_EVENTS, TRAY_TABLES, migrate
from app.store.tray_models import TrayProjections

_EVENTS = ", ".join(f"'{t}'" for t in MONEY_EVENTS)
_LF, _LT, _LC = "(l->>'from')", "(l->>'to')", "(l->>'cents')::bigint"

# {src}: the rows to take apart (the trigger's transition table, or the events held)
TRAY_ROUNDS = f"""
SELECT e.workstation, e.seq, e.table_id,
  COALESCE(SUM(CASE WHEN {_LT} = 'house' AND {_LF} <> 'meter' THEN {_LC}
                    WHEN {_LF} = 'house' AND {_LT} <> 'meter' THEN -{_LC} ELSE 0 END), 0)::bigint,
  COALESCE((e.d->'settlement'->'net_by_party'->>'house')::bigint, 0),
  COALESCE(SUM(CASE WHEN {_LF} = 'house' AND {_LT} = 'meter' THEN {_LC}
                    WHEN {_LF} = 'meter' AND {_LT} = 'house' THEN -{_LC} ELSE 0 END), 0)::bigint,
  (e.d->>'replaces')::bigint
  FROM (SELECT workstation, seq, table_id, body::jsonb->'data' AS d FROM {{src}} WHERE type = 'settlement') e
  LEFT JOIN LATERAL jsonb_array_elements(e.d->'settlement'->'ledger') l ON true
 GROUP BY e.workstation, e.seq, e.table_id, e.d"""
TRAY_EVENTS = (f"SELECT workstation, seq, time, table_id, type, actor, role, body::jsonb->'data' FROM {{src}} "
               f"WHERE type IN ({_EVENTS}) OR (type = 'approval_requested' AND body::jsonb->'data' ? 'slip')")
# a decision of a slip's request (its request arrived before it, or in the same statement: the
# requests are stored first)
TRAY_DECISIONS = ("SELECT s.workstation, s.seq, s.time, s.table_id, s.type, s.actor, s.role, s.body::jsonb->'data' "
                  "FROM (SELECT * FROM {src}) s WHERE s.type = 'approval_decided' AND EXISTS (SELECT 1 FROM pitdesk.events q "
                  "WHERE q.workstation = s.workstation AND q.seq = (s.body::jsonb->'data'->>'request')::bigint "
                  "AND q.type = 'approval_requested' AND q.body::jsonb->'data' ? 'slip')")

MODELS = {   # each read model: its columns and the query that derives its rows (as floor_money.MODELS)
    "money_tray_rounds": ("workstation, seq, table_id, tray, house_net, to_meter, replaces", TRAY_ROUNDS),
    "money_tray_events": ("workstation, seq, time, table_id, type, actor, role, data",
                          TRAY_EVENTS + " UNION ALL " + TRAY_DECISIONS),
}
STEPS = [("money_tray_rounds", TRAY_ROUNDS), ("money_tray_events", TRAY_EVENTS), ("money_tray_events", TRAY_DECISIONS)]

_V9 = """
CREATE TABLE pitdesk.money_tray_rounds (
    workstation text NOT NULL, seq bigint NOT NULL, table_id text, tray bigint NOT NULL, house_net bigint NOT NULL,
    to_meter bigint NOT NULL, replaces bigint, PRIMARY KEY (workstation, seq));
CREATE TABLE pitdesk.money_tray_events (
    workstation text NOT NULL, seq bigint NOT NULL, time text NOT NULL, table_id text, type text NOT NULL,
    actor text NOT NULL, role text NOT NULL, data jsonb NOT NULL, PRIMARY KEY (workstation, seq));
"""


def fill_sql(src: str) -> str:
    return "\n".join(f"INSERT INTO pitdesk.{m} ({MODELS[m][0]}) {sql.format(src=src)};" for m, sql in STEPS)


def migrate_v9(conn: psycopg.Connection) -> None:
    """The tray's read models, and the events already held taken apart (the money trigger fills
    them from now on: app/store/pg/pg_migrations.py gives it ``fill_sql("arrived")``)."""
    conn.execute(_V9)
    conn.execute(fill_sql("pitdesk.events"))
    read_model_grants(conn, MODELS)


def read_model_grants(conn: psycopg.Connection, models) -> None:
    """The server's read models as its events are: append-only (UPDATE, DELETE and TRUNCATE
    refused, even from their owner while the triggers are on), read by the floor role only."""
    for m in models:
        conn.execute(f"CREATE TRIGGER {m}_append_only BEFORE UPDATE OR DELETE ON pitdesk.{m} "
                     "FOR EACH ROW EXECUTE FUNCTION pitdesk.append_only()")
        conn.execute(f"CREATE TRIGGER {m}_no_truncate BEFORE TRUNCATE ON pitdesk.{m} "
                     "FOR EACH STATEMENT EXECUTE FUNCTION pitdesk.append_only()")
        conn.execute(f"REVOKE ALL ON pitdesk.{m} FROM PUBLIC")
        conn.execute(f"GRANT SELECT ON pitdesk.{m} TO pitdesk_floor")


# -- reading: each table shift's money ---------------------------------------------------------------
# each settlement's table shift: the table's last opener before it not closed before it (as the
# workstation's ``open_shift`` finds it when the settlement is folded), summed for the table shifts
# opened in the period only: the settlements after the first of them, each finding its opener by
# the openers' index (migration 10), not every settlement against every opener
_ROUNDS_BY_OPENER = """
WITH period AS (
  SELECT workstation, seq FROM pitdesk.money_tray_events
   WHERE type = 'tray_opener' AND time >= %(start)s AND time < %(end)s),
firsts AS (SELECT workstation, min(seq) AS first FROM period GROUP BY 1),
by_opener AS (
  SELECT r.workstation, op.seq AS opener, count(*) AS n, sum(r.tray)::bigint AS tray,
         sum(r.house_net)::bigint AS net, sum(r.to_meter)::bigint AS meter
    FROM firsts f JOIN pitdesk.money_tray_rounds r ON r.workstation = f.workstation AND r.seq > f.first
    CROSS JOIN LATERAL (
      SELECT o.seq FROM pitdesk.money_tray_events o
       WHERE o.workstation = r.workstation AND o.type = 'tray_opener' AND o.table_id = r.table_id
         AND o.seq < r.seq AND NOT EXISTS (
           SELECT 1 FROM pitdesk.money_tray_events c WHERE c.workstation = o.workstation AND c.type = 'tray_closer'
              AND (c.data->>'opener')::bigint = o.seq AND c.seq < r.seq)
       ORDER BY o.seq DESC LIMIT 1) op
   WHERE NOT EXISTS (SELECT 1 FROM pitdesk.money_tray_rounds x WHERE x.workstation = r.workstation
                        AND x.replaces = r.seq)
   GROUP BY 1, 2)
SELECT b.* FROM by_opener b JOIN period p ON p.workstation = b.workstation AND p.seq = b.opener"""

# the indexes the sums above read by (migration 10)
V10_INDEXES = """
CREATE INDEX money_tray_events_openers ON pitdesk.money_tray_events (workstation, table_id, seq)
    WHERE type = 'tray_opener';
CREATE INDEX money_tray_events_closers ON pitdesk.money_tray_events (workstation, ((data->>'opener')::bigint), seq)
    WHERE type = 'tray_closer';
CREATE INDEX money_tray_rounds_replaced ON pitdesk.money_tray_rounds (workstation, replaces)
    WHERE replaces IS NOT NULL;
"""


class _Fold(TrayProjections):
    """The workstation's own handlers of the money's rows, over an in-memory copy of its tables."""


def tray_money(pg: psycopg.Connection, start: datetime, end: datetime) -> dict[str, dict[str, ShiftMoney]]:
    """Per workstation, per table, the money of its table shifts opened from ``start`` to before
    ``end``, added (as a workstation's shift report states each table's): read in the caller's
    snapshot."""
    s, e = start.isoformat(timespec="seconds"), end.isoformat(timespec="seconds")
    rounds = {(ws, o): (n, tray, net, meter)
              for ws, o, n, tray, net, meter in pg.execute(_ROUNDS_BY_OPENER, {"start": s, "end": e})}
    rows = defaultdict(list)
    for r in pg.execute("SELECT workstation, seq, time, table_id, type, actor, role, data FROM pitdesk.money_tray_events "
                        "ORDER BY workstation, seq"):
        rows[r[0]].append(r[1:])
    out: dict[str, dict[str, ShiftMoney]] = {}
    conn = _tables()
    try:
        for ws, events in rows.items():
            for t in TRAY_TABLES:
                conn.execute(f"DELETE FROM {t}")
            fold = _Fold()
            for seq, time, table, type_, actor, role, data in events:
                data = data if isinstance(data, dict) else json.loads(data)
                if type_ == "approval_requested":
                    fold.slip_requested(conn, seq, data)
                elif type_ == "approval_decided":
                    fold.slip_decided(conn, time, actor, role, data)
                else:
                    getattr(fold, "_" + type_)(conn, seq, time, table, actor, role, data)
            per_table: dict[str, list[ShiftMoney]] = {}
            for o in trays.shifts_opened(conn, s, e):
                per_table.setdefault(o["table_id"], []).append(
                    trays.shift_money(conn, o["seq"], rounds.get((ws, o["seq"]), (0, 0, 0, 0))))
            if per_table:
                out[ws] = {t: sum_money(m) for t, m in per_table.items()}
    finally:
        conn.close()
    return out


def _tables() -> sqlite3.Connection:
    """An empty workstation log in memory, for its tray tables (the workstation's own schema)."""
    conn = sqlite3.connect(":memory:", isolation_level=None)
    migrate(conn)
    return conn
