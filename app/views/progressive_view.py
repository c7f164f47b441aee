"""The progressive view: a card per progressive controller, its hits and the meter's record.

A card (app/views/progressive_card.py) shows one controller as the workstation reads it: the
meter, its tables, its link, the lock-out, the acceptor lights, a pending hit and the meter's
chart. Under the cards: the hits of every controller in the order each reported them, and the
meter's record at the start and end of each shift and every reset.

Live, but not per reading: the bridge's ``changed`` marks the view stale when a table with a
controller, an approval or an alarm changed; a timer (``REFRESH_MS``) then reads what is new
(``progressive(since=the shift's start, after=the last row read)``) on the bridge's lane and
draws it in one go. The timer runs only while the view is shown. Nothing here decides a rule.
"""

from __future__ import annotations

from datetime import datetime

from . import theme
from .progressive_card import SPANS, ControllerCard
from .progressive_models import HIT_LEVEL, HitModel, MeterRecordModel, RecordRow
from app.qt import (QAction, QComboBox, QGridLayout, QHBoxLayout, QLabel, QSplitter, Qt, QTabWidget, QTimer,
                    QVBoxLayout, QWidget)
from .records import RecordRole
from .theme import AMBER, LEVEL_MARK, NONE, RED
from .widgets import label, put, record_view

REFRESH_MS = 500       # at most two redraws a second, however fast the meters move
PAGE = 10_000          # readings a controller per read: a long shift is read in pages, between pumps


class ProgressivePage(QWidget):
    def __init__(self, bridge, approve: QAction | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("progressive")
        self.bridge = bridge
        self.cards: dict[str, ControllerCard] = {}
        self.since: datetime | None = None
        self.after: dict[str, int] = {}     # serial -> the last row read of its readings
        self.stale = True
        self.reading = False
        self.reads = 0                 # readouts drawn (tests wait on it)
        self.readouts: tuple = ()
        self.timer = QTimer(self)
        self.timer.setObjectName("progressive refresh")
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.refresh)

        self.title = label("", 1.8, bold=True, name="title")
        self.title.setText("Progressive meters")
        self.shift = label("", 1.2, bold=True, name="shift")
        theme.set_dim(self.shift)
        self.empty = label("", 1.3, name="empty")
        self.empty.setText("No progressive controller on this floor.")
        self.empty.hide()
        # the charts' span: the last hour, or wider up to the whole shift
        self.span = QComboBox()
        self.span.setObjectName("chart_span")
        for text, last in SPANS:
            self.span.addItem(text, last)
        self.span.setToolTip("how much of the shift the meters' charts show")
        self.span.currentIndexChanged.connect(lambda _: self._show_span())
        span_label = QLabel("&Charts show")
        span_label.setBuddy(self.span)
        top = QHBoxLayout()
        top.addWidget(self.title)
        top.addSpacing(24)
        top.addWidget(self.shift)
        top.addStretch(1)
        top.addWidget(span_label)
        top.addWidget(self.span)

        self.grid_host = QWidget()
        self.grid = QGridLayout(self.grid_host)
        self.grid.setContentsMargins(0, 0, 0, 0)
        self.grid.setSpacing(8)

        self.hits = HitModel(self)
        self.record = MeterRecordModel(self)
        self.hits_view = record_view(self.hits, "hit_list")
        self.record_view = record_view(self.record, "meter_record")
        if approve is not None:
            self.hits_view.doubleClicked.connect(lambda _: approve.trigger())
        self.tabs = QTabWidget()
        self.tabs.setObjectName("progressive_tabs")
        self.tabs.setFont(theme.font(1.1, bold=True))
        for view in (self.hits_view, self.record_view):
            view.setFont(theme.font(1.05))
        self.tabs.addTab(self.hits_view, "Hits")
        self.tabs.addTab(self.record_view, "Meter record (shifts and resets)")

        split = QSplitter(Qt.Orientation.Vertical)
        split.setObjectName("progressive_split")
        split.addWidget(self.grid_host)
        split.addWidget(self.tabs)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setChildrenCollapsible(False)
        self.split = split
        self._sized = False
        box = QVBoxLayout(self)
        box.setContentsMargins(12, 8, 12, 8)
        box.addLayout(top)
        box.addWidget(self.empty)
        box.addWidget(split, 1)

    # -- live ---------------------------------------------------------------------------------
    def activate(self, on: bool) -> None:
        """The view is shown (``on``) or not: its timer runs only while it is."""
        if on and not self.timer.isActive():
            self.stale = True
            self.timer.start()
            self.refresh()
        elif not on:
            self.timer.stop()

    def on_update(self, u) -> None:
        """The bridge's one signal: stale when something a card shows may have changed."""
        c = u.changes
        if u.first or c.approvals or c.alarms or (c.tables & {t for r in self.readouts for t in r.tables}) \
                or not self.readouts:
            self.stale = True

    def refresh(self) -> None:
        """Read what is new, if anything may be (the timer's tick)."""
        if self.reading or not self.stale or not self.timer.isActive():
            return
        now = self.bridge.clock()
        start = self.bridge.shifts.shift_of(now).start
        if start != self.since:        # a new shift: its chart starts empty
            self.since, self.after = start, {}
            for card in self.cards.values():
                card.chart.clear()
        self.stale = False
        self.reading = True
        since, after = self.since, dict(self.after)
        self.bridge.read(lambda ws: ws.reads.progressive(since=since, after=after, now=now, limit=PAGE),
                         lambda got: self._got(got, since, now), self._failed)

    def _failed(self, error: BaseException) -> None:
        self.reading = False
        self.stale = True
        put(self.shift, f"{LEVEL_MARK[RED]} could not read the meters: {error}")

    def _got(self, readouts, since: datetime, now: datetime) -> None:
        self.reading = False
        if since != self.since:          # the shift changed while reading: read again from its start
            self.stale = True
            return
        self.readouts = readouts
        self.after = {r.serial: r.last_seq for r in readouts}
        put(self.shift, f"{self.bridge.shifts.shift_of(now).label} shift since {since:%H:%M}")
        self._place(readouts)
        for r in readouts:
            self.cards[r.serial].show_readout(r, now)
        self._show_lists(readouts)
        self.reads += 1
        if any(r.more for r in readouts):     # a long shift: the next page at once, after the next pump
            self.stale = True
            QTimer.singleShot(0, self, self.refresh)

    def _show_span(self) -> None:
        for card in self.cards.values():
            card.show_last(self.span.currentData())

    def _place(self, readouts) -> None:
        serials = [r.serial for r in readouts]
        self.empty.setVisible(not serials)
        if list(self.cards) == serials:
            return
        for card in self.cards.values():
            self.grid.removeWidget(card)
            card.deleteLater()
        self.cards = {}
        cols = 1 if len(serials) == 1 else 2 if len(serials) <= 4 else 3
        for n, s in enumerate(serials):
            card = ControllerCard(s)
            card.last = self.span.currentData()
            self.cards[s] = card
            self.grid.addWidget(card, n // cols, n % cols)
        rows = (len(serials) + cols - 1) // cols
        for row in range(rows):
            self.grid.setRowStretch(row, 1)
        if not self._sized:
            self._sized = True
            total = max(self.split.height(), 1)
            self.split.setSizes([int(total * 0.68), total - int(total * 0.68)])

    def _show_lists(self, readouts) -> None:
        hits = [h for r in readouts for h in r.hits]
        # newest first, a stable order: a new hit is a row inserted at the top and a selection stays
        # on its hit; each controller's own order is the # column, PENDING stands out in amber
        hits.sort(key=lambda h: -h.request)
        self.hits.set_records(hits)
        rows = [RecordRow(r.serial, t, m) for r in readouts for t in r.tables[:1] for m in r.record]
        rows.sort(key=lambda x: (x.m.time, x.serial), reverse=True)
        self.record.set_records(rows)
        pending = sum(1 for h in hits if h.state == "PENDING")
        self.tabs.setTabText(0, f"Hits ({LEVEL_MARK[AMBER]} {pending} PENDING)" if pending else "Hits")

    # -- for the window's commands --------------------------------------------------------------
    def selected_hit(self):
        """The hit selected in the list (None: none)."""
        rows = self.hits_view.selectionModel().selectedRows() if self.hits_view.selectionModel() else []
        return rows[0].data(RecordRole) if rows else None

    def select_hit(self, request: int) -> bool:
        row = self.hits.row_of(request)
        if row is None:
            return False
        self.hits_view.selectRow(row)
        return True

    def card_level(self, serial: str) -> str:
        card = self.cards.get(serial)
        return card.property("level") if card is not None else NONE


__all__ = ["ProgressivePage", "HIT_LEVEL"]
