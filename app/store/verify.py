"""``audit verify``: walk the chain from the first row and name the first row that is wrong.

What each finding means:
- ``deleted``: a sequence number is missing;
- ``reordered``: a row holds another position's sealed body, or does not link to the row before;
- ``edited``: a body no longer matches its hash, or a column differs from the sealed body;
- ``forged``: the chain links but the seal is not the install key's;
- ``truncated``: the log ends before the head recorded outside it (the head file this
  workstation keeps, or the head printed on the last report: ``--head SEQ:HASH``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from . import chain
from .schema import connect

COLUMNS = ("time", "table", "type", "actor", "role")


@dataclass
class Finding:
    seq: int
    kind: str
    detail: str

    def __str__(self) -> str:
        return f"row {self.seq}: {self.kind}: {self.detail}"


@dataclass
class Report:
    rows: int = 0
    last_seq: int = 0
    last_hash: str = chain.GENESIS
    finding: Finding | None = None
    head_checked: dict | None = None
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.finding is None

    def as_json(self) -> dict:
        return {"ok": self.ok, "rows": self.rows, "head": {"seq": self.last_seq, "hash": self.last_hash},
                "first_bad": None if self.ok else {"seq": self.finding.seq, "kind": self.finding.kind,
                                                   "detail": self.finding.detail},
                "head_checked": self.head_checked, "notes": self.notes}


Row = tuple[int, str, str | None, str, str, str, str, str, str, str]  # seq, cols..., body, prev, hash, mac


def verify_rows(rows: Iterable[Row], key: bytes, head: dict | None = None) -> Report:
    rep = Report()
    expected, prev = 1, chain.GENESIS
    seen_hashes: dict[str, int] = {}
    for seq, time, table, type_, actor, role, body, prev_hash, row_hash, mac in rows:
        if seq != expected:
            kind = "deleted" if seq > expected else "reordered"
            rep.finding = Finding(expected, kind, f"sequence {expected} is missing; the next row is {seq}"
                                  if seq > expected else f"sequence {seq} appears again after {expected - 1}")
            return rep
        if chain.link(prev_hash, body) != row_hash:
            rep.finding = Finding(seq, "edited", "the sealed body does not match its hash")
            return rep
        try:
            b = json.loads(body)
        except ValueError:
            rep.finding = Finding(seq, "edited", "the body is not JSON")
            return rep
        if b.get("seq") != seq:
            rep.finding = Finding(seq, "reordered", f"the row holds the sealed body of row {b.get('seq')}")
            return rep
        if prev_hash != prev:
            where = seen_hashes.get(prev_hash)
            rep.finding = Finding(seq, "reordered" if where else "deleted",
                                  "the row does not link to the row before it" +
                                  (f" (it links to row {where})" if where else "; a row before it was removed"))
            return rep
        for col, value in zip(COLUMNS, (time, table, type_, actor, role)):
            if b.get(col) != value:
                rep.finding = Finding(seq, "edited", f"column {col!r} reads {value!r}, the sealed body {b.get(col)!r}")
                return rep
        if not chain.seal_ok(key, row_hash, mac):
            rep.finding = Finding(seq, "forged", "the seal does not match: the row was not written with this "
                                                 "install's key")
            return rep
        seen_hashes[row_hash] = seq
        prev, expected = row_hash, seq + 1
        rep.rows += 1
        rep.last_seq, rep.last_hash = seq, row_hash
    if head is not None:
        rep.head_checked = head
        hs, hh = head["seq"], head["hash"]
        if hs > rep.last_seq:
            rep.finding = Finding(rep.last_seq + 1, "truncated", f"the log ends at row {rep.last_seq} but the head "
                                  f"recorded {head.get('source', 'elsewhere')} is row {hs}")
        elif hs and hh not in seen_hashes:
            rep.finding = Finding(hs, "edited", f"row {hs} differs from the head recorded "
                                                f"{head.get('source', 'elsewhere')}")
        elif hs and seen_hashes[hh] != hs:
            rep.finding = Finding(hs, "reordered", "the recorded head hash is at another row")
    return rep


def db_rows(path: Path) -> Iterator[Row]:
    conn = connect(path, readonly=True)
    try:
        yield from conn.execute("SELECT seq, time, table_id, type, actor, role, body, prev_hash, hash, hmac "
                                "FROM events ORDER BY seq")
    finally:
        conn.close()


def db_id(path: Path) -> str | None:
    conn = connect(path, readonly=True)
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'db_id'").fetchone()
        return row[0] if row else None
    finally:
        conn.close()


def export_rows(path: Path) -> Iterator[Row]:
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
                if "export" in r:
                    continue  # the header line
                yield (r["seq"], r["time"], r["table"], r["type"], r["actor"], r["role"], r["body"], r["prev_hash"],
                       r["hash"], r["hmac"])
            except (ValueError, KeyError, TypeError) as e:
                raise ValueError(f"{path}:{n}: not an export line ({e})") from None
