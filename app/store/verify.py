"""``audit verify``: walk the chain from the first row and name the first row that is wrong.

What each finding means:
- ``deleted``: a sequence number is missing;
- ``reordered``: a row holds another position's sealed body, or does not link to the row before;
- ``edited``: a body no longer matches its hash, or a column (a field of an export line)
  differs from the sealed body;
- ``forged``: the chain links but the seal is not the install key's;
- ``truncated``: the log ends before the head recorded outside it (the head file this
  workstation keeps, or the head printed on the last report: ``--head SEQ:HASH``).
"""

from __future__ import annotations

import json
import sqlite3
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


# seq, cols..., body, prev, hash, mac; an export row adds the line's own fields (they must be the body's)
Row = tuple[int, str, str | None, str, str, str, str, str, str, str]


def verify_rows(rows: Iterable[Row], key: bytes, head: dict | list[dict] | None = None) -> Report:
    """Check every row; then each head recorded outside (a dict, or a list of them: every one
    must be on the chain, the finding with the lowest row number is reported)."""
    rep = Report()
    expected, prev = 1, chain.GENESIS
    seen_hashes: dict[str, int] = {}
    for seq, time, table, type_, actor, role, body, prev_hash, row_hash, mac, *line in rows:
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
        if not isinstance(b, dict):
            rep.finding = Finding(seq, "edited", "the body is not a JSON object")
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
        if line and line[0] != b:
            k = next((k for k in sorted(set(line[0]) | set(b)) if line[0].get(k) != b.get(k)), "?")
            rep.finding = Finding(seq, "edited", f"field {k!r} of the line reads {line[0].get(k)!r}, "
                                                 f"the sealed body {b.get(k)!r}")
            return rep
        if not chain.seal_ok(key, row_hash, mac):
            rep.finding = Finding(seq, "forged", "the seal does not match: the row was not written with this "
                                                 "install's key")
            return rep
        seen_hashes[row_hash] = seq
        prev, expected = row_hash, seq + 1
        rep.rows += 1
        rep.last_seq, rep.last_hash = seq, row_hash
    heads = [head] if isinstance(head, dict) else list(head or [])
    if heads:
        rep.head_checked = max(heads, key=lambda h: h["seq"])
    findings = []
    for h in heads:
        hs, hh = h["seq"], h["hash"]
        if hs > rep.last_seq:
            findings.append(Finding(rep.last_seq + 1, "truncated", f"the log ends at row {rep.last_seq} but the "
                                    f"head recorded {h.get('source', 'elsewhere')} is row {hs}"))
        elif hs and hh not in seen_hashes:
            findings.append(Finding(hs, "edited", f"row {hs} differs from the head recorded "
                                                  f"{h.get('source', 'elsewhere')}"))
        elif hs and seen_hashes[hh] != hs:
            findings.append(Finding(hs, "reordered", "the recorded head hash is at another row"))
    if findings:
        rep.finding = min(findings, key=lambda f: f.seq)
    return rep


def _not_a_log(path: Path, e: sqlite3.Error) -> ValueError:
    return ValueError(f"{path} cannot be read as a pitdesk audit database ({e})")


def db_rows(path: Path) -> Iterator[Row]:
    conn = None
    try:
        conn = connect(path, readonly=True)
        cur = conn.execute("SELECT seq, time, table_id, type, actor, role, body, prev_hash, hash, hmac "
                           "FROM events ORDER BY seq")
    except sqlite3.Error as e:
        if conn is not None:
            conn.close()
        raise _not_a_log(path, e) from None
    try:
        yield from cur
    finally:
        conn.close()


def db_id(path: Path) -> str | None:
    try:
        conn = connect(path, readonly=True)
        try:
            row = conn.execute("SELECT value FROM meta WHERE key = 'db_id'").fetchone()
        finally:
            conn.close()
    except sqlite3.Error as e:
        raise _not_a_log(path, e) from None
    return row[0] if row else None


def export_rows(path: Path) -> Iterator[Row]:
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                r = json.loads(line)
                if "export" in r:
                    continue  # the header line
                if type(r["seq"]) is not int:
                    raise TypeError(f"seq is {r['seq']!r}")
                fields = {k: v for k, v in r.items() if k not in ("body", "prev_hash", "hash", "hmac")}
                row = (r["seq"], r["time"], r["table"], r["type"], r["actor"], r["role"], r["body"],
                       r["prev_hash"], r["hash"], r["hmac"], fields)
            except (ValueError, KeyError, TypeError, AttributeError) as e:
                raise ValueError(f"{path}:{n}: not an export line ({e})") from None
            yield row
