"""An exception raised in a Qt slot fails the test that caused it, and so does a bug in a lane's
task that a view would only show as a message (tests/conftest.py, app/views/tasks.py)."""

from app.qt import QObject, QTimer
from app.views.tasks import Lane
from app.workstation.errors import Refused

SLOT_RAISES = """
from PySide6.QtCore import QTimer

def test_a_slot_raises(qtbot):
    fired = []
    def slot():
        fired.append(True)
        raise AttributeError("'RoundPanel' object has no attribute 'save_slip'")
    QTimer.singleShot(0, slot)
    qtbot.waitUntil(lambda: bool(fired))
"""


def test_an_exception_in_a_slot_fails_the_test(pytester, qapp):
    pytester.makepyfile(test_inner=SLOT_RAISES)
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*Exceptions caught in Qt event loop*", "*no attribute 'save_slip'*"])


def test_a_bug_in_a_lane_task_reaches_the_hook_as_well_as_its_callback(qtbot):
    parent = QObject()
    lane = Lane("test", parent)
    shown = []
    try:
        with qtbot.capture_exceptions() as caught:
            lane.run(lambda: None.missing, on_error=shown.append)          # a bug: AttributeError
            lane.run(lambda: (_ for _ in ()).throw(Refused("request 12 was already approved")), on_error=shown.append)
            qtbot.waitUntil(lambda: len(shown) == 2)
    finally:
        lane.close()
    assert [type(e) for e in shown] == [AttributeError, Refused]
    # the refusal is a person's to read; only the bug is a test's failure
    assert [type(e) for _, e, _ in caught] == [AttributeError]


def test_a_timer_whose_slot_raises_is_caught_where_a_test_means_it(qtbot):
    with qtbot.capture_exceptions() as caught:
        QTimer.singleShot(0, lambda: 1 / 0)
        qtbot.waitUntil(lambda: bool(caught))
    assert caught[0][0] is ZeroDivisionError
