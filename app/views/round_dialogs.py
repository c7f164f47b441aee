"""The round panel's dialogs: the 53-card picker, a correction of the cards a shuffler read, the
release of a round's payouts with its payout slips (and their W-2G data), and voiding a slip.

Each sends its work down the bridge and stays open until the workstation answers, as the other
dialogs do (app/views/dialogs.py): a refusal is shown as the workstation worded it; success closes
the dialog. A dialog refuses to send only an empty field it needs (a reason, the W-2G data).
"""

from __future__ import annotations

from app.workstation.changes import NOTHING

from . import theme
from .dialogs import IdentityFields, PinDialog, WorkDialog, _summary
from .qt import (QComboBox, QFormLayout, QGridLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, Qt,
                 QVBoxLayout, QWidget)
from .round_models import wager_text
from .theme import AMBER, LEVEL_MARK, money

RANKS = ("A", "K", "Q", "J", "T", "9", "8", "7", "6", "5", "4", "3", "2")
SUITS = (("s", "♠", False), ("h", "♥", True), ("d", "♦", True), ("c", "♣", False))
JOKER = "Jk"
W2G_FIELDS = (("name", "Winner's name"), ("address", "Address"), ("tin", "Taxpayer ID (SSN or EIN)"),
              ("id_type", "ID type"), ("id_number", "ID number"))


def card_face(card: str) -> str:
    """The engine's card text ("Ts", "Jk") as a person reads it on a button ("10♠", "JOKER")."""
    if card == JOKER:
        return "JOKER"
    rank, suit = card[:-1], card[-1]
    return ("10" if rank == "T" else rank) + dict((s, m) for s, m, _ in SUITS)[suit]


class CardPickerDialog(WorkDialog):
    """A position's seven cards picked from the 53-card deck (52 and the joker) by clicking, the
    alternative to typing them. A card already at another position says where it is; the
    workstation refuses it there naming both positions (000(b)(1))."""

    def __init__(self, bridge, table: str, draft, position: int | None = None, parent: QWidget | None = None):
        super().__init__(bridge, f"Card picker: table {table}", parent)
        self.table = table
        self.setObjectName("card_picker")
        self.chosen: list[str] = []
        self.at: dict[str, str] = {}          # card -> the position it is at, as the draft says
        typed = [p for p in draft.positions if p.source != "shuffler"]
        for p in draft.positions:
            for c in p.cards:
                self.at[c] = p.name
        self.position = QComboBox()
        self.position.setObjectName("position")
        for p in typed:
            self.position.addItem(p.name.upper(), p.position)
        if position is not None and self.position.findData(position) >= 0:
            self.position.setCurrentIndex(self.position.findData(position))
        self.position.currentIndexChanged.connect(lambda _=None: self._load(draft))
        self.buttons_by_card: dict[str, QPushButton] = {}
        grid = QGridLayout()
        grid.setSpacing(4)
        for row, (suit, _mark, red) in enumerate(SUITS):
            for col, rank in enumerate(RANKS):
                self._card_button(grid, rank + suit, row, col, red)
        self._card_button(grid, JOKER, len(SUITS), 0, False, span=3)
        self.hand = QLabel()
        self.hand.setObjectName("hand")
        self.hand.setFont(theme.font(1.4, bold=True, mono=True))
        self.where = QLabel()
        self.where.setObjectName("where")
        self.where.setWordWrap(True)
        theme.set_level(self.where, AMBER)
        clear = QPushButton("C&lear")
        clear.clicked.connect(self._clear)
        top = QHBoxLayout()
        top.addWidget(QLabel("&Position"))
        top.addWidget(self.position)
        top.addStretch(1)
        top.addWidget(clear)
        top.itemAt(0).widget().setBuddy(self.position)
        box = QVBoxLayout(self)
        box.addLayout(top)
        box.addLayout(grid)
        box.addWidget(self.hand)
        box.addWidget(self.where)
        box.addWidget(self.error)
        box.addWidget(self.buttons)
        self.ok.setText("Use these cards")
        self._load(draft)

    def _card_button(self, grid: QGridLayout, card: str, row: int, col: int, red: bool, span: int = 1) -> None:
        b = QPushButton(card_face(card))
        b.setObjectName(f"card_{card}")
        b.setCheckable(True)
        b.setFont(theme.font(1.3, bold=True))
        b.setMinimumWidth(int(theme.base_pt() * 4))
        b.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        if red:
            b.setStyleSheet(f"QPushButton {{ color: {theme.COLOUR[theme.RED].name()}; }}")
        b.toggled.connect(lambda on, c=card: self._toggle(c, on))
        grid.addWidget(b, row, col, 1, span)
        self.buttons_by_card[card] = b

    def _load(self, draft) -> None:
        pos = self.position.currentData()
        mine = next((p.cards for p in draft.positions if p.position == pos), ())
        self.chosen = []
        for c, b in self.buttons_by_card.items():
            b.blockSignals(True)
            b.setChecked(c in mine)
            b.blockSignals(False)
            elsewhere = self.at.get(c) if c not in mine else None
            b.setToolTip(f"{card_face(c)} is at {elsewhere}" if elsewhere else card_face(c))
            b.setProperty("elsewhere", bool(elsewhere))
            b.setText(card_face(c) + (" •" if elsewhere else ""))
        self.chosen = [c for c in mine if c in self.buttons_by_card]
        self._show()

    def _toggle(self, card: str, on: bool) -> None:
        if on and card not in self.chosen:
            self.chosen.append(card)
        elif not on and card in self.chosen:
            self.chosen.remove(card)
        self._show()
        elsewhere = self.at.get(card) if on else None
        self.where.setText(f"{LEVEL_MARK[AMBER]} {card_face(card)} is already at {elsewhere}" if elsewhere else "")
        self.where.setVisible(bool(elsewhere))

    def _clear(self) -> None:
        for c in list(self.chosen):
            self.buttons_by_card[c].setChecked(False)

    def _show(self) -> None:
        self.hand.setText(f"{len(self.chosen)} of 7:  " + "  ".join(card_face(c) for c in self.chosen))

    def cards_text(self) -> str:
        return " ".join(self.chosen)

    def action(self):
        table, pos, text = self.table, self.position.currentData(), self.cards_text()
        return lambda ws: ws.set_cards(table, pos, text)


class CorrectCardsDialog(PinDialog):
    """A person corrects the hand a card-reading shuffler read at a position: the seven cards as
    they are, and why (logged as ``hand_corrected`` with who and when)."""

    def __init__(self, bridge, table: str, position, session=None, parent: QWidget | None = None):
        super().__init__(bridge, f"Correct the cards read at {position.name}", parent)
        self.setObjectName("correct_cards")
        self.table, self.position = table, position.position
        info = _summary([("Table", table), ("Position", position.name),
                         ("Read", " ".join(position.cards) + (f"  (shuffler {position.serial})" if position.serial
                                                              else "")),
                         ("What is wrong", position.problem or "")])
        form = QFormLayout()
        self.identity = IdentityFields(form, session, pin_optional=True)
        self.cards = QLineEdit(" ".join(position.cards))
        self.cards.setObjectName("cards")
        self.cards.setFont(theme.font(1.2, mono=True))
        self.reason = QLineEdit()
        self.reason.setObjectName("reason")
        self.reason.setPlaceholderText("why: e.g. the reader missed the 9d, counted by hand")
        form.addRow("&Cards", self.cards)
        form.addRow("&Why", self.reason)
        box = QVBoxLayout(self)
        box.addWidget(info)
        box.addLayout(form)
        box.addWidget(self.error)
        box.addWidget(self.buttons)
        self.ok.setText("Correct")
        self.cards.setFocus()

    def check(self) -> str:
        return self.identity.check() or ("" if self.reason.text().strip() else
                                         "Say why: a correction of a card the shuffler read records its reason.")

    def action(self):
        table, pos, cards, reason = self.table, self.position, self.cards.text(), self.reason.text().strip()
        return self.identity.then(lambda ws: ws.correct_cards(table, pos, cards, reason))


class ReleaseDialog(PinDialog):
    """Release a settled round's payouts that need payout slips: a floor supervisor or pit manager
    signs for them (a PIN signs that name in), with the W-2G data of each win that needs it."""

    def __init__(self, bridge, result, session=None, parent: QWidget | None = None):
        super().__init__(bridge, f"Release round {result.round} at {result.table}", parent)
        self.setObjectName("release")
        self.result = result
        slips = [p for p in result.payouts if p.slip_reason]
        rows = [("Round", f"{result.round} at {result.table} (settlement {result.settlement})"),
                ("Payouts", f"{len(result.payouts)}, of which {len(slips)} with a payout slip")]
        rows += [(p.to, f"{wager_text(p.wager)} {money(p.cents)}: {p.slip_reason}") for p in slips]
        info = _summary(rows)
        self.w2g: dict[int, dict[str, QLineEdit]] = {}
        groups = []
        for p in slips:
            if not p.w2g or p.seat in self.w2g:
                continue
            g = QGroupBox(f"W-2G data: {p.to} ({wager_text(p.wager)} {money(p.cents)} on {money(p.stake)})")
            f = QFormLayout(g)
            fields = {}
            for key, label in W2G_FIELDS:
                e = QLineEdit()
                e.setObjectName(f"w2g_{p.seat}_{key}")
                f.addRow(label, e)
                fields[key] = e
            self.w2g[p.seat] = fields
            groups.append(g)
        form = QFormLayout()
        self.identity = IdentityFields(form, session, pin_optional=True)
        box = QVBoxLayout(self)
        box.addWidget(info)
        for g in groups:
            box.addWidget(g)
        box.addLayout(form)
        box.addWidget(self.error)
        box.addWidget(self.buttons)
        self.ok.setText("Release")
        self.identity.focus()

    def payees(self) -> dict[int, dict[str, str]]:
        return {seat: {k: e.text().strip() for k, e in fields.items()} for seat, fields in self.w2g.items()}

    def check(self) -> str:
        problem = self.identity.check()
        if problem:
            return problem
        for seat, data in self.payees().items():
            missing = [label for key, label in W2G_FIELDS if not data[key]]
            if missing:
                return f"Seat {seat}'s win needs the W-2G data: {', '.join(missing)}."
        return ""

    def action(self):
        name, pin = self.identity.name.text().strip(), self.identity.pin.text()
        settlement, payees = self.result.settlement, self.payees()

        def work(ws):
            first = ws.sign_in(name, pin) if pin else NOTHING
            return first, ws.release(settlement, payees)
        return work


class VoidSlipDialog(PinDialog):
    """A floor supervisor or pit manager voids a payout slip, saying why: it stays in the book as
    VOID and its number is never used again."""

    def __init__(self, bridge, slip, session=None, parent: QWidget | None = None):
        super().__init__(bridge, f"Void payout slip {slip.number:06d}", parent)
        self.setObjectName("void_slip")
        self.slip = slip
        info = _summary([("Slip", f"{slip.number:06d} ({slip.status})"),
                         ("Pays", f"{slip.table} seat {slip.seat}: {wager_text(slip.wager)}, win "
                                  f"{money(slip.win_cents)}"),
                         ("Issued", f"{slip.time:%Y-%m-%d %H:%M:%S} by {slip.issued_by}")])
        form = QFormLayout()
        self.identity = IdentityFields(form, session, pin_optional=True)
        self.reason = QLineEdit()
        self.reason.setObjectName("reason")
        self.reason.setPlaceholderText("why: e.g. printed with the wrong seat")
        form.addRow("&Why", self.reason)
        box = QVBoxLayout(self)
        box.addWidget(info)
        box.addLayout(form)
        box.addWidget(self.error)
        box.addWidget(self.buttons)
        self.ok.setText("Void slip")
        self.identity.focus()

    def check(self) -> str:
        return self.identity.check() or ("" if self.reason.text().strip() else "Say why: a void slip records its "
                                                                               "reason.")

    def action(self):
        number, reason = self.slip.number, self.reason.text().strip()
        return self.identity.then(lambda ws: ws.void_slip(number, reason))
