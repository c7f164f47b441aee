"""Verify and export the log: the functions behind ``pitdesk audit``.

Both only read (``app.store.reading``): a database that is not there is never created, and
nothing is written beside it.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from . import chain, credentials, derive, heads, paths
from .limited import TooLarge, private_file
from .reading import Access, log_meta, read_db, uri
from .verify import (Finding, Report, check_heads, export_lines, export_locate, export_rows, verify_rows,
                     wanted_hashes)
from .walk import Part, Walk


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


def seals_key(conn: sqlite3.Connection, db_id: str, key: bytes | None, given: bool,
              where: str) -> tuple[bytes | None, str | None]:
    """The key to check the seals with, or None and why not (issue 26, finding 5).

    A key given (``--key FILE``) is used whatever it says: a seal it does not match is forged.
    The install's own key is used when it is this database's: this install recorded a head for
    it (a head file is sealed with the key), or the key sealed the first row. Otherwise the log
    was sealed on another install (an auditor's machine, a restored backup): the chain is
    checked and the seals are said not to be, rather than every row reported forged."""
    if key is None:
        return None, f"{where}; the chain was checked, not the seals (give the workstation's key with --key FILE)"
    if given or paths.head_file(db_id).exists():
        return key, None
    first = conn.execute("SELECT hash, hmac FROM events WHERE seq = 1").fetchone()
    if first is None or chain.seal_ok(key, first[0], first[1]):
        return key, None
    return None, (f"the key at {where} did not seal this log (its first row) and this install has recorded no head "
                  "of it: the log was sealed on another install; the chain was checked, not the seals (give the "
                  "workstation's key with --key FILE)")


def verify_conn(conn: sqlite3.Connection, acc: Access, path: Path, key: bytes | None, given: list[dict],
                also: list[dict] = (), keep_open: bool = False, key_given: bool = True, key_where: str = "",
                read_models: bool = True, workers: int | None = None,
                after: tuple[int, str] = (0, chain.GENESIS),
                derived: tuple[derive.Derived, int] | None = None) -> Report:
    """Every row and every head: ``given`` (``--head``), the head file of this database's id,
    a backup's own sealed head, and ``also``; and every read model, derived again from the rows
    and compared (app.store.derive). The head file is read before the rows, so a writer that
    goes on meanwhile can only put the file behind the rows read, never ahead of them. With
    ``keep_open`` the rows' snapshot stays open for the caller (who ends it with COMMIT).
    ``key_given``: the key was named (``--key``), else it is this install's and is used only if
    it is this database's (``seals_key``); None: the seals are not checked. ``workers``: the
    processes the chain is walked in (app/store/walk.py; by default one a core for a long log).
    ``after``: the chain is walked from this row on, checked already (the start-up check's
    checkpoint, its own row checked by the caller: app/store/figures_check.py); the read models
    are derived from the first row all the same, or with ``derived`` the caller's derivation
    (kept by an earlier check: app/store/figures_cache.py) is folded on from the row it names, and
    left open for the caller, who closes it; every stored row is compared all the same."""
    m = log_meta(conn, path)
    key, why = seals_key(conn, m["db_id"], key, key_given, key_where or str(paths.key_file()))
    recorded = recorded_head(m["db_id"], key) if key is not None else None
    own = heads.backup_head(m, key) if key is not None else None
    hs = [h for h in (*given, recorded, *also, own.head if own else None) if h]
    own_derived = derived is None
    derived, since = derived if derived is not None else (derive.Derived() if read_models else None, 0)
    skipped: list[str] = []
    if derived is not None:
        derived.attach(conn)
    conn.execute("BEGIN")  # one snapshot for all the rows and the read models, while a writer goes on
    walk = None
    try:
        # the chain's parts start walking in other processes while the read models are derived here
        walk = Walk(conn, uri(path, acc.mode), key, after, wanted_hashes(hs), workers)
        unfolded = differs = None
        if derived is not None:
            unfolded = derived.fold(conn, walk.upto, since)
            differs = derived.compare(conn, skipped)
        rep = _chain_report(conn, walk.result(), key, hs, unfolded, after)
        if derived is not None and rep.ok:  # reported after the heads: the chain comes first
            rep.read_models = "checked" if not skipped else "partly checked"
        else:
            differs = None
            skipped.clear()
    except BaseException:
        if walk is not None:
            walk.close()
        conn.execute("ROLLBACK")
        if derived is not None and own_derived:
            derived.close()
        raise
    if not keep_open:
        conn.execute("COMMIT")
    if derived is not None:
        if not keep_open:
            derived.detach(conn)
        if own_derived:
            derived.close()
    if why:
        rep.seals_why = why
        rep.notes.append(f"seals not checked: {why}")
    if skipped:
        rep.notes.append(f"read models not compared (the database is from before they were added): {', '.join(skipped)}")
    rep.wal = acc.wal
    rep.notes.extend(acc.notes)
    if own is not None:
        _report_backup(rep, own)
    if rep.ok and differs is not None:
        rep.finding = differs
    if rep.ok and key is not None and read_models:
        # each PIN's record as the event that set it sealed it (app/store/credentials.py, issue 35)
        bad = credentials.unsealed_rows(conn, key)
        if bad is not None:
            rep.finding = Finding(bad[0], "pin record", bad[1])
    if not hs:
        rep.notes.append("no head recorded outside the database: a truncated tail cannot be ruled out")
    if (rep.finding is not None and rep.finding.kind == "truncated" and recorded is not None
            and recorded["seq"] > rep.last_seq and own is None):
        rep.notes.append(f"if {path} is a copy of the file rather than a backup made with 'pitdesk audit backup', it "
                         f"shares the original's head file ({paths.head_file(m['db_id'])}), which went on after the "
                         "copy: verify the original, and take copies with 'pitdesk audit backup'")
    return rep


def _chain_report(conn: sqlite3.Connection, walked: Part, key: bytes | None, hs: list[dict],
                  unfolded: Finding | None, after: tuple[int, str] = (0, chain.GENESIS)) -> Report:
    """The walk's report as ``verify_rows`` gives it for the rows in one pass: the first bad row,
    or a row before it that the read models cannot be folded from, or else the heads checked."""
    rep = Report(rows=walked.rows, finding=walked.finding)
    rep.last_seq, rep.last_hash = walked.last
    if key is None:
        rep.seals = "not checked"
    if unfolded is not None and (walked.finding is None or unfolded.seq < walked.finding.seq):
        # one pass stops at the row it cannot fold: the rows before it are the rows checked
        rep.finding = unfolded
        rep.rows = rep.last_seq = unfolded.seq - 1
        prev = conn.execute("SELECT hash FROM events WHERE seq = ?", (rep.last_seq,)).fetchone()
        rep.last_hash = prev[0] if prev else chain.GENESIS
    elif walked.finding is None:
        # a head at the row the walk started after is on the chain: that row was checked before
        seen = {after[1]: after[0]} if after[0] else {}
        check_heads(rep, {**seen, **walked.seen}, hs)
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


def verify_db(db: Path, key: bytes | None, head: dict | None = None, key_given: bool = True,
              key_where: str = "", read_models: bool = True) -> Report:
    """``key_given`` False: ``key`` is this install's and checks the seals only if it is this
    database's (``seals_key``)."""
    db = Path(db)
    for _ in range(3):
        before = _head_file_state(db)
        rep, _ = read_db(db, lambda conn, acc: verify_conn(conn, acc, db, key, [head] if head else [],
                                                           key_given=key_given, key_where=key_where,
                                                           read_models=read_models))
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
            with open(private_file(tmp), "w", encoding="utf-8") as f:
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


def _first_row_sealed(path: Path, key: bytes) -> bool:
    """Whether ``key`` sealed the export's first row (its second line)."""
    lines = export_lines(path)
    next(lines, None)
    line = next(lines, (0, ""))[1]
    try:
        row = json.loads(line)
        return chain.seal_ok(key, str(row["hash"]), str(row["hmac"]))
    except (ValueError, KeyError, TypeError):
        return False


def verify_export(path: Path, key: bytes | None, key_given: bool = True, key_where: str = "") -> Report:
    """An export checked on its own. As ``verify_db`` about keys (``seals_key``): a key given
    (``--key``) is used whatever it says; this install's key only if it sealed the export's
    header or its first row; else (no key, or another install's) the chain, the columns and the
    header's head are checked, and the seals are said not to be."""
    try:
        first = next(export_lines(path), (0, ""))[1]
    except FileNotFoundError:
        raise FileNotFoundError(f"no export file at {path}") from None
    except TooLarge as e:
        raise ValueError(f"{e}: not a pitdesk audit export") from None
    try:
        header = json.loads(first)
        assert header.get("export") == "pitdesk audit log"
        h = header["head"]
        claimed = f"{h['seq']}:{h['hash']}"
        sealed = key is not None and chain.seal_ok(key, claimed, str(header.get("hmac", "")))
    except (ValueError, AssertionError, KeyError, TypeError, AttributeError):
        raise ValueError(f"{path}: not a pitdesk audit export (no header line)") from None
    where = key_where or str(paths.key_file())
    why = None
    if key is None:
        why = f"{where}; the chain was checked, not the seals (give the workstation's key with --key FILE)"
    elif not key_given and not sealed and not _first_row_sealed(path, key):
        key, why = None, (f"the key at {where} sealed neither this export's header nor its first row: it was "
                          "sealed on another install; the chain was checked, not the seals (give the workstation's "
                          "key with --key FILE)")
    # a header that is not sealed with the key checking the seals is a finding (exit 1), not a
    # usage fault: with the wrong key the first row is reported forged; with the right one, the
    # header itself. Without a key its head is still checked against the rows, as a claim.
    head = {"seq": h["seq"], "hash": h["hash"],
            "source": "in the export header" if key is not None else "in the export header (its seal not checked)"}
    rep = verify_rows(export_rows(path), key, head if sealed or key is None else None, locate=export_locate(path))
    if rep.ok and key is not None and not sealed:
        rep.finding = Finding(0, "forged", "the export header's seal does not match the key: the head "
                                           f"it gives (row {h['seq']}) cannot be trusted")
    if why:
        rep.seals_why = why
        rep.notes.append(f"seals not checked: {why}")
    return rep
