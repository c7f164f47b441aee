"""The progressive view: a card per progressive controller, its hits and the meter's record.

A card shows one controller as the workstation reads it (``ControllerReadout``,
app/workstation/progressive_readout.py): the meter in large numerals, the tables it serves, its link,
the lock-out, the acceptor lights against the round's progressive wagers, a PENDING banner
while a hit waits for a supervisor, and the meter against time since the shift began with hits
and resets marked (app/views/progressive_chart.py). Under the cards: the hits of every
controller in the order each reported them, and the meter's record at the start and end of
each shift and every reset.

Live, but not per reading: the bridge's ``changed`` marks the view stale when a table with a
controller, an approval or an alarm changed; a timer (``REFRESH_MS``) then reads what is new
(``progressive(since=the shift's start, after=the last row read)``) on the bridge's lane and
draws it in one go. The timer runs only while the view is shown. Nothing here decides a rule.
"""

from __future__ import annotations

from datetime import datetime

from app.workstation.progressive_readout import clock_seconds

from . import theme
from .progressive_models import HIT_LEVEL, HitModel, MeterRecordModel, RecordRow
from app.qt import (QAction, QFrame, QGridLayout, QHBoxLayout, QSizePolicy, QSplitter, Qt,
                 QTabWidget, QTimer, QVBoxLayout, QWidget)
from .records import RecordRole
from .theme import AMBER, LEVEL_MARK, NONE, OK, RED, money
from .widgets import label, put, record_view, restyle

REFRESH_MS = 500       # at most two redraws a second, however fast the meters move
PAGE = 10_000          # readings a controller per read: a long shift is read in pages, between pumps


class ControllerCard(QFrame):
    """One controller: who it is, the meter, its states, a pending hit, the chart."""

    def __init__(self, serial: str, parent: QWidget | None = None):
        super().__init__(parent)
        from .progressive_chart import MeterChart   # pyqtgraph, the first time a card is made
        self.serial = serial
        self.readout = None
        self.setObjectName("tile")      # the tiles' frame and its level colours (theme.stylesheet)
        self.setProperty("level", "ok")
        self.setAccessibleName(f"progressive controller {serial}")
        self.name = label("", 1.5, bold=True, name="serial")
        self.name.setText(serial)
        self.tables = label("", 1.2, bold=True, name="tables")
        self.link = label("", 1.0, bold=True, name="link")
        self.meter = label("", 3.0, bold=True, mono=True, name="amount")
        self.meter.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.lockout = label("", 1.1, bold=True, name="lockout")
        self.wagers = label("", 1.0, bold=True, name="wagers")
        self.acceptors = label("", 1.0, bold=True, name="acceptors")
        self.pending = label("", 1.3, bold=True, name="pending")
        self.pending.setMargin(4)
        self.pending.hide()
        for lb in (self.lockout, self.wagers, self.acceptors, self.pending, self.tables):
            # a long line is cut, never widening the card past its half of a 1366-pixel screen
            lb.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            lb.setMinimumWidth(0)
        self.chart = MeterChart(f"chart_{serial}")
        self.chart.widget.setMinimumHeight(int(theme.base_pt() * 6))
        self.chart.widget.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

        top = QHBoxLayout()
        top.addWidget(self.name)
        top.addSpacing(12)
        top.addWidget(self.tables, 1)
        top.addWidget(self.link)
        facts = QVBoxLayout()
        facts.setSpacing(0)
        facts.addStretch(1)
        facts.addWidget(self.lockout)
        facts.addWidget(self.wagers)
        facts.addWidget(self.acceptors)
        facts.addStretch(1)
        amount = QHBoxLayout()
        amount.addWidget(self.meter, 0)
        amount.addSpacing(16)
        amount.addLayout(facts, 1)
        box = QVBoxLayout(self)
        box.setContentsMargins(10, 6, 10, 8)
        box.setSpacing(2)
        box.addLayout(top)
        box.addLayout(amount)
        box.addWidget(self.pending)
        box.addWidget(self.chart.widget, 1)

    def show_readout(self, r, now: datetime) -> None:
        self.readout = r
        put(self.tables, f"{', '.join(r.tables)} · {r.profile} ({r.rule_text})")
        put(self.link, theme.link_words("progressive", r.link))
        theme.set_level(self.link, theme.LINK_LEVEL.get(r.link, NONE))
        put(self.meter, money(r.meter))
        if r.wagers_open:
            theme.set_plain(self.meter)
        else:
            theme.set_level(self.meter, RED)
        if r.locked is None:
            put(self.lockout, "LOCK-OUT NOT REPORTED YET")
        else:
            put(self.lockout, "LOCK-OUT ON" if r.locked else "LOCK-OUT OFF")
        self.lockout.setToolTip(f"the lock-out the dealer presses at No more bets ({r.lockout_rule})")
        theme.set_plain(self.lockout)
        if not r.wagers_open:
            put(self.wagers, f"{LEVEL_MARK[RED]} PROGRESSIVE WAGERS CLOSED")
            theme.set_level(self.wagers, RED)
        else:
            lit = ", ".join(map(str, r.lit)) if r.lit else "none"
            put(self.wagers, f"LIGHTS {lit}" + (f" · WAGERS {', '.join(map(str, r.round_wagers)) or 'none'}"
                                                 if r.round_wagers is not None else ""))
            theme.set_plain(self.wagers)
        a = r.acceptors
        if a is None:
            put(self.acceptors, "")
            self.acceptors.hide()
        else:
            self.acceptors.show()
            self.acceptors.setToolTip(f"{a.text} ({a.rule})")
            if a.agrees:
                put(self.acceptors, f"{LEVEL_MARK[OK]} LIGHTS MATCH THE WAGERS")
                theme.set_level(self.acceptors, OK)
            else:
                put(self.acceptors, f"{LEVEL_MARK[RED]} LIGHTS ≠ WAGERS: SEE ALARM")
                theme.set_level(self.acceptors, RED)
        pending = [h for h in r.hits if h.state == "PENDING"]
        if pending:
            h = pending[0]
            more = f" (+{len(pending) - 1} more)" if len(pending) > 1 else ""
            put(self.pending, f"{LEVEL_MARK[AMBER]} PENDING HIT · {h.table} SEAT {h.seat} · {money(h.reported)}{more}")
            self.pending.setToolTip(f"the hit waits for a {h.role_needed} to validate it ({h.validate_rule}): select "
                                    "it in the list and approve (F7) or deny (F8)")
            theme.set_level(self.pending, AMBER, filled=True)
            self.pending.show()
        else:
            self.pending.hide()
        level = RED if (not r.wagers_open or r.link == "offline" or (a is not None and not a.agrees)) else \
            AMBER if pending or r.link == "degraded" else OK
        restyle(self, "level", level)
        # the chart: what is new, the marks, the shift so far
        if r.since is not None and r.start is not None and self.chart.n == 0:
            self.chart.extend([clock_seconds(r.since)], [r.start.cents])   # the meter as the shift began
        self.chart.extend(r.series.seconds, r.series.cents)
        self.chart.set_marks([(h.time, h.meter if h.meter is not None else (h.reported or 0), h.state)
                              for h in r.hits if r.since is None or h.time >= r.since],
                             [(h.reset.time, h.reset.cents) for h in r.hits
                              if h.reset is not None and (r.since is None or h.reset.time >= r.since)])
        if self.chart.redraw():
            self.chart.span(r.since, max(now, r.meter_time or now))


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
        top = QHBoxLayout()
        top.addWidget(self.title)
        top.addSpacing(24)
        top.addWidget(self.shift)
        top.addStretch(1)

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
        self.bridge.read(lambda ws: ws.progressive(since=since, after=after, now=now, limit=PAGE),
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


__all__ = ["ProgressivePage", "ControllerCard", "HIT_LEVEL"]
