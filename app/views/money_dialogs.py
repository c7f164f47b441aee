"""The pit's money at the window (issue 34, docs/inventory.md): the dialogs of the Money menu.

Count the opener or the closer, ask for a fill or a credit, sign one at the cage or at the table,
void one, record a buy-in, count the drop box. Each is a ``WorkDialog`` (app/views/work_dialog.py):
Enter sends it, Esc cancels, a refusal is shown in the dialog as the workstation worded it and what
was typed stays (the PINs are cleared). A count is typed by value, one field per chip value of
``[chips]`` with its total as it is typed, or in the typed form ``20 x $25, 40 x $5``; the
workstation checks every rule (app/workstation/desks/inventory.py).
"""

from __future__ import annotations

from app.engine.chips import ChipError, ChipSet
from app.engine.money import MoneyError, dollars, parse_dollars

from . import theme
from app.qt import (QComboBox, QFormLayout, QGridLayout, QIntValidator, QLabel, QLineEdit, Qt, QVBoxLayout,
                    QWidget)
from .work_dialog import WorkDialog, pin_edit


def _money(cents: int | None) -> str:
    return "—" if cents is None else dollars(cents)


class CountFields(QWidget):
    """A count of ``chips``: one field per value (largest first) and the typed form; the total
    under them, live. ``count()`` is what the workstation takes (the typed text, else value ->
    chips); ``problem()`` what is wrong with it, named ('' when nothing)."""

    def __init__(self, chips: ChipSet, what: str = "chips", parent: QWidget | None = None):
        super().__init__(parent)
        self.chips = chips
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        self.fields: dict[int, QLineEdit] = {}
        values = list(reversed(chips.denominations))
        per_row = 3
        for i, v in enumerate(values):
            e = QLineEdit()
            e.setObjectName(f"chips_{v}")
            e.setValidator(QIntValidator(0, 100_000, e))
            e.setPlaceholderText("0")
            e.setAlignment(Qt.AlignmentFlag.AlignRight)
            e.setMaximumWidth(int(theme.base_pt() * 7))
            e.setAccessibleName(f"{what} of {dollars(v)}")
            lb = QLabel(f"× {dollars(v)}")
            lb.setBuddy(e)
            lb.setMinimumWidth(lb.sizeHint().width())      # a value is never cut
            r, c = divmod(i, per_row)
            grid.addWidget(e, r, 2 * c)
            grid.addWidget(lb, r, 2 * c + 1)
            e.textChanged.connect(self._changed)
            self.fields[v] = e
        rows = (len(values) + per_row - 1) // per_row
        self.typed = QLineEdit()
        self.typed.setObjectName("typed")
        self.typed.setPlaceholderText("or type: 20 x $25, 40 x $5")
        self.typed.setMinimumWidth(self.typed.fontMetrics().horizontalAdvance(self.typed.placeholderText()) + 24)
        self.typed.setAccessibleName(f"the {what} typed")
        self.typed.textChanged.connect(self._changed)
        grid.addWidget(self.typed, rows, 0, 1, 2 * per_row)
        self.total = QLabel()
        self.total.setObjectName("total")
        self.total.setFont(theme.font(1.3, bold=True))
        self.total.setWordWrap(True)
        grid.addWidget(self.total, rows + 1, 0, 1, 2 * per_row)
        self._changed()

    def first(self) -> QLineEdit:
        return next(iter(self.fields.values()), self.typed)

    def count(self):
        text = self.typed.text().strip()
        if text:
            return text
        return {v: int(e.text()) for v, e in self.fields.items() if e.text().strip() and int(e.text())}

    def _checked(self):
        c = self.count()
        return self.chips.parse(c) if isinstance(c, str) else self.chips.count(c)

    def problem(self) -> str:
        try:
            c = self._checked()
        except ChipError as e:
            return str(e)
        return "" if c.cents else "Type the count: the number of chips of each value, or '20 x $25'."

    def _changed(self, _=None) -> None:
        try:
            c = self._checked()
        except ChipError as e:
            self.total.setText(f"TOTAL: —  ({e})")
            theme.set_level(self.total, theme.AMBER)
            return
        self.total.setText(f"TOTAL {dollars(c.cents)}" + (f"   ({c.words()})" if c.cents else ""))
        theme.set_plain(self.total)


class Signer:
    """A name and a PIN: one of the people who sign (``label`` says who)."""

    def __init__(self, form: QFormLayout, label: str, name: str = "", key: str = "second"):
        self.name = QLineEdit(name)
        self.name.setObjectName(f"{key}_name")
        self.name.setMaxLength(64)
        self.pin = pin_edit()
        self.pin.setObjectName(f"{key}_pin")
        form.addRow(f"{label}: name", self.name)
        form.addRow(f"{label}: PIN", self.pin)

    def value(self) -> tuple[str, str] | None:
        name = self.name.text().strip()
        return (name, self.pin.text()) if name and self.pin.text() else None


class MoneyDialog(WorkDialog):
    """A Money dialog: a summary of what it is about, its fields (``form``), the error, the buttons."""

    def __init__(self, bridge, title: str, table: str, rows: list[tuple[str, str]], ok: str, session,
                 parent: QWidget | None = None):
        super().__init__(bridge, title, parent)
        self.setObjectName("money_dialog")
        self.table, self.session = table, session
        box = QVBoxLayout(self)
        summary = QFormLayout()
        for k, v in rows:
            if v:
                value = QLabel(v)
                value.setWordWrap(True)
                value.setTextFormat(Qt.TextFormat.PlainText)
                value.setFont(theme.font(1.05, bold=True))
                summary.addRow(k, value)
        who = QLabel(f"Signed in: {session.name} ({session.role}), who signs first." if session is not None
                     else "Nobody is signed in: sign in (F9) first.")
        who.setObjectName("signed_in")
        who.setWordWrap(True)
        theme.set_dim(who)
        summary.addRow("", who)
        box.addLayout(summary)
        self.form = QFormLayout()
        box.addLayout(self.form)
        box.addWidget(self.error)
        box.addWidget(self.buttons)
        self.ok.setText(ok)
        self.signers: list[Signer] = []
        self.counts: CountFields | None = None

    def add_count(self, chips: ChipSet, label: str, what: str = "chips") -> CountFields:
        self.counts = CountFields(chips, what)
        self.form.addRow(label, self.counts)
        return self.counts

    def add_signer(self, label: str, key: str = "second", name: str = "") -> Signer:
        s = Signer(self.form, label, name, key)
        self.signers.append(s)
        return s

    def signed(self) -> list[tuple[str, str]]:
        return [v for v in (s.value() for s in self.signers) if v is not None]

    def check(self) -> str:
        if self.counts is not None:
            problem = self.counts.problem()
            if problem:
                return problem
        for s in self.signers:
            name = s.name.text().strip()
            if name and not s.pin.text() and not (self.session is not None and name == self.session.name):
                return f"Type {name}'s PIN."
        return ""

    def refused(self, error) -> None:
        """The PINs cleared, the cursor back in the first (never on Cancel, where OK was)."""
        for s in self.signers:
            s.pin.clear()
        if self.signers:
            self.signers[0].pin.setFocus()
        elif self.counts is not None:
            self.counts.first().setFocus()


class TrayCountDialog(MoneyDialog):
    """The opener or the closer: the tray counted by value, signed by the dealer and a supervisor
    (the one signed in, and the other's name and PIN)."""

    def __init__(self, bridge, table: str, kind: str, session, info=None, parent: QWidget | None = None):
        m = info.money if info is not None and info.open else None
        rows = [("Table", table),
                ("Count", "the OPENER: the tray as the shift begins" if kind == "opener"
                 else "the CLOSER: the tray as the shift ends"),
                ("Tray expected", _money(m.expected) if kind == "closer" and m is not None else ""),
                ("Rule", info.count_rule if info is not None else "")]
        super().__init__(bridge, f"Count the {kind} at {table}", table, rows,
                         "Sign the opener" if kind == "opener" else "Sign the closer", session, parent)
        self.kind = kind
        self.add_count(bridge.chips[0], "&Chips")
        carried = info.last_closer if kind == "opener" and info is not None else None
        if carried:
            # the opener is the last closer carried over: the dealer changes a value only where the tray differs
            for value, n in carried.items():
                if value in self.counts.fields:
                    self.counts.fields[value].setText(str(n))
            self.form.insertRow(4, "Last closer", QLabel("carried over: change a value where the tray differs"))
        self.second = self.add_signer("Second signer (the dealer or a supervisor)")
        self.counts.first().setFocus()

    def check(self) -> str:
        return super().check() or ("" if self.second.value() else
                                   "Type the second signer's name and PIN: two people sign a count.")

    def action(self):
        table, count, signer = self.table, self.counts.count(), self.second.value()
        if self.kind == "opener":
            return lambda ws: ws.inventory.open_tray(table, count, signer=signer)
        return lambda ws: ws.inventory.close_tray(table, count, signer=signer)


class SlipRequestDialog(MoneyDialog):
    """Ask for a fill (chips from the cage to the tray) or a credit (from the tray to the cage):
    the chips by value and why; it goes to the approvals queue."""

    def __init__(self, bridge, table: str, kind: str, session, info=None, parent: QWidget | None = None):
        m = info.money if info is not None and info.open else None
        rows = [("Table", table),
                ("Slip", "a FILL: chips from the cage to the tray" if kind == "fill"
                 else "a CREDIT: chips from the tray to the cage"),
                ("Tray expected", _money(m.expected) if m is not None else ""),
                ("Rule", info.slip_rule if info is not None else "")]
        super().__init__(bridge, f"Ask for a {kind} at {table}", table, rows, f"Ask for the {kind}", session, parent)
        self.kind = kind
        self.add_count(bridge.chips[0], "&Chips")
        self.reason = QLineEdit()
        self.reason.setObjectName("reason")
        self.reason.setPlaceholderText("the $25s run low" if kind == "fill" else "the tray holds too many $100s")
        self.form.addRow("&Why", self.reason)
        self.counts.first().setFocus()

    def check(self) -> str:
        return super().check() or ("" if self.reason.text().strip() else f"Say why the {self.kind} is asked for.")

    def action(self):
        table, kind, count, reason = self.table, self.kind, self.counts.count(), self.reason.text().strip()
        return lambda ws: ws.inventory.request(table, kind, count, reason)


def slip_words(s) -> str:
    return f"{s.kind.upper()} {s.number}: {dollars(s.cents)} ({s.chips}) · {s.status}" + \
        (f" · {s.next_step}" if s.next_step else "")


class SlipChoice(QComboBox):
    """The table's fills and credits a dialog may act on, each in words."""

    def __init__(self, slips):
        super().__init__()
        self.setObjectName("slip")
        self.slips = list(slips)
        for s in self.slips:
            self.addItem(slip_words(s))

    def chosen(self):
        i = self.currentIndex()
        return self.slips[i] if 0 <= i < len(self.slips) else None


class SignSlipDialog(MoneyDialog):
    """A fill or a credit signed at the cage (a cashier and security) or at the table (the dealer
    and a supervisor): the one signed in and the other's name and PIN."""

    def __init__(self, bridge, table: str, at: str, session, slips, info=None, parent: QWidget | None = None):
        who = "a cashier and security" if at == "cage" else "the dealer and a supervisor"
        rows = [("Table", table), ("Signed by", who),
                ("Order", "a fill is signed at the cage first, a credit at the table first; the tray moves at the "
                          "table's signatures"),
                ("Rule", info.slip_rule if info is not None else "")]
        super().__init__(bridge, f"Sign at the {at}", table, rows, f"Sign at the {at}", session, parent)
        self.at = at
        self.choice = SlipChoice(slips)
        self.form.addRow("&Slip", self.choice)
        self.second = self.add_signer("Second signer (" + ("security or the cashier" if at == "cage"
                                                           else "the dealer or a supervisor") + ")")
        self.second.name.setFocus()

    def check(self) -> str:
        if self.choice.chosen() is None:
            return f"No fill or credit of {self.table} waits to be signed at the {self.at}."
        return super().check() or ("" if self.second.value() else "Type the second signer's name and PIN.")

    def action(self):
        s, at, signers = self.choice.chosen(), self.at, self.signed()
        return lambda ws: ws.inventory.sign(s.kind, s.number, at, signers=signers)


class VoidSlipDialog(MoneyDialog):
    """A supervisor voids a fill or a credit before its chips move, saying why."""

    def __init__(self, bridge, table: str, session, slips, parent: QWidget | None = None):
        super().__init__(bridge, f"Void a fill or credit at {table}", table,
                         [("Table", table), ("Void", "its number is never used again; a void slip is never signed")],
                         "Void the slip", session, parent)
        self.choice = SlipChoice(slips)
        self.form.addRow("&Slip", self.choice)
        self.reason = QLineEdit()
        self.reason.setObjectName("reason")
        self.reason.setPlaceholderText("the player bought them; asked for twice")
        self.form.addRow("&Why", self.reason)
        self.choice.setFocus()

    def check(self) -> str:
        if self.choice.chosen() is None:
            return f"No fill or credit of {self.table} is on its way."
        return "" if self.reason.text().strip() else "Say why: a void slip records its reason."

    def action(self):
        s, reason = self.choice.chosen(), self.reason.text().strip()
        return lambda ws: ws.inventory.void(s.kind, s.number, reason)


class BuyInDialog(MoneyDialog):
    """Chips sold for cash at the table: they leave the tray, the cash goes in the drop box."""

    def __init__(self, bridge, table: str, session, parent: QWidget | None = None):
        super().__init__(bridge, f"Record a buy-in at {table}", table,
                         [("Table", table), ("Buy-in", "chips leave the tray; the cash goes in the drop box")],
                         "Record the buy-in", session, parent)
        self.amount = QLineEdit()
        self.amount.setObjectName("amount")
        self.amount.setPlaceholderText("500 or $1,250.00")
        self.seat = QComboBox()
        self.seat.setObjectName("seat")
        self.seat.addItems(["no seat"] + [f"seat {n}" for n in range(1, 8)])
        self.player = QLineEdit()
        self.player.setObjectName("player")
        self.player.setMaxLength(64)
        self.form.addRow("&Amount", self.amount)
        self.form.addRow("S&eat", self.seat)
        self.form.addRow("&Player", self.player)
        self.amount.setFocus()

    def cents(self) -> int:
        return parse_dollars(self.amount.text())

    def check(self) -> str:
        try:
            return "" if self.cents() > 0 else "A buy-in is more than $0."
        except MoneyError as e:
            return f"Amount: {e}"

    def action(self):
        table, cents, player = self.table, self.cents(), self.player.text().strip()
        seat = self.seat.currentIndex() or None
        return lambda ws: ws.inventory.buy_in(table, cents, seat, player)


class DropDialog(MoneyDialog):
    """The drop box's count for the table's last closed shift, by the notes it held, signed by two
    of the count team."""

    def __init__(self, bridge, table: str, session, info=None, parent: QWidget | None = None):
        m = info.money if info is not None else None
        rows = [("Table", table), ("Shift", "the last closed shift: its drop box, counted once"),
                ("Buy-ins recorded", _money(m.buy_ins) if m is not None else ""),
                ("Rule", info.count_rule if info is not None else "")]
        super().__init__(bridge, f"Count the drop box of {table}", table, rows, "Sign the drop", session, parent)
        self.add_count(bridge.chips[1], "&Notes", what="notes")
        self.second = self.add_signer("Second of the count team")
        self.counts.first().setFocus()

    def check(self) -> str:
        return super().check() or ("" if self.second.value() else
                                   "Type the second counter's name and PIN: two of the count team sign.")

    def action(self):
        table, count, signers = self.table, self.counts.count(), self.signed()
        return lambda ws: ws.inventory.drop(table, count, signers=signers)
