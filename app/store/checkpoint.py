"""The start-up check: a writer checks the log before it writes anything (issue 26).

A workstation that opens a log checks every row after the last check it recorded, as
``audit verify`` does (the chain, the columns against the sealed body, the seals), then the
head file against those rows, and the row the last check ended at (its hash must be the one
recorded, and its own body, link and seal must hold). A log that passes has its new checkpoint
recorded beside the head file, ``heads/<db_id>.checked.json``, sealed with the install key over
``db_id``, ``seq`` and ``hash`` (a checkpoint moved to another database, or moved forward by
hand, does not match its seal and is ignored: the whole log is checked again). A log that
fails is not written to: the caller stops it (``AuditLog.check``), naming the row and the kind.

So an edit made while the workstation was closed to any row written since the last start, or
to the row the last check ended at, is found before a row is written on top of it. An edit to
an earlier row, already checked, is left to ``audit verify`` (which walks the whole chain and
derives the read models); the read models are not derived here (docs/audit.md).

The rows are walked as ``audit verify`` walks them (app/store/walk.py, in this process: SQLite
vouches for the columns, Python only links and seals); the head is checked by verify.py's own
``check_heads``, so a finding has the kind and the words ``verify_rows`` gives it.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from . import chain, heads
from .verify import Finding, Report, check_heads, wanted_hashes
from .walk import walk

__all__ = ["Checked", "Finding", "check", "checkpoint_file", "read", "record"]


@dataclass(frozen=True)
class Checked:
    """What the start-up check did: rows ``after`` + 1 to ``to`` checked (``rows`` of them), in
    ``seconds``; ``finding`` the first fault, or None."""

    after: int
    to: int
    rows: int
    seconds: float
    finding: Finding | None = None

    @property
    def ok(self) -> bool:
        return self.finding is None

    def stopped(self, db: Path) -> str:
        f = self.finding
        return (f"the audit log failed its check at row {f.seq} ({f.kind}): {f.detail}; nothing more is "
                f"written; run 'pitdesk audit verify --db {db}'")


def checkpoint_file(head_file: Path) -> Path:
    """``heads/<db_id>.checked.json`` beside ``heads/<db_id>.json``."""
    return head_file.with_name(head_file.stem + ".checked.json")


def _fields(db_id: str, seq: int, row_hash: str) -> dict:
    return {"kind": "checked", "db_id": db_id, "seq": seq, "hash": row_hash}


def _canonical(f: dict) -> str:
    return json.dumps(f, sort_keys=True, separators=(",", ":"))


def read(path: Path, key: bytes, db_id: str) -> tuple[int, str] | None:
    """The last checked (seq, hash) recorded for ``db_id``; None if none, or one that cannot be
    trusted (then the whole log is checked)."""
    try:
        r = json.loads(path.read_text(encoding="utf-8"))
        f = _fields(r["db_id"], r["seq"], r["hash"])
        if r.get("kind") != "checked" or type(f["seq"]) is not int or f["seq"] < 0 or not isinstance(f["hash"], str):
            return None
        if f["db_id"] != db_id or not chain.seal_ok(key, _canonical(f), str(r.get("hmac", ""))):
            return None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None
    return f["seq"], f["hash"]


def record(path: Path, key: bytes, db_id: str, seq: int, row_hash: str) -> None:
    f = _fields(db_id, seq, row_hash)
    heads.write_durably(path, json.dumps({**f, "hmac": chain.seal(key, _canonical(f))}))


_ROWS = "SELECT seq, time, table_id, type, actor, role, body, prev_hash, hash, hmac FROM events"


def check(conn: sqlite3.Connection, key: bytes, db_id: str, head_file: Path | None) -> Checked:
    """Check the log on ``conn`` since the checkpoint beside ``head_file`` (all of it if there is
    none, or ``head_file`` is None) and the head recorded there; record the new checkpoint if it
    passes."""
    started = time.perf_counter()
    cp_path = checkpoint_file(head_file) if head_file is not None else None
    after = (read(cp_path, key, db_id) if cp_path is not None else None) or (0, chain.GENESIS)
    c, ch = after

    def done(rows: int, to: int, finding: Finding | None) -> Checked:
        return Checked(c, to, rows, time.perf_counter() - started, finding)

    if c:
        row = conn.execute(_ROWS + " WHERE seq = ?", (c,)).fetchone()
        if row is None:
            return done(0, c, Finding(c, "deleted", f"row {c}, where the last start-up check ended, is gone"))
        _, *_cols, body, prev, row_hash, mac = row
        if row_hash != ch or chain.link(prev, body) != row_hash:
            return done(0, c, Finding(c, "edited", f"row {c} differs from the row the last start-up check "
                                                   f"recorded in {cp_path}"))
        if not chain.seal_ok(key, row_hash, mac):
            return done(0, c, Finding(c, "forged", "the seal does not match: the row was not written with this "
                                                   "install's key"))
    head = None
    if head_file is not None:
        h = heads.read(head_file, key, db_id)
        if h is not None and (h.seq >= c or (h.pending and h.pending[0] > c)):
            head = {"seq": h.seq, "hash": h.hash, "source": f"in {head_file}",
                    **({"pending": h.pending} if h.pending else {})}
            if h.seq < c:       # the committed head is behind the checkpoint: its pending batch is checked
                head = {"seq": c, "hash": ch, "source": f"in {head_file}", "pending": h.pending}
    rep = _walked(conn, key, head, after)
    if rep.finding is None and cp_path is not None and (rep.last_seq, rep.last_hash) != after:
        record(cp_path, key, db_id, rep.last_seq, rep.last_hash)
    return done(rep.rows, rep.last_seq, rep.finding)


def _walked(conn: sqlite3.Connection, key: bytes, head: dict | None, after: tuple[int, str]) -> Report:
    """The rows after ``after`` walked fast, then the head: ``verify_rows``'s report for them. The
    head is read before the last row is, so the walk reaches every row the head can name."""
    heads_ = [head] if head is not None else []
    wanted = wanted_hashes(heads_)
    upto = conn.execute("SELECT IFNULL(MAX(seq), 0) FROM events").fetchone()[0]
    part = walk(conn, key, after, upto, wanted)
    rep = Report(rows=part.rows, finding=part.finding)
    rep.last_seq, rep.last_hash = part.last
    if part.finding is None:
        seen = {after[1]: after[0]} if after[0] and after[1] in wanted else {}
        check_heads(rep, {**seen, **part.seen}, heads_)
    return rep
