"""The logs view: one tab per log (app/views/log_tab.py), each filtered by table, time range and
free text, sorted by any column, exported as it is shown to CSV (docs/views.md, "The logs").

Each tab's rows are a ``LogModel`` (app/views/log_models.py), read from the workstation on the
bridge's logs lane a page at a time, so that a log of a million events opens at once and scrolls
without waiting for the disk. A tab reads nothing until it is first shown. Rows the live pit
writes arrive as row inserts while the tab is shown, and when it is shown again. Nothing here
decides a rule.
"""

from __future__ import annotations

from . import theme
from .log_tab import LogTabPage
from app.qt import QAction, QLabel, QPushButton, Qt, QTabWidget, QVBoxLayout, QWidget


class LogsPage(QWidget):
    """Every log, a tab each; the tab shown reads its rows and hears of new ones."""

    def __init__(self, bridge, tabs, export: QAction, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("logs")
        self.bridge = bridge
        title = QLabel("Logs")
        title.setFont(theme.font(1.8, bold=True))
        self.tabs = QTabWidget()
        self.tabs.setObjectName("log_tabs")
        self.tabs.setDocumentMode(True)
        self.pages: dict[str, LogTabPage] = {}
        for t in tabs:
            page = LogTabPage(t, bridge, export)
            self.pages[t.name] = page
            self.tabs.addTab(page, t.title)
        self.tabs.currentChanged.connect(lambda _: self._show_current())
        # one export for the tab shown, in the tab bar's corner: the window's own action
        self.export_button = QPushButton(f"{export.text().replace('&', '')}   ({export.shortcut().toString()})")
        self.export_button.setObjectName("export")
        self.export_button.clicked.connect(export.trigger)
        self.tabs.setCornerWidget(self.export_button, Qt.Corner.TopRightCorner)
        self.active = False
        self._tables_read = False
        box = QVBoxLayout(self)
        box.setContentsMargins(12, 8, 12, 4)
        box.addWidget(title)
        box.addWidget(self.tabs, 1)

    def current(self) -> LogTabPage:
        return self.tabs.currentWidget()

    def show_tab(self, name: str) -> None:
        if name not in self.pages:
            raise ValueError(f"no log {name!r} (the logs: {', '.join(self.pages)})")
        self.tabs.setCurrentWidget(self.pages[name])

    def activate(self, on: bool) -> None:
        """The logs view is shown (or not): the tab shown reads its rows, the others wait."""
        self.active = on
        if on:
            if not self._tables_read:
                self._tables_read = True
                self.bridge.read_logs(lambda logs: logs.tables(), self._tables, lambda e: None)
            self._show_current()

    def _tables(self, tables) -> None:
        for page in self.pages.values():
            page.set_tables(list(tables))

    def _show_current(self) -> None:
        if self.active:
            for page in self.pages.values():
                if page is not self.current() and page.model.busy:
                    self.bridge.interrupt_logs()    # the tab shown is not kept waiting by another's sort
                    break
            self.current().start()
            self.current().view.setFocus()

    def on_update(self, u) -> None:
        """The bridge's update: rows were written up to the last of ``u.changes.seqs``."""
        if not u.changes.seqs:
            return
        top = max(u.changes.seqs)
        shown = self.current() if self.active else None
        for page in self.pages.values():
            if page.started:
                page.model.note_written(top, ask=page is shown)

    def export(self, path: str | None = None):
        return self.current().export(path)

    def find(self) -> None:
        self.current().text.setFocus()
        self.current().text.selectAll()
