"""The record a figure is made from, checked first (issue 35, finding 1): a shift report, a hold
or a floor figure is made only from a log that passes its check, in the same snapshot the
figures are then read in.

What is checked, as ``audit verify`` checks it (app/store/audit.py ``verify_conn``):
- the chain from the row the last start-up check ended at (app/store/checkpoint.py: its own row's
  hash, link and seal checked again here, so it cannot be moved; the rows before it were checked
  by an earlier start-up and are left to ``audit verify``), or from the first row where this
  install has no checkpoint of the log (an auditor's copy, a log from another install);
- the heads recorded outside the log (the head file, a backup's own);
- every read model, derived again from the rows and compared, row for row: the figures are read
  from them, so a figure changed in them (``UPDATE hold_house SET won = ...``) is found, with its
  table, key and both values.

The caller reads its figures in the snapshot left open (``checked``'s ``work``) and decides what
a failure means: the command line refuses to print (exit 1 naming the row and the kind) unless
asked to print it NOT VERIFIED; the window says so and asks a supervisor."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from . import chain, checkpoint, figures_cache, paths
from .audit import verify_conn
from .derive import Derived
from .reading import Access, log_meta, read_db
from .verify import Finding

T = TypeVar("T")


@dataclass(frozen=True)
class Verified:
    """What the check before a figure found: ``finding`` None when the record passed."""

    finding: Finding | None
    rows: int                  # the rows walked (after the checkpoint)
    after: int                 # the row the walk started after (0: the first row)
    head: int                  # the last row checked
    seals: str                 # "checked" or "not checked"
    seconds: float
    derived_from: int = 0      # the row the read models' derivation was kept at (0: derived from the first row)

    @property
    def ok(self) -> bool:
        return self.finding is None

    def words(self) -> str:
        """The finding as a person reads it: the row, the kind and what differs."""
        return "the record passed its check" if self.finding is None else str(self.finding)

    def as_json(self) -> dict:
        """The ``verified`` key of a report's or a hold's JSON."""
        f = self.finding
        return {"ok": self.ok, "through": self.head, "checked_from": self.after + 1, "rows": self.rows,
                "seals": self.seals, "derived_from": self.derived_from,
                "finding": None if f is None else {"seq": f.seq, "kind": f.kind, "detail": f.detail,
                                                   **({"where": f.where} if f.where else {})}}


def _install_key() -> bytes | None:
    try:
        return paths.install_key(create=False)
    except (KeyError, OSError, ValueError):
        return None


def _start(conn: sqlite3.Connection, key: bytes | None, db_id: str) -> tuple[tuple[int, str], Finding | None]:
    """The row to walk from: the start-up check's checkpoint of this log if this install has one
    it can trust, its own row checked again; else the first row."""
    if key is None or not db_id:
        return (0, chain.GENESIS), None
    cp_path = checkpoint.checkpoint_file(paths.head_file(db_id))
    cp = checkpoint.read(cp_path, key, db_id)
    if cp is None:
        return (0, chain.GENESIS), None
    c, ch = cp
    row = conn.execute("SELECT body, prev_hash, hash, hmac FROM events WHERE seq = ?", (c,)).fetchone()
    if row is None:
        return cp, Finding(c, "deleted", f"row {c}, where the last start-up check ended, is gone")
    body, prev, row_hash, mac = row
    if row_hash != ch or chain.link(prev, body) != row_hash:
        return cp, Finding(c, "edited", f"row {c} differs from the row the last start-up check recorded in {cp_path}")
    if not chain.seal_ok(key, row_hash, mac):
        return cp, Finding(c, "forged", "the seal does not match: the row was not written with this install's key")
    return cp, None


def check_conn(conn: sqlite3.Connection, acc: Access, path: Path, key: bytes | None = None) -> Verified:
    """Check the log on ``conn`` and leave its snapshot open (the caller reads its figures in it,
    then ends it: ``checked`` does). ``key``: this install's by default."""
    started = time.perf_counter()
    key = _install_key() if key is None else key
    db_id = log_meta(conn, path).get("db_id", "")
    after, bad = _start(conn, key, db_id)
    if bad is not None:
        conn.execute("BEGIN")
        return Verified(bad, 0, after[0], after[0], "checked", time.perf_counter() - started)
    head_file = paths.head_file(db_id)
    kept = figures_cache.load(head_file, key, db_id, conn) if key is not None else None
    derived = kept if kept is not None else (Derived(), 0)
    try:
        rep = verify_conn(conn, acc, path, key, [], keep_open=True, key_given=False, workers=1, after=after,
                          derived=derived)
        if rep.ok and rep.read_models == "checked" and key is not None and rep.last_seq > derived[1]:
            last = conn.execute("SELECT hash FROM main.events WHERE seq = ?", (rep.last_seq,)).fetchone()
            if last is not None:     # kept for the next check, which folds only the rows written since
                figures_cache.save(head_file, key, db_id, derived[0], rep.last_seq, last[0])
    finally:
        derived[0].close()
    return Verified(rep.finding, rep.rows, after[0], rep.last_seq, rep.seals, time.perf_counter() - started,
                    derived[1])


def checked(db: Path | str, work: Callable[[sqlite3.Connection, Access], T],
            key: bytes | None = None) -> tuple[Verified, T]:
    """The log at ``db`` checked, then ``work(conn, access)`` in the very snapshot that was
    checked: the figures it reads are the ones that passed (or failed: the caller says so)."""
    db = Path(db)

    def both(conn: sqlite3.Connection, acc: Access):
        v = check_conn(conn, acc, db, key)
        try:
            return v, work(conn, acc)
        finally:
            conn.execute("COMMIT")
            if "derived" in {r[1] for r in conn.execute("PRAGMA database_list")}:
                conn.execute("DETACH DATABASE derived")

    return read_db(db, both)[0]


class NotVerified(RuntimeError):
    """A figure asked of a record that failed its check; ``verified`` says where and how."""

    def __init__(self, verified: Verified, what: str = "the report"):
        f = verified.finding
        super().__init__(f"{what} is not made from a record that fails its check: row {f.seq}: {f.kind}: {f.detail} "
                         "(pitdesk audit verify names every finding; --unverified prints it marked NOT VERIFIED)")
        self.verified = verified


__all__ = ["NotVerified", "Verified", "check_conn", "checked"]
