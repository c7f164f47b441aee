"""pitdesk: Pai Gow Poker pit desk application."""

__version__ = "0.1.0"
