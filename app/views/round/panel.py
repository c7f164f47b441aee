"""The round panel of a table, in the table view: a round entered as people type it or as a
card-reading shuffler reads it, settled, approved, released with its payout slips; the table's
rounds and slips.

Everything it shows is a readout of the workstation (``RoundDraftInfo``, ``RoundResult``,
``RoundSummary``, ``SlipInfo``: app/workstation/readouts.py). While the panel is shown, the table's
round comes in the bridge's updates (``Update.round``: ``Bridge.watch_round``); a settled round
opened from the Rounds tab and a wager checked as it is typed are reads. Everything a person does is
one workstation call through the bridge (``bridge.act``). Nothing here computes a rule: a field sends
what was typed, and shows the workstation's reason beside it when refused; which fields there are
comes from the draft's ``form`` (the profile's wagers, the banking modes and what each takes).

A field keeps what a person typed until the workstation takes it ("dirty"): a readout arriving
meanwhile does not overwrite it. Cards a shuffler read are shown as read and corrected only
through the correction dialog, which records why.

Tabs: Enter round (a ``PositionRow`` per position under the ``BankBox``) | Settlement
(``ResultView``) | Rounds (history, newest first) | Slips (``SlipsTab``) | As logged.
"""

from __future__ import annotations

from time import perf_counter

from app.engine import words
from app.engine.roles import AT_THE_TABLE
from app.workstation.errors import Refused

from .. import theme
from app.qt import (QAction, QComboBox, QDialog, QFileDialog, QFrame, QGridLayout, QGroupBox, QHBoxLayout, QPlainTextEdit,
                    QPrintDialog, QPushButton, QScrollArea, Qt, QTabWidget, QTimer, QToolButton, QVBoxLayout, QWidget)
from .bank_box import BankBox
from .position_row import PositionRow
from .result_view import ResultView
from .round_messages import MessageArea
from .round_dialogs import (CardPickerDialog, ChooseReadingDialog, CorrectCardsDialog, ReissueSlipDialog,
                            ReleaseDialog, ReopenRoundDialog, VoidSlipDialog)
from .round_models import RoundHistoryModel
from .slips_tab import SlipsTab
from ..theme import AMBER, COLOUR, LEVEL_MARK, NONE, OK, RED
from ..widgets import (Entry, allow, command_button, dollars_text, label, record_view, say, set_refused, visible,
                       why_not_role)

BROADCAST_MS = 60       # after a settlement is shown, the other views hear of it
PANEL_STYLE = (f'QLineEdit[refused="true"] {{ border: 2px solid {COLOUR[RED].name()}; }} '
               f'QLineEdit[disputed="true"] {{ border: 2px solid {COLOUR[AMBER].name()}; }} '
               f'QLineEdit[readOnly="true"] {{ color: {COLOUR[OK].name()}; }}')


class RoundPanel(QWidget):
    """The round panel of one table (``set_table``). ``actions``: the window's round commands
    (new_round, pick_cards, settle, release, discard_round, reopen_round, print_slip, save_slip,
    void_slip, reissue_slip), shown here as buttons so that the menu, the shortcut and the button
    are one command."""

    def __init__(self, bridge, actions: dict[str, QAction] | None = None, session=lambda: None,
                 parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("round_panel")
        self.setStyleSheet(PANEL_STYLE)
        # the window may be made small (a laptop's screen): the panel gives way, the entry scrolls
        self.setMinimumSize(1, 1)
        self.bridge = bridge
        self.actions = actions or {}
        self.session = session
        self.table: str | None = None
        self.draft = None
        self.result = None
        self.rows: dict[int, PositionRow] = {}
        self._sets: dict = {}           # (profile, positions) -> (their box, their rows)
        self._shape = None
        self._shown = False             # the bridge brings the table's round while the panel is shown
        self.reachable = True           # the window shows the panel's table: its commands can act
        self._reading = False           # waiting for the table's rounds and slips it asked for
        self.dialog = None
        self.settle_pressed: float | None = None      # perf_counter() at Settle, and when its ledger was shown
        self.settle_shown: float | None = None
        self._logged_shown: int | None = None   # the settlement whose JSON the As logged tab holds

        # -- the top: where the round stands, and the commands
        self.badge = label("", 1.3, bold=True, name="round_badge")
        self.badge.setMargin(6)
        corner = QWidget()
        corner.setObjectName("round_commands")
        bar = QHBoxLayout(corner)
        bar.setContentsMargins(0, 0, 0, 2)
        self.buttons: dict[str, QToolButton] = {}
        for name in ("new_round", "pick_cards", "settle", "release", "discard_round"):
            a = self.actions.get(name)
            if a is None:
                continue
            b = command_button(a, name, 1.1, bold=name == "settle")
            bar.addWidget(b)
            self.buttons[name] = b
        # every message in one fixed place of a fixed height: nothing under it moves when one comes or goes
        self.messages = MessageArea(self)
        m = self.messages
        self.message, self.returned, self.waiting, self.problems = m.message, m.returned, m.waiting, m.problems

        # -- Enter round
        self.empty = label("", 1.2, name="round_empty", wrap=True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        theme.set_dim(self.empty)
        self.bank = BankBox(self)
        self.meter = Entry("meter", 9)
        self.meter.editingFinished.connect(self._round_info_done)
        self.rng = QComboBox()
        self.rng.setObjectName("rng_number")
        self.rng.addItem("—", None)
        for n in range(1, 8):
            self.rng.addItem(str(n), n)
        self.rng.currentIndexChanged.connect(lambda _=None: self._round_info_done(force=True))
        self.info_box = QGroupBox("Round")
        info = QGridLayout(self.info_box)
        self.meter_label = label("Progressive meter at the start")
        self.meter_label.setBuddy(self.meter)
        self.rng_label = label("RNG number (additional wagers)")
        self.rng_label.setBuddy(self.rng)
        self.info_reason = label("", 0.95, bold=True, name="round_info_reason", wrap=True)
        theme.set_level(self.info_reason, RED)
        self.info_reason.hide()
        info.addWidget(self.meter_label, 0, 0)
        info.addWidget(self.meter, 0, 1)
        info.addWidget(self.rng_label, 1, 0)
        info.addWidget(self.rng, 1, 1)
        info.addWidget(self.info_reason, 2, 0, 1, 3)
        info.setColumnStretch(2, 1)
        self.rows_box = QVBoxLayout()
        self.rows_box.setSpacing(6)
        form = QWidget()
        form.setObjectName("round_form")
        fbox = QVBoxLayout(form)
        fbox.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        top.addWidget(self.bank, 3)
        top.addWidget(self.info_box, 2)
        fbox.addLayout(top)
        fbox.addLayout(self.rows_box)
        fbox.addStretch(1)
        self.form_widget = form
        self.scroll = QScrollArea()
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setWidget(form)
        entry = QWidget()
        ebox = QVBoxLayout(entry)
        ebox.setContentsMargins(0, 0, 0, 0)
        ebox.addWidget(self.badge)
        ebox.addWidget(self.empty)
        ebox.addWidget(self.scroll, 1)
        self.entry = entry

        # -- Settlement, Rounds, Slips, As logged
        self.result_view = ResultView(reopen=self.actions.get("reopen_round"))
        self.history = RoundHistoryModel(self)
        self.history_view = record_view(self.history, "round_history")
        self.history_view.activated.connect(lambda index: self.open_round(self.history.record(index.row()).settlement))
        open_button = QPushButton("&Open the selected round")
        open_button.setObjectName("open_round")
        open_button.clicked.connect(self._open_selected)
        hist = QWidget()
        hbox = QVBoxLayout(hist)
        hbox.addWidget(label("The table's rounds, newest first. Enter (or a double click) opens one as it was logged.",
                             1.0, wrap=True))
        hbox.addWidget(self.history_view, 1)
        hbox.addWidget(open_button, 0, Qt.AlignmentFlag.AlignLeft)
        self.slips_tab = SlipsTab(self, self.actions)
        self.slip_model, self.slip_view = self.slips_tab.model, self.slips_tab.view
        self.logged = QPlainTextEdit()
        self.logged.setObjectName("as_logged")
        self.logged.setReadOnly(True)
        self.logged.setFont(theme.font(1.0, mono=True))

        self.tabs = QTabWidget()
        self.tabs.setObjectName("round_tabs")
        self.tabs.addTab(entry, "&Enter round")
        self.tabs.addTab(self.result_view, "Se&ttlement")
        self.tabs.addTab(hist, "R&ounds")
        self.tabs.addTab(self.slips_tab, "Sl&ips")
        self.tabs.addTab(self.logged, "As &logged")
        self.tabs.currentChanged.connect(lambda _=None: self._tab_changed())

        box = QVBoxLayout(self)
        box.setContentsMargins(4, 4, 4, 4)
        box.setSpacing(4)
        # the commands sit in the tab bar's corner: every line of height goes to the round
        self.tabs.setCornerWidget(corner, Qt.Corner.TopRightCorner)
        box.addWidget(self.messages)
        box.addWidget(self.tabs, 1)
        bridge.changed.connect(self._on_update)
        self._show_draft(None)

    # -- which table, and what the bridge brings of it ---------------------------------------------
    def set_table(self, table: str | None) -> None:
        if table == self.table:
            return
        self.table = table
        self.draft = self.result = None
        self._clear_rows()
        self.history.set_records([])
        self.slips_tab.clear()
        self.logged.clear()
        self._logged_shown = None
        self.result_view.clear()
        self.tabs.setCurrentWidget(self.entry)
        self.tell("", None)
        self._show_draft(None)
        self._reading = self._shown and table is not None      # another table: all of it comes
        self._watch()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self._shown:
            self._shown = True
            self._reading = self.table is not None             # shown again: all of it comes
            self._watch()

    def hideEvent(self, event) -> None:
        super().hideEvent(event)
        if self._shown:
            self._shown = self._reading = False
            self._watch()

    def _watch(self) -> None:
        """Tell the bridge what the panel looks at: its table's round while it is shown, and the
        settled round open in it."""
        self.bridge.watch_round(self._shown, self.result.settlement if self.result is not None else None)

    def _reread(self, soon: bool = False) -> None:
        """The table's rounds and slips (and the settled round open) come again with the next
        update, a person's action having changed them; ``soon``: that update comes now."""
        self._reading = self._shown and self.table is not None
        self.bridge.reread_round(soon)

    def _on_update(self, u) -> None:
        """The bridge's one signal: the table's round, when the update carries it."""
        if self.table is None:
            return
        if u.round is not None and u.round.table == self.table:
            self._show_round(u.round)
        elif u.changes.session:
            self.enable_commands()

    def _show_round(self, r) -> None:
        """The round being entered, and the table's rounds, slips and the settled round open when
        they came (``TableRound``, app/views/bridge.py)."""
        if r.error:
            self._reading = False
            self.tell(f"{LEVEL_MARK[RED]} reading the round failed: {r.error}", RED)
            return
        self._show_draft(r.draft)
        if r.rounds is not None:
            self._reading = False
            self.history.set_records(r.rounds)
            self.slips_tab.show_book(r.slips)
        if r.result is not None and self.result is not None and r.result.settlement == self.result.settlement:
            self._show_result(r.result)
        self.enable_commands()

    # -- the round being entered ----------------------------------------------------------------
    def _clear_rows(self) -> None:
        """Another table: its rows are shown afresh (the rows of a profile are kept, and emptied)."""
        self._shape = None

    def _rows_for(self, d) -> None:
        """The rows of the draft's positions and form. A profile's rows are built once and kept
        (a table's rows are emptied when another table of the same profile is shown): switching
        tables does not rebuild a hundred fields."""
        # the form is the profile's: the profile and the positions name the rows
        shape = (d.profile, tuple((p.position, p.name) for p in d.positions))
        if shape == self._shape:
            return
        for key, (box, _) in self._sets.items():
            if key != shape and not box.isHidden():
                box.hide()
        got = self._sets.get(shape)
        if got is None:
            box = QWidget()
            lay = QVBoxLayout(box)
            lay.setContentsMargins(0, 0, 0, 0)
            lay.setSpacing(6)
            rows = {}
            for p in d.positions:
                rows[p.position] = PositionRow(self, p.position, p.name, d.form)
                lay.addWidget(rows[p.position])
            self.rows_box.addWidget(box)
            self._sets[shape] = got = (box, rows)
        else:
            for row in got[1].values():
                row.reset()
        visible(got[0], True)
        self.rows = got[1]
        self._shape = shape

    def _show_draft(self, d) -> None:
        self.draft = d
        if d is None:
            t = self.table
            self.empty.setText(f"No round is being entered at {t}. New round (Ctrl+N) starts one; a card-reading "
                               "shuffler's hands start one by themselves." if t else "No table open.")
            visible(self.empty, True)
            visible(self.scroll, False)
            say(self.badge, f"{LEVEL_MARK[NONE]} NO ROUND BEING ENTERED · New round: Ctrl+N", NONE)
            self.messages.say(self.problems, "", None)
            self.messages.say(self.returned, "", None)
            self.messages.say(self.waiting, "", None)
            self.enable_commands()
            return
        visible(self.empty, False)
        visible(self.scroll, True)
        self._rows_for(d)
        self.bank.show_banking(d.banking, d.form)
        visible(self.meter_label, d.form.progressive)
        visible(self.meter, d.form.progressive)
        self.meter.show_value(dollars_text(d.progressive_meter))
        visible(self.rng_label, d.form.rng)
        visible(self.rng, d.form.rng)
        visible(self.info_box, d.form.progressive or d.form.rng)
        if d.form.rng:
            self.rng.blockSignals(True)
            self.rng.setCurrentIndex(max(0, self.rng.findData(d.rng_number)))
            self.rng.blockSignals(False)
        wagers = {s.seat: s for s in d.seats}
        for p in d.positions:
            self.rows[p.position].show_position(p, wagers.get(p.position))
        if d.problems:
            say(self.badge, f"{LEVEL_MARK[RED]} ROUND {d.round}: SETTLE BLOCKED", RED, filled=True)
            self.messages.say(self.problems, f"Round {d.round}: Settle waits for a person:\n"
                              + "\n".join(f"{LEVEL_MARK[RED]} {p}" for p in d.problems), RED)
        elif not d.in_round:
            say(self.badge, f"{LEVEL_MARK[NONE]} ROUND {d.round}: BEING ENTERED · NO SEAT IN THE ROUND YET", NONE)
            self.messages.say(self.problems, "", None)
        else:
            say(self.badge, f"{LEVEL_MARK[OK]} ROUND {d.round}: BEING ENTERED · READY TO SETTLE (F11)", OK)
            self.messages.say(self.problems, "", None)
        self.messages.say(self.returned, f"{LEVEL_MARK[AMBER]} SENT BACK: {d.returned}" if d.returned else "", AMBER)
        # a deal the shuffler read meanwhile waits: said once, here, until it comes up
        self.messages.say(self.waiting, f"{LEVEL_MARK[AMBER]} A NEW DEAL WAITS: {d.waiting}" if d.waiting else "",
                          AMBER)
        self.enable_commands()

    def set_reachable(self, on: bool) -> None:
        """Whether the window shows this panel's table (the table view): elsewhere its commands
        are disabled, saying so. The window calls it after each update (who is signed in)."""
        self.reachable = on
        self.enable_commands()

    def why_not(self, roles: tuple[str, ...], what: str) -> str:
        """Why a round command cannot act for anyone now: no table shown, nobody signed in, a role
        that may not ('' when it can)."""
        if not self.reachable or self.table is None:
            return "Open a table's round panel first (F3 for the table, F10 for its round)"
        return why_not_role(self.session(), roles, what)

    def enable_commands(self) -> None:
        """Each command usable, or disabled saying why (the window's tooltip and menu)."""
        a, d, r = self.actions, self.draft, self.result
        entering = self.why_not(AT_THE_TABLE, "enter a round")
        no_round = "" if d is not None else "No round is being entered: New round (Ctrl+N) starts one"
        states = {
            "new_round": entering,
            "pick_cards": entering or no_round,
            "discard_round": entering or no_round,
            "settle": self.why_not(AT_THE_TABLE, "settle a round") or no_round
            or ("Settle waits for a person: see the problems above" if d.problems else "")
            or ("" if d.in_round else "No seat is in the round yet: type a seat's wager"),
            "release": self.why_not(AT_THE_TABLE, "release a round's payouts")
            or ("" if r is not None and r.status == "ready" else
                "No settled round ready to release: settle one, or open one whose approvals are approved"),
        }
        sent_back = r is not None and r.status == "denied"
        states["reopen_round"] = entering or ("" if sent_back else "Open a round a denial sent back (Rounds tab)") \
            or ("It is being entered again" if d is not None and d.replaces == r.settlement else "")
        for name, why in states.items():
            if name in a:
                allow(a[name], why)
        self.slips_tab.enable(a)
        if self.result_view.reopen is not None:
            visible(self.result_view.reopen, sent_back)

    # -- sending what was typed ---------------------------------------------------------------
    def _refused(self, on_fields=None):
        """What a refusal does: the workstation's reason beside the fields of the entry it refused
        (a card used twice, a wager over the limit, a seat the procedures do not let bank), else in
        the message line (nobody signed in, a role that may not, the log stopped)."""
        def failed(error):
            if on_fields is not None and isinstance(error, Refused):
                on_fields(getattr(error, "fields", None) or {}, str(error))
            else:
                self.tell(f"{LEVEL_MARK[RED]} {error}", RED)
        return failed

    def send(self, fields: tuple[str, ...], position: int, work, edits) -> None:
        """``work(ws, table)`` for a position; its refusal beside ``fields``."""
        table = self.table
        row = self.rows.get(position)

        def ok(_):
            if row is not None and self.rows.get(position) is row:
                row.accepted(fields)
            self.tell("", None)

        def on_fields(reasons, message):
            if row is None or self.rows.get(position) is not row:
                return
            if reasons:
                for f, r in reasons.items():
                    row.set_reason(f if f in row.entries() or f == "set" else fields[0], r)
            else:
                row.set_reason(fields[0], message.removeprefix(f"table {table}: "))
        self.bridge.act(lambda ws: work(ws, table), ok, self._refused(on_fields))

    def send_cards(self, position: int, text: str, final: bool) -> None:
        table, row = self.table, self.rows.get(position)

        def ok(_):
            if row is not None and self.rows.get(position) is row:
                if final and " ".join(row.cards.text().split()) == " ".join(text.split()):
                    row.cards.dirty = False
                row.set_reason("cards", None)

        def on_fields(reasons, message):
            if row is not None and self.rows.get(position) is row:
                row.set_reason("cards", message.removeprefix(f"table {table}: "))
        self.bridge.act(lambda ws: ws.rounds.set_cards(table, position, text), ok, self._refused(on_fields))

    def send_set(self, position: int, high: str, low: str) -> None:
        self.send(("set",), position, lambda ws, t: ws.rounds.set_hands(t, position, high, low), [])

    def send_wagers(self, position: int, texts: dict[str, str]) -> None:
        self.send(tuple(texts), position, lambda ws, t: ws.rounds.set_wagers(t, position, texts), [])

    def check_wager(self, position: int, wager: str, text: str) -> None:
        """A wager as it is typed: the workstation's reason beside it, nothing taken."""
        table, row = self.table, self.rows.get(position)

        def shown(check):
            if row is not None and self.rows.get(position) is row and row.wagers[wager].text() == text:
                row.set_reason(wager, check.reason)
        self.bridge.read(lambda ws: ws.rounds.check_wager(table, position, wager, text), shown, lambda e: None)

    def send_banking(self, mode: str, seat: int | None, kw: dict) -> None:
        table = self.table

        def ok(_):
            self.bank.accepted()
            self.tell("", None)

        def on_fields(reasons, message):
            if reasons:
                self.bank.set_reasons(reasons)
            else:
                # the procedures' refusal of the seat (000(m)(2)-(4), 003 PLAYER BANK 1-2)
                where = "seat" if seat is not None else "mode"
                self.bank.set_reasons({where: message.removeprefix(f"table {table}: ")})
        self.bridge.act(lambda ws: ws.rounds.set_banking(table, mode, seat, **kw), ok, self._refused(on_fields))

    def _round_info_done(self, force: bool = False) -> None:
        if not (self.meter.dirty or force) or self.draft is None:
            return
        table = self.table
        meter = self.meter.text() if self.draft.form.progressive and self.meter.dirty else None
        rng = self.rng.currentData() if self.draft.form.rng else None

        def ok(_):
            self.meter.dirty = False
            set_refused(self.meter, False)
            say(self.info_reason, "", RED)

        def on_fields(reasons, message):
            set_refused(self.meter, "progressive_meter" in reasons)
            say(self.info_reason, f"{LEVEL_MARK[RED]} {message.removeprefix(f'table {table}: ')}", RED)
        self.bridge.act(lambda ws: ws.rounds.set_round_info(table, meter, rng), ok, self._refused(on_fields))

    # -- the commands ------------------------------------------------------------------------------
    def new_round(self) -> None:
        if self.table is None:
            return
        table = self.table
        self.tabs.setCurrentWidget(self.entry)
        self.bridge.act(lambda ws: ws.rounds.start(table), lambda _: self._focus_first(), self._refused())

    def _focus_first(self) -> None:
        self.tell("", None)
        row = self.rows.get(0) or next(iter(self.rows.values()), None)
        if row is not None:
            row.cards.setFocus()

    def discard_round(self) -> None:
        if self.table is None:
            return
        table = self.table
        self.bridge.act(lambda ws: ws.rounds.discard(table),
                        lambda _: self.tell(f"{LEVEL_MARK[NONE]} The round being entered at {table} was discarded.",
                                            NONE), self._refused())

    def use_house_way(self, position: int) -> None:
        self.send(("set",), position, lambda ws, t: ws.rounds.use_house_way(t, position), [])

    def pick_cards(self, position: int | None = None) -> None:
        if self.draft is None or self.table is None:
            return
        if position is None:
            focused = next((p for p, r in self.rows.items() if r.isAncestorOf(self.focusWidget() or self)), None)
            position = focused
        d = CardPickerDialog(self.bridge, self.table, self.draft, position, self)
        self.open_dialog(d)

    def correct_cards(self, position: int) -> None:
        row = self.rows.get(position)
        if row is None or row.info is None or self.table is None:
            return
        self.open_dialog(CorrectCardsDialog(self.bridge, self.table, row.info, self.session(), self))

    def choose_reading(self, position: int, use: str) -> None:
        """``use`` (``reading`` or ``typed``) at a position whose typed cards the shuffler's reading
        disagrees with: a dialog asks why, then the workstation logs the choice."""
        row = self.rows.get(position)
        if row is None or row.info is None or row.info.reading is None or self.table is None:
            return
        d = ChooseReadingDialog(self.bridge, self.table, row.info, use, self.session(), self)
        d.accepted.connect(lambda: self._chosen(row, use))
        self.open_dialog(d)

    def _chosen(self, row: PositionRow, use: str) -> None:
        what = "the shuffler's reading plays" if use == "reading" else "the cards typed play"
        self.tell(f"{LEVEL_MARK[OK]} {row.info.name.capitalize() if row.info else ''}: {what} (logged, with the "
                  "reason).", OK)
        if self.rows.get(row.position) is row:
            row.cards.setFocus()

    def settle(self) -> None:
        if self.table is None:
            return
        table = self.table
        self.settle_pressed, self.settle_shown = perf_counter(), None
        self.bridge.act(lambda ws: ws.rounds.settle(table), lambda out: self._settled(table, out), self._refused())

    def _settled(self, table: str, out) -> None:
        r = out.result
        self._show_result(r)
        self.tabs.setCurrentWidget(self.result_view)
        self.settle_shown = perf_counter()
        self.tell("", None)
        # the other views read back what the settlement changed (the tile, the approvals queue),
        # once the settlement is on the screen: their redrawing would otherwise come first
        self._broadcast(out.changes)

    def _broadcast(self, changes, book: bool = True) -> None:
        """The bridge reads back what ``changes`` changed for every view (an ``Update``, with this
        table's rounds and slips when ``book``), after ``BROADCAST_MS``: the settlement is painted
        first."""
        def tell():
            if book:
                self._reread()
            self.bridge.act(lambda ws: changes)
        QTimer.singleShot(BROADCAST_MS, self, tell)

    def release(self) -> None:
        r = self.result
        if r is None:
            self.tell(f"{LEVEL_MARK[RED]} Settle a round, or open one from the table's rounds, to release "
                      "its payouts.", RED)
            return
        if any(p.slip_reason for p in r.payouts):
            d = ReleaseDialog(self.bridge, r, self.session(), self)
            d.accepted.connect(lambda d=d: self._released(d.result_value))
            self.open_dialog(d)
            return
        settlement = r.settlement
        self.bridge.act(lambda ws: ws.rounds.release(settlement), self._released, self._refused())

    def _released(self, out) -> None:
        self._show_result(out.result)
        self.tabs.setCurrentWidget(self.result_view)
        slips = [p.slip for p in out.result.payouts if p.slip is not None]
        self.tell(f"{LEVEL_MARK[OK]} Round {out.result.round} released"
                  + (f": payout slip{'s' if len(slips) > 1 else ''} {', '.join(map(str, slips))}" if slips
                     else "") + ".", OK)
        self._broadcast(out.changes)

    def open_round(self, settlement: int) -> None:
        def shown(r):
            self._show_result(r)
            self.tabs.setCurrentWidget(self.result_view)
        self.bridge.read(lambda ws: ws.rounds.result(settlement), shown, self._refused())

    def _open_selected(self) -> None:
        rows = self.history_view.selectionModel().selectedRows()
        if rows:
            self.open_round(self.history.record(rows[0].row()).settlement)

    def _show_result(self, r) -> None:
        self.result = r
        self._watch()
        self.result_view.show_result(r)
        self._logged_shown = None
        if self.tabs.currentWidget() is self.logged:
            self._show_logged()
        self.enable_commands()

    def _tab_changed(self) -> None:
        if self.tabs.currentWidget() is self.logged:
            self._show_logged()
        self.enable_commands()

    def _show_logged(self) -> None:
        """The settlement as logged, every field of it in words (amounts in dollars, not its JSON's
        cents, issue 33, 5; ``pitdesk settle`` prints the JSON), laid out only when its tab is looked
        at (a long document's layout would otherwise hold up the settlement's first paint)."""
        r = self.result
        if r is not None and self._logged_shown != r.settlement:
            self._logged_shown = r.settlement
            self.logged.setPlainText(words.outline(r.logged))

    # -- payout slips (the Slips tab) -------------------------------------------------------------
    def selected_slip(self):
        return self.slips_tab.selected()

    def select_slip(self, number: int) -> bool:
        return self.slips_tab.select(number)

    def save_slip(self, path: str | None = None) -> QFileDialog | None:
        """The selected slip as a PDF at ``path``, or where a person chooses (Save slip as PDF)."""
        return self.slips_tab.save_pdf(path)

    def print_slip(self) -> QPrintDialog | None:
        return self.slips_tab.print_slip()

    @property
    def print_dialog(self) -> QPrintDialog | None:
        return self.slips_tab.print_dialog

    def void_slip(self) -> None:
        slip = self.selected_slip()
        if slip is not None and slip.status != "VOID":
            d = VoidSlipDialog(self.bridge, slip, self.session(), self)
            d.accepted.connect(lambda: self._reread(soon=True))
            self.open_dialog(d)

    def reissue_slip(self) -> None:
        """The selected void slip's payout gets a new slip, numbered next (with a PIN, and the W-2G
        data again where the void slip carried it); the new slip is selected once read back."""
        slip = self.selected_slip()
        if slip is None or slip.status != "VOID":
            self.tell(f"{LEVEL_MARK[RED]} Select a void slip (Slips tab) to issue its payout a new slip.", RED)
            return
        d = ReissueSlipDialog(self.bridge, slip, self.session(), self)
        d.accepted.connect(lambda d=d, number=slip.number: self._reissued(number, *d.result_value))
        self.open_dialog(d)

    def _reissued(self, old: int, changes, new: int) -> None:
        self.slips_tab.select_later = new
        self.tabs.setCurrentWidget(self.slips_tab)
        self.tell(f"{LEVEL_MARK[OK]} Void slip {old:06d} issued again as payout slip {new:06d}.", OK)
        self._broadcast(changes, book=False)
        self._reread(soon=True)

    def reopen_round(self) -> None:
        """The round shown, which a denial sent back, entered again at its table (with a PIN)."""
        r = self.result
        if r is None or r.status != "denied":
            self.tell(f"{LEVEL_MARK[RED]} Open a round a denial sent back (Rounds tab: ■ SENT BACK) to "
                      "enter it again.", RED)
            return
        d = ReopenRoundDialog(self.bridge, r, self.session(), self)
        d.accepted.connect(lambda r=r: self._reopened(r))
        self.open_dialog(d)

    def _reopened(self, r) -> None:
        self.tabs.setCurrentWidget(self.entry)
        self.tell(f"{LEVEL_MARK[OK]} Round {r.round} at {r.table} is being entered again: correct it and "
                  "settle it (F11).", OK)
        self._reread(soon=True)

    # -- for its parts ------------------------------------------------------------------------------
    def tell(self, text: str, level: str | None = None) -> None:
        """The panel's message line (in the fixed message area)."""
        self.messages.say(self.message, text, level)

    def open_dialog(self, d) -> None:
        """``d`` opened window-modal without blocking the event loop (the bridge keeps pumping)."""
        self.dialog = d
        d.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        d.finished.connect(lambda _=None, d=d: self._dialog_closed(d))
        QDialog.open(d)

    def _dialog_closed(self, d) -> None:
        if self.dialog is d:
            self.dialog = None
