"""The Players menu of the main window (issue 36, docs/ratings.md): rate a player, move one, stand
one up, correct a rating, export the ratings shown. Rating a player acts on the table shown (the
table page's, else the tile chosen on the floor); the others on the sitting chosen in the Ratings
view, which each opens first."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from app.qt import Qt

from app.workstation.ratings import PLAYER_CSV, RATING_CSV, csv_text

from .rating_dialogs import CorrectDialog, MoveDialog, RateDialog, StandUpDialog
from .widgets import allow, save_dialog

# the Players menu's commands (app/views/main_window.py COMMANDS)
RATING_COMMANDS = ("ratings", "rate_player", "move_player", "stand_up", "correct_rating", "export_ratings")
ON_A_SITTING = ("move_player", "stand_up", "correct_rating")

@dataclass
class RatingCommands:
    window: object

    @property
    def page(self):
        return self.window.ratings_page

    def run(self, name: str) -> None:
        w = self.window
        if name == "ratings":
            w.show_view("ratings")
            return
        if name == "rate_player":
            table = w.money.table() or (w.table_order[0] if w.table_order else None)
            self._open(RateDialog(w.bridge, list(w.table_order), table, w.session, w))
            return
        if w.view != "ratings":
            w.show_view("ratings")
        page = self.page
        if name == "export_ratings":
            self.export()
            return
        sitting = page.selected()
        if sitting is None:
            w.statusBar().showMessage("Choose a sitting in the Ratings view first (Each sitting).", 8000)
            return
        if name == "move_player":
            d = MoveDialog(w.bridge, sitting, w.session, w)
        elif name == "stand_up":
            d = StandUpDialog(w.bridge, sitting, w.session, w)
        else:
            d = CorrectDialog(w.bridge, sitting, w.session, w)
        self._open(d)

    def _open(self, d) -> None:
        w = self.window
        if w.dialog is not None or w._closed:
            return
        d.accepted.connect(lambda: (w.statusBar().showMessage(f"{d.windowTitle()}: done.", 8000),
                                    w.ratings_page.again() if "ratings" in w._made else None))
        w._open(d)

    def export(self, path: str | None = None):
        """The lines the Ratings view shows, as CSV (asked for where when ``path`` is None); written
        off the GUI thread."""
        page = self.page
        if page.listing is None:
            self.window.statusBar().showMessage("Nothing is shown yet to export.", 8000)
            return None
        by_player = page.group.currentData() == "player"
        if path is None:
            d = save_dialog(page, "Export the ratings as CSV", "export_ratings_dialog", "CSV", "csv",
                            f"ratings-{page.scope.currentData()}.csv")
            d.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
            d.fileSelected.connect(self.export)
            d.open()
            return d
        lines = page.listing["players" if by_player else "sittings"]
        text = csv_text(lines, PLAYER_CSV if by_player else RATING_CSV)

        def write(_ws):
            from app.reports.whole_file import write_whole
            write_whole(Path(path), text.encode("utf-8"))
            return len(lines)
        w = self.window
        w.bridge.read(write, lambda n: self._exported(path, n),
                      lambda e: w.statusBar().showMessage(f"the ratings were not exported: {e}", 10000))
        return None

    def _exported(self, path: str, n: int) -> None:
        self.page.exported = (path, n)
        self.window.statusBar().showMessage(f"{n:,} rating line(s) exported to {path}", 10000)

    def enable(self) -> None:
        w = self.window
        a = w.actions_by_name
        signed = "" if w.session is not None else "Sign in (F9) first"
        allow(a["rate_player"], signed or ("" if w.table_order else "No table on this floor"))
        chosen = "ratings" in w._made and w.view == "ratings" and w.ratings_page.selected() is not None
        for name in ON_A_SITTING:
            allow(a[name], signed or ("" if chosen else "Choose a sitting in the Ratings view (Ctrl+Shift+A)"))
