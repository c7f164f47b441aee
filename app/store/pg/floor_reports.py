"""The floor's shift reports as the casino's server records them (issue 28, migration 2):
``pitdesk report shift --pg URL --out F.pdf`` or ``--print P`` takes the server's next floor
report number, makes the report, and records it printed only once it is made, or failed with
why, as a workstation logs its own reports in its log (app/workstation/shift_figures.py).

The number is one more than any recorded, printed or failed; two made at once cannot both be
recorded with one (the primary key): the second is ``NumberTaken`` and is made again with the
next. The server stamps who recorded it (``session_user``) and when; the table is append-only."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime

import psycopg

from .server import NoSchema, check_url, connect, schema_version, speaking, where

FLOOR_REPORTS_VERSION = 2     # the migration that made pitdesk.floor_reports


class NumberTaken(Exception):
    """Another floor report was recorded with this number meanwhile."""


@dataclass(frozen=True)
class Numbered:
    number: int
    copy: bool           # this shift's floor report was printed before


def _ready(conn: psycopg.Connection, parts: dict) -> None:
    if schema_version(conn, parts) < FLOOR_REPORTS_VERSION:
        raise NoSchema(f"the server at {where(parts)} has no floor reports yet (its pitdesk schema is older): run "
                       "'pitdesk floor migrate --pg URL' as the database's owner (docs/casino.md)")


def next_number(url: str, shift: str, day: date) -> Numbered:
    """The number the next floor report will be recorded with, and whether it is a COPY, read
    without writing (the report is made first, then recorded)."""
    parts = check_url(url, "--pg")
    with connect(url) as conn, speaking(parts, "read the floor reports"):
        _ready(conn, parts)
        number, copy = conn.execute(
            "SELECT COALESCE(max(number), 0) + 1, "
            "       bool_or(status = 'printed' AND shift = %s AND day = %s) IS TRUE FROM pitdesk.floor_reports",
            (shift, day)).fetchone()
    return Numbered(number, copy)


def record(url: str, number: int, status: str, *, shift: str, day: date, copy: bool, interim: bool, where_to: str,
           made_by: str, printed_at: datetime, heads: dict[str, str], pages: int | None = None,
           pdf_sha256: str | None = None, why: str | None = None) -> None:
    """Record floor report ``number`` as ``printed`` or ``failed``; NumberTaken if another was
    recorded with it meanwhile, or if the COPY it was made as is no longer so."""
    parts = check_url(url, "--pg")
    with connect(url) as conn, speaking(parts, "record a floor report"):
        _ready(conn, parts)
        with conn.transaction():
            # one recorder at a time (an advisory lock: the floor role may only insert, not lock the table)
            conn.execute("SELECT pg_advisory_xact_lock(hashtextextended('pitdesk floor report', 0))")
            given, was_copy = conn.execute(
                "SELECT COALESCE(max(number), 0) + 1, "
                "       bool_or(status = 'printed' AND shift = %s AND day = %s) IS TRUE FROM pitdesk.floor_reports",
                (shift, day)).fetchone()
            if given != number or (status == "printed" and was_copy != copy):
                raise NumberTaken(f"floor report No. {number} was numbered by another report meanwhile")
            try:
                conn.execute(
                    'INSERT INTO pitdesk.floor_reports (number, status, shift, day, copy, interim, "where", made_by, '
                    "printed_at, pages, heads, pdf_sha256, why, login, logged) "
                    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, '', now())",
                    (number, status, shift, day, copy, interim, where_to, made_by, printed_at, pages,
                     json.dumps(heads, sort_keys=True), pdf_sha256, why))
            except psycopg.errors.UniqueViolation:
                raise NumberTaken(f"floor report No. {number} was recorded by another report meanwhile") from None


def recorded(url: str) -> list[dict]:
    """Every floor report the server recorded, in number order."""
    parts = check_url(url, "--pg")
    with connect(url) as conn, speaking(parts, "read the floor reports"):
        _ready(conn, parts)
        cur = conn.execute('SELECT number, status, shift, day, copy, interim, "where", made_by, printed_at, pages, '
                           "heads, pdf_sha256, why, login, logged FROM pitdesk.floor_reports ORDER BY number")
        names = [c.name for c in cur.description]
        return [dict(zip(names, row)) for row in cur.fetchall()]
