"""The floor overview: one tile per table, standing where the table stands in the pit.

Positions come with the tiles (the config's row and col, else the workstation's grid); the
view only places them. Arrow keys move between tiles (to the nearest tile that way), Enter or a
double click opens the table.
"""

from __future__ import annotations

from .qt import QGridLayout, QScrollArea, Qt, QWidget, Signal
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


class FloorView(QScrollArea):
    open_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
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

    def set_tiles(self, tiles) -> None:
        for t in tiles:
            w = self.tiles.get(t.table)
            cell = (t.row, t.col)
            if w is None:
                w = TileWidget(t.table, self.grid_widget)
                w.open_requested.connect(self.open_requested)
                w.installEventFilter(self)
                self.tiles[t.table] = w
            if self._cells.get(cell) != t.table:
                self.grid.removeWidget(w)
                self._cells = {k: v for k, v in self._cells.items() if v != t.table}
                self._cells[cell] = t.table
                self.grid.addWidget(w, t.row - 1, t.col - 1)
            w.show_tile(t)
        for n in range(self.grid.rowCount()):
            self.grid.setRowStretch(n, 1)
        for n in range(self.grid.columnCount()):
            self.grid.setColumnStretch(n, 1)

    def current(self) -> str | None:
        for table, w in self.tiles.items():
            if w.hasFocus():
                return table
        return None

    def focus_table(self, table: str | None = None) -> None:
        """Put the keyboard on ``table``'s tile (else the first, top left)."""
        if table is None and self._cells:
            table = self._cells[min(self._cells)]
        w = self.tiles.get(table) if table else None
        if w is not None:
            w.setFocus(Qt.FocusReason.OtherFocusReason)
            self.ensureWidgetVisible(w)

    def eventFilter(self, obj, event) -> bool:
        if isinstance(obj, TileWidget) and event.type() == event.Type.KeyPress and event.key() in ARROWS \
                and not event.modifiers():
            here = next((cell for cell, t in self._cells.items() if t == obj.table), None)
            if here is not None:
                to = nearest(here, [c for c in self._cells if c != here], ARROWS[event.key()])
                if to is not None:
                    self.focus_table(self._cells[to])
            return True      # an arrow on a tile never scrolls the floor away from the focus
        return super().eventFilter(obj, event)
