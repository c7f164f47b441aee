"""The look of the pit: Fusion with one dark palette, sizes in points, one meaning per colour.

A pit is dim and the supervisor reads the screen at arm's length, so the palette is set here
rather than taken from the platform (the offscreen platform has no colour scheme, and a
workstation's desktop theme is whatever IT installed). Every size is a multiple of the base
font's point size: ``apply(app, base_pt=16)`` makes everything larger, numerals included.

Red, amber and green mean the same on every screen, and never by colour alone: each level has
a shape and a word beside it (``LEVEL_MARK``), so a colour-blind supervisor, or a grey-scale
printout of a screenshot, reads the same thing.

| level | colour | mark | used for |
|---|---|---|---|
| ok | green | ● | a device online, a clock with time to spare |
| amber | amber | ▲ | a device degraded, a clock nearing its deadline, pending approvals |
| red | red | ■ | a device offline, a clock due now or overdue, open alarms |
| none | grey | ○ | nothing known yet (a link still connecting), nothing to show |
"""

from __future__ import annotations

from datetime import timedelta

from app.engine import words
from app.reports import fonts
from app.qt import QApplication, QColor, QFont, QLabel, QPalette, QStyleFactory, QWidget

BASE_PT = 12.0          # readable at arm's length on a 24-inch 1920x1080 screen

OK, AMBER, RED, NONE = "ok", "amber", "red", "none"

COLOUR = {
    OK: QColor("#3ccf6a"),
    AMBER: QColor("#ffb020"),
    RED: QColor("#ff4d4d"),
    NONE: QColor("#8a8f98"),
}
# the dark text drawn on a filled level badge (white on amber is unreadable)
ON_COLOUR = {OK: QColor("#08140c"), AMBER: QColor("#1a1000"), RED: QColor("#ffffff"), NONE: QColor("#101114")}
LEVEL_MARK = {OK: "●", AMBER: "▲", RED: "■", NONE: "○"}

BACKGROUND = QColor("#17181b")
SURFACE = QColor("#22242a")        # tiles, group boxes
SURFACE_HI = QColor("#2c2f37")
TEXT = QColor("#eceff4")
TEXT_DIM = QColor("#a4abb8")
FOCUS = QColor("#6cb6ff")          # keyboard focus and selection: blue, never a level colour

# A device link's state, as the tile's light shows it (docs/devices.md: the session's states)
LINK_LEVEL = {"online": OK, "degraded": AMBER, "offline": RED, "connecting": NONE}
LINK_WORD = {"online": "ONLINE", "degraded": "DEGRADED", "offline": "OFFLINE", "connecting": "CONNECTING"}
DEVICE_NAME = {"shuffler": "SHUFFLER", "shoe": "SHOE", "progressive": "PROGRESSIVE", "rng": "RNG"}


def palette() -> QPalette:
    p = QPalette()
    roles = {
        QPalette.ColorRole.Window: BACKGROUND,
        QPalette.ColorRole.WindowText: TEXT,
        QPalette.ColorRole.Base: QColor("#111215"),
        QPalette.ColorRole.AlternateBase: QColor("#1b1d21"),
        QPalette.ColorRole.ToolTipBase: SURFACE_HI,
        QPalette.ColorRole.ToolTipText: TEXT,
        QPalette.ColorRole.PlaceholderText: TEXT_DIM,
        QPalette.ColorRole.Text: TEXT,
        QPalette.ColorRole.Button: SURFACE_HI,
        QPalette.ColorRole.ButtonText: TEXT,
        QPalette.ColorRole.BrightText: QColor("#ff8080"),
        QPalette.ColorRole.Light: QColor("#3a3d46"),
        QPalette.ColorRole.Midlight: QColor("#30333b"),
        QPalette.ColorRole.Mid: QColor("#25272d"),
        QPalette.ColorRole.Dark: QColor("#0d0e10"),
        QPalette.ColorRole.Shadow: QColor("#000000"),
        QPalette.ColorRole.Highlight: QColor("#2f6db5"),
        QPalette.ColorRole.HighlightedText: QColor("#ffffff"),
        QPalette.ColorRole.Link: FOCUS,
        QPalette.ColorRole.LinkVisited: FOCUS,
    }
    for role, colour in roles.items():
        p.setColor(role, colour)
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor("#6b717c"))
    return p


def apply(app: QApplication, base_pt: float | None = None, faces: tuple[str, str] | None = None) -> None:
    """Fusion, the dark palette, the face and the base font size for the whole application. The
    faces are the shipped ones (app/reports/fonts.py), so a window laid out on one machine is laid
    out the same on the next; ``faces`` (sans, monospaced) another pair, e.g. the system's, to
    check that the window still fits in it (tests/views/test_gui_fit.py)."""
    app.setStyle(QStyleFactory.create("Fusion"))
    app.setPalette(palette())
    if faces is None:
        fonts.load()
        faces = (fonts.SANS, fonts.MONO)
    _faces[:] = faces
    font = QFont(faces[0])
    font.setPointSizeF(base_pt or BASE_PT)
    app.setFont(font)


_faces = [fonts.SANS, fonts.MONO]       # the application's sans and monospaced faces (apply)


def base_pt() -> float:
    app = QApplication.instance()
    size = app.font().pointSizeF() if app is not None else -1
    return size if size > 0 else BASE_PT


def font(scale: float = 1.0, bold: bool = False, mono: bool = False) -> QFont:
    """The application font at ``scale`` times the base point size."""
    f = QFont(QApplication.font())
    if mono:
        # tabular figures: a countdown or a meter does not jiggle as its digits change
        f.setFamilies([_faces[1], "Monospace"])
        f.setStyleHint(QFont.StyleHint.Monospace)
    f.setPointSizeF(base_pt() * scale)
    f.setBold(bold)
    return f


def set_level(label: QLabel, level: str, filled: bool = False) -> None:
    """Colour ``label`` for ``level``; ``filled`` paints a badge (the colour behind dark text).
    Nothing is done when the label already shows it: a new palette repaints the label."""
    if label.property("level") == level and label.property("filled") == filled:
        return
    p = QPalette(label.palette())
    if filled:
        p.setColor(QPalette.ColorRole.Window, COLOUR[level])
        p.setColor(QPalette.ColorRole.WindowText, ON_COLOUR[level])
    else:
        p.setColor(QPalette.ColorRole.Window, SURFACE)
        p.setColor(QPalette.ColorRole.WindowText, COLOUR[level])
    label.setAutoFillBackground(filled)
    label.setPalette(p)
    label.setProperty("level", level)
    label.setProperty("filled", filled)


def set_plain(label: QLabel) -> None:
    """Ordinary text again (no level)."""
    if label.property("filled") is False and label.property("level") is None:
        return
    p = QPalette(label.palette())
    p.setColor(QPalette.ColorRole.WindowText, TEXT)
    label.setAutoFillBackground(False)
    label.setPalette(p)
    label.setProperty("level", None)
    label.setProperty("filled", False)


def set_dim(widget: QWidget) -> None:
    set_text_colour(widget, TEXT_DIM)


def set_text_colour(widget: QWidget, colour: QColor) -> None:
    """Text in ``colour`` without a level (dim for what needs no one, bright for what is worth a look)."""
    p = QPalette(widget.palette())
    p.setColor(QPalette.ColorRole.WindowText, colour)
    widget.setPalette(p)


# -- words beside the colours ----------------------------------------------------------------
money = words.money          # one definition of an amount in words (app/engine/words.py)


def duration(td: timedelta) -> str:
    """H:MM:SS of a time span (its absolute value)."""
    s = int(abs(td.total_seconds()))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def clock_words(level: str, left: timedelta, overdue: bool) -> str:
    """What a deck or dice countdown says beside its colour: the level in a word and the time."""
    if overdue:
        return f"{LEVEL_MARK[RED]} OVERDUE +{duration(left)}"
    if level == RED:
        return f"{LEVEL_MARK[RED]} DUE NOW {duration(left)}"
    if level == AMBER:
        return f"{LEVEL_MARK[AMBER]} DUE {duration(left)}"
    return f"{LEVEL_MARK[OK]} OK {duration(left)}"


def link_words(cls: str, state: str) -> str:
    level = LINK_LEVEL.get(state, NONE)
    return f"{LEVEL_MARK[level]} {DEVICE_NAME.get(cls, cls.upper())} {LINK_WORD.get(state, state.upper())}"


def stylesheet() -> str:
    """The few things a palette cannot say: focus rings and the tile's frame by level (the
    keyboard's tile has a thicker frame and a lighter face; its colour stays the level's). Sizes
    are left to the fonts, so the base point size scales them."""
    return f"""
    QFrame#tile {{ background: {SURFACE.name()}; border: 3px solid #3a3d46; border-radius: 8px; }}
    QFrame#tile[level="red"] {{ border: 4px solid {COLOUR[RED].name()}; }}
    QFrame#tile[level="amber"] {{ border: 4px solid {COLOUR[AMBER].name()}; }}
    QFrame#tile:focus {{ border: 6px solid {FOCUS.name()}; background: {SURFACE_HI.name()}; }}
    QFrame#tile[level="red"]:focus {{ border: 6px solid {COLOUR[RED].name()}; }}
    QFrame#tile[level="amber"]:focus {{ border: 6px solid {COLOUR[AMBER].name()}; }}
    QTableView {{ gridline-color: #2c2f37; }}
    QTableView:focus, QLineEdit:focus, QComboBox:focus, QPushButton:focus {{ border: 2px solid {FOCUS.name()}; }}
    QLabel#error {{ color: {COLOUR[RED].name()}; }}
    """
