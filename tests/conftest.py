"""Fixtures shared by the store, live pit and device tests."""

import pytest

from app.store.log import AuditLog


@pytest.fixture
def log(tmp_path, monkeypatch):
    """A real audit database in a temporary folder, with its own install key (PITDESK_HOME)."""
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    with AuditLog(tmp_path / "audit.db") as lg:
        yield lg
