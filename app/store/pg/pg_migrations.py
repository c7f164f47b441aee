"""The casino's schema, beside the workstation's SQLite migrations (app/store/schema.py): the
events of every workstation keyed by (workstation, seq), the workstations with the head the
server holds of each, the refusals, the roles and their grants.

The server checks every row that arrives, whoever sends it (``event_arrives``, a trigger that
runs as the schema's owner): its seq follows the last row held of its workstation, its
``prev_hash`` is that row's hash, its hash is ``sha256(prev_hash + body)`` (pgcrypto's
``digest``), its body is a JSON object whose fields are its columns. A row already held and
sent again is kept once; a row that differs from the one held, or that does not follow, is not
stored: the refusal is recorded (``refusals``) and nothing more of that workstation is taken in
that transaction. A workstation is shipped by the login that shipped it first (``shipper``; the
owner may change it): another pit's login cannot append to its chain. Since migration 5 only a
workstation the casino's owner registered ships, and ``shipper`` is the login registered for it
(app/store/pg/register.py). The head moves once a
statement (``events_arrived``).

Who may do what is the grants' business, not the program's: ``pitdesk_ship`` may INSERT events
and read the heads and the refusals, and nothing else (no UPDATE, no DELETE, no reading
another workstation's events); ``pitdesk_floor`` reads everything and records the floor's
reports it prints (migration 2, app/store/pg/floor_reports.py); neither owns anything. The
events and the refusals refuse UPDATE, DELETE and TRUNCATE even from their owner (mistakes;
the chain is what stops someone who drops the triggers)."""

from __future__ import annotations

from collections.abc import Callable

import psycopg

from app.store.chain import GENESIS

from . import chain_marks, floor_counts, floor_money, floor_trays, floor_verdict, verdicts
from .server import check_url, connect, one_line, where

SHIP_ROLE, FLOOR_ROLE = "pitdesk_ship", "pitdesk_floor"

_ROLES = f"""
DO $$ BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{SHIP_ROLE}') THEN CREATE ROLE {SHIP_ROLE} NOLOGIN; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '{FLOOR_ROLE}') THEN CREATE ROLE {FLOOR_ROLE} NOLOGIN; END IF;
END $$;
"""

_TABLES = f"""
CREATE TABLE pitdesk.workstations (
    workstation text PRIMARY KEY,                  -- the workstation's log id (its SQLite meta db_id)
    head_seq bigint NOT NULL DEFAULT 0,            -- the last row held, and its hash
    head_hash text NOT NULL DEFAULT '{GENESIS}',
    shipper text NOT NULL DEFAULT session_user,   -- the login that shipped it first, the only one that may
    first_shipped timestamptz NOT NULL DEFAULT now(),
    last_shipped timestamptz,
    shipped_by text
);

CREATE TABLE pitdesk.events (
    workstation text NOT NULL REFERENCES pitdesk.workstations,
    seq bigint NOT NULL CHECK (seq > 0),
    time text NOT NULL,
    table_id text,
    type text NOT NULL,
    actor text NOT NULL,
    role text NOT NULL,
    body text NOT NULL,
    prev_hash text NOT NULL,
    hash text NOT NULL,
    hmac text NOT NULL,
    shipped timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (workstation, seq)
);

CREATE TABLE pitdesk.refusals (
    id bigserial PRIMARY KEY,
    workstation text NOT NULL,
    seq bigint NOT NULL,                 -- the row that was refused
    reason text NOT NULL,
    head_seq bigint NOT NULL,            -- the row the server holds that it should have followed
    head_hash text NOT NULL,
    offered_prev_hash text NOT NULL,
    offered_hash text NOT NULL,
    shipped_by text NOT NULL,
    at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX refusals_by_workstation ON pitdesk.refusals (workstation, id);
"""

# a body that is not JSON must be refused, not stop the statement (PostgreSQL 15 has no IS JSON)
_FUNCTIONS = r"""
CREATE FUNCTION pitdesk.json_object_or_null(t text) RETURNS jsonb LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE j jsonb;
BEGIN
    j := t::jsonb;
    RETURN CASE WHEN jsonb_typeof(j) = 'object' THEN j END;
EXCEPTION WHEN data_exception THEN
    RETURN NULL;
END $$;

-- the first column that is not what the sealed body says (app/store/verify.py's order), or NULL
CREATE FUNCTION pitdesk.column_differs(b jsonb, seq bigint, "time" text, table_id text, type text, actor text,
                                       role text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT CASE WHEN b->'seq' IS DISTINCT FROM to_jsonb(seq) THEN 'seq'
                WHEN b->'time' IS DISTINCT FROM to_jsonb("time") THEN 'time'
                WHEN b->'table' IS DISTINCT FROM COALESCE(to_jsonb(table_id), 'null'::jsonb) THEN 'table'
                WHEN b->'type' IS DISTINCT FROM to_jsonb(type) THEN 'type'
                WHEN b->'actor' IS DISTINCT FROM to_jsonb(actor) THEN 'actor'
                WHEN b->'role' IS DISTINCT FROM to_jsonb(role) THEN 'role' END
$$;

CREATE FUNCTION pitdesk.row_hash(prev_hash text, body text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT encode({crypto}.digest(convert_to(prev_hash || body, 'UTF8'), 'sha256'), 'hex')
$$;

-- every row that arrives, before it is stored: kept, kept once, or refused and recorded.
-- pitdesk.arrived (for this transaction): 'WORKSTATION HEAD SEQ HASH', the head the server held
-- when the transaction first took the workstation's head row, and the last row linked since;
-- or 'WORKSTATION refused'
CREATE FUNCTION pitdesk.event_arrives() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pitdesk, pg_temp AS $$
DECLARE
    c text[] := string_to_array(current_setting('pitdesk.arrived', true), ' ');
    h_seq bigint; h_hash text; p_seq bigint; p_hash text; same boolean; b jsonb; col text; why text; owner text;
BEGIN
    IF c[1] = NEW.workstation AND c[2] = 'refused' THEN
        RETURN NULL;  -- refused once in this transaction: nothing more of it
    END IF;
    IF c[1] = NEW.workstation AND NEW.seq = c[3]::bigint + 1 AND NEW.seq > c[2]::bigint THEN
        h_seq := c[2]::bigint; p_seq := c[3]::bigint; p_hash := c[4];
    ELSE
        INSERT INTO workstations (workstation) VALUES (NEW.workstation) ON CONFLICT DO NOTHING;
        -- the head row locked: two shippers of one workstation take turns
        SELECT w.head_seq, w.head_hash, w.shipper INTO h_seq, h_hash, owner FROM workstations w
         WHERE w.workstation = NEW.workstation FOR UPDATE;
        p_seq := h_seq; p_hash := h_hash;
        IF owner <> session_user THEN
            -- one login a workstation: another pit's login cannot append to its chain
            why := format('workstation %s is shipped by the login %s, not %s', NEW.workstation, owner, session_user);
        ELSIF NEW.seq <= h_seq THEN
            -- the whole row, not only its hash: an edited column or seal is a rewrite too
            SELECT (e.time, e.table_id, e.type, e.actor, e.role, e.body, e.prev_hash, e.hash, e.hmac)
                   IS NOT DISTINCT FROM (NEW.time, NEW.table_id, NEW.type, NEW.actor, NEW.role, NEW.body,
                                         NEW.prev_hash, NEW.hash, NEW.hmac)
              INTO same FROM events e WHERE e.workstation = NEW.workstation AND e.seq = NEW.seq;
            IF same THEN
                PERFORM set_config('pitdesk.arrived', concat_ws(' ', NEW.workstation, h_seq, NEW.seq, NEW.hash), true);
                RETURN NULL;  -- held already: sent again, kept once
            END IF;
            why := format('row %s differs from the one the server holds: the local log was rewritten', NEW.seq);
        END IF;
    END IF;
    IF why IS NULL THEN
        IF NEW.seq <> p_seq + 1 THEN
            why := format('row %s does not follow row %s, the last the server holds: rows between are missing',
                          NEW.seq, p_seq);
        ELSIF NEW.prev_hash <> p_hash THEN
            why := format('row %s does not link to row %s as the server holds it: the local log was rewritten',
                          NEW.seq, p_seq);
        ELSIF row_hash(NEW.prev_hash, NEW.body) <> NEW.hash THEN
            why := format('row %s: its hash is not sha256(prev_hash + body): the body was edited', NEW.seq);
        ELSE
            b := json_object_or_null(NEW.body);
            IF b IS NULL THEN
                why := format('row %s: the body is not a JSON object', NEW.seq);
            ELSE
                col := column_differs(b, NEW.seq, NEW.time, NEW.table_id, NEW.type, NEW.actor, NEW.role);
                IF col IS NOT NULL THEN
                    why := format('row %s: column %s differs from the sealed body', NEW.seq, col);
                END IF;
            END IF;
        END IF;
    END IF;
    IF why IS NOT NULL THEN
        IF NEW.seq <= h_seq THEN p_seq := h_seq; p_hash := h_hash; END IF;
        INSERT INTO refusals (workstation, seq, reason, head_seq, head_hash, offered_prev_hash, offered_hash, shipped_by)
        VALUES (NEW.workstation, NEW.seq, why, p_seq, p_hash, NEW.prev_hash, NEW.hash, session_user);
        PERFORM set_config('pitdesk.arrived', NEW.workstation || ' refused', true);
        RETURN NULL;
    END IF;
    PERFORM set_config('pitdesk.arrived', concat_ws(' ', NEW.workstation, h_seq, NEW.seq, NEW.hash), true);
    NEW.shipped := now();
    RETURN NEW;
END $$;

-- the head of each workstation a statement stored rows of, once a statement
CREATE FUNCTION pitdesk.events_arrived() RETURNS trigger LANGUAGE plpgsql SECURITY DEFINER
SET search_path = pitdesk, pg_temp AS $$
BEGIN
    UPDATE workstations w SET head_seq = a.seq, head_hash = a.hash, last_shipped = now(), shipped_by = session_user
      FROM (SELECT DISTINCT ON (workstation) workstation, seq, hash FROM arrived
             ORDER BY workstation, seq DESC) a
     WHERE w.workstation = a.workstation AND a.seq > w.head_seq;
    RETURN NULL;
END $$;

CREATE FUNCTION pitdesk.append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'pitdesk.%: rows are never changed or removed (the casino''s copy is append-only)', TG_TABLE_NAME;
END $$;

CREATE FUNCTION pitdesk.head_forward() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'UPDATE' OR NEW.workstation <> OLD.workstation OR NEW.head_seq < OLD.head_seq THEN
        RAISE EXCEPTION 'pitdesk.workstations: a head only moves forward, and a workstation is never removed';
    END IF;
    RETURN NEW;
END $$;

CREATE TRIGGER event_arrives BEFORE INSERT ON pitdesk.events FOR EACH ROW EXECUTE FUNCTION pitdesk.event_arrives();
CREATE TRIGGER events_arrived AFTER INSERT ON pitdesk.events REFERENCING NEW TABLE AS arrived
    FOR EACH STATEMENT EXECUTE FUNCTION pitdesk.events_arrived();
CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON pitdesk.events
    FOR EACH ROW EXECUTE FUNCTION pitdesk.append_only();
CREATE TRIGGER events_no_truncate BEFORE TRUNCATE ON pitdesk.events
    FOR EACH STATEMENT EXECUTE FUNCTION pitdesk.append_only();
CREATE TRIGGER refusals_append_only BEFORE UPDATE OR DELETE ON pitdesk.refusals
    FOR EACH ROW EXECUTE FUNCTION pitdesk.append_only();
CREATE TRIGGER refusals_no_truncate BEFORE TRUNCATE ON pitdesk.refusals
    FOR EACH STATEMENT EXECUTE FUNCTION pitdesk.append_only();
CREATE TRIGGER workstations_forward BEFORE UPDATE OR DELETE ON pitdesk.workstations
    FOR EACH ROW EXECUTE FUNCTION pitdesk.head_forward();
CREATE TRIGGER workstations_no_truncate BEFORE TRUNCATE ON pitdesk.workstations
    FOR EACH STATEMENT EXECUTE FUNCTION pitdesk.append_only();
"""

_GRANTS = f"""
REVOKE ALL ON ALL TABLES IN SCHEMA pitdesk FROM PUBLIC;
REVOKE ALL ON FUNCTION pitdesk.event_arrives(), pitdesk.events_arrived(), pitdesk.append_only(),
    pitdesk.head_forward() FROM PUBLIC;
GRANT USAGE ON SCHEMA pitdesk TO {SHIP_ROLE}, {FLOOR_ROLE};
GRANT INSERT ON pitdesk.events TO {SHIP_ROLE};
GRANT SELECT ON pitdesk.workstations, pitdesk.refusals, pitdesk.migrations TO {SHIP_ROLE};
GRANT SELECT ON ALL TABLES IN SCHEMA pitdesk TO {FLOOR_ROLE};
"""

def _v1_floor_log(conn: psycopg.Connection) -> None:
    conn.execute(_ROLES)
    # pgcrypto's digest, wherever the casino has it (a schema of its own for us if it has none yet)
    conn.execute("CREATE EXTENSION IF NOT EXISTS pgcrypto WITH SCHEMA pitdesk")
    crypto = conn.execute("SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace "
                          "WHERE e.extname = 'pgcrypto'").fetchone()[0]
    conn.execute(_TABLES)
    conn.execute(_FUNCTIONS.replace("{crypto}", f'"{crypto}"'))
    conn.execute(_GRANTS)


_FLOOR_REPORTS = f"""
CREATE TABLE pitdesk.floor_reports (
    number bigint PRIMARY KEY CHECK (number > 0),    -- the floor report's own number, one series a server
    status text NOT NULL CHECK (status IN ('printed', 'failed')),
    shift text NOT NULL,
    day date NOT NULL,                               -- the day the shift starts on
    copy boolean NOT NULL,                           -- a reprint (migration 3: copy_of says of which)
    interim boolean NOT NULL,                        -- made before the shift's end
    "where" text NOT NULL,                           -- the file or the printer
    made_by text NOT NULL,                           -- the person (system user at host) who ran it
    printed_at timestamp NOT NULL,                   -- the time printed on it (the floor's clock)
    pages int,
    heads jsonb NOT NULL,                            -- each workstation's chain head at the shift's end
    pdf_sha256 text,                                 -- the file's sha256 (a file; not a print)
    why text,                                        -- why it was not made (failed)
    login text NOT NULL,                             -- set by the server: who signed in to record it
    logged timestamptz NOT NULL                      -- set by the server
);

CREATE FUNCTION pitdesk.floor_report_stamped() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    NEW.login := session_user;
    NEW.logged := now();
    RETURN NEW;
END $$;

CREATE TRIGGER floor_report_stamped BEFORE INSERT ON pitdesk.floor_reports
    FOR EACH ROW EXECUTE FUNCTION pitdesk.floor_report_stamped();
CREATE TRIGGER floor_reports_append_only BEFORE UPDATE OR DELETE ON pitdesk.floor_reports
    FOR EACH ROW EXECUTE FUNCTION pitdesk.append_only();
CREATE TRIGGER floor_reports_no_truncate BEFORE TRUNCATE ON pitdesk.floor_reports
    FOR EACH STATEMENT EXECUTE FUNCTION pitdesk.append_only();

REVOKE ALL ON pitdesk.floor_reports FROM PUBLIC;
REVOKE ALL ON FUNCTION pitdesk.floor_report_stamped() FROM PUBLIC;
GRANT SELECT, INSERT ON pitdesk.floor_reports TO {FLOOR_ROLE};
"""


def _v2_floor_reports(conn: psycopg.Connection) -> None:
    """The floor's shift reports, numbered by the server: each printed or failed one recorded
    (``pitdesk report shift --pg --out/--print``), as a workstation logs its own."""
    conn.execute(_FLOOR_REPORTS)


def _v3_floor_report_digests(conn: psycopg.Connection) -> None:
    """Issue 33: each floor report recorded with the digest of what it says, and a COPY with the
    number of the report first printed with the same content: a report of the same shift that
    says anything else is an original (app/store/pg/floor_reports.py). Those recorded before have
    no digest: none of them is the same as a report printed now."""
    conn.execute("ALTER TABLE pitdesk.floor_reports ADD COLUMN digest text, "
                 "ADD COLUMN copy_of bigint REFERENCES pitdesk.floor_reports (number)")
    conn.execute("COMMENT ON COLUMN pitdesk.floor_reports.digest IS 'sha256 of the report''s content: figures, "
                 "rows and every workstation''s chain head'")


def _v5_register(conn: psycopg.Connection) -> None:
    """Issue 35, finding 2: the register of the casino's workstations (app/store/pg/register.py)."""
    from .register import v5_register
    v5_register(conn)


def _v9_trays(conn: psycopg.Connection) -> None:
    """Issue 35, finding 5: the tray's read models, filled by the money trigger beside the hold's."""
    floor_trays.migrate_v9(conn)
    floor_money.money_trigger(conn, floor_trays.fill_sql("arrived"))


def _v10_counts(conn: psycopg.Connection) -> None:
    """Issue 35, finding 5: what the floor's shift report counts, filled by the money trigger too."""
    floor_counts.migrate_v10(conn)
    conn.execute(floor_trays.V10_INDEXES)
    floor_money.money_trigger(conn, floor_trays.fill_sql("arrived") + "\n" + floor_counts.fill_sql("arrived"))


MIGRATIONS: list[tuple[int, str, Callable[[psycopg.Connection], None]]] = [
    (1, "floor log", _v1_floor_log),
    (2, "floor reports", _v2_floor_reports),
    (3, "floor report digests", _v3_floor_report_digests),
    (4, "refusal verdicts", lambda conn: verdicts.migrate_v4(conn, _FUNCTIONS)),   # issue 35 (app/store/pg/verdicts.py)
    (5, "workstation register", _v5_register),
    (6, "floor report verdicts", lambda conn: floor_verdict.migrate_v6(conn)),    # issue 35 (app/store/pg/floor_verdict.py)
    (7, "money read models", lambda conn: floor_money.migrate_v7(conn)),          # issue 35 (app/store/pg/floor_money.py)
    (8, "chain checks", lambda conn: chain_marks.migrate_v8(conn)),               # issue 35 (app/store/pg/chain_marks.py)
    (9, "tray read models", lambda conn: _v9_trays(conn)),                        # issue 35 (app/store/pg/floor_trays.py)
    (10, "report read models", lambda conn: _v10_counts(conn)),                   # issue 35 (app/store/pg/floor_counts.py)
]


class MigrationError(RuntimeError):
    """A migration the server refused (the role may not create the schema or the roles)."""


def migrate(url: str) -> dict:
    """Apply the migrations not yet applied, each in its own transaction, as the role of ``url``
    (the database's owner, who may create roles: docs/casino.md). Two at once apply each once."""
    parts = check_url(url, "--pg")
    applied = []
    with connect(url) as conn:
        try:
            encoding = conn.execute("SHOW server_encoding").fetchone()[0]
            if encoding.upper() not in ("UTF8", "UTF-8"):
                # a body is hashed as UTF-8 text (app/store/chain.py): the server must hold it as such
                raise MigrationError(f"the database at {where(parts)} is in {encoding}; pitdesk needs UTF8 "
                                     "(CREATE DATABASE ... ENCODING 'UTF8')")
            with conn.transaction():
                conn.execute("CREATE SCHEMA IF NOT EXISTS pitdesk")
                conn.execute("CREATE TABLE IF NOT EXISTS pitdesk.migrations (version int PRIMARY KEY, "
                             "name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())")
            for version, name, step in MIGRATIONS:
                with conn.transaction():
                    conn.execute("SELECT pg_advisory_xact_lock(hashtextextended('pitdesk migrate', 0))")
                    if conn.execute("SELECT 1 FROM pitdesk.migrations WHERE version = %s", (version,)).fetchone():
                        continue
                    step(conn)
                    conn.execute("INSERT INTO pitdesk.migrations (version, name) VALUES (%s, %s)", (version, name))
                    applied.append(version)
        except psycopg.Error as e:
            raise MigrationError(f"the server at {where(parts)} refused the pitdesk schema: {one_line(e)}") from None
    return {"applied": applied, "version": max(v for v, _, _ in MIGRATIONS), "server": where(parts)}
