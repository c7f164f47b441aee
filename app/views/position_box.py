"""One of the seven positions in the table view, from its ``PositionInfo`` in the table's
``TableDetail`` (app/workstation/readouts.py): who sits there and what they do this round (bank,
wager, progressive, first to the table, a hand voided) and where it stands in the deal (the
starting position, the order it receives cards).
"""

from __future__ import annotations

from . import theme
from app.qt import QFrame, QLabel, QSizePolicy, Qt, QVBoxLayout, QWidget
from .theme import AMBER, LEVEL_MARK, NONE, OK, RED

ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def ordinal(n: int) -> str:
    return ORDINAL.get(n, f"{n}th")


def position_name(p: int) -> str:
    return "DEALER" if p == 0 else f"SEAT {p}"


class PositionBox(QFrame):
    """One of the seven positions."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.title = QLabel()
        self.title.setFont(theme.font(1.2, bold=True))
        self.player = QLabel()
        self.player.setFont(theme.font(1.0))
        self.marks = QLabel()
        self.marks.setFont(theme.font(0.95, bold=True))
        self.marks.setWordWrap(True)
        self.order = QLabel()
        self.order.setFont(theme.font(1.1, bold=True))
        self.order.setWordWrap(True)      # "START · 1st to receive cards" is wider than a seat at 1366
        for lb in (self.title, self.player, self.marks, self.order):
            lb.setAlignment(Qt.AlignmentFlag.AlignHCenter)
            lb.setTextFormat(Qt.TextFormat.PlainText)
        box = QVBoxLayout(self)
        box.setContentsMargins(8, 6, 8, 6)
        box.setSpacing(2)
        box.addWidget(self.title)
        box.addWidget(self.player)
        box.addWidget(self.marks)
        box.addWidget(self.order)
        self.setMinimumWidth(int(theme.base_pt() * 9))
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)

    def show_position(self, p, start: int | None, order: tuple[int, ...]) -> None:
        self.title.setText(position_name(p.position))
        if p.position == 0:
            self.player.setText("house dealer")
        elif p.occupied:
            self.player.setText(p.player or "seated")
        else:
            self.player.setText("empty")
        marks = []
        if p.banks:
            marks.append("BANK")
        if p.first_player:
            marks.append("FIRST TO THE TABLE")
        if p.wagers:
            marks.append("WAGER")
        if p.progressive:
            marks.append("PROGRESSIVE")
        if p.voided:
            marks.append(f"{LEVEL_MARK[RED]} HAND VOIDED")
        self.marks.setText(" · ".join(marks))
        self.marks.setVisible(bool(marks))
        theme.set_level(self.marks, RED if p.voided else OK if p.banks else NONE)
        if p.position in order:
            n = order.index(p.position) + 1
            self.order.setText(("START · " if p.position == start else "") + f"{ordinal(n)} to receive cards")
        else:
            self.order.setText("")
        self.order.setVisible(bool(self.order.text()))
        theme.set_level(self.order, AMBER if p.position == start else NONE)
        if p.occupied:
            theme.set_plain(self.player)
        else:
            theme.set_dim(self.player)
        self.setAccessibleName(f"{position_name(p.position)}: {self.player.text()} {self.marks.text()} "
                               f"{self.order.text()}".strip())
