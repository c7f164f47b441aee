"""Each workstation's log as the casino's server holds it, rebuilt as a log of its own, for the
floor-wide reports: the workstation's own report code runs on it unchanged, so the floor's
figures are each pit's own, to the cent (app/workstation/floor_report.py).

A rebuilt log is an SQLite database in memory: the workstation's migrations, its rows as shipped
(the events table's own trigger checks each follows the last), its read models folded from them
(``project_all``, as a workstation rebuilds its own), its ``db_id`` the workstation's. One
workstation at a time, all from one snapshot of the server; nothing is written anywhere."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import dataclass

from app.store.read_models import project_all
from app.store.schema import migrate

from .register import names, shown
from .server import check_url, connect, schema_version, speaking, where

_ROWS = ("SELECT seq, time, table_id, type, actor, role, body, prev_hash, hash, hmac FROM pitdesk.events "
         "WHERE workstation = %s ORDER BY seq")
_INSERT = ("INSERT INTO events (seq, time, table_id, type, actor, role, body, prev_hash, hash, hmac) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")


@dataclass
class Rebuilt:
    workstation: str
    conn: sqlite3.Connection     # the log with its read models, in memory
    where: str                   # the server and the workstation, for the report's "db"
    rows: int
    name: str | None = None      # its name in the casino's register (issue 35, finding 2)


def rebuilt_logs(url: str) -> Iterator[Rebuilt]:
    """Every workstation the server holds, in the order of their ids, rebuilt one at a time
    (each closed when the next is asked for)."""
    parts = check_url(url, "--pg")
    with connect(url) as pg, speaking(parts, "read the workstations' logs"):
        schema_version(pg, parts)
        pg.commit()
        with pg.transaction():
            pg.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            known = names(pg)
            for (ws,) in pg.execute("SELECT workstation FROM pitdesk.workstations ORDER BY workstation").fetchall():
                conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
                try:
                    rows = fill(pg, conn, ws)
                    yield Rebuilt(ws, conn, f"{where(parts)} workstation {shown(ws, known.get(ws))}", rows,
                                  known.get(ws))
                finally:
                    conn.close()


def fill(pg, conn: sqlite3.Connection, ws: str) -> int:
    """Workstation ``ws``'s rows as the server holds them into the empty log ``conn``, with the
    workstation's migrations and its read models (app/store/pg/restore.py writes one to a file);
    how many rows."""
    migrate(conn)
    n = 0
    conn.execute("BEGIN")
    conn.execute("UPDATE meta SET value = ? WHERE key = 'db_id'", (ws,))
    with pg.cursor(name=f"rebuild_{abs(hash(ws))}") as cur:
        cur.itersize = 5_000
        cur.execute(_ROWS, (ws,))
        while batch := cur.fetchmany(5_000):
            conn.executemany(_INSERT, batch)
            n += len(batch)
    project_all(conn)
    conn.execute("COMMIT")
    return n
