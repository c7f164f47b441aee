"""The floor's money kept on the casino's server as rows arrive (issue 35, finding 5; PostgreSQL
migration 7): ``pitdesk hold --pg`` reads sums, not logs.

Each settlement that arrives is taken apart by the server itself, in the shipping transaction
(``pitdesk.money_arrived``, a statement trigger beside ``events_arrived`` that runs as the
schema's owner over the rows just stored): the same read models a workstation keeps of its own
log (app/store/schema.py, migration 4; app/store/hold_lines.py), one set per workstation:

- ``money_settlements``: a settlement's time, table, profile, banking mode, the house's net,
  how many approval requests it made and which earlier ones it merged;
- ``money_house``: its ledger lines to and from the house, summed by wager and kind
  (``HOLD_HOUSE_SELECT`` in PostgreSQL's words);
- ``money_stakes``: its wagers counted by wager and stake (``HOLD_STAKES_SELECT``);
- ``money_tables``, ``money_requests``, ``money_decisions``: the tables configured, the
  approval requests and their decisions (a denial sends its settlement back: it moved no money).

Only a row the server checked and stored reaches them (a transition table holds nothing
refused), and they are append-only like the events. They are a read model: ``derived`` gives the
same rows again from the events, and the check before a report compares the two
(app/store/pg/floor_verdict.py), as a workstation checks its own read models (issue 35,
finding 1). A server migrated to 7 fills them from the events it already holds."""

from __future__ import annotations

from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from datetime import datetime

import psycopg

from app.store.verify import Finding

from .register import names, shown
from .server import check_url, connect, schema_version, speaking, where


# a ledger line's or result's wager as the hold reads it (app/store/schema.py ``_WAGER``)
# (starts_with, not LIKE: these queries also run with parameters, where % is psycopg's)
_WAGER = ("CASE WHEN starts_with({w}, 'additional ') THEN 'additional' WHEN starts_with({w}, 'envy') THEN 'envy' "
          "ELSE {w} END")
_LW, _RW = "(l->>'wager')", "(r->>'wager')"
_FROM, _TO, _CENTS = "(l->>'from')", "(l->>'to')", "(l->>'cents')::bigint"
_COMMISSION = "(starts_with(l->>'reason', 'commission') OR starts_with(l->>'reason', 'vigorish'))"

# {src}: the rows to take apart (the trigger's transition table, or the events held)
_SETTLED = "(SELECT workstation, seq, time, table_id, body::jsonb->'data' AS d FROM {src} WHERE type = 'settlement') e"
SETTLEMENTS = f"""
SELECT e.workstation, e.seq, e.time, e.table_id, e.d->'settlement'->>'profile', e.d->'settlement'->>'banking',
       COALESCE((e.d->'settlement'->'net_by_party'->>'house')::bigint, 0),
       jsonb_array_length(e.d->'settlement'->'approvals'),
       ARRAY(SELECT jsonb_array_elements_text(COALESCE(e.d->'merged', '[]'::jsonb))::bigint)
  FROM {_SETTLED}"""
HOUSE = f"""
SELECT e.workstation, e.seq, {_WAGER.format(w=_LW)} AS wager,
  SUM(CASE WHEN {_TO} = 'house' AND {_COMMISSION} THEN {_CENTS} ELSE 0 END),
  SUM(CASE WHEN {_TO} = 'house' AND {_LW} = 'collection fee' THEN {_CENTS} ELSE 0 END),
  SUM(CASE WHEN {_TO} = 'house' AND {_FROM} <> 'meter' AND NOT {_COMMISSION}
           AND {_LW} <> 'collection fee' THEN {_CENTS} ELSE 0 END),
  SUM(CASE WHEN {_FROM} = 'house' AND {_TO} <> 'meter' THEN {_CENTS} ELSE 0 END),
  SUM(CASE WHEN {_FROM} = 'house' AND {_TO} = 'meter' THEN {_CENTS}
           WHEN {_FROM} = 'meter' AND {_TO} = 'house' THEN -{_CENTS} ELSE 0 END)
  FROM {_SETTLED}, jsonb_array_elements(e.d->'settlement'->'ledger') l
 WHERE {_FROM} = 'house' OR {_TO} = 'house'
 GROUP BY 1, 2, 3"""
STAKES = f"""
SELECT e.workstation, e.seq, {_WAGER.format(w=_RW)} AS wager, (r->>'stake')::bigint, count(*)
  FROM {_SETTLED}, jsonb_array_elements(e.d->'settlement'->'results') r
 WHERE (r->>'outcome') IS DISTINCT FROM 'returned'
 GROUP BY 1, 2, 3, 4"""
TABLES = ("SELECT workstation, seq, table_id, body::jsonb->'data'->>'profile' FROM {src} "
          "WHERE type = 'table_configured' AND table_id IS NOT NULL")
REQUESTS = "SELECT workstation, seq, table_id FROM {src} WHERE type = 'approval_requested'"
DECISIONS = ("SELECT workstation, seq, (body::jsonb->'data'->>'request')::bigint, body::jsonb->'data'->>'decision' "
             "FROM {src} WHERE type = 'approval_decided'")

MODELS = {   # each read model: its columns and the query that derives its rows
    "money_settlements": ("workstation, seq, time, table_id, profile, banking, house_net, approvals, merged",
                          SETTLEMENTS),
    "money_house": ("workstation, seq, wager, commission, fees, won, lost, to_meter", HOUSE),
    "money_stakes": ("workstation, seq, wager, stake, count", STAKES),
    "money_tables": ("workstation, seq, table_id, profile", TABLES),
    "money_requests": ("workstation, request, table_id", REQUESTS),
    "money_decisions": ("workstation, seq, request, decision", DECISIONS),
}

_V7 = """
CREATE TABLE pitdesk.money_settlements (
    workstation text NOT NULL, seq bigint NOT NULL, time text NOT NULL, table_id text, profile text, banking text,
    house_net bigint NOT NULL, approvals int NOT NULL, merged bigint[] NOT NULL, PRIMARY KEY (workstation, seq));
CREATE INDEX money_settlements_by_time ON pitdesk.money_settlements (time);
CREATE TABLE pitdesk.money_house (
    workstation text NOT NULL, seq bigint NOT NULL, wager text, commission bigint NOT NULL, fees bigint NOT NULL,
    won bigint NOT NULL, lost bigint NOT NULL, to_meter bigint NOT NULL);
CREATE INDEX money_house_by_seq ON pitdesk.money_house (workstation, seq);
CREATE TABLE pitdesk.money_stakes (
    workstation text NOT NULL, seq bigint NOT NULL, wager text, stake bigint, count bigint NOT NULL);
CREATE INDEX money_stakes_by_seq ON pitdesk.money_stakes (workstation, seq);
CREATE TABLE pitdesk.money_tables (
    workstation text NOT NULL, seq bigint NOT NULL, table_id text NOT NULL, profile text, PRIMARY KEY (workstation, seq));
CREATE TABLE pitdesk.money_requests (
    workstation text NOT NULL, request bigint NOT NULL, table_id text, PRIMARY KEY (workstation, request));
CREATE TABLE pitdesk.money_decisions (
    workstation text NOT NULL, seq bigint NOT NULL, request bigint, decision text, PRIMARY KEY (workstation, seq));
CREATE INDEX money_decisions_by_request ON pitdesk.money_decisions (workstation, request);
CREATE INDEX events_settlements_by_time ON pitdesk.events (time) WHERE type = 'settlement';
"""


def checked_models(pg: psycopg.Connection) -> dict[str, tuple[str, str]]:
    """Every read model the server keeps, for the checks: the hold's (migration 7), the tray's
    where migration 9 made them (app/store/pg/floor_trays.py) and the report's where migration 10
    did (app/store/pg/floor_counts.py)."""
    from . import floor_counts, floor_trays
    out = dict(MODELS)
    for more, table in ((floor_trays.MODELS, "money_tray_rounds"), (floor_counts.MODELS, "report_rows")):
        if pg.execute(f"SELECT to_regclass('pitdesk.{table}') IS NOT NULL").fetchone()[0]:
            out.update(more)
    return out


def _fill(src: str) -> str:
    return "\n".join(f"INSERT INTO pitdesk.{m} ({cols}) {sql.format(src=src)};" for m, (cols, sql) in MODELS.items())


def money_trigger(conn: psycopg.Connection, more: str = "") -> None:
    """The function the money trigger runs: the hold's read models filled from the rows a
    statement stored, and ``more`` (migration 9: the tray's, app/store/pg/floor_trays.py)."""
    conn.execute("CREATE OR REPLACE FUNCTION pitdesk.money_arrived() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER "
                 "SET search_path = pitdesk, pg_temp AS $$\nBEGIN\n" + _fill("arrived") + "\n" + more
                 + "\nRETURN NULL;\nEND $$;")


def migrate_v7(conn: psycopg.Connection) -> None:
    """The money read models, the trigger that keeps them, and the events already held taken apart."""
    conn.execute(_V7)
    conn.execute(_fill("pitdesk.events"))
    money_trigger(conn)
    conn.execute("CREATE TRIGGER money_arrived AFTER INSERT ON pitdesk.events REFERENCING NEW TABLE AS arrived "
                 "FOR EACH STATEMENT EXECUTE FUNCTION pitdesk.money_arrived()")
    from .floor_trays import read_model_grants
    read_model_grants(conn, MODELS)
    conn.execute("REVOKE ALL ON FUNCTION pitdesk.money_arrived() FROM PUBLIC")


# -- reading the sums ------------------------------------------------------------------------------
# the counted settlements (app/store/hold_lines.py ``_COUNTED``): in the period, of the table, and
# not sent back by a denial of one of their own requests or of a request they merged. The
# denials are few: they are found first, then the settlements they send back.
_PERIOD = ("s.time >= %(start)s AND s.time < %(end)s AND (%(table)s::text IS NULL OR s.table_id = %(table)s)")
_COUNTED = f"""
WITH period AS (SELECT s.* FROM pitdesk.money_settlements s WHERE {_PERIOD}),
denied AS (
  SELECT q.workstation, q.request, q.table_id FROM pitdesk.money_requests q
    JOIN LATERAL (SELECT d.decision FROM pitdesk.money_decisions d WHERE d.workstation = q.workstation
                   AND d.request = q.request ORDER BY d.seq DESC LIMIT 1) last ON last.decision = 'denied'),
sent_back AS (
  SELECT DISTINCT s.workstation, s.seq FROM period s JOIN denied q ON q.workstation = s.workstation
     AND ((q.request > s.seq AND q.table_id IS NOT DISTINCT FROM s.table_id
           AND q.request <= s.seq + s.approvals - cardinality(s.merged)) OR q.request = ANY(s.merged))),
counted AS (
  SELECT s.* FROM period s WHERE NOT EXISTS (SELECT 1 FROM sent_back b WHERE b.workstation = s.workstation
                                             AND b.seq = s.seq))
"""
_HOUSE_LINES = _COUNTED + """
SELECT c.workstation, c.table_id, c.profile, c.banking, h.wager, SUM(h.commission)::bigint AS commission, SUM(h.fees)::bigint AS fees,
       SUM(h.won)::bigint AS won, SUM(h.lost)::bigint AS lost, SUM(h.to_meter)::bigint AS to_meter
  FROM counted c JOIN pitdesk.money_house h ON h.workstation = c.workstation AND h.seq = c.seq
 GROUP BY 1, 2, 3, 4, 5"""
_STAKES = _COUNTED + """
SELECT c.workstation, c.table_id, c.profile, c.banking, h.wager, h.stake, SUM(h.count)::bigint AS count
  FROM counted c JOIN pitdesk.money_stakes h ON h.workstation = c.workstation AND h.seq = c.seq
 GROUP BY 1, 2, 3, 4, 5, 6"""
_ROUNDS = _COUNTED + """
SELECT s.workstation, s.table_id, COUNT(c.seq) AS rounds, COUNT(*) - COUNT(c.seq) AS sent_back,
       COALESCE(SUM(CASE WHEN c.seq IS NOT NULL THEN s.house_net END), 0)::bigint AS house_net,
       MIN(s.time) AS first, MAX(s.time) AS last
  FROM period s LEFT JOIN counted c ON c.workstation = s.workstation AND c.seq = s.seq
 GROUP BY 1, 2 ORDER BY 1, 2"""
_BANKING = _COUNTED + """
SELECT c.workstation, c.table_id, c.banking, COUNT(*) AS rounds, SUM(c.house_net)::bigint AS house_net
  FROM counted c GROUP BY 1, 2, 3 ORDER BY 1, 2, 3"""
_TABLE_IDS = ("SELECT workstation, table_id FROM pitdesk.money_tables UNION "
              "SELECT workstation, table_id FROM pitdesk.money_settlements WHERE table_id IS NOT NULL")

_FAR_PAST, _FAR_FUTURE = "0000", "9999"


class ServerLines:
    """One workstation's hold rows as the server sums them, in the shape app/store/hold_lines.py
    gives a workstation's own (``hold(..., lines=...)``, app/workstation/hold.py)."""

    def __init__(self, tables: list[str], stakes: list[dict], house: list[dict], rounds: list[dict]):
        self._tables, self._stakes, self._house, self._rounds = sorted(tables), stakes, house, rounds

    def table_ids(self, conn) -> list[str]:
        return self._tables

    def stakes(self, conn, start, end, table=None) -> list[dict]:
        return self._stakes

    def house_lines(self, conn, start, end, table=None) -> list[dict]:
        return self._house

    def rounds(self, conn, start, end, table=None) -> list[dict]:
        return self._rounds


def _dicts(cur) -> list[dict]:
    cols = [c.name for c in cur.description]
    return [dict(zip(cols, row)) for row in cur.fetchall()]


def _iso(t: datetime | None) -> str | None:
    return t.isoformat(timespec="seconds") if t is not None else None


def server_lines(url: str, start: datetime | None, end: datetime | None, table: str | None = None,
                 walked: tuple = ()
                 ) -> tuple[list[tuple[str, str, ServerLines, str | None]], tuple[str, Finding] | None, list[tuple]]:
    """Every workstation the server holds, in the order of their ids: (its id, where it was read,
    its hold rows over ``start <= time < end``, its registered name), read from the money read
    models; the first row where those differ (their rows up to the last check before a figure
    against the digest it remembered, ``checked_before``; the rows after it against their events,
    ``first_difference``), read in the same snapshot: the sums are checked before they are used
    (issue 35, finding 1); and the marks to remember if nothing differs. ``walked``: the chain
    check's (workstation, head seq, head hash, the row its walk began after)."""
    with snapshot(url, "read the floor's money") as (pg, parts), checked_beside(pg, url, walked) as difference:
        pits = read_lines(pg, parts, start, end, table)
    return pits, *difference.result()


@contextmanager
def snapshot(url: str, doing: str):
    """One read-only snapshot of the server that keeps the money read models: (connection, parts)."""
    parts = check_url(url, "--pg")
    with connect(url) as pg, speaking(parts, doing):
        schema_version(pg, parts)
        if not pg.execute("SELECT to_regclass('pitdesk.money_settlements') IS NOT NULL").fetchone()[0]:
            from .server import NoSchema
            raise NoSchema(f"the server at {where(parts)} keeps no money read models yet (its pitdesk schema is "
                           "older): run 'pitdesk floor migrate --pg URL' as the database's owner (docs/casino.md)")
        pg.commit()
        with pg.transaction():
            pg.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            pg.execute("SET LOCAL work_mem = '64MB'")   # the sums grouped in memory, not sorted on disk
            yield pg, parts


@contextmanager
def checked_beside(pg: psycopg.Connection, url: str, walked: tuple):
    """``checked`` of every workstation, run on a second connection in ``pg``'s snapshot (exported
    to it) while the caller reads its sums on ``pg``: the server works on both at once. Gives a
    future of ``checked``'s result, done when the block ends."""
    snap = pg.execute("SELECT pg_export_snapshot()").fetchone()[0]
    wss = [w for (w,) in pg.execute("SELECT workstation FROM pitdesk.workstations ORDER BY workstation")]

    def work():
        with connect(url) as other:
            with other.transaction():
                other.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                other.execute(f"SET TRANSACTION SNAPSHOT '{snap}'")     # before any query of its own
                other.execute("SET LOCAL work_mem = '64MB'")
                return checked(other, walked, wss)

    with ThreadPoolExecutor(1, thread_name_prefix="pitdesk-check") as pool:
        future = pool.submit(work)
        yield future
        future.result()      # its error, if any, is the caller's


def read_lines(pg: psycopg.Connection, parts: dict, start: datetime | None, end: datetime | None,
               table: str | None = None) -> list[tuple[str, str, ServerLines, str | None]]:
    """``server_lines``'s pits, read in the caller's snapshot."""
    params = {"start": _iso(start) or _FAR_PAST, "end": _iso(end) or _FAR_FUTURE, "table": table}
    known = names(pg)
    wss = [w for (w,) in pg.execute("SELECT workstation FROM pitdesk.workstations ORDER BY workstation")]
    by = defaultdict(lambda: {"tables": [], "stakes": [], "house": [], "rounds": []})
    for ws, t in pg.execute(_TABLE_IDS).fetchall():
        by[ws]["tables"].append(t)
    for key, sql in (("stakes", _STAKES), ("house", _HOUSE_LINES), ("rounds", _ROUNDS)):
        for r in _dicts(pg.execute(sql, params)):
            by[r.pop("workstation")][key].append(r)
    for rows in by.values():   # grouped by a hash, not sorted: in their order here
        for key in ("stakes", "house"):
            rows[key].sort(key=lambda r: tuple((v is None, v if v is not None else 0) for v in r.values()))
    return [(ws, f"{where(parts)} workstation {shown(ws, known.get(ws))}",
             ServerLines(by[ws]["tables"], by[ws]["stakes"], by[ws]["house"], by[ws]["rounds"]), known.get(ws))
            for ws in wss]


def checked(pg: psycopg.Connection, walked: tuple, wss: list[str]) -> tuple[tuple[str, Finding] | None, list]:
    """In the caller's snapshot: the first row where the read models differ from what was checked
    (``checked_before``) or from their events past it (``first_difference``), and the marks to
    remember if none does."""
    difference, marks, since = checked_before(pg, walked)
    return difference or first_difference(pg, {ws: since.get(ws, 0) for ws in wss}), marks


def banking(pg: psycopg.Connection, start: datetime, end: datetime) -> dict[str, dict[str, list[dict]]]:
    """Per workstation, per table, the counted settlements of the period by banking mode: rounds
    and the house's net (as app/store/shiftlog.py ``banking`` gives a workstation's own)."""
    out: dict[str, dict[str, list[dict]]] = defaultdict(dict)
    for r in _dicts(pg.execute(_BANKING, {"start": _iso(start), "end": _iso(end), "table": None})):
        out[r["workstation"]].setdefault(r["table_id"], []).append(
            {"banking": r["banking"], "rounds": r["rounds"], "house_net": r["house_net"]})
    return out


# -- the check: the read models against the events they come from ------------------------------------
_KEYS = {"money_tray_rounds": 2, "money_tray_events": 2, "report_rows": 2,
         "money_settlements": 2, "money_house": 3, "money_stakes": 4, "money_tables": 2, "money_requests": 2,
         "money_decisions": 2}     # the columns that name a row (workstation, seq, and wager, stake)


# each workstation's rows past its mark, by its key (a lateral join: the planner reads the index)
_PAST_MARK = ("(SELECT e.* FROM unnest(%(ws)s::text[], %(since)s::bigint[]) m (w, since) CROSS JOIN LATERAL "
              "(SELECT * FROM pitdesk.events e WHERE e.workstation = m.w AND e.seq > m.since OFFSET 0) e) p")


def first_difference(pg: psycopg.Connection, since: dict[str, int]) -> tuple[str, Finding] | None:
    """The first row where a money read model differs from what the events give again, for the
    rows after ``since[workstation]`` (the row the last check before a figure passed; 0: every
    row): the workstation and a finding (kind ``read model``) naming the model, the row and both
    values. Run in the caller's snapshot. Each model is derived once and compared both ways."""
    p = {"ws": list(since), "since": list(since.values())}
    # every row (the first check, floor verify): one pass over the events, not each workstation's
    # rows one by one by their key (twice as long over 1.3 million rows)
    src = _PAST_MARK if any(since.values()) else "(SELECT * FROM pitdesk.events WHERE workstation = ANY(%(ws)s::text[])) p"
    for m, (cols, sql) in checked_models(pg).items():
        names_ = [c.strip() for c in cols.split(",")]
        k = _KEYS[m]
        seq = "request" if m == "money_requests" else "seq"
        held = (f"SELECT {cols} FROM unnest(%(ws)s::text[], %(since)s::bigint[]) m (w, since) CROSS JOIN LATERAL "
                f"(SELECT * FROM pitdesk.{m} x WHERE x.workstation = m.w AND x.{seq} > m.since) x")
        key = " AND ".join(f"y.{n} IS NOT DISTINCT FROM x.{n}" for n in names_[:k])
        row = pg.execute(
            f"WITH d ({cols}) AS MATERIALIZED ({sql.format(src=src)}), h ({cols}) AS MATERIALIZED ({held}) "
            f"SELECT row_to_json(x), (SELECT row_to_json(y) FROM h y WHERE {key} LIMIT 1), true "
            "FROM (SELECT * FROM d EXCEPT ALL SELECT * FROM h) x "
            f"UNION ALL SELECT (SELECT row_to_json(y) FROM d y WHERE {key} LIMIT 1), row_to_json(x), false "
            "FROM (SELECT * FROM h EXCEPT ALL SELECT * FROM d) x LIMIT 1", p).fetchone()
        if row is not None:
            d, h = row[0], row[1]
            named = d or h
            return named["workstation"], Finding(
                named.get("seq") or named.get("request"), "read model",
                f"pitdesk.{m} ({', '.join(f'{n} {named[n]}' for n in names_[1:k])}): the server holds "
                f"{_values(h, names_[k:])}, its events give {_values(d, names_[k:])}")
    return None


# -- the sums already checked: each read model's rows up to the row remembered, digested -----------------
_NUMBERS = {"seq", "house_net", "approvals", "commission", "fees", "won", "lost", "to_meter", "stake", "count",
            "request", "tray", "replaces"}


def _digest_of(cols: str) -> str:
    """A model's rows summed column by column (a word column by its hash): a row changed, added or
    taken away changes a sum; read from the columns, not the row's text (four times faster)."""
    names_ = [c.strip() for c in cols.split(",") if c.strip() != "workstation"]
    return ", ".join(["count(x.*)::numeric"] + [f"COALESCE(sum(x.{c}), 0)::numeric" if c in _NUMBERS else
                                                 f"COALESCE(sum(hashtext(x.{c}::text)), 0)::numeric" for c in names_])


def digests(pg: psycopg.Connection, ranges: dict[str, tuple[int, int]],
            models: dict[str, tuple[str, str]]) -> dict[str, dict[str, list[int]]]:
    """Per workstation, per money read model, [rows, then each column's sum] of its rows after
    ``lo`` up to ``hi`` (``ranges[ws] = (lo, hi)``). Sums add: the digest up to a new row is the
    one up to the old, plus the rows between."""
    out = {ws: zero(models) for ws in ranges}
    p = {"ws": list(ranges), "lo": [lo for lo, _ in ranges.values()], "hi": [hi for _, hi in ranges.values()]}
    for m, (cols, _) in models.items():
        seq = "request" if m == "money_requests" else "seq"
        for ws, *sums in pg.execute(
                f"SELECT r.w, {_digest_of(cols)} "
                "FROM unnest(%(ws)s::text[], %(lo)s::bigint[], %(hi)s::bigint[]) r (w, lo, hi) CROSS JOIN LATERAL "
                f"(SELECT * FROM pitdesk.{m} x WHERE x.workstation = r.w AND x.{seq} > r.lo AND x.{seq} <= r.hi "
                "OFFSET 0) x GROUP BY 1", p).fetchall():
            out[ws][m] = [int(v) for v in sums]
    return out


def zero(models: dict[str, tuple[str, str]]) -> dict[str, list[int]]:
    """The digest of no rows: a count and a sum for each column but the workstation."""
    return {m: [0] * len(cols.split(",")) for m, (cols, _) in models.items()}


def added(a: dict[str, list[int]], b: dict[str, list[int]]) -> dict[str, list[int]]:
    return {m: [x + y for x, y in zip(a[m], b[m])] for m in b}


def checked_before(pg: psycopg.Connection, walked) -> tuple[tuple[str, Finding] | None, list[tuple], dict[str, int]]:
    """The sums of the rows a check before passed, against the digest it remembered
    (app/store/pg/chain_marks.py); the marks to remember once this check passes; and the row
    after which each workstation's sums are derived again (its mark's; 0, every row, where the
    mark has no digest of a model: one made before the model was). (The first workstation whose
    sums changed since and the finding, or None; [(workstation, head seq, head hash, since,
    digest up to the head)]; {workstation: row}.)"""
    from .chain_marks import recorded_models
    models = checked_models(pg)
    before, frm, found = {}, {}, None
    for ws, head, h, since in walked:
        was = recorded_models(pg, ws, since)[0] if since else None
        whole = was is not None and all(m in was for m in models)
        before[ws] = {m: was[m] for m in models} if whole else zero(models)
        frm[ws] = since if whole else 0
    now = digests(pg, {ws: (0, frm[ws]) for ws in frm if frm[ws]}, models)
    for ws, _, _, since in walked:
        if not frm[ws]:
            continue
        m = next((m for m in models if now[ws][m] != before[ws][m]), None)
        if m is not None:
            found = ws, Finding(since, "read model",
                                f"pitdesk.{m}: its rows of rows 1 to {since} changed since the check that passed "
                                f"there ({now[ws][m][0]:,} rows now, {before[ws][m][0]:,} then; their sums differ): "
                                "pitdesk floor verify --pg URL names the row")
            break
    delta = digests(pg, {ws: (frm[ws], head) for ws, head, _, _ in walked if head > frm[ws]}, models)
    marks = [(ws, head, h, frm[ws], added(before[ws], delta[ws])) for ws, head, h, _ in walked if head > frm[ws]]
    return found, marks, frm


def _values(row: dict | None, cols: list[str]) -> str:
    if row is None:
        return "no such row"
    return ", ".join(f"{c} {row[c]}" for c in cols) or "the row"
