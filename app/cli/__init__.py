"""The ``pitdesk`` command line (``pitdesk = "app.cli:main"`` in pyproject.toml)."""

from .main import main

__all__ = ["main"]
