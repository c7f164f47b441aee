"""One log in the logs view: its filter (table, time range, free text), its rows sorted by any
column, its count, and its rows exported to CSV as they are shown.

The rows are a ``LogModel`` (app/views/log_models.py) read on the bridge's logs lane a page at a
time; the times typed are read by the workstation, which says what it cannot read ("From: cannot
read '2026-13-01' ..."). Nothing here decides a rule.
"""

from __future__ import annotations

import csv
import os

from . import theme
from .log_columns import COLUMNS, recorder
from .log_models import LogModel
from app.qt import (QAbstractItemView, QAction, QComboBox, QEvent, QFileDialog, QHBoxLayout, QHeaderView, QLabel,
                    QLineEdit, QMenu, QPushButton, Qt, QTableView, QTimer, QVBoxLayout, QWidget)
from .theme import LEVEL_MARK, NONE, OK, RED
from .widgets import save_dialog, say

EVERY_TABLE = "Every table"
TIME_HINT = "yyyy-mm-dd"          # a day; a time may follow (TIME_TIP); a format, never a date that reads as a filter
TIME_TIP = "a date (2026-11-21), a date and time (2026-11-21 14:00) or with seconds (2026-11-21 14:00:30)"
TEXT_SCALE = 1.1       # the rows, times the base font: read at arm's length
KEEP_COLUMNS = 3       # never hidden to fit: the key, the time, the table
WIDEST = 48            # characters: a column widened to its rows' words goes no wider (a message is cut)


def write_csv(path: str, titles: list[str], chunks, record) -> int:
    """Write the rows of ``chunks`` (LogRow tuples, in the order shown) worded by ``record`` to
    ``path`` as CSV with a header; the file appears whole or not at all. The rows written."""
    part = f"{path}.part"
    n = 0
    try:
        with open(part, "w", newline="", encoding="utf-8") as f:
            w = csv.writer(f)
            w.writerow(titles)
            for chunk in chunks:
                for row in chunk:
                    w.writerow(record(row).texts)
                    n += 1
        os.replace(part, path)
    except BaseException:
        try:
            os.unlink(part)
        except OSError:
            pass
        raise
    return n


class LogTabPage(QWidget):
    """One log: its filter, its rows, its count, its export."""

    def __init__(self, tab, bridge, export: QAction, parent: QWidget | None = None):
        super().__init__(parent)
        self.tab = tab
        self.bridge = bridge
        self.setObjectName(f"log_{tab.name}")
        self.model = LogModel(tab, bridge.read_logs, bridge.interrupt_logs, self)
        self.model.opened.connect(self._opened)
        self.model.refused.connect(self._refused)
        self.model.failed.connect(lambda text: say(self.error, f"{LEVEL_MARK[RED]} {text}", RED))
        self.model.rowsInserted.connect(lambda *_: self._show_count())
        self.model.rowsInserted.connect(lambda *_: self._rows_came())
        self.started = False
        self.exported: tuple[str, int] | None = None      # the last export: its file and rows

        self.table = QComboBox()
        self.table.setObjectName("table")
        self.table.addItem(EVERY_TABLE, None)
        self.table.setMinimumContentsLength(8)
        if not tab.by_table:
            self.table.setItemText(0, "at no table")
            self.table.setEnabled(False)
            self.table.setToolTip(f"the {tab.title.lower()} log is not kept by table")
        self.since = self._edit("from", TIME_HINT)
        self.until = self._edit("to", TIME_HINT)
        for e in (self.since, self.until):
            e.setToolTip(TIME_TIP)
        self.text = self._edit("text", "any words")
        self.text.setToolTip("rows with these words in any column")
        self.apply_button = QPushButton("Apply")
        self.apply_button.setObjectName("apply")
        self.apply_button.clicked.connect(self.apply)
        self.clear_button = QPushButton("Clear")
        self.clear_button.setObjectName("clear")
        self.clear_button.clicked.connect(self.clear)

        self.count = QLabel()
        self.count.setObjectName("count")
        self.count.setFont(theme.font(1.2, bold=True))
        self.columns_note = QLabel()
        self.columns_note.setObjectName("columns_note")
        theme.set_dim(self.columns_note)
        self.error = QLabel()
        self.error.setObjectName("error")
        self.error.setFont(theme.font(1.1, bold=True))
        self.error.setWordWrap(True)
        self.error.hide()

        self.view = QTableView()
        self.view.setObjectName(f"log_{tab.name}_list")
        self.view.setModel(self.model)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setAlternatingRowColors(True)
        self.view.setWordWrap(False)
        self.view.setFont(theme.font(TEXT_SCALE))
        v = self.view.verticalHeader()
        v.hide()
        # a million rows of one height: Qt lays none of them out one by one
        v.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        v.setDefaultSectionSize(int(self.view.fontMetrics().height() * 1.45))
        h = self.view.horizontalHeader()
        h.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
        h.setHighlightSections(False)
        h.setStretchLastSection(True)
        h.setSortIndicatorShown(True)
        fm, hm = self.view.fontMetrics(), h.fontMetrics()
        # as wide as its usual words (a time to the second, a name), or its title and the sort mark
        self.widths = [max(fm.horizontalAdvance("0" * c.chars) + 14, hm.horizontalAdvance(c.title) + 34,
                           h.sectionSizeHint(n)) for n, c in enumerate(self.model.columns)]
        for n, w in enumerate(self.widths):
            h.resizeSection(n, w)
        # the columns that do not fit are hidden from the right (the first are what is read first);
        # a right click on a heading shows or hides any column, and the choice is kept
        self.chosen: dict[int, bool] = {}
        h.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        h.customContextMenuRequested.connect(lambda pos: self.column_menu().popup(h.mapToGlobal(pos)))
        h.setToolTip("Right-click a heading to show or hide columns")
        self.view.viewport().installEventFilter(self)
        time_col = next(n for n, c in enumerate(self.model.columns) if c.field == tab.time_field)
        h.setSortIndicator(time_col, Qt.SortOrder.DescendingOrder)
        self.view.setSortingEnabled(True)      # a click on a header: model.sort, a new query

        bar = QHBoxLayout()
        for label, w in (("Table", self.table), ("From", self.since), ("To", self.until), ("Find", self.text)):
            lb = QLabel(label)
            lb.setBuddy(w)
            bar.addWidget(lb)
            bar.addWidget(w)
        bar.addWidget(self.apply_button)
        bar.addWidget(self.clear_button)
        bar.addStretch(1)
        bar.addWidget(self.columns_note)
        bar.addWidget(self.count)
        box = QVBoxLayout(self)
        box.setContentsMargins(8, 6, 8, 6)
        box.addLayout(bar)
        box.addWidget(self.error)
        box.addWidget(self.view, 1)

    # -- columns ------------------------------------------------------------------------------------
    def fit_columns(self) -> None:
        """Show the columns that fit the list's width, in their order, and those a person chose."""
        h = self.view.horizontalHeader()
        room = self.view.viewport().width()
        used, full = 0, False
        for n, w in enumerate(self.widths):
            show = self.chosen.get(n)
            if show is None:
                show = n < KEEP_COLUMNS or (not full and used + w <= room)
                full = full or not show
            if h.isSectionHidden(n) == show:
                h.setSectionHidden(n, not show)
            used += w if show else 0
        hidden = len(self.hidden_columns())
        self.columns_note.setText(f"{hidden} column{'' if hidden == 1 else 's'} hidden: right-click a heading"
                                  if hidden else "")

    def hidden_columns(self) -> list[str]:
        h = self.view.horizontalHeader()
        return [c.title for n, c in enumerate(self.model.columns) if h.isSectionHidden(n)]

    def column_menu(self) -> QMenu:
        """Every column, ticked if shown: a person's choice is kept over the fitting."""
        menu = QMenu(self)
        menu.setObjectName("columns_menu")
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        h = self.view.horizontalHeader()
        for n, c in enumerate(self.model.columns):
            a = menu.addAction(c.title)
            a.setCheckable(True)
            a.setChecked(not h.isSectionHidden(n))
            a.toggled.connect(lambda on, n=n: self.choose_column(n, on))
        return menu

    def choose_column(self, n: int, show: bool) -> None:
        self.chosen[n] = show
        self.fit_columns()

    def eventFilter(self, obj, event) -> bool:
        # the list's own width, whenever it changes (a page's resize may come before its list's,
        # and a tab not shown is laid out when it is)
        if obj is self.view.viewport() and event.type() == QEvent.Type.Resize:
            self.fit_columns()
        return False

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.fit_columns()
        self._rows_came()

    def _edit(self, name: str, hint: str) -> QLineEdit:
        e = QLineEdit()
        e.setObjectName(name)
        e.setPlaceholderText(hint)
        e.setClearButtonEnabled(True)
        # as wide as its hint when there is room (the hints are short: a hint cut to "2026-11-21
        # 14:…" says nothing, issue 33, 5); narrower on a small window (the window's least width is
        # its widest page's)
        e.setMinimumWidth(e.fontMetrics().horizontalAdvance("2026-11-21") // 2)
        e.returnPressed.connect(self.apply)
        return e

    # -- reading ------------------------------------------------------------------------------------
    def start(self) -> None:
        """The first time the tab is shown: its rows (newest first)."""
        if not self.started or self.model.stale:
            self.started = True
            self.apply()
        else:
            self.model.catch_up()

    def apply(self) -> None:
        self.started = True
        say(self.count, "Reading…", NONE)
        self.model.set_filters(self.table.currentData(), self.since.text(), self.until.text(), self.text.text())

    def clear(self) -> None:
        self.table.setCurrentIndex(0)
        for e in (self.since, self.until, self.text):
            e.clear()
        self.apply()

    def set_tables(self, tables) -> None:
        if not self.tab.by_table:
            return
        chosen = self.table.currentData()
        self.table.blockSignals(True)
        self.table.clear()
        self.table.addItem(EVERY_TABLE, None)
        for t in tables:
            self.table.addItem(t, t)
        if chosen is not None and chosen in tables:
            self.table.setCurrentIndex(self.table.findData(chosen))
        self.table.blockSignals(False)

    def widen_columns(self) -> None:
        """A column as wide as the rows shown now need, up to ``WIDEST`` characters (a citation
        such as "000(h)(4)(ii), (n)(8): all hands void, reshuffle" whole, issue 33, 5); the fitting
        then hides from the right what no longer fits. Qt measures only the rows on screen."""
        self._widen_due = False
        cap = self.view.fontMetrics().horizontalAdvance("0" * WIDEST)
        self.view.setProperty("widest", cap)     # words beyond it are cut, and whole in the cell's tooltip
        h = self.view.horizontalHeader()
        grew = False
        for n in range(len(self.widths)):
            if h.isSectionHidden(n):
                continue
            need = min(cap, self.view.sizeHintForColumn(n))
            if need > self.widths[n]:
                self.widths[n] = need
                h.resizeSection(n, need)
                grew = True
        if grew:
            self.fit_columns()

    def _rows_came(self) -> None:
        if not getattr(self, "_widen_due", False) and self.isVisible():
            self._widen_due = True
            QTimer.singleShot(0, self, self.widen_columns)

    def _opened(self) -> None:
        self._rows_came()
        say(self.error, "", None)
        for e in (self.since, self.until):
            e.setProperty("refused", False)
            e.setToolTip(TIME_TIP)
        self._show_count()

    def _show_count(self) -> None:
        n = self.model.total
        say(self.count, f"{n:,} row{'' if n == 1 else 's'}", None)

    def _refused(self, text: str, fields: dict) -> None:
        say(self.error, f"{LEVEL_MARK[RED]} {text}", RED)
        say(self.count, "", None)
        for name, e in (("from", self.since), ("to", self.until)):
            e.setToolTip(fields.get(name, TIME_TIP))
        (self.until if "to" in fields and "from" not in fields else self.since).setFocus()

    # -- export -------------------------------------------------------------------------------------
    def export(self, path: str | None = None) -> QFileDialog | None:
        """The rows shown, as shown, to a CSV file (asked for when ``path`` is None)."""
        if self.model.query is None:
            say(self.error, f"{LEVEL_MARK[RED]} Nothing is shown yet to export.", RED)
            return None
        if path is None:
            d = save_dialog(self, f"Export the {self.tab.title.lower()} log as CSV", "export_dialog", "CSV", "csv",
                            f"{self.tab.name}-log.csv")
            d.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            d.fileSelected.connect(self.export)
            d.open()          # not run: the window keeps pumping
            return d
        q, keys = self.model.query, self.model.keys
        keys = None if keys is None else keys[:]        # a copy: rows may arrive while it is written
        total = self.model.total
        titles = [c.title for c in self.model.columns]
        record = recorder(self.tab.fields, COLUMNS[self.tab.name])
        say(self.count, f"Exporting {total:,} rows…", NONE)
        self.bridge.read_logs(lambda logs: write_csv(path, titles, logs.export(q, keys), record),
                              lambda n: self._exported(path, n),
                              lambda e: say(self.error, f"{LEVEL_MARK[RED]} the log was not exported: {e}", RED))
        return None

    def _exported(self, path: str, n: int) -> None:
        self._show_count()
        say(self.error, f"{LEVEL_MARK[OK]} {n:,} rows exported to {path}", OK)
        self.exported = (path, n)
