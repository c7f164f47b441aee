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


def none_leak_per_call() -> int:
    """How many references to None one void Qt call loses (0 in a sound binding)."""
    probe = QtCore.QObject()
    before = sys.getrefcount(None)
    for _ in range(100):
        probe.setObjectName("probe")
    return round((before - sys.getrefcount(None)) / 100)


# PySide6 6.12.0 on CPython 3.11 returns None from every void method (setText, setVisible, ...)
# without taking a reference to it, so each call takes one reference from None; after some ten
# thousand calls None's count reaches zero and the interpreter aborts ("Fatal Python error:
# none_dealloc"), a busy window within seconds. CPython 3.12 made None immortal (PEP 683), which
# is why the binding gets away with it there. Until the binding is fixed, None is given a
# reference count no window can spend (2**40 calls), so it behaves as the immortal it is in 3.12.
# The repair only runs where the leak is measured, so a fixed PySide6 turns it off by itself.
NONE_RESERVE = 1 << 40
NONE_REPAIRED = False


def _keep_none_alive() -> None:
    global NONE_REPAIRED
    if sys.version_info >= (3, 12) or NONE_REPAIRED or none_leak_per_call() <= 0:
        return
    # ob_refcnt is the first field of every object in a release build of CPython 3.11; the GIL
    # is held here, and every other change to a reference count also needs it
    ctypes.c_ssize_t.from_address(id(None)).value += NONE_RESERVE
    NONE_REPAIRED = True


_keep_none_alive()

__all__ = [name for name in dir() if not name.startswith("_") and name != "annotations"]
