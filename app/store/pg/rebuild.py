"""A workstation's log as the casino's server holds it, rebuilt as a log of its own (``pitdesk
floor restore``, app/store/pg/restore.py): the workstation's migrations, its rows as shipped (the
events table's own trigger checks each follows the last), its read models folded from them
(``project_all``, as a workstation rebuilds its own), its ``db_id`` the workstation's.

The floor's reports do not rebuild logs: they read the sums the server keeps as rows arrive
(app/store/pg/floor_sums.py)."""

from __future__ import annotations

import sqlite3

from app.store.read_models import project_all
from app.store.schema import migrate

_ROWS = ("SELECT seq, time, table_id, type, actor, role, body, prev_hash, hash, hmac FROM pitdesk.events "
         "WHERE workstation = %s ORDER BY seq")
_INSERT = ("INSERT INTO events (seq, time, table_id, type, actor, role, body, prev_hash, hash, hmac) "
           "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")


def fill(pg, conn: sqlite3.Connection, ws: str) -> int:
    """Workstation ``ws``'s rows as the server holds them into the empty log ``conn``, with the
    workstation's migrations and its read models; how many rows."""
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
