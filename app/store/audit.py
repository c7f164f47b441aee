"""Verify and export the log: the functions behind ``pitdesk audit``.

Both only read (``app.store.reading``): a database that is not there is never created, and
nothing is written beside it.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from . import chain, heads, paths
from .reading import Access, log_meta, read_db
from .verify import Finding, Report, db_rows, export_rows, verify_rows


def recorded_head(db_id: str | None, key: bytes) -> dict | None:
    """The head this install last recorded for the database ``db_id``, if its seal is good
    (a forged head file is reported rather than trusted)."""
    if not db_id:
        return None
    path = paths.head_file(db_id)
    h = heads.read(path, key, db_id)
    if h is None:
        return None
    return {"seq": h.seq, "hash": h.hash, "pending": h.pending, "source": f"in {path}"}


def parse_head(text: str) -> dict:
    """``SEQ:HASH`` as printed on a report."""
    try:
        seq, h = text.split(":", 1)
        if len(h) != 64 or int(h, 16) < 0:
            raise ValueError
        return {"seq": int(seq), "hash": h, "source": "on the report"}
    except ValueError:
        raise ValueError(f"a head is SEQ:HASH (a row number and 64 hex digits), got {text!r}") from None


def verify_conn(conn: sqlite3.Connection, acc: Access, path: Path, key: bytes, given: list[dict],
                also: list[dict] = (), keep_open: bool = False) -> Report:
    """Every row and every head: ``given`` (``--head``), the head file of this database's id,
    a backup's own sealed head, and ``also``. The head file is read before the rows, so a writer
    that goes on meanwhile can only put the file behind the rows read, never ahead of them. With
    ``keep_open`` the rows' snapshot stays open for the caller (who ends it with COMMIT)."""
    m = log_meta(conn, path)
    recorded = recorded_head(m["db_id"], key)
    own = heads.backup_head(m, key)
    hs = [h for h in (*given, recorded, *also, own.head if own else None) if h]
    conn.execute("BEGIN")  # one snapshot for all the rows, while a writer goes on
    try:
        rep = verify_rows(db_rows(conn), key, hs)  # every head given must be on the chain, not only the latest
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    if not keep_open:
        conn.execute("COMMIT")
    rep.wal = acc.wal
    rep.notes.extend(acc.notes)
    if own is not None:
        _report_backup(rep, own)
    if not hs:
        rep.notes.append("no head recorded outside the database: a truncated tail cannot be ruled out")
    if (rep.finding is not None and rep.finding.kind == "truncated" and recorded is not None
            and recorded["seq"] > rep.last_seq and own is None):
        rep.notes.append(f"if {path} is a copy of the file rather than a backup made with 'pitdesk audit backup', it "
                         f"shares the original's head file ({paths.head_file(m['db_id'])}), which went on after the "
                         "copy: verify the original, and take copies with 'pitdesk audit backup'")
    return rep


def _report_backup(rep: Report, own: heads.BackupHead) -> None:
    if own.problem is not None and rep.ok:  # the rows verify but the copy's own length cannot be trusted
        rep.finding = Finding(0, *own.problem)
    rep.backup = {"of": own.of, "taken": own.taken, "head": own.head and {"seq": own.head["seq"],
                                                                          "hash": own.head["hash"]},
                  "intact_to": rep.last_seq if rep.ok else None}
    if rep.ok:
        rep.notes.append(f"a backup of database {own.of} taken {own.taken}: intact to row {rep.last_seq}")


def _head_file_state(db: Path) -> str | None:
    """The text of the head file now (to notice a writer recording heads during a verify)."""
    try:
        ident = read_db(db, lambda c, a: log_meta(c, db)["db_id"])[0]
        return paths.head_file(ident).read_text(encoding="utf-8")
    except (OSError, ValueError):
        return None


def verify_db(db: Path, key: bytes, head: dict | None = None) -> Report:
    db = Path(db)
    for _ in range(3):
        before = _head_file_state(db)
        rep, _ = read_db(db, lambda conn, acc: verify_conn(conn, acc, db, key, [head] if head else []))
        # a live writer recorded heads meanwhile: a finding may come from reading the head file and
        # the rows at different moments, so look again; a finding that stays is real
        if rep.ok or _head_file_state(db) == before:
            return rep
    return rep


def export(db: Path, out: Path, key: bytes) -> Report:
    """Write the log with its chain as JSON lines, after a header giving the head; the file
    re-verifies on its own (``audit verify --export``). The header and the rows come from the
    same snapshot of the database."""
    db, out = Path(db), Path(out)
    if not out.parent.is_dir():
        raise FileNotFoundError(f"no folder {out.parent} to write the export in")
    tmp = out.with_name(out.name + ".tmp")

    def work(conn: sqlite3.Connection, acc: Access) -> Report:
        rep = verify_conn(conn, acc, db, key, [], keep_open=True)
        try:
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(json.dumps({"export": "pitdesk audit log", "db_id": log_meta(conn, db)["db_id"],
                                    "rows": rep.rows, "head": {"seq": rep.last_seq, "hash": rep.last_hash},
                                    "hmac": chain.seal(key, f"{rep.last_seq}:{rep.last_hash}")}) + "\n")
                for seq, body, prev, h, mac in conn.execute("SELECT seq, body, prev_hash, hash, hmac FROM events "
                                                            "WHERE seq <= ? ORDER BY seq", (rep.last_seq,)):
                    b = json.loads(body)
                    f.write(json.dumps({**b, "body": body, "prev_hash": prev, "hash": h, "hmac": mac},
                                       ensure_ascii=False) + "\n")
        finally:
            conn.execute("COMMIT")
        return rep

    try:
        rep, _ = read_db(db, work)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    tmp.replace(out)
    return rep


def verify_export(path: Path, key: bytes) -> Report:
    try:
        with open(path, encoding="utf-8") as f:
            first = f.readline()
    except FileNotFoundError:
        raise FileNotFoundError(f"no export file at {path}") from None
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
