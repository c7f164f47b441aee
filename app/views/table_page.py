"""The table view: one table in full, from its ``TableDetail`` (app/workstation/readouts.py).

The seven positions stand as docs/table-layout.md draws them: seats 6 to 1 from the dealer's
far left to the far right, the dealer below (002: seven seated positions and no house hand).
Each says who sits there and what they do this round (bank, wager, progressive, first to the
table, the starting position and the order they receive cards). Below: the bank and who is
offered it next, the decks with their colours, counts and clocks, this round's irregularities
with their consequences and citations, and the table's history, newest first. The table's round
panel (app/views/round/) is a second tab beside the detail, under the same header.
"""

from __future__ import annotations

from . import theme
from .pit_models import DeckModel, HistoryModel, IrregularityModel, PaceModel
from .money_box import MoneyBox
from .position_box import PositionBox
from app.qt import (QGridLayout, QGroupBox, QHBoxLayout, QLabel, QSizePolicy, QSplitter, Qt, QTabWidget, QVBoxLayout,
                    QWidget)
from .theme import AMBER, LEVEL_MARK, NONE, OK, RED
from .tile import pace_words
from .widgets import record_view, seat_text, state_text

def tray_words(tray) -> str:
    """The tray in a few words: ``TRAY $3,600.00`` while open, and its slips on their way."""
    if tray is None:
        return ""
    said = "TRAY NOT OPEN" if tray.expected is None else f"TRAY {theme.money(tray.expected)}"
    if tray.slips:
        said += f" · {tray.slips} SLIP{'' if tray.slips == 1 else 'S'} ON THE WAY"
    return said


class TablePage(QWidget):
    def __init__(self, fetch_history, parent: QWidget | None = None, round_panel: QWidget | None = None):
        """``fetch_history(table, before, deliver)`` reads an older page off the GUI thread;
        ``round_panel`` (app/views/round/panel.py) is the table's second tab, beside its detail."""
        super().__init__(parent)
        self.round_panel = round_panel
        self.setObjectName("table")
        self.table: str | None = None
        self.detail = None
        self._fetch_history = fetch_history

        self.title = QLabel("No table open")
        self.title.setObjectName("title")
        self.title.setFont(theme.font(1.8, bold=True))
        self.subtitle = QLabel("Choose a table on the floor (F2) and press Enter")
        self.subtitle.setFont(theme.font(1.0))
        theme.set_dim(self.subtitle)
        self.state = QLabel()
        self.state.setObjectName("state")
        self.state.setFont(theme.font(1.5, bold=True))
        self.state.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.facts = QLabel()
        self.facts.setObjectName("facts")
        self.facts.setFont(theme.font(1.15, bold=True))
        self.clocks = QLabel()
        self.clocks.setObjectName("clocks")
        self.clocks.setFont(theme.font(1.15, bold=True, mono=True))
        self.lights = QLabel()
        self.lights.setObjectName("lights")
        self.lights.setFont(theme.font(1.0, bold=True))
        self.counts = QLabel()
        self.counts.setObjectName("counts")
        self.counts.setFont(theme.font(1.15, bold=True))
        self.counts.setMargin(4)

        head = QGridLayout()
        head.addWidget(self.title, 0, 0)
        head.addWidget(self.state, 0, 1)
        head.addWidget(self.subtitle, 1, 0)
        head.addWidget(self.counts, 1, 1, Qt.AlignmentFlag.AlignRight)
        head.addWidget(self.facts, 2, 0, 1, 2)
        head.addWidget(self.clocks, 3, 0, 1, 2)
        head.addWidget(self.lights, 4, 0, 1, 2)
        head.setColumnStretch(0, 1)
        for lb in (self.facts, self.clocks, self.lights, self.subtitle):
            lb.setWordWrap(True)

        # the seven positions, as docs/table-layout.md draws them
        self.positions: dict[int, PositionBox] = {}
        self.seats_row = QHBoxLayout()
        self.seats_row.setSpacing(8)
        self.dealer_row = QHBoxLayout()
        self.deal_line = QLabel()
        self.deal_line.setObjectName("deal")
        self.deal_line.setFont(theme.font(1.05, bold=True))
        self.deal_line.setWordWrap(True)
        layout_box = QGroupBox("Positions")
        self.layout_box = layout_box
        layout_box.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)
        lay = QVBoxLayout(layout_box)
        lay.setSpacing(4)
        lay.addLayout(self.seats_row)
        lay.addLayout(self.dealer_row)
        lay.addWidget(self.deal_line)

        self.bank = QLabel()
        self.bank.setObjectName("bank")
        self.bank.setWordWrap(True)
        self.bank.setTextFormat(Qt.TextFormat.PlainText)
        self.bank.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.bank.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        bank_box = QGroupBox("Bank and rotation")
        QVBoxLayout(bank_box).addWidget(self.bank)

        self.decks = DeckModel(self)
        self.irregularities = IrregularityModel(self)
        self.history = HistoryModel(self._fetch_older, self)
        self.decks_view = record_view(self.decks, "decks")
        self.irregularities_view = record_view(self.irregularities, "irregularities")
        self.history_view = record_view(self.history, "history")
        # the lists share one place under the seats, one tab each, so that every column of a
        # deck's clock and an irregularity's rule shows at 1366 pixels wide (issue 27)
        self.lists = QTabWidget()
        self.lists.setObjectName("table_lists")
        self.lists.addTab(self.history_view, "History (newest first)")
        self.lists.addTab(self.decks_view, "Decks")
        self.lists.addTab(self.irregularities_view, "Irregularities this round")
        # the shift so far, hour by hour (issue 36): pace and turnover
        self.pace = PaceModel(self)
        self.pace_view = record_view(self.pace, "pace")
        self.lists.addTab(self.pace_view, "Pace by hour")

        lower = QSplitter(Qt.Orientation.Horizontal)
        lower.addWidget(bank_box)
        lower.addWidget(self.lists)
        lower.setStretchFactor(0, 1)
        lower.setStretchFactor(1, 4)
        # the first division (Qt scales it to the page); a person's dragging is kept after that
        lower.setSizes([260, 1100])
        self.splitter = lower

        box = QVBoxLayout(self)
        box.setContentsMargins(12, 8, 12, 8)
        box.addLayout(head)
        if round_panel is None:
            self.tabs = None
            box.addWidget(layout_box)
            box.addWidget(lower, 1)
            return
        # the table's detail and its round panel, one tab each, under the same header
        detail = QWidget()
        dbox = QVBoxLayout(detail)
        dbox.setContentsMargins(0, 4, 0, 0)
        dbox.addWidget(layout_box)
        dbox.addWidget(lower, 1)
        self.detail_tab = detail
        # under the tab bar the window may still be made as small as before the round panel came
        detail.setMinimumSize(1, 1)
        self.tabs = QTabWidget()
        self.tabs.setObjectName("table_tabs")
        self.tabs.addTab(detail, "Table (F3)")
        self.tabs.addTab(round_panel, "Round (F10)")
        # the table's tray: opener, fills, credits, buy-ins, the rounds' flow, the slips, the win
        self.money = MoneyBox()
        self.tabs.addTab(self.money, "Money (Ctrl+T)")
        box.addWidget(self.tabs, 1)
        # the round panel takes the height of the clocks and device lines (the Table tab, the floor
        # and the status bar still show them); the title, state, counts and the round line stay
        self.tabs.currentChanged.connect(lambda _=None: self._round_header())

    def _round_header(self) -> None:
        detail = self.tabs.currentWidget() is self.detail_tab
        for lb in (self.clocks, self.lights):
            if lb.isHidden() == detail:
                lb.setVisible(detail)

    def show_tab(self, name: str) -> None:
        """``table`` (the detail), ``round`` (the round panel) or ``money`` (the tray)."""
        if self.tabs is not None:
            self.tabs.setCurrentWidget(self.round_panel if name == "round" else self.money if name == "money"
                                       else self.detail_tab)

    # -- which table ---------------------------------------------------------------------------
    def set_table(self, table: str | None) -> None:
        if table != self.table:
            self.table = table
            self.detail = None
            self.history.clear()
        if self.round_panel is not None:
            self.round_panel.set_table(table)

    def _fetch_older(self, before: int, deliver) -> None:
        if self.table is not None:
            table = self.table
            self._fetch_history(table, before, lambda page: deliver(page) if table == self.table else None)

    # -- showing a detail ------------------------------------------------------------------------
    def show_detail(self, d) -> None:
        if d.tile.table != self.table:
            return
        self.detail = d
        t = d.tile
        self.title.setText(f"Table {t.table}")
        self.subtitle.setText(f"{t.profile} · {d.title}")
        self.state.setText(state_text(t.state) + (f"  {LEVEL_MARK[RED]} VOID" if t.void else ""))
        if t.void:
            theme.set_level(self.state, RED)
        else:
            theme.set_plain(self.state)
        self.facts.setText(f"ROUND {t.round_now}   ·   BANK: {t.bank.text}   ·   "
                           + ("PROGRESSIVE " + (f"{theme.money(t.meter_cents)}" if t.meter_cents is not None else "—")
                              + (f"  {LEVEL_MARK[RED]} CLOSED (controller offline)" if t.progressive == "closed"
                                 else "  open") if t.progressive else "no progressive wager")
                           + (f"   ·   {tray_words(t.tray)}" if t.tray is not None else "")
                           + (f"   ·   {pace_words(t.pace)}" if t.pace is not None else ""))
        clocks = []
        if t.deck is not None:
            clocks.append(f"DECK {t.deck.deck} {theme.clock_words(t.deck.level, t.deck.left, t.deck.overdue)}")
        if t.dice is not None:
            clocks.append(f"DICE {theme.clock_words(t.dice.level, t.dice.left, t.dice.overdue)}")
        self.clocks.setText("     ".join(clocks) or "no deck or dice at the table")
        theme.set_level(self.clocks, t.clock_level if clocks else NONE)
        self.lights.setText("   ".join(theme.link_words(light.cls, light.state) for light in t.lights)
                            or "no devices")
        link_levels = [theme.LINK_LEVEL.get(light.state, NONE) for light in t.lights]
        theme.set_level(self.lights, RED if RED in link_levels else AMBER if AMBER in link_levels
                        else OK if link_levels else NONE)
        counts = (f"{LEVEL_MARK[RED] if t.open_alarms else LEVEL_MARK[NONE]} {t.open_alarms} open alarm"
                  f"{'' if t.open_alarms == 1 else 's'}   "
                  f"{LEVEL_MARK[AMBER] if t.pending_approvals else LEVEL_MARK[NONE]} {t.pending_approvals} pending "
                  f"approval{'' if t.pending_approvals == 1 else 's'}")
        self.counts.setText(counts)
        level = RED if t.open_alarms else AMBER if t.pending_approvals else NONE
        theme.set_level(self.counts, level, filled=level != NONE)

        self._show_positions(d)
        self._show_bank(d.bank)
        self.decks.set_records(d.decks)
        self.irregularities.set_records(d.irregularities)
        n = len(d.irregularities)
        self.lists.setTabText(2, f"Irregularities this round ({n})" if n else "Irregularities this round")
        self.history.set_page(d.history)
        self.pace.set_records(d.pace_hours)
        if self.tabs is not None and d.money is not None:
            self.money.show_info(d.money)

    def _show_positions(self, d) -> None:
        wanted = [p.position for p in d.positions]
        if list(self.positions) != wanted:
            for w in self.positions.values():
                w.setParent(None)
                w.deleteLater()
            self.positions = {p: PositionBox(self) for p in wanted}
            # seats from the dealer's far left (highest number) to the far right; the dealer below
            for p in sorted((p for p in wanted if p != 0), reverse=True):
                self.seats_row.addWidget(self.positions[p])
            if 0 in self.positions:
                self.dealer_row.addStretch(1)
                self.dealer_row.addWidget(self.positions[0])
                self.dealer_row.addStretch(1)
        seats = [p for p in wanted if p != 0]
        # docs/table-layout.md: seats counted counterclockwise from the dealer's far right
        self.layout_box.setTitle(f"Positions as the dealer sees them: seat {max(seats, default=6)} on the far left, "
                                 "seat 1 on the far right" + ("" if 0 in wanted else
                                                              "; seven seated hands and no house hand"))
        for p in d.positions:
            self.positions[p.position].show_position(p, d.starting_position, d.deal_order)
        if d.deal_order:
            order = ", ".join(seat_text(p) for p in d.deal_order)
            start = seat_text(d.starting_position) if d.starting_position is not None else "—"
            self.deal_line.setText(f"Starting position: {start}.   Deal order ({d.delivery}): {order}")
        else:
            self.deal_line.setText(f"Starting position and deal order: not yet determined this round "
                                   f"(cards go {d.delivery})")

    def _show_bank(self, b) -> None:
        lines = [f"Bank this round: {b.marker.text}", f"Rotation: {b.rotation.replace('-', ' ')}", b.note]
        if b.dealer_wager is not None:
            lines.append(f"Dealer's wager against the player bank: {theme.money(b.dealer_wager)}")
        if b.last_bank:
            lines.append("Last bank: " + ", ".join(seat_text(s) for s in b.last_bank))
        if b.offers:
            lines.append("Offered next, in order:")
            for o in b.offers:
                mark = f"{LEVEL_MARK[OK]} eligible" if o.eligible else f"{LEVEL_MARK[NONE]} not eligible"
                lines.append(f"   {seat_text(o.seat)}: {mark} ({o.reason})")
        self.bank.setText("\n".join(line for line in lines if line))
