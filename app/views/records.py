"""A table model of records (frozen readouts), updated by inserts, removals and ranged changes.

As Picard's ``picard/ui/logviewmodel.py``: new rows arrive as row inserts and changed rows as one
ranged ``dataChanged``, never a reset while the order is kept, so a selection, a scroll position
and a sort proxy survive a live update. Columns are declared, not coded per model: a title, the
text, a sort key (a number or a string, so the proxy sorts money and times correctly), an
optional level for the colour and the word already in the text.

Every model here passes pytest-qt's ``qtmodeltester`` (tests/views/test_views_models.py).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from . import theme
from app.qt import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt

RecordRole = Qt.ItemDataRole.UserRole + 1    # the record itself, for the view that acts on it
SortRole = Qt.ItemDataRole.UserRole + 2      # what the sort proxy compares
LevelRole = Qt.ItemDataRole.UserRole + 3     # ok, amber, red, none (tests and delegates read it)

_DISPLAY, _TOOLTIP = int(Qt.ItemDataRole.DisplayRole), int(Qt.ItemDataRole.ToolTipRole)
_FOREGROUND, _FONT = int(Qt.ItemDataRole.ForegroundRole), int(Qt.ItemDataRole.FontRole)
_ALIGNMENT = int(Qt.ItemDataRole.TextAlignmentRole)
_SORT, _RECORD, _LEVEL = int(SortRole), int(RecordRole), int(LevelRole)
_ROLES = frozenset({_DISPLAY, _TOOLTIP, _FOREGROUND, _FONT, _ALIGNMENT, _SORT, _RECORD, _LEVEL})
_LEFT = int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)


@dataclass(frozen=True)
class Column:
    title: str
    text: Callable[[Any], str]
    sort: Callable[[Any], Any] | None = None        # default: the text
    level: Callable[[Any], str | None] | None = None
    numeric: bool = False                           # right-aligned
    tip: Callable[[Any], str] | None = None         # default: the text (long messages are cut in the cell)
    stretch: bool = False                           # takes the width left (one column per model)
    bold: bool = False                              # what the eye looks for first (status, money)
    done: bool = False                              # only ever filled once the record is done with


class RecordModel(QAbstractTableModel):
    columns: Sequence[Column] = ()
    font_scale = 1.0      # of the view showing it: a bold column's font is the view's, bold

    def __init__(self, key: Callable[[Any], Any], parent=None):
        super().__init__(parent)
        self._key = key
        self._rows: list[Any] = []
        self._bold = None         # the bold font of the view's size, made at its first use

    # -- Qt's side -----------------------------------------------------------------------------
    def rowCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent=QModelIndex()) -> int:
        return 0 if parent.isValid() else len(self.columns)

    def headerData(self, section: int, orientation, role=Qt.ItemDataRole.DisplayRole):
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.columns):
            if role == Qt.ItemDataRole.DisplayRole:
                return self.columns[section].title
            if role == Qt.ItemDataRole.TextAlignmentRole and self.columns[section].numeric:
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return None
        if orientation == Qt.Orientation.Vertical and role == Qt.ItemDataRole.DisplayRole \
                and 0 <= section < len(self._rows):
            return section + 1
        return None

    def data(self, index: QModelIndex | QPersistentModelIndex, role=_DISPLAY):
        # called for every role of every cell at every paint, from C++: ints compared with ints,
        # the roles no column answers turned away first, one font made once
        role = int(role)
        if role not in _ROLES:
            return None
        row, c = index.row(), index.column()
        if row < 0 or c < 0 or row >= len(self._rows) or c >= len(self.columns):
            return None
        rec, col = self._rows[row], self.columns[c]
        if role == _DISPLAY:
            return col.text(rec)
        if role == _ALIGNMENT:
            return _RIGHT if col.numeric else _LEFT
        if role == _FOREGROUND:
            if not col.level:
                return None
            level = col.level(rec)
            return theme.COLOUR[level] if level else None
        if role == _FONT:
            if not col.bold:
                return None
            if self._bold is None:
                self._bold = theme.font(self.font_scale, bold=True)
            return self._bold
        if role == _TOOLTIP:
            return (col.tip or col.text)(rec)
        if role == _SORT:
            return (col.sort or col.text)(rec)
        if role == _RECORD:
            return rec
        return col.level(rec) if col.level else None     # LevelRole

    # -- pitdesk's side ------------------------------------------------------------------------
    def set_font_scale(self, scale: float) -> None:
        """The view's text is ``scale`` times the base font: its bold columns follow."""
        self.font_scale, self._bold = scale, None
        if self._rows:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self._rows) - 1, len(self.columns) - 1))

    def record(self, row: int) -> Any:
        return self._rows[row]

    def records(self) -> list[Any]:
        return list(self._rows)

    def row_of(self, key: Any) -> int | None:
        for i, r in enumerate(self._rows):
            if self._key(r) == key:
                return i
        return None

    def set_records(self, rows: Sequence[Any]) -> None:
        """Show ``rows`` (in their order): removals and inserts where keys come and go, one
        ranged dataChanged for the rows that changed; a reset only if rows changed places."""
        rows = list(rows)
        new_keys = [self._key(r) for r in rows]
        if len(set(new_keys)) != len(new_keys):
            raise ValueError(f"{type(self).__name__}: two records with the same key")
        wanted = set(new_keys)
        # removals, bottom up, in contiguous runs
        i = len(self._rows) - 1
        while i >= 0:
            if self._key(self._rows[i]) in wanted:
                i -= 1
                continue
            end = i
            while i >= 0 and self._key(self._rows[i]) not in wanted:
                i -= 1
            self.beginRemoveRows(QModelIndex(), i + 1, end)
            del self._rows[i + 1:end + 1]
            self.endRemoveRows()
        kept = [self._key(r) for r in self._rows]
        if kept != [k for k in new_keys if k in set(kept)]:
            # the same records in another order: only a reset says that honestly
            self.beginResetModel()
            self._rows = rows
            self.endResetModel()
            return
        # inserts, top down, in contiguous runs, at the places they take in ``rows``
        have = set(kept)
        j = 0
        while j < len(rows):
            if new_keys[j] in have:
                j += 1
                continue
            start = j
            while j < len(rows) and new_keys[j] not in have:
                j += 1
            self.beginInsertRows(QModelIndex(), start, j - 1)
            self._rows[start:start] = rows[start:j]
            self.endInsertRows()
        changed = [n for n, (old, new) in enumerate(zip(self._rows, rows)) if old != new]
        self._rows = rows
        if changed:
            self.dataChanged.emit(self.index(changed[0], 0), self.index(changed[-1], len(self.columns) - 1))
