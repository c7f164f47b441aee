"""The audit log: one writer thread appends sealed, chained rows and acknowledges them only
after the commit is on disk.

``append`` blocks until its rows are durable and returns their sequence numbers. Callers on
other threads queue rows with ``submit``; the writer takes everything queued into one
transaction, so batching comes for free under load. Any SQLite failure (disk full, read-only
file, I/O error) rolls the transaction back, stops the log and fails every waiting caller
with a ``StoreStopped`` that says why: the workstation stops accepting work rather than lose it.
"""

from __future__ import annotations

import json
import os
import queue
import sqlite3
import threading
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

from . import chain, paths
from .models import Projector, restore
from .schema import connect, migrate


class StoreError(RuntimeError):
    """The audit store cannot do what was asked; the message says why."""


class StoreStopped(StoreError):
    """The log stopped after a write failed; nothing more is accepted until it is reopened."""


@dataclass
class Record:
    """One row to append. ``prepare`` runs inside the writer's transaction just before the
    row is sealed and may complete ``data`` from the database (e.g. the next slip number)."""

    type: str
    time: datetime
    actor: str
    role: str
    table: str | None = None
    data: dict = field(default_factory=dict)
    prepare: Callable[[sqlite3.Connection, dict], None] | None = None


def explain(e: sqlite3.Error, path: Path) -> str:
    text = str(e)
    if "readonly" in text or "read-only" in text:
        return f"the audit database {path} is read-only ({text}); no more work is accepted"
    if "full" in text:
        return f"the disk holding {path} is full ({text}); no more work is accepted"
    if "disk I/O" in text:
        return f"the disk holding {path} failed ({text}); no more work is accepted"
    return f"the audit database {path} refused a write ({text}); no more work is accepted"


class AuditLog:
    def __init__(self, path: Path | str, key: bytes | None = None, record_head: bool = True):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.key = key if key is not None else paths.install_key()
        try:
            self._conn = connect(self.path)
            migrate(self._conn)
        except sqlite3.Error as e:
            raise StoreError(f"cannot open the audit database {self.path}: {e}") from None
        self.db_id = self._conn.execute("SELECT value FROM meta WHERE key = 'db_id'").fetchone()[0]
        self._head_path = paths.head_file(self.db_id) if record_head else None
        last = self._conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        self.seq, self.head_hash = last if last else (0, chain.GENESIS)
        self.projector: Projector = restore(self._conn)
        self.stopped: str | None = None
        self._queue: queue.Queue = queue.Queue()
        self._lock = threading.Lock()  # readers share the connection with the writer
        self._thread = threading.Thread(target=self._run, name=f"audit-writer {self.path.name}", daemon=True)
        self._thread.start()

    # -- writing ------------------------------------------------------------------------------
    def submit(self, records: Iterable[Record]) -> Future:
        if self.stopped:
            raise StoreStopped(self.stopped)
        fut: Future = Future()
        self._queue.put((list(records), fut))
        return fut

    def append_many(self, records: Iterable[Record]) -> list[int]:
        return self.submit(records).result()

    def append(self, type_: str, time: datetime, actor: str, role: str, table: str | None = None,
               data: dict | None = None, prepare=None) -> int:
        return self.append_many([Record(type_, time, actor, role, table, data or {}, prepare)])[0]

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            batch = [item]
            while len(batch) < 1000:  # everything already queued goes in the same transaction
                try:
                    nxt = self._queue.get_nowait()
                except queue.Empty:
                    break
                if nxt is None:
                    self._queue.put(None)
                    break
                batch.append(nxt)
            self._write(batch)

    def _write(self, batch: list[tuple[list[Record], Future]]) -> None:
        while batch:
            batch = self._commit(batch)

    def _commit(self, batch: list[tuple[list[Record], Future]]) -> list[tuple[list[Record], Future]]:
        """Write the batch in one transaction; what is left to retry (the batch without a
        submission whose record was refused, which alone gets the error)."""
        if self.stopped:
            for _, fut in batch:
                fut.set_exception(StoreStopped(self.stopped))
            return []
        seq, head = self.seq, self.head_hash
        done: list[list[int]] = []
        at = 0
        with self._lock:
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
                for at, (records, _) in enumerate(batch):
                    seqs = []
                    for r in records:
                        seq += 1
                        data = dict(r.data)
                        if r.prepare is not None:
                            r.prepare(conn, data)
                        t = r.time.isoformat()
                        body = chain.body(seq, t, r.table, r.type, r.actor, r.role, data)
                        h = chain.link(head, body)
                        conn.execute("INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                     (seq, t, r.table, r.type, r.actor, r.role, body, head, h,
                                      chain.seal(self.key, h)))
                        self.projector.project(conn, seq, t, r.table, r.type, r.actor, r.role, data)
                        head = h
                        seqs.append(seq)
                    done.append(seqs)
                conn.execute("COMMIT")
            except Exception as e:
                if conn.in_transaction:
                    try:
                        conn.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass
                # the projector may hold states of rows that were rolled back: restore from the log
                try:
                    self.projector = restore(conn)
                except sqlite3.Error:
                    pass
                if isinstance(e, sqlite3.Error):
                    self.stopped = explain(e, self.path)
                    for _, fut in batch:
                        fut.set_exception(StoreStopped(self.stopped))
                    return []
                # a bad record (e.g. a prepare that refused): its caller's fault alone; the log goes
                # on, and the submissions queued with it are written again without it
                batch[at][1].set_exception(e)
                return batch[:at] + batch[at + 1:]
        self.seq, self.head_hash = seq, head
        try:
            self._record_head()
        except OSError as e:
            # the rows are committed (so they are acknowledged below), but a head that cannot be
            # kept outside the database would let a cut-off tail go unnoticed: stop here
            self.stopped = (f"the head of {self.path} cannot be recorded in {self._head_path} ({e}); "
                            "no more work is accepted")
        for (_, fut), seqs in zip(batch, done):
            fut.set_result(seqs)
        return []

    def _record_head(self) -> None:
        """The head outside the database, so a truncated tail is noticed (``audit verify``)."""
        if self._head_path is None:
            return
        self._head_path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self._head_path.with_suffix(".tmp")
        tmp.write_text(json.dumps({"db_id": self.db_id, "seq": self.seq, "hash": self.head_hash,
                                   "hmac": chain.seal(self.key, f"{self.seq}:{self.head_hash}")}))
        os.replace(tmp, self._head_path)

    # -- reading ------------------------------------------------------------------------------
    def query(self, sql: str, params: tuple = ()) -> list[dict]:
        with self._lock:
            cur = self._conn.execute(sql, params)
            cols = [c[0] for c in cur.description]
            return [dict(zip(cols, row)) for row in cur.fetchall()]

    def close(self) -> None:
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()
        if not self.stopped:
            self.stopped = f"the audit log {self.path} is closed; no more work is accepted"
        while True:  # anything submitted while closing would otherwise wait for ever
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                item[1].set_exception(StoreStopped(self.stopped))
        self._conn.close()

    def __enter__(self) -> "AuditLog":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
