"""What a workstation action raises: one base class, a few kinds a window reacts to differently.

Every message names the fault in words a supervisor reads ("request 12 was already approved by
fay"); the window shows it as it is. Nothing is written when one of these is raised, except the
failed sign-in itself, which the store logs and counts toward the lockout (docs/audit.md).
"""

from __future__ import annotations


class WorkstationError(Exception):
    """An action that cannot be done; ``str(e)`` says why."""


class SignInRequired(WorkstationError):
    """Nobody is signed in, or the session ended (signed out, idle): the window asks for a PIN."""


class SignInRefused(WorkstationError):
    """Unknown name, wrong PIN or a locked account (the store logged the attempt)."""


class NotPermitted(WorkstationError):
    """The signed-in person's role may not do this (a dealer acknowledging an alarm)."""


class Refused(WorkstationError):
    """The thing itself cannot be done: an alarm already acknowledged, a request already decided,
    an event the procedures refuse, a reason missing, a user that does not exist."""


class LogStopped(WorkstationError):
    """The audit log stopped (disk full, read-only, closed): no more work is accepted."""


class ConfigError(WorkstationError):
    """The configuration file is wrong; the message names the file, the line and the key."""


class FieldsRefused(Refused):
    """Some fields of an entry cannot be taken (a wager over the table maximum, an amount that is not
    dollars and cents): ``fields`` maps each to its reason, for a view to show beside the field.
    Nothing of the entry is taken."""

    def __init__(self, message: str, fields: dict[str, str] | None = None):
        super().__init__(message)
        self.fields = dict(fields or {})
