"""The head recorded outside the database (``heads/<db_id>.json``): never behind the log.

A writer records its batch's head *before* committing it and again after:

1. inside its write transaction, with the rows inserted but not committed, the **intent**: the
   head the batch follows (``seq``, ``hash``: committed) and the head it will make
   (``pending``), sealed together and fsynced with the folder;
2. ``COMMIT``;
3. the **committed** head (``pending`` gone), sealed and fsynced; only then are the callers
   answered.

So at every moment the file covers every committed row: a crash before the intent leaves the
previous batch's head (the log ends there); between the intent and the commit, or during the
commit, the log ends at the intent's committed head and ``audit verify`` says the last batch was
never committed (nothing acknowledged is missing, since nothing of it was acknowledged); after
the commit and before step 3, the log ends at the pending head and verify finds it there. A
log that ends anywhere else has lost rows, and verify says "truncated".

Several processes may write the same database (``pitdesk users add`` while a shift runs): every
update happens under an exclusive lock on ``<db_id>.lock`` and re-reads the file first, and a
committed head never replaces a later one, so the file never goes backwards.

The seal is an HMAC with the install key over the record's canonical JSON (``db_id``, ``seq``,
``hash``, ``pending``), so a head cannot be moved to another database, nor a pending head
dropped, without the key. Files written before pending heads existed (``hmac`` over
``"SEQ:HASH"``) are still read.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from . import chain


class HeadError(ValueError):
    """A head file that cannot be trusted or cannot be written; the message names the file."""


@dataclass(frozen=True)
class Head:
    """``seq``/``hash``: committed; ``pending``: ``(seq, hash)`` of a batch about to be committed
    after it, or None."""

    db_id: str
    seq: int
    hash: str
    pending: tuple[int, str] | None = None

    def fields(self) -> dict:
        return {"db_id": self.db_id, "seq": self.seq, "hash": self.hash,
                "pending": None if self.pending is None else {"seq": self.pending[0], "hash": self.pending[1]}}


def _canonical(fields: dict) -> str:
    return json.dumps(fields, sort_keys=True, separators=(",", ":"))


def seal(key: bytes, head: Head) -> dict:
    f = head.fields()
    return {**f, "hmac": chain.seal(key, _canonical(f))}


def parse(text: str, key: bytes, where: str) -> Head:
    """A sealed head record (``where`` names it in errors)."""
    try:
        r = json.loads(text)
        seq, h, mac = r["seq"], r["hash"], r.get("hmac", "")
        if type(seq) is not int or seq < 0 or not isinstance(h, str) or not isinstance(mac, str):
            raise TypeError("seq, hash or hmac has the wrong type")
        p = r.get("pending")
        pending = None
        if p is not None:
            if type(p["seq"]) is not int or p["seq"] <= seq or not isinstance(p["hash"], str):
                raise TypeError("the pending head must be a later row")
            pending = (p["seq"], p["hash"])
        head = Head(str(r.get("db_id", "")), seq, h, pending)
    except (ValueError, KeyError, TypeError, AttributeError) as e:
        raise HeadError(f"{where}: not a pitdesk head record ({e})") from None
    if "pending" in r:
        ok = chain.seal_ok(key, _canonical(head.fields()), mac)
    else:  # a head file from before pending heads: the seal covers "SEQ:HASH"
        ok = chain.seal_ok(key, f"{seq}:{h}", mac)
    if not ok:
        raise HeadError(f"{where}: the recorded head's seal does not match this install's key")
    return head


def read(path: Path, key: bytes, db_id: str | None = None) -> Head | None:
    """The head in ``path`` (None if there is none); with ``db_id``, it must be that database's."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    head = parse(text, key, str(path))
    # a head sealed for another database, put in this one's place, is not this database's head
    if db_id is not None and head.db_id and head.db_id != db_id:
        raise HeadError(f"{path}: the recorded head is database {head.db_id}'s, not {db_id}'s")
    return head


def fsync_dir(folder: Path) -> None:
    # the rename is only durable once the folder's entry is on disk too (POSIX); Windows cannot
    # open a folder and makes the rename durable with the file
    if sys.platform == "win32":
        return
    fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def write_durably(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` so that a crash leaves the old file or the new one, whole,
    and the new one is on disk when this returns."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_dir(path.parent)


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Exclusive among processes: every update reads the file, decides and writes under it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path.with_suffix(".lock"), os.O_RDWR | os.O_CREAT, 0o644)
    try:
        if sys.platform == "win32":
            import msvcrt
            msvcrt.locking(fd, msvcrt.LK_LOCK, 1)
        else:
            import fcntl
            fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # closing releases the lock


def record_intent(path: Path, key: bytes, db_id: str, after: tuple[int, str], new: tuple[int, str],
                  on_chain: Callable[[int, str], bool]) -> None:
    """Step 1: the batch from ``after`` to ``new`` is about to be committed. ``on_chain(seq,
    hash)`` tells whether a row of the writer's (uncommitted) transaction has that hash: the head
    recorded so far must be on the chain the batch continues, or the log was cut or rewritten
    under the writer and it must not cover that up (HeadError)."""
    with _locked(path):
        cur = read(path, key, db_id)
        if cur is not None and (cur.seq > after[0] or not on_chain(cur.seq, cur.hash)):
            raise HeadError(f"{path} records row {cur.seq}, but the log ends at row {after[0]} or row {cur.seq} "
                            "differs: the log was cut or changed under this writer ('pitdesk audit verify' names "
                            "the row)")
        write_durably(path, json.dumps(seal(key, Head(db_id, after[0], after[1], new))))


def record_committed(path: Path, key: bytes, db_id: str, head: tuple[int, str]) -> None:
    """Step 3: ``head`` is committed. Never moves the file backwards: another process may
    already have recorded a later head (or the intent of a later batch, which follows this one)."""
    with _locked(path):
        cur = read(path, key, db_id)
        if cur is not None and (cur.seq > head[0] or (cur.pending is not None and cur.pending[0] > head[0])
                                or (cur.seq == head[0] and cur.pending is None)):
            return
        write_durably(path, json.dumps(seal(key, Head(db_id, head[0], head[1]))))


# -- a backup's own head ------------------------------------------------------------------------
# ``pitdesk audit backup`` gives the copy a new db_id (so it never shares the original's head
# file, which goes on) and seals the copy's head into the copy's meta with the install key: the
# copy carries its own proof of how long it was. The sealed fields name both databases and the
# time, so the head cannot be moved to another copy or the copy passed off as another one.
BACKUP_KEYS = ("db_id", "backup_of", "backup_taken", "backup_head")


def seal_backup(key: bytes, db_id: str, backup_of: str, taken: str, seq: int, row_hash: str) -> dict:
    f = {"kind": "backup", "db_id": db_id, "backup_of": backup_of, "taken": taken, "seq": seq, "hash": row_hash}
    return {**f, "hmac": chain.seal(key, _canonical(f))}


@dataclass
class BackupHead:
    """What a backup's meta says about itself: ``head`` to check on the chain (None if it cannot
    be trusted), ``problem`` as (kind, detail) if its seal is missing, wrong or for another copy."""

    of: str
    taken: str | None
    head: dict | None
    problem: tuple[str, str] | None = None


def backup_head(meta: dict[str, str], key: bytes) -> BackupHead | None:
    """None if the database is not a backup (its meta has neither ``backup_of`` nor ``backup_head``)."""
    if "backup_of" not in meta and "backup_head" not in meta:
        return None
    of, taken = meta.get("backup_of", "?"), meta.get("backup_taken")
    text = meta.get("backup_head")
    if text is None:
        return BackupHead(of, taken, None, ("edited", f"the database says it is a backup of {of} but its sealed "
                                                      "head is gone from its meta"))
    try:
        r = json.loads(text)
        f = {k: r[k] for k in ("kind", "db_id", "backup_of", "taken", "seq", "hash")}
        if f["kind"] != "backup" or type(f["seq"]) is not int or not isinstance(f["hash"], str):
            raise TypeError("not a backup head")
        ok = chain.seal_ok(key, _canonical(f), str(r.get("hmac", "")))
    except (ValueError, KeyError, TypeError, AttributeError):
        return BackupHead(of, taken, None, ("edited", "the backup's sealed head in its meta is not a head record"))
    if not ok:
        return BackupHead(of, taken, None, ("forged", "the backup's sealed head does not match this install's key: "
                                                      f"the length it gives (row {f['seq']}) cannot be trusted"))
    if (f["db_id"], f["backup_of"], f["taken"]) != (meta["db_id"], of, taken):
        return BackupHead(of, taken, None, ("edited", f"the backup's sealed head is for database {f['db_id']} "
                                                      f"(a backup of {f['backup_of']} taken {f['taken']}), but its "
                                                      f"meta says {meta['db_id']} (of {of}, taken {taken})"))
    return BackupHead(of, taken, {"seq": f["seq"], "hash": f["hash"], "source": "in the backup's sealed head"})
