"""The Money menu of the main window (issue 34, docs/inventory.md): each command acts on the table
shown (the table page's, else the tile chosen on the floor) and opens its dialog
(app/views/money_dialogs.py) once the table's tray is read off the GUI thread (the bridge's lane):
what the dialog offers (the tray expected, the slips to sign or void) is the log's as it is now.
"""

from __future__ import annotations

from dataclasses import dataclass

from .money_dialogs import (BuyInDialog, DropDialog, SignSlipDialog, SlipRequestDialog, TrayCountDialog,
                            VoidSlipDialog)
from .money_paper import SlipPaper, import_count_room
from .widgets import allow

# the Money menu's commands (app/views/main_window.py COMMANDS): name -> what it opens
MONEY_COMMANDS = ("money", "open_tray", "close_tray", "request_fill", "request_credit", "sign_cage", "sign_table",
                  "void_tray_slip", "buy_in", "count_drop", "print_tray_slip", "import_count_room")


def can_sign(s, at: str) -> bool:
    return s.next_step == f"to sign at the {at}"


def can_void(s) -> bool:
    # a credit's chips leave the tray at the table's signatures, a fill's reach it there
    return bool(s.next_step) and not (s.kind == "credit" and s.status == "signed at the table")


@dataclass
class MoneyCommands:
    window: object

    def __post_init__(self):
        self.paper = SlipPaper(self.window)      # a fill or credit slip on paper (app/views/money_paper.py)

    def table(self) -> str | None:
        w = self.window
        if w.view == "table" and w.table_page.table is not None:
            return w.table_page.table
        if w.view == "floor":
            return w.floor.current()
        return None

    def run(self, name: str) -> None:
        w = self.window
        table = self.table()
        if name == "money":
            w.show_view(f"table:{table}" if table else "table")
            w.table_page.show_tab("money")
            return
        if name == "import_count_room":           # the file names its tables
            import_count_room(w)
            return
        if table is None and name == "print_tray_slip":
            self.paper.choose(None, None)           # a slip is named by its number
            return
        if table is None:
            w.statusBar().showMessage("Choose a table first: on the floor (F2) or its page (F3).", 8000)
            return

        def failed(e):
            w.statusBar().showMessage(f"the tray of {table}: {e}", 10000)

        w.bridge.read(lambda ws: ws.reads.tray(table), lambda info: self._dialog(name, table, info), failed)

    def _dialog(self, name: str, table: str, info) -> None:
        w = self.window
        if w.dialog is not None or w._closed:
            return            # another dialog came first (or the window closed meanwhile)
        s, b = w.session, w.bridge
        if name in ("open_tray", "close_tray"):
            d = TrayCountDialog(b, table, "opener" if name == "open_tray" else "closer", s, info, w)
        elif name in ("request_fill", "request_credit"):
            d = SlipRequestDialog(b, table, "fill" if name == "request_fill" else "credit", s, info, w)
        elif name in ("sign_cage", "sign_table"):
            at = "cage" if name == "sign_cage" else "table"
            d = SignSlipDialog(b, table, at, s, [x for x in info.slips if can_sign(x, at)], info, w)
        elif name == "void_tray_slip":
            d = VoidSlipDialog(b, table, s, [x for x in info.slips if can_void(x)], w)
        elif name == "print_tray_slip":
            self.paper.choose(table, info)
            return
        elif name == "buy_in":
            d = BuyInDialog(b, table, s, w)
        else:
            d = DropDialog(b, table, s, info, w)
        d.accepted.connect(lambda: w.statusBar().showMessage(f"{d.windowTitle()}: done.", 8000))
        w._open(d)

    def enable(self) -> None:
        w = self.window
        a = w.actions_by_name
        no_table = "" if w.table_order else "No table on this floor"
        allow(a["money"], no_table)
        signed = "" if w.session is not None else "Sign in (F9) first"
        for name in MONEY_COMMANDS[1:]:
            allow(a[name], signed or no_table)
