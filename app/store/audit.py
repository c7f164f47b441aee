"""Verify and export the log: the functions behind ``pitdesk audit``."""

from __future__ import annotations

import json
from pathlib import Path

from . import chain, paths
from .schema import connect
from .verify import Finding, Report, db_id, db_rows, export_rows, verify_rows


def recorded_head(db: Path, key: bytes) -> dict | None:
    """The head this install last wrote for ``db``, if its seal is good (else a forged head
    file is reported rather than trusted)."""
    ident = db_id(db)
    if ident is None:
        return None
    path = paths.head_file(ident)
    if not path.exists():
        return None
    h = json.loads(path.read_text())
    if not chain.seal_ok(key, f"{h['seq']}:{h['hash']}", h.get("hmac", "")):
        raise ValueError(f"{path}: the recorded head's seal does not match this install's key")
    return {"seq": h["seq"], "hash": h["hash"], "source": f"in {path}"}


def parse_head(text: str) -> dict:
    """``SEQ:HASH`` as printed on a report."""
    try:
        seq, h = text.split(":", 1)
        if len(h) != 64 or int(h, 16) < 0:
            raise ValueError
        return {"seq": int(seq), "hash": h, "source": "on the report"}
    except ValueError:
        raise ValueError(f"a head is SEQ:HASH (a row number and 64 hex digits), got {text!r}") from None


def verify_db(db: Path, key: bytes, head: dict | None = None) -> Report:
    if not db.exists():
        raise FileNotFoundError(f"no audit database at {db}")
    heads = [h for h in (head, recorded_head(db, key)) if h]
    rep = verify_rows(db_rows(db), key, heads)  # every head given must be on the chain, not only the latest
    if not heads:
        rep.notes.append("no head recorded outside the database: a truncated tail cannot be ruled out")
    return rep


def export(db: Path, out: Path, key: bytes) -> Report:
    """Write the log with its chain as JSON lines, after a header giving the head; the file
    re-verifies on its own (``audit verify --export``)."""
    rep = verify_db(db, key)
    conn = connect(db, readonly=True)
    tmp = out.with_name(out.name + ".tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(json.dumps({"export": "pitdesk audit log", "db_id": db_id(db), "rows": rep.rows,
                                "head": {"seq": rep.last_seq, "hash": rep.last_hash},
                                "hmac": chain.seal(key, f"{rep.last_seq}:{rep.last_hash}")}) + "\n")
            for seq, body, prev, h, mac in conn.execute("SELECT seq, body, prev_hash, hash, hmac FROM events "
                                                        "ORDER BY seq"):
                b = json.loads(body)
                f.write(json.dumps({**b, "body": body, "prev_hash": prev, "hash": h, "hmac": mac},
                                   ensure_ascii=False) + "\n")
    finally:
        conn.close()
    tmp.replace(out)
    return rep


def verify_export(path: Path, key: bytes) -> Report:
    with open(path, encoding="utf-8") as f:
        first = f.readline()
    try:
        header = json.loads(first)
        assert header.get("export") == "pitdesk audit log"
        h = header["head"]
        sealed = chain.seal_ok(key, f"{h['seq']}:{h['hash']}", str(header.get("hmac", "")))
    except (ValueError, AssertionError, KeyError, TypeError, AttributeError):
        raise ValueError(f"{path}: not a pitdesk audit export (no header line)") from None
    # a header that is not sealed with this key is a finding (exit 1), not a usage fault: with
    # the wrong key the first row is reported forged; with the right one, the header itself
    rep = verify_rows(export_rows(path), key,
                      {"seq": h["seq"], "hash": h["hash"], "source": "in the export header"} if sealed else None)
    if rep.ok and not sealed:
        rep.finding = Finding(0, "forged", "the export header's seal does not match this install's key: the head "
                                           f"it gives (row {h['seq']}) cannot be trusted")
    return rep
