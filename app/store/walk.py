"""The chain of an audit database walked fast: ``audit verify`` of a million rows (issue 26).

Per row Python does only what SQLite cannot: the sha256 link and the HMAC seal. Whether the
body is a JSON object whose seq and fields are the row's columns is asked of SQLite's JSON
code in the same query (``_FAST``'s last column). A row that fails any fast check, or that
SQLite does not vouch for, is checked again by ``verify.check_row``, so a finding has the kind
and the words ``verify_rows`` gives it, and the lowest row is reported first.

A long log is split by sequence number over processes, one a core. Each part starts after a
row the parent read in its own snapshot (its seq and hash); rows are append-only (triggers
refuse UPDATE and DELETE), so a worker reading ``seq <= last`` in its own snapshot reads the
parent's rows. The parts are joined in order: the first with a finding ends the walk, as one
walk would have ended there.

SQLite reads a key repeated in a body as its first value, Python as its last: the writer seals
bodies made from dicts (no key twice), so only a body sealed elsewhere could tell them apart.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import sqlite3
import threading
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, field

from . import chain
from .verify import Finding, check_row, db_locate

# seq, prev_hash, hash, hmac, the bytes the hash covers, and 1 if SQLite vouches for the body
# (NULL for a body that is not JSON: ``json_extract`` would stop the query on it)
_FAST = ("SELECT seq, prev_hash, hash, hmac, CAST(prev_hash || body AS BLOB), "
         "CASE WHEN json_valid(body) THEN json_extract(body, '$.seq', '$.time', '$.table', '$.type', '$.actor', "
         "'$.role') = json_array(seq, time, table_id, type, actor, role) END "
         "FROM events WHERE seq > ? AND seq <= ? ORDER BY seq")
_ROWS = "SELECT seq, time, table_id, type, actor, role, body, prev_hash, hash, hmac FROM events"

PARALLEL_FROM = 200_000  # rows: fewer are walked in the process itself (a pool costs ~0.1 s to start)


@dataclass
class Part:
    """What a walk found: the rows it checked, the last good row, and the heads' rows seen."""

    rows: int = 0
    last: tuple[int, str] = (0, chain.GENESIS)
    finding: Finding | None = None
    seen: dict[str, int] = field(default_factory=dict)


def walk(conn: sqlite3.Connection, key: bytes | None, after: tuple[int, str], upto: int,
         wanted: set[str]) -> Part:
    """The rows after ``after`` (seq, hash) up to ``upto``, in ``conn``'s snapshot."""
    sha = hashlib.sha256
    inner, outer = chain.pads(key) if key is not None else (None, None)
    locate = db_locate(conn)
    expected, prev = after[0] + 1, after[1]
    seen: dict[str, int] = {}
    n = 0
    try:
        # the tight loop of a million rows: local names, the seal's HMAC inline (chain.sealer)
        for seq, prev_hash, h, mac, linked, vouched in conn.execute(_FAST, (after[0], upto)):
            if inner is not None:
                i = inner()
                i.update(h.encode())
                o = outer()
                o.update(i.digest())
                sealed = o.hexdigest() == mac
            else:
                sealed = True
            if seq != expected or not vouched or prev_hash != prev or sha(linked).hexdigest() != h or not sealed:
                f = _again(conn, seq, expected, prev, key, locate)
                if f is not None:
                    return Part(n, (expected - 1, prev), f, seen)
            if h in wanted:
                seen[h] = seq
            prev, expected = h, seq + 1
            n += 1
    except sqlite3.OperationalError:
        # a column SQLite's JSON code refuses (a BLOB written with sqlite3): the rest row by row
        for row in conn.execute(_ROWS + " WHERE seq >= ? AND seq <= ? ORDER BY seq", (expected, upto)):
            f, _ = check_row(row, expected, prev, key, locate)
            if f is not None:
                return Part(n, (expected - 1, prev), f, seen)
            if row[8] in wanted:
                seen[row[8]] = row[0]
            prev, expected = row[8], row[0] + 1
            n += 1
    return Part(n, (expected - 1, prev), None, seen)


def _again(conn, seq, expected, prev, key, locate) -> Finding | None:
    row = conn.execute(_ROWS + " WHERE seq = ?", (seq,)).fetchone()
    return check_row(row, expected, prev, key, locate)[0]


def _part(uri: str, key: bytes | None, after: tuple[int, str], upto: int, wanted: set[str]) -> Part:
    """A worker's part, on a connection of its own (read-only, as the parent's)."""
    conn = sqlite3.connect(uri, uri=True, isolation_level=None)
    try:
        conn.execute("BEGIN")
        return walk(conn, key, after, upto, wanted)
    finally:
        conn.close()


def _context():
    """fork when nothing else runs in this process (a tenth of spawn's start); spawn beside
    threads (the workstation), which a fork would copy in whatever state they are in."""
    if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


class Walk:
    """The walk of every row after ``after`` up to the last row of ``conn``'s snapshot, started
    at once (over ``workers`` processes: by default one a core for a long log, none for a
    short one); ``result()`` waits for it."""

    def __init__(self, conn: sqlite3.Connection, uri: str, key: bytes | None, after: tuple[int, str],
                 wanted: set[str], workers: int | None = None):
        self.conn, self.key, self.after, self.wanted = conn, key, after, wanted
        self.upto = conn.execute("SELECT IFNULL(MAX(seq), 0) FROM events").fetchone()[0]
        if workers is None:
            workers = (os.cpu_count() or 1) if self.upto - after[0] >= PARALLEL_FROM else 1
        starts = [after]
        for i in range(1, workers):
            r = conn.execute("SELECT seq, hash FROM events WHERE seq <= ? ORDER BY seq DESC LIMIT 1",
                             (after[0] + (self.upto - after[0]) * i // workers,)).fetchone()
            if r is not None and r[0] > starts[-1][0]:
                starts.append(tuple(r))
        self.pool: ProcessPoolExecutor | None = None
        self.parts: list[Future] = []
        if len(starts) > 1:
            self.pool = ProcessPoolExecutor(len(starts), mp_context=_context())
            ends = [s[0] for s in starts[1:]] + [self.upto]
            self.parts = [self.pool.submit(_part, uri, key, s, e, wanted) for s, e in zip(starts, ends)]

    def result(self) -> Part:
        if self.pool is None:
            return walk(self.conn, self.key, self.after, self.upto, self.wanted)
        try:
            out = Part(0, self.after)
            for f in self.parts:
                p = f.result()
                out.rows += p.rows
                out.seen.update(p.seen)
                out.last, out.finding = p.last, p.finding
                if p.finding is not None:
                    break
            return out
        finally:
            self.close()

    def close(self) -> None:
        if self.pool is not None:
            for f in self.parts:
                f.cancel()
            self.pool.shutdown(wait=True)
            self.pool = None
