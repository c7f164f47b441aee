"""The table page's Money tab (issue 34, docs/inventory.md): the table's tray from its
``TrayInfo`` (app/workstation/money_readout.py), live with every update of the table.

Each line of the tray expected with its figure (app/engine/inventory.py):

    expected = opener + fills - credits - buy-ins + the rounds' flow through the tray

with the table's own citations for the counts and the rounds' chips (its profile's ``tray_count``
and ``tray_collect``); the fills and credits of the shift with their state and what each waits
for; after the closer the closer and the tray's difference, after the drop the drop, the win
(drop + closer + credits - opener - fills), the rounds' win and the difference.
"""

from __future__ import annotations

from app.engine.money import dollars

from . import theme
from app.qt import QFormLayout, QGroupBox, QHBoxLayout, QLabel, Qt, QVBoxLayout, QWidget
from .theme import AMBER, LEVEL_MARK, NONE, OK, RED


def signed_money(cents: int) -> str:
    return ("+" if cents >= 0 else "−") + dollars(abs(cents))


class MoneyBox(QWidget):
    def __init__(self, difference_alarm: int = 2500, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("money")
        self.difference_alarm = difference_alarm
        self.info = None
        self.headline = QLabel("No tray counted yet")
        self.headline.setObjectName("tray_expected")
        self.headline.setFont(theme.font(1.8, bold=True))
        self.headline.setWordWrap(True)
        self.lines = QFormLayout()
        self.values: dict[str, QLabel] = {}
        tray_box = QGroupBox("The tray")
        tray_box.setLayout(self.lines)
        self.rules = QLabel()
        self.rules.setObjectName("tray_rules")
        self.rules.setWordWrap(True)
        theme.set_dim(self.rules)
        self.slips = QLabel("No fill or credit this shift")
        self.slips.setObjectName("tray_slips")
        self.slips.setFont(theme.font(1.1, bold=True))
        self.slips.setWordWrap(True)
        self.slips.setTextFormat(Qt.TextFormat.PlainText)
        self.slips.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        slips_box = QGroupBox("Fills and credits (Money menu: sign, void, print)")
        self.slips_layout = QVBoxLayout(slips_box)
        self.slips_layout.addWidget(self.slips)
        self.count = QFormLayout()
        count_box = QGroupBox("After the closer: the count and the win")
        count_box.setLayout(self.count)
        self.count_box = count_box
        row = QHBoxLayout()
        row.addWidget(tray_box, 1)
        right = QVBoxLayout()
        right.addWidget(slips_box, 1)
        right.addWidget(count_box)
        row.addLayout(right, 1)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 4, 0, 0)
        box.addWidget(self.headline)
        box.addLayout(row, 1)
        box.addWidget(self.rules)

    def add_command(self, button: QWidget) -> None:
        """A window command's button (app/views/widgets.py ``command_button``) under the slips."""
        row = QHBoxLayout()
        row.addWidget(button)
        row.addStretch(1)
        self.slips_layout.addLayout(row)

    def _line(self, form: QFormLayout, key: str, label: str, value: str, bold: bool = False) -> None:
        lb = self.values.get(key)
        if lb is None:
            lb = self.values[key] = QLabel()
            lb.setObjectName(key)
            lb.setFont(theme.font(1.2, bold=True, mono=True) if bold else theme.font(1.1, mono=True))
            lb.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            form.addRow(label, lb)
        else:   # the words may change with the figures ("(2 rounds)")
            name = form.labelForField(lb)
            if name is not None and name.text() != label:
                name.setText(label)
        lb.setText(value)

    def text(self) -> str:
        """Everything the tab says, in one text (tests; the words scan)."""
        return "\n".join([self.headline.text()] + [f"{k}: {v.text()}" for k, v in self.values.items()]
                         + [self.slips.text(), self.rules.text()])

    def show_info(self, info) -> None:
        if info is None or info == self.info:
            return
        self.info = info
        m = info.money
        if info.opener is None:
            self.headline.setText(f"{LEVEL_MARK[NONE]} TRAY NOT OPEN: no opener counted at {info.table} "
                                  "(Money > Count the opener)")
            theme.set_level(self.headline, NONE)
        elif info.open:
            self.headline.setText(f"{LEVEL_MARK[OK]} TRAY EXPECTED {dollars(m.expected)}   "
                                  f"(open since {info.opener['time'][11:16]})")
            theme.set_level(self.headline, OK)
        else:
            self.headline.setText(f"{LEVEL_MARK[NONE]} TRAY CLOSED at {info.table}: the last shift, opened "
                                  f"{info.opener['time'][:16].replace('T', ' ')}")
            theme.set_level(self.headline, NONE)
        if m is not None:
            f = self.lines
            self._line(f, "opener", "Opener", dollars(m.opener))
            self._line(f, "fills", "+ Fills delivered", signed_money(m.fills))
            self._line(f, "credits", "− Credits taken", f"−{dollars(m.credits)}")
            self._line(f, "buy_ins", "− Buy-ins (chips sold for cash)", f"−{dollars(m.buy_ins)}")
            self._line(f, "rounds_tray", f"+ Rounds' flow through the tray ({m.rounds} round"
                       f"{'' if m.rounds == 1 else 's'})", signed_money(m.rounds_tray))
            self._line(f, "expected", "= Tray expected", dollars(m.expected), bold=True)
            c = self.count
            self._line(c, "closer", "Closer", "not counted" if m.closer is None else dollars(m.closer))
            self._line(c, "tray_difference", "Tray difference (closer − expected)",
                       "—" if m.tray_difference is None else signed_money(m.tray_difference), bold=True)
            self._line(c, "drop", "Drop", "not counted" if m.drop is None else dollars(m.drop))
            self._line(c, "win", "Win (drop + closer + credits − opener − fills)",
                       "—" if m.win is None else dollars(m.win), bold=True)
            self._line(c, "rounds_win", "Rounds' win (house net + to the meter)", dollars(m.rounds_win))
            self._line(c, "difference", "Difference (win − rounds' win)",
                       "—" if m.difference is None else signed_money(m.difference), bold=True)
            for key, cents in (("tray_difference", m.tray_difference), ("difference", m.difference)):
                level = NONE if cents is None else RED if abs(cents) > self.difference_alarm else \
                    AMBER if cents else OK
                theme.set_level(self.values[key], level)
        lines = []
        for s in info.slips:
            mark = LEVEL_MARK[AMBER] if s.next_step else LEVEL_MARK[NONE]
            lines.append(f"{mark} {s.kind.upper()} {s.number}  {dollars(s.cents)}  ({s.chips})  "
                         f"{s.status.upper()}" + (f": {s.next_step}" if s.next_step else "")
                         + f"\n      why: {s.reason}")
        waiting = sum(1 for s in info.slips if s.next_step)
        self.slips.setText("\n".join(lines) or "No fill or credit this shift")
        theme.set_level(self.slips, AMBER if waiting else NONE)
        self.rules.setText(f"Counts: {info.count_rule}.   The rounds' chips into the tray: {info.collect_rule}.   "
                           f"Fills and credits: {info.slip_rule}.")
