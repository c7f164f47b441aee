"""``audit verify``: walk the chain from the first row and name the first row that is wrong.

What each finding means:
- ``deleted``: a sequence number is missing;
- ``reordered``: a row holds another position's sealed body, or does not link to the row before;
- ``edited``: a body no longer matches its hash, or a column (a field of an export line)
  differs from the sealed body;
- ``forged``: the chain links but the seal is not the install key's;
- ``truncated``: the log ends before the head recorded outside it (the head file this
  workstation keeps, or the head printed on the last report: ``--head SEQ:HASH``), or inside
  the batch the head file says was being committed (a batch is committed whole).

A head file may name a batch about to be committed (``app.store.heads``): if the log ends
exactly where that batch would begin, the batch was never committed and nothing acknowledged is
missing (verify passes and says so); if the batch is in the log, its head is checked.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from . import chain
from .limited import LINE_CHARS, read_line

COLUMNS = ("time", "table", "type", "actor", "role")


@dataclass
class Finding:
    seq: int
    kind: str
    detail: str
    # a read model that differs from the log: {"table", "key", "log", "stored"} (app.store.derive)
    where: dict | None = None

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
    # the batch a head file said was about to be committed: {"rows": [first, last], "committed": bool}
    last_batch: dict | None = None
    wal: dict | None = None  # the -wal file beside the database, if any, and whether it was read
    backup: dict | None = None  # what a backup's own sealed head says (app.store.backup)
    seals: str = "checked"      # or "not checked" (no key, or not the key that sealed the log)
    seals_why: str | None = None
    read_models: str | None = None  # "checked": derived from the log and compared, row for row

    @property
    def ok(self) -> bool:
        return self.finding is None

    def as_json(self) -> dict:
        return {"ok": self.ok, "rows": self.rows, "head": {"seq": self.last_seq, "hash": self.last_hash},
                "first_bad": None if self.ok else {"seq": self.finding.seq, "kind": self.finding.kind,
                                                   "detail": self.finding.detail, **(self.finding.where or {})},
                "seals": self.seals, **({"seals_why": self.seals_why} if self.seals_why else {}),
                "read_models": self.read_models,
                "head_checked": self.head_checked, "last_batch": self.last_batch, "wal": self.wal,
                "backup": self.backup, "notes": self.notes}


# seq, cols..., body, prev, hash, mac; an export row adds the line's own fields (they must be the body's)
Row = tuple[int, str, str | None, str, str, str, str, str, str, str]


def verify_rows(rows: Iterable[Row], key: bytes | None, head: dict | list[dict] | None = None,
                locate: Callable[[str], int | None] | None = None,
                after: tuple[int, str] = (0, chain.GENESIS)) -> Report:
    """Check every row; then each head recorded outside (a dict, or a list of them: every one
    must be on the chain, the finding with the lowest row number is reported). ``key`` None:
    the chain only, the seals not checked. ``locate(hash)``: the row holding a hash, to say
    where a row that does not link to the one before links to.
    ``after``: the rows start after this (seq, hash), already checked (the start-up check,
    app/store/checkpoint.py); ``rows`` counts only the rows after it.

    Only the hashes of the heads to check are kept, not every row's (a million rows would hold
    some 200 MB of them)."""
    rep = Report()
    if key is None:
        rep.seals = "not checked"
    expected, prev = after[0] + 1, after[1]
    rep.last_seq, rep.last_hash = after
    heads = [head] if isinstance(head, dict) else list(head or [])
    wanted = wanted_hashes(heads)
    seen_hashes: dict[str, int] = {after[1]: after[0]} if after[0] and after[1] in wanted else {}
    for row in rows:
        f, _ = check_row(row, expected, prev, key, locate)
        if f is not None:
            rep.finding = f
            return rep
        seq, row_hash = row[0], row[8]
        if row_hash in wanted:
            seen_hashes[row_hash] = seq
        prev, expected = row_hash, seq + 1
        rep.rows += 1
        rep.last_seq, rep.last_hash = seq, row_hash
    check_heads(rep, seen_hashes, heads)
    return rep


def wanted_hashes(heads: list[dict]) -> set[str]:
    """The hashes a walk keeps the row of: the heads' (and the batches' they say were pending)."""
    return {h["hash"] for h in heads} | {h["pending"][1] for h in heads if h.get("pending")}


def unfoldable(seq: int, e: Exception) -> Finding:
    return Finding(seq, "edited", f"the row cannot be folded into the read models ({e!r})")


def check_row(row: Row, expected: int, prev: str, key: bytes | None,
              locate: Callable[[str], int | None] | None) -> tuple[Finding | None, dict | None]:
    """One row after the row ``expected - 1`` whose hash is ``prev``: its finding, or None and
    its parsed body. The checks in their order, so that a row wrong in several ways is
    reported the same whichever walk found it (app/store/walk.py asks this of every row its
    fast checks do not vouch for)."""
    seq, time, table, type_, actor, role, body, prev_hash, row_hash, mac, *line = row
    if seq != expected:
        kind = "deleted" if seq > expected else "reordered"
        return Finding(expected, kind, f"sequence {expected} is missing; the next row is {seq}"
                       if seq > expected else f"sequence {seq} appears again after {expected - 1}"), None
    if chain.link(prev_hash, body) != row_hash:
        return Finding(seq, "edited", "the sealed body does not match its hash"), None
    try:
        b = json.loads(body)
    except ValueError:
        return Finding(seq, "edited", "the body is not JSON"), None
    if not isinstance(b, dict):
        return Finding(seq, "edited", "the body is not a JSON object"), None
    if b.get("seq") != seq:
        return Finding(seq, "reordered", f"the row holds the sealed body of row {b.get('seq')}"), None
    if prev_hash != prev:
        where = locate(prev_hash) if locate is not None else None
        return Finding(seq, "reordered" if where else "deleted",
                       "the row does not link to the row before it" +
                       (f" (it links to row {where})" if where else "; a row before it was removed")), None
    if (b.get("time"), b.get("table"), b.get("type"), b.get("actor"), b.get("role")) != \
            (time, table, type_, actor, role):
        col, value = next((c, v) for c, v in zip(COLUMNS, (time, table, type_, actor, role)) if b.get(c) != v)
        return Finding(seq, "edited", f"column {col!r} reads {value!r}, the sealed body {b.get(col)!r}"), None
    if line and line[0] != b:
        k = next((k for k in sorted(set(line[0]) | set(b)) if line[0].get(k) != b.get(k)), "?")
        return Finding(seq, "edited", f"field {k!r} of the line reads {line[0].get(k)!r}, "
                                      f"the sealed body {b.get(k)!r}"), None
    if key is not None and not chain.seal_ok(key, row_hash, mac):
        return Finding(seq, "forged", "the seal does not match: the row was not written with this "
                                      "install's key"), None
    return None, b


def check_heads(rep: Report, seen_hashes: dict[str, int], heads: list[dict]) -> None:
    """After a walk that found nothing wrong in the rows: each head recorded outside must be on
    the chain; the finding with the lowest row number is reported."""
    findings = []
    checked = []
    for h in heads:
        f = _on_chain(rep, seen_hashes, h["seq"], h["hash"], h.get("source", "elsewhere"))
        if f is not None:
            findings.append(f)
            continue
        checked.append(h)
        if h.get("pending"):
            f = _pending(rep, seen_hashes, h)
            if f is not None:
                findings.append(f)
            elif rep.last_batch["committed"]:
                ps, ph = h["pending"]
                checked.append({"seq": ps, "hash": ph, "source": h.get("source", "elsewhere")})
    if checked:
        rep.head_checked = {k: v for k, v in max(checked, key=lambda h: h["seq"]).items() if k != "pending"}
    if findings:
        rep.finding = min(findings, key=lambda f: f.seq)


def _on_chain(rep: Report, seen: dict[str, int], hs: int, hh: str, source: str) -> Finding | None:
    """A head recorded outside the log must be a row of it."""
    if hs > rep.last_seq:
        return Finding(rep.last_seq + 1, "truncated", f"the log ends at row {rep.last_seq} but the head recorded "
                                                      f"{source} is row {hs}")
    if hs and hh not in seen:
        return Finding(hs, "edited", f"row {hs} differs from the head recorded {source}")
    if hs and seen[hh] != hs:
        return Finding(hs, "reordered", "the recorded head hash is at another row")
    return None


def _pending(rep: Report, seen: dict[str, int], h: dict) -> Finding | None:
    """The batch after a committed head ``h`` that the head file says was about to be committed."""
    hs, (ps, ph) = h["seq"], h["pending"]
    source = h.get("source", "elsewhere")
    rows = [hs + 1, ps]
    if seen.get(ph) == ps:
        rep.last_batch = {"rows": rows, "committed": True}
        rep.notes.append(f"the last batch (rows {hs + 1} to {ps}) was committed; its writer stopped before "
                         "recording it as committed, and its head recorded before the commit was checked")
        return None
    if rep.last_seq == hs:
        # the writer recorded this head before COMMIT and answered no caller before the commit was
        # on disk and recorded: a batch that is not in the log was never acknowledged
        rep.last_batch = {"rows": rows, "committed": False}
        rep.notes.append(f"the last batch was never committed: nothing acknowledged is missing (rows {hs + 1} to "
                         f"{ps} were being written when the writer stopped)")
        return None
    if rep.last_seq < ps:
        return Finding(rep.last_seq + 1, "truncated", f"the log ends at row {rep.last_seq}, inside the batch of rows "
                                                      f"{hs + 1} to {ps} recorded {source} as being committed; a batch "
                                                      "is committed whole, so its tail was cut")
    where = seen.get(ph)
    if where:
        return Finding(ps, "reordered", f"the head recorded {source} for row {ps} is at row {where}")
    return Finding(ps, "edited", f"row {ps} differs from the head recorded {source} for the batch being committed")


def db_locate(conn: sqlite3.Connection) -> Callable[[str], int | None]:
    """The row holding a hash, looked up only when a row does not link (no index: once)."""
    def locate(h: str) -> int | None:
        r = conn.execute("SELECT seq FROM events WHERE hash = ?", (h,)).fetchone()
        return r[0] if r else None
    return locate


def export_locate(path: Path) -> Callable[[str], int | None]:
    def locate(h: str) -> int | None:
        for row in export_rows(path):
            if row[8] == h:
                return row[0]
        return None
    return locate


def db_rows(conn: sqlite3.Connection) -> Iterator[Row]:
    """The log's rows in order, from a read-only connection (``app.store.reading``)."""
    yield from conn.execute("SELECT seq, time, table_id, type, actor, role, body, prev_hash, hash, hmac "
                            "FROM events ORDER BY seq")


def export_lines(path: Path) -> Iterator[tuple[int, str]]:
    """An export file's lines, numbered from 1, each at most ``LINE_CHARS`` (issue 35, finding 8):
    a line past that, or bytes that are not UTF-8, are named with the file and the line."""
    n = 0
    with open(path, encoding="utf-8") as f:
        while True:
            n += 1
            line = read_line(f, LINE_CHARS, f"{path}:{n}: an export line")   # TooLarge, NotText: ValueErrors
            if not line:
                return
            yield n, line


def export_rows(path: Path) -> Iterator[Row]:
    for n, line in export_lines(path):
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
