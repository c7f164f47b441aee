"""Who is signed in at the workstation, since when, and when the session ends for want of
activity (the people desk, app/workstation/desks/people.py, keeps one)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from .readouts import SessionInfo


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
