"""The decision dialogs as a supervisor types them (seen in a shift at 1366x768): the PIN, then
Tab to why, then Tab to the button, and the alarm's words above them whole, not squeezed into
each other."""

from __future__ import annotations

from datetime import datetime

import pytest

from app.qt import QLabel, Qt
from app.views.dialogs import AcknowledgeDialog, DecideDialog
from app.workstation.readouts import AlarmInfo, ApprovalInfo, SessionInfo

T = datetime(2026, 11, 29, 1, 12, 38)
FLOOR = SessionInfo("demo-floor", "floor supervisor", T, T, T)
# the demo's own words for a deck left overdue overnight (four lines at the dialog's width)
OVERDUE = AlarmInfo(412, "T7", "deck_overdue", "deck 'red' was due for change at 2026-11-28 18:59 (from the hand; 004 "
                    "has no paragraph on this: the house's procedure); no round starts with it until it is replaced",
                    "from the hand; 004 has no paragraph on this: the house's procedure", "", T, T,
                    "deck 'red' was removed from the table", None, None, None, None)
REQUEST = ApprovalInfo(77, "aggregate_limit", "T3", 2, 7_500_000, "pit manager", "the aggregate limit applies to "
                       "this round's payouts of seat 2 and the seats that bet on its hand", "001 11.10(m)", T, "pending")


def _dialogs(qtbot):
    from app.qt import QApplication
    from app.views import theme
    theme.apply(QApplication.instance())     # the window's face and size, as `pitdesk gui` sets them
    for d in (AcknowledgeDialog(None, OVERDUE, FLOOR), DecideDialog(None, REQUEST, "denied", FLOOR),
              DecideDialog(None, REQUEST, "approved", FLOOR)):
        qtbot.addWidget(d)
        d.show()
        qtbot.waitExposed(d)
        yield d
        d.close()


def test_tab_goes_from_the_pin_to_why_then_to_the_button(qtbot):
    for d in _dialogs(qtbot):
        assert d.focusWidget() is d.pin, d.windowTitle()          # the name is the signed-in person's
        qtbot.keyClick(d.focusWidget(), Qt.Key.Key_Tab)
        assert d.focusWidget() is d.reason, d.windowTitle()
        qtbot.keyClicks(d.reason, "deck replaced")
        qtbot.keyClick(d.focusWidget(), Qt.Key.Key_Tab)
        assert d.focusWidget() is d.ok and d.why() == "deck replaced", d.windowTitle()


@pytest.mark.parametrize("width", [None, 1366 // 2])
def test_the_summary_is_shown_whole(qtbot, width):
    """Every wrapped line of what is decided has its height: none drawn over the next."""
    for d in _dialogs(qtbot):
        if width is not None:
            d.resize(max(width, d.minimumWidth()), d.height())
            qtbot.wait(50)
        labels = [w for w in d.findChildren(QLabel) if w.wordWrap() and w.isVisible() and w.text()]
        assert labels
        for w in labels:
            assert w.height() >= w.heightForWidth(w.width()), (d.windowTitle(), w.text()[:40], w.height(),
                                                             w.heightForWidth(w.width()))
