"""The logs: what each tab of the logs view reads, as plain SQL over the read models.

A tab is a read model (or the event log itself) with the fields it shows. Every read takes a
``Filter`` (the table, a time range, free text, the sort) and ``top``, the last log row the
reader has seen: rows appended after it are left out until it asks for them
(``positions``), so that a count and the pages read after it agree while the writer goes on.

Two ways to read a tab page by page:

- in its natural order (its time, newest first, or oldest first) with no free text, by
  ``LIMIT``/``OFFSET`` over the index on its time (and on its table and time): a page anywhere
  in a million rows is read in a few milliseconds, and nothing is held in memory;
- in any other order, or with free text, the order of every row is read once (``keys``: one
  sort in SQLite) and pages are read by key (``by_keys``).

Free text matches any field's words as logged (names, kinds, rules, messages, times): the
text is matched case-insensitively anywhere in the row, a space or an underscore standing for
either (``deck received`` finds ``deck_received``).
"""

from __future__ import annotations

import sqlite3
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

MAX_KEYS_PER_QUERY = 500        # SQLite's bound parameters per statement stay well under its limit


@dataclass(frozen=True)
class Field:
    name: str
    sql: str                     # an expression over the tab's source
    numeric: bool = False        # sorts as a number (money, seats, seconds)
    sort: str | None = None      # what it sorts by, when not the value with no value as the least


@dataclass(frozen=True)
class Tab:
    name: str
    title: str
    source: str                  # the FROM clause
    key: str                     # a row's stable key (a rowid)
    seq: str                     # the log row that made the row: rows after ``top`` are not yet shown
    time: str                    # what the date range filters, and the natural order
    table: str | None            # the table's id; None: the tab's rows are at no table
    fields: tuple[Field, ...]
    search: str = ""             # what free text matches; default: every field
    gapless: bool = False        # the key runs 1, 2, 3 ... (the event log): rows up to top are top

    def field(self, name: str) -> Field:
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"the {self.title} log has no column {name!r} (its columns: "
                       f"{', '.join(f.name for f in self.fields)})")

    @property
    def field_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)


def _margin(due: str, done: str) -> str:
    """Seconds from ``done`` (else now) to the deadline ``due``: negative when past it."""
    return f"CAST(ROUND((julianday({due}) - julianday(COALESCE({done}, :now))) * 86400) AS INTEGER)"


TABS: dict[str, Tab] = {t.name: t for t in (
    Tab("decks", "Deck", "decks d", "d.rowid", "d.seq", "d.received", "d.table_id", (
        Field("table", "d.table_id"),
        Field("deck", "d.deck"),
        Field("received", "d.received"),
        Field("received_by", "d.received_by"),
        Field("inspected_by", "CASE WHEN d.inspected THEN COALESCE(d.inspected_by, '') END"),
        Field("verified_by", "d.verified_by"),
        Field("in_play_since", "d.in_play_since"),
        Field("changed", "d.changed"),
        Field("changed_by", "d.changed_by"),
        Field("due", "d.due"),
        # the deadline is the engine's (deck_deadline, projected into the read model with its rule)
        Field("margin", _margin("d.due", "d.changed"), numeric=True),
        Field("rule", "d.rule"),
    )),
    Tab("dice", "Dice", "dice x", "x.rowid", "x.seq", "x.placed", "x.table_id", (
        Field("table", "x.table_id"),
        Field("placed", "x.placed"),
        Field("placed_by", "x.placed_by"),
        Field("changed", "x.removed"),
        Field("changed_by", "x.changed_by"),
        Field("due", "x.due"),
        Field("margin", _margin("x.due", "x.removed"), numeric=True),
        Field("rule", "x.rule"),
    )),
    Tab("approvals", "Approvals", "approvals a", "a.request", "a.request", "a.requested", "a.table_id", (
        Field("request", "a.request", numeric=True),
        Field("requested", "a.requested"),
        Field("table", "a.table_id"),
        Field("seat", "a.seat", numeric=True),
        Field("kind", "a.kind"),
        Field("cents", "a.cents", numeric=True),
        Field("requested_by", "a.requested_by"),
        Field("role_needed", "a.role_needed"),
        Field("reason", "a.reason"),
        Field("rule", "a.rule"),
        Field("status", "a.status"),
        Field("decided_by", "a.decided_by"),
        Field("decided_role", "a.decided_role"),
        Field("decided", "a.decided"),
        Field("decision_reason", "a.decision_reason"),
        Field("countersigned_by", "a.countersigned_by"),
        Field("countersigned_role", "a.countersigned_role"),
    )),
    Tab("alarms", "Alarms", "alarms a", "a.seq", "a.seq", "a.raised", "a.table_id", (
        Field("alarm", "a.seq", numeric=True),
        Field("raised", "a.raised"),
        Field("table", "a.table_id"),
        Field("kind", "a.kind"),
        Field("message", "a.message"),
        Field("rule", "a.rule"),
        Field("serial", "a.serial"),
        Field("cleared", "a.cleared"),
        Field("cleared_how", "a.cleared_how"),
        Field("acknowledged", "a.acknowledged"),
        Field("acknowledged_by", "a.acknowledged_by"),
        Field("acknowledged_role", "a.acknowledged_role"),
        Field("acknowledged_reason", "a.acknowledged_reason"),
        Field("countersigned_by", "a.countersigned_by"),
        Field("countersigned_role", "a.countersigned_role"),
    )),
    Tab("devices", "Devices", "device_log v", "v.seq", "v.seq", "v.time", "v.table_id", (
        Field("time", "v.time"),
        Field("table", "v.table_id"),
        Field("device", "v.device"),
        Field("serial", "v.serial"),
        Field("kind", "v.kind"),
        Field("code", "v.code"),
        Field("message", "v.message"),
    )),
    Tab("irregularities", "Irregularities", "irregularities i", "i.rowid", "i.seq", "i.time", "i.table_id", (
        Field("time", "i.time"),
        Field("table", "i.table_id"),
        Field("round", "i.round", numeric=True),
        Field("ref", "i.ref", numeric=True),
        Field("kind", "i.kind"),
        Field("reported_by", "i.reported_by"),
        Field("consequence", "i.consequence"),
        Field("rule", "i.rule"),
        Field("needs_ack", "i.needs_ack", numeric=True),
        Field("acknowledged_by", "i.acknowledged_by"),
        Field("acknowledged", "i.acknowledged"),
        Field("countersigned_by", "i.countersigned_by"),
        Field("countersigned_role", "i.countersigned_role"),
    )),
    Tab("slips", "Payout slips", "slips s", "s.number", "s.seq", "s.time", "s.table_id", (
        Field("number", "s.number", numeric=True),
        Field("time", "s.time"),
        Field("table", "s.table_id"),
        Field("seat", "s.seat", numeric=True),
        Field("wager", "s.wager"),
        Field("wager_cents", "s.wager_cents", numeric=True),
        Field("win_cents", "s.win_cents", numeric=True),
        Field("issued_by", "s.issued_by"),
        Field("w2g", "CASE WHEN s.w2g IS NULL THEN '' ELSE 'W-2G' END"),
        Field("status", "s.status"),
        Field("voided", "s.voided"),
        Field("voided_by", "s.voided_by"),
        Field("void_reason", "s.void_reason"),
        Field("issue_countersigned_by", "s.issue_countersigned_by"),
        Field("issue_countersigned_role", "s.issue_countersigned_role"),
        Field("void_countersigned_by", "s.void_countersigned_by"),
        Field("void_countersigned_role", "s.void_countersigned_role"),
    )),
    Tab("sign_ins", "Sign-ins", "sign_ins g LEFT JOIN users u ON u.name = g.name", "g.seq", "g.seq", "g.time", None, (
        Field("time", "g.time"),
        Field("name", "g.name"),
        Field("role", "COALESCE(g.role, u.role)"),
        Field("event", "g.event"),
        Field("reason", "g.reason"),
        Field("failures", "g.failures", numeric=True),
        Field("locked_until", "g.locked_until"),
        Field("by", "g.by_name"),
    )),
    # a sort by table, event, actor or role reads an index (app/store/schema.py, EVENT_SORTS)
    Tab("events", "Every event", "events e", "e.seq", "e.seq", "e.time", "e.table_id", (
        Field("seq", "e.seq", numeric=True, sort="e.seq"),
        Field("time", "e.time"),
        Field("table", "e.table_id", sort="COALESCE(e.table_id, '')"),
        Field("type", "e.type", sort="e.type"),
        Field("actor", "e.actor", sort="e.actor"),
        Field("role", "e.role", sort="e.role"),
        Field("data", "json_extract(e.body, '$.data')"),
    ), search="e.body", gapless=True),
)}


@dataclass(frozen=True)
class Filter:
    """What a tab shows: ``table`` (None: every table), ``since`` (inclusive) and ``before``
    (exclusive) as ISO times of the log, free ``text``, the ``sort`` field (None: the tab's time)
    and the direction (newest first by default)."""
    table: str | None = None
    since: str | None = None
    before: str | None = None
    text: str = ""
    sort: str | None = None
    descending: bool = True


def natural(tab: Tab, f: Filter) -> bool:
    """Read by ``LIMIT``/``OFFSET`` over the time index (no key list)."""
    return (f.sort is None or tab.field(f.sort).sql == tab.time) and not f.text.strip()


def _like(text: str) -> str:
    # '%' and the escape itself are literal; a space or '_' matches either (LIKE's one-character '_')
    words = text.strip().replace("\\", "\\\\").replace("%", "\\%")
    return "%" + "_".join(words.replace("_", " ").split(" ")) + "%"


def _where(tab: Tab, f: Filter, params: dict) -> str:
    # '+': the bound on the log row is checked, never the index chosen by (the time's and the
    # table's are the ones that read few rows)
    parts = [f"+{tab.seq} <= :top"]
    if f.table is not None:
        if tab.table is None:
            raise KeyError(f"the {tab.title} log is not kept by table")
        parts.append(f"{tab.table} = :table")
        params["table"] = f.table
    if f.since is not None:
        parts.append(f"{tab.time} >= :since")
        params["since"] = f.since
    if f.before is not None:
        parts.append(f"{tab.time} < :before")
        params["before"] = f.before
    if f.text.strip():
        hay = tab.search or " || char(31) || ".join(f"COALESCE({x.sql}, '')" for x in tab.fields)
        parts.append(f"{hay} LIKE :text ESCAPE '\\'")
        params["text"] = _like(f.text)
    return " AND ".join(parts)


def _sort_sql(tab: Tab, f: Filter) -> str:
    if f.sort is None:
        return tab.time
    fld = tab.field(f.sort)
    if fld.sql == tab.time:
        return tab.time
    if fld.sort is not None:
        return fld.sort
    # NULL sorts as the least value, in a way a comparison can say too
    return f"COALESCE({fld.sql}, {-2 ** 63 if fld.numeric else repr('')})"


def _order_terms(tab: Tab, f: Filter) -> list[str]:
    terms = [_sort_sql(tab, f), tab.time, tab.seq, tab.key]
    if terms[0] == tab.seq:       # the events by seq: in the order they were logged
        terms = [tab.seq]
    out = []
    for t in terms:   # the natural order's terms once each
        if t not in out:
            out.append(t)
    return out


def _order(tab: Tab, f: Filter) -> str:
    d = "DESC" if f.descending else "ASC"
    return ", ".join(f"{t} {d}" for t in _order_terms(tab, f))


def _select(tab: Tab) -> str:
    return ", ".join([tab.key] + [x.sql for x in tab.fields])


def _params(top: int, now: str) -> dict:
    return {"top": top, "now": now}


# -- reading ------------------------------------------------------------------------------------
def connect(path: Path | str) -> sqlite3.Connection:
    """A connection that only reads the live database (its own, beside the writer's: in WAL mode
    a reader never waits for the writer, nor the writer for it)."""
    conn = sqlite3.connect(Path(path), isolation_level=None, check_same_thread=False, timeout=30)
    conn.execute("PRAGMA query_only = ON")
    return conn


def last_seq(conn: sqlite3.Connection) -> int:
    return conn.execute("SELECT IFNULL(MAX(seq), 0) FROM events").fetchone()[0]


def tables(conn: sqlite3.Connection) -> list[str]:
    """Every table the log has configured."""
    return [r[0] for r in conn.execute("SELECT table_id FROM tables")]


def count(conn: sqlite3.Connection, tab: Tab, f: Filter, top: int, now: str) -> int:
    if tab.gapless and f.table is None and f.since is None and f.before is None and not f.text.strip():
        return top        # the log's rows are numbered 1 to top with no gap (schema: events_gapless)
    p = _params(top, now)
    return conn.execute(f"SELECT count(*) FROM {tab.source} WHERE {_where(tab, f, p)}", p).fetchone()[0]


def page(conn: sqlite3.Connection, tab: Tab, f: Filter, top: int, now: str, offset: int, limit: int) -> list[tuple]:
    """Rows ``offset`` to ``offset + limit`` in the filter's order: (key, *fields)."""
    p = _params(top, now) | {"limit": limit, "offset": offset}
    sql = (f"SELECT {_select(tab)} FROM {tab.source} WHERE {_where(tab, f, p)} ORDER BY {_order(tab, f)} "
           "LIMIT :limit OFFSET :offset")
    return conn.execute(sql, p).fetchall()


def keys(conn: sqlite3.Connection, tab: Tab, f: Filter, top: int, now: str) -> array:
    """Every row's key, in the filter's order (one sort in SQLite)."""
    p = _params(top, now)
    cur = conn.execute(f"SELECT {tab.key} FROM {tab.source} WHERE {_where(tab, f, p)} ORDER BY {_order(tab, f)}", p)
    out = array("q")
    while rows := cur.fetchmany(20_000):
        out.extend(r[0] for r in rows)
    return out


def by_keys(conn: sqlite3.Connection, tab: Tab, keys_: Sequence[int], now: str) -> dict[int, tuple]:
    """The rows of ``keys_`` as they are now: key -> (key, *fields)."""
    out: dict[int, tuple] = {}
    keys_ = list(keys_)
    for i in range(0, len(keys_), MAX_KEYS_PER_QUERY):
        chunk = keys_[i:i + MAX_KEYS_PER_QUERY]
        p = {"now": now} | {f"k{n}": k for n, k in enumerate(chunk)}
        marks = ", ".join(f":k{n}" for n in range(len(chunk)))
        for r in conn.execute(f"SELECT {_select(tab)} FROM {tab.source} WHERE {tab.key} IN ({marks})", p):
            out[r[0]] = r
    return out


def rows(conn: sqlite3.Connection, tab: Tab, f: Filter, top: int, now: str, chunk: int = 5_000) -> Iterator[list]:
    """Every row the filter shows, in its order, ``chunk`` at a time (an export)."""
    p = _params(top, now)
    cur = conn.execute(f"SELECT {_select(tab)} FROM {tab.source} WHERE {_where(tab, f, p)} ORDER BY {_order(tab, f)}",
                       p)
    while got := cur.fetchmany(chunk):
        yield got


# the rows of a tab that later events change, found from those events (rows logged after ``old``
# up to ``new``): a decision, an acknowledgement, a clearing, a void; a deck or dice changed
_CHANGED_BY_REF = {
    "approvals": ("SELECT json_extract(body, '$.data.request') FROM events WHERE type = 'approval_decided' "
                  "AND seq > :old AND seq <= :new"),
    "alarms": ("SELECT json_extract(body, '$.data.alarm') FROM events WHERE type IN ('alarm_acknowledged', "
               "'alarm_cleared') AND seq > :old AND seq <= :new"),
    "slips": ("SELECT json_extract(body, '$.data.number') FROM events WHERE type = 'slip_voided' "
              "AND seq > :old AND seq <= :new"),
    "irregularities": ("SELECT i.rowid FROM events e JOIN irregularities i ON i.table_id = e.table_id "
                       "AND i.ref = json_extract(e.body, '$.data.ref') WHERE e.type = 'acknowledged' "
                       "AND e.seq > :old AND e.seq <= :new"),
    # a deck of a table with new events, still in use or changed at the time of one of them
    "decks": ("SELECT d.rowid FROM decks d WHERE d.seq <= :old AND d.table_id IN (SELECT DISTINCT table_id FROM "
              "events WHERE seq > :old AND seq <= :new) AND (d.changed IS NULL OR d.changed >= (SELECT MIN(time) "
              "FROM events WHERE seq > :old AND seq <= :new AND table_id = d.table_id))"),
    "dice": ("SELECT x.rowid FROM dice x WHERE x.seq <= :old AND x.table_id IN (SELECT DISTINCT table_id FROM "
             "events WHERE seq > :old AND seq <= :new AND type = 'dice_placed')"),
}


def changed(conn: sqlite3.Connection, tab: Tab, old: int, new: int) -> list[int]:
    """The keys of rows logged up to ``old`` that the rows after it up to ``new`` changed (the
    event log, device faults and sign-ins are never changed)."""
    sql = _CHANGED_BY_REF.get(tab.name)
    if sql is None or new <= old:
        return []
    return sorted({r[0] for r in conn.execute(sql, {"old": old, "new": new}) if r[0] is not None})


def newer(conn: sqlite3.Connection, tab: Tab, f: Filter, top: int, new_top: int, now: str,
          most: int | None = None) -> list[tuple[int, tuple]] | None:
    """The rows logged after ``top`` up to ``new_top`` that the filter shows, each with the place it
    takes among every row up to ``new_top`` in the filter's order, the places ascending: inserted
    one after the other at their places, the rows shown are the rows the filter gives.

    In the natural order two queries over the time index place them all (the rows from the first
    new one to the last, numbered). In another order each new row is counted against every row
    (one pass for a hundred new rows): with more than ``most`` new rows, None (read it again)."""
    p = _params(new_top, now) | {"old": top}
    where = _where(tab, f, p)
    terms = _order_terms(tab, f)
    found = conn.execute(f"SELECT {_select(tab)}, {', '.join(terms)} FROM {tab.source} "
                         f"WHERE {where} AND {tab.seq} > :old ORDER BY {_order(tab, f)}", p).fetchall()
    if not found:
        return []
    if most is not None and len(found) > most and not natural(tab, f):
        return None
    width = len(tab.fields) + 1
    # the rows before a row: greater in a descending order, less in an ascending one
    before, after = (">", "<") if f.descending else ("<", ">")
    cols = f"({', '.join(terms)})"

    def marks(n: int) -> str:
        return f"({', '.join(f':v{n}_{i}' for i in range(len(terms)))})"

    def values(n: int, r: tuple) -> dict:
        return {f"v{n}_{i}": v for i, v in enumerate(r[width:])}

    if natural(tab, f):
        first, last = found[0], found[-1]
        q = p | values(0, first) | values(1, last)
        base = conn.execute(f"SELECT count(*) FROM {tab.source} WHERE {where} AND {cols} {before} {marks(0)}",
                            q).fetchone()[0]
        numbered = dict(conn.execute(
            f"SELECT {tab.key}, ROW_NUMBER() OVER (ORDER BY {_order(tab, f)}) FROM {tab.source} WHERE {where} "
            f"AND NOT {cols} {before} {marks(0)} AND NOT {cols} {after} {marks(1)}", q).fetchall())
        return [(base + numbered[r[0]] - 1, r[:width]) for r in found]
    out = []
    for i in range(0, len(found), 100):
        batch = found[i:i + 100]
        q = dict(p)
        sums = []
        for n, r in enumerate(batch):
            q |= values(n, r)
            sums.append(f"IFNULL(SUM({cols} {before} {marks(n)}), 0)")
        counts = conn.execute(f"SELECT {', '.join(sums)} FROM {tab.source} WHERE {where}", q).fetchone()
        out += [(c, r[:width]) for c, r in zip(counts, batch)]
    out.sort(key=lambda x: x[0])
    return out
