"""The logs an auditor reads: deck, dice, approvals, alarms, devices, irregularities, payout slips,
sign-ins, and every event, each filtered by table, time range and free text, sorted by any column,
read a page at a time (docs/workstation.md, "The logs").

``Logs`` reads through a connection of its own (app/store/logbook.py): it never takes the
workstation's lock nor the writer's, so a long read (a sort of a million rows, an export) never
holds up the live pit, and the pit never holds up a read. Each ``LogQuery`` remembers the last log
row it read up to (``top``); ``news`` brings it up to date with the rows logged since, each with the
place it takes, so that a view inserts them where they belong.

The times typed in the filter are read here: ``2026-11-21``, ``2026-11-21 14:00``,
``2026-11-21 14:00:30`` (or with a ``T``); From is the start of what is written, To the end of it
(To ``2026-11-21`` takes the whole day). A time that cannot be read, or a To before From, is
refused naming the field (``FieldsRefused``), nothing is read.
"""

from __future__ import annotations

import sqlite3
import threading
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from pathlib import Path

from app.store import logbook
from app.store.logbook import TABS, Filter, Tab

from .errors import FieldsRefused, LogStopped, Refused, WorkstationError

PAGE = 200
NEWS_BY_KEY = 300     # new rows placed one by one in an order other than the time's; more: read again
WHEN_FORMATS = (("%Y-%m-%d %H:%M:%S", timedelta(seconds=1)), ("%Y-%m-%d %H:%M", timedelta(minutes=1)),
                ("%Y-%m-%d", timedelta(days=1)))
LABELS = {"from": "From", "to": "To"}     # the filter's fields, as the view names them
WHEN_HELP = "write a date (2026-11-21), a date and time (2026-11-21 14:00) or with seconds (2026-11-21 14:00:30)"


class Interrupted(WorkstationError):
    """A query given up because a newer one was asked for (``Logs.interrupt``)."""


@dataclass(frozen=True)
class LogTab:
    name: str
    title: str
    fields: tuple[str, ...]
    by_table: bool          # the tab's rows are at a table (the table filter applies)
    time_field: str         # what the time range filters, and the order the tab opens in (newest first)


@dataclass(frozen=True)
class LogQuery:
    """One tab as filtered and sorted, read up to the log row ``top``; ``now`` times the deadlines
    of what is still in use (a deck's or the dice's time left)."""
    tab: str
    filter: Filter
    top: int
    now: datetime
    by_key: bool            # the order is a list of keys (``LogResult.keys``); else rows by position


@dataclass(frozen=True)
class LogRow:
    key: int
    values: tuple           # in the order of the tab's ``fields``


@dataclass(frozen=True)
class LogResult:
    query: LogQuery
    total: int
    rows: tuple[LogRow, ...]          # the first page
    keys: array | None                # every row's key in order (``by_key``), else None


@dataclass(frozen=True)
class LogNews:
    query: LogQuery                    # read up to the new top
    inserted: tuple[tuple[int, LogRow], ...]    # (place, row), places ascending: insert in this order
    changed: tuple[LogRow, ...]        # rows shown before that the new rows changed, as they are now
    again: bool = False                # too many new rows to place in this order: open the query again


def parse_when(text: str, field: str) -> tuple[datetime, timedelta] | None:
    """The time typed in ``field`` and the precision it was written to; None when empty."""
    t = (text or "").strip().replace("T", " ")
    if not t:
        return None
    for fmt, step in WHEN_FORMATS:
        try:
            return datetime.strptime(t, fmt), step
        except ValueError:
            pass
    why = f"cannot read {text.strip()!r} as a time; {WHEN_HELP}"
    raise FieldsRefused(f"{LABELS.get(field, field)}: {why}", {field: why})


def time_range(since: str, until: str) -> tuple[str | None, str | None]:
    """From and To as typed: the ISO start (inclusive) and end (exclusive) the log is filtered by."""
    errors: dict[str, str] = {}
    got = {}
    for field, text in (("from", since), ("to", until)):
        try:
            got[field] = parse_when(text, field)
        except FieldsRefused as e:
            errors.update(e.fields)
    if errors:
        raise FieldsRefused("; ".join(f"{LABELS[k]}: {v}" for k, v in errors.items()), errors)
    start = got["from"][0] if got["from"] else None
    end = got["to"][0] + got["to"][1] if got["to"] else None
    if start is not None and end is not None and end <= start:
        why = f"To ({until.strip()}) is before From ({since.strip()}): nothing could be shown"
        raise FieldsRefused(why, {"to": why})
    return (start.isoformat() if start else None), (end.isoformat() if end else None)


class Logs:
    """The logs of the database at ``path``; ``clock`` gives now."""

    def __init__(self, path: Path | str, clock: Callable[[], datetime]):
        self.path = Path(path)
        self.clock = clock
        self._lock = threading.Lock()
        self._conn = None
        self._closed = False
        self._state = threading.Lock()    # guards the two below; never held while reading
        self._opening = False
        self._cancel = False

    def interrupt(self) -> None:
        """Give up the query being opened, if one is (a newer one was asked for): it raises
        ``Interrupted``. From any thread; never waits: SQLite asks ``_progress`` every few thousand
        steps of a statement, and stops the statement when it says so."""
        with self._state:
            if self._opening:
                self._cancel = True

    def _progress(self) -> int:
        return 1 if self._cancel else 0

    def _check(self) -> None:
        if self._cancel:
            raise Interrupted("a newer query was asked for")

    def close(self) -> None:
        with self._lock:
            self._closed = True
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _reading(self):
        if self._closed:
            raise LogStopped("the workstation is closed")
        if self._conn is None:
            self._conn = logbook.connect(self.path)
            self._conn.set_progress_handler(self._progress, 10_000)
        return self._conn

    # -- what there is ------------------------------------------------------------------------
    @staticmethod
    def tabs() -> tuple[LogTab, ...]:
        return tuple(LogTab(t.name, t.title, t.field_names, t.table is not None,
                            next(f.name for f in t.fields if f.sql == t.time)) for t in TABS.values())

    def tables(self) -> tuple[str, ...]:
        """The tables the log has configured, in their natural order (T2 before T10)."""
        with self._lock:
            found = logbook.tables(self._reading())
        return tuple(sorted(found, key=_natural))

    # -- reading --------------------------------------------------------------------------------
    def open(self, tab: str, table: str | None = None, since: str = "", until: str = "", text: str = "",
             sort: str | None = None, descending: bool = True, page: int = PAGE) -> LogResult:
        """``tab`` as filtered: how many rows, the first ``page`` of them and, in an order other than
        the tab's time, every row's key. ``FieldsRefused`` for a time that cannot be read or a To
        before From; ``Refused`` for an unknown tab, column or table."""
        t = self._tab(tab)
        if sort is not None and sort not in t.field_names:
            raise Refused(f"the {t.title} log has no column {sort!r} (its columns: {', '.join(t.field_names)})")
        if table is not None and t.table is None:
            raise Refused(f"the {t.title} log is not kept by table: choose every table")
        start, end = time_range(since, until)
        f = Filter(table or None, start, end, text or "", sort, descending)
        now = self.clock()
        with self._lock:
            conn = self._reading()
            with self._state:
                self._opening, self._cancel = True, False
            try:
                top = logbook.last_seq(conn)
                q = LogQuery(tab, f, top, now, not logbook.natural(t, f))
                stamp = now.isoformat()
                total = logbook.count(conn, t, f, top, stamp)
                self._check()
                if q.by_key:
                    order = logbook.keys(conn, t, f, top, stamp)
                    self._check()
                    found = logbook.by_keys(conn, t, order[:page], stamp)
                    first = [found[k] for k in order[:page] if k in found]
                else:
                    order = None
                    first = logbook.page(conn, t, f, top, stamp, 0, page)
            except sqlite3.OperationalError as e:
                if "interrupt" in str(e):
                    raise Interrupted("a newer query was asked for") from None
                raise
            finally:
                with self._state:
                    self._opening = self._cancel = False
        return LogResult(q, total, tuple(_row(r) for r in first), order)

    def page(self, q: LogQuery, offset: int, limit: int = PAGE) -> tuple[LogRow, ...]:
        """Rows ``offset`` to ``offset + limit`` of a query read by position."""
        t = self._tab(q.tab)
        with self._lock:
            found = logbook.page(self._reading(), t, q.filter, q.top, self.clock().isoformat(), offset, limit)
        return tuple(_row(r) for r in found)

    def rows(self, q: LogQuery, keys: Sequence[int]) -> tuple[LogRow, ...]:
        """The rows of ``keys`` as they are now, in that order (a key no longer there is left out)."""
        t = self._tab(q.tab)
        with self._lock:
            found = logbook.by_keys(self._reading(), t, keys, self.clock().isoformat())
        return tuple(_row(found[k]) for k in keys if k in found)

    def news(self, q: LogQuery) -> LogNews:
        """The rows logged since ``q`` was read that it shows, each with its place, and the rows it
        showed that they changed (an alarm acknowledged since, a deck changed), as they are now."""
        t = self._tab(q.tab)
        now = self.clock()
        with self._lock:
            conn = self._reading()
            top = logbook.last_seq(conn)
            if top <= q.top:
                return LogNews(q, (), ())
            stamp = now.isoformat()
            new = logbook.newer(conn, t, q.filter, q.top, top, stamp, most=NEWS_BY_KEY)
            if new is None:
                return LogNews(q, (), (), again=True)
            keys = logbook.changed(conn, t, q.top, top)
            found = logbook.by_keys(conn, t, keys, stamp) if keys else {}
        return LogNews(replace(q, top=top, now=now), tuple((n, _row(r)) for n, r in new),
                       tuple(_row(found[k]) for k in keys if k in found))

    def export(self, q: LogQuery, keys: Sequence[int] | None = None, chunk: int = 5_000) -> Iterator[tuple[LogRow, ...]]:
        """Every row of ``q`` in the order shown, ``chunk`` at a time: by position up to the row ``q``
        was read to, or the rows of ``keys`` in their order (a query read by key, with the rows
        inserted since). A chunk holds the connection only while it is read."""
        t = self._tab(q.tab)
        if keys is not None:
            for i in range(0, len(keys), chunk):
                yield self.rows(q, keys[i:i + chunk])
            return
        offset = 0
        while True:
            got = self.page(q, offset, chunk)
            if not got:
                return
            yield got
            offset += len(got)

    @staticmethod
    def _tab(name: str) -> Tab:
        try:
            return TABS[name]
        except KeyError:
            raise Refused(f"no log {name!r} (the logs: {', '.join(TABS)})") from None


def _row(r: tuple) -> LogRow:
    return LogRow(r[0], tuple(r[1:]))


def _natural(table: str) -> tuple:
    head = table.rstrip("0123456789")
    tail = table[len(head):]
    return (head, int(tail) if tail else -1, table)
