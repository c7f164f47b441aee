"""One table on the floor overview: everything a supervisor needs to see at a glance.

The tile shows a ``Tile`` readout (app/workstation/readouts.py) as it is. What needs the
supervisor is drawn three ways at once: colour, a shape and a word (app/views/theme.py): the
frame turns red or amber, the alarm and approval counts become filled badges, a clock says DUE
or OVERDUE, a light says OFFLINE.
"""

from __future__ import annotations

from . import theme
from app.qt import QFrame, QGridLayout, QHBoxLayout, QLabel, QLayout, QSizePolicy, Qt, QVBoxLayout, QWidget, Signal
from .theme import AMBER, LEVEL_MARK, NONE, OK, RED
from .widgets import GivingLabel, label, restyle, state_text

def _label(scale: float = 1.0, bold: bool = False, mono: bool = False, name: str = "", cls=QLabel) -> QLabel:
    lb = label("", scale, bold, name=name, mono=mono, cls=cls)
    # the font's size relative to the base, so that the floor can zoom every tile to fit the screen
    lb.setProperty("font_spec", (scale, bold, mono))
    return lb


def _tip(widget: QWidget, text: str) -> None:
    if widget.toolTip() != text:
        widget.setToolTip(text)


def tile_level(t) -> str:
    """The frame's colour: the most urgent thing the tile shows (its words say which)."""
    links = [theme.LINK_LEVEL.get(light.state, NONE) for light in t.lights]
    if t.open_alarms or t.pending_acknowledgements or t.clock_level == RED or RED in links \
            or t.progressive == "closed":
        return RED
    if t.pending_approvals or t.waits or (t.tray is not None and t.tray.approved) or t.clock_level == AMBER or AMBER in links:
        return AMBER
    return OK


def pace_words(p) -> str:
    """A tile's pace line: ``PACE 34/H · $5,100.00/H · 6 SEATS``; off its usual pace, which way
    and the usual one first: ``⇣ SLOW 18/H (USUALLY 34) · ...``."""
    head = {"slow": "⇣ SLOW ", "fast": "⇡ FAST "}.get(p.off, "PACE ")
    usual = f" (USUALLY {p.usual})" if p.off else ""
    return f"{head}{p.rounds}/H{usual} · {theme.money(p.wagered)}/H · {p.seats} SEAT{'' if p.seats == 1 else 'S'}"


class TileWidget(QFrame):
    """Focusable: arrows move between tiles (FloorView), Enter or a double click opens the table."""

    open_requested = Signal(str)
    focused = Signal(str)

    def __init__(self, table: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.table = table
        self.tile = None
        self.zoom = 1.0
        self._resized = False
        self.setObjectName("tile")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setAccessibleName(f"table {table}")

        self.name = _label(2.2, bold=True, name="name")
        self.name.setText(table)
        # the profile gives up its width before the floor's zoom does (GivingLabel): STARTING
        # POSITION beside it shrank every tile and the floor grew back, again and again
        self.profile = _label(0.9, name="profile", cls=GivingLabel)
        theme.set_dim(self.profile)
        self.state = _label(1.3, bold=True, name="state")
        self.state.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.round = _label(1.15, bold=True, name="round")
        self.void = _label(1.0, bold=True, name="void")
        self.bank = _label(1.1, name="bank")
        self.bank.setWordWrap(True)        # a co-bank names two seats
        self.deck_name = _label(1.05, name="deck_name")
        self.deck = _label(1.4, bold=True, mono=True, name="deck")
        self.dice_name = _label(1.05, name="dice_name")
        self.dice_name.setText("DICE")
        self.dice = _label(1.4, bold=True, mono=True, name="dice")
        self.meter = _label(2.5, bold=True, mono=True, name="meter")
        self.meter.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.progressive = _label(0.95, bold=True, name="progressive")
        self.progressive.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self.progressive.setWordWrap(True)
        self.alarms = _label(1.1, bold=True, name="alarms")
        self.approvals = _label(1.1, bold=True, name="approvals")
        self.irregularities = _label(1.0, bold=True, name="irregularities")
        # the pit's money (issue 34): the tray expected while open, the fills and credits on their way
        self.tray = _label(1.3, bold=True, name="tray")
        self.tray.setWordWrap(True)
        self.slips = _label(1.1, bold=True, name="slips")
        # its last hour (issue 36): rounds, wagered, seats; a table off its usual pace says so in words
        self.pace = _label(1.0, name="pace")
        self.pace.setWordWrap(True)
        self.irregularities.setWordWrap(True)
        for badge in (self.alarms, self.approvals, self.irregularities, self.void, self.slips):
            badge.setMargin(4)
        self.lights: dict[str, QLabel] = {}
        self.lights_box = QVBoxLayout()     # one light a line: OFFLINE is never cut off
        self.lights_box.setSpacing(0)

        top = QHBoxLayout()
        top.addWidget(self.name, 0, Qt.AlignmentFlag.AlignBottom)
        top.addWidget(self.profile, 0, Qt.AlignmentFlag.AlignBottom)
        top.addStretch(1)
        top.addWidget(self.state, 0, Qt.AlignmentFlag.AlignVCenter)

        round_row = QHBoxLayout()
        round_row.addWidget(self.round)
        round_row.addWidget(self.void)
        round_row.addWidget(self.bank, 1)

        clocks = QGridLayout()
        clocks.setHorizontalSpacing(10)
        clocks.setVerticalSpacing(0)
        clocks.addWidget(self.deck_name, 0, 0)
        clocks.addWidget(self.deck, 0, 1)
        clocks.addWidget(self.dice_name, 1, 0)
        clocks.addWidget(self.dice, 1, 1)
        clocks.setColumnStretch(1, 1)

        counts = QHBoxLayout()
        counts.addWidget(self.alarms)
        counts.addWidget(self.approvals)
        counts.addStretch(1)
        # the slips on their way under the tray, not beside the counts: a row that wide shrank every
        # tile's words on a 1366x768 floor (seen in a supervisor's shift)
        slips = QHBoxLayout()
        slips.addWidget(self.slips)
        slips.addStretch(1)

        box = QVBoxLayout(self)
        box.setContentsMargins(14, 10, 14, 10)
        box.setSpacing(6)
        box.addLayout(top)
        box.addLayout(round_row)
        box.addLayout(clocks)
        box.addLayout(self.lights_box)
        box.addWidget(self.tray)
        box.addLayout(slips)
        box.addWidget(self.pace)
        box.addStretch(1)
        box.addWidget(self.meter)
        box.addWidget(self.progressive)
        box.addLayout(counts)
        box.addWidget(self.irregularities)

    # -- size ------------------------------------------------------------------------------------
    def set_zoom(self, zoom: float) -> None:
        """Every font at ``zoom`` times its size (the floor fits its tiles to the screen)."""
        if abs(zoom - self.zoom) < 1e-3:
            return
        self.zoom = zoom
        for lb in self.findChildren(QLabel):
            spec = lb.property("font_spec")
            if spec:
                scale, bold, mono = spec
                lb.setFont(theme.font(scale * zoom, bold, mono))
        m = max(4, round(10 * zoom))
        self.layout().setContentsMargins(m + 4, m, m + 4, m)
        self.layout().setSpacing(max(2, round(6 * zoom)))
        self.relayout()

    def relayout(self) -> None:
        """Sizes measured now, not at the next layout pass: Qt keeps the nested rows' sizes
        until then, and the floor measures right after a zoom."""
        for sub in self.findChildren(QLayout):
            sub.invalidate()
        self.layout().invalidate()
        self.layout().activate()

    # -- showing a readout ---------------------------------------------------------------------
    # what each part of the tile shows (fields of the Tile readout): a part is drawn again
    # only when one of its fields changed, as a tile changes several times a second
    PARTS = (("_show_heading", ("profile", "rule_text", "state", "round", "round_now", "void", "bank")),
             ("_show_clocks", ("deck", "dice")),
             ("_show_lights", ("lights",)),
             ("_show_progressive", ("meter_cents", "progressive")),
             ("_show_counts", ("open_alarms", "pending_approvals", "pending_acknowledgements", "waits")),
             ("_show_tray", ("tray",)),
             ("_show_pace", ("pace",)))

    def show_tile(self, t) -> bool:
        """Show ``t``; True when the tile may need another size (a text changed length, a line
        came or went), so that the floor measures again only then."""
        old, self.tile = self.tile, t
        if t == old:
            return False
        self._resized = False
        for part, fields in self.PARTS:
            if old is None or any(getattr(t, f) != getattr(old, f) for f in fields):
                getattr(self, part)(t)
        level = tile_level(t)
        restyle(self, "level", level)
        summary = self.summary()
        if summary != self.accessibleDescription():
            self.setAccessibleDescription(summary)
        return self._resized

    def _put(self, label: QLabel, text: str) -> None:
        old = label.text()
        if old != text:
            label.setText(text)
            self._resized = self._resized or len(old) != len(text)

    def _shown(self, widget: QWidget, on: bool) -> None:
        if widget.isVisibleTo(self) != on:
            widget.setVisible(on)
            self._resized = True

    def _show_heading(self, t) -> None:
        self._put(self.profile, f"{t.profile} · {t.rule_text}")
        _tip(self.profile, self.profile.text())
        self._put(self.state, state_text(t.state))
        self._put(self.round, f"ROUND {t.round_now}")
        self._shown(self.void, t.void)
        if t.void:
            self._put(self.void, f"{LEVEL_MARK[RED]} VOID")
            theme.set_level(self.void, RED, filled=True)
        self._put(self.bank, f"· BANK: {t.bank.text}")

    def _show_clocks(self, t) -> None:
        if t.deck is None:
            self._put(self.deck_name, "DECK")
            self._put(self.deck, "no deck at the table")
            theme.set_level(self.deck, NONE)
        else:
            # the deck in play, else the one dealt next
            self._put(self.deck_name, f"DECK {t.deck.deck}" + ("" if t.deck.in_play else " (next)"))
            self._put(self.deck, theme.clock_words(t.deck.level, t.deck.left, t.deck.overdue))
            theme.set_level(self.deck, t.deck.level)
        if t.dice is None:
            self._put(self.dice, "no dice at the table")
            theme.set_level(self.dice, NONE)
        else:
            self._put(self.dice, theme.clock_words(t.dice.level, t.dice.left, t.dice.overdue))
            theme.set_level(self.dice, t.dice.level)

    def _show_progressive(self, t) -> None:
        if t.progressive is None:
            self._put(self.meter, "")
            self._shown(self.meter, False)
            self._put(self.progressive, "no progressive wager")
            theme.set_level(self.progressive, NONE)
            return
        self._shown(self.meter, True)
        self._put(self.meter, theme.money(t.meter_cents) if t.meter_cents is not None else "$ —")
        if t.progressive == "closed":
            self._put(self.progressive, f"{LEVEL_MARK[RED]} PROGRESSIVE CLOSED: controller offline")
            # the table's own text (issue 33: an nj or a casino table cited 000 here)
            _tip(self.progressive, f"no progressive wagers until the controller is back ({t.progressive_rule})")
            theme.set_level(self.progressive, RED)
            theme.set_level(self.meter, RED)
        else:
            self._put(self.progressive, "PROGRESSIVE METER")
            _tip(self.progressive, "")
            theme.set_level(self.progressive, NONE)
            theme.set_plain(self.meter)

    def _show_counts(self, t) -> None:
        plural = "" if t.open_alarms == 1 else "S"
        self._put(self.alarms, f"{LEVEL_MARK[RED] if t.open_alarms else LEVEL_MARK[NONE]} {t.open_alarms} "
                               f"ALARM{plural}")
        theme.set_level(self.alarms, RED if t.open_alarms else NONE, filled=bool(t.open_alarms))
        plural = "" if t.pending_approvals == 1 else "S"
        self._put(self.approvals, f"{LEVEL_MARK[AMBER] if t.pending_approvals else LEVEL_MARK[NONE]} "
                                  f"{t.pending_approvals} APPROVAL{plural}")
        theme.set_level(self.approvals, AMBER if t.pending_approvals else NONE, filled=bool(t.pending_approvals))
        self._shown(self.irregularities, bool(t.pending_acknowledgements or t.waits))
        if t.pending_acknowledgements:
            self._put(self.irregularities, f"{LEVEL_MARK[RED]} IRREGULARITY: NEEDS A SUPERVISOR")
            theme.set_level(self.irregularities, RED, filled=True)
        elif t.waits:
            # Settle waits for a person (a misread, 000(j)(1), (n)(8)): the round panel (F10) says which card
            self._put(self.irregularities, f"{LEVEL_MARK[AMBER]} {t.waits.upper()}: CARDS TO CHECK (F10)")
            theme.set_level(self.irregularities, AMBER, filled=True)

    def _show_tray(self, t) -> None:
        tray = t.tray
        if tray is None or tray.expected is None:
            self._put(self.tray, "TRAY NOT OPEN")
            theme.set_level(self.tray, NONE)
        else:
            self._put(self.tray, f"TRAY {theme.money(tray.expected)}")
            theme.set_plain(self.tray)
        n = tray.slips if tray is not None else 0
        self._shown(self.slips, bool(n))
        if n:
            # a fill or credit approved waits for the cage or the table: the supervisor carries it on
            ready = f", {tray.approved} TO SIGN" if tray.approved else ""
            self._put(self.slips, f"{LEVEL_MARK[AMBER]} {n} SLIP{'' if n == 1 else 'S'}{ready}")
            _tip(self.slips, f"{n} fill{'' if n == 1 else 's'} or credit{'' if n == 1 else 's'} on the way; "
                             f"{tray.approved} approved and waiting for a signature (the table's Money tab, Ctrl+T)")
            theme.set_level(self.slips, AMBER, filled=True)

    def _show_pace(self, t) -> None:
        p = t.pace
        self._shown(self.pace, p is not None)
        if p is None:
            return
        self._put(self.pace, pace_words(p))
        _tip(self.pace, f"in the last hour: {p.rounds} rounds, {theme.money(p.wagered)} wagered; "
                        f"{p.seats} seats occupied now; {p.usual_words()}"
                        + ("" if p.whole_hour else "; not judged: the table has not played a whole hour yet"))
        # off its usual pace: bold words and an arrow, not a level colour (no alarm: issue 36)
        bold = bool(p.off)
        if self.pace.font().bold() != bold:
            f = self.pace.font()
            f.setBold(bold)
            self.pace.setFont(f)
            self.pace.setProperty("font_spec", (1.0, bold, False))
        theme.set_text_colour(self.pace, theme.TEXT if p.off else theme.TEXT_DIM)

    def _show_lights(self, t) -> None:
        lights = t.lights
        serials = [light.serial for light in lights]
        if list(self.lights) != serials:
            self._resized = True
            for lb in self.lights.values():
                self.lights_box.removeWidget(lb)
                lb.deleteLater()
            self.lights = {}
            for light in lights:
                lb = _label(1.05, bold=True, name=f"light:{light.cls}")
                lb.setFont(theme.font(1.05 * self.zoom, bold=True))
                self.lights[light.serial] = lb
                self.lights_box.addWidget(lb)
        for light in lights:
            lb = self.lights[light.serial]
            self._put(lb, theme.link_words(light.cls, light.state))
            _tip(lb, f"{light.cls} {light.serial}: {light.state}")
            theme.set_level(lb, theme.LINK_LEVEL.get(light.state, NONE))

    def light(self, cls: str) -> QLabel | None:
        """The light of the table's ``cls`` device (tests, and the status line)."""
        for serial, lb in self.lights.items():
            if lb.objectName() == f"light:{cls}":
                return lb
        return None

    def summary(self) -> str:
        """The tile in one line of words (accessibility, and what a test reads)."""
        parts = [self.table, self.state.text(), self.round.text(), self.bank.text(),
                 f"{self.deck_name.text()} {self.deck.text()}", f"DICE {self.dice.text()}"]
        parts += [lb.text() for lb in self.lights.values()]
        parts += [self.tray.text(), self.meter.text(), self.progressive.text(), self.alarms.text(),
                  self.approvals.text()]
        if not self.slips.isHidden():
            parts.append(self.slips.text())
        if not self.pace.isHidden():
            parts.append(self.pace.text())
        if not self.irregularities.isHidden():
            parts.append(self.irregularities.text())
        return "; ".join(p for p in parts if p)

    # -- keyboard and mouse ----------------------------------------------------------------------
    def keyPressEvent(self, event) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.open_requested.emit(self.table)
            return
        super().keyPressEvent(event)

    def focusInEvent(self, event) -> None:
        self.focused.emit(self.table)
        super().focusInEvent(event)

    def mouseDoubleClickEvent(self, event) -> None:
        self.open_requested.emit(self.table)

    def mousePressEvent(self, event) -> None:
        self.setFocus(Qt.FocusReason.MouseFocusReason)
        super().mousePressEvent(event)
