"""A settled round as the workstation read it back from the log, in the round panel's Settlement
tab: where it stands, the result per seat and wager, the ledger with each line's citation, the net
by party, the approvals it needs and the payouts with their slips.
"""

from __future__ import annotations

from .. import theme
from app.qt import QAction, QHBoxLayout, QSplitter, Qt, QTimer, QVBoxLayout, QWidget
from .round_models import LedgerModel, PayoutModel, ResultModel, RoundApprovalModel, round_level, round_status, signed
from ..theme import NONE
from ..widgets import command_button, fit_columns, label, record_view, say, unbroken, visible, when

BIG_TABLES = 1.2        # the settlement's tables on a tall screen, times the base font


class ResultView(QWidget):
    """A settled round as the workstation read it back from the log: where it stands, the result
    per seat and wager, the ledger with each line's citation, the net by party, the approvals it
    needs and the payouts with their slips. The results and the ledger stand one above the other,
    side by side only on a very wide screen."""

    # pixels: wider than this, results and ledger side by side; narrower, one above the other at
    # the full width, so that every citation is read whole (a 1920 screen is narrower than this)
    WIDE = 2400

    def __init__(self, parent: QWidget | None = None, reopen: QAction | None = None):
        super().__init__(parent)
        self.setObjectName("settlement")
        self.head = label("No round settled or opened yet", 1.4, bold=True, name="result_head")
        self.sub = label("", 1.0, name="result_sub", wrap=True)
        self.status = label("", 1.15, bold=True, name="result_status", wrap=True)
        self.status.setMargin(4)
        self.net = label("", 1.15, bold=True, name="result_net", wrap=True, mono=True)
        self.notes = label("", 0.95, name="result_notes", wrap=True)
        theme.set_dim(self.notes)
        self.results = ResultModel(self)
        self.ledger = LedgerModel(self)
        self.approvals = RoundApprovalModel(self)
        self.payouts = PayoutModel(self)
        self.results_view = record_view(self.results, "results")
        self.ledger_view = record_view(self.ledger, "ledger")
        self.approvals_view = record_view(self.approvals, "round_approvals")
        self.payouts_view = record_view(self.payouts, "payouts")
        for v in (self.results_view, self.ledger_view, self.approvals_view, self.payouts_view):
            v.verticalHeader().setDefaultSectionSize(int(v.fontMetrics().height() * 1.35))

        def captioned(title, view):
            w = QWidget()
            b = QVBoxLayout(w)
            b.setContentsMargins(0, 2, 0, 0)
            b.setSpacing(2)
            b.addWidget(label(title, 1.0, bold=True))
            b.addWidget(view, 1)
            return w
        self.approvals_box = captioned("Approvals this round needs", self.approvals_view)
        self.payouts_box = captioned("Payouts and their slips", self.payouts_view)
        bottom = QSplitter(Qt.Orientation.Horizontal)
        bottom.addWidget(self.approvals_box)
        bottom.addWidget(self.payouts_box)
        self.top = QSplitter(Qt.Orientation.Vertical)
        self.top.addWidget(captioned("Result per seat and wager", self.results_view))
        self.top.addWidget(captioned("Ledger, each line with its citation", self.ledger_view))
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.top)
        split.addWidget(bottom)
        split.setStretchFactor(0, 4)
        split.setStretchFactor(1, 1)
        # the payouts and approvals are a few lines: the results and the ledger take the height
        split.setSizes([800, 130])
        self.split = split
        head = QHBoxLayout()
        head.addWidget(self.head)
        head.addSpacing(16)
        head.addWidget(self.sub, 1)
        # a round a denial sent back is entered again from beside the status that says so
        status = QHBoxLayout()
        status.addWidget(self.status, 1)
        self.reopen = None
        if reopen is not None:
            self.reopen = command_button(reopen, "reopen_round", 1.1, bold=True)
            status.addWidget(self.reopen)
        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.setSpacing(3)
        box.addLayout(head)
        box.addLayout(status)
        box.addWidget(self.net)
        box.addWidget(self.notes)
        box.addWidget(split, 1)

    def clear(self) -> None:
        self.head.setText("No round settled or opened yet")
        for lb in (self.sub, self.net, self.notes):
            lb.clear()
        say(self.status, "", None)
        for m in (self.results, self.approvals, self.payouts):
            m.set_records([])
        self.ledger.set_lines([])

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        wide = Qt.Orientation.Horizontal if self.width() > self.WIDE else Qt.Orientation.Vertical
        if self.top.orientation() != wide:
            self.top.setOrientation(wide)
        # where the screen has the room (1920x1080), the figures are larger: read at arm's length
        self._scale(BIG_TABLES if self.height() > self.TALL else 1.0)

    TALL = 700      # pixels: taller than this, the tables' text is larger

    def showEvent(self, event) -> None:
        # a round opened from the Rounds tab is shown after its tables were filled: they are
        # fitted to it now that they are laid out (issue 33, 5)
        super().showEvent(event)
        QTimer.singleShot(0, self, self._fit)

    def _scale(self, scale: float) -> None:
        if self.property("table_scale") == scale:
            return
        self.setProperty("table_scale", scale)
        pairs = ((self.results_view, self.results), (self.ledger_view, self.ledger),
                 (self.approvals_view, self.approvals), (self.payouts_view, self.payouts))
        for view, model in pairs:
            view.setFont(theme.font(scale))
            view.verticalHeader().setDefaultSectionSize(int(view.fontMetrics().height() * 1.35))
            model.set_font_scale(scale)
        self._fit()

    def show_result(self, r) -> None:
        self.head.setText(f"ROUND {r.round} AT {r.table} · SETTLEMENT {r.settlement}")
        # a hand is never broken across lines (no-break spaces); it comes first, the who and when after
        nb = "\u00a0"
        hand = f"{nb.join(r.banker_high)}{nb}{nb}|{nb}{nb}{nb.join(r.banker_low)}" if r.banker_high else "—"
        again = f" · settled again for settlement {r.replaces}" if r.replaces else ""
        self.sub.setText(f"the banker's hand {hand} · banking: {r.banking} · settled by {r.actor} ({r.role}) at "
                         f"{when(r.time)} · {r.profile}{again}")
        level = round_level(r.status)
        say(self.status, f"{round_status(r.status)} · {r.status_text}", level, filled=level != NONE)
        # a party and its amount never broken across lines ("seat" / "7 +$16.00"): no-break spaces
        self.net.setText("NET BY PARTY   " + "   ".join(unbroken(f"{party} {signed(c)}")
                                                        for party, c in r.net_by_party.items()))
        self.notes.setText("\n".join(r.notes))
        visible(self.notes, bool(r.notes))
        self.results.set_records(r.results)
        self.ledger.set_lines(r.ledger)
        self.approvals.set_records(r.approvals)
        self.payouts.set_records(r.payouts)
        # nothing to approve: the status line says so, and the payouts take the row
        visible(self.approvals_box, bool(r.approvals))
        # each round's amounts and words differ: the columns are fitted to this one's
        self._fit()

    def _fit(self) -> None:
        for v in (self.results_view, self.ledger_view, self.approvals_view, self.payouts_view):
            if v.isVisible() and v.model().rowCount():
                fit_columns(v)
        if self.ledger_view.isVisible():
            # why a line moves money is read whole; the citation takes what is left
            self.ledger_view.resizeColumnToContents(4)
