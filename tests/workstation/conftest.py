"""The workstation's tests (app/workstation) without a window: people and sessions, the live pit
fed by device links, rounds, the progressive, the hold and the logs, on real audit databases.

A test module here whose name starts with ``test_workstation`` is also checked for threads and
processes it leaves running (tests/conftest.py, ``no_thread_left_running``). The people, the
clock and the floors these tests open are in tests/support/workstation.py."""

import pytest

from tests.support.workstation import Clock


@pytest.fixture
def clock():
    """The workstation's clock, at ``T0`` until the test moves it (a module may have its own)."""
    return Clock()
