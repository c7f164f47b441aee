"""The one place pitdesk imports Qt (as Anki's aqt/qt): every view imports Qt names from here.

A second Qt binding, or a Qt class moving between modules in a later PySide6, is then a change
to this file only. Nothing here knows of pitdesk.

The binding is pinned to PySide6-Essentials 6.11.3 (pyproject.toml): 6.12.0 on CPython 3.11
takes a reference from None at every void call and from True at every signal emit, and the
interpreter aborts within minutes of a busy window ("Fatal Python error: none_dealloc").
tests/views/test_views_models.py checks the binding in use does neither.

PySide6-Essentials 6.11.3 carries QtPrintSupport (QPrinter, QPrintDialog) as well as QPdfWriter
(QtGui): a payout slip (app/reports/slip.py) is drawn once for a PDF and for a printer. QtPdf
(QPdfDocument) is in PySide6-Addons only, so a PDF is rendered to an image with poppler's pdftoppm.
"""

from __future__ import annotations

from PySide6 import QtCore, QtGui, QtWidgets
from PySide6.QtCore import (
    QAbstractTableModel,
    QBuffer,
    QByteArray,
    QCoreApplication,
    QDate,
    QElapsedTimer,
    QEvent,
    QEventLoop,
    QIODevice,
    QLibraryInfo,
    QMarginsF,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    QPointF,
    QRect,
    QRectF,
    QRunnable,
    QSettings,
    QSize,
    QSizeF,
    QSortFilterProxyModel,
    QStandardPaths,
    Qt,
    QThreadPool,
    QTimer,
    Signal,
    Slot,
    QUrl,
)
from PySide6.QtGui import (
    QAction,
    QColor,
    QFont,
    QFontDatabase,
    QFontInfo,
    QFontMetrics,
    QGuiApplication,
    QIcon,
    QImage,
    QIntValidator,
    QKeySequence,
    QPageLayout,
    QPageSize,
    QPainter,
    QPalette,
    QPdfWriter,
    QPen,
    QTextDocument,
)
from PySide6.QtPrintSupport import QPrintDialog, QPrinter, QPrinterInfo, QPrintPreviewWidget
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QCheckBox,
    QComboBox,
    QDateEdit,
    QDateTimeEdit,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLayout,
    QLineEdit,
    QMenu,
    QMainWindow,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QSpinBox,
    QSplitter,
    QStackedWidget,
    QStyle,
    QStyleFactory,
    QStyleOptionFrame,
    QTableView,
    QTabWidget,
    QTextBrowser,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)


def pyqtgraph():
    """pyqtgraph, on PySide6, imported the first time a chart is drawn: its import takes most of a
    second, which the window's cold start does not pay (docs/benchmarks.md)."""
    import os
    os.environ.setdefault("PYQTGRAPH_QT_LIB", "PySide6")
    import pyqtgraph as pg
    import pyqtgraph.exporters   # noqa: F401  (a submodule pyqtgraph does not import itself: a chart's picture)
    return pg


__all__ = [name for name in dir() if not name.startswith("_") and name != "annotations"]
