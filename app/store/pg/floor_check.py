"""``pitdesk floor verify``: every workstation's chain as the casino's server holds it.

The server walks each chain itself, in one query (``_FIRST_BAD``: the sequence, the links,
every hash with pgcrypto, the columns against the sealed body); the first row it finds is then
read and checked once more by ``app.store.verify.check_row``, so that a finding has the kind and
the words ``audit verify`` gives it. The seals are checked here, with the workstation's key where
one is given (``--key WS=FILE``): the keys never go to the server. Last, the head the server
recorded for each workstation must be its last row. Everything is read in one snapshot, while
shipping goes on."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import psycopg

from app.store import chain
from app.store.verify import Finding, check_row

from . import chain_marks
from .register import names, shown
from .server import check_url, connect, schema_version, speaking

_FIRST_BAD = """
SELECT seq, before_seq, before_hash FROM (
    SELECT seq, time, table_id, type, actor, role, body, prev_hash, hash,
           lag(seq, 1, 0::bigint) OVER w AS before_seq, lag(hash, 1, %(genesis)s) OVER w AS before_hash
      FROM pitdesk.events WHERE workstation = %(ws)s AND seq >= %(lo)s - 1 AND seq <= %(hi)s
    WINDOW w AS (ORDER BY seq)) r
 WHERE seq >= %(lo)s AND (seq <> before_seq + 1 OR prev_hash <> before_hash
    OR pitdesk.row_hash(prev_hash, body) <> hash
    OR pitdesk.column_differs(pitdesk.json_object_or_null(body), seq, time, table_id, type, actor, role) IS NOT NULL)
 ORDER BY seq LIMIT 1"""
_BEFORE = ("SELECT seq, hash FROM pitdesk.events WHERE workstation = %s AND seq < %s ORDER BY seq DESC LIMIT 1")
# A chain longer than PART_ROWS is walked in PARTS ranges of seq at once, each by a connection of
# its own in the same snapshot (pg_export_snapshot): the server's cores share the walk.
PART_ROWS, PARTS = 200_000, 4
_ROW = ("SELECT seq, time, table_id, type, actor, role, body, prev_hash, hash, hmac FROM pitdesk.events "
        "WHERE workstation = %s AND seq = %s")


@dataclass
class Held:
    """One workstation's chain as the server holds it, and what was found."""

    workstation: str
    rows: int
    head: tuple[int, str]            # the head the server recorded
    finding: Finding | None
    seals: str                       # "checked" or "not checked"
    refusals: int
    last_refusal: dict | None
    name: str | None = None          # its name in the casino's register; None: not registered
    fault: str | None = None         # what --strict finds wrong with it (no key, not registered)
    since: int = 0                   # the row its walk began after (0: walked whole; chain_marks.py)

    @property
    def ok(self) -> bool:
        return self.finding is None and self.fault is None

    def line(self) -> str:
        who = shown(self.workstation, self.name)
        if self.finding is not None:
            return f"{who}: {self.finding}"
        if self.fault is not None:
            return f"{who}: {self.fault}"
        seals = "seals checked" if self.seals == "checked" else "seals not checked (no --key for it)"
        text = f"{who}: ok, {self.rows:,} rows, head {self.head[0]} {self.head[1][:16]}, {seals}"
        if self.refusals:
            r = self.last_refusal
            text += (f"; {self.refusals} refused batch{'es' if self.refusals > 1 else ''}, the last at row {r['seq']}: "
                     f"{r['reason']}" + (f" ({r['detail']})" if r.get("detail") else ""))
        return text

    def as_json(self) -> dict:
        return {"workstation": self.workstation, "name": self.name, "ok": self.ok, "fault": self.fault, "rows": self.rows,
                "head": {"seq": self.head[0], "hash": self.head[1]},
                "first_bad": None if self.finding is None else {"seq": self.finding.seq, "kind": self.finding.kind,
                                                                "detail": self.finding.detail},
                "seals": self.seals, "refusals": self.refusals, "last_refusal": self.last_refusal}


class UnknownWorkstation(ValueError):
    """A key was given for a workstation the server holds nothing of."""


def verify_floor(url: str, keys: dict[str, bytes] | None = None, part_rows: int = PART_ROWS,
                 parts: int = PARTS, strict: bool = False, incremental: bool = False,
                 models: bool = False) -> list[Held]:
    """Every workstation the server holds, in the order of their ids. ``strict``: a registered
    workstation without its key, and rows of a workstation not registered (an owner who went
    round the server's check), fail too. ``incremental``: each chain walked from the row the last
    check before a figure remembers, that row's hash compared (app/store/pg/chain_marks.py).
    ``models``: the money read models (app/store/pg/floor_money.py) derived again whole from the
    events and compared, for each workstation whose chain passed (``floor verify``)."""
    keys = keys or {}
    where_parts = check_url(url, "--pg")
    with connect(url) as conn, speaking(where_parts, "read the workstations' chains"):
        schema_version(conn, where_parts)
        conn.commit()
        with conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            held = conn.execute("SELECT workstation, head_seq, head_hash FROM pitdesk.workstations "
                                "ORDER BY workstation").fetchall()
            unknown = sorted(set(keys) - {w for w, _, _ in held})
            if unknown:
                raise UnknownWorkstation(f"--key {unknown[0]}=...: the server holds no workstation {unknown[0]}")
            walk = _Walk(url, conn, part_rows, parts)
            known = names(conn)
            marks = chain_marks.has_marks(conn)
            out = []
            for ws, hs, hh in held:
                since, moved = chain_marks.walk_from(conn, ws) if incremental and marks else (0, None)
                h = check_one(conn, ws, (hs, hh), keys.get(ws), walk, since)
                h.since = since
                if moved is not None:
                    h.finding = moved
                h.name = known.get(ws)
                if strict and h.name is None and h.rows:
                    h.fault = (f"not registered, yet the server holds {h.rows:,} rows of it (pitdesk floor register "
                               f"--pg URL --workstation {ws} --name NAME --login LOGIN, if it is the casino's)")
                elif strict and h.name is not None and ws not in keys:
                    h.fault = f"no --key {ws}=FILE given: --strict checks every registered workstation's seals"
                out.append(h)
    if models:
        _models_checked(url, [h for h in out if h.finding is None])
    return out


def _models_checked(url: str, passed: list[Held]) -> None:
    """The money read models of the workstations in ``passed`` derived again from every event and
    compared, in a snapshot of their own (a row and its sums are stored in one transaction); the
    first row that differs becomes its workstation's finding."""
    from .floor_money import first_difference
    with connect(url) as conn:
        if not conn.execute("SELECT to_regclass('pitdesk.money_settlements') IS NOT NULL").fetchone()[0] or not passed:
            return
        conn.commit()
        with conn.transaction():
            conn.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            found = first_difference(conn, {h.workstation: 0 for h in passed})
    if found is not None:
        ws, finding = found
        next(h for h in passed if h.workstation == ws).finding = finding


class _Walk:
    """The first bad row of a chain: one query, or for a long chain one per range of seq, each on
    a connection of its own that reads the snapshot of ``conn``'s transaction."""

    def __init__(self, url: str, conn: psycopg.Connection, part_rows: int = PART_ROWS, parts: int = PARTS):
        self.url, self.conn, self.part_rows, self.parts = url, conn, part_rows, parts
        self.snapshot: str | None = None

    def first_bad(self, ws: str, last_seq: int, first: int = 1) -> tuple | None:
        args = {"ws": ws, "genesis": chain.GENESIS}
        if self.parts < 2 or last_seq - first < self.part_rows:
            return self.conn.execute(_FIRST_BAD, {**args, "lo": first, "hi": last_seq}).fetchone()
        if self.snapshot is None:
            self.snapshot = self.conn.execute("SELECT pg_export_snapshot()").fetchone()[0]
        step = -(-(last_seq - first + 1) // self.parts)
        ranges = [(lo, min(lo + step - 1, last_seq)) for lo in range(first, last_seq + 1, step)]
        with ThreadPoolExecutor(len(ranges)) as pool:
            found = [b for b in pool.map(lambda r: self._part(args, *r), ranges) if b]
        if not found:
            return None
        seq = min(found)[0]
        # the row before it as one walk sees it (a part starts without it: a gap at its start)
        before = self.conn.execute(_BEFORE, (ws, seq)).fetchone() or (0, chain.GENESIS)
        return seq, before[0], before[1]

    def _part(self, args: dict, lo: int, hi: int) -> tuple | None:
        with connect(self.url, autocommit=True) as c:
            with c.transaction():
                c.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                c.execute("SET TRANSACTION SNAPSHOT %s" % sql_literal(self.snapshot))
                return c.execute(_FIRST_BAD, {**args, "lo": lo, "hi": hi}).fetchone()


def sql_literal(text: str) -> str:
    """A snapshot id as SET TRANSACTION SNAPSHOT takes it (a literal, not a parameter)."""
    if not all(ch.isalnum() or ch == "-" for ch in text):
        raise ValueError(f"not a snapshot id: {text!r}")
    return f"'{text}'"


def check_one(conn: psycopg.Connection, ws: str, head: tuple[int, str], key: bytes | None,
              walk: _Walk | None = None, since: int = 0) -> Held:
    """``ws``'s chain checked from the row after ``since`` (0: whole) to its end, and its head."""
    rows, last_seq, last_hash = conn.execute(
        "SELECT count(*), max(seq), (SELECT hash FROM pitdesk.events WHERE workstation = %(ws)s ORDER BY seq DESC "
        "LIMIT 1) FROM pitdesk.events WHERE workstation = %(ws)s", {"ws": ws}).fetchone()
    if walk is None:
        bad = conn.execute(_FIRST_BAD, {"ws": ws, "genesis": chain.GENESIS, "lo": since + 1,
                                        "hi": last_seq or 0}).fetchone()
    else:
        bad = walk.first_bad(ws, last_seq or 0, since + 1)
    finding = explain(conn, ws, bad, key) if bad else None
    forged = _forged(conn, ws, key, finding.seq if finding else None) if key is not None else None
    if forged is not None:
        finding = forged
    if finding is None:
        finding = _head(head, last_seq or 0, last_hash or chain.GENESIS)
    verdicts = conn.execute("SELECT to_regclass('pitdesk.refusal_verdicts') IS NOT NULL").fetchone()[0]
    # the shipper's verdict on whose copy differs, beside the refusal (migration 4, issue 35)
    whose = ("'whose', (SELECT whose FROM pitdesk.refusal_verdicts v WHERE v.refusal = r.id), "
             "'detail', (SELECT detail FROM pitdesk.refusal_verdicts v WHERE v.refusal = r.id), ") if verdicts else ""
    n, r = conn.execute("SELECT (SELECT count(*) FROM pitdesk.refusals WHERE workstation = %(ws)s), "
                        f"(SELECT json_build_object({whose}'seq', seq, 'reason', reason, 'at', at) "
                        "FROM pitdesk.refusals r WHERE workstation = %(ws)s ORDER BY id DESC LIMIT 1)",
                        {"ws": ws}).fetchone()
    return Held(ws, rows, head, finding, "checked" if key is not None else "not checked", n, r)


def explain(conn: psycopg.Connection, ws: str, bad: tuple, key: bytes | None) -> Finding:
    """The row the server found, in ``audit verify``'s words (the seal is checked by ``_forged``)."""
    seq, before_seq, before_hash = bad
    row = conn.execute(_ROW, (ws, seq)).fetchone()

    def locate(h: str) -> int | None:
        r = conn.execute("SELECT seq FROM pitdesk.events WHERE workstation = %s AND hash = %s", (ws, h)).fetchone()
        return r[0] if r else None
    f, _ = check_row(row, before_seq + 1, before_hash, None, locate)
    return f or Finding(seq, "edited", "the server's check of its chain finds this row wrong")


def _forged(conn: psycopg.Connection, ws: str, key: bytes, before: int | None) -> Finding | None:
    """The first row before ``before`` whose seal is not ``key``'s."""
    mac = chain.sealer(key)
    with conn.cursor(name=f"seals_{abs(hash(ws))}") as cur:
        cur.itersize = 20_000
        cur.execute("SELECT seq, hash, hmac FROM pitdesk.events WHERE workstation = %s AND seq < %s ORDER BY seq",
                    (ws, before if before is not None else 2 ** 62))
        for seq, h, m in cur:
            if mac(h.encode()) != m:
                return Finding(seq, "forged", "the seal does not match: the row was not written with this "
                                              "workstation's key")
    return None


def _head(head: tuple[int, str], last_seq: int, last_hash: str) -> Finding | None:
    """The head the server recorded must be its last row."""
    hs, hh = head
    if hs > last_seq:
        return Finding(last_seq + 1, "truncated", f"the server's copy ends at row {last_seq} but the head it recorded "
                                                  f"is row {hs}")
    if hs < last_seq:
        return Finding(hs + 1, "edited", f"row {hs + 1} is past the head the server recorded (row {hs}): it did not "
                                         "arrive through shipping")
    if hh != last_hash:
        return Finding(hs, "edited", f"row {hs} differs from the head the server recorded")
    return None
