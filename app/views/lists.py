"""The alarms view and the approvals queue: a list of records, what is waiting shown first.

Both are a ``RecordModel`` behind a ``WaitingProxy`` (a QSortFilterProxyModel that hides what is
done unless asked, and sorts by the columns' sort keys) in a QTableView. The buttons beside the
list are the window's own QActions (Acknowledge, Approve, Deny), so the menu, the shortcut and
the button are one command.
"""

from __future__ import annotations

from collections.abc import Callable

from . import theme
from .pit_models import AlarmModel, ApprovalModel
from app.qt import (QAction, QEvent, QHBoxLayout, QLabel, QModelIndex, QPushButton, QSortFilterProxyModel, Qt, QTimer,
                 QVBoxLayout, QWidget)
from .records import RecordRole, SortRole
from .theme import AMBER, LEVEL_MARK, NONE, RED
from .widgets import record_view, widen_columns


class WaitingProxy(QSortFilterProxyModel):
    """Only the records still waiting (``waiting(record)``), unless ``show_all``."""

    def __init__(self, waiting: Callable[[object], bool], parent=None):
        super().__init__(parent)
        self._waiting = waiting
        self.show_all = False
        self.setSortRole(SortRole)
        self.setDynamicSortFilter(True)

    def set_show_all(self, on: bool) -> None:
        if on != self.show_all:
            self.beginFilterChange()
            self.show_all = on
            self.endFilterChange(QSortFilterProxyModel.Direction.Rows)

    def filterAcceptsRow(self, row: int, parent: QModelIndex) -> bool:
        if self.show_all:
            return True
        rec = self.sourceModel().index(row, 0, parent).data(RecordRole)
        return rec is not None and self._waiting(rec)


class RecordsPage(QWidget):
    def __init__(self, name: str, title: str, model, waiting, show_all: QAction, commands: list[QAction],
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName(name)
        self.model = model
        self.proxy = WaitingProxy(waiting, self)
        self.proxy.setSourceModel(model)
        self.view = record_view(self.proxy, f"{name}_list")
        # the workstation's order (newest alarm, oldest request first) until a header is clicked
        self.view.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.view.setSortingEnabled(True)
        self.view.doubleClicked.connect(lambda _: commands[0].trigger() if commands else None)
        self.title = QLabel(title)
        self.title.setFont(theme.font(1.8, bold=True))
        self.count = QLabel()
        self.count.setObjectName("count")
        self.count.setFont(theme.font(1.3, bold=True))
        self.count.setMargin(4)
        self.empty = QLabel()
        self.empty.setObjectName("empty")
        self.empty.setFont(theme.font(1.2))
        theme.set_dim(self.empty)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)

        top = QHBoxLayout()
        top.addWidget(self.title)
        top.addSpacing(24)
        top.addWidget(self.count)
        top.addStretch(1)
        self.show_all_button = QPushButton(show_all.text().replace("&", ""))
        self.show_all_button.setCheckable(True)
        self.show_all_button.toggled.connect(show_all.setChecked)
        show_all.toggled.connect(self.show_all_button.setChecked)
        show_all.toggled.connect(self._show_all)
        top.addWidget(self.show_all_button)
        buttons = QHBoxLayout()
        self.buttons: list[QPushButton] = []
        for action in commands:
            b = QPushButton(f"{action.text().replace('&', '')}   ({action.shortcut().toString()})")
            b.setFont(theme.font(1.15, bold=True))
            b.setMinimumHeight(int(theme.base_pt() * 3))
            b.clicked.connect(action.trigger)
            action.enabledChanged.connect(b.setEnabled)
            action.changed.connect(lambda b=b, a=action: b.setToolTip(a.toolTip()))     # why it is disabled
            b.setEnabled(action.isEnabled())
            self.buttons.append(b)
            buttons.addWidget(b)
        buttons.addStretch(1)
        box = QVBoxLayout(self)
        box.setContentsMargins(12, 8, 12, 8)
        box.addLayout(top)
        box.addWidget(self.view, 1)
        box.addWidget(self.empty)
        box.addLayout(buttons)
        # whole messages, wrapped: an alarm's words are what the supervisor acts on; the rows
        # grow again whenever a column is resized
        self.view.setWordWrap(True)
        self.view.setFont(theme.font(1.1))
        model.font_scale = 1.1
        self.view.horizontalHeader().sectionResized.connect(
            lambda *_: QTimer.singleShot(0, self.view, self.view.resizeRowsToContents))
        self._show_done_columns(False)
        self.view.installEventFilter(self)

    def eventFilter(self, obj, event) -> bool:
        # the row framed but not selected (the list just took the keyboard, or a decision was
        # made): Down, Up or Space selects it, as a person expects; F7 alone still decides nothing
        # (seen in a supervisor's shift: F5, Down did nothing on a list of one, F7 stayed disabled)
        if obj is self.view and event.type() == QEvent.Type.KeyPress and not event.modifiers() \
                and event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Up, Qt.Key.Key_Space) \
                and self.selected() is None and self.proxy.rowCount():
            current = self.view.currentIndex()
            self.view.selectRow(current.row() if current.isValid() else 0)
            return True
        return super().eventFilter(obj, event)

    def _show_all(self, on: bool) -> None:
        self.proxy.set_show_all(on)
        self._show_done_columns(on)
        self._rows_changed()
        # the done records and their columns, fitted once laid out: no word or amount broken (issue 33, 5)
        QTimer.singleShot(0, self.view, lambda: widen_columns(self.view))

    def _show_done_columns(self, on: bool) -> None:
        """Who acknowledged or decided, and why, only where done records are listed."""
        for n, c in enumerate(self.model.columns):
            if c.done:
                self.view.setColumnHidden(n, not on)

    def set_records(self, records, waiting_count: int, waiting_words: str, level: str) -> None:
        self.model.set_records(records)
        mark = LEVEL_MARK[level] if waiting_count else LEVEL_MARK[NONE]
        self.count.setText(f"{mark} {waiting_count} {waiting_words}")
        theme.set_level(self.count, level if waiting_count else NONE, filled=bool(waiting_count))
        self._rows_changed()

    def _rows_changed(self) -> None:
        self.empty.setVisible(self.proxy.rowCount() == 0)
        self.view.resizeRowsToContents()

    def selected(self):
        sel = self.view.selectionModel()
        rows = sel.selectedRows() if sel is not None else []
        return rows[0].data(RecordRole) if rows else None

    def clear_selection(self) -> None:
        """Nothing selected, and no current row for the next key to act on."""
        self.view.clearSelection()
        self.view.setCurrentIndex(QModelIndex())

    def select_key(self, key) -> bool:
        row = self.model.row_of(key)
        if row is None:
            return False
        proxy_index = self.proxy.mapFromSource(self.model.index(row, 0))
        if not proxy_index.isValid():
            return False
        self.view.selectRow(proxy_index.row())
        return True


class AlarmsPage(RecordsPage):
    def __init__(self, show_all: QAction, acknowledge: QAction, parent: QWidget | None = None):
        super().__init__("alarms", "Alarms", AlarmModel(), lambda a: a.open, show_all, [acknowledge], parent)
        self.empty.setText("No alarm is waiting for acknowledgement.")

    def show_alarms(self, alarms) -> None:
        waiting = sum(1 for a in alarms if a.open)
        self.set_records(alarms, waiting, "waiting for acknowledgement", RED)


class ApprovalsPage(RecordsPage):
    def __init__(self, show_all: QAction, approve: QAction, deny: QAction, parent: QWidget | None = None):
        super().__init__("approvals", "Approvals", ApprovalModel(), lambda r: r.status == "pending", show_all,
                         [approve, deny], parent)
        self.empty.setText("No request is waiting for approval.")

    def show_approvals(self, approvals) -> None:
        waiting = sum(1 for r in approvals if r.status == "pending")
        self.set_records(approvals, waiting, "pending", AMBER)
