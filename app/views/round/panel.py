"""The round panel (issue 14), in the table view: a round entered as people type it or as a
card-reading shuffler reads it, settled, approved, released with its payout slips; the table's
rounds and slips.

Everything it shows is a readout of the workstation (``RoundDraftInfo``, ``RoundResult``,
``RoundSummary``, ``SlipInfo``: app/workstation/readouts.py) and everything a person does is one
workstation call through the bridge (``bridge.act``). Nothing here computes a rule: a field sends
what was typed, and shows the workstation's reason beside it when refused; which fields there are
comes from the draft's ``form`` (the profile's wagers, the banking modes and what each takes).

A field keeps what a person typed until the workstation takes it ("dirty"): a readout arriving
meanwhile does not overwrite it. Cards a shuffler read are shown as read and corrected only
through the correction dialog, which records why.

Tabs: Enter round | Settlement | Rounds (history, newest first) | Slips | As logged.
"""

from __future__ import annotations

import json
from time import perf_counter

from app.reports import slip as slip_report
from app.workstation.errors import Refused

from .. import theme
from ..pit_models import seat_text, when
from app.qt import (QAction, QCheckBox, QComboBox, QFileDialog, QFrame, QGridLayout, QGroupBox, QHBoxLayout,
                 QPlainTextEdit, QPrintDialog, QPrinter, QPushButton, QScrollArea, QSizePolicy, QSplitter,
                 Qt, QTabWidget, QTimer, QToolButton, QVBoxLayout, QWidget)
from .round_dialogs import (CardPickerDialog, CorrectCardsDialog, ReissueSlipDialog, ReleaseDialog, ReopenRoundDialog,
                            VoidSlipDialog)
from .round_models import (LedgerModel, PayoutModel, ResultModel, RoundApprovalModel, RoundHistoryModel, SlipModel,
                           round_level, round_status, signed, wager_text)
from ..theme import AMBER, COLOUR, LEVEL_MARK, NONE, OK, RED, money
from ..widgets import Entry, dollars_text, fit_columns, label, record_view, say, set_refused, visible

MODE_WORDS = {"house": "House: the dealer banks", "player": "Player bank", "co-bank": "Co-bank",
              "player-dealer": "Player-dealer (002)"}
AMOUNT_WORDS = {"chips": "Bank's chips", "last_wager": "Bank's last wager", "dealer_wager": "Dealer's wager",
                "wager": "Player-dealer's wager", "dealer_prepaid_commission": "Dealer's prepaid commission"}
WAGER_LABELS = {"base": "Base", "fortune": "Fortune", "fortune_toke": "Toke", "insurance": "Insurance",
                "three_card": "3-card", "seven_card": "7-card", "ace_high": "Ace-High", "progressive": "Progressive"}
PER_ROW = 5             # wager fields in a row of a seat
BROADCAST_MS = 60       # after a settlement is shown, the other views hear of it
BIG_TABLES = 1.2        # the settlement's tables on a tall screen, times the base font
PANEL_STYLE = (f'QLineEdit[refused="true"] {{ border: 2px solid {COLOUR[RED].name()}; }} '
               f'QLineEdit[readOnly="true"] {{ color: {COLOUR[OK].name()}; }}')


def wager_label(wager: str) -> str:
    if wager.startswith("additional "):
        return f"on {wager.split()[1]}"
    return WAGER_LABELS.get(wager, wager.replace("_", " "))


def eligibility(offer) -> str:
    """A bank offer's eligibility as the procedures decided it, in a word beside its mark."""
    return f"{LEVEL_MARK[OK]} eligible" if offer.eligible else f"{LEVEL_MARK[NONE]} not eligible"


class PositionRow(QFrame):
    """One position of the round: its cards (typed, picked or read), its set, its wagers, and
    what the workstation says of it (the set that plays and the house-way rule that chose it, a
    foul with its consequence, a misread)."""

    def __init__(self, panel: "RoundPanel", position: int, name: str, form):
        super().__init__()
        self.panel, self.position, self.form = panel, position, form
        self.setObjectName(f"position_{position}")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        seat = position != 0
        self.reasons: dict[str, str] = {}
        self.title = label(name.upper(), 1.25, bold=True)
        self.title.setMinimumWidth(int(theme.base_pt() * 7))
        self.in_round = label("", 0.9, bold=True)
        self.cards = Entry(f"cards_{position}", 17, mono=True, placeholder="as kd 7h 7c 2s jk 10d")
        self.cards.setAccessibleName(f"{name} cards")
        self.cards.textEdited.connect(self._cards_typed)
        self.cards.editingFinished.connect(self._cards_done)
        self.pick = QToolButton()
        self.pick.setText("Pick…")
        self.pick.setObjectName(f"pick_{position}")
        self.pick.clicked.connect(lambda: panel.pick_cards(position))
        self.correct = QToolButton()
        self.correct.setText("Correct…")
        self.correct.setObjectName(f"correct_{position}")
        self.correct.clicked.connect(lambda: panel.correct_cards(position))
        self.correct.hide()
        line1 = QHBoxLayout()
        line1.setSpacing(6)
        title_box = QVBoxLayout()
        title_box.setSpacing(0)
        title_box.addWidget(self.title)
        title_box.addWidget(self.in_round)
        line1.addLayout(title_box)
        line1.addWidget(label("Cards"))
        line1.addWidget(self.cards, 3)
        line1.addWidget(self.pick)
        line1.addWidget(self.correct)
        self.high = self.low = self.house = self.player = None
        self.wagers: dict[str, Entry] = {}
        self.prepaid = self.bettors = None
        self.surrender: QCheckBox | None = None
        if seat:
            self.high = Entry(f"high_{position}", 12, mono=True, placeholder="high: five cards")
            self.low = Entry(f"low_{position}", 5, mono=True, placeholder="low: two")
            self.high.returnPressed.connect(self.low.setFocus)
            self.high.editingFinished.connect(self._set_done)
            self.low.editingFinished.connect(self._set_done)
            self.house = QPushButton("House way")
            self.house.setObjectName(f"house_way_{position}")
            self.house.setToolTip("set this hand by the house way, for a player who asks (003 GENERAL PROCEDURES 8)")
            self.house.clicked.connect(lambda: panel.use_house_way(position))
            line1.addSpacing(8)
            line1.addWidget(label("High"))
            line1.addWidget(self.high, 2)
            line1.addWidget(label("Low"))
            line1.addWidget(self.low, 1)
            line1.addWidget(self.house)
        box = QVBoxLayout(self)
        box.setContentsMargins(8, 4, 8, 4)
        box.setSpacing(3)
        box.addLayout(line1)
        indent = int(theme.base_pt() * 7)
        if seat:
            grid = QGridLayout()
            grid.setHorizontalSpacing(6)
            grid.setVerticalSpacing(3)
            items: list[tuple[str, QWidget]] = []
            self.player = Entry(f"player_{position}", 7, placeholder="who plays")
            self.player.editingFinished.connect(self._player_done)
            items.append(("Player", self.player))
            plain = [w for w in form.wagers if not w.startswith("additional ")]
            extra = [w for w in form.wagers if w.startswith("additional ")]
            for w in plain:
                e = self._wager_entry(w)
                items.append((wager_label(w), e))
            if form.prepaid_commission:
                self.prepaid = Entry(f"prepaid_{position}", 5)
                self.prepaid.setToolTip("commission paid with the wager (003 COLLECTING 6)")
                self.prepaid.editingFinished.connect(self._prepaid_done)
                items.append(("Prepaid", self.prepaid))
            if form.bettors_per_circle > 1:
                self.bettors = Entry(f"bettors_{position}", 10, placeholder="name and wager: ann 10, bo 5")
                self.bettors.setToolTip(f"others betting on this circle, name and base wager (up to "
                                        f"{form.bettors_per_circle} bettors a circle, 003)")
                self.bettors.editingFinished.connect(self._bettors_done)
                items.append(("Bettors", self.bettors))
            if form.surrender:
                self.surrender = QCheckBox("Surrender")
                self.surrender.setObjectName(f"surrender_{position}")
                self.surrender.setToolTip("the player surrenders (000(l)(4), 004(9)): the profile says what it costs")
                self.surrender.clicked.connect(self._surrender_clicked)
                items.append(("", self.surrender))
            for n, (text, w) in enumerate(items):
                r, c = divmod(n, PER_ROW)
                if text:
                    lb = label(text)
                    lb.setBuddy(w)
                    grid.addWidget(lb, r, 2 * c, Qt.AlignmentFlag.AlignRight)
                grid.addWidget(w, r, 2 * c + 1)
            row = (len(items) + PER_ROW - 1) // PER_ROW - 1
            if extra:
                add = QHBoxLayout()
                add.setSpacing(4)
                add.addWidget(label("Additional wagers"))
                for w in extra:
                    add.addWidget(label(wager_label(w)))
                    add.addWidget(self._wager_entry(w, 4))
                add.addStretch(1)
                grid.addLayout(add, row + 1, 0, 1, 2 * PER_ROW + 1)
            wrap = QHBoxLayout()
            wrap.addSpacing(indent)
            wrap.addLayout(grid, 1)
            box.addLayout(wrap)
        self.reason = label("", 1.0, bold=True, name=f"reasons_{position}", wrap=True)
        self.reason.hide()
        self.status = label("", 1.0, bold=True, name=f"status_{position}", wrap=True)
        self.source = label("", 0.95, name=f"source_{position}", wrap=True)
        for w in (self.reason, self.status, self.source):
            wrap = QHBoxLayout()
            wrap.addSpacing(indent)
            wrap.addWidget(w, 1)
            box.addLayout(wrap)
        self._sent_cards = ""
        self.info = None

    def _wager_entry(self, wager: str, width: float = 6) -> Entry:
        e = Entry(f"wager_{self.position}_{wager.replace(' ', '_')}", width)
        e.setToolTip(self.form.wager_names.get(wager, wager))
        e.setAccessibleName(f"{seat_text(self.position)} {self.form.wager_names.get(wager, wager)}")
        e.textEdited.connect(lambda text, w=wager: self.panel.check_wager(self.position, w, text))
        e.editingFinished.connect(lambda w=wager, e=e: self._wager_done(w, e))
        self.wagers[wager] = e
        return e

    # -- what a person types, sent ------------------------------------------------------------
    def _cards_typed(self, text: str) -> None:
        # a card used twice is refused at once: the cards typed so far go as each one is complete
        tokens = text.split()
        done = tokens if text.endswith((" ", ",")) else tokens[:-1]
        complete = " ".join(done)
        if complete and complete != self._sent_cards and not self.cards.isReadOnly():
            self._sent_cards = complete
            self.panel.send_cards(self.position, complete, final=False)

    def _cards_done(self) -> None:
        if self.cards.dirty and not self.cards.isReadOnly():
            self._sent_cards = " ".join(self.cards.text().split())
            self.panel.send_cards(self.position, self.cards.text(), final=True)

    def _set_done(self) -> None:
        if not (self.high.dirty or self.low.dirty):
            return
        high, low = self.high.text().strip(), self.low.text().strip()
        if bool(high) != bool(low):
            return      # the other half is still to come
        self.panel.send_set(self.position, high, low)

    def _wager_done(self, wager: str, e: Entry) -> None:
        if e.dirty:
            self.panel.send_wagers(self.position, {wager: e.text()})

    def _player_done(self) -> None:
        if self.player.dirty:
            self.panel.send(("player",), self.position, lambda ws, t, s=self.position, p=self.player.text():
                            ws.set_player(t, s, p), [self.player])

    def _prepaid_done(self) -> None:
        if self.prepaid.dirty:
            self.panel.send(("prepaid_commission",), self.position,
                            lambda ws, t, s=self.position, p=self.prepaid.text(): ws.set_prepaid_commission(t, s, p),
                            [self.prepaid])

    def _bettors_done(self) -> None:
        if not self.bettors.dirty:
            return
        pairs = []
        for part in self.bettors.text().split(","):
            bits = part.split()
            if bits:
                pairs.append((" ".join(bits[:-1]) if len(bits) > 1 else bits[0], bits[-1] if len(bits) > 1 else ""))
        self.panel.send(("bettors",), self.position, lambda ws, t, s=self.position, b=tuple(pairs):
                        ws.set_bettors(t, s, list(b)), [self.bettors])

    def _surrender_clicked(self, on: bool) -> None:
        self.panel.send(("surrender",), self.position, lambda ws, t, s=self.position: ws.set_surrender(t, s, on), [])

    def reset(self) -> None:
        """Empty, for another table of the same profile."""
        for e in self.entries().values():
            e.dirty = False
            e.setReadOnly(False)
            e.clear()
            set_refused(e, False)
        self.reasons.clear()
        say(self.reason, "", RED)
        self._sent_cards = ""
        self.info = None

    # -- what the workstation says --------------------------------------------------------------
    def entries(self) -> dict[str, Entry]:
        out = {"cards": self.cards}
        if self.high is not None:
            out.update(high=self.high, low=self.low, player=self.player)
        out.update(self.wagers)
        if self.prepaid is not None:
            out["prepaid_commission"] = self.prepaid
        if self.bettors is not None:
            out["bettors"] = self.bettors
        return out

    def set_reason(self, field: str, reason: str | None) -> None:
        if reason:
            self.reasons[field] = reason
        else:
            self.reasons.pop(field, None)
        edits = self.entries()
        targets = [edits[k] for k in (("high", "low") if field == "set" else (field,)) if k in edits]
        for e in targets:
            set_refused(e, bool(reason))
        text = "\n".join(f"{LEVEL_MARK[RED]} {r}" for r in self.reasons.values())
        say(self.reason, text, RED)

    def accepted(self, fields: tuple[str, ...]) -> None:
        edits = self.entries()
        for f in fields:
            for k in (("high", "low") if f == "set" else (f,)):
                if k in edits:
                    edits[k].dirty = False
            self.set_reason(f, None)

    def show_position(self, p, wagers) -> None:
        """``p`` the ``PositionCards``, ``wagers`` the seat's ``SeatWagers`` (or None)."""
        self.info = p
        read = p.source == "shuffler"
        self.cards.setReadOnly(read)
        visible(self.correct, read)
        visible(self.pick, not read)
        self.cards.show_value(" ".join(p.cards))
        if p.in_round:
            say(self.in_round, f"{LEVEL_MARK[OK]} IN THE ROUND", OK)
        else:
            say(self.in_round, f"{LEVEL_MARK[NONE]} not in the round", NONE)
        if self.high is not None:
            entered = p.entered
            self.high.show_value(" ".join(entered.high) if entered else "")
            self.low.show_value(" ".join(entered.low) if entered else "")
            self.house.setEnabled(p.house_way is not None)
            self.player.show_value((wagers.player if wagers else None) or "")
            amounts = wagers.wagers if wagers else {}
            for w, e in self.wagers.items():
                e.show_value(dollars_text(amounts.get(w)))
            if self.prepaid is not None:
                self.prepaid.show_value(dollars_text(wagers.prepaid_commission) if wagers and
                                        wagers.prepaid_commission else "")
            if self.bettors is not None:
                self.bettors.show_value(", ".join(f"{n} {dollars_text(c)}" for n, c in wagers.bettors)
                                        if wagers else "")
            if self.surrender is not None:
                self.surrender.setChecked(bool(wagers and wagers.surrender))
        # what plays, and why: a misread first, then a foul with its consequence, then the set
        if p.problem:
            say(self.status, f"{LEVEL_MARK[RED]} {p.problem.upper() if read else p.problem}", RED)
        elif p.foul:
            plays = f"; plays {' '.join(p.plays.high)} | {' '.join(p.plays.low)}" if p.plays else ""
            say(self.status, f"{LEVEL_MARK[AMBER]} FOUL: {p.foul.removeprefix('foul: ')}{plays}", AMBER)
        elif p.plays is not None:
            how = f"house way: {p.plays.rule}" if p.plays.set_by == "house way" else p.plays.set_by
            say(self.status, f"{LEVEL_MARK[OK]} PLAYS  {' '.join(p.plays.high)}  |  {' '.join(p.plays.low)}   "
                             f"({how})", OK)
        elif p.house_way is not None:
            say(self.status, f"{LEVEL_MARK[NONE]} no set entered · the house way would set "
                             f"{' '.join(p.house_way.high)} | {' '.join(p.house_way.low)} ({p.house_way.rule})", NONE)
        else:
            say(self.status, "", None)
        src = []
        if read:
            src.append(f"READ BY THE SHUFFLER {p.serial}")
        if p.corrected_by:
            src.append("corrected by " + ", ".join(p.corrected_by) + " (logged)")
        say(self.source, " · ".join(src), AMBER if read and p.problem else NONE)


class BankBox(QGroupBox):
    """Who banks the round, as the profile allows, with the procedures' offers in rotation order:
    the mode and seat on one line, the amounts that mode takes on the next, each refused field
    outlined in red with the workstation's reason under them."""

    FIELDS = ("chips", "last_wager", "dealer_wager", "wager", "dealer_prepaid_commission")

    def __init__(self, panel: "RoundPanel"):
        super().__init__("Bank")
        self.panel = panel
        self.dirty = False
        self.form = None
        self.mode = QComboBox()
        self.mode.setObjectName("bank_mode")
        self.mode.currentIndexChanged.connect(self._mode_chosen)
        self.seat = QComboBox()
        self.seat.setObjectName("bank_seat")
        self.seat.currentIndexChanged.connect(self._touched)
        self.amounts: dict[str, Entry] = {}
        self.action_seat = QComboBox()
        self.action_seat.setObjectName("bank_action_seat")
        self.action_seat.currentIndexChanged.connect(self._touched)
        self.cover = QCheckBox("Floor supervisor's cover ruling (003 PLAYER BANK 3)")
        self.cover.setObjectName("bank_cover_ruling")
        self.cover.clicked.connect(self._touched)
        self.set_bank = QPushButton("Set &bank")
        self.set_bank.setObjectName("set_bank")
        self.set_bank.clicked.connect(self.send)
        self.now = label("", 1.05, bold=True, name="bank_now", wrap=True)
        self.offers = label("", 0.95, name="bank_offers", wrap=True)
        self.reason = label("", 1.0, bold=True, name="bank_reasons", wrap=True)
        self.reason.hide()
        self.reasons: dict[str, str] = {}
        self.rows: dict[str, list[QWidget]] = {}
        line1 = QHBoxLayout()
        line2 = QHBoxLayout()
        for k, text, w, line in (("mode", "Who banks", self.mode, line1), ("seat", "Seat", self.seat, line1),
                                 ("action_seat", "Action button at", self.action_seat, line1)):
            lb = label(text)
            lb.setBuddy(w)
            line.addWidget(lb)
            line.addWidget(w)
            self.rows[k] = [lb, w]
        line1.addWidget(self.cover)
        self.rows["cover_ruling"] = [self.cover]
        line1.addStretch(1)
        for k in self.FIELDS:
            e = Entry(f"bank_{k}", 6)
            e.returnPressed.connect(self.send)
            e.textEdited.connect(self._touched)
            self.amounts[k] = e
            lb = label(AMOUNT_WORDS[k])
            lb.setBuddy(e)
            line2.addWidget(lb)
            line2.addWidget(e)
            self.rows[k] = [lb, e]
        line2.addWidget(self.set_bank)
        line2.addStretch(1)
        box = QVBoxLayout(self)
        box.setSpacing(4)
        box.addLayout(line1)
        box.addLayout(line2)
        box.addWidget(self.reason)
        box.addWidget(self.now)
        box.addWidget(self.offers)

    def _touched(self, *_):
        self.dirty = True

    def _mode_chosen(self, _=None) -> None:
        self.dirty = True
        self._show_fields()
        if self.mode.currentData() == "house":
            self.send()      # the house takes nothing more

    def _show_fields(self) -> None:
        takes = set(self.form.banking_fields.get(self.mode.currentData(), ())) if self.form else set()
        for k, widgets in self.rows.items():
            for w in widgets:
                visible(w, k == "mode" or k in takes)
        visible(self.set_bank, bool(takes))
        self.mode.setEnabled(self.mode.count() > 1)

    def show_banking(self, b, form) -> None:
        combos = (self.mode, self.seat, self.action_seat)
        for c in combos:
            c.blockSignals(True)
        try:
            self._show_banking(b, form)
        finally:
            for c in combos:
                c.blockSignals(False)

    def _show_banking(self, b, form) -> None:
        if form != self.form:
            self.form = form
            self.mode.clear()
            for m in form.banking_fields:
                self.mode.addItem(MODE_WORDS.get(m, m), m)
            self.action_seat.clear()
            for s in form.seats:
                self.action_seat.addItem(seat_text(s), s)
            self.dirty = False
        # the procedures' offers, in rotation order, then the other seats
        offered = {o.seat: o for o in b.offers}
        items = [(o.seat, f"seat {o.seat} · {eligibility(o)}") for o in b.offers] + \
            [(s, f"seat {s}") for s in form.seats if s not in offered]
        if [(self.seat.itemData(i), self.seat.itemText(i)) for i in range(self.seat.count())] != items:
            keep = self.seat.currentData()
            self.seat.clear()
            for s, text in items:
                self.seat.addItem(text, s)
                if s in offered:
                    self.seat.setItemData(self.seat.count() - 1, offered[s].reason, Qt.ItemDataRole.ToolTipRole)
            if keep is not None and self.seat.findData(keep) >= 0:
                self.seat.setCurrentIndex(self.seat.findData(keep))
        if not self.dirty:
            self.mode.setCurrentIndex(max(0, self.mode.findData(b.mode)))
            if b.seat is not None and self.seat.findData(b.seat) >= 0:
                self.seat.setCurrentIndex(self.seat.findData(b.seat))
            for k, e in self.amounts.items():
                e.show_value(dollars_text(b.amounts.get(k)))
            if b.action_seat is not None and self.action_seat.findData(b.action_seat) >= 0:
                self.action_seat.setCurrentIndex(self.action_seat.findData(b.action_seat))
            self.cover.setChecked(b.cover_ruling)
        self._show_fields()
        now = MODE_WORDS.get(b.mode, b.mode) + (f", seat {b.seat}" if b.seat is not None else "")
        amounts = [f"{AMOUNT_WORDS[k].lower()} {money(v)}" for k, v in b.amounts.items()]
        if b.action_seat is not None:
            amounts.append(f"action button at seat {b.action_seat}")
        if b.cover_ruling:
            amounts.append("the floor supervisor ruled on the cover")
        say(self.now, f"{LEVEL_MARK[OK]} THIS ROUND: {now}" + (f" · {'; '.join(amounts)}" if amounts else ""), OK)
        lines = [b.note] if b.note else []
        for o in b.offers:
            lines.append(f"   seat {o.seat}: {eligibility(o)} ({o.reason})")
        say(self.offers, ("Offered in rotation order:\n" if b.offers else "") + "\n".join(lines), None)
        theme.set_dim(self.offers)

    def send(self) -> None:
        mode = self.mode.currentData()
        if mode is None:
            return
        takes = self.form.banking_fields.get(mode, ()) if self.form else ()
        kw = {k: self.amounts[k].text() for k in self.FIELDS if k in takes and self.amounts[k].text().strip()}
        seat = self.seat.currentData() if "seat" in takes else None
        if "action_seat" in takes:
            kw["action_seat"] = self.action_seat.currentData()
        if "cover_ruling" in takes and self.cover.isChecked():
            kw["cover_ruling"] = True
        self.panel.send_banking(mode, seat, kw)

    def set_reasons(self, reasons: dict[str, str]) -> None:
        self.reasons = dict(reasons)
        for k, e in self.amounts.items():
            set_refused(e, k in reasons)
        words = {"mode": "Who banks", "seat": "Seat", "action_seat": "Action button", **AMOUNT_WORDS}
        say(self.reason, "\n".join(f"{LEVEL_MARK[RED]} {words.get(k, k)}: {r}" for k, r in reasons.items()), RED)

    def accepted(self) -> None:
        self.dirty = False
        for e in self.amounts.values():
            e.dirty = False
        self.set_reasons({})


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
            self.reopen = QToolButton()
            self.reopen.setDefaultAction(reopen)
            self.reopen.setObjectName("button_reopen_round")
            self.reopen.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            self.reopen.setFont(theme.font(1.1, bold=True))
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
        self.net.setText("NET BY PARTY   " + "   ".join(f"{party} {signed(c)}" for party, c in r.net_by_party.items()))
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


class RoundPanel(QWidget):
    """The round panel of one table (``set_table``). ``actions``: the window's round commands
    (new_round, pick_cards, settle, release, discard_round, reopen_round, print_slip, save_slip,
    void_slip, reissue_slip), shown here as buttons so that the menu, the shortcut and the button
    are one command."""

    def __init__(self, bridge, actions: dict[str, QAction] | None = None, session=lambda: None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("round_panel")
        self.setStyleSheet(PANEL_STYLE)
        # the window may be made small (a laptop's screen): the panel gives way, the entry scrolls
        self.setMinimumSize(1, 1)
        self.bridge = bridge
        self.actions = actions or {}
        self.session = session
        self.table: str | None = None
        self.draft = None
        self.result = None
        self.slips: tuple = ()
        self.rows: dict[int, PositionRow] = {}
        self._sets: dict = {}           # (profile, positions) -> (their box, their rows)
        self._shape = None
        self._reading = self._again = False
        self._stale = self._want_full = True
        self.dialog = None
        self.print_dialog: QPrintDialog | None = None
        self.printer: QPrinter | None = None
        self.settle_pressed: float | None = None      # perf_counter() at Settle, and when its ledger was shown
        self.settle_shown: float | None = None
        self._logged_shown: int | None = None   # the settlement whose JSON the As logged tab holds
        self._select: int | None = None          # a slip to select once the book is read back

        # -- the top: where the round stands, and the commands
        self.badge = label("", 1.3, bold=True, name="round_badge")
        self.badge.setMargin(6)
        corner = QWidget()
        corner.setObjectName("round_commands")
        bar = QHBoxLayout(corner)
        bar.setContentsMargins(0, 0, 0, 2)
        self.buttons: dict[str, QToolButton] = {}
        for name in ("new_round", "pick_cards", "settle", "release", "discard_round"):
            a = self.actions.get(name)
            if a is None:
                continue
            b = QToolButton()
            b.setDefaultAction(a)
            b.setObjectName(f"button_{name}")
            b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            b.setFont(theme.font(1.1, bold=name == "settle"))
            bar.addWidget(b)
            self.buttons[name] = b
        self.problems = label("", 1.1, bold=True, name="round_problems", wrap=True)
        self.returned = label("", 1.05, bold=True, name="round_returned", wrap=True)
        self.message = label("", 1.05, bold=True, name="round_message", wrap=True)

        # -- Enter round
        self.empty = label("", 1.2, name="round_empty", wrap=True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        theme.set_dim(self.empty)
        self.bank = BankBox(self)
        self.meter = Entry("meter", 9)
        self.meter.editingFinished.connect(self._round_info_done)
        self.rng = QComboBox()
        self.rng.setObjectName("rng_number")
        self.rng.addItem("—", None)
        for n in range(1, 8):
            self.rng.addItem(str(n), n)
        self.rng.currentIndexChanged.connect(lambda _=None: self._round_info_done(force=True))
        self.info_box = QGroupBox("Round")
        info = QGridLayout(self.info_box)
        self.meter_label = label("Progressive meter at the start")
        self.meter_label.setBuddy(self.meter)
        self.rng_label = label("RNG number (additional wagers)")
        self.rng_label.setBuddy(self.rng)
        self.info_reason = label("", 0.95, bold=True, name="round_info_reason", wrap=True)
        theme.set_level(self.info_reason, RED)
        self.info_reason.hide()
        info.addWidget(self.meter_label, 0, 0)
        info.addWidget(self.meter, 0, 1)
        info.addWidget(self.rng_label, 1, 0)
        info.addWidget(self.rng, 1, 1)
        info.addWidget(self.info_reason, 2, 0, 1, 3)
        info.setColumnStretch(2, 1)
        self.rows_box = QVBoxLayout()
        self.rows_box.setSpacing(6)
        form = QWidget()
        form.setObjectName("round_form")
        fbox = QVBoxLayout(form)
        fbox.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        top.addWidget(self.bank, 3)
        top.addWidget(self.info_box, 2)
        fbox.addLayout(top)
        fbox.addLayout(self.rows_box)
        fbox.addStretch(1)
        self.form_widget = form
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setWidget(form)
        entry = QWidget()
        ebox = QVBoxLayout(entry)
        ebox.setContentsMargins(0, 0, 0, 0)
        ebox.addWidget(self.badge)
        ebox.addWidget(self.returned)
        ebox.addWidget(self.problems)
        ebox.addWidget(self.empty)
        ebox.addWidget(self.scroll, 1)
        self.entry = entry

        # -- Settlement, Rounds, Slips, As logged
        self.result_view = ResultView(reopen=self.actions.get("reopen_round"))
        self.history = RoundHistoryModel(self)
        self.history_view = record_view(self.history, "round_history")
        self.history_view.activated.connect(lambda index: self.open_round(self.history.record(index.row()).settlement))
        open_button = QPushButton("&Open the selected round")
        open_button.setObjectName("open_round")
        open_button.clicked.connect(self._open_selected)
        hist = QWidget()
        hbox = QVBoxLayout(hist)
        hbox.addWidget(label("The table's rounds, newest first. Enter (or a double click) opens one as it was logged.",
                             1.0, wrap=True))
        hbox.addWidget(self.history_view, 1)
        hbox.addWidget(open_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.slip_model = SlipModel(self)
        self.slip_view = record_view(self.slip_model, "slips")
        slips = QWidget()
        sbox = QVBoxLayout(slips)
        sbar = QHBoxLayout()
        for name in ("print_slip", "save_slip", "void_slip", "reissue_slip"):
            a = self.actions.get(name)
            if a is not None:
                b = QToolButton()
                b.setDefaultAction(a)
                b.setObjectName(f"button_{name}")
                b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
                sbar.addWidget(b)
        sbar.addStretch(1)
        sbox.addWidget(label("Payout slips of this table, in number order. A void slip keeps its number; it is "
                             "never used again.", 1.0, wrap=True))
        sbox.addWidget(self.slip_view, 1)
        sbox.addLayout(sbar)
        self.slips_tab = slips
        self.logged = QPlainTextEdit()
        self.logged.setObjectName("as_logged")
        self.logged.setReadOnly(True)
        self.logged.setFont(theme.font(1.0, mono=True))

        self.tabs = QTabWidget()
        self.tabs.setObjectName("round_tabs")
        self.tabs.addTab(entry, "&Enter round")
        self.tabs.addTab(self.result_view, "Se&ttlement")
        self.tabs.addTab(hist, "R&ounds")
        self.tabs.addTab(slips, "Sl&ips")
        self.tabs.addTab(self.logged, "As &logged")
        self.tabs.currentChanged.connect(lambda _=None: self._tab_changed())

        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.setSpacing(4)
        # the commands sit in the tab bar's corner: every line of height goes to the round
        self.tabs.setCornerWidget(corner, Qt.Corner.TopRightCorner)
        box.addWidget(self.message)
        box.addWidget(self.tabs, 1)
        for lb in (self.problems, self.returned, self.message):
            lb.hide()
        bridge.changed.connect(self._on_update)
        self._show_draft(None)

    # -- which table, and reading it -----------------------------------------------------------
    def set_table(self, table: str | None) -> None:
        if table == self.table:
            return
        self.table = table
        self.draft = self.result = None
        self.slips = ()
        self._select = None
        self._clear_rows()
        self.history.set_records([])
        self.slip_model.set_records([])
        self.logged.clear()
        self._logged_shown = None
        self.result_view.clear()
        self.tabs.setCurrentWidget(self.entry)
        say(self.message, "", None)
        self._show_draft(None)
        self._stale = True
        self.refresh()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._stale:
            self.refresh()

    def _on_update(self, u) -> None:
        if self.table is None:
            return
        if u.first or u.changes.approvals:
            self.refresh()                  # a decision changes where a settled round stands
        elif self.table in u.changes.rounds:
            self.refresh(full=False)        # the round being entered (typed, or read by the shuffler)
        elif u.changes.session:
            self._enable()

    def refresh(self, full: bool = True) -> None:
        """Read the table's round being entered and, ``full``, its rounds, its slips and the round
        shown: one read down the bridge. A shuffler's hands arrive many times a second, so they
        read the round being entered only."""
        if self.table is None:
            return
        self._want_full = self._want_full or full
        if not self.isVisible():
            self._stale = True
            return
        if self._reading:
            self._again = True
            return
        self._reading, self._stale = True, False
        full, self._want_full = self._want_full, False
        table = self.table
        shown = self.result.settlement if self.result is not None and full else None

        def read(ws):
            draft = ws.round_draft(table)
            if not full:
                return table, draft, None, None, None
            return (table, draft, ws.rounds(table), ws.slip_book(table),
                    ws.round_result(shown) if shown is not None else None)
        self.bridge.read(read, self._read, self._read_failed)

    def _read(self, got) -> None:
        self._reading = False
        table, draft, rounds, slips, result = got
        if table == self.table:
            self._show_draft(draft)
            if rounds is not None:
                self.history.set_records(rounds)
                self.slips = slips
                self.slip_model.set_records(slips)
                if self._select is not None and self.select_slip(self._select):
                    self._select = None
            if result is not None and self.result is not None and result.settlement == self.result.settlement:
                self._show_result(result)
            self._enable()
        if self._again:
            self._again = False
            self.refresh(full=False)

    def _read_failed(self, error) -> None:
        self._reading = False
        self._again = False
        say(self.message, f"{LEVEL_MARK[RED]} reading the round failed: {error}", RED)

    # -- the round being entered ----------------------------------------------------------------
    def _clear_rows(self) -> None:
        """Another table: its rows are shown afresh (the rows of a profile are kept, and emptied)."""
        self._shape = None

    def _rows_for(self, d) -> None:
        """The rows of the draft's positions and form. A profile's rows are built once and kept
        (a table's rows are emptied when another table of the same profile is shown): switching
        tables does not rebuild a hundred fields."""
        # the form is the profile's: the profile and the positions name the rows
        shape = (d.profile, tuple((p.position, p.name) for p in d.positions))
        if shape == self._shape:
            return
        for key, (box, _) in self._sets.items():
            if key != shape and not box.isHidden():
                box.hide()
        got = self._sets.get(shape)
        if got is None:
            box = QWidget()
            lay = QVBoxLayout(box)
            lay.setContentsMargins(0, 0, 0, 0)
            lay.setSpacing(6)
            rows = {}
            for p in d.positions:
                rows[p.position] = PositionRow(self, p.position, p.name, d.form)
                lay.addWidget(rows[p.position])
            self.rows_box.addWidget(box)
            self._sets[shape] = got = (box, rows)
        else:
            for row in got[1].values():
                row.reset()
        visible(got[0], True)
        self.rows = got[1]
        self._shape = shape

    def _show_draft(self, d) -> None:
        self.draft = d
        if d is None:
            t = self.table
            self.empty.setText(f"No round is being entered at {t}. New round (Ctrl+N) starts one; a card-reading "
                               "shuffler's hands start one by themselves." if t else "No table open.")
            visible(self.empty, True)
            visible(self.scroll, False)
            say(self.badge, f"{LEVEL_MARK[NONE]} NO ROUND BEING ENTERED · New round: Ctrl+N", NONE)
            say(self.problems, "", None)
            say(self.returned, "", None)
            self._enable()
            return
        visible(self.empty, False)
        visible(self.scroll, True)
        self._rows_for(d)
        self.bank.show_banking(d.banking, d.form)
        visible(self.meter_label, d.form.progressive)
        visible(self.meter, d.form.progressive)
        self.meter.show_value(dollars_text(d.progressive_meter))
        visible(self.rng_label, d.form.rng)
        visible(self.rng, d.form.rng)
        visible(self.info_box, d.form.progressive or d.form.rng)
        if d.form.rng:
            self.rng.blockSignals(True)
            self.rng.setCurrentIndex(max(0, self.rng.findData(d.rng_number)))
            self.rng.blockSignals(False)
        wagers = {s.seat: s for s in d.seats}
        for p in d.positions:
            self.rows[p.position].show_position(p, wagers.get(p.position))
        if d.problems:
            say(self.badge, f"{LEVEL_MARK[RED]} ROUND {d.round}: SETTLE BLOCKED", RED, filled=True)
            say(self.problems, "Settle waits for a person:\n"
                + "\n".join(f"{LEVEL_MARK[RED]} {p}" for p in d.problems), RED)
        else:
            say(self.badge, f"{LEVEL_MARK[OK]} ROUND {d.round}: BEING ENTERED · READY TO SETTLE (F11)", OK)
            say(self.problems, "", None)
        say(self.returned, f"{LEVEL_MARK[AMBER]} SENT BACK: {d.returned}" if d.returned else "", AMBER)
        self._enable()

    def _enable(self) -> None:
        a = self.actions
        d = self.draft
        if "settle" in a:
            a["settle"].setEnabled(d is not None and not d.problems)
        if "discard_round" in a:
            a["discard_round"].setEnabled(d is not None)
        if "pick_cards" in a:
            a["pick_cards"].setEnabled(d is not None)
        if "release" in a:
            a["release"].setEnabled(self.result is not None and self.result.status == "ready")
        slip = self.selected_slip()
        for name in ("print_slip", "save_slip"):
            if name in a:
                a[name].setEnabled(slip is not None)
        if "void_slip" in a:
            a["void_slip"].setEnabled(slip is not None and slip.status != "VOID")
        if "reissue_slip" in a:
            # the book says which void slips were issued again (SlipInfo.replaces)
            a["reissue_slip"].setEnabled(slip is not None and slip.status == "VOID"
                                         and not any(s.replaces == slip.number for s in self.slips))
        if "reopen_round" in a:
            r = self.result
            sent_back = r is not None and r.status == "denied"
            a["reopen_round"].setEnabled(sent_back and not (d is not None and d.replaces == r.settlement))
            if self.result_view.reopen is not None:
                visible(self.result_view.reopen, sent_back)

    # -- sending what was typed ---------------------------------------------------------------
    def _refused(self, on_fields=None):
        """What a refusal does: the workstation's reason beside the fields of the entry it refused
        (a card used twice, a wager over the limit, a seat the procedures do not let bank), else in
        the message line (nobody signed in, a role that may not, the log stopped)."""
        def failed(error):
            if on_fields is not None and isinstance(error, Refused):
                on_fields(getattr(error, "fields", None) or {}, str(error))
            else:
                say(self.message, f"{LEVEL_MARK[RED]} {error}", RED)
        return failed

    def send(self, fields: tuple[str, ...], position: int, work, edits) -> None:
        """``work(ws, table)`` for a position; its refusal beside ``fields``."""
        table = self.table
        row = self.rows.get(position)

        def ok(_):
            if row is not None and self.rows.get(position) is row:
                row.accepted(fields)
            say(self.message, "", None)

        def on_fields(reasons, message):
            if row is None or self.rows.get(position) is not row:
                return
            if reasons:
                for f, r in reasons.items():
                    row.set_reason(f if f in row.entries() or f == "set" else fields[0], r)
            else:
                row.set_reason(fields[0], message.removeprefix(f"table {table}: "))
        self.bridge.act(lambda ws: work(ws, table), ok, self._refused(on_fields))

    def send_cards(self, position: int, text: str, final: bool) -> None:
        table, row = self.table, self.rows.get(position)

        def ok(_):
            if row is not None and self.rows.get(position) is row:
                if final and " ".join(row.cards.text().split()) == " ".join(text.split()):
                    row.cards.dirty = False
                row.set_reason("cards", None)

        def on_fields(reasons, message):
            if row is not None and self.rows.get(position) is row:
                row.set_reason("cards", message.removeprefix(f"table {table}: "))
        self.bridge.act(lambda ws: ws.set_cards(table, position, text), ok, self._refused(on_fields))

    def send_set(self, position: int, high: str, low: str) -> None:
        self.send(("set",), position, lambda ws, t: ws.set_hands(t, position, high, low), [])

    def send_wagers(self, position: int, texts: dict[str, str]) -> None:
        self.send(tuple(texts), position, lambda ws, t: ws.set_wagers(t, position, texts), [])

    def check_wager(self, position: int, wager: str, text: str) -> None:
        """A wager as it is typed: the workstation's reason beside it, nothing taken."""
        table, row = self.table, self.rows.get(position)

        def shown(check):
            if row is not None and self.rows.get(position) is row and row.wagers[wager].text() == text:
                row.set_reason(wager, check.reason)
        self.bridge.read(lambda ws: ws.check_wager(table, position, wager, text), shown, lambda e: None)

    def send_banking(self, mode: str, seat: int | None, kw: dict) -> None:
        table = self.table

        def ok(_):
            self.bank.accepted()
            say(self.message, "", None)

        def on_fields(reasons, message):
            if reasons:
                self.bank.set_reasons(reasons)
            else:
                # the procedures' refusal of the seat (000(m)(2)-(4), 003 PLAYER BANK 1-2)
                where = "seat" if seat is not None else "mode"
                self.bank.set_reasons({where: message.removeprefix(f"table {table}: ")})
        self.bridge.act(lambda ws: ws.set_banking(table, mode, seat, **kw), ok, self._refused(on_fields))

    def _round_info_done(self, force: bool = False) -> None:
        if not (self.meter.dirty or force) or self.draft is None:
            return
        table = self.table
        meter = self.meter.text() if self.draft.form.progressive and self.meter.dirty else None
        rng = self.rng.currentData() if self.draft.form.rng else None

        def ok(_):
            self.meter.dirty = False
            set_refused(self.meter, False)
            say(self.info_reason, "", RED)

        def on_fields(reasons, message):
            set_refused(self.meter, "progressive_meter" in reasons)
            say(self.info_reason, f"{LEVEL_MARK[RED]} {message.removeprefix(f'table {table}: ')}", RED)
        self.bridge.act(lambda ws: ws.set_round_info(table, meter, rng), ok, self._refused(on_fields))

    # -- the commands ------------------------------------------------------------------------------
    def new_round(self) -> None:
        if self.table is None:
            return
        table = self.table
        self.tabs.setCurrentWidget(self.entry)
        self.bridge.act(lambda ws: ws.start_round(table), lambda _: self._focus_first(), self._refused())

    def _focus_first(self) -> None:
        say(self.message, "", None)
        row = self.rows.get(0) or next(iter(self.rows.values()), None)
        if row is not None:
            row.cards.setFocus()

    def discard_round(self) -> None:
        if self.table is None:
            return
        table = self.table
        self.bridge.act(lambda ws: ws.discard_round(table),
                        lambda _: say(self.message, f"{LEVEL_MARK[NONE]} The round being entered at {table} was "
                                                    "discarded.", NONE), self._refused())

    def use_house_way(self, position: int) -> None:
        self.send(("set",), position, lambda ws, t: ws.use_house_way(t, position), [])

    def pick_cards(self, position: int | None = None) -> None:
        if self.draft is None or self.table is None:
            return
        if position is None:
            focused = next((p for p, r in self.rows.items() if r.isAncestorOf(self.focusWidget() or self)), None)
            position = focused
        d = CardPickerDialog(self.bridge, self.table, self.draft, position, self)
        self._open(d)

    def correct_cards(self, position: int) -> None:
        row = self.rows.get(position)
        if row is None or row.info is None or self.table is None:
            return
        self._open(CorrectCardsDialog(self.bridge, self.table, row.info, self.session(), self))

    def settle(self) -> None:
        if self.table is None:
            return
        table = self.table
        self.settle_pressed, self.settle_shown = perf_counter(), None
        self.bridge.act(lambda ws: ws.settle(table), lambda out: self._settled(table, out), self._refused())

    def _settled(self, table: str, out) -> None:
        r = out.result
        self._show_result(r)
        self.tabs.setCurrentWidget(self.result_view)
        self.settle_shown = perf_counter()
        say(self.message, "", None)
        # the other views read back what the settlement changed (the tile, the approvals queue),
        # once the settlement is on the screen: their redrawing would otherwise come first
        self._want_full = True
        self._broadcast(out.changes)

    def _broadcast(self, changes) -> None:
        """The bridge reads back what ``changes`` changed for every view (an ``Update``), after
        ``BROADCAST_MS``: the settlement is painted first."""
        QTimer.singleShot(BROADCAST_MS, self, lambda: self.bridge.act(lambda ws: changes))

    def release(self) -> None:
        r = self.result
        if r is None:
            say(self.message, f"{LEVEL_MARK[RED]} Settle a round, or open one from the table's rounds, to release "
                              "its payouts.", RED)
            return
        if any(p.slip_reason for p in r.payouts):
            d = ReleaseDialog(self.bridge, r, self.session(), self)
            d.accepted.connect(lambda d=d: self._released(*d.result_value))
            self._open(d)
            return
        settlement = r.settlement
        self.bridge.act(lambda ws: ws.release(settlement), lambda out: self._released(None, out), self._refused())

    def _released(self, first, out) -> None:
        self._show_result(out.result)
        self.tabs.setCurrentWidget(self.result_view)
        slips = [p.slip for p in out.result.payouts if p.slip is not None]
        say(self.message, f"{LEVEL_MARK[OK]} Round {out.result.round} released"
                          + (f": payout slip{'s' if len(slips) > 1 else ''} {', '.join(map(str, slips))}" if slips
                             else "") + ".", OK)
        changes = out.changes | first if first is not None else out.changes
        self._want_full = True
        self._broadcast(changes)

    def open_round(self, settlement: int) -> None:
        def shown(r):
            self._show_result(r)
            self.tabs.setCurrentWidget(self.result_view)
        self.bridge.read(lambda ws: ws.round_result(settlement), shown, self._refused())

    def _open_selected(self) -> None:
        rows = self.history_view.selectionModel().selectedRows()
        if rows:
            self.open_round(self.history.record(rows[0].row()).settlement)

    def _show_result(self, r) -> None:
        self.result = r
        self.result_view.show_result(r)
        self._logged_shown = None
        if self.tabs.currentWidget() is self.logged:
            self._show_logged()
        self._enable()

    def _tab_changed(self) -> None:
        if self.tabs.currentWidget() is self.logged:
            self._show_logged()
        self._enable()

    def _show_logged(self) -> None:
        """The settlement's JSON exactly as logged, laid out only when its tab is looked at (a long
        document's layout would otherwise hold up the settlement's first paint)."""
        r = self.result
        if r is not None and self._logged_shown != r.settlement:
            self._logged_shown = r.settlement
            self.logged.setPlainText(json.dumps(r.logged, indent=2))

    # -- payout slips -----------------------------------------------------------------------------
    def selected_slip(self):
        rows = self.slip_view.selectionModel().selectedRows() if self.slip_view.selectionModel() else []
        if rows:
            return self.slip_model.record(rows[0].row())
        return self.slips[-1] if self.slips else None

    def select_slip(self, number: int) -> bool:
        row = self.slip_model.row_of(number)
        if row is None:
            return False
        self.slip_view.selectRow(row)
        self._enable()
        return True

    def save_slip_pdf(self, path: str | None = None) -> None:
        """The selected slip (else the newest) as a one-page PDF: at ``path``, or where a person
        chooses in a file dialog."""
        slip = self.selected_slip()
        if slip is None:
            return
        if path is None:
            d = QFileDialog(self, f"Save payout slip {slip.number:06d} as PDF")
            d.setObjectName("save_slip_dialog")
            d.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
            d.setNameFilter("PDF (*.pdf)")
            d.setDefaultSuffix("pdf")
            d.selectFile(f"slip-{slip.number:06d}.pdf")
            d.fileSelected.connect(lambda p, s=slip: self._write_pdf(s, p))
            self._open(d)
            return
        self._write_pdf(slip, path)

    def _write_pdf(self, slip, path: str) -> None:
        self._on_paper(slip, lambda now: slip_report.write_pdf(slip, path, now), "saved", f"saved as {path}")

    def _on_paper(self, slip, draw, verb: str, done: str) -> None:
        """``draw(now)`` puts the slip on paper (the PDF, the printer); the message line says how it went."""
        try:
            draw(self.bridge.clock())
        except OSError as e:
            say(self.message, f"{LEVEL_MARK[RED]} the slip was not {verb}: {e}", RED)
            return
        say(self.message, f"{LEVEL_MARK[OK]} Payout slip {slip.number:06d} {done}.", OK)

    def print_slip(self) -> QPrintDialog | None:
        """The selected slip (else the newest) to a printer chosen in the print dialog (opened, not
        run: the window keeps pumping); the page is the PDF's (app/reports/slip.py)."""
        slip = self.selected_slip()
        if slip is None:
            return None
        self.printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        d = QPrintDialog(self.printer, self)
        d.setObjectName("print_slip_dialog")
        d.setWindowTitle(f"Print payout slip {slip.number:06d}")
        printer = self.printer
        # QPrintDialog's accepted also carries the printer: take it from here, not from the signal
        d.accepted.connect(lambda *_: self._print(slip, printer))
        self.print_dialog = d
        self._open(d)
        return d

    def _print(self, slip, printer: QPrinter) -> None:
        self._on_paper(slip, lambda now: slip_report.print_slip(slip, printer, now), "printed",
                       f"sent to {printer.printerName() or printer.outputFileName() or 'the printer'}")

    def void_slip(self) -> None:
        slip = self.selected_slip()
        if slip is not None and slip.status != "VOID":
            d = VoidSlipDialog(self.bridge, slip, self.session(), self)
            d.accepted.connect(lambda: self.refresh())
            self._open(d)

    def reissue_slip(self) -> None:
        """The selected void slip's payout gets a new slip, numbered next (with a PIN, and the W-2G
        data again where the void slip carried it); the new slip is selected once read back."""
        slip = self.selected_slip()
        if slip is None or slip.status != "VOID":
            say(self.message, f"{LEVEL_MARK[RED]} Select a void slip (Slips tab) to issue its payout a new slip.", RED)
            return
        d = ReissueSlipDialog(self.bridge, slip, self.session(), self)
        d.accepted.connect(lambda d=d, number=slip.number: self._reissued(number, *d.result_value))
        self._open(d)

    def _reissued(self, old: int, changes, new: int) -> None:
        self._select = new
        self.tabs.setCurrentWidget(self.slips_tab)
        say(self.message, f"{LEVEL_MARK[OK]} Void slip {old:06d} issued again as payout slip {new:06d}.", OK)
        self._broadcast(changes)
        self.refresh()

    def reopen_round(self) -> None:
        """The round shown, which a denial sent back, entered again at its table (with a PIN)."""
        r = self.result
        if r is None or r.status != "denied":
            say(self.message, f"{LEVEL_MARK[RED]} Open a round a denial sent back (Rounds tab: ■ SENT BACK) to "
                              "enter it again.", RED)
            return
        d = ReopenRoundDialog(self.bridge, r, self.session(), self)
        d.accepted.connect(lambda r=r: self._reopened(r))
        self._open(d)

    def _reopened(self, r) -> None:
        self.tabs.setCurrentWidget(self.entry)
        say(self.message, f"{LEVEL_MARK[OK]} Round {r.round} at {r.table} is being entered again: correct it and "
                          "settle it (F11).", OK)
        self.refresh()

    def _open(self, d) -> None:
        self.dialog = d
        d.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        d.finished.connect(lambda _=None, d=d: self._dialog_closed(d))
        from app.qt import QDialog
        QDialog.open(d)

    def _dialog_closed(self, d) -> None:
        if self.dialog is d:
            self.dialog = None
        if d is self.print_dialog:
            self.print_dialog = None


__all__ = ["RoundPanel", "PositionRow", "BankBox", "ResultView", "QSizePolicy", "wager_text"]
