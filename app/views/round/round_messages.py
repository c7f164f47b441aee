"""The round panel's messages in one fixed place of a fixed height: what the panel says after a
person's action (a refusal, a round released), a round a denial sent back, a shuffler's deal that
waits for the round being entered, and what blocks Settle.

However many lines there are, the area keeps its height (``LINES`` lines; more scroll inside it,
and its tooltip holds every one), so the commands and the positions under it never move while a
person is typing a round with chips in hand. With nothing to say it says so, dimly.
"""

from __future__ import annotations

from .. import theme
from app.qt import QFontMetrics, QFrame, QLabel, QScrollArea, Qt, QVBoxLayout, QWidget
from ..theme import LEVEL_MARK, NONE
from ..widgets import label, say, visible

LINES = 4               # the lines the area always takes
SCALE = 1.05            # its font, times the base size


class MessageArea(QScrollArea):
    """``message``, ``returned``, ``waiting`` and ``problems``: a label each, said through ``say``."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("round_messages")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # the keyboard goes from field to field; the area is read, and scrolled by the wheel
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        inner = QWidget()
        inner.setObjectName("round_messages_inner")
        box = QVBoxLayout(inner)
        # no spacing between the labels: the area shows whole lines, LINES of them
        box.setContentsMargins(6, 2, 6, 2)
        box.setSpacing(0)
        self.message = label("", SCALE, bold=True, name="round_message", wrap=True)
        self.returned = label("", SCALE, bold=True, name="round_returned", wrap=True)
        self.waiting = label("", SCALE, bold=True, name="round_waiting", wrap=True)
        self.problems = label("", SCALE, bold=True, name="round_problems", wrap=True)
        self.quiet = label(f"{LEVEL_MARK[NONE]} No messages.", SCALE, name="round_quiet")
        theme.set_dim(self.quiet)
        self._labels = (self.message, self.returned, self.waiting, self.problems)
        for lb in self._labels:
            lb.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            lb.hide()
            box.addWidget(lb)
        box.addWidget(self.quiet)
        box.addStretch(1)
        self.setWidget(inner)
        line = QFontMetrics(theme.font(SCALE, bold=True)).lineSpacing()
        self.setFixedHeight(LINES * line + 4 + 2 * self.frameWidth())

    def say(self, lb: QLabel, text: str, level: str | None = None, filled: bool = False) -> None:
        """``lb`` (one of the area's labels) says ``text`` in ``level``'s colour; empty hides it."""
        say(lb, text, level, filled)
        shown = [x.text() for x in self._labels if x.text()]
        visible(self.quiet, not shown)
        tip = "\n\n".join(shown)
        if self.toolTip() != tip:
            self.setToolTip(tip)

    def texts(self) -> list[str]:
        """What the area says, in its order (for a person's tooltip, and a test)."""
        return [x.text() for x in self._labels if x.text()]
