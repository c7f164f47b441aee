"""The faces the window and the paper are drawn in, shipped in resources/fonts/ (issue 33, 6).

A label's width, a column's and a page's break depend on the face: left to the machine, the
window that fits on one pit workstation cuts words on the next (another default face, another
version of it). pitdesk therefore ships the faces it is designed with, DejaVu Sans and DejaVu
Sans Mono (regular and bold; Bitstream Vera licence, resources/fonts/LICENSE), and registers them
with Qt's font database at the start of the application (``load``): the window (app/views/
theme.py) and the paper (shift_report.py, slip.py) name them by family. The frozen build carries
them in its resources/ (installer/pitdesk.spec checks they are collected).
"""

from __future__ import annotations

from app.rules.resources import RESOURCES

from app.qt import QFont, QFontDatabase, QGuiApplication

FOLDER = RESOURCES / "fonts"
SANS = "DejaVu Sans"
MONO = "DejaVu Sans Mono"
FILES = ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf")

_loaded: dict[str, tuple[str, ...]] = {}


class FontMissing(RuntimeError):
    """A shipped face is missing or unreadable: a broken installation."""


def load() -> dict[str, tuple[str, ...]]:
    """Register the shipped faces with Qt's font database, once a process (a QGuiApplication must
    exist); the families of each file. A file missing or refused raises ``FontMissing``."""
    if _loaded:
        return dict(_loaded)
    if QGuiApplication.instance() is None:
        raise FontMissing("the fonts are registered after the application is made")
    found: dict[str, tuple[str, ...]] = {}
    for name in FILES:
        path = FOLDER / name
        if not path.is_file():
            raise FontMissing(f"the font {path} is missing: the installation is incomplete")
        font_id = QFontDatabase.addApplicationFont(str(path))
        if font_id < 0:
            raise FontMissing(f"the font {path} could not be loaded")
        found[name] = tuple(QFontDatabase.applicationFontFamilies(font_id))
    _loaded.update(found)
    return dict(found)


def sans(pt: float, bold: bool = False) -> QFont:
    """The shipped sans at ``pt`` points (loaded first, where it was not)."""
    return _face(SANS, pt, bold)


def mono(pt: float, bold: bool = False) -> QFont:
    """The shipped monospaced face: figures that line up, a chain head, cards as typed."""
    f = _face(MONO, pt, bold)
    f.setStyleHint(QFont.StyleHint.Monospace)
    return f


def _face(family: str, pt: float, bold: bool) -> QFont:
    load()
    f = QFont(family)
    f.setPointSizeF(pt)
    f.setBold(bold)
    return f
