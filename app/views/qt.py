"""The one place pitdesk imports Qt (as Anki's aqt/qt): every view imports Qt names from here.

A second Qt binding, or a Qt class moving between modules in a later PySide6, is then a change
to this file only. Nothing here knows of pitdesk, except one repair (``_keep_none_alive``).
"""

from __future__ import annotations

import ctypes
import sys

from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import (
    QAbstractTableModel,
    QByteArray,
    QCoreApplication,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    QRect,
    QRunnable,
    QSettings,
    QSize,
    QSortFilterProxyModel,
    QStandardPaths,
    Qt,
    QThreadPool,
    QTimer,
    Signal,
    Slot,
)
from PySide6.QtGui import (
    QAction,
    QColor,
    QFont,
    QFontMetrics,
    QGuiApplication,
    QImage,
    QKeySequence,
    QPainter,
    QPalette,
    QPen,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLayout,
    QLineEdit,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QStyleFactory,
    QTableView,
    QTabWidget,
    QTextBrowser,
    QToolBar,
    QVBoxLayout,
    QWidget,
)


class _Probe(QtCore.QObject):
    said = Signal()


def singleton_leaks() -> dict[str, int]:
    """References lost per call by the two kinds of call PySide6 6.12.0 miscounts on CPython
    3.11: a void method (None) and a signal's ``emit`` (True); 0 each in a sound binding."""
    probe = _Probe()
    calls = 100
    n0, t0, f0 = sys.getrefcount(None), sys.getrefcount(True), sys.getrefcount(False)
    for _ in range(calls):
        probe.setObjectName("probe")
    n1 = sys.getrefcount(None)
    for _ in range(calls):
        probe.said.emit()
    t1, f1 = sys.getrefcount(True), sys.getrefcount(False)
    return {"None": round((n0 - n1) / calls), "True": round((t0 - t1) / calls), "False": round((f0 - f1) / calls)}


# PySide6 6.12.0 on CPython 3.11 returns None from every void method (setText, setVisible, ...)
# and True from every signal's emit() without taking a reference to them, so each call takes one
# reference from None or True; after some thousands of calls the count reaches zero and the
# interpreter aborts ("Fatal Python error: none_dealloc", "bool_dealloc"), a busy window within
# seconds (None) or minutes (True). CPython 3.12 made these objects immortal (PEP 683), which is
# why the binding gets away with it there; PySide6 6.11.3 does not have the bug. Until the
# binding is fixed, None, True and False are given a reference count no window can spend (2**40
# calls), so they behave as the immortals they are in 3.12. The repair runs only where a leak is
# measured, so a fixed PySide6 turns it off by itself.
RESERVE = 1 << 40
REPAIRED: tuple[str, ...] = ()


def _keep_singletons_alive() -> None:
    global REPAIRED
    if sys.version_info >= (3, 12) or REPAIRED:
        return
    leaks = singleton_leaks()
    if not any(v > 0 for v in leaks.values()):
        return
    # False too: it is True's twin in every call that returns a bool, and costs nothing to keep
    for name, obj in (("None", None), ("True", True), ("False", False)):
        # ob_refcnt is the first field of every object in a release build of CPython 3.11; the
        # GIL is held here, and every other change to a reference count also needs it
        ctypes.c_ssize_t.from_address(id(obj)).value += RESERVE
    REPAIRED = ("None", "True", "False")


_keep_singletons_alive()

__all__ = [name for name in dir() if not name.startswith("_") and name != "annotations"]
