"""What of a view lies outside the window or is cut short (issue 27, 2; issue 33, 5): the tiles,
the status bar, a list's columns and cells, a label's words and an entry's hint, each measured in
the font it is drawn in."""

from __future__ import annotations

import re

from app.qt import QAbstractItemView, QFontMetrics, QLabel, QLineEdit, QRect, QStyle, QStyleOptionFrame, Qt, QWidget
from app.views.main_window import MainWindow


def inside(window: QWidget, w: QWidget) -> bool:
    top_left = w.mapTo(window, w.rect().topLeft())
    return window.rect().contains(QRect(top_left, w.size()))


def outside(window: MainWindow) -> list[str]:
    """What of the view shown lies outside the window, or is cut short: tiles, the status bar,
    columns of a list, a label's words."""
    bad = []
    for name, w in window.floor.tiles.items():
        if w.isVisible() and not inside(window, w):
            bad.append(f"tile {name}")
    if not inside(window, window.statusBar()):
        bad.append("the status bar")
    page = window.stack.currentWidget()
    for view in page.findChildren(QAbstractItemView):
        if not view.isVisible() or not hasattr(view, "horizontalHeader"):
            continue
        header, width = view.horizontalHeader(), view.viewport().width()
        for n in range(header.count()):
            if header.isSectionHidden(n):
                continue
            title = view.model().headerData(n, header.orientation()) if view.model() else n
            last = n == max(i for i in range(header.count()) if not header.isSectionHidden(i))
            if header.sectionSizeHint(n) > header.sectionSize(n) + 2 and not last:
                bad.append(f"{view.objectName()} heading {title!r} needs {header.sectionSizeHint(n)} px, has "
                           f"{header.sectionSize(n)}")
            right = header.sectionViewportPosition(n) + header.sectionSize(n)
            if right > width + 1:
                title = view.model().headerData(n, header.orientation()) if view.model() else n
                bad.append(f"{view.objectName() or type(view).__name__} column {title!r} ends at {right} of {width}")
    for view in page.findChildren(QAbstractItemView):
        if view.isVisible() and hasattr(view, "horizontalHeader") and view.model() is not None:
            bad += cut_cells(view)
    for label in page.findChildren(QLabel):
        text = label.text()
        if label.buddy() is not None:
            text = text.replace("&&", "\0").replace("&", "").replace("\0", "&")   # a mnemonic's mark
        if label.isVisible() and text and "<" not in text and not label.wordWrap():
            need = label.fontMetrics().horizontalAdvance(text)
            if need > label.contentsRect().width() + 1:
                bad.append(f"label {text!r} needs {need} px, has {label.contentsRect().width()}")
    return bad + cut_hints(page)


def cut_cells(view) -> list[str]:
    """Cells whose words are wider than their column (shown with an ellipsis)."""
    m, header, fm = view.model(), view.horizontalHeader(), view.fontMetrics()
    bad = []
    for row in range(min(m.rowCount(), 40)):
        for col in range(m.columnCount()):
            if header.isSectionHidden(col) or (col == m.columnCount() - 1 and header.stretchLastSection()
                                               and not any(c in str(m.index(row, col).data() or "") for c in "$%")):
                continue
            text = str(m.index(row, col).data() or "")
            font = m.index(row, col).data(Qt.ItemDataRole.FontRole)
            fm = QFontMetrics(font) if font is not None else view.fontMetrics()     # a bold figure is wider
            width = header.sectionSize(col) - 6          # the cell's margins
            if view.wordWrap() and re.search(r"[ \-]", text.strip()):
                # wrapped onto the row's height (at a space or after a hyphen): every line shown,
                # and no word broken in two ("acknowle…" is cut however tall the row)
                tall = fm.boundingRect(QRect(0, 0, width, 100000), Qt.TextFlag.TextWordWrap, text).height()
                if tall > view.rowHeight(row):
                    bad.append(f"{view.objectName()} row {row} {text!r} needs {tall} px high, has "
                               f"{view.rowHeight(row)}")
                # a word is cut at a space or a hyphen between letters ("face-up-ca"); an amount
                # ("-$254,081.85") is one word: its sign wrapped away from it is a broken figure
                pieces = [p for w in text.split() for p in re.split(r"(?<=[A-Za-z]-)(?=[A-Za-z])", w)]
                longest = max(pieces, key=fm.horizontalAdvance)
                if fm.horizontalAdvance(longest.strip()) > width:
                    bad.append(f"{view.objectName()} row {row} {text!r}: the word {longest.strip()!r} needs "
                               f"{fm.horizontalAdvance(longest.strip())} px, has {header.sectionSize(col)}")
                continue
            need = fm.horizontalAdvance(text)
            widest = view.property("widest")
            if widest and header.sectionSize(col) >= widest and m.index(row, col).data(Qt.ItemDataRole.ToolTipRole) == text:
                continue        # a log's message past its widest column: whole in the tooltip (log_tab.WIDEST)
            if text and need > width:
                bad.append(f"{view.objectName() or type(view).__name__} row {row} {text!r} needs {need} px, "
                           f"has {header.sectionSize(col)}")
    return bad


def cut_hints(page: QWidget) -> list[str]:
    """An empty entry's hint (its placeholder) wider than the entry: Qt cuts it with an ellipsis."""
    bad = []
    for edit in page.findChildren(QLineEdit):
        hint = edit.placeholderText()
        if not edit.isVisible() or not hint or edit.text():
            continue
        opt = QStyleOptionFrame()
        edit.initStyleOption(opt)
        room = edit.style().subElementRect(QStyle.SubElement.SE_LineEditContents, opt, edit)
        m = edit.textMargins()
        room = room.width() - m.left() - m.right() - 4           # QLineEdit's own 2 px a side
        if edit.isClearButtonEnabled():
            room -= edit.height() // 2 + 4                        # the clear button's place, kept empty
        need = edit.fontMetrics().horizontalAdvance(hint)
        if need > room:
            bad.append(f"{edit.objectName() or 'an entry'}'s hint {hint!r} needs {need} px, has {room}")
    return bad
