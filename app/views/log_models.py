"""One logs tab as a table model that filters and sorts in SQL and reads a page at a time.

Why not a QSortFilterProxyModel over a model of every row: a proxy sorts and filters the rows its
source holds, so the source would hold every row of the tab; the log of a million events would be
read whole into Python (seconds, and hundreds of megabytes) before the first paint. Here the tab's
rows stay in SQLite: a filter or a sort is a new query (app/workstation/logs.py), the model knows
how many rows it gives and holds only the pages the view has asked for (``PAGE`` rows each, a few
thousand rows at most); a row not yet read shows ``…`` for the moment its page takes to arrive.

Everything is read on the bridge's logs lane (app/views/bridge.py), never on the GUI thread, and
worded there too (app/views/log_columns.py). A new query (a filter applied, a header clicked) resets
the model; rows logged since arrive as row inserts at their places in the order shown
(``beginInsertRows``), and rows they changed (an alarm acknowledged, a slip voided) as
``dataChanged``: a live update never resets the model. In an order other than the tab's time, a row
whose sorted column changes keeps its place until the query is read again; a tab sorted so and
hidden while hundreds of rows arrive is read again when it is next asked for news.
"""

from __future__ import annotations

from array import array
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from app.workstation.errors import Refused
from app.workstation.logs import Interrupted

from . import theme
from .log_columns import COLUMNS, Record, recorder
from app.qt import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, QTimer, Signal

PAGE = 200             # rows read at a time
KEEP = 4_000           # rows held at most (the pages asked for last)
LOADING = "…"

KeyRole = Qt.ItemDataRole.UserRole + 1     # the row's key in its log (a rowid)
LevelRole = Qt.ItemDataRole.UserRole + 3   # ok, amber, red (tests read it)

_DISPLAY, _TOOLTIP = int(Qt.ItemDataRole.DisplayRole), int(Qt.ItemDataRole.ToolTipRole)
_FOREGROUND, _ALIGNMENT = int(Qt.ItemDataRole.ForegroundRole), int(Qt.ItemDataRole.TextAlignmentRole)
_KEY, _LEVEL = int(KeyRole), int(LevelRole)
_ROLES = frozenset({_DISPLAY, _TOOLTIP, _FOREGROUND, _ALIGNMENT, _KEY, _LEVEL})
_LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)

Read = Callable[[Callable[[Any], Any], Callable[[Any], None], Callable[[BaseException], None]], None]


class LogModel(QAbstractTableModel):
    """The rows of one tab (``tab``: a ``LogTab`` of the workstation) as ``read`` gives them:
    ``read(fn, done, failed)`` runs ``fn(workstation.logs)`` off the GUI thread."""

    opened = Signal()                  # a query's first page is in (after a filter or a sort)
    refused = Signal(str, object)      # the workstation's words, and {field: reason}
    failed = Signal(str)

    def __init__(self, tab, read: Read, interrupt: Callable[[], None] = lambda: None, parent=None):
        super().__init__(parent)
        self.tab = tab
        self._interrupt = interrupt    # gives up the query being opened (a newer one is asked for)
        self.stale = False             # its query was given up for another tab's: opened again when shown
        self.columns = COLUMNS[tab.name]
        self._record = recorder(tab.fields, self.columns)
        self._read = read
        self.filters: dict[str, Any] = {"table": None, "since": "", "until": "", "text": ""}
        self.sort_field: str | None = None
        self.descending = True
        self.query = None              # the LogQuery shown
        self.total = 0
        self.keys: array | None = None  # every row's key in order (a query read by key)
        self._rows: dict[int, Record] = {}   # by row (read by position) or by key
        self._lru: OrderedDict[int, list[int]] = OrderedDict()   # page -> what it put in _rows
        self._gen = 0                  # moves at every reset and insert: a page read before is re-read
        self._opens = 0                # the open asked for last: earlier answers are dropped
        self._opening = False
        self._wanted: OrderedDict[int, None] = OrderedDict()
        self._fetching = False
        self._scheduled = False
        self._latest = 0               # the last log row the bridge said was written
        self._news = False             # a news read is under way
        self.reads = 0                 # pages read (tests and the benchmark)

    # -- Qt's side -------------------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else self.total

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.columns):
            if role == Qt.ItemDataRole.DisplayRole:
                return self.columns[section].title
            if role == Qt.ItemDataRole.TextAlignmentRole:
                return _RIGHT if self.columns[section].numeric else _LEFT
            if role == Qt.ItemDataRole.ToolTipRole:
                return f"sort by {self.columns[section].title.lower()}"
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role=_DISPLAY):
        role = int(role)
        if role not in _ROLES:
            return None
        row, c = index.row(), index.column()
        if row < 0 or c < 0 or row >= self.total or c >= len(self.columns):
            return None
        if role == _ALIGNMENT:
            return _RIGHT if self.columns[c].numeric else _LEFT
        rec = self._get(row)
        if rec is None:
            return (LOADING if c == 0 else "") if role in (_DISPLAY, _TOOLTIP) else None
        if role in (_DISPLAY, _TOOLTIP):
            return rec.texts[c]
        if role == _KEY:
            return rec.key
        level = rec.levels[c]
        if role == _LEVEL:
            return level
        return theme.COLOUR[level] if level else None      # ForegroundRole

    def sort(self, column: int, order=Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(self.columns):
            return
        field = self.columns[column].field
        descending = order == Qt.SortOrder.DescendingOrder
        if field == self.tab.time_field:
            field = None
        if (field, descending) == (self.sort_field, self.descending):
            return
        self.sort_field, self.descending = field, descending
        self.open()

    # -- queries -----------------------------------------------------------------------------------
    def set_filters(self, table: str | None = None, since: str = "", until: str = "", text: str = "") -> None:
        """Apply a filter (a new query; ``refused`` if a time cannot be read or To is before From)."""
        self.filters = {"table": table or None, "since": since, "until": until, "text": text}
        self.open()

    def open(self) -> None:
        if self._opening:
            self._interrupt()           # a sort of a million rows is not waited for to sort again
        self._opens += 1
        ticket = self._opens
        self._opening = True
        self.stale = False
        args = dict(self.filters, sort=self.sort_field, descending=self.descending)
        record = self._record
        tab = self.tab.name

        def work(logs):
            if ticket != self._opens:   # asked for again while it waited on the lane
                raise Interrupted("a newer query was asked for")
            result = logs.open(tab, **args, page=PAGE)
            return result, [record(r) for r in result.rows]

        self._read(work, lambda got: self._opened(ticket, got), lambda e: self._open_failed(ticket, e))

    def _opened(self, ticket: int, got) -> None:
        if ticket != self._opens:
            return
        result, records = got
        self._opening = False
        self.beginResetModel()
        self._gen += 1
        self.query, self.total, self.keys = result.query, result.total, result.keys
        self._rows, self._lru, self._wanted = {}, OrderedDict(), OrderedDict()
        self._put(0, records)
        self.endResetModel()
        self.opened.emit()
        if self._latest > self.query.top:
            self._ask_news()

    def _open_failed(self, ticket: int, error: BaseException) -> None:
        if ticket != self._opens:
            return
        self._opening = False
        if isinstance(error, Interrupted):
            self.stale = True           # given up for another tab's query: read when shown again
            return
        if isinstance(error, Refused):
            self.refused.emit(str(error), dict(getattr(error, "fields", {}) or {}))
        else:
            self.failed.emit(str(error))

    # -- pages -------------------------------------------------------------------------------------
    def _get(self, row: int) -> Record | None:
        key = row if self.keys is None else self.keys[row]
        rec = self._rows.get(key)
        if rec is None:
            self._want(row // PAGE)
        return rec

    def _want(self, page: int) -> None:
        self._wanted[page] = None
        self._wanted.move_to_end(page)
        if not self._scheduled and not self._fetching:
            self._scheduled = True
            QTimer.singleShot(0, self, self._fetch)

    def _fetch(self) -> None:
        self._scheduled = False
        if self._fetching or self.query is None or not self._wanted:
            return
        # the pages painted last (a fast scroll leaves the ones it passed behind), side by side
        # in the order of the rows: one read
        last = next(reversed(self._wanted))
        pages = sorted(p for p in self._wanted if abs(p - last) <= 1)
        if pages != list(range(pages[0], pages[-1] + 1)):
            pages = [last]
        self._wanted.clear()
        q, keys, gen, record = self.query, self.keys, self._gen, self._record
        first, n = pages[0] * PAGE, len(pages) * PAGE
        ks = None if keys is None else keys[first:first + n]

        def work(logs):
            rows = logs.page(q, first, n) if ks is None else logs.rows(q, ks)
            records = [record(r) for r in rows]
            return [(p, records[(p - pages[0]) * PAGE:(p - pages[0] + 1) * PAGE]) for p in pages]

        self._fetching = True
        self._read(work, lambda got: self._fetched(gen, got), self._fetch_failed)

    def _fetched(self, gen: int, got) -> None:
        self._fetching = False
        if gen == self._gen:
            for p, records in got:
                self._put(p, records)
                last = min(self.total, (p + 1) * PAGE) - 1
                if last >= p * PAGE:
                    self.dataChanged.emit(self.index(p * PAGE, 0), self.index(last, len(self.columns) - 1))
        elif self.keys is not None:
            # rows arrived meanwhile: by key the rows are still good, at places moved down
            for p, records in got:
                self._put(p, records)
            if self.total:
                self.dataChanged.emit(self.index(0, 0), self.index(self.total - 1, len(self.columns) - 1))
        else:
            # by position, rows arrived meanwhile moved them: the pages at those places are read again
            for p, _ in got:
                self._wanted[p] = None
        self.reads += 1
        if self._wanted:
            self._want(next(reversed(self._wanted)))

    def _fetch_failed(self, error: BaseException) -> None:
        self._fetching = False
        if isinstance(error, Interrupted):
            return                      # the pages are asked for again at the next paint
        self.failed.emit(f"reading the {self.tab.title.lower()} log failed: {error}")

    def _put(self, page: int, records: list[Record]) -> None:
        if self.keys is None:
            put = {page * PAGE + i: r for i, r in enumerate(records)}
        else:
            put = {r.key: r for r in records}
        self._rows.update(put)
        self._lru[page] = list(put)
        self._lru.move_to_end(page)
        while len(self._rows) > KEEP and len(self._lru) > 1:
            _, old = self._lru.popitem(last=False)
            for k in old:
                self._rows.pop(k, None)

    # -- live ----------------------------------------------------------------------------------------
    def note_written(self, seq: int, ask: bool = True) -> None:
        """The log has rows up to ``seq`` (the bridge's ``Changes.seqs``): read what they add and
        change here, unless ``ask`` is False (the tab is not shown: it asks when it is)."""
        self._latest = max(self._latest, seq)
        if ask:
            self._ask_news()

    def catch_up(self) -> None:
        """Read the rows logged since the query was read (the tab is shown again)."""
        self._ask_news()

    def _ask_news(self) -> None:
        if self._news or self._opening or self.query is None or self._latest <= self.query.top:
            return
        self._news = True
        q, record, opens = self.query, self._record, self._opens

        def work(logs):
            news = logs.news(q)
            return news, [(n, record(r)) for n, r in news.inserted], [record(r) for r in news.changed]

        self._read(work, lambda got: self._news_arrived(opens, got), self._news_failed)

    def _news_failed(self, error: BaseException) -> None:
        self._news = False
        if isinstance(error, Interrupted):
            self._ask_news()
            return
        self.failed.emit(f"reading the {self.tab.title.lower()} log failed: {error}")

    def _news_arrived(self, opens: int, got) -> None:
        self._news = False
        if opens != self._opens or self.query is None:
            return                      # a new query was asked for meanwhile: it reads them
        news, inserted, changed = got
        if news.again:
            self.open()
            return
        self.query = news.query
        i = 0
        while i < len(inserted):
            # a run of places one after the other goes in as one insert
            j = i + 1
            while j < len(inserted) and inserted[j][0] == inserted[j - 1][0] + 1:
                j += 1
            self._insert(inserted[i][0], [r for _, r in inserted[i:j]])
            i = j
        if changed:
            self._changed(changed)
        if self._latest > self.query.top:
            self._ask_news()

    def _insert(self, at: int, records: list[Record]) -> None:
        n = len(records)
        self.beginInsertRows(QModelIndex(), at, at + n - 1)
        self._gen += 1
        if self.keys is None:
            moved = {(r + n if r >= at else r): rec for r, rec in self._rows.items()}
            for i, rec in enumerate(records):
                moved[at + i] = rec
            self._rows = moved
            self._lru = OrderedDict((p, [r + n if r >= at else r for r in rows]) for p, rows in self._lru.items())
            self._lru[-1 - self._gen] = list(range(at, at + n))
        else:
            self.keys[at:at] = array("q", [r.key for r in records])
            for rec in records:
                self._rows[rec.key] = rec
            self._lru[-1 - self._gen] = [r.key for r in records]
        self.total += n
        self.endInsertRows()

    def _changed(self, records: list[Record]) -> None:
        fresh = {r.key: r for r in records}
        rows = []
        for where, rec in list(self._rows.items()):
            if rec.key in fresh:
                self._rows[where] = fresh[rec.key]
                rows.append(where if self.keys is None else None)
        if not rows:
            return
        if self.keys is None:
            lo, hi = min(rows), max(rows)
        else:
            lo, hi = 0, self.total - 1
        self.dataChanged.emit(self.index(lo, 0), self.index(hi, len(self.columns) - 1))

    # -- for the page --------------------------------------------------------------------------------
    def record_at(self, row: int) -> Record | None:
        """The row as read (None while its page is on its way)."""
        key = row if self.keys is None else self.keys[row]
        return self._rows.get(key)

    @property
    def busy(self) -> bool:
        return self._opening or self._fetching or self._news
