"""The read models derived again from the log, and compared with the ones in the file (issue 26).

The read models (app/store/read_models.py) are what the screens, the hold and the shift report
read; a row changed in them with ``sqlite3`` changes a figure without touching the chain. So
``audit verify`` folds every row it checks into a fresh set of read models, in memory, in the
same pass, and compares them with the file's, table by table, in SQLite (``EXCEPT`` over all the
columns, both ways, in the snapshot the rows were read in). A difference is a finding naming the
table, the row's key and both values.

The derived tables live in a private shared-cache memory database that the verifying
connection attaches read-only, so the comparison sees the file in the snapshot its rows were
read in, and nothing is written beside the file.
"""

from __future__ import annotations

import sqlite3
import uuid

from .read_models import Projector
from .schema import READ_MODELS, migrate
from .verify import Finding

# each read model's key: what names a row in a finding
KEYS = {
    "tables": ("table_id",), "decks": ("table_id", "deck", "received"), "dice": ("table_id", "placed"),
    "rounds": ("table_id", "round"), "settlements": ("seq",), "meter_readings": ("seq",), "slips": ("number",),
    "approvals": ("request",), "alarms": ("seq",), "device_faults": ("seq",), "irregularities": ("table_id", "ref"),
    "users": ("name",), "device_log": ("seq",), "sign_ins": ("seq",), "hold_house": ("seq", "wager"),
    "hold_stakes": ("seq", "wager", "stake"),
}


class Derived:
    """Read models folded from the rows handed to ``fold``, in a memory database of their own."""

    def __init__(self) -> None:
        self.name = f"pitdesk-derived-{uuid.uuid4().hex}"
        self.uri = f"file:{self.name}?mode=memory&cache=shared"
        self.conn = sqlite3.connect(self.uri, uri=True, isolation_level=None, check_same_thread=False)
        self.conn.execute("PRAGMA journal_mode=OFF")
        self.conn.execute("PRAGMA synchronous=OFF")
        migrate(self.conn)
        self.projector = Projector()
        self.conn.execute("BEGIN")
        self._project = self.projector.project

    def fold(self, seq: int, b: dict) -> None:
        self._project(self.conn, seq, b["time"], b["table"], b["type"], b["actor"], b["role"], b["data"])

    def compare(self, conn: sqlite3.Connection, skipped: list[str]) -> Finding | None:
        """The first difference between the derived read models and those ``conn`` reads (the
        file, in the snapshot its rows were read in), or None. A read model the file does not
        have yet (a database from before a migration, read as it lies) is added to ``skipped``."""
        self.conn.execute("COMMIT")
        for table in READ_MODELS:
            cols = [r[1] for r in self.conn.execute(f"PRAGMA table_info({table})")]
            stored = {r[1] for r in conn.execute(f"PRAGMA main.table_info({table})")}
            if set(cols) - stored:
                skipped.append(table)
                continue
            f = _compare(conn, table, cols)
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
    stored, log = (row, dict(zip(cols, other)) if other else None) if extra is not None else \
        (dict(zip(cols, other)) if other else None, row)
    if stored is not None and log is not None:
        diff = [x for x in cols if stored[x] != log[x]]
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
