"""One position of the round being entered, in the round panel: its cards (typed, picked or read
by a card-reading shuffler), its set, its wagers, and what the workstation says of it.

A field sends what was typed through the panel (``RoundPanel.send`` and its kin) and shows the
workstation's reason beside it when refused; which fields a seat has comes from the draft's
``form`` (the profile's wagers, prepaid commission, bettors, surrender). Nothing here computes a
rule.
"""

from __future__ import annotations

from .. import theme
from app.qt import QCheckBox, QFrame, QGridLayout, QHBoxLayout, QPushButton, Qt, QToolButton, QVBoxLayout, QWidget
from ..theme import AMBER, LEVEL_MARK, NONE, OK, RED
from ..widgets import Entry, dollars_text, label, restyle, say, seat_text, set_refused, visible

WAGER_LABELS = {"base": "Base", "fortune": "Fortune", "fortune_toke": "Toke", "insurance": "Insurance",
                "three_card": "3-card", "seven_card": "7-card", "ace_high": "Ace-High", "progressive": "Progressive"}
PER_ROW = 5             # wager fields in a row of a seat


def wager_label(wager: str) -> str:
    if wager.startswith("additional "):
        return f"on {wager.split()[1]}"
    return WAGER_LABELS.get(wager, wager.replace("_", " "))


class PositionRow(QFrame):
    """One position of the round: its cards (typed, picked or read), its set, its wagers, and
    what the workstation says of it (the set that plays and the house-way rule that chose it, a
    foul with its consequence, a misread)."""

    def __init__(self, panel, position: int, name: str, form):
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
            self.house.setToolTip(f"set this hand by the house way, for a player who asks ({form.house_way_rule})")
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
        # the shuffler's reading beside the cards typed, when they disagree: the person chooses one,
        # saying why (Rounds.choose_reading); until then neither plays and Settle waits
        self.reading = label("", 1.1, bold=True, name=f"reading_{position}", mono=True)
        self.use_reading = self._choice_button("Use reading", f"use_reading_{position}", "reading",
                                               "put the shuffler's reading in place of the cards typed, saying why "
                                               "(logged as a reading chosen)")
        self.keep_typed = self._choice_button("Keep typed", f"keep_typed_{position}", "typed",
                                              "keep the cards typed and set the shuffler's reading aside, saying why "
                                              "(logged as a reading chosen)")
        self.reading_line = QWidget()
        self.reading_line.setObjectName(f"reading_line_{position}")
        rl = QHBoxLayout(self.reading_line)
        rl.setContentsMargins(indent, 0, 0, 0)
        rl.setSpacing(8)
        rl.addWidget(self.reading)
        rl.addSpacing(8)
        rl.addWidget(self.use_reading)
        rl.addWidget(self.keep_typed)
        rl.addStretch(1)
        self.reading_line.hide()
        box.addWidget(self.reading_line)
        # the keyboard: from the cards to the choice, then on to the rest of the row
        QWidget.setTabOrder(self.cards, self.use_reading)
        QWidget.setTabOrder(self.use_reading, self.keep_typed)
        QWidget.setTabOrder(self.keep_typed, self.pick)
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
                self.bettors = Entry(f"bettors_{position}", 10, placeholder="ann 10, bo 5")
                self.bettors.setToolTip(f"others betting on this circle, name and base wager (up to "
                                        f"{form.bettors_per_circle} bettors a circle, 003)")
                self.bettors.editingFinished.connect(self._bettors_done)
                items.append(("Bettors", self.bettors))
            if form.surrender:
                self.surrender = QCheckBox("Surrender")
                self.surrender.setObjectName(f"surrender_{position}")
                self.surrender.setToolTip(f"the player surrenders ({form.surrender_rule}): the profile says what it "
                                          "costs")
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

    def _choice_button(self, text: str, name: str, use: str, tip: str) -> QPushButton:
        b = QPushButton(text)
        b.setObjectName(name)
        b.setFont(theme.font(1.05, bold=True))
        b.setToolTip(tip)
        b.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        b.setAutoDefault(True)       # Enter presses it where the keyboard is, as Space does
        b.clicked.connect(lambda: self.panel.choose_reading(self.position, use))
        return b

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
                            ws.rounds.set_player(t, s, p), [self.player])

    def _prepaid_done(self) -> None:
        if self.prepaid.dirty:
            self.panel.send(("prepaid_commission",), self.position,
                            lambda ws, t, s=self.position, p=self.prepaid.text(): ws.rounds.set_prepaid_commission(t, s, p),
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
                        ws.rounds.set_bettors(t, s, list(b)), [self.bettors])

    def _surrender_clicked(self, on: bool) -> None:
        self.panel.send(("surrender",), self.position, lambda ws, t, s=self.position: ws.rounds.set_surrender(t, s, on), [])

    def reset(self) -> None:
        """Empty, for another table of the same profile."""
        for e in self.entries().values():
            e.dirty = False
            e.setReadOnly(False)
            e.clear()
            set_refused(e, False)
        self.reasons.clear()
        say(self.reason, "", RED)
        say(self.reading, "", AMBER)
        visible(self.reading_line, False)
        restyle(self.cards, "disputed", False)
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
        # the cards typed, outlined amber, and beside them what the shuffler read
        disputed = p.reading is not None
        restyle(self.cards, "disputed", disputed)
        if disputed:
            by = f"   by {p.reading_serial}" if p.reading_serial else ""
            say(self.reading, f"{LEVEL_MARK[AMBER]} READ: {' '.join(p.reading)}{by}, not as typed", AMBER)
        else:
            say(self.reading, "", AMBER)
        visible(self.reading_line, disputed)
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
