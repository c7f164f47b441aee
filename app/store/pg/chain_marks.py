"""How far each chain on the casino's server was checked (issue 35, finding 1 on the server, made
incremental; PostgreSQL migration 8).

Each check that passes (``pitdesk floor verify``, or the check before ``hold --pg``) is
remembered in ``pitdesk.chain_checks``: the workstation, the last row it walked and that row's
hash. The next check before a figure (``walk_from``) starts from there: the row remembered must
still have the hash it had (a chain rewritten before it and relinked changes it), and the rows
after it are walked as ``floor verify`` walks a whole chain. The read models a figure is made from
are checked up to the row remembered against the digest remembered with it, and past it against
their events (app/store/pg/floor_money.py ``checked``).

``floor verify`` itself always walks every chain whole; only the seals (``--key``) find a chain
rewritten and relinked by someone who owns the server, as before."""

from __future__ import annotations

import psycopg

from app.store.verify import Finding


_V8 = """
CREATE TABLE pitdesk.chain_checks (
    id bigserial PRIMARY KEY,
    workstation text NOT NULL,
    seq bigint NOT NULL,          -- the chain passed the check from row 1 to this row
    hash text NOT NULL,           -- this row's hash when it passed
    since bigint NOT NULL,        -- the row the check started after (0: walked whole)
    models jsonb,                 -- per money read model, the count and sum of its rows' hashes up to seq
    login text NOT NULL DEFAULT session_user,
    at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX chain_checks_by_workstation ON pitdesk.chain_checks (workstation, id);
CREATE TRIGGER chain_checks_append_only BEFORE UPDATE OR DELETE ON pitdesk.chain_checks
    FOR EACH ROW EXECUTE FUNCTION pitdesk.append_only();
CREATE TRIGGER chain_checks_no_truncate BEFORE TRUNCATE ON pitdesk.chain_checks
    FOR EACH STATEMENT EXECUTE FUNCTION pitdesk.append_only();
REVOKE ALL ON pitdesk.chain_checks FROM PUBLIC;
GRANT SELECT, INSERT (workstation, seq, hash, since, models) ON pitdesk.chain_checks TO pitdesk_floor;
GRANT USAGE ON SEQUENCE pitdesk.chain_checks_id_seq TO pitdesk_floor;
"""


def migrate_v8(conn: psycopg.Connection) -> None:
    conn.execute(_V8)


def has_marks(conn: psycopg.Connection) -> bool:
    return conn.execute("SELECT to_regclass('pitdesk.chain_checks') IS NOT NULL").fetchone()[0]


def walk_from(conn: psycopg.Connection, ws: str) -> tuple[int, Finding | None]:
    """The row after which ``ws``'s chain is walked (0: from its start), and a finding if the row
    the last check passed no longer has the hash it had."""
    mark = conn.execute("SELECT seq, hash, at FROM pitdesk.chain_checks WHERE workstation = %s ORDER BY id DESC "
                        "LIMIT 1", (ws,)).fetchone()
    if mark is None:
        return 0, None
    seq, h, at = mark
    now = conn.execute("SELECT hash FROM pitdesk.events WHERE workstation = %s AND seq = %s", (ws, seq)).fetchone()
    if now is None or now[0] != h:
        return seq, Finding(seq, "edited", f"row {seq} is not the row the check of {at:%Y-%m-%d %H:%M:%S %Z} passed "
                                           "(its hash differs, or it is gone): the chain was changed since")
    return seq, None


def remember(url: str, passed) -> None:
    """Each chain that passed, with the sums kept of it, remembered: (workstation, last row, its
    hash, the row its walk began after, the money read models' digest up to that row). Nothing is
    remembered of a server before migration 8, or by a login that may not (the next check walks a
    little more)."""
    import json
    from .server import connect
    rows = [(ws, seq, h, since, json.dumps(models)) for ws, seq, h, since, models in passed if seq > since]
    if not rows:
        return
    with connect(url) as conn:
        if not has_marks(conn):
            return
        try:
            with conn.transaction():
                with conn.cursor() as cur:
                    cur.executemany("INSERT INTO pitdesk.chain_checks (workstation, seq, hash, since, models) "
                                    "VALUES (%s, %s, %s, %s, %s)", rows)
        except psycopg.errors.InsufficientPrivilege:
            pass


def recorded_models(conn: psycopg.Connection, ws: str, seq: int) -> tuple[dict | None, object]:
    """The digest of the money read models the check that passed at row ``seq`` remembered, and
    when it passed; (None, None) if none did."""
    row = conn.execute("SELECT models, at FROM pitdesk.chain_checks WHERE workstation = %s AND seq = %s "
                       "ORDER BY id DESC LIMIT 1", (ws, seq)).fetchone()
    return (row[0], row[1]) if row else (None, None)
