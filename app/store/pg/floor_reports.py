"""The floor's shift reports as the casino's server records them (issue 28, migration 2):
``pitdesk report shift --pg URL --out F.pdf`` or ``--print P`` takes the server's next floor
report number, makes the report, and records it printed only once it is made, or failed with
why, as a workstation logs its own reports in its log (app/workstation/shift_figures.py).

The number is one more than any recorded, printed or failed; two made at once cannot both be
recorded with one (the primary key): the second is ``NumberTaken`` and is made again with the
next. The server stamps who recorded it (``session_user``) and when; the table is append-only.

Each printed one is recorded with the digest of what it says (migration 3: ``digest``, the
floor's figures, every pit's and each workstation's chain head, app/workstation/floor_report.py
``floor_digest``). A floor report that says what one printed before said is a COPY of that one
(``copy_of``, its number); one that says anything else is a new original, however many of its
shift were printed before."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date, datetime

import psycopg

from .server import NoSchema, check_url, connect, schema_version, speaking, where

FLOOR_REPORTS_VERSION = 3     # the migrations that made pitdesk.floor_reports and gave it its digests
VERDICTS_VERSION = 6          # the migration that records a floor report verified or NOT VERIFIED (issue 35)


class NumberTaken(Exception):
    """Another floor report was recorded with this number meanwhile."""


@dataclass(frozen=True)
class Numbered:
    number: int
    copy_of: int | None  # the floor report first printed with the same content; None: an original

    @property
    def copy(self) -> bool:
        return self.copy_of is not None


# the number to give and the floor report first printed with the same content (of the same shift)
_NEXT = ("SELECT COALESCE(max(number), 0) + 1, "
         "       (SELECT COALESCE(copy_of, number) FROM pitdesk.floor_reports WHERE status = 'printed' "
         "        AND shift = %s AND day = %s AND digest = %s ORDER BY number LIMIT 1) FROM pitdesk.floor_reports")


def _ready(conn: psycopg.Connection, parts: dict) -> None:
    if schema_version(conn, parts) < FLOOR_REPORTS_VERSION:
        raise NoSchema(f"the server at {where(parts)} has no floor reports yet (its pitdesk schema is older): run "
                       "'pitdesk floor migrate --pg URL' as the database's owner (docs/casino.md)")


def next_number(url: str, shift: str, day: date, digest: str) -> Numbered:
    """The number the next floor report will be recorded with, and the floor report of the same
    shift first printed with the same content (``digest``) if there is one (then it is a COPY of
    that), read without writing (the report is made first, then recorded)."""
    parts = check_url(url, "--pg")
    with connect(url) as conn, speaking(parts, "read the floor reports"):
        _ready(conn, parts)
        number, copy_of = conn.execute(_NEXT, (shift, day, digest)).fetchone()
    return Numbered(number, copy_of)


def record(url: str, number: int, status: str, *, shift: str, day: date, copy_of: int | None, digest: str,
           interim: bool, where_to: str, made_by: str, printed_at: datetime, heads: dict[str, str],
           pages: int | None = None, pdf_sha256: str | None = None, why: str | None = None,
           finding: str | None = None) -> None:
    """Record floor report ``number`` as ``printed`` or ``failed``, with the digest of its content;
    NumberTaken if another was recorded with it meanwhile, or if the COPY (or original) it was
    made as is no longer so. ``finding``: made with ``--unverified`` from chains that failed the
    server's check, what it found (recorded ``verified`` false: migration 6, issue 35)."""
    parts = check_url(url, "--pg")
    with connect(url) as conn, speaking(parts, "record a floor report"):
        _ready(conn, parts)
        verdicts = schema_version(conn, parts) >= VERDICTS_VERSION
        if finding is not None and not verdicts:
            raise NoSchema(f"the server at {where(parts)} cannot record a floor report NOT VERIFIED (its pitdesk "
                           "schema is older): run 'pitdesk floor migrate --pg URL' as the database's owner")
        more_cols, more_vals = (", verified, finding", (finding is None, finding)) if verdicts else ("", ())
        with conn.transaction():
            # one recorder at a time (an advisory lock: the floor role may only insert, not lock the table)
            conn.execute("SELECT pg_advisory_xact_lock(hashtextextended('pitdesk floor report', 0))")
            given, original = conn.execute(_NEXT, (shift, day, digest)).fetchone()
            if given != number or (status == "printed" and original != copy_of):
                raise NumberTaken(f"floor report No. {number} was numbered by another report meanwhile")
            try:
                conn.execute(
                    'INSERT INTO pitdesk.floor_reports (number, status, shift, day, copy, copy_of, digest, interim, '
                    f'"where", made_by, printed_at, pages, heads, pdf_sha256, why, login, logged{more_cols}) '
                    "VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, '', now()"
                    + ", %s" * len(more_vals) + ")",
                    (number, status, shift, day, copy_of is not None, copy_of, digest, interim, where_to, made_by,
                     printed_at, pages, json.dumps(heads, sort_keys=True), pdf_sha256, why, *more_vals))
            except psycopg.errors.UniqueViolation:
                raise NumberTaken(f"floor report No. {number} was recorded by another report meanwhile") from None


def recorded(url: str) -> list[dict]:
    """Every floor report the server recorded, in number order."""
    parts = check_url(url, "--pg")
    with connect(url) as conn, speaking(parts, "read the floor reports"):
        _ready(conn, parts)
        more = ", verified, finding" if schema_version(conn, parts) >= VERDICTS_VERSION else ""
        cur = conn.execute('SELECT number, status, shift, day, copy, copy_of, digest, interim, "where", made_by, '
                           f"printed_at, pages, heads, pdf_sha256, why, login, logged{more} FROM pitdesk.floor_reports "
                           "ORDER BY number")
        names = [c.name for c in cur.description]
        return [dict(zip(names, row)) for row in cur.fetchall()]
