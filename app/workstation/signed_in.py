"""Who is signed in at the workstation, and when the session ends for want of activity.

One person at a time: the status bar shows them, and every action is theirs. A new sign-in
replaces the session (the floor supervisor who walks over to approve a payout signs in over the
dealer). The session ends at ``sign_out``, or when nothing was done for the idle time (five
minutes unless configured, issue 13); the window calls ``touch`` on every key or click.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from .readouts import SessionInfo

# who may do what (docs/audit.md, "People"; app/store/approvals.py): an administrator runs the
# system, not the game; a dealer records the table's events but never acknowledges or approves
SUPERVISORS = ("floor supervisor", "pit manager")
AT_THE_TABLE = ("dealer", "floor supervisor", "pit manager")
ADMINISTRATOR = ("administrator",)


@dataclass(frozen=True)
class SignedIn:
    name: str
    role: str
    since: datetime
    last_activity: datetime

    def ends(self, idle: timedelta) -> datetime:
        return self.last_activity + idle

    def expired(self, now: datetime, idle: timedelta) -> bool:
        return now >= self.ends(idle)

    def touched(self, now: datetime) -> "SignedIn":
        return replace(self, last_activity=max(now, self.last_activity))

    def info(self, idle: timedelta) -> SessionInfo:
        return SessionInfo(self.name, self.role, self.since, self.last_activity, self.ends(idle))


def a_or_an(role: str) -> str:
    return f"{'an' if role[0] in 'aeiou' else 'a'} {role}"


def roles_text(roles: tuple[str, ...]) -> str:
    return " or ".join(a_or_an(r) for r in roles)
