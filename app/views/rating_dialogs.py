"""The Players menu's dialogs (issue 36, docs/ratings.md): rate a player who sits down, move a
rated player, stand one up, correct a rating with why. Each reads its fields on the GUI thread
and hands the workstation plain values (app/workstation/desks/ratings.py); a refusal is shown in
the dialog as the workstation words it, and nothing is written."""

from __future__ import annotations

import re
from datetime import datetime

from .money_dialogs import MoneyDialog as _MoneyDialog
from app.qt import QComboBox, QLabel, QLineEdit, QWidget

_TIME = re.compile(r"(?:(\d{4}-\d{2}-\d{2})[ T])?(\d{1,2}):(\d{2})")


class MoneyDialog(_MoneyDialog):
    """The Money dialogs' frame (a summary, the fields, the error, the buttons); the person signed
    in acts alone here (nobody counter-signs a rating)."""

    def __init__(self, bridge, title: str, table: str, rows, ok: str, session, parent=None):
        super().__init__(bridge, title, table, rows, ok, session, parent)
        who = self.findChild(QLabel, "signed_in")
        if who is not None and session is not None:
            who.setText(f"Signed in: {session.name} ({session.role}).")


def _seats(combo: QComboBox, seats=range(1, 8), chosen: int | None = None) -> None:
    for n in seats:
        combo.addItem(f"seat {n}", n)
    if chosen is not None and combo.findData(chosen) >= 0:
        combo.setCurrentIndex(combo.findData(chosen))


def _line(name: str, placeholder: str = "", limit: int = 64) -> QLineEdit:
    e = QLineEdit()
    e.setObjectName(name)
    e.setMaxLength(limit)
    e.setPlaceholderText(placeholder)
    return e


def _sitting_rows(r: dict) -> list[tuple[str, str]]:
    who = f"{r['player']}" + (f" ({r['name']})" if r["name"] else "") + (f", bettor {r['bettor']}" if r["bettor"]
                                                                         else "")
    return [("Player", who), ("Where", f"{r['table']} seat {r['seat']}"), ("Since", r["started"].replace("T", " "))]


class RateDialog(MoneyDialog):
    """A rated player sits down: their card, the table and seat, and a name if they give one."""

    def __init__(self, bridge, tables: list[str], table: str | None, session, parent: QWidget | None = None):
        super().__init__(bridge, "Rate a player", table or "",
                         [("Rating", "from the rounds the player sits in, from now until they stand up")],
                         "Rate the player", session, parent)
        self.setObjectName("rate_dialog")
        self.tables = QComboBox()
        self.tables.setObjectName("table")
        self.tables.addItems(tables)
        if table in tables:
            self.tables.setCurrentText(table)
        self.seat = QComboBox()
        self.seat.setObjectName("seat")
        _seats(self.seat)
        self.card = _line("card", "the number on the player's card: PC-104217", 24)
        self.name = _line("player_name", "as the player gives it (optional)")
        self.bettor = _line("bettor", "003 only: a bettor on that seat's circle, as the round names them")
        self.form.addRow("&Table", self.tables)
        self.form.addRow("S&eat", self.seat)
        self.form.addRow("&Card", self.card)
        self.form.addRow("Na&me", self.name)
        self.form.addRow("&Bettor", self.bettor)
        self.card.setFocus()

    def check(self) -> str:
        return "" if self.card.text().strip() else "Type the number on the player's card."

    def action(self):
        table, seat = self.tables.currentText(), self.seat.currentData()
        card, name, bettor = self.card.text().strip(), self.name.text(), self.bettor.text()
        return lambda ws: ws.ratings.sit_down(table, seat, card, name, bettor)


class MoveDialog(MoneyDialog):
    """A rated player moves to another seat at the same table; the rating goes on."""

    def __init__(self, bridge, sitting: dict, session, parent: QWidget | None = None):
        super().__init__(bridge, f"Move {sitting['player']} to another seat", sitting["table"],
                         _sitting_rows(sitting), "Move the player", session, parent)
        self.setObjectName("move_dialog")
        self.rating = sitting["rating"]
        self.seat = QComboBox()
        self.seat.setObjectName("seat")
        _seats(self.seat, [n for n in range(1, 8) if n != sitting["seat"]])
        self.form.addRow("&To seat", self.seat)
        self.seat.setFocus()

    def action(self):
        rating, seat = self.rating, self.seat.currentData()
        return lambda ws: ws.ratings.move(rating, seat)


class StandUpDialog(MoneyDialog):
    """The rated player stands up: the rating ends now and their seat is free."""

    def __init__(self, bridge, sitting: dict, session, parent: QWidget | None = None):
        super().__init__(bridge, f"{sitting['player']} stands up", sitting["table"],
                         _sitting_rows(sitting) + [("Rounds so far", f"{sitting['rounds']:,}")],
                         "Stand up: end the rating", session, parent)
        self.setObjectName("stand_up_dialog")
        self.rating = sitting["rating"]
        self.ok.setFocus()

    def action(self):
        rating = self.rating
        return lambda ws: ws.ratings.stand_up(rating)


FIELDS = (("card", "Card number"), ("name", "Name"), ("started", "Sat down at"), ("ended", "Stood up at"))


def parse_when(text: str, today: datetime) -> datetime:
    """'HH:MM' (today) or 'YYYY-MM-DD HH:MM': ``ValueError`` naming the fault."""
    m = _TIME.fullmatch(text.strip())
    if not m:
        raise ValueError(f"a time is HH:MM or YYYY-MM-DD HH:MM, got {text.strip()!r}")
    day = datetime.fromisoformat(m.group(1)) if m.group(1) else today
    try:
        return day.replace(hour=int(m.group(2)), minute=int(m.group(3)), second=0, microsecond=0)
    except ValueError as e:
        raise ValueError(f"{text.strip()!r}: {e}") from None


class CorrectDialog(MoneyDialog):
    """A supervisor corrects a rating's card, name, start or end, and says why (logged with what it was)."""

    def __init__(self, bridge, sitting: dict, session, parent: QWidget | None = None):
        super().__init__(bridge, f"Correct the rating of {sitting['player']}", sitting["table"],
                         _sitting_rows(sitting), "Correct the rating", session, parent)
        self.setObjectName("correct_dialog")
        self.sitting = sitting
        self.field = QComboBox()
        self.field.setObjectName("field")
        for key, text in FIELDS:
            self.field.addItem(text, key)
        self.value = _line("value", "the card or name as it should be, or a time: 21:05 or 2026-11-28 21:05")
        self.why = _line("why", "why it is corrected (logged with it)", 200)
        self.form.addRow("&What", self.field)
        self.form.addRow("&Now", self.value)
        self.form.addRow("&Why", self.why)
        self.field.currentIndexChanged.connect(self._field)
        self._field()
        self.value.setFocus()

    def _field(self) -> None:
        key = self.field.currentData()
        was = {"card": self.sitting["player"], "name": self.sitting["name"],
               "started": self.sitting["started"][:16].replace("T", " "),
               "ended": (self.sitting["ended"] or "")[:16].replace("T", " ")}[key]
        self.value.setText(was)

    def _value(self):
        key, text = self.field.currentData(), self.value.text().strip()
        if key in ("started", "ended"):
            return parse_when(text, datetime.fromisoformat(self.sitting["started"]))
        return text

    def check(self) -> str:
        if not self.why.text().strip():
            return "Say why the rating is corrected: it is logged with the correction."
        try:
            self._value()
        except ValueError as e:
            return str(e)
        return ""

    def action(self):
        rating, field, value, why = self.sitting["rating"], self.field.currentData(), self._value(), self.why.text()
        return lambda ws: ws.ratings.correct(rating, field, value, why)
