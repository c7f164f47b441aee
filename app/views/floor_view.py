"""The floor overview: one tile per table, standing where the table stands in the pit.

Positions come with the tiles (the config's row and col, else the workstation's grid); the
view only places them. Arrow keys move between tiles (to the nearest tile that way), Enter or a
double click opens the table.
"""

from __future__ import annotations

import time

from app.qt import QEvent, QGridLayout, QScrollArea, Qt, QTimer, QWidget, Signal
from .tile import TileWidget

ARROWS = {Qt.Key.Key_Left: (0, -1), Qt.Key.Key_Right: (0, 1), Qt.Key.Key_Up: (-1, 0), Qt.Key.Key_Down: (1, 0)}


def nearest(here: tuple[int, int], there: list[tuple[int, int]], step: tuple[int, int]) -> tuple[int, int] | None:
    """The cell in ``there`` nearest to ``here`` in the direction ``step`` (rows, cols): first
    the closest along the step, then the closest across it."""
    dr, dc = step
    best, best_key = None, None
    for r, c in there:
        along = (r - here[0]) * dr + (c - here[1]) * dc
        if along <= 0:
            continue
        across = abs((c - here[1]) if dr else (r - here[0]))
        key = (along, across, r, c)
        if best_key is None or key < best_key:
            best, best_key = (r, c), key
    return best


ZOOM = (0.55, 1.8)     # the smallest and largest tile text, times the base font size
REGROW_SECONDS = 1.0   # how often a floor shrunk by a tile's longer words tries its size again


class FloorView(QScrollArea):
    """Tiles zoom to fit the screen: a supervisor sees every table at once, in the largest text
    that fits (from ``ZOOM[0]`` to ``ZOOM[1]`` times the base size); only a floor too large even
    for the smallest text scrolls. A tile whose words grew (an irregularity, a long alarm) shrinks
    the floor at once; once they are gone the floor grows back to the size it had (tried at most
    once a second, ``REGROW_SECONDS``: measuring every tile takes longer than a pump)."""

    open_requested = Signal(str)
    painted = Signal()      # once: the tiles first painted with their tables' readouts

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self._painted = False   # before setWidget: the scroll area filters its viewport's events
        self.setObjectName("floor")
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.grid_widget = QWidget()
        self.grid = QGridLayout(self.grid_widget)
        self.grid.setContentsMargins(12, 12, 12, 12)
        self.grid.setSpacing(12)
        self.setWidget(self.grid_widget)
        self.tiles: dict[str, TileWidget] = {}
        self._cells: dict[tuple[int, int], str] = {}
        self.zoom = 1.0
        self._fitted = 1.0          # the zoom the last whole fit found for this size
        self._regrow_at = 0.0       # monotonic time of the next try to grow back (while shrunk)
        self._current: str | None = None

    def set_tiles(self, tiles) -> None:
        """Show ``tiles`` (all of them, or only those that changed). The floor measures again
        only when a tile is added or moved, or a tile's text changed length and it no longer
        fits: measuring 40 tiles takes longer than a pump's time."""
        added, grown = False, []
        for t in tiles:
            w = self.tiles.get(t.table)
            cell = (t.row, t.col)
            if w is None:
                w = TileWidget(t.table, self.grid_widget)
                w.open_requested.connect(self.open_requested)
                w.focused.connect(self._focused)
                w.installEventFilter(self)
                w.set_zoom(self.zoom)
                self.tiles[t.table] = w
                added = True
            if self._cells.get(cell) != t.table:
                self.grid.removeWidget(w)
                self._cells = {k: v for k, v in self._cells.items() if v != t.table}
                self._cells[cell] = t.table
                self.grid.addWidget(w, t.row - 1, t.col - 1)
                added = True
            if w.show_tile(t):
                grown.append(w)
        if added:
            for n in range(self.grid.rowCount()):
                self.grid.setRowStretch(n, 1)
            for n in range(self.grid.columnCount()):
                self.grid.setColumnStretch(n, 1)
            self.fit()
        elif grown and self.zoom > ZOOM[0] and not self._fits(self.zoom, grown):
            self._shrink()
        elif self.zoom < self._fitted and time.monotonic() >= self._regrow_at:
            self._regrow()

    def _shrink(self) -> None:
        """A tile's words no longer fit: the largest zoom that fits them now, the size before kept."""
        fitted = self._fitted
        self.fit()
        self._fitted = max(fitted, self.zoom)
        self._regrow_at = time.monotonic() + REGROW_SECONDS

    def _regrow(self) -> None:
        """The floor back to the size it had before a tile's words grew, once they fit it again."""
        if self._fits(self._fitted):
            self.zoom = self._fitted
        else:
            for w in self.tiles.values():
                w.set_zoom(self.zoom)
            self._regrow_at = time.monotonic() + REGROW_SECONDS

    # -- zoom to fit ---------------------------------------------------------------------------
    def _cell(self) -> tuple[float, float]:
        rows = max((r for r, _ in self._cells), default=1)
        cols = max((c for _, c in self._cells), default=1)
        m = self.grid.contentsMargins()
        space = self.grid.spacing()
        vp = self.viewport().size()
        return ((vp.width() - m.left() - m.right() - space * (cols - 1)) / cols,
                (vp.height() - m.top() - m.bottom() - space * (rows - 1)) / rows)

    def _fits(self, zoom: float, tiles=None) -> bool:
        width, height = self._cell()
        tiles = list(self.tiles.values()) if tiles is None else tiles
        for w in tiles:
            w.set_zoom(zoom)
        for w in tiles:
            need = w.minimumSizeHint()
            if need.width() > width:
                return False
            # a wrapped line (a co-bank's seats, an irregularity) is as tall as the width makes it
            tall = w.heightForWidth(int(width)) if w.hasHeightForWidth() else -1
            if max(need.height(), tall) > height:
                return False
        return True

    def fit(self) -> None:
        """The largest zoom at which every tile's content fits its cell (a few halvings)."""
        if not self.tiles:
            return
        lo, hi = ZOOM
        if self._fits(hi):
            best = hi
        else:
            best = lo
            for _ in range(7):
                mid = (lo + hi) / 2
                if self._fits(mid):
                    best, lo = mid, mid
                else:
                    hi = mid
        # a little room to spare: a light that says DEGRADED is longer than one that says ONLINE
        self.zoom = self._fitted = max(ZOOM[0], best * 0.95)
        for w in self.tiles.values():
            w.set_zoom(self.zoom)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if event.size() != event.oldSize():
            self.fit()

    def current(self) -> str | None:
        """The table whose tile has (or last had) the keyboard."""
        return self._current if self._current in self.tiles else None

    def _focused(self, table: str) -> None:
        self._current = table

    def focus_table(self, table: str | None = None) -> None:
        """Put the keyboard on ``table``'s tile (else the first, top left)."""
        if table is None and self._cells:
            table = self._cells[min(self._cells)]
        w = self.tiles.get(table) if table else None
        if w is not None:
            self._current = table
            w.setFocus(Qt.FocusReason.OtherFocusReason)
            self.ensureWidgetVisible(w)

    def eventFilter(self, obj, event) -> bool:
        if not self._painted and event.type() == QEvent.Type.Paint and isinstance(obj, TileWidget) \
                and obj.tile is not None:
            # said once the paint is done: the tiles of one readout are painted together
            self._painted = True
            QTimer.singleShot(0, self, self.painted.emit)
        if isinstance(obj, TileWidget) and event.type() == event.Type.KeyPress and event.key() in ARROWS \
                and not event.modifiers():
            here = next((cell for cell, t in self._cells.items() if t == obj.table), None)
            if here is not None:
                to = nearest(here, [c for c in self._cells if c != here], ARROWS[event.key()])
                if to is not None:
                    self.focus_table(self._cells[to])
            return True      # an arrow on a tile never scrolls the floor away from the focus
        return super().eventFilter(obj, event)
