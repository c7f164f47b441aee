"""The hold view: what the house kept against what the engine says it should, per table and for
the pit, over a shift or a chosen period.

Left, the tables (the pit first) with their rounds, wagered, house net, actual and theoretical
hold; choosing one shows its wager types below (wagered, won and lost by the house, commission,
fees, to the meter, house net, the two holds) and the bar chart of actual against theoretical
beside it (app/views/hold_chart.py). The figures are the workstation's (``Workstation.hold``,
app/workstation/hold.py, the same as ``pitdesk hold --json``); nothing here computes one.

The hold reads every settlement of the period, which can take a second on a long period, so it
is read on the bridge's logs lane (never the GUI thread, never the lane the pump runs on). It is
read again when the view is shown, when the period changes, and while it is shown, when a round
was settled or an approval decided (a denial takes a settlement out of the hold), at most once
every ``REFRESH_MS``.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from app.engine import words
from app.workstation.shifts import DEFAULT, ShiftPlan

from . import theme
from .hold_models import PIT, HoldLinesModel, HoldTablesModel, percent, table_rows, theoretical_text
from app.qt import (QComboBox, QDateTimeEdit, QHBoxLayout, QLabel, QSizePolicy, QSplitter, Qt, QTimer, QVBoxLayout,
                 QWidget)
from .records import RecordRole
from .theme import LEVEL_MARK, RED, money
from .widgets import label, record_view, unbroken

REFRESH_MS = 2000
PERIODS = (("shift", "This shift"), ("last_shift", "Last shift"), ("today", "Today"), ("yesterday", "Yesterday"),
           ("chosen", "Chosen period…"))


def period_of(kind: str, now: datetime, chosen: tuple[datetime, datetime] | None = None,
              plan: ShiftPlan = DEFAULT) -> tuple[datetime, datetime, str]:
    """(start, end, words) of a period kind at ``now``: the workstation's shifts (``plan``,
    app/workstation/shifts.py), a day from midnight to midnight, or the period chosen."""
    if kind == "shift":
        s = plan.shift_of(now)
        return s.start, s.end, s.words
    if kind == "last_shift":
        s = plan.shifts_back(now, 1)
        return s.start, s.end, s.words
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if kind == "today":
        return midnight, midnight + timedelta(days=1), f"today, {words.day(midnight)}"
    if kind == "yesterday":
        day = midnight - timedelta(days=1)
        return day, midnight, f"yesterday, {words.day(day)}"
    if kind == "chosen" and chosen is not None:
        start, end = chosen
        return start, end, words.period(start, end)
    raise ValueError(f"no period {kind!r} ({', '.join(k for k, _ in PERIODS)})")


class HoldPage(QWidget):
    def __init__(self, bridge, floor=lambda: (), parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("hold")
        self.bridge = bridge
        self.floor = floor          # the floor's tables in its order (a quiet table still has its row)
        self.report = None
        self.chosen_table = PIT
        self.period: tuple[datetime, datetime] | None = None
        self.stale = True
        self.reading = False
        self.reads = 0              # reports shown (tests wait on it)
        self.chart = None           # made the first time the view is shown (pyqtgraph)
        self.timer = QTimer(self)
        self.timer.setObjectName("hold refresh")
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.refresh)

        self.title = label("", 1.8, True, "title")
        self.title.setText("Hold")
        self.words = label("", 1.2, True, "period_words")
        theme.set_dim(self.words)
        self.words.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)   # never widens the window
        self.kind = QComboBox()
        self.kind.setObjectName("period")
        self.kind.setFont(theme.font(1.1))
        for key, text in PERIODS:
            self.kind.addItem(text, key)
        self.kind.setToolTip("the period the hold is over; the shifts are the workstation's (grave, day, swing)")
        period_label = label("&Period", 1.1)
        period_label.setBuddy(self.kind)
        self.start_edit, self.end_edit = QDateTimeEdit(), QDateTimeEdit()
        for edit, name in ((self.start_edit, "from"), (self.end_edit, "to")):
            edit.setObjectName(name)
            edit.setDisplayFormat("yyyy-MM-dd HH:mm")
            edit.setCalendarPopup(True)
            edit.setFont(theme.font(1.1))
            edit.hide()
            edit.dateTimeChanged.connect(self._chosen_changed)
        self.to_label = label("to", 1.1)
        self.to_label.hide()
        self.kind.currentIndexChanged.connect(self._kind_changed)
        self.status = label("", 1.1, False, "status")
        top = QHBoxLayout()
        top.addWidget(self.title)
        top.addSpacing(24)
        top.addWidget(period_label)
        top.addWidget(self.kind)
        top.addWidget(self.start_edit)
        top.addWidget(self.to_label)
        top.addWidget(self.end_edit)
        top.addSpacing(16)
        top.addWidget(self.words, 1)
        top.addWidget(self.status)

        self.tables = HoldTablesModel(self)
        self.lines = HoldLinesModel(self)
        self.tables_view = record_view(self.tables, "hold_tables")
        self.lines_view = record_view(self.lines, "hold_lines")
        for view, model in ((self.tables_view, self.tables), (self.lines_view, self.lines)):
            view.setFont(theme.font(1.1))
            model.set_font_scale(1.1)
        self.tables_view.selectionModel().currentRowChanged.connect(self._table_chosen)
        self.lines_title = label("", 1.3, True, "lines_title")
        self.totals = label("", 1.3, True, "totals", wrap=True)      # onto a second line: the window never widens
        self.chart_host = QVBoxLayout()
        chart_box = QWidget()
        chart_box.setLayout(self.chart_host)
        self.chart_host.setContentsMargins(0, 0, 0, 0)

        upper = QSplitter(Qt.Orientation.Horizontal)
        upper.setObjectName("hold_upper")
        upper.addWidget(self.tables_view)
        upper.addWidget(chart_box)
        upper.setStretchFactor(0, 5)
        upper.setStretchFactor(1, 6)
        upper.setChildrenCollapsible(False)
        lower = QWidget()
        lower_box = QVBoxLayout(lower)
        lower_box.setContentsMargins(0, 4, 0, 0)
        heading = QHBoxLayout()
        heading.addWidget(self.lines_title)
        heading.addStretch(1)
        heading.addWidget(self.totals)
        lower_box.addLayout(heading)
        lower_box.addWidget(self.lines_view, 1)
        split = QSplitter(Qt.Orientation.Vertical)
        split.setObjectName("hold_split")
        split.addWidget(upper)
        split.addWidget(lower)
        split.setStretchFactor(0, 1)
        split.setStretchFactor(1, 1)
        split.setChildrenCollapsible(False)
        self.upper, self.split, self._sized = upper, split, False
        box = QVBoxLayout(self)
        box.setContentsMargins(12, 8, 12, 8)
        box.addLayout(top)
        box.addWidget(split, 1)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._sized and self.width() > 100:
            # the tables' seven columns get what they need, the chart the rest
            self._sized = True
            w = self.upper.width()
            self.upper.setSizes([int(w * 0.55), w - int(w * 0.55)])

    # -- live ---------------------------------------------------------------------------------
    def activate(self, on: bool) -> None:
        """The view is shown (``on``) or not: it reads, and its timer runs, only while it is."""
        if on and not self.timer.isActive():
            if self.chart is None:
                from .hold_chart import LEGEND, HoldChart   # pyqtgraph, the first time the view is shown
                self.chart = HoldChart()
                self.chart.widget.setMinimumHeight(int(theme.base_pt() * 14))
                legend = QLabel(LEGEND)
                legend.setObjectName("chart_legend")
                legend.setFont(theme.font(1.0))
                legend.setTextFormat(Qt.TextFormat.RichText)
                legend.setWordWrap(True)      # onto two lines beside a narrow chart: the window never widens
                self.chart_host.addWidget(legend)
                self.chart_host.addWidget(self.chart.widget, 1)
                if self.report is not None:
                    self._show_table()
            self.stale = True
            self.timer.start()
            self.refresh()
        elif not on:
            self.timer.stop()

    def on_update(self, u) -> None:
        """The bridge's one signal: a round settled or released, or a request decided (a denial
        sends a settlement back, out of the hold)."""
        c = u.changes
        if u.first or c.rounds or c.approvals:
            self.stale = True

    def refresh(self) -> None:
        if self.reading or not self.stale or not self.timer.isActive():
            return
        now = self.bridge.clock()
        kind = self.kind.currentData()
        chosen = (self.start_edit.dateTime().toPython(), self.end_edit.dateTime().toPython())
        try:
            start, end, words = period_of(kind, now, chosen, self.bridge.shifts)
            if start >= end:
                raise ValueError("the period's start is not before its end")
        except ValueError as e:
            self._fault(str(e))
            self.stale = False
            return
        self.stale = False
        self.reading = True
        self.status.setText("reading…")
        theme.set_dim(self.status)
        self.bridge.read_aside(lambda ws: ws.reads.hold(start, end), lambda r: self._got(r, (start, end), words),
                               self._failed)

    def _failed(self, error: BaseException) -> None:
        self.reading = False
        self._fault(f"could not read the hold: {error}")

    def _fault(self, text: str) -> None:
        self.status.setText(f"{LEVEL_MARK[RED]} {text}")
        theme.set_level(self.status, RED)

    def _got(self, report, period: tuple[datetime, datetime], words: str) -> None:
        self.reading = False
        self.report, self.period = report, period
        rounds = f"{report.rounds:,} rounds"
        # a chosen period is in its two fields beside: the rounds alone, never cut at 1366 wide
        self.words.setText(rounds if self.kind.currentData() == "chosen" else f"{words} · {rounds}")
        self.status.setText("")
        theme.set_plain(self.status)
        self.tables.set_records(table_rows(report, list(self.floor())))
        row = self.tables.row_of(self.chosen_table)
        if row is None:
            self.chosen_table, row = PIT, 0
        if self.tables_view.currentIndex().row() != row:
            self.tables_view.selectRow(row)
        self._show_table()
        self.reads += 1

    def _kind_changed(self) -> None:
        chosen = self.kind.currentData() == "chosen"
        if chosen and self.period is not None:
            for edit, when in zip((self.start_edit, self.end_edit), self.period):
                edit.blockSignals(True)
                edit.setDateTime(when)
                edit.blockSignals(False)
        for w in (self.start_edit, self.to_label, self.end_edit):
            w.setVisible(chosen)
        self.stale = True
        self.refresh()

    def _chosen_changed(self) -> None:
        self.stale = True
        self.refresh()

    def _table_chosen(self, current, _previous=None) -> None:
        if not current.isValid():
            return
        row = current.data(RecordRole)
        if row is not None and row.table != self.chosen_table:
            self.chosen_table = row.table
            self._show_table()

    def _show_table(self) -> None:
        r = self.report
        if r is None:
            return
        if self.chosen_table == PIT:
            lines, total, name = r.pit, r.total, "The pit"
        else:
            t = r.table_hold(self.chosen_table)
            lines, total, name = (t.lines, t.total, t.table) if t is not None else ([], None, self.chosen_table)
        self.lines.set_records(lines)
        self.lines_title.setText(f"{name}: per wager type")
        if total is not None and total.wagered:
            # it wraps between its parts, never inside one (a sign from its amount)
            self.totals.setText(" · ".join(unbroken(part) for part in (
                f"wagered {money(total.wagered)}", f"house net {money(total.house_net)}",
                f"actual {percent(total.actual_hold)}", f"theoretical {theoretical_text(total.theoretical)}")))
        else:
            self.totals.setText("nothing wagered in this period")
        if self.chart is not None:
            self.chart.show(lines)

    # -- for the window and tests --------------------------------------------------------------
    def choose(self, kind: str, start: datetime | None = None, end: datetime | None = None) -> None:
        """Choose a period (``PERIODS``' keys); ``chosen`` takes ``start`` and ``end``."""
        if kind == "chosen" and start is not None and end is not None:
            self.period = (start, end)
        index = self.kind.findData(kind)
        if index < 0:
            raise ValueError(f"no period {kind!r} ({', '.join(k for k, _ in PERIODS)})")
        if index == self.kind.currentIndex():
            self._kind_changed()
        else:
            self.kind.setCurrentIndex(index)

    def choose_table(self, table: str) -> None:
        row = self.tables.row_of(table)
        if row is None:
            raise ValueError(f"no table {table!r} in the hold shown")
        self.tables_view.selectRow(row)


__all__ = ["HoldPage", "PERIODS", "period_of", "REFRESH_MS"]
