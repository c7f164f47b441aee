"""The journal: the rows the log wrote since the workstation last looked, turned into what changed.

The log hands every committed row to the journal as it commits it (``AuditLog.listen``): the
workstation's own appends and those of another process on the same database (``pitdesk users
add`` while a shift runs), in the log's order. Nothing is read back. ``changes()`` takes them,
hands them to those who keep count of them (the alarm book, the rounds being entered, the last
meter of each table) and says what they changed, for the window to redraw just that.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable

from app.store.log import AuditLog, Logged

from .changes import NOTHING, Changes, changes

USER_EVENTS = frozenset({"user_added", "role_changed", "pin_changed", "user_locked", "user_unlocked", "sign_in",
                         "sign_in_failed", "signed_out"})

Folder = Callable[[list[Logged]], Iterable[str]]   # rows in; the tables whose round panel they changed

# the rows that change a table's settled rounds or its slips (the round panel's Rounds and Slips)
BOOK_EVENTS = frozenset({"settlement", "round_released", "payout", "slip_issued", "slip_voided", "approval_decided"})


class Journal:
    def __init__(self, log: AuditLog, tables: Iterable[str], meters: dict[str, int]):
        self._tables = frozenset(tables)
        self.meters = dict(meters)          # table -> the meter as last logged (cents)
        self._folders: list[Folder] = []
        self._rows: list[Logged] = []
        self._lock = threading.Lock()       # the log tells on its writer's thread
        log.listen(self._told)

    def _told(self, rows: list[Logged]) -> None:
        with self._lock:
            self._rows.extend(rows)

    def fold_into(self, folder: Folder) -> None:
        """``folder(rows)`` is handed every batch of rows ``changes`` takes, before it says what
        changed."""
        self._folders.append(folder)

    def changes(self) -> Changes:
        """What the rows logged since the last call changed: the tables they name, the alarms
        raised, acknowledged or cleared, the approvals requested or decided, the users, the rows'
        seqs and the tables whose round being entered moved."""
        with self._lock:
            rows, self._rows = self._rows, []
        if not rows:
            return NOTHING
        rounds: set[str] = set()
        for fold in self._folders:
            rounds.update(fold(rows))
        tables, alarms, approvals, users, books = set(), set(), set(), set(), set()
        for r in rows:
            if r.table in self._tables:
                tables.add(r.table)
                if r.type in BOOK_EVENTS:
                    books.add(r.table)
            if r.type == "alarm_raised":
                alarms.add(r.seq)
            elif r.type == "approval_requested":
                approvals.add(r.seq)
            elif r.type == "meter_reading":
                if r.table:
                    self.meters[r.table] = r.data["cents"]
            elif r.type == "approval_decided":
                approvals.add(r.data["request"])
            elif r.type in USER_EVENTS:
                if r.data.get("name"):
                    users.add(r.data["name"])
            elif r.type in ("alarm_acknowledged", "alarm_cleared"):
                alarms.add(r.data["alarm"])
        return changes(tables, alarms, approvals, users, seqs=[r.seq for r in rows], rounds=rounds, books=books)
