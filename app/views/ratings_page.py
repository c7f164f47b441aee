"""The Ratings view (issue 36, docs/ratings.md): the rated players, from the rounds they sat in.

Seated now, this shift or the last shift; each sitting (a card at one table) or each player
(their sittings added); every table or one. The figures are the workstation's
(``Ratings.listing``, app/workstation/desks/ratings.py, the same as ``pitdesk ratings``), read
off the GUI thread when the view is shown, when a choice changes, and while it is shown when a
round was settled or a table's events changed, at most once every ``REFRESH_MS``. The commands
(rate a player, move, stand up, correct, export) are the Players menu's, as buttons here too.
"""

from __future__ import annotations

from . import theme
from .records import Column, RecordModel, RecordRole
from app.qt import QComboBox, QHBoxLayout, QStackedWidget, QTimer, QVBoxLayout, QWidget
from .theme import LEVEL_MARK, NONE, OK, RED, money
from app.engine.words import when

from .widgets import command_button, label, record_view

REFRESH_MS = 3000
SCOPES = (("seated", "Seated now"), ("shift", "This shift"), ("last_shift", "Last shift"))
GROUPS = (("rating", "Each sitting"), ("player", "Each player"))
EVERY_TABLE = "Every table"


def _theo(r: dict) -> str:
    band = r.get("theoretical_interval_95")
    return money(r["theoretical"]) + (f" ({money(band[0])} to {money(band[1])})" if band else "")


_FIGURES = (
    Column("Rounds", lambda r: f"{r['rounds']:,}", sort=lambda r: r["rounds"], numeric=True),
    Column("Minutes", lambda r: f"{r['minutes']:,}", sort=lambda r: r["minutes"], numeric=True),
    Column("Wagered", lambda r: money(r["wagered"]), sort=lambda r: r["wagered"], numeric=True, bold=True),
    Column("Average", lambda r: money(r["average_wager"]), sort=lambda r: r["average_wager"], numeric=True),
    Column("Actual", lambda r: money(r["actual"]), sort=lambda r: r["actual"], numeric=True,
           tip=lambda r: "what the player lost at the table (negative: won)"),
    Column("Theoretical", _theo, sort=lambda r: r["theoretical"], numeric=True, bold=True, stretch=True,
           tip=lambda r: "each wager times its house edge in the table's rules"
                         + ("; the base game's an estimate, its 95% interval beside it"
                            if r.get("theoretical_interval_95") else "")),
)


def sitting_status(r: dict) -> str:
    return f"{LEVEL_MARK[OK]} SEATED" if r["ended"] is None else f"{LEVEL_MARK[NONE]} left {when(r['ended'])[11:]}"


class SittingModel(RecordModel):
    columns = (
        Column("Status", sitting_status, level=lambda r: OK if r["ended"] is None else NONE, bold=True),
        Column("Card", lambda r: r["player"], bold=True),
        Column("Name", lambda r: r["name"] or ("bettor " + r["bettor"] if r["bettor"] else "")),
        Column("Table", lambda r: r["table"]),
        Column("Seat", lambda r: str(r["seat"]) + (f" ({r['bettor']})" if r["bettor"] else ""),
               sort=lambda r: r["seat"], numeric=True),
        Column("Since", lambda r: when(r["started"])[11:], sort=lambda r: r["started"]),
    ) + _FIGURES + (
        Column("Corrected", lambda r: "; ".join(f"{c['field']} by {c['by']}: {c['why']}" for c in r["corrections"]),
               done=True),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda r: r["rating"], parent=parent)


class PlayerModel(RecordModel):
    columns = (
        Column("Card", lambda r: r["player"], bold=True),
        Column("Name", lambda r: r["name"]),
        Column("Tables", lambda r: ", ".join(r["tables"])),
        Column("Sittings", lambda r: str(r["sessions"]), sort=lambda r: r["sessions"], numeric=True),
    ) + _FIGURES

    def __init__(self, parent=None):
        super().__init__(key=lambda r: r["player"], parent=parent)


class RatingsPage(QWidget):
    def __init__(self, bridge, floor=lambda: (), commands=None, parent: QWidget | None = None):
        """``floor``: the floor's tables in its order; ``commands``: the Players menu's actions,
        shown as buttons."""
        super().__init__(parent)
        self.setObjectName("ratings")
        self.bridge = bridge
        self.floor = floor
        self.listing: dict | None = None
        self.stale = True
        self.reading = False
        self.reads = 0                  # listings shown (tests wait on it)
        self.timer = QTimer(self)
        self.timer.setObjectName("ratings refresh")
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.refresh)

        self.title = label("Player ratings", 1.8, True, "title")
        self.scope = self._combo("scope", SCOPES, "whose ratings: those seated now (each over their whole "
                                                  "sitting), or a shift's (their figures within it)")
        self.group = self._combo("group", GROUPS, "one line per sitting at a table, or per player's card")
        self.table = QComboBox()
        self.table.setObjectName("table")
        self.table.setFont(theme.font(1.1))
        self.table.addItem(EVERY_TABLE, None)
        self.table.currentIndexChanged.connect(self._changed)
        self.words = label("", 1.1, True, "words", wrap=True)
        theme.set_dim(self.words)
        self.status = label("", 1.1, False, "status")
        top = QHBoxLayout()
        top.addWidget(self.title)
        top.addSpacing(16)
        for w in (self.scope, self.group, self.table):
            top.addWidget(w)
        top.addWidget(self.words, 1)
        top.addWidget(self.status)

        self.sittings = SittingModel(self)
        self.players = PlayerModel(self)
        self.sittings_view = record_view(self.sittings, "rating_sittings")
        self.players_view = record_view(self.players, "rating_players")
        self.stack = QStackedWidget()
        for view, model in ((self.sittings_view, self.sittings), (self.players_view, self.players)):
            view.setFont(theme.font(1.1))
            model.set_font_scale(1.1)
            self.stack.addWidget(view)
        buttons = QHBoxLayout()
        for name, action in (commands or {}).items():
            buttons.addWidget(command_button(action, name, 1.1))
        buttons.addStretch(1)
        box = QVBoxLayout(self)
        box.setContentsMargins(12, 8, 12, 8)
        box.addLayout(top)
        box.addWidget(self.stack, 1)
        box.addLayout(buttons)

    def _combo(self, name: str, items, tip: str) -> QComboBox:
        c = QComboBox()
        c.setObjectName(name)
        c.setFont(theme.font(1.1))
        for key, text in items:
            c.addItem(text, key)
        c.setToolTip(tip)
        c.currentIndexChanged.connect(self._changed)
        return c

    # -- live ---------------------------------------------------------------------------------
    def activate(self, on: bool) -> None:
        """The view is shown (``on``) or not: it reads, and its timer runs, only while it is."""
        if on and not self.timer.isActive():
            tables = list(self.floor())
            if self.table.count() != len(tables) + 1:
                self.table.blockSignals(True)
                for t in tables:
                    self.table.addItem(t, t)
                self.table.blockSignals(False)
            self.stale = True
            self.timer.start()
            self.refresh()
            self.stack.currentWidget().setFocus()
        elif not on:
            self.timer.stop()

    def on_update(self, u) -> None:
        c = u.changes
        if u.first or c.rounds or c.tables:
            self.stale = True

    def again(self) -> None:
        """Read again now (a command changed a rating)."""
        self.stale = True
        self.refresh()

    def _changed(self) -> None:
        self.stack.setCurrentIndex(self.group.currentIndex())
        self.stale = True
        self.refresh()

    def refresh(self) -> None:
        if self.reading or not self.stale or not self.timer.isActive():
            return
        self.stale = False
        self.reading = True
        scope, table = self.scope.currentData(), self.table.currentData()
        self.bridge.read(lambda ws: ws.ratings.listing(scope, table), self._got, self._failed)

    def _failed(self, error: BaseException) -> None:
        self.reading = False
        self.status.setText(f"{LEVEL_MARK[RED]} could not read the ratings: {error}")
        theme.set_level(self.status, RED)

    def _got(self, listing: dict) -> None:
        self.reading = False
        self.listing = listing
        self.sittings.set_records(listing["sittings"])
        self.players.set_records(listing["players"])
        seated = sum(1 for r in listing["sittings"] if r["ended"] is None)
        theo = sum(p["theoretical"] for p in listing["players"])
        self.words.setText(f"{listing['words']} · {len(listing['players'])} player"
                           f"{'' if len(listing['players']) == 1 else 's'}, {seated} seated · theoretical "
                           f"{money(theo)}")
        self.status.setText("")
        theme.set_plain(self.status)
        self.reads += 1
        self.selection_changed()
        if self.stale:          # a choice changed while this was read: read the new one now
            self.refresh()

    # -- the commands' side ----------------------------------------------------------------------
    def selected(self) -> dict | None:
        """The sitting chosen in the list (None: none, or the players are shown)."""
        if self.stack.currentWidget() is not self.sittings_view:
            return None
        index = self.sittings_view.currentIndex()
        return index.data(RecordRole) if index.isValid() else None

    def selection_changed(self) -> None:
        """The window enables the commands that act on a chosen sitting (set by the window)."""

    def choose(self, scope: str | None = None, group: str | None = None, table: str | None = None) -> None:
        """Choose what is listed (tests, and the window)."""
        for combo, value in ((self.scope, scope), (self.group, group)):
            if value is not None:
                combo.setCurrentIndex(combo.findData(value))
        if table is not None:
            self.table.setCurrentIndex(max(0, self.table.findData(table)))


__all__ = ["RatingsPage", "SCOPES", "GROUPS", "REFRESH_MS"]
