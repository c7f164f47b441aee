"""The small widgets and helpers every view builds with: a label, a list of records, a field a
person types into, the few calls that show a text, a level or a refusal on them, and the words of
a time, a seat, a kind and an amount typed back.

A view imports these from here, never from another view's module. Each only shows what it is
given: nothing here reads the workstation or decides a rule.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from app.engine.roles import a_or_an, roles_text

from app.engine import words as words_for_people
from . import theme
from app.qt import (QAbstractItemView, QAction, QColor, QFileDialog, QFont, QFontMetrics, QHeaderView, QLabel, QLineEdit,
                    QPainter, QSize, QStandardPaths, Qt, QTableView, QTimer, QToolButton, QWidget)
from .theme import money


# -- words -------------------------------------------------------------------------------------
when = words_for_people.day_time


def stamp(t: datetime | None) -> float:
    return 0.0 if t is None else t.timestamp()


words = words_for_people.kind


STATE_WORD = {"round_complete": "ROUND COMPLETE", "no_more_bets": "NO MORE BETS",
              "starting_position": "STARTING POSITION"}


def state_text(state: str) -> str:
    """A table's state (the procedures' word) as the floor and the table view say it."""
    return STATE_WORD.get(state, words_for_people.kind(state).upper())


def seat_text(seat: int | None) -> str:
    if seat is None:
        return ""
    return "dealer" if seat == 0 else f"seat {seat}"


def dollars_text(cents: int | None) -> str:
    """Cents as a person would type them back: 25.00, 1,234.50."""
    if cents is None:
        return ""
    return money(cents).lstrip("$")


# -- labels ------------------------------------------------------------------------------------
def label(text: str = "", scale: float = 1.0, bold: bool = False, name: str = "", wrap: bool = False,
          mono: bool = False, cls=QLabel) -> QLabel:
    """A plain-text label in the base font times ``scale``, named ``name`` (tests find it by it);
    ``cls``: a kind of QLabel (``GivingLabel``)."""
    lb = cls(text)
    lb.setFont(theme.font(scale, bold, mono))
    lb.setTextFormat(Qt.TextFormat.PlainText)
    if name:
        lb.setObjectName(name)
    lb.setWordWrap(wrap)
    return lb


class GivingLabel(QLabel):
    """A one-line label that gives up its width first: where the line is short its words end in
    an ellipsis (its whole text stays its text, for its tooltip and the tests), and the floor's
    zoom is never shrunk for it (a tile's profile beside a long state: STARTING POSITION)."""

    def minimumSizeHint(self) -> QSize:
        return QSize(0, super().minimumSizeHint().height())

    def paintEvent(self, event) -> None:
        rect = self.contentsRect()
        shown = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight, rect.width())
        painter = QPainter(self)
        self.style().drawItemText(painter, rect, int(self.alignment()), self.palette(), self.isEnabled(), shown,
                                  self.foregroundRole())


def unbroken(text: str) -> str:
    """``text`` kept on one line where a label wraps: no-break spaces, and a word joiner between
    an amount's sign and its dollar sign (Qt would break "-" from "$224,301.00")."""
    return text.replace(" ", "\u00a0").replace("-$", "-\u2060$").replace("+$", "+\u2060$")


def put(lb: QLabel, text: str) -> None:
    """The label's text, set only when it changes (a label redrawn many times a second)."""
    if lb.text() != text:
        lb.setText(text)


def visible(w: QWidget, on: bool) -> None:
    """Shown or hidden, touching the widget only when that changes (a hidden or shown widget
    invalidates its layout, and a panel may be redrawn many times a second)."""
    if w.isHidden() == bool(on):
        w.setVisible(bool(on))


def say(lb: QLabel, text: str, level: str | None = None, filled: bool = False) -> None:
    """A label's text with its level's colour (the mark in the text; None: plain); hidden when empty."""
    put(lb, text)
    if level is None:
        theme.set_plain(lb)
    else:
        theme.set_level(lb, level, filled)
    visible(lb, bool(text))


def restyle(w: QWidget, name: str, value) -> None:
    """A property the style sheet selects on (``QFrame#tile[level="red"]``), the widget styled
    again when it changes."""
    if w.property(name) == value:
        return
    w.setProperty(name, value)
    w.style().unpolish(w)
    w.style().polish(w)


# -- fields ------------------------------------------------------------------------------------
def set_refused(edit: QWidget, refused: bool) -> None:
    """The field outlined as refused (its style sheet's ``[refused="true"]``), or not."""
    if bool(edit.property("refused")) != refused:
        restyle(edit, "refused", refused)


class Entry(QLineEdit):
    """A field a person types into: ``dirty`` from a person's typing until the workstation takes it."""

    def __init__(self, name: str, width_chars: float = 0, mono: bool = False, placeholder: str = ""):
        super().__init__()
        self.setObjectName(name)
        self.dirty = False
        self.textEdited.connect(self._edited)
        if mono:
            self.setFont(theme.font(1.1, mono=True))
        if width_chars:
            self.setMinimumWidth(int(theme.base_pt() * width_chars))
        if placeholder:
            self.setPlaceholderText(placeholder)

    def _edited(self, _text: str) -> None:
        self.dirty = True

    def show_value(self, text: str) -> None:
        """The workstation's value, unless a person is typing here (or what they typed was refused)."""
        if self.isReadOnly() or not (self.dirty or self.hasFocus()):
            if self.text() != text:
                self.setText(text)


# -- commands ----------------------------------------------------------------------------------
def command_button(action: QAction, name: str, scale: float | None = None, bold: bool = False) -> QToolButton:
    """A button that is the window's command ``action`` (its words, shortcut, tooltip and whether
    it may be used), named ``button_NAME``; ``scale``: its font, times the base size."""
    b = QToolButton()
    b.setDefaultAction(action)
    b.setObjectName(f"button_{name}")
    b.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
    if scale is not None:
        b.setFont(theme.font(scale, bold=bold))
    return b


# -- files -------------------------------------------------------------------------------------
def documents_folder() -> str:
    """Where a file a person saves starts: their documents folder (their home if it has none),
    never the folder the program was started in (the source tree, for a developer)."""
    docs = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    return docs if docs and Path(docs).is_dir() else str(Path.home())


def save_dialog(parent: QWidget, title: str, name: str, kind: str, suffix: str, file_name: str) -> QFileDialog:
    """A file dialog asking where to save ``file_name`` (a ``kind`` file, ``*.suffix``), opened in
    the documents folder; named ``name`` (tests find it by it). Not opened yet."""
    d = QFileDialog(parent, title)
    d.setObjectName(name)
    d.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
    d.setNameFilter(f"{kind} (*.{suffix})")
    d.setDefaultSuffix(suffix)
    d.setDirectory(documents_folder())
    d.selectFile(str(Path(documents_folder()) / file_name))
    return d


def allow(action: QAction, why_not: str = "") -> None:
    """The command usable, or disabled with ``why_not`` first in its tooltip (the command's own
    words after it): a command that cannot act says why."""
    tip = action.property("tip")
    if tip is None:
        tip = action.toolTip()
        action.setProperty("tip", tip)
    if action.isEnabled() != (not why_not):
        action.setEnabled(not why_not)
    text = f"{why_not} · {tip}" if why_not else tip
    if action.toolTip() != text:
        action.setToolTip(text)


def why_not_role(session, roles: tuple[str, ...], what: str) -> str:
    """Why the signed-in ``session`` may not ``what`` ('' when it may): nobody is signed in, or a
    role that may not (the workstation's own rule, app/engine/roles.py, refuses it as well)."""
    if session is None:
        return f"Sign in (F9) to {what}"
    if session.role not in roles:
        return f"To {what} takes {roles_text(roles)}; {session.name} is {a_or_an(session.role)}"
    return ""


# -- lists of records --------------------------------------------------------------------------
class RecordView(QTableView):
    """A QTableView that sizes its columns to the rows it shows the first time it has some."""

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if not self.property("fitted"):
            QTimer.singleShot(0, self, lambda: fit_columns(self))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            squeeze_columns(self)


def record_view(model, name: str) -> QTableView:
    """A list of records: whole rows selected, the columns sized to their content once rows
    arrive (a person's own resizing is kept after that), the model's stretch column taking
    the width left."""
    v = RecordView()
    v.setObjectName(name)
    v.setModel(model)
    v.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    v.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    v.setAlternatingRowColors(True)
    # a reason or a rule longer than its column wraps onto a taller row: words are never cut
    v.setWordWrap(True)
    v.verticalHeader().hide()
    h = v.horizontalHeader()
    h.sectionResized.connect(lambda *_: QTimer.singleShot(0, v, v.resizeRowsToContents))
    h.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    h.setHighlightSections(False)
    source = model.sourceModel() if hasattr(model, "sourceModel") else model
    columns = getattr(source, "columns", ())
    stretch = [n for n, c in enumerate(columns) if c.stretch]
    h.setStretchLastSection(not stretch)
    for n in stretch:
        h.setSectionResizeMode(n, QHeaderView.ResizeMode.Stretch)
    fit_columns(v)

    def first_rows(*_):
        # once the view has laid the rows out (Qt sizes a column by the rows it shows); rows that
        # come later widen a column their words or figures outgrow (issue 33, 5: a longer period's
        # amounts, another table's banker), never narrow one a person widened
        if not v.property("fitted"):
            QTimer.singleShot(0, v, lambda: fit_columns(v))
        elif not v.property("widen_due"):
            v.setProperty("widen_due", True)
            QTimer.singleShot(0, v, lambda: (v.setProperty("widen_due", False), widen_columns(v)))
    model.rowsInserted.connect(first_rows)
    model.modelReset.connect(first_rows)
    model.dataChanged.connect(first_rows)     # the same rows with larger figures (the hold of a longer period)
    # rows as tall as their wrapped words, again whenever they change
    def rows_again(*_):
        if not v.property("rows_due"):        # once for all the changes of one pump
            v.setProperty("rows_due", True)
            QTimer.singleShot(0, v, lambda: (v.setProperty("rows_due", False), v.resizeRowsToContents()))
    for signal in (model.rowsInserted, model.modelReset, model.dataChanged, model.layoutChanged):
        signal.connect(rows_again)
    return v


def fit_columns(v: QTableView) -> None:
    """Each column as wide as its header and content, at most 24 base characters."""
    h = v.horizontalHeader()
    cap = int(theme.base_pt() * 24)
    for n in range(h.count()):
        if h.sectionResizeMode(n) == QHeaderView.ResizeMode.Stretch:
            continue
        v.resizeColumnToContents(n)
        if h.sectionSize(n) > cap:
            h.resizeSection(n, cap)
    v.setProperty("natural", [h.sectionSize(n) for n in range(h.count())])
    squeeze_columns(v)
    if v.model().rowCount() and v.isVisible():
        v.setProperty("fitted", True)


def widen_columns(v: QTableView) -> None:
    """Each column at least as wide as the rows it shows now need (at most 24 base characters),
    then squeezed into the list's width as ``fit_columns`` does; a column shown nowhere yet is
    left for ``fit_columns`` when it is."""
    if not v.isVisible():
        v.setProperty("fitted", False)        # fitted afresh when next shown (RecordView.showEvent)
        return
    h = v.horizontalHeader()
    natural = v.property("natural")
    if not natural or len(natural) != h.count():
        fit_columns(v)
        return
    cap = int(theme.base_pt() * 24)
    natural = list(natural)
    for n in range(h.count()):
        if h.sectionResizeMode(n) == QHeaderView.ResizeMode.Stretch or h.isSectionHidden(n):
            continue
        need = min(cap, max(v.sizeHintForColumn(n), h.sectionSizeHint(n)))
        if need > natural[n]:
            natural[n] = need
            h.resizeSection(n, need)
    v.setProperty("natural", natural)
    squeeze_columns(v)


STRETCH_CHARS = 40       # the line a stretch column keeps before the other columns are squeezed
WORD_ROWS = 200          # the rows a column's longest word is looked for in (a list's first screens)


def longest_word(v: QTableView, n: int) -> int:
    """The width of column ``n``'s longest word (to a space or after a hyphen, where Qt wraps) in
    its first ``WORD_ROWS`` rows, with the cell's margins, in the font the cell is drawn in (a
    bold column's is bold: a status "ACKNOWLEDGED" measured in the plain face was cut)."""
    m, fm = v.model(), v.fontMetrics()
    font = m.index(0, n).data(Qt.ItemDataRole.FontRole) if m.rowCount() else None
    if isinstance(font, QFont):
        fm = QFontMetrics(font)
    widest = 0
    for row in range(min(m.rowCount(), WORD_ROWS)):
        text = m.index(row, n).data()
        if isinstance(text, str) and text:
            for word in text.replace("-", "- ").split():
                widest = max(widest, fm.horizontalAdvance(word))
    return widest + 8 if widest else 0


def squeeze_columns(v: QTableView) -> None:
    """Columns of words (never of figures) made narrower, the widest first, down to a floor of
    ten characters, until every column shows in the list's width; their words wrap (issue 27)."""
    natural = v.property("natural")
    h = v.horizontalHeader()
    if not natural or len(natural) != h.count():
        return
    source = v.model().sourceModel() if hasattr(v.model(), "sourceModel") else v.model()
    columns = list(getattr(source, "columns", ()))
    floor = v.fontMetrics().horizontalAdvance("0" * 10)
    sizes = list(natural)
    stretch = [n for n in range(h.count()) if h.sectionResizeMode(n) == QHeaderView.ResizeMode.Stretch]
    shown = [n for n in range(h.count()) if not h.isSectionHidden(n)]
    # the stretch column (a list's message, reason or consequence: what a person reads a row for)
    # keeps its heading and its longest word whole, and room for a line of words as long as it has
    # them, before the others are squeezed (issue 33: an alarm's message three words wide, its
    # rows nine lines tall, three alarms to a screen)
    line = v.fontMetrics().horizontalAdvance("0" * STRETCH_CHARS)
    room = v.viewport().width() - sum(max(floor, h.sectionSizeHint(n), longest_word(v, n),
                                          min(line, v.sizeHintForColumn(n)))
                                      for n in stretch if n in shown)
    words = [n for n in shown if n not in stretch and n < len(columns) and not columns[n].numeric]
    # never narrower than its heading's words, nor than its longest word: a word (an amount,
    # "acknowledges") is never broken in two (issue 33, 5)
    least = {n: min(natural[n], max(floor, h.sectionSizeHint(n), longest_word(v, n))) for n in words}
    over = sum(sizes[n] for n in shown if n not in stretch) - room
    while over > 0:
        wide = [n for n in words if sizes[n] > least[n]]
        if not wide:
            break
        n = max(wide, key=lambda k: sizes[k])
        cut = min(over, sizes[n] - least[n],
                  max(1, sizes[n] - max((sizes[k] for k in wide if k != n), default=least[n])))
        sizes[n] -= cut
        over -= cut
    h.blockSignals(True)
    for n in shown:
        if n not in stretch and h.sectionSize(n) != sizes[n]:
            h.resizeSection(n, sizes[n])
    h.blockSignals(False)
    v.resizeRowsToContents()


# -- charts ------------------------------------------------------------------------------------
def dark_plot(pg, name: str, tick_scale: float, tick_pen, grid: tuple[bool, bool], **kw):
    """A pyqtgraph PlotWidget as the window draws its charts: dark, still (no menu, buttons, pan
    or zoom: it follows the data, not the mouse), its tick labels in the theme's font. ``pg`` is
    pyqtgraph, which a chart imports the first time it is drawn (app.qt.pyqtgraph)."""
    widget = pg.PlotWidget(background=QColor("#111215"), **kw)
    widget.setObjectName(name)
    plot = widget.getPlotItem()
    plot.setMenuEnabled(False)
    plot.hideButtons()
    plot.setMouseEnabled(x=False, y=False)
    plot.showGrid(x=grid[0], y=grid[1], alpha=0.25)
    font = theme.font(tick_scale)
    for side in ("left", "bottom"):
        axis = plot.getAxis(side)
        axis.setTickFont(font)
        axis.setTextPen(tick_pen)
        axis.setPen(QColor("#3a3d46"))
    return widget
