"""The round panel's dialogs: the 53-card picker, a correction of the cards a shuffler read, a
choice between the cards typed and the shuffler's reading, the release of a round's payouts with
its payout slips (and their W-2G data), voiding a slip and issuing a void slip's payout a new one,
and entering again a round a denial sent back.

Each sends its work down the bridge and stays open until the workstation answers, as the other
dialogs do (app/views/work_dialog.py): a refusal is shown as the workstation worded it; success closes
the dialog. A dialog refuses to send only an empty field it needs (a reason, the W-2G data).
"""

from __future__ import annotations

from .. import theme
from app.qt import (QComboBox, QFormLayout, QGridLayout, QGroupBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, Qt,
                 QVBoxLayout, QWidget)
from .round_models import wager_text
from ..theme import AMBER, LEVEL_MARK, money
from ..work_dialog import PinDialog, WorkDialog

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
        return lambda ws: ws.rounds.set_cards(table, pos, text)


class CorrectCardsDialog(PinDialog):
    """A person corrects the hand a card-reading shuffler read at a position: the seven cards as
    they are, and why (logged as ``hand_corrected`` with who and when)."""

    reason_needed = "Say why: a correction of a card the shuffler read records its reason."

    def __init__(self, bridge, table: str, position, session=None, parent: QWidget | None = None):
        super().__init__(bridge, f"Correct the cards read at {position.name}", parent)
        self.setObjectName("correct_cards")
        self.table, self.position = table, position.position
        form = self.lay_out([("Table", table), ("Position", position.name),
                             ("Read", " ".join(position.cards) + (f"  (shuffler {position.serial})"
                                                                  if position.serial else "")),
                             ("What is wrong", position.problem or "")], session, "Correct")
        self.cards = QLineEdit(" ".join(position.cards))
        self.cards.setObjectName("cards")
        self.cards.setFont(theme.font(1.2, mono=True))
        form.addRow("&Cards", self.cards)
        self.add_reason(form, "why: e.g. the reader missed the 9d, counted by hand")
        self.cards.setFocus()

    def action(self):
        table, pos, cards, reason = self.table, self.position, self.cards.text(), self.why()
        return self.identity.then(lambda ws, signer: ws.rounds.correct_cards(table, pos, cards, reason, signer))


class ChooseReadingDialog(PinDialog):
    """Where the shuffler's reading disagrees with the cards a person typed, the person chooses one
    (``use``: ``reading`` or ``typed``) and says why; logged as ``reading_chosen`` with both sets of
    cards, who and when (``Rounds.choose_reading``). Signed in, a reason and Enter are enough."""

    reason_needed = "Say why: choosing between the typed cards and the shuffler's reading records its reason."

    def __init__(self, bridge, table: str, position, use: str, session=None, parent: QWidget | None = None):
        reading = use == "reading"
        super().__init__(bridge, f"{'Use the reading' if reading else 'Keep the cards typed'} at {position.name}",
                         parent)
        self.setObjectName("choose_reading")
        self.table, self.position, self.use = table, position.position, use
        read = " ".join(position.reading or ()) + (f"  (shuffler {position.reading_serial})"
                                                   if position.reading_serial else "")
        form = self.lay_out([("Table", table), ("Position", position.name), ("Typed", " ".join(position.cards)),
                             ("Read", read),
                             ("Plays", "the shuffler's reading; the cards typed are set aside" if reading else
                              "the cards typed; the shuffler's reading is set aside")],
                            session, "Use reading" if reading else "Keep typed")
        self.add_reason(form, "why: e.g. the player's cards checked face up")
        if session is not None:
            self.reason.setFocus()      # whoever is signed in chooses: the reason, then Enter

    def action(self):
        table, pos, use, reason = self.table, self.position, self.use, self.why()
        return self.identity.then(lambda ws, signer: ws.rounds.choose_reading(table, pos, use, reason, signer))


def w2g_group(seat: int, what: str, given: dict | None = None) -> tuple[QGroupBox, dict[str, QLineEdit]]:
    """The W-2G data of a win that needs it (IRS Form W-2G: $600 and 300 times the wager), a field
    each, named ``w2g_SEAT_KEY``; ``given`` fills the winner's name and address (a slip's
    ``payee_name``, ``payee_address``): the taxpayer number and the ID are typed again."""
    g = QGroupBox(f"W-2G data: {what}")
    f = QFormLayout(g)
    fields = {}
    for key, label in W2G_FIELDS:
        e = QLineEdit(str((given or {}).get(f"payee_{key}", "")) if key in ("name", "address") else "")
        e.setObjectName(f"w2g_{seat}_{key}")
        f.addRow(label, e)
        fields[key] = e
    return g, fields


def w2g_missing(seat: int, data: dict[str, str]) -> str:
    """What a dialog says when a win's W-2G data is not all there ('' when it is)."""
    missing = [label for key, label in W2G_FIELDS if not data[key]]
    return f"Seat {seat}'s win needs the W-2G data: {', '.join(missing)}." if missing else ""


class ReleaseDialog(PinDialog):
    """Release a settled round's payouts that need payout slips: a floor supervisor or pit manager
    signs for them (signed in, or counter-signing with their name and PIN at the session of whoever
    is signed in), with the W-2G data of each win that needs it."""

    def __init__(self, bridge, result, session=None, parent: QWidget | None = None):
        super().__init__(bridge, f"Release round {result.round} at {result.table}", parent)
        self.setObjectName("release")
        self.result = result
        slips = [p for p in result.payouts if p.slip_reason]
        rows = [("Round", f"{result.round} at {result.table} (settlement {result.settlement})"),
                ("Payouts", f"{len(result.payouts)}, of which {len(slips)} with a payout slip")]
        rows += [(p.to, f"{wager_text(p.wager)} {money(p.cents)}: {p.slip_reason}") for p in slips]
        self.w2g: dict[int, dict[str, QLineEdit]] = {}
        groups = []
        for p in slips:
            if not p.w2g or p.seat in self.w2g:
                continue
            g, self.w2g[p.seat] = w2g_group(p.seat, f"{p.to} ({wager_text(p.wager)} {money(p.cents)} on "
                                                         f"{money(p.stake)})")
            groups.append(g)
        self.lay_out(rows, session, "Release", extra=tuple(groups))

    def payees(self) -> dict[int, dict[str, str]]:
        return {seat: {k: e.text().strip() for k, e in fields.items()} for seat, fields in self.w2g.items()}

    def check(self) -> str:
        return super().check() or next(filter(None, (w2g_missing(seat, data) for seat, data in
                                                     self.payees().items())), "")

    def action(self):
        settlement, payees = self.result.settlement, self.payees()
        return self.identity.then(lambda ws, signer: ws.rounds.release(settlement, payees, signer))


def slip_rows(slip) -> list[tuple[str, str]]:
    """What a slip dialog says of the slip: its number and status, what it pays, when and by whom."""
    return [("Slip", f"{slip.number:06d} ({slip.status})"),
            ("Pays", f"{slip.table} seat {slip.seat}: {wager_text(slip.wager)}, win {money(slip.win_cents)}"),
            ("Issued", f"{slip.time:%Y-%m-%d %H:%M:%S} by {slip.issued_by}")]


class VoidSlipDialog(PinDialog):
    """A floor supervisor or pit manager voids a payout slip, saying why: it stays in the book as
    VOID and its number is never used again."""

    reason_needed = "Say why: a void slip records its reason."

    def __init__(self, bridge, slip, session=None, parent: QWidget | None = None):
        super().__init__(bridge, f"Void payout slip {slip.number:06d}", parent)
        self.setObjectName("void_slip")
        self.slip = slip
        form = self.lay_out(slip_rows(slip), session, "Void slip")
        self.add_reason(form, "why: e.g. printed with the wrong seat")

    def action(self):
        number, reason = self.slip.number, self.why()
        return self.identity.then(lambda ws, signer: ws.rounds.void_slip(number, reason, signer))


class ReissueSlipDialog(PinDialog):
    """A floor supervisor or pit manager gives a void slip's payout a new slip, numbered next (the
    void one keeps its number, never used again), with the W-2G data again where the void slip
    carried it. Its work returns what changed and the new slip's number."""

    def __init__(self, bridge, slip, session=None, parent: QWidget | None = None):
        super().__init__(bridge, f"Issue payout slip {slip.number:06d} again", parent)
        self.setObjectName("reissue_slip")
        self.slip = slip
        self.w2g: dict[str, QLineEdit] = {}
        groups = ()
        if slip.w2g:
            g, self.w2g = w2g_group(slip.seat or 0, f"seat {slip.seat} ({wager_text(slip.wager)} "
                                                    f"{money(slip.win_cents)} on {money(slip.wager_cents)})", slip.w2g)
            groups = (g,)
        rows = slip_rows(slip) + [("Void", f"{slip.void_reason or ''} (by {slip.voided_by})")]
        self.lay_out(rows, session, "Issue again", extra=groups)

    def payee(self) -> dict[str, str] | None:
        return {k: e.text().strip() for k, e in self.w2g.items()} if self.w2g else None

    def check(self) -> str:
        payee = self.payee()
        return super().check() or (w2g_missing(self.slip.seat, payee) if payee is not None else "")

    def action(self):
        number, payee = self.slip.number, self.payee()
        act = self.identity.then(lambda ws, signer: ws.rounds.reissue_slip(number, payee, signer))

        def work(ws):
            changed = act(ws)
            return changed, next(s.number for s in ws.rounds.slip_book() if s.replaces == number)
        return work


class ReopenRoundDialog(PinDialog):
    """A round a denial sent back, entered again at its table (when another round was being
    entered there at the denial): whoever enters rounds at the table signs for it."""

    def __init__(self, bridge, result, session=None, parent: QWidget | None = None):
        super().__init__(bridge, f"Enter round {result.round} at {result.table} again", parent)
        self.setObjectName("reopen_round")
        self.result = result
        self.lay_out([("Round", f"{result.round} at {result.table} (settlement {result.settlement})"),
                      ("Sent back", result.status_text),
                      ("Settled", f"by {result.actor} ({result.role}) at {result.time:%Y-%m-%d %H:%M:%S}")],
                     session, "Enter again")

    def action(self):
        settlement = self.result.settlement
        return self.identity.then(lambda ws, signer: ws.rounds.reopen(settlement, signer))
