"""Every word a person is shown is for people (issue 27; app/engine/words.py): no raw cents, no
identifiers with underscores, no ISO timestamps. ``shown_texts`` walks what a window shows or can
show; ``faults`` names what is not for people in one text."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QComboBox, QGroupBox, QLabel, QLineEdit,
                               QPlainTextEdit, QTabBar, QWidget)

FAULTS = {
    "raw cents": re.compile(r"\b\d+ cents\b|cents="),
    "an identifier": re.compile(r"\b[a-z]+_[a-z_]+\b"),
    "an ISO timestamp": re.compile(r"\d{4}-\d\d-\d\dT\d\d"),
    "a JSON field": re.compile(r'"[a-z_ ]+": '),
}
# A round file's field path (docs/round-format.md) in a refusal of the round: it names the field at
# fault in the file (or the panel's round, which is one) as ``pitdesk settle`` reads it, e.g.
# "banking.dealer_wager: $30.00 is more than ...". The only identifiers a person may be shown.
FIELD_PATH = re.compile(r"\b(?:banking|seats\[\d+\](?:\.bettors\[\d+\])?|dealer|round)(?:\.[a-z_\d]+)+")
ROWS = 400                      # a list's first rows: enough for every kind of row on these floors


def faults(where: str, text: str) -> list[str]:
    bare = FIELD_PATH.sub("FIELD", text)
    return [f"{fault} {m.group(0)!r} in {text!r} ({where})" for fault, pattern in FAULTS.items()
            for m in pattern.finditer(bare)]


def said(found: list[str]) -> str:
    """Each fault once (the first place it was seen)."""
    first: dict[str, str] = {}
    for f in found:
        first.setdefault(f.rsplit(" (", 1)[0], f)
    return "\n".join(list(first.values())[:60])


def model_texts(view: QAbstractItemView) -> list[str]:
    m = view.model()
    if m is None:
        return []
    out = [str(m.headerData(c, Qt.Orientation.Horizontal) or "") for c in range(m.columnCount())]
    for r in range(min(m.rowCount(), ROWS)):
        for c in range(m.columnCount()):
            for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole):
                v = m.index(r, c).data(role)
                if isinstance(v, str):
                    out.append(v)
    return out


def shown_texts(root: QWidget, exempt: tuple[QWidget, ...] = ()) -> list[tuple[str, str]]:
    """Every string ``root`` and its children show or can show a person: (where, text)."""
    out: list[tuple[str, str]] = [("title", root.windowTitle())]

    def add(w: QWidget, *texts: str) -> None:
        name = w.objectName() or type(w).__name__
        out.extend((name, t) for t in texts if t)

    for w in root.findChildren(QWidget):
        if any(w is x or x.isAncestorOf(w) for x in exempt):
            continue
        add(w, w.toolTip(), w.statusTip(), w.whatsThis())
        if isinstance(w, QLabel):
            add(w, w.text())
        elif isinstance(w, QAbstractButton):
            add(w, w.text())
        elif isinstance(w, QGroupBox):
            add(w, w.title())
        elif isinstance(w, QLineEdit):
            add(w, w.placeholderText())
        elif isinstance(w, QComboBox):
            add(w, *(w.itemText(i) for i in range(w.count())))
        elif isinstance(w, QTabBar):
            add(w, *(w.tabText(i) for i in range(w.count())), *(w.tabToolTip(i) for i in range(w.count())))
        elif isinstance(w, QAbstractItemView):
            add(w, *model_texts(w))
        elif isinstance(w, QPlainTextEdit):
            add(w, *w.toPlainText().splitlines())
    for a in root.findChildren(QAction):
        out.extend(("action", t) for t in (a.text(), a.toolTip(), a.statusTip()) if t)
    return out
