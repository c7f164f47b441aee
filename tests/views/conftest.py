"""The window's tests (app/views) on the offscreen platform: the real main window over the real
workstation, with simulated devices over loopback TCP where a test needs them; the models through
pytest-qt's model tester.

Every fixture here that opens a window asks for ``no_threads_left`` (tests/conftest.py): the test
fails if it leaves a Qt pool thread busy or a thread of its own running. The floors and the
person at the window are in tests/support/views.py and tests/support/round_panel.py.

An exception raised in a slot fails the test (pytest-qt, tests/conftest.py); here an exception
that ends a thread of the test's (a link, a simulated device) fails it too, rather than being
only a warning."""

from pathlib import Path

import pytest

from app.views import theme
from tests.support.round_panel import make_round_pit
from tests.support.views import close_pit, close_window, make_pit


HERE = Path(__file__).parent
THREAD_ERROR = pytest.mark.filterwarnings("error::pytest.PytestUnhandledThreadExceptionWarning")


def pytest_collection_modifyitems(config, items):
    for item in items:
        if HERE in item.path.parents:
            item.add_marker(THREAD_ERROR)


@pytest.fixture
def themed(qapp):
    theme.apply(qapp)
    qapp.setStyleSheet(theme.stylesheet())
    return qapp


@pytest.fixture
def pit(themed, tmp_path, qtbot, monkeypatch, no_threads_left):
    p = make_pit(tmp_path, qtbot, monkeypatch)
    yield p
    close_pit(p)


@pytest.fixture
def hit_pit(themed, tmp_path, qtbot, monkeypatch, no_threads_left):
    """A floor whose T1 shuffler and progressive controller say what a test makes them say (claim_hit)."""
    p = make_pit(tmp_path, qtbot, monkeypatch, hits=True)
    yield p
    close_pit(p)


@pytest.fixture
def rpit(themed, tmp_path, qtbot, monkeypatch, no_threads_left):
    """The round panel's floor (tests/support/round_panel.py) in the real window."""
    p = make_round_pit(tmp_path, qtbot, monkeypatch)
    yield p
    close_window(p.window, p.ws)
