"""The casino's register of its workstations (issue 35, finding 2; PostgreSQL migration 5).

A workstation ships only once the casino's owner has registered it: ``pitdesk floor register
--pg URL --workstation ID --name "Pit 3" --login pit3``. The register is ``pitdesk.workstations``
itself, one row a workstation: its ``name`` and the one login that may ship it (``shipper``,
the column that already said which login shipped it first: one source of truth). A row with
no name is not registered. The server's check of every row that arrives (``event_arrives``)
refuses, and records in ``pitdesk.refusals``, a row of a workstation not registered or from
another login. Every registration, and every change of a name or login, is kept in
``pitdesk.registrations`` (append-only).

A server migrated to 5 with workstations already shipping registers each of them as it is:
its name its id, its login the one that shipped it, so nothing stops; the owner names them
afterwards."""

from __future__ import annotations

import re

import psycopg

from app.store import chain

from .server import check_url, connect, schema_version, speaking, where

NAME_MAX = 64
_LOGIN = re.compile(r"[A-Za-z_][A-Za-z0-9_$.-]{0,62}")

# the trigger's register check, replacing migration 1's "INSERT ... ON CONFLICT DO NOTHING"
_REGISTER = r"""
ALTER TABLE pitdesk.workstations ADD COLUMN name text, ADD COLUMN registered timestamptz;
ALTER TABLE pitdesk.workstations ALTER COLUMN shipper DROP DEFAULT;
COMMENT ON COLUMN pitdesk.workstations.name IS 'the name the floor knows it by; NULL: not registered';
COMMENT ON COLUMN pitdesk.workstations.shipper IS 'the one login registered to ship it';
UPDATE pitdesk.workstations SET name = workstation, registered = now();

CREATE TABLE pitdesk.registrations (
    id bigserial PRIMARY KEY,
    workstation text NOT NULL,
    name text NOT NULL,
    login text NOT NULL,
    registered_by text NOT NULL DEFAULT session_user,
    at timestamptz NOT NULL DEFAULT now()
);
INSERT INTO pitdesk.registrations (workstation, name, login, registered_by)
    SELECT workstation, name, shipper, 'migration 5' FROM pitdesk.workstations ORDER BY first_shipped;
CREATE TRIGGER registrations_append_only BEFORE UPDATE OR DELETE ON pitdesk.registrations
    FOR EACH ROW EXECUTE FUNCTION pitdesk.append_only();
CREATE TRIGGER registrations_no_truncate BEFORE TRUNCATE ON pitdesk.registrations
    FOR EACH STATEMENT EXECUTE FUNCTION pitdesk.append_only();
REVOKE ALL ON pitdesk.registrations FROM PUBLIC;
GRANT SELECT ON pitdesk.registrations TO pitdesk_floor;
"""

_OLD_TAKE = ("INSERT INTO workstations (workstation) VALUES (NEW.workstation) ON CONFLICT DO NOTHING;\n"
             "        -- the head row locked: two shippers of one workstation take turns\n"
             "        SELECT w.head_seq, w.head_hash, w.shipper INTO h_seq, h_hash, owner FROM workstations w\n"
             "         WHERE w.workstation = NEW.workstation FOR UPDATE;\n"
             "        p_seq := h_seq; p_hash := h_hash;\n"
             "        IF owner <> session_user THEN\n"
             "            -- one login a workstation: another pit's login cannot append to its chain\n"
             "            why := format('workstation %s is shipped by the login %s, not %s', NEW.workstation, owner, session_user);\n")
_NEW_TAKE = ("-- the head row locked: two shippers of one workstation take turns\n"
             "        SELECT w.head_seq, w.head_hash, w.shipper, w.name INTO h_seq, h_hash, owner, wname FROM workstations w\n"
             "         WHERE w.workstation = NEW.workstation FOR UPDATE;\n"
             "        h_seq := COALESCE(h_seq, 0); h_hash := COALESCE(h_hash, '" + chain.GENESIS + "');\n"
             "        p_seq := h_seq; p_hash := h_hash;\n"
             "        IF wname IS NULL THEN\n"
             "            -- only the casino's own workstations: the owner registers each (issue 35, finding 2)\n"
             "            why := format('workstation %s is not registered on this server: the casino''s owner registers it '\n"
             "                          'with pitdesk floor register --pg URL --workstation %s --name NAME --login %s',\n"
             "                          NEW.workstation, NEW.workstation, session_user);\n"
             "        ELSIF owner <> session_user THEN\n"
             "            -- one login a workstation: another pit's login cannot append to its chain\n"
             "            why := format('workstation %s (%s) is registered to the login %s, not %s: the casino''s owner '\n"
             "                          'changes it with pitdesk floor register --pg URL --workstation %s --name %L --login %s',\n"
             "                          NEW.workstation, wname, owner, session_user, NEW.workstation, wname, session_user);\n")


def _trigger_source(conn: psycopg.Connection) -> str:
    src = conn.execute("SELECT pg_get_functiondef('pitdesk.event_arrives()'::regprocedure)").fetchone()[0]
    if _OLD_TAKE not in src:
        raise RuntimeError("pitdesk.event_arrives is not the function migrations 1 and 4 made; migration 5 does not replace it")
    src = src.replace(_OLD_TAKE, _NEW_TAKE)
    return src.replace("why text; owner text;", "why text; owner text; wname text;", 1)


def v5_register(conn: psycopg.Connection) -> None:
    """Issue 35, finding 2: the register of the casino's workstations; the server refuses rows of a
    workstation not registered, or from a login not registered for it."""
    conn.execute(_REGISTER)
    conn.execute(_trigger_source(conn))


class RegisterError(ValueError):
    """Bad input to ``floor register``; the message names the fault. Nothing is changed."""


def check_name(name: str) -> str:
    if not name.strip() or name != name.strip() or len(name) > NAME_MAX or not name.isprintable():
        raise RegisterError(f"--name {name!r} is not a name: 1 to {NAME_MAX} printable characters, "
                            "no spaces at either end")
    return name


def register(url: str, ws: str, name: str, login: str) -> dict:
    """Workstation ``ws`` registered as ``name``, shipped by ``login`` (as the owner of ``url``);
    what the register holds now, and what it held before."""
    parts = check_url(url, "--pg")
    if not ws or len(ws) > 100 or not ws.isprintable() or ws != ws.strip():
        raise RegisterError(f"--workstation {ws!r} is not a workstation's id (as pitdesk ship prints it)")
    check_name(name)
    if not _LOGIN.fullmatch(login):
        raise RegisterError(f"--login {login!r} is not a login name")
    with connect(url) as conn, speaking(parts, "register a workstation"):
        version = schema_version(conn, parts)
        if version < 5:
            raise RegisterError(f"the server at {where(parts)} has no register yet (schema {version}): run "
                                "pitdesk floor migrate --pg URL as the database's owner first")
        with conn.transaction():
            role = conn.execute("SELECT rolcanlogin, pg_has_role(oid, 'pitdesk_ship', 'MEMBER') FROM pg_roles "
                                "WHERE rolname = %s", (login,)).fetchone()
            if role is None:
                raise RegisterError(f"--login {login}: the server at {where(parts)} has no such login")
            if not role[0] or not role[1]:
                raise RegisterError(f"--login {login} is not a login of pitdesk_ship on {where(parts)} "
                                    f"(GRANT pitdesk_ship TO {login}: docs/casino.md)")
            before = conn.execute("SELECT name, shipper FROM pitdesk.workstations WHERE workstation = %s FOR UPDATE",
                                  (ws,)).fetchone()
            if before is None:
                conn.execute("INSERT INTO pitdesk.workstations (workstation, name, shipper, registered) "
                             "VALUES (%s, %s, %s, now())", (ws, name, login))
            else:
                conn.execute("UPDATE pitdesk.workstations SET name = %s, shipper = %s, "
                             "registered = COALESCE(registered, now()) WHERE workstation = %s", (name, login, ws))
            conn.execute("INSERT INTO pitdesk.registrations (workstation, name, login) VALUES (%s, %s, %s)",
                         (ws, name, login))
    out = {"workstation": ws, "name": name, "login": login, "server": where(parts)}
    if before is None or before[0] is None:
        return {**out, "registered": "new"}
    changed = before[0] != name or before[1] != login
    return {**out, "registered": "changed" if changed else "unchanged",
            "before": {"name": before[0], "login": before[1]}}


def names(conn: psycopg.Connection) -> dict[str, str]:
    """Each registered workstation's name, by id ({} on a server before migration 5)."""
    if conn.execute("SELECT 1 FROM information_schema.columns WHERE table_schema = 'pitdesk' "
                    "AND table_name = 'workstations' AND column_name = 'name'").fetchone() is None:
        return {}
    return dict(conn.execute("SELECT workstation, name FROM pitdesk.workstations WHERE name IS NOT NULL").fetchall())


def shown(ws: str, name: str | None) -> str:
    """A workstation as a person reads it: "Pit 3 (9f1c2a3b…)", or its id if it has no name."""
    return f"{name} ({ws[:8]}…)" if name and name != ws else ws
