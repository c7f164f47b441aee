"""The casino's server: its URL checked, a connection opened, and what went wrong named in one line.

A URL is ``postgresql://USER@HOST[:PORT]/DB`` (libpq's, so a password, ``?sslmode=`` and the like
may be given, and ``PGPASSWORD`` or ``~/.pgpass`` are read). It is only ever printed without its
password (``where``)."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg
from psycopg.conninfo import conninfo_to_dict

SCHEMES = ("postgresql://", "postgres://")
CONNECT_TIMEOUT = 10  # seconds, unless the URL says otherwise: an unreachable server is named, not waited on
SCHEMA = "pitdesk"

# psycopg logs, besides raising it, a COPY cut off by a server that went away ("error ignored
# terminating <psycopg.Copy>"); the error raised is named in one line (``speaking``, app/cli), so
# its log line is not printed as well
logging.getLogger("psycopg").addHandler(logging.NullHandler())


class BadUrl(ValueError):
    """The URL is not a PostgreSQL one."""


class Unreachable(RuntimeError):
    """The server cannot be reached, refused the sign-in, or went away."""


class Refused(RuntimeError):
    """The server refused what was asked: the role lacks a grant, or a statement failed."""


class NoSchema(RuntimeError):
    """The server is reached but holds no pitdesk schema (``pitdesk floor migrate`` was never run)."""


def check_url(url: str, flag: str) -> dict:
    """The URL's parts, or BadUrl naming the fault."""
    if not url.startswith(SCHEMES):
        raise BadUrl(f"{flag} {redact(url)!r} is not a PostgreSQL URL (postgresql://USER@HOST/DB)")
    try:
        parts = conninfo_to_dict(url)
    except psycopg.ProgrammingError as e:
        raise BadUrl(f"{flag} {redact(url)!r} is not a PostgreSQL URL: {one_line(e)}") from None
    if not parts.get("dbname"):
        raise BadUrl(f"{flag} {redact(url)!r} names no database (postgresql://USER@HOST/DB)")
    return parts


def redact(url: str) -> str:
    """The URL without a password (``user:secret@`` becomes ``user@``)."""
    head, sep, rest = url.partition("://")
    if not sep or "@" not in rest.split("/", 1)[0]:
        return url
    who, at, host = rest.partition("@")
    return f"{head}://{who.split(':', 1)[0]}@{host}"


def where(parts: dict) -> str:
    """``USER@HOST:PORT/DB`` as the connection would use them."""
    user = parts.get("user", "")
    return f"{user + '@' if user else ''}{parts.get('host', 'localhost')}:{parts.get('port', 5432)}/{parts['dbname']}"


def one_line(e: BaseException) -> str:
    return " ".join(str(e).split()) or type(e).__name__


def connect(url: str, flag: str = "--pg", autocommit: bool = False) -> psycopg.Connection:
    """A connection with the pitdesk schema first on its search path (pgcrypto may be in
    ``public``); Unreachable naming the server if it cannot be had."""
    parts = check_url(url, flag)
    extra = {} if "connect_timeout" in parts else {"connect_timeout": CONNECT_TIMEOUT}
    try:
        conn = psycopg.connect(url, autocommit=autocommit, application_name="pitdesk", **extra)
    except psycopg.OperationalError as e:
        raise Unreachable(f"the server at {where(parts)} cannot be reached: {one_line(e)}") from None
    conn.execute(f"SET search_path = {SCHEMA}, public")
    # no JIT: the planner prices a walk of every row high and compiles for a tenth of a second
    # queries that read a few index entries (the checks past a mark, app/store/pg/floor_money.py)
    conn.execute("SET jit = off")
    if not autocommit:
        conn.commit()
    return conn


def schema_version(conn: psycopg.Connection, parts: dict) -> int:
    """The migrations applied on the server; NoSchema if none."""
    row = conn.execute("SELECT to_regclass('pitdesk.migrations') IS NOT NULL").fetchone()
    if not row[0]:
        raise NoSchema(f"the server at {where(parts)} holds no pitdesk schema: run 'pitdesk floor migrate --pg URL' "
                       "as the database's owner first (docs/casino.md)")
    return conn.execute("SELECT COALESCE(max(version), 0) FROM pitdesk.migrations").fetchone()[0]


@contextmanager
def speaking(parts: dict, doing: str) -> Iterator[None]:
    """The server's errors while ``doing`` something, named in one line: a role without the
    grant, a server gone away, a statement refused."""
    try:
        yield
    except psycopg.errors.InsufficientPrivilege as e:
        raise Refused(f"the role {parts.get('user', '(default)')} may not {doing} on {where(parts)}: {one_line(e)} "
                      "(docs/casino.md says which role may do what)") from None
    except psycopg.OperationalError as e:
        raise Unreachable(f"the server at {where(parts)} went away while it was asked to {doing}: {one_line(e)}") from None
    except psycopg.Error as e:
        raise Refused(f"the server at {where(parts)} refused to {doing}: {one_line(e)}") from None
