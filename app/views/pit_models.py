"""The record models of the pit's lists: alarms, approvals, decks, irregularities, a table's
history, users, shortcuts.

Each is a ``RecordModel`` (app/views/records.py) with its columns declared. A column only
words what the workstation's readouts already say (app/workstation/readouts.py): a status word
beside its colour, money in dollars, a time; nothing here decides a rule.
"""

from __future__ import annotations

from collections.abc import Callable

from app.engine import words as words_for_people
from app.engine.words import signed
from . import theme
from app.qt import QModelIndex
from .records import Column, RecordModel
from .theme import AMBER, LEVEL_MARK, NONE, OK, RED
from .widgets import seat_text, stamp, when, words


# -- alarms ---------------------------------------------------------------------------------
def alarm_level(a) -> str:
    if not a.open:
        return OK
    return AMBER if a.cleared is not None else RED


def alarm_status(a) -> str:
    if not a.open:
        return f"{LEVEL_MARK[OK]} ACKNOWLEDGED"
    if a.cleared is not None:
        # an alarm that clears by itself says so, and still waits
        return f"{LEVEL_MARK[AMBER]} CLEARED BY ITSELF, NOT ACKNOWLEDGED"
    return f"{LEVEL_MARK[RED]} OPEN"


class AlarmModel(RecordModel):
    columns = (
        Column("Status", alarm_status, sort=lambda a: (0 if a.open and a.cleared is None else 1 if a.open else 2),
               level=alarm_level, bold=True),
        Column("Raised", lambda a: when(a.raised), sort=lambda a: stamp(a.raised)),
        Column("Table", lambda a: a.table or "—"),
        Column("Alarm", lambda a: words(a.kind)),
        Column("Message", lambda a: a.message, stretch=True),
        Column("Rule", lambda a: a.rule),
        Column("Device", lambda a: a.serial or ""),
        Column("Cleared", lambda a: f"{when(a.cleared)}: {a.cleared_how}" if a.cleared else "",
               sort=lambda a: stamp(a.cleared)),
        Column("Acknowledged", lambda a: (signed(a.acknowledged_by, a.acknowledged_role, a.countersigned_by,
                                                 a.countersigned_role) + f" {when(a.acknowledged)}"
                                          if a.acknowledged else ""),
               sort=lambda a: stamp(a.acknowledged), done=True),
        Column("Why", lambda a: a.reason or "", done=True),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda a: a.id, parent=parent)


# -- approvals --------------------------------------------------------------------------------
APPROVAL_LEVEL = {"pending": AMBER, "approved": OK, "denied": RED}
APPROVAL_WORD = {"pending": "PENDING", "approved": "APPROVED", "denied": "DENIED"}


def decided_text(r) -> str:
    """Who decided, when and why; a counter-signature named with its role."""
    if not r.decided_by:
        return ""
    return (f"{signed(r.decided_by, r.decided_role, r.countersigned_by, r.countersigned_role)} {when(r.decided)}: "
            f"{r.decision_reason}")


# a fill or a credit says which way its chips go (issue 34); its chips are in its "Why"
REQUEST_WORDS = {"fill": "FILL: cage to tray", "credit": "CREDIT: tray to cage"}


class ApprovalModel(RecordModel):
    columns = (
        Column("Request", lambda r: str(r.request), sort=lambda r: r.request, numeric=True),
        Column("Status", lambda r: f"{LEVEL_MARK[APPROVAL_LEVEL.get(r.status, NONE)]} "
                                   f"{APPROVAL_WORD.get(r.status, r.status.upper())}",
               level=lambda r: APPROVAL_LEVEL.get(r.status, NONE), bold=True),
        Column("Table", lambda r: r.table or "—"),
        Column("Seat", lambda r: seat_text(r.seat), sort=lambda r: -1 if r.seat is None else r.seat),
        Column("Amount", lambda r: theme.money(r.cents) if r.cents is not None else "",
               sort=lambda r: -1 if r.cents is None else r.cents, numeric=True, bold=True),
        Column("Request for", lambda r: REQUEST_WORDS.get(r.kind) or words(r.kind)),
        Column("Rule", lambda r: r.rule),
        Column("Role needed", lambda r: r.role_needed),
        Column("Requested", lambda r: when(r.requested), sort=lambda r: stamp(r.requested)),
        Column("Decided", decided_text, sort=lambda r: stamp(r.decided), done=True),
        Column("Why", lambda r: r.reason, stretch=True),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda r: r.request, parent=parent)


# -- a table's decks and irregularities -------------------------------------------------------
def deck_status(d) -> str:
    if d.clock.in_play:
        return "IN PLAY"
    return "READY (next)" if d.ready else "WAITING"


class DeckModel(RecordModel):
    # the clock first after the deck: it is what a supervisor looks for
    columns = (
        Column("Deck", lambda d: d.clock.deck),
        Column("Colour", lambda d: d.colour or "not reported"),
        Column("Cards", lambda d: "" if d.card_count is None else str(d.card_count),
               sort=lambda d: -1 if d.card_count is None else d.card_count, numeric=True),
        Column("Status", deck_status),
        Column("Clock", lambda d: theme.clock_words(d.clock.level, d.clock.left, d.clock.overdue),
               sort=lambda d: d.clock.left.total_seconds(), level=lambda d: d.clock.level),
        Column("Change by", lambda d: when(d.clock.due), sort=lambda d: stamp(d.clock.due)),
        Column("Age", lambda d: theme.duration(d.clock.age), sort=lambda d: d.clock.age.total_seconds(),
               numeric=True),
        Column("Opened", lambda d: when(d.clock.received), sort=lambda d: stamp(d.clock.received)),
        Column("Rule", lambda d: d.clock.rule),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda d: d.clock.deck, parent=parent)


class PaceModel(RecordModel):
    """A table's shift per clock hour (issue 36, app/workstation/pace.py PaceHour)."""
    columns = (
        Column("Hour", lambda h: f"{h.hour:%a %H:%M}", sort=lambda h: stamp(h.hour)),
        Column("Rounds", lambda h: str(h.rounds), sort=lambda h: h.rounds, numeric=True, bold=True),
        Column("Wagered", lambda h: theme.money(h.wagered), sort=lambda h: h.wagered, numeric=True),
        Column("Average round", lambda h: theme.money(h.average_wager), sort=lambda h: h.average_wager,
               numeric=True),
        Column("Seats in play", lambda h: f"{h.seats_tenths // 10}.{h.seats_tenths % 10}",
               sort=lambda h: h.seats_tenths, numeric=True, stretch=True),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda h: h.hour, parent=parent)


def irregularity_status(i) -> str:
    if i.acknowledged_by:
        return f"{LEVEL_MARK[OK]} acknowledged by {i.acknowledged_by}"
    if i.needs_ack:
        return f"{LEVEL_MARK[RED]} WAITING FOR A SUPERVISOR"
    return "no acknowledgement needed"


class IrregularityModel(RecordModel):
    columns = (
        Column("Ref", lambda i: str(i.ref), sort=lambda i: i.ref, numeric=True),
        Column("Time", lambda i: when(i.time), sort=lambda i: stamp(i.time)),
        Column("Irregularity", lambda i: words(i.kind)),
        Column("Supervisor", irregularity_status,
               level=lambda i: OK if i.acknowledged_by else (RED if i.needs_ack else None)),
        Column("Rule", lambda i: i.rule),
        Column("Consequence", lambda i: i.consequence, stretch=True),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda i: i.ref, parent=parent)


# -- history: newest first, older pages fetched on demand --------------------------------------
def history_details(row) -> str:
    # a time in the data worded as the row's own day and time are ("Sat 12:19:56", issue 33, 5)
    return words_for_people.data(row.data, row.time)


class HistoryModel(RecordModel):
    """A table's events, newest first. Older rows come a page at a time as the view scrolls
    (``canFetchMore``/``fetchMore``, as Qt's "Fetch More" example); the page is read off the GUI
    thread by ``fetch(before, deliver)``, and arrives as row inserts at the bottom."""

    columns = (
        Column("Seq", lambda h: str(h.seq), sort=lambda h: h.seq, numeric=True),
        Column("Time", lambda h: when(h.time), sort=lambda h: stamp(h.time)),
        Column("Event", lambda h: words(h.type)),
        Column("By", lambda h: h.actor),
        Column("Role", lambda h: h.role),
        Column("Details", history_details, stretch=True),
    )

    def __init__(self, fetch: Callable[[int, Callable], None] | None = None, parent=None):
        super().__init__(key=lambda h: h.seq, parent=parent)
        self._fetch = fetch
        self._next_before: int | None = None
        self._fetching = False

    def set_page(self, page) -> None:
        """The newest page: rows newer than those shown go on top. Older pages fetched before
        stay below when the new page reaches them; after a gap they are dropped (read again
        on scrolling) so that no row is ever missing between two shown."""
        rows, next_before = list(page.rows), page.next_before
        if rows and self._rows and rows[-1].seq <= self._rows[0].seq:
            older = [r for r in self._rows if r.seq < rows[-1].seq]
            if older:
                rows, next_before = rows + older, self._next_before
        self.set_records(rows)
        self._next_before = next_before

    def canFetchMore(self, parent=QModelIndex()) -> bool:
        return not parent.isValid() and self._fetch is not None and self._next_before is not None \
            and not self._fetching

    def fetchMore(self, parent=QModelIndex()) -> None:
        if not self.canFetchMore(parent):
            return
        self._fetching = True
        self._fetch(self._next_before, self._older)

    def clear(self) -> None:
        """Another table: nothing shown, nothing being fetched."""
        self.set_records([])
        self._next_before, self._fetching = None, False

    def _older(self, page) -> None:
        if page is None:           # the read failed: the next scroll asks again
            self._fetching = False
            return
        have = {r.seq for r in self._rows}
        rows = [r for r in page.rows if r.seq not in have]
        # the next page is known before the rows go in, and no fetch starts while they do: a view
        # (or the model tester) asks for more from inside the insert
        self._next_before = page.next_before
        if rows:
            self.beginInsertRows(QModelIndex(), len(self._rows), len(self._rows) + len(rows) - 1)
            self._rows.extend(rows)
            self.endInsertRows()
        self._fetching = False


# -- people -----------------------------------------------------------------------------------
def user_level(u) -> str:
    if u.locked_by:
        return RED
    return AMBER if u.locked_until is not None else OK


def user_status(u) -> str:
    if u.locked_by:
        return f"{LEVEL_MARK[RED]} LOCKED by {u.locked_by}"
    if u.locked_until is not None:
        return f"{LEVEL_MARK[AMBER]} LOCKED until {u.locked_until:%H:%M} (wrong PINs)"
    return f"{LEVEL_MARK[OK]} ACTIVE"


class UserModel(RecordModel):
    columns = (
        Column("Name", lambda u: u.name),
        Column("Role", lambda u: u.role),
        Column("Account", user_status, level=user_level),
        Column("Wrong PINs", lambda u: str(u.failures), sort=lambda u: u.failures, numeric=True),
        Column("Added", lambda u: when(u.created), sort=lambda u: stamp(u.created)),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda u: u.name, parent=parent)


# -- the shortcuts page -------------------------------------------------------------------------
class ShortcutModel(RecordModel):
    """Help > Shortcuts: built from the window's own QActions, so it cannot disagree with them."""

    columns = (
        Column("Menu", lambda s: s[0]),
        Column("Command", lambda s: s[1]),
        Column("Shortcut", lambda s: s[2]),
        Column("What it does", lambda s: s[3], stretch=True),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda s: (s[0], s[1]), parent=parent)


__all__ = ["AlarmModel", "ApprovalModel", "DeckModel", "IrregularityModel", "HistoryModel", "UserModel",
           "ShortcutModel", "NONE"]
