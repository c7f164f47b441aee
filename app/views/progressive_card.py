"""One progressive controller on the progressive view, as the workstation reads it
(``ControllerReadout``, app/workstation/progressive_readout.py): the meter in large numerals, the
tables it serves, its link, the lock-out, the acceptor lights against the round's progressive
wagers, a PENDING banner while a hit waits for a supervisor, and the meter against time since
the shift began with hits and resets marked (app/views/progressive_chart.py).

The card's frame takes the level of the most urgent of these, as a tile's does. Nothing here
decides a rule.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from app.workstation.progressive_readout import clock_seconds

from . import theme
from app.qt import QFrame, QHBoxLayout, QSizePolicy, Qt, QVBoxLayout, QWidget
from .theme import AMBER, LEVEL_MARK, NONE, OK, RED, money
from .widgets import label, put, restyle


# what the chart spans: the last hour first (issue 27), wider on request
SPANS = (("Last hour", timedelta(hours=1)), ("Last 2 hours", timedelta(hours=2)),
         ("Last 4 hours", timedelta(hours=4)), ("Whole shift", None))


class ControllerCard(QFrame):
    """One controller: who it is, the meter, its states, a pending hit, the chart."""

    def __init__(self, serial: str, parent: QWidget | None = None):
        super().__init__(parent)
        from .progressive_chart import MeterChart   # pyqtgraph, the first time a card is made
        self.serial = serial
        self.readout = None
        self.last: timedelta | None = SPANS[0][1]
        self.shown: tuple = (None, None)          # the shift's start and the time of the last readout
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
        self.shown = (r.since, max(now, r.meter_time or now))
        if self.chart.redraw():
            self.chart.span(*self.shown, self.last)

    def show_last(self, last: timedelta | None) -> None:
        """The chart's span: the last ``last`` of the shift, or all of it (None)."""
        self.last = last
        self.chart.span(*self.shown, last)
