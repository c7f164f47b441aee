"""The main window: one view at a time (the floor, a table with its round panel, the alarms, the
approvals, the progressive meters, the logs, the hold, the shift report), the menus and the status bar.

Everything the window shows arrives in the bridge's one ``changed`` signal (app/views/bridge.py)
and everything a person does is a QAction with a shortcut, in a menu, listed by Help > Shortcuts
from those same actions. The window remembers its geometry and the view that was open
(QSettings). A key or a click anywhere keeps the signed-in session alive; the workstation signs
it out after the idle time and the status bar says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.engine.roles import ADMINISTRATION, SUPERVISORS

from . import theme
from .bridge import Bridge, Update
from .dialogs import AcknowledgeDialog, DecideDialog, FirstAdministratorDialog, SignInDialog, UsersDialog
from .floor_view import FloorView
from .hold_view import HoldPage
from .lists import AlarmsPage, ApprovalsPage
from .money_commands import MONEY_COMMANDS, MoneyCommands
from .logs_page import LogsPage
from .pit_models import ShortcutModel
from .progressive_view import ProgressivePage
from .protection_page import ProtectionPage
from .rating_commands import RATING_COMMANDS, RatingCommands
from .ratings_page import RatingsPage
from .reports_page import ReportsPage
from .round.panel import RoundPanel
from app.qt import (QAction, QByteArray, QDialog, QDialogButtonBox, QEvent, QGuiApplication, QKeySequence, QLabel,
                 QMainWindow, QMessageBox, QRect, QSettings, QStackedWidget, Qt, QTimer, QVBoxLayout, QWidget,
                 Signal)
from .table_page import TablePage
from .theme import AMBER, LEVEL_MARK, NONE, OK, RED
from .widgets import allow, command_button, record_view, why_not_role

VIEWS = ("floor", "table", "alarms", "approvals", "progressive", "logs", "hold", "reports", "ratings",
         "protection")
# the round panel's commands (app/views/round/panel.py): its methods of the same names
ROUND_COMMANDS = ("new_round", "pick_cards", "settle", "release", "discard_round", "reopen_round", "print_slip",
                  "save_slip", "void_slip", "reissue_slip")


@dataclass(frozen=True)
class Command:
    name: str
    menu: str
    text: str
    shortcut: str
    what: str
    checkable: bool = False


# Every command of the window. The shortcuts are single keys where a supervisor's hand is full
# of chips: function keys for the views and the decisions.
COMMANDS = (
    Command("sign_in", "&File", "&Sign in…", "F9", "sign in with your name and PIN"),
    Command("sign_out", "&File", "Sign &out", "F12", "sign out now (also after the idle time)"),
    Command("users", "&File", "&Users…", "Ctrl+U", "add users, set roles, lock and unlock accounts (administrator)"),
    Command("quit", "&File", "&Quit", "Ctrl+Q", "close the window: links, devices and the log are closed"),
    Command("floor", "&View", "&Floor", "F2", "the floor overview: one tile per table"),
    Command("table", "&View", "&Table", "F3", "the table chosen on the floor (Enter on a tile)"),
    Command("alarms", "&View", "&Alarms", "F4", "every alarm waiting for acknowledgement"),
    Command("approvals", "&View", "A&pprovals", "F5", "the approvals queue"),
    Command("progressive", "&View", "Pro&gressive meters", "Ctrl+M",
            "every progressive controller: the meter and its chart, the hits and the meter's record"),
    Command("logs", "&View", "&Logs", "Ctrl+L", "the logs: decks, dice, approvals, alarms, devices, irregularities, "
                                               "payout slips, sign-ins and every event"),
    Command("hold", "&View", "&Hold", "Ctrl+Shift+H", "the hold per table and wager type and for the pit, "
                                                       "actual against theoretical, over a shift or a period"),
    Command("reports", "&View", "Re&ports", "Ctrl+Shift+R", "the shift report: preview, print and save as PDF"),
    Command("protection", "&View", "Game prot&ection", "Ctrl+Alt+P",
            "where to look: each table, top award, rated player and win-to-drop against its exact odds"),
    Command("next_table", "&View", "&Next table", "Ctrl+PgDown", "the next table, in the floor's order"),
    Command("previous_table", "&View", "P&revious table", "Ctrl+PgUp", "the previous table"),
    Command("show_acknowledged", "&View", "Show ac&knowledged alarms", "Ctrl+H",
            "list acknowledged alarms too", checkable=True),
    Command("show_decided", "&View", "Show &decided requests", "Ctrl+D", "list approved and denied requests too",
            checkable=True),
    Command("acknowledge", "&Alarms", "&Acknowledge alarm…", "F6",
            "acknowledge the selected alarm (the table's first open one elsewhere), with your reason"),
    Command("approve", "A&pprovals", "&Approve…", "F7", "approve the selected request, with your PIN"),
    Command("deny", "A&pprovals", "&Deny…", "F8", "deny the selected request, with your PIN and a reason"),
    Command("round", "&Round", "Round &panel", "F10",
            "the round panel of the table open: enter, settle and release a round"),
    Command("new_round", "&Round", "&New round", "Ctrl+N",
            "start entering the table's round (a round being entered is kept)"),
    Command("pick_cards", "&Round", "&Card picker…", "Ctrl+Shift+C", "pick a position's cards from the 53-card deck"),
    Command("settle", "&Round", "&Settle", "F11", "settle the round being entered: results, ledger, approvals"),
    Command("release", "&Round", "&Release payouts…", "Ctrl+R",
            "pay the settled round once its approvals are approved, with its payout slips"),
    Command("discard_round", "&Round", "&Discard round", "Ctrl+Shift+D", "throw away the round being entered"),
    Command("reopen_round", "&Round", "Re&open round…", "Ctrl+Shift+O",
            "enter again the round shown, which a denial sent back, with your PIN"),
    Command("print_slip", "&Round", "&Print slip…", "Ctrl+P", "print the selected payout slip"),
    Command("save_slip", "&Round", "Save slip as P&DF…", "Ctrl+Shift+S",
            "the selected payout slip as a one-page PDF"),
    Command("void_slip", "&Round", "&Void slip…", "Ctrl+Shift+V", "void the selected payout slip, with your reason"),
    Command("reissue_slip", "&Round", "&Issue slip again…", "Ctrl+Shift+I",
            "a new payout slip, numbered next, for the selected void slip's payout, with your PIN"),
    Command("money", "&Money", "The table's &money", "Ctrl+T",
            "the table's tray: opener, fills, credits, buy-ins, the rounds' flow, the slips, the closer and the win"),
    Command("open_tray", "&Money", "Count the &opener…", "Ctrl+Shift+T",
            "the tray counted by value as the table's shift begins, signed by the dealer and a supervisor"),
    Command("close_tray", "&Money", "Count the &closer…", "Ctrl+Shift+L",
            "the tray counted by value as the table's shift ends, signed by the dealer and a supervisor"),
    Command("request_fill", "&Money", "Ask for a &fill…", "Ctrl+Shift+F",
            "chips from the cage to the tray: the values and why; a supervisor approves it (F5)"),
    Command("request_credit", "&Money", "Ask for a c&redit…", "Ctrl+Shift+K",
            "chips from the tray to the cage: the values and why; a supervisor approves it (F5)"),
    Command("sign_cage", "&Money", "Sign at the c&age…", "Ctrl+Shift+G",
            "a fill or credit signed at the cage by a cashier and security"),
    Command("sign_table", "&Money", "Sign at the &table…", "Ctrl+Shift+B",
            "a fill delivered or a credit taken, signed at the table by the dealer and a supervisor"),
    Command("void_tray_slip", "&Money", "&Void a fill or credit…", "Ctrl+Shift+X",
            "void a fill or credit before its chips move, with your reason (a supervisor)"),
    Command("buy_in", "&Money", "Record a &buy-in…", "Ctrl+B", "chips sold for cash at the table: amount, seat, player"),
    Command("count_drop", "&Money", "Count the &drop box…", "Ctrl+Shift+W",
            "the drop box's notes by value after the closer, signed by two of the count team"),
    Command("print_tray_slip", "&Money", "&Print a fill or credit slip…", "Ctrl+Shift+Y",
            "a fill or credit slip on paper or as a PDF, both copies: the table's latest, or the number typed"),
    Command("import_count_room", "&Money", "&Import the count room's file…", "Ctrl+Shift+J",
            "the drop boxes of several tables from the count room's CSV, signed by two of the count team"),
    Command("ratings", "P&layers", "&Ratings", "Ctrl+Shift+A",
            "the rated players: seated now or a shift's, each sitting or each player, from the rounds they sat in"),
    Command("rate_player", "P&layers", "Rate a &player…", "Ctrl+Shift+N",
            "a player sits down with their card: rated from the rounds at that seat from now"),
    Command("move_player", "P&layers", "&Move a rated player…", "Ctrl+Shift+M",
            "the sitting chosen in Ratings moves to another seat at the table; the rating goes on"),
    Command("stand_up", "P&layers", "&Stand a rated player up…", "Ctrl+Shift+U",
            "the sitting chosen in Ratings ends now; the seat is free"),
    Command("correct_rating", "P&layers", "&Correct a rating…", "Ctrl+Alt+C",
            "a supervisor corrects the chosen sitting's card, name, start or end, and says why"),
    Command("export_ratings", "P&layers", "&Export ratings as CSV…", "Ctrl+Alt+E",
            "the ratings shown, as shown (each sitting or each player), to a CSV file"),
    Command("export_log", "&Logs", "&Export log as CSV…", "Ctrl+E",
            "the rows the log tab shows, as it shows them, to a CSV file"),
    Command("find_in_log", "&Logs", "&Find in log", "Ctrl+F", "type words to find in the log tab shown"),
    Command("print_report", "&Reports", "&Print shift report…", "Ctrl+Shift+P",
            "print the shift report shown, numbered and logged (a supervisor signed in)"),
    Command("save_report", "&Reports", "&Save shift report as PDF…", "Ctrl+Shift+E",
            "the shift report shown as a PDF, numbered and logged (a supervisor signed in)"),
    Command("shortcuts", "&Help", "&Shortcuts", "F1", "this list"),
)


def fits_a_screen(window: QRect, screens: list[QRect]) -> bool:
    """A saved window is restored only if the whole of it lies on one screen's free area."""
    return any(a.contains(window) for a in screens)


def shipping_words(s) -> tuple[str, str]:
    """The status bar's few words for the shipper's state, and their level."""
    if s.refused:
        return "SHIPPING REFUSED BY THE SERVER", RED
    if not s.heard:
        return "SHIPPING: STARTING", NONE
    if s.error:
        return f"SHIPPING: {s.short} · LAG {s.lag_events:,}", AMBER
    return f"{_as(s)}SHIPPED {s.shipped:,} · LAG {s.lag_events:,}", OK


def _as(s) -> str:
    """The pit's name in the casino's register, as the floor's reports name it (issue 35)."""
    return f"{s.name.upper()}: " if s.name and len(s.name) <= 24 else ""


class MainWindow(QMainWindow):
    # once: the first readouts painted (the floor's tiles; on another view, once they are shown),
    # for what waits for the window to be up (``pitdesk gui --demo``'s dealers)
    first_painted = Signal()

    def __init__(self, workstation, settings: QSettings | None = None, clock=None, pump_ms: int = 100,
                 title: str = "", parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("pitdesk")
        self.setWindowTitle(f"pitdesk — pit supervisor's workstation{f' — {title}' if title else ''}")
        self.settings = settings if settings is not None else QSettings()
        self.bridge = Bridge(workstation, clock=clock, pump_ms=pump_ms, parent=self)
        self.session = None
        self.tiles: dict = {}
        self.alarms: tuple = ()
        self.approvals: tuple = ()
        self.dialog: QDialog | None = None
        self.table_order: list[str] = list(workstation.tables()) if hasattr(workstation, "tables") else []
        self.updates = 0
        self._closed = False

        self.actions_by_name: dict[str, QAction] = {}
        self._build_actions()

        self.floor = FloorView()
        self.floor.open_requested.connect(lambda table: self.show_view(f"table:{table}"))
        self._first_painted = False
        self.floor.painted.connect(self._painted)
        self.round_panel = RoundPanel(self.bridge, {n: self.actions_by_name[n] for n in ROUND_COMMANDS},
                                      session=lambda: self.session)
        # named once, here: a round command the panel does not have stops the window being made
        self.round_methods = {n: getattr(self.round_panel, n) for n in ROUND_COMMANDS}
        self.table_page = TablePage(self._fetch_history, round_panel=self.round_panel)
        self.table_page.money.add_command(command_button(self.actions_by_name["print_tray_slip"], "print_tray_slip"))
        self.table_page.money.difference_alarm = getattr(getattr(workstation, "config", None),
                                                         "difference_alarm_cents", 2500)
        self.alarms_page = AlarmsPage(self.actions_by_name["show_acknowledged"], self.actions_by_name["acknowledge"])
        self.approvals_page = ApprovalsPage(self.actions_by_name["show_decided"], self.actions_by_name["approve"],
                                            self.actions_by_name["deny"])
        for page in (self.alarms_page, self.approvals_page):
            page.view.selectionModel().selectionChanged.connect(lambda *_: self._enable())
        # the views a start does not show are made when first shown (or asked for): the floor is
        # painted sooner (issue 33); until then a view that is not made has nothing to be told
        log_tabs = workstation.logs.tabs()
        self._makers = {
            "progressive": lambda: ProgressivePage(self.bridge, self.actions_by_name["approve"]),
            "logs": lambda: LogsPage(self.bridge, log_tabs, self.actions_by_name["export_log"]),
            "hold": lambda: HoldPage(self.bridge, floor=lambda: self.table_order),
            "reports": lambda: ReportsPage(self.bridge, session=lambda: self.session),
            "ratings": self._make_ratings,
            "protection": lambda: ProtectionPage(self.bridge),
        }
        self._made: dict[str, QWidget] = {}
        self.pages = {"floor": self.floor, "table": self.table_page, "alarms": self.alarms_page,
                      "approvals": self.approvals_page} | {name: QWidget() for name in self._makers}
        self.stack = QStackedWidget()
        for page in self.pages.values():
            self.stack.addWidget(page)

        self.banner = QLabel()
        self.banner.setObjectName("banner")
        self.banner.setFont(theme.font(1.3, bold=True))
        self.banner.setWordWrap(True)
        self.banner.setMargin(8)
        self.banner.hide()
        central = QWidget()
        box = QVBoxLayout(central)
        box.setContentsMargins(0, 0, 0, 0)
        box.setSpacing(0)
        box.addWidget(self.banner)
        box.addWidget(self.stack, 1)
        self.setCentralWidget(central)

        self.who = QLabel()
        self.who.setObjectName("who")
        self.who.setFont(theme.font(1.1, bold=True))
        self.who.setMargin(4)
        self.waiting = QLabel()
        self.waiting.setObjectName("waiting")
        self.waiting.setFont(theme.font(1.1, bold=True))
        self.waiting.setMargin(4)
        self.shipping = QLabel()     # the log's copy at the casino's server ([shipping]); hidden without
        self.shipping.setObjectName("shipping")
        self.shipping.setMargin(4)
        self.shipping.hide()
        self.statusBar().addWidget(self.who)
        self.statusBar().addPermanentWidget(self.shipping)
        self.statusBar().addPermanentWidget(self.waiting)
        self._show_session(None, None)

        self.bridge.changed.connect(self.on_update)
        self.bridge.failed.connect(self.on_failed)
        self.view = "floor"
        self._restore()
        self._watched: set[int] = set()

    # -- commands ----------------------------------------------------------------------------------
    def _build_actions(self) -> None:
        menus = {}
        handlers = {
            "sign_in": self.sign_in, "sign_out": self.sign_out, "users": self.open_users, "quit": self.quit,
            "floor": lambda: self.show_view("floor"), "table": self.show_table,
            "alarms": lambda: self.show_view("alarms"), "approvals": lambda: self.show_view("approvals"),
            "next_table": lambda: self.step_table(1), "previous_table": lambda: self.step_table(-1),
            "acknowledge": self.acknowledge, "approve": lambda: self.decide("approved"),
            "deny": lambda: self.decide("denied"), "shortcuts": self.show_shortcuts,
            "round": self.show_round,
            "progressive": lambda: self.show_view("progressive"),
            "logs": lambda: self.show_view("logs"), "hold": lambda: self.show_view("hold"),
            "reports": lambda: self.show_view("reports"), "print_report": self.print_report,
            "protection": lambda: self.show_view("protection"),
            "save_report": self.save_report,
            "export_log": self.export_log, "find_in_log": self.find_in_log,
        }
        for name in ROUND_COMMANDS:
            handlers[name] = lambda name=name: self.round_command(name)
        self.money = MoneyCommands(self)
        for name in MONEY_COMMANDS:
            handlers[name] = lambda name=name: self.money.run(name)
        self.rating_commands = RatingCommands(self)
        for name in RATING_COMMANDS:
            handlers[name] = lambda name=name: self.rating_commands.run(name)
        for c in COMMANDS:
            menu = menus.get(c.menu)
            if menu is None:
                menu = menus[c.menu] = self.menuBar().addMenu(c.menu)
                menu.setToolTipsVisible(True)      # a command disabled says why
            a = QAction(c.text, self)
            a.setObjectName(c.name)
            a.setShortcut(QKeySequence(c.shortcut))
            a.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
            a.setStatusTip(c.what)
            a.setToolTip(f"{c.text.replace('&', '')} ({c.shortcut}): {c.what}")
            a.setCheckable(c.checkable)
            if c.name in handlers:
                a.triggered.connect(lambda checked=False, h=handlers[c.name]: h())
            # a command is a person at the desk: a shortcut never reaches the window as a key
            # (Qt's shortcut map takes it first), and F2, F4, F5 alone signed a supervisor out
            a.triggered.connect(self._acted)
            menu.addAction(a)
            self.addAction(a)      # the shortcut works whichever page has the keyboard
            self.actions_by_name[c.name] = a
        for name in ("acknowledge", "approve", "deny", "sign_out"):
            allow(self.actions_by_name[name], "Sign in (F9) first")

    def shortcut_rows(self) -> list[tuple[str, str, str, str]]:
        """(menu, command, shortcut, what it does) of every action, read from the actions."""
        rows = []
        for menu in self.menuBar().actions():
            for a in menu.menu().actions():
                if a.isSeparator():
                    continue
                rows.append((menu.text().replace("&", ""), a.text().replace("&", "").rstrip("…"),
                             a.shortcut().toString(QKeySequence.SequenceFormat.NativeText), a.statusTip()))
        return rows

    def show_shortcuts(self) -> None:
        d = QDialog(self)
        d.setObjectName("shortcuts")
        d.setWindowTitle("Shortcuts")
        model = ShortcutModel(d)
        model.set_records(self.shortcut_rows())
        view = record_view(model, "shortcut_list")
        view.resizeColumnsToContents()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(d.reject)
        box = QVBoxLayout(d)
        box.addWidget(view)
        box.addWidget(buttons)
        d.resize(int(theme.base_pt() * 75), int(theme.base_pt() * 45))
        self._open(d)

    # -- views --------------------------------------------------------------------------------------
    @property
    def progressive_page(self):
        return self._page("progressive")

    @property
    def logs_page(self):
        return self._page("logs")

    @property
    def hold_page(self):
        return self._page("hold")

    @property
    def reports_page(self):
        return self._page("reports")

    @property
    def protection_page(self):
        return self._page("protection")

    @property
    def ratings_page(self):
        return self._page("ratings")

    def _make_ratings(self):
        page = RatingsPage(self.bridge, floor=lambda: self.table_order,
                           commands={n: self.actions_by_name[n] for n in RATING_COMMANDS[1:]})
        page.selection_changed = self._enable
        page.sittings_view.selectionModel().selectionChanged.connect(lambda *_: self._enable())
        page.group.currentIndexChanged.connect(lambda *_: self._enable())
        return page

    def _page(self, name: str):
        """The view ``name``, made the first time it is asked for, in its place in the stack."""
        page = self._made.get(name)
        if page is None:
            page = self._made[name] = self._makers[name]()
            stand_in = self.pages[name]
            self.stack.insertWidget(self.stack.indexOf(stand_in), page)
            self.stack.removeWidget(stand_in)
            stand_in.deleteLater()
            self.pages[name] = page
            if name == "reports":
                self._enable()        # who may print or save a report
        return page

    def show_view(self, spec: str) -> None:
        """``floor``, ``table`` (the last table), ``table:T1``, ``alarms``, ``approvals``, ``progressive``,
        ``logs`` or ``logs:TAB`` (``logs:events``), ``hold``, ``reports``, ``ratings``, ``protection``."""
        name, _, table = spec.partition(":")
        if name not in VIEWS:
            raise ValueError(f"no view {spec!r} (floor, table:T1, alarms, approvals, progressive, logs, logs:events, "
                             "hold, reports, ratings, protection)")
        if name == "logs" and table:
            self.logs_page.show_tab(table)
        if name == "table":
            table = table or self.table_page.table or self.floor.current() or \
                (self.table_order[0] if self.table_order else None)
            if table is not None and self.table_order and table not in self.table_order:
                raise ValueError(f"no table {table!r} on this floor (tables: {', '.join(self.table_order)})")
            self.table_page.set_table(table)
            self.bridge.watch_table(table)
        else:
            self.bridge.watch_table(None)
        self.view = name
        if name in self._makers:
            self._page(name)
        self.stack.setCurrentWidget(self.pages[name])
        for view, page in self._made.items():
            page.activate(name == view)
        if name == "floor":
            self.floor.focus_table(self.table_page.table if self.table_page.table in self.floor.tiles else None)
        elif name in ("alarms", "approvals"):
            self.pages[name].view.setFocus()
        self._enable()

    def show_table(self) -> None:
        self.show_view("table")
        self.table_page.show_tab("table")

    def show_round(self) -> None:
        """The round panel of the table open (else of the table chosen on the floor)."""
        self.show_view("table")
        self.table_page.show_tab("round")
        self.round_panel.setFocus()

    def round_command(self, name: str) -> None:
        if self.view != "table" or self.table_page.table is None:
            self.statusBar().showMessage("Open a table's round panel first: F3 for the table, F10 for its "
                                         "round.", 8000)
            return
        self.table_page.show_tab("round")
        self.round_methods[name]()

    def view_spec(self) -> str:
        if self.view == "table" and self.table_page.table:
            return f"table:{self.table_page.table}"
        if self.view == "logs":
            return f"logs:{self.logs_page.current().tab.name}"
        return self.view

    def export_log(self):
        """The log tab shown (the logs view opened first if it is not), exported as CSV."""
        if self.view != "logs":
            self.show_view("logs")
        return self.logs_page.export()

    def print_report(self):
        if self.view != "reports":
            self.show_view("reports")
        return self.reports_page.print_report()

    def save_report(self) -> None:
        if self.view != "reports":
            self.show_view("reports")
        self.reports_page.save_pdf()

    def find_in_log(self) -> None:
        if self.view != "logs":
            self.show_view("logs")
        self.logs_page.find()

    def step_table(self, step: int) -> None:
        if not self.table_order:
            return
        here = self.table_page.table if self.view == "table" else self.floor.current()
        n = self.table_order.index(here) if here in self.table_order else -step
        self.show_view(f"table:{self.table_order[(n + step) % len(self.table_order)]}")

    def _fetch_history(self, table: str, before: int, deliver) -> None:
        def failed(e):
            self.statusBar().showMessage(f"history of {table}: {e}", 10000)
            deliver(None)
        self.bridge.read(lambda ws: ws.reads.history(table, before), deliver, failed)

    # -- the one signal -------------------------------------------------------------------------------
    def on_update(self, u: Update) -> None:
        if self._closed:
            return
        self.updates += 1
        self._show_session(u.session, u.now)
        if u.tiles is not None:
            self.tiles.update((t.table, t) for t in u.tiles)   # every table's, or those that changed
            if not self.table_order:
                self.table_order = list(self.tiles)
            self.floor.set_tiles(u.tiles)
            if self.view == "floor" and self.floor.current() is None:
                self.floor.focus_table()
            if self.view != "floor" and not self._first_painted:
                QTimer.singleShot(0, self, self._painted)     # the floor is not shown: its paint will not come
        if u.alarms is not None:
            self.alarms = u.alarms
            self.alarms_page.show_alarms(u.alarms)
        if u.approvals is not None:
            self.approvals = u.approvals
            self.approvals_page.show_approvals(u.approvals)
        if u.detail is not None:
            self.table_page.show_detail(u.detail)
        for page in self._made.values():      # those made: the others were never shown
            page.on_update(u)
        if u.tiles is not None or u.alarms is not None or u.approvals is not None:
            self._show_waiting()
        if u.needs_administrator:
            self._first_administrator()
        if u.shipping is not None:
            self._show_shipping(u.shipping)
        self._enable()

    def _painted(self) -> None:
        if not self._first_painted:
            self._first_painted = True
            self.first_painted.emit()

    def _show_shipping(self, s) -> None:
        """``SHIPPED 1,234 · LAG 12``, or what stops it; its whole story in the tooltip."""
        text, level = shipping_words(s)
        self.shipping.setText(f"{LEVEL_MARK[level]} {text}")
        named = f" as {s.name!r} (the casino's register)" if s.name else ""
        self.shipping.setToolTip(f"The log shipped to {s.to}{named}: the server holds row {s.shipped:,} of {s.local:,}, "
                                 f"{s.lag_seconds:,.0f} s behind" + (f"\n{s.refused or s.error}" if s.refused or s.error
                                                                     else ""))
        theme.set_level(self.shipping, level)
        self.shipping.show()

    def on_failed(self, text: str) -> None:
        self.banner.setText(f"{LEVEL_MARK[RED]} THE WORKSTATION STOPPED: {text}")
        theme.set_level(self.banner, RED, filled=True)
        self.banner.show()

    def _first_administrator(self) -> None:
        if self.dialog is None:
            self._open(FirstAdministratorDialog(self.bridge, self))

    def _show_session(self, s, now) -> None:
        self.session = s
        if s is None:
            self.who.setText(f"{LEVEL_MARK[NONE]} NOBODY SIGNED IN  ·  F9 to sign in")
            theme.set_level(self.who, NONE)
        else:
            left = s.expires - now if now is not None else None
            idle = f"  ·  signs out after {theme.duration(left)} idle" if left is not None else ""
            self.who.setText(f"{LEVEL_MARK[OK]} SIGNED IN: {s.name} ({s.role}){idle}")
            theme.set_level(self.who, OK)

    def _show_waiting(self) -> None:
        alarms = sum(1 for a in self.alarms if a.open)
        pending = sum(1 for r in self.approvals if r.status == "pending")
        self.waiting.setText(f"{LEVEL_MARK[RED] if alarms else LEVEL_MARK[NONE]} {alarms} OPEN ALARM"
                             f"{'' if alarms == 1 else 'S'}   "
                             f"{LEVEL_MARK[AMBER] if pending else LEVEL_MARK[NONE]} {pending} PENDING APPROVAL"
                             f"{'' if pending == 1 else 'S'}")
        level = RED if alarms else AMBER if pending else NONE
        theme.set_level(self.waiting, level, filled=level != NONE)

    def _enable(self) -> None:
        """Each command usable or disabled saying why, for who is signed in and what is shown."""
        a, s = self.actions_by_name, self.session
        allow(a["sign_out"], "" if s is not None else "Nobody is signed in")
        allow(a["users"], why_not_role(s, ADMINISTRATION, "keep the users"))
        no_table = "" if self.table_order else "No table on this floor"
        for name in ("table", "round", "next_table", "previous_table"):
            allow(a[name], no_table)
        allow(a["acknowledge"], why_not_role(s, SUPERVISORS, "acknowledge an alarm")
              or ("" if self.alarm_to_acknowledge() else "No alarm is waiting for acknowledgement"))
        why = why_not_role(s, SUPERVISORS, "approve or deny a request") or self._why_no_request()
        allow(a["approve"], why)
        allow(a["deny"], why)
        report = why_not_role(s, SUPERVISORS, "print or save a shift report (it is numbered and logged)")
        allow(a["print_report"], report)
        allow(a["save_report"], report)
        if "reports" in self._made:
            self._made["reports"].allow_issue(report)
        self.round_panel.set_reachable(self.view == "table" and self.table_page.table is not None)
        self.money.enable()
        self.rating_commands.enable()

    def _why_no_request(self) -> str:
        if not any(r.status == "pending" for r in self.approvals):
            return "No request is waiting for approval"
        if self.request_to_decide() is None:
            return "Select a pending request in the list"
        return ""

    # -- what a person does -----------------------------------------------------------------------------
    def _open(self, d: QDialog) -> QDialog:
        """Open ``d`` window-modal without blocking the event loop (the bridge keeps pumping)."""
        self.dialog = d
        d.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        d.finished.connect(lambda _=None, d=d: self._closed_dialog(d))
        QDialog.open(d)     # QPrintDialog's and QMessageBox's own open() want a slot
        self._watch_input(d)
        return d

    def _closed_dialog(self, d: QDialog) -> None:
        if self.dialog is d:
            self.dialog = None

    def sign_in(self) -> QDialog:
        return self._open(SignInDialog(self.bridge, self.session, self))

    def sign_out(self) -> None:
        self.bridge.act(lambda ws: ws.people.sign_out(), lambda _: self.statusBar().showMessage("Signed out.", 5000),
                        lambda e: self.statusBar().showMessage(str(e), 10000))

    def open_users(self) -> QDialog:
        return self._open(UsersDialog(self.bridge, self.session, self))

    def alarm_to_acknowledge(self):
        if self.view == "alarms":
            a = self.alarms_page.selected()
            if a is not None and a.open:
                return a
        table = self.table_page.table if self.view == "table" else self.floor.current() \
            if self.view == "floor" else None
        waiting = [a for a in self.alarms if a.open]
        mine = [a for a in waiting if table is not None and a.table == table]
        return (mine or waiting or [None])[0]

    def acknowledge(self) -> QDialog | None:
        alarm = self.alarm_to_acknowledge()
        if alarm is None:
            self.statusBar().showMessage("No alarm is waiting for acknowledgement.", 5000)
            return None
        if self.view == "alarms":
            self.alarms_page.select_key(alarm.id)
        return self._open(AcknowledgeDialog(self.bridge, alarm, self.session, self))

    def request_to_decide(self):
        """The request a decision is for: in the approvals queue, the one selected and only that
        (a decision never falls on a request the person did not look at); elsewhere the hit
        selected, else the table's first pending request, which the dialog shows before it is signed."""
        if self.view == "approvals":
            r = self.approvals_page.selected()
            return r if r is not None and r.status == "pending" else None
        if self.view == "progressive":
            hit = self.progressive_page.selected_hit()
            r = next((r for r in self.approvals if hit is not None and r.request == hit.request), None)
            if r is not None and r.status == "pending":
                return r
        table = self.table_page.table if self.view == "table" else self.floor.current() \
            if self.view == "floor" else None
        pending = [r for r in self.approvals if r.status == "pending"]
        mine = [r for r in pending if table is not None and r.table == table]
        return (mine or pending or [None])[0]

    def decide(self, decision: str) -> QDialog | None:
        request = self.request_to_decide()
        if request is None:
            self.statusBar().showMessage((self._why_no_request() or "No request is waiting for approval") + ".", 5000)
            return None
        d = self._open(DecideDialog(self.bridge, request, decision, self.session, self))
        # decided: the selection stays where the person was, on nothing (the row left the queue)
        d.accepted.connect(self.approvals_page.clear_selection)
        return d

    # -- activity, settings, closing --------------------------------------------------------------------
    def _watch_input(self, widget: QWidget) -> None:
        """A key or a click in ``widget``'s window keeps the session alive. The filter sits on
        the window (QWindow), which sees the input and not the paint events of every label: an
        application-wide Python filter would take the GIL for each of thousands of events a
        second, away from the device links."""
        handle = widget.windowHandle()
        if handle is not None and id(handle) not in self._watched:
            self._watched.add(id(handle))
            handle.installEventFilter(self)
            handle.destroyed.connect(lambda _=None, k=id(handle): self._watched.discard(k))

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._watch_input(self)

    def eventFilter(self, obj, event) -> bool:
        # a key, a click or the wheel (a supervisor scrolling a long round is not idle)
        if event.type() in (QEvent.Type.KeyPress, QEvent.Type.MouseButtonPress, QEvent.Type.Wheel):
            self._acted()
        return False

    def _acted(self) -> None:
        """A person used the window: the signed-in session is not idle."""
        if not self._closed:
            self.bridge.touch()

    def start(self) -> None:
        self.bridge.start()

    def _restore(self) -> None:
        geometry = self.settings.value("window/geometry")
        restored = isinstance(geometry, QByteArray) and not geometry.isEmpty() and self.restoreGeometry(geometry)
        screens = [s.availableGeometry() for s in QGuiApplication.screens()]
        if not restored or not fits_a_screen(self.geometry(), screens):
            # the first window (or one saved on a screen no longer there, or larger than this
            # one) fills the screen's free area: nothing of the floor or the status bar outside
            screen = self.screen() or QGuiApplication.primaryScreen()
            self.setGeometry(screen.availableGeometry())
            self.setWindowState(self.windowState() | Qt.WindowState.WindowMaximized)
        state = self.settings.value("window/state")
        if isinstance(state, QByteArray) and not state.isEmpty():
            self.restoreState(state)
        view = self.settings.value("window/view", "floor")
        try:
            self.show_view(str(view))
        except ValueError:
            self.show_view("floor")

    def set_size(self, width: int, height: int) -> None:
        """A window of exactly this size (``gui --size``, a test at a screen's size), not maximized."""
        self.setWindowState(self.windowState() & ~Qt.WindowState.WindowMaximized)
        self.resize(width, height)

    def save_settings(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.setValue("window/view", self.view_spec())
        self.settings.sync()

    def unfinished(self) -> str:
        """What quitting would leave: requests waiting for a decision, the round being entered in
        the round panel ('' when nothing)."""
        pending = sum(1 for r in self.approvals if r.status == "pending")
        d = self.round_panel.draft
        said = [f"{pending} approval request{'s are' if pending != 1 else ' is'} pending."] if pending else []
        if d is not None:
            said.append(f"Round {d.round} at {d.table} is being entered.")
        return " ".join(said)

    def quit(self) -> QMessageBox | None:
        """Quit (Ctrl+Q): asked first when requests wait or a round is being entered; the window
        closes only on Quit. (Closing by program, a signal or --quit-after, does not ask.)"""
        why = self.unfinished()
        if not why:
            self.close()
            return None
        box = QMessageBox(QMessageBox.Icon.Warning, "Quit pitdesk?", f"{why}\n\nQuit anyway?",
                          QMessageBox.StandardButton.Cancel, self)
        box.setObjectName("quit_box")
        leave = box.addButton("&Quit", QMessageBox.ButtonRole.AcceptRole)
        leave.setObjectName("quit_anyway")
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.finished.connect(lambda _=None: self.close() if box.clickedButton() is leave else None)
        self._open(box)
        return box

    def closeEvent(self, event) -> None:
        if not self._closed and event.spontaneous() and self.unfinished():
            event.ignore()          # the window's close button: asked as Quit asks
            if self.dialog is None:
                self.quit()
            return
        if not self._closed:
            self.save_settings()
            self.shutdown()
        super().closeEvent(event)

    def shutdown(self) -> None:
        """Stop pumping and wait for the bridge's lane; the workstation is closed by its owner."""
        if self._closed:
            return
        self._closed = True
        from app.qt import QApplication
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
        if self.dialog is not None:
            self.dialog.reject()
        for page in self._made.values():     # every view made stops its timers
            page.activate(False)
        self.statusBar().clearMessage()      # and the timer that would clear it
        self.bridge.close()


__all__ = ["MainWindow", "COMMANDS", "QMessageBox"]
