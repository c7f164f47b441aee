"""Who banks the round being entered, in the round panel: the mode and seat the profile allows,
with the procedures' offers in rotation order, and the amounts that mode takes.

What a person chooses is sent through the panel (``RoundPanel.send_banking``); a refusal outlines
the field in red with the workstation's reason. Nothing here decides who may bank.
"""

from __future__ import annotations

from .. import theme
from app.qt import QCheckBox, QComboBox, QGroupBox, QHBoxLayout, QPushButton, Qt, QVBoxLayout, QWidget
from ..theme import LEVEL_MARK, NONE, OK, RED, money
from ..widgets import Entry, dollars_text, label, say, seat_text, set_refused, visible

MODE_WORDS = {"house": "House: the dealer banks", "player": "Player bank", "co-bank": "Co-bank",
              "player-dealer": "Player-dealer (002)"}
AMOUNT_WORDS = {"chips": "Bank's chips", "last_wager": "Bank's last wager", "dealer_wager": "Dealer's wager",
                "wager": "Player-dealer's wager", "dealer_prepaid_commission": "Dealer's prepaid commission"}


def eligibility(offer) -> str:
    """A bank offer's eligibility as the procedures decided it, in a word beside its mark."""
    return f"{LEVEL_MARK[OK]} eligible" if offer.eligible else f"{LEVEL_MARK[NONE]} not eligible"


class BankBox(QGroupBox):
    """Who banks the round, as the profile allows, with the procedures' offers in rotation order:
    the mode and seat on one line, the amounts that mode takes on the next, each refused field
    outlined in red with the workstation's reason under them."""

    FIELDS = ("chips", "last_wager", "dealer_wager", "wager", "dealer_prepaid_commission")

    def __init__(self, panel):
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
