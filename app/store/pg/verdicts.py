"""Whose copy differs (issue 35, findings 3 and 4): migration 4 of the casino's schema.

The server sees only that a row sent differs from the row it holds; it cannot tell which of the
two was changed. So its words are neutral now ("one of the two copies was changed"), and the
shipper, which can check its own log against the workstation's key, says whose copy it is: its
verdict is recorded beside the refusal (``refusal_verdicts``), through a function the shipping
role may call only for a refusal of its own login, once. ``floor verify`` shows it with the
refusal: a workstation whose log verifies is not called rewritten when it is the server's copy
that was edited."""

from __future__ import annotations

import psycopg

from .server import one_line

SHIP_ROLE, FLOOR_ROLE = "pitdesk_ship", "pitdesk_floor"

_REWORDED = {
    "differs from the one the server holds: the local log was rewritten":
        "differs from the row the server holds: one of the two copies was changed",
    "as the server holds it: the local log was rewritten":
        "as the server holds it: one of the two copies was changed",
}

_VERDICTS = f"""
CREATE TABLE pitdesk.refusal_verdicts (
    refusal bigint PRIMARY KEY REFERENCES pitdesk.refusals (id),
    whose text NOT NULL CHECK (whose IN ('server', 'local', 'unknown')),   -- whose copy differs, as the shipper found
    detail text NOT NULL,
    login text NOT NULL,
    at timestamptz NOT NULL DEFAULT now()
);

CREATE FUNCTION pitdesk.refusal_verdict(p_refusal bigint, p_whose text, p_detail text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pitdesk, pg_temp AS $$
BEGIN
    IF NOT EXISTS (SELECT 1 FROM refusals r WHERE r.id = p_refusal AND r.shipped_by = session_user) THEN
        RAISE EXCEPTION 'refusal % is not one of the login %', p_refusal, session_user;
    END IF;
    INSERT INTO refusal_verdicts (refusal, whose, detail, login) VALUES (p_refusal, p_whose, p_detail, session_user)
        ON CONFLICT DO NOTHING;
END $$;

CREATE TRIGGER refusal_verdicts_append_only BEFORE UPDATE OR DELETE ON pitdesk.refusal_verdicts
    FOR EACH ROW EXECUTE FUNCTION pitdesk.append_only();
CREATE TRIGGER refusal_verdicts_no_truncate BEFORE TRUNCATE ON pitdesk.refusal_verdicts
    FOR EACH STATEMENT EXECUTE FUNCTION pitdesk.append_only();

REVOKE ALL ON pitdesk.refusal_verdicts FROM PUBLIC;
REVOKE ALL ON FUNCTION pitdesk.refusal_verdict(bigint, text, text) FROM PUBLIC;
GRANT EXECUTE ON FUNCTION pitdesk.refusal_verdict(bigint, text, text) TO {SHIP_ROLE};
GRANT SELECT ON pitdesk.refusal_verdicts TO {SHIP_ROLE}, {FLOOR_ROLE};
"""


def migrate_v4(conn: psycopg.Connection, functions_sql: str) -> None:
    """The server's refusals in neutral words, and the shipper's verdict beside each."""
    start = functions_sql.index("CREATE FUNCTION pitdesk.event_arrives()")
    end = functions_sql.index("END $$;", start) + len("END $$;")
    body = functions_sql[start:end].replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION", 1)
    for old, new in _REWORDED.items():
        assert old in body, old
        body = body.replace(old, new)
    conn.execute(body)
    conn.execute(_VERDICTS)


def record(conn: psycopg.Connection, refusal_id: int, whose: str, detail: str) -> str | None:
    """The shipper's verdict on its refusal ``refusal_id``, on the server; why not, if it could not be."""
    try:
        with conn.transaction():
            if conn.execute("SELECT to_regclass('pitdesk.refusal_verdicts') IS NOT NULL").fetchone()[0]:
                conn.execute("SELECT pitdesk.refusal_verdict(%s, %s, %s)", (refusal_id, whose, detail))
                return None
            return "the server's pitdesk schema is older than migration 4: 'pitdesk floor migrate' records verdicts"
    except psycopg.Error as e:
        return one_line(e)
