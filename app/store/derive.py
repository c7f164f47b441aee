"""The read models derived again from the log, and compared with the ones in the file (issue 26).

The read models (app/store/read_models.py) are what the screens, the hold and the shift report
read; a row changed in them with ``sqlite3`` changes a figure without touching the chain. So
``audit verify`` derives them again from the rows, in the snapshot the chain is walked in, and
compares them with the file's, table by table. A difference is a finding naming the table, the
row's key and both values.

Two ways, one result: the read models whose rows are each a plain function of one event
(app/store/plain_models.py) are compared in SQL straight from the events table, both ways; the
others are folded through the projector, handed only the events it needs for them, into a
private shared-cache memory database that the verifying connection attaches read-only, and
compared with ``EXCEPT`` over all the columns, both ways. Nothing is written beside the file.
"""

from __future__ import annotations

import json
import sqlite3
import uuid

from . import plain_models
from .read_models import PROCEDURE_EVENTS, Projector
from .schema import READ_MODELS, WORDS_CHANGED, migrate
from .verify import Finding, unfoldable

# each read model's key: what names a row in a finding
KEYS = {
    "tables": ("table_id",), "decks": ("table_id", "deck", "received"), "dice": ("table_id", "placed"),
    "rounds": ("table_id", "round"), "settlements": ("seq",), "meter_readings": ("seq",), "slips": ("number",),
    "approvals": ("request",), "alarms": ("seq",), "device_faults": ("seq",), "irregularities": ("table_id", "ref"),
    "users": ("name",), "device_log": ("seq",), "sign_ins": ("seq",), "hold_house": ("seq", "wager"),
    "hold_stakes": ("seq", "wager", "stake"), "trays": ("seq",), "tray_slips": ("kind", "number"),
    "buy_ins": ("seq",), "drops": ("seq",), "tray_rounds": ("seq",),
}

# the events the projector is handed: every type it has a handler or a table's procedure for, but
# those whose only read model is plain (compared in SQL, app/store/plain_models.py)
PLAIN_ONLY = frozenset({"meter_reading", "device_fault"})
HANDLED = frozenset(n[1:] for n in dir(Projector) if n.startswith("_") and not n.startswith("__")) - \
    {"procedure", "round_logged"}
FOLDED = sorted((HANDLED | PROCEDURE_EVENTS) - PLAIN_ONLY)
# a sign-in changes only the row of a user added (``Projector._sign_in``): one by a name never
# added changes nothing and is not folded
_FOLD = (f"SELECT seq, body FROM main.events WHERE type IN ({', '.join('?' * len(FOLDED))}) AND seq > ? AND seq <= ? AND "
         "(type != 'sign_in' OR actor IN (SELECT json_extract(body, '$.data.name') FROM main.events "
         "WHERE type = 'user_added')) ORDER BY seq")


class Derived:
    """The projector's read models folded from the log (``fold``), in a memory database of their own."""

    def __init__(self, saved: bytes | None = None, projector: Projector | None = None) -> None:
        """``saved``/``projector``: a derivation kept by an earlier check (app/store/figures_cache.py),
        to be folded on from its last row."""
        self.name = f"pitdesk-derived-{uuid.uuid4().hex}"
        self.uri = f"file:{self.name}?mode=memory&cache=shared"
        self.conn = sqlite3.connect(self.uri, uri=True, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode=OFF")
        self.conn.execute("PRAGMA synchronous=OFF")
        if saved is None:
            migrate(self.conn)
        else:       # into the shared memory database the verifying connection attaches
            kept = sqlite3.connect(":memory:")
            try:
                kept.deserialize(saved)
                kept.backup(self.conn)
            finally:
                kept.close()
        self.projector = projector if projector is not None else Projector()
        self.conn.execute("BEGIN")
        self._fold = self.projector.fold

    def fold(self, conn: sqlite3.Connection, upto: int, since: int = 0) -> Finding | None:
        """Fold the rows up to ``upto`` that the projector's read models need; the first row
        that cannot be folded, or None. Its body is parsed here, not by the chain walk: a row
        whose body is not what its columns say is the walk's finding, at that row or before it."""
        for seq, body in conn.execute(_FOLD, (*FOLDED, since, upto)):
            try:
                b = json.loads(body)
                self._fold(self.conn, seq, b["time"], b["table"], b["type"], b["actor"], b["role"], b["data"])
            except (KeyError, TypeError, ValueError, AttributeError) as e:
                return unfoldable(seq, e)
        return None

    def compare(self, conn: sqlite3.Connection, skipped: list[str]) -> Finding | None:
        """The first difference between the derived read models and those ``conn`` reads (the
        file, in the snapshot its rows were read in), or None. A read model the file does not
        have yet (a database from before a migration, read as it lies) is added to ``skipped``."""
        self.conn.execute("COMMIT")
        applied = {v for (v,) in conn.execute("SELECT version FROM main._migrations")}
        # a read model whose words a later migration changed is as its own migration left it
        # (projected again only when the file is opened to be written)
        reworded = {t for v, tables in WORDS_CHANGED.items() if v not in applied for t in tables}
        for table in READ_MODELS:
            if table in reworded:
                skipped.append(table)
                continue
            plain = table in plain_models.PLAIN
            cols = plain_models.columns(table) if plain else \
                [r[1] for r in self.conn.execute(f"PRAGMA table_info({table})")]
            stored = {r[1] for r in conn.execute(f"PRAGMA main.table_info({table})")}
            if set(cols) - stored:
                skipped.append(table)
                continue
            f = _compare_plain(conn, table, cols) if plain else _compare(conn, table, cols)
            if f is not None:
                return f
        return None

    def attach(self, conn: sqlite3.Connection) -> None:
        """Attach the derived tables to ``conn`` (outside a transaction: SQLite refuses it inside)."""
        conn.execute(f"ATTACH DATABASE '{self.uri}' AS derived")

    def detach(self, conn: sqlite3.Connection) -> None:
        conn.execute("DETACH DATABASE derived")

    def close(self) -> None:
        self.conn.close()


def _q(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _compare(conn: sqlite3.Connection, table: str, cols: list[str]) -> Finding | None:
    c = ", ".join(_q(x) for x in cols)
    key = KEYS[table]
    extra = conn.execute(f"SELECT {c} FROM main.{table} EXCEPT SELECT {c} FROM derived.{table} LIMIT 1").fetchone()
    lacking = conn.execute(f"SELECT {c} FROM derived.{table} EXCEPT SELECT {c} FROM main.{table} LIMIT 1").fetchone()
    if extra is None and lacking is None:
        n_main = conn.execute(f"SELECT count(*) FROM main.{table}").fetchone()[0]
        n_log = conn.execute(f"SELECT count(*) FROM derived.{table}").fetchone()[0]
        if n_main == n_log:
            return None
        return Finding(0, "read model", f"table {table}: {n_main} rows, the log gives {n_log} (a row repeated)",
                       {"table": table, "key": None, "log": {"rows": n_log}, "stored": {"rows": n_main}})
    row = dict(zip(cols, extra if extra is not None else lacking))
    k = {x: row[x] for x in key}
    cond = " AND ".join(f"{_q(x)} IS ?" for x in key)
    other_db = "derived" if extra is not None else "main"
    other = conn.execute(f"SELECT {c} FROM {other_db}.{table} WHERE {cond} LIMIT 1", tuple(k.values())).fetchone()
    other = dict(zip(cols, other)) if other else None
    return _finding(table, k, *((row, other) if extra is not None else (other, row)))


def _compare_plain(conn: sqlite3.Connection, table: str, cols: list[str]) -> Finding | None:
    """A plain read model against the events that make it (app/store/plain_models.py): first a
    stored row that is not the one its event gives (or has no event), by seq; then an event
    whose row is missing. Each stored value is compared as the projector's INSERT would have
    stored the log's (the column's affinity applies to the expression)."""
    exprs = plain_models.expressions(table)
    types = ", ".join(f"'{t}'" for t in plain_models.types(table))
    made_by = f"e.seq = m.seq AND e.type IN ({types}) AND ({plain_models.where(table)})"
    differs = " OR ".join(f"m.{_q(c)} IS NOT {x}" for c, x in zip(cols, exprs))
    r = conn.execute(f"SELECT {', '.join('m.' + _q(c) for c in cols)}, e.seq IS NOT NULL, {', '.join(exprs)} "
                     f"FROM main.{table} m LEFT JOIN main.events e ON {made_by} "
                     f"WHERE e.seq IS NULL OR {differs} ORDER BY m.seq LIMIT 1").fetchone()
    if r is not None:
        stored, log = dict(zip(cols, r[:len(cols)])), dict(zip(cols, r[len(cols) + 1:])) if r[len(cols)] else None
        return _finding(table, {"seq": stored["seq"]}, stored, log)
    r = conn.execute(f"SELECT {', '.join(exprs)} FROM main.events e WHERE e.type IN ({types}) AND "
                     f"({plain_models.where(table)}) AND NOT EXISTS (SELECT 1 FROM main.{table} m WHERE m.seq = e.seq) "
                     "ORDER BY e.seq LIMIT 1").fetchone()
    if r is not None:
        log = dict(zip(cols, r))
        return _finding(table, {"seq": log["seq"]}, None, log)
    return None


def _finding(table: str, k: dict, stored: dict | None, log: dict | None) -> Finding:
    """A row of ``table`` keyed ``k`` as the file holds it and as the log gives it (None: not there)."""
    if stored is not None and log is not None:
        diff = [x for x in stored if stored[x] != log[x]]
        stored, log = {x: stored[x] for x in diff}, {x: log[x] for x in diff}
        what = "; ".join(f"{x} reads {stored[x]!r}, the log gives {log[x]!r}" for x in diff)
    elif stored is None:
        what = f"the row is missing; the log gives {log!r}"
    else:
        what = f"the row {stored!r} is not in the log"
    seq = k.get("seq") or k.get("request") or 0
    return Finding(int(seq) if isinstance(seq, int) else 0, "read model",
                   f"table {table}, key {', '.join(f'{x}={v!r}' for x, v in k.items())}: {what}",
                   {"table": table, "key": k, "log": log, "stored": stored})
