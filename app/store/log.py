"""The audit log: one writer thread appends sealed, chained rows and acknowledges them only
after the commit is on disk.

``append`` blocks until its rows are durable and returns their sequence numbers. Callers on
other threads queue rows with ``submit``; the writer takes everything queued into one
transaction, so batching comes for free under load. Any SQLite failure (disk full, read-only
file, I/O error) rolls the transaction back, stops the log and fails every waiting caller
with a ``StoreStopped`` that says why: the workstation stops accepting work rather than lose it.

A batch's head is recorded outside the database before its COMMIT and again after it
(``app.store.heads``), and callers are answered only then, so the head file is never behind
the log and a batch missing from the log was never acknowledged.

Other processes may append to the same database (``pitdesk users add`` while a shift runs):
each transaction starts with ``BEGIN IMMEDIATE`` (waiting up to the busy timeout for the other
writer), re-reads the last row inside it, and folds the rows appended meanwhile into the engine
states, so the chain stays one chain.

Whoever keeps count of what is logged (the workstation's journal) ``listen``s: it is handed every
row as committed (``Logged``: its data as sealed, after ``prepare``), this process's and the rows
other processes appended, in the log's order, and never has to read them back.

A simulated shift, and only it (app/simulate/shift.py), opens its log with ``commit_every``: rows
are acknowledged (and handed to the listeners) as soon as they are sealed in the writer's open
transaction, which is committed once it holds that many rows, at ``flush()`` and at ``close()``,
each commit with its head recorded before and after as always. The rows and the chain are those
of any log; a crash loses the rows since the last commit, which were acknowledged, so no log
people work on is ever opened so. Meanwhile another process cannot write to the database.
"""

from __future__ import annotations

import json
import queue
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Future
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TypeVar

from . import chain, checkpoint, heads, paths
from .holder import location_fault
from .read_models import STATEFUL, Projector, catch_up, reproject, restore
from .schema import BUSY_TIMEOUT, READ_MODELS, connect, migrate

T = TypeVar("T")


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


@dataclass(frozen=True)
class Logged:
    """One row as the log holds it: its place in the chain and what was sealed."""

    seq: int
    time: datetime
    type: str
    actor: str
    role: str
    table: str | None
    data: dict


def logged(seq: int, time: str, table: str | None, type_: str, actor: str, role: str, body: str) -> Logged:
    """A row read from the events table (its body is the sealed JSON)."""
    return Logged(seq, datetime.fromisoformat(time), type_, actor, role, table, json.loads(body)["data"])


def where(*conditions: tuple[str, tuple] | None) -> tuple[str, tuple]:
    """`` WHERE`` joining the conditions given (``(sql, params)``; None: left out), and their
    parameters: ``where(("status = 'pending'", ()), ("table_id = ?", (t,)) if t else None)``."""
    given = [c for c in conditions if c is not None]
    if not given:
        return "", ()
    return " WHERE " + " AND ".join(sql for sql, _ in given), tuple(p for _, ps in given for p in ps)


def explain(e: sqlite3.Error, path: Path) -> str:
    text = str(e)
    if "readonly" in text or "read-only" in text:
        return f"the audit database {path} is read-only ({text}); no more work is accepted"
    if "full" in text:
        return f"the disk holding {path} is full ({text}); no more work is accepted"
    if "disk I/O" in text:
        return f"the disk holding {path} failed ({text}); no more work is accepted"
    if "locked" in text or "busy" in text:
        return (f"another process has held the write lock of the audit database {path} for longer than this "
                f"writer waits ({text}); no more work is accepted")
    return f"the audit database {path} refused a write ({text}); no more work is accepted"


class _HeadNotRecorded(Exception):
    """The head could not be recorded before COMMIT: the batch is rolled back and the log stops."""


def _tail(conn: sqlite3.Connection) -> tuple[int, str]:
    last = conn.execute("SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()
    return last if last else (0, chain.GENESIS)


# the rows that change a table's engine state are projected with the states (read_models.STATEFUL);
# the rest without them
_NO_STATES = Projector()


class AuditLog:
    def __init__(self, path: Path | str, key: bytes | None = None, record_head: bool = True,
                 busy_timeout: float = BUSY_TIMEOUT, commit_every: int = 0):
        """``busy_timeout``: seconds a write waits for another process's write to end;
        ``commit_every``: a simulated shift's (see the module's docstring), 0 for every other log."""
        self.path = Path(path)
        self._commit_every = commit_every
        self._uncommitted: tuple[int, str] | None = None   # the committed head an open transaction follows
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StoreError(f"cannot open the audit database {self.path}: "
                             f"{location_fault(self.path) or e.strerror or e}") from None
        self.key = key if key is not None else paths.install_key()
        self.stopped: str | None = None
        self._failed_check = False     # stopped by the start-up check (check()): still read
        self._lock = threading.Lock()  # readers share the connection with the writer
        self._closed = False           # the connection is closed (close()): reads are refused
        self._open(busy_timeout)
        self._head_path = paths.head_file(self.db_id) if record_head else None
        if self._head_path is not None:
            self._check_head()
        self._listeners: list[Callable[[list[Logged]], None]] = []
        self._queue: queue.Queue = queue.Queue()
        self._thread = threading.Thread(target=self._run, name=f"audit-writer {self.path.name}", daemon=True)
        self._thread.start()

    def _open(self, busy_timeout: float) -> None:
        """Connect, migrate and read the tail. SQLite answers "locked" at once, without waiting,
        to a second process that puts a new database in WAL mode or reads its schema while the
        first is doing so (two commands at first run): that is tried again until ``busy_timeout``."""
        deadline = time.monotonic() + busy_timeout
        while True:
            conn = None
            try:
                conn = self._conn = connect(self.path, busy_timeout)
                migrate(conn)
                reproject(conn)   # a migration that added read-model columns: filled from the log
                self.db_id = conn.execute("SELECT value FROM meta WHERE key = 'db_id'").fetchone()[0]
                self._resync()
                return
            except sqlite3.Error as e:
                if conn is not None:
                    conn.close()
                locked = "locked" in str(e) or "busy" in str(e)
                if locked and time.monotonic() < deadline:
                    time.sleep(0.05)
                    continue
                if locked:
                    raise StoreError(f"cannot open the audit database {self.path}: another process (another "
                                     f"workstation, or a tool holding it open) has it locked ({e})") from None
                # SQLite's "unable to open database file" names no cause: a read-only folder or file does
                raise StoreError(f"cannot open the audit database {self.path}: "
                                 f"{location_fault(self.path) or e}") from None

    def _resync(self) -> None:
        """The last row; the engine states are restored from the database the first time they are
        needed (``_states``): a command that only appends a report's number to a long log does not
        replay every table's procedures (three seconds for 150,000 events)."""
        self.seq, self.head_hash = _tail(self._conn)
        self._projector: Projector | None = None

    def _states(self, conn: sqlite3.Connection) -> Projector:
        """The engine states, restored from every row ``conn`` sees if not yet (under the lock; in
        the writer's transaction the rows of the batch written so far are among them)."""
        if self._projector is None:
            self._projector = restore(conn)
        return self._projector

    def _check_head(self) -> None:
        """Refuse to write on a log whose tail is gone: the next head would cover the cut."""
        try:
            h = heads.read(self._head_path, self.key, self.db_id)
        except (OSError, heads.HeadError) as e:
            self._conn.close()
            raise StoreError(f"cannot open the audit database {self.path}: {e}") from None
        if h is not None and not self._on_chain(self._conn, h.seq, h.hash):
            self._conn.close()
            raise StoreError(f"cannot open the audit database {self.path}: it ends at row {self.seq} or differs "
                             f"from the head recorded in {self._head_path} (row {h.seq}); rows were cut or "
                             "changed ('pitdesk audit verify' names the first)")

    @staticmethod
    def _on_chain(conn: sqlite3.Connection, seq: int, h: str) -> bool:
        if seq == 0:
            return h == chain.GENESIS
        row = conn.execute("SELECT hash FROM events WHERE seq = ?", (seq,)).fetchone()
        return row is not None and row[0] == h

    @property
    def projector(self) -> Projector:
        """The tables' engine states, brought up to date with rows another process appended."""
        with self._lock:
            # a log that failed its start-up check is read (read-only), though nothing is written
            if not self.stopped or (self._failed_check and not self._closed):
                try:
                    self._catch_up(self._conn)
                    if self._projector is None:
                        # the tail and the states of one moment (a simulated shift's open
                        # transaction is one already)
                        began = not self._conn.in_transaction
                        if began:
                            self._conn.execute("BEGIN")
                        try:
                            self._states(self._conn)
                            self.seq, self.head_hash = _tail(self._conn)
                        finally:
                            if began:
                                self._conn.execute("COMMIT")
                except sqlite3.Error:
                    pass  # the states so far; the writer reports a database that fails
            return self._projector if self._projector is not None else Projector()

    def check(self) -> checkpoint.Checked:
        """The start-up check (app/store/checkpoint.py): every row since the last check recorded,
        the head file and the checkpoint's own row. A log that fails stops here, before anything
        is written on top of it: every write is refused, naming the row and the kind."""
        with self._lock:
            try:
                done = checkpoint.check(self._conn, self.key, self.db_id, self._head_path)
            except (sqlite3.Error, OSError, heads.HeadError) as e:
                done = checkpoint.Checked(0, 0, 0, 0.0, checkpoint.Finding(0, "unreadable", str(e)))
            if done.finding is not None and not self.stopped:
                self.stopped = done.stopped(self.path)
                self._failed_check = True
        return done

    def listen(self, listener: Callable[[list[Logged]], None]) -> None:
        """Hand ``listener`` every row committed from now on, in order, as a list per commit (this
        process's, on the writer's thread before its callers are answered; another process's
        when this one catches up with them, on the thread that does). It must be quick and must
        not call the log."""
        with self._lock:
            self._listeners.append(listener)

    def _tell(self, rows: list[Logged]) -> None:
        for listener in self._listeners:
            listener(rows)

    def _catch_up(self, conn: sqlite3.Connection) -> tuple[int, str]:
        """The last row; rows appended by another process since this one's last are folded into
        the engine states (their read-model rows were written by that process) and told to the
        listeners."""
        seq, h = _tail(conn)
        if seq > self.seq:
            if self._projector is not None:    # else restored whole when first needed
                catch_up(self._projector, conn, self.seq, seq)
            if self._listeners:
                self._tell([logged(*r) for r in conn.execute(
                    "SELECT seq, time, table_id, type, actor, role, body FROM events WHERE seq > ? AND seq <= ? "
                    "ORDER BY seq", (self.seq, seq))])
            self.seq, self.head_hash = seq, h
        elif seq < self.seq:  # the log was cut under this writer: the head check refuses to go on
            self._projector = None
            self.seq, self.head_hash = seq, h
        return seq, h

    # -- writing ------------------------------------------------------------------------------
    def _queued(self, records: Iterable[Record]) -> Future:
        """``records`` queued for the writer; the future's result is the rows as logged."""
        if self.stopped:
            raise StoreStopped(self.stopped)
        fut: Future = Future()
        self._queue.put((list(records), fut))
        return fut

    def submit(self, records: Iterable[Record]) -> Future:
        """``records`` queued for the writer; the future's result is their sequence numbers."""
        rows = self._queued(records)
        seqs: Future = Future()

        def done(f: Future) -> None:
            e = f.exception()
            if e is not None:
                seqs.set_exception(e)
            else:
                seqs.set_result([r.seq for r in f.result()])
        rows.add_done_callback(done)
        return seqs

    def append_many(self, records: Iterable[Record]) -> list[int]:
        return [r.seq for r in self.write(records)]

    def write(self, records: Iterable[Record]) -> list[Logged]:
        """Append ``records`` in one transaction: the rows as logged (``append_many``'s seqs with
        what was sealed)."""
        return self._queued(records).result()

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
        if self._commit_every:
            self._write_open(batch)
            return
        while batch:
            batch = self._commit(batch)

    def _stop(self, batch: list[tuple[list[Record], Future]], reason: str) -> list:
        self.stopped = reason
        for _, fut in batch:
            fut.set_exception(StoreStopped(reason))
        return []

    def _commit(self, batch: list[tuple[list[Record], Future]]) -> list[tuple[list[Record], Future]]:
        """Write the batch in one transaction; what is left to retry (the batch without a
        submission whose record was refused, which alone gets the error)."""
        if self.stopped:
            return self._stop(batch, self.stopped)
        done: list[list[Logged]] = []
        at = 0
        with self._lock:
            conn = self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
                # the last row as it is now, under the write lock: another process may have
                # appended since this one's last commit, and the batch must follow its rows
                after = self._catch_up(conn)
                seq, head = after
                for at, (records, _) in enumerate(batch):
                    seqs, seq, head = self._seal(conn, records, seq, head)
                    done.append(seqs)
                if seq > after[0]:
                    try:
                        self._record_intent(conn, after, (seq, head))
                    except (OSError, heads.HeadError) as e:
                        raise _HeadNotRecorded(e) from e
                conn.execute("COMMIT")
                self.seq, self.head_hash = seq, head
            except Exception as e:
                if conn.in_transaction:
                    try:
                        conn.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass
                # the engine states may hold rows that were rolled back: restore from the log
                try:
                    self._resync()
                except sqlite3.Error:
                    pass
                if isinstance(e, sqlite3.Error):
                    return self._stop(batch, explain(e, self.path))
                if isinstance(e, _HeadNotRecorded):
                    return self._stop(batch, f"the head of {self.path} cannot be recorded in {self._head_path} "
                                             f"before the commit ({e.__cause__}); the batch was not written and no "
                                             "more work is accepted")
                # a bad record (e.g. a prepare that refused): its caller's fault alone; the log goes
                # on, and the submissions queued with it are written again without it
                batch[at][1].set_exception(e)
                return batch[:at] + batch[at + 1:]
        if seq > after[0]:
            try:
                self._record_committed((seq, head))
            except (OSError, heads.HeadError) as e:
                # the rows are committed, so they are acknowledged below (the head recorded before
                # the commit covers them), but a head that cannot be kept outside the database would
                # let a later cut-off tail go unnoticed: stop here
                self.stopped = (f"the head of {self.path} cannot be recorded in {self._head_path} ({e}); "
                                "no more work is accepted")
        if self._listeners:
            self._tell([row for rows in done for row in rows])
        for (_, fut), rows in zip(batch, done):
            fut.set_result(rows)
        return []

    def _seal(self, conn: sqlite3.Connection, records: list[Record], seq: int, head: str
              ) -> tuple[list[Logged], int, str]:
        """Insert ``records`` after row ``seq`` (hash ``head``), sealed and chained, their read
        models projected; the rows as logged, and the new last row."""
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
                         (seq, t, r.table, r.type, r.actor, r.role, body, head, h, chain.seal(self.key, h)))
            states = self._states(conn) if r.type in STATEFUL else _NO_STATES
            states.project(conn, seq, t, r.table, r.type, r.actor, r.role, data)
            head = h
            seqs.append(Logged(seq, r.time, r.type, r.actor, r.role, r.table, data))
        return seqs, seq, head

    # -- a simulated shift's log: committed every ``commit_every`` rows ---------------------------
    def _write_open(self, batch: list[tuple[list[Record], Future]]) -> None:
        """Seal ``batch`` in the open transaction (begun if none is), each submission under a
        savepoint so that a bad record is undone alone; commit once it holds ``commit_every`` rows.
        The callers are answered before the commit."""
        if self.stopped:
            self._stop(batch, self.stopped)
            return
        done: list[tuple[Future, list[Logged]]] = []
        with self._lock:
            conn = self._conn
            try:
                if self._uncommitted is None:
                    conn.execute("BEGIN IMMEDIATE")
                    self._uncommitted = self._catch_up(conn)
                for records, fut in batch:
                    conn.execute("SAVEPOINT submission")
                    try:
                        rows, seq, head = self._seal(conn, records, self.seq, self.head_hash)
                    except sqlite3.Error:
                        raise
                    except Exception as e:   # a bad record: its caller's fault alone
                        conn.execute("ROLLBACK TO submission")
                        conn.execute("RELEASE submission")
                        self._projector = None   # restored from the open transaction when next needed
                        fut.set_exception(e)
                        continue
                    conn.execute("RELEASE submission")
                    self.seq, self.head_hash = seq, head
                    done.append((fut, rows))
                if self.seq - self._uncommitted[0] >= self._commit_every:
                    self._commit_open(conn)
            except Exception as e:
                self._uncommitted = None
                if conn.in_transaction:
                    try:
                        conn.execute("ROLLBACK")
                    except sqlite3.Error:
                        pass
                try:
                    self._resync()
                except sqlite3.Error:
                    pass
                why = explain(e, self.path) if isinstance(e, sqlite3.Error) else (
                    f"the head of {self.path} cannot be recorded in {self._head_path} before the commit "
                    f"({e.__cause__ or e}); the rows since the last commit were not written")
                self._stop([(None, fut) for fut, _ in done if not fut.done()]
                           + [(None, fut) for _, fut in batch if not fut.done()], why)
                return
        if self._listeners:
            self._tell([row for _, rows in done for row in rows])
        for fut, rows in done:
            fut.set_result(rows)

    def _commit_open(self, conn: sqlite3.Connection) -> None:
        """Commit the open transaction (under the lock), its head recorded before and after."""
        after, self._uncommitted = self._uncommitted, None
        new = (self.seq, self.head_hash)
        if new[0] > after[0]:
            try:
                self._record_intent(conn, after, new)
            except (OSError, heads.HeadError) as e:
                raise _HeadNotRecorded(e) from e
        conn.execute("COMMIT")
        if new[0] > after[0]:
            try:
                self._record_committed(new)
            except (OSError, heads.HeadError) as e:
                self.stopped = (f"the head of {self.path} cannot be recorded in {self._head_path} ({e}); "
                                "no more work is accepted")

    def flush(self) -> None:
        """Commit what a simulated shift's log holds uncommitted (nothing to do for any other log)."""
        with self._lock:
            if self._uncommitted is not None and not self.stopped:
                self._commit_open(self._conn)

    def _record_intent(self, conn: sqlite3.Connection, after: tuple[int, str], new: tuple[int, str]) -> None:
        """Before COMMIT: the head the batch follows and the head it makes, on disk."""
        if self._head_path is not None:
            heads.record_intent(self._head_path, self.key, self.db_id, after, new,
                                lambda s, h: self._on_chain(conn, s, h))

    def _record_committed(self, head: tuple[int, str]) -> None:
        """After COMMIT, before any caller is answered: the batch's head as committed."""
        if self._head_path is not None:
            heads.record_committed(self._head_path, self.key, self.db_id, head)

    # -- reading ------------------------------------------------------------------------------
    def counts(self, *tables: str) -> dict[str, int]:
        """How many rows each of ``tables`` holds (``events``, or a read model)."""
        unknown = set(tables) - {"events", *READ_MODELS}
        if unknown:
            raise StoreError(f"no table {sorted(unknown)[0]!r} in the audit database")
        return {name: self.query(f"SELECT count(*) AS n FROM {name}")[0]["n"] for name in tables}

    def last_time(self) -> str | None:
        """The time of the last row, as logged (ISO text); None on an empty log."""
        last = self.query("SELECT time FROM events ORDER BY seq DESC LIMIT 1")
        return last[0]["time"] if last else None

    def query(self, sql: str, params: tuple = ()) -> list[dict]:
        with self._lock:
            if self._closed:
                raise StoreStopped(self.stopped or f"the audit log {self.path} is closed")
            cur = self._conn.execute(sql, params)
            cols = [c[0] for c in cur.description]
            return [dict(zip(cols, row)) for row in cur.fetchall()]

    def read(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """``work(conn)`` on the log's connection, held as ``query`` holds it (a read of several
        statements, or one written for a plain connection: app/store/pace_rows.py)."""
        with self._lock:
            if self._closed:
                raise StoreStopped(self.stopped or f"the audit log {self.path} is closed")
            return work(self._conn)

    def rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        """As ``query``, each row a plain tuple: a long series read without a dict per row."""
        with self._lock:
            if self._closed:
                raise StoreStopped(self.stopped or f"the audit log {self.path} is closed")
            return self._conn.execute(sql, params).fetchall()

    def close(self) -> None:
        if self._thread.is_alive():
            self._queue.put(None)
            self._thread.join()
        try:
            self.flush()
        except (sqlite3.Error, _HeadNotRecorded) as e:
            self.stopped = f"the audit log {self.path} could not commit its last rows ({e}); they are lost"
        if not self.stopped:
            self.stopped = f"the audit log {self.path} is closed; no more work is accepted"
        while True:  # anything submitted while closing would otherwise wait for ever
            try:
                item = self._queue.get_nowait()
            except queue.Empty:
                break
            if item is not None:
                item[1].set_exception(StoreStopped(self.stopped))
        with self._lock:   # a reader on another thread is never inside the connection as it closes
            self._conn.close()
            self._closed = True

    def __enter__(self) -> "AuditLog":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
