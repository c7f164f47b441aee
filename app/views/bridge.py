"""The bridge: the one way between the window and the workstation.

Every call to the workstation runs on one lane (app/views/tasks.py): one thread, in order, so
the workstation is never entered by two threads at once and the GUI thread never waits for the
database, a PIN's scrypt or a device. The link queue is drained in one batch (as Picard's log
view flushes its queue) soon after a device speaks: the workstation's inbox says when it stops
being empty, and the bridge pumps then, at most one pump every ``SOON_MS`` (its timer also
pumps every ``PUMP_MS`` for the clocks and the idle sign-out); after each pump, and after each action a
person takes, the bridge reads back what changed and emits ONE signal, ``changed``, with an
``Update``: the ``Changes`` and the fresh readouts of just those things (Anki's operations: one
"what changed" value the views react to).

A view gets its data one way, by what it is:

- Live state reaches a view only in an ``Update``. A view says what it looks at and the bridge
  reads it back with every update that may have changed it: the tiles of the tables that changed
  (every tile once a second, for the clocks), the alarms, approvals and the session always; the
  watched table's ``TableDetail`` (``watch_table``); that table's round as its round panel shows
  it (``watch_round``: the round being entered, and the table's rounds, its slips and the settled
  round open in the panel); the users while their dialog is open (``watch_users``); whether the
  log still needs its first administrator (the first update).
- A person's action is ``act(lambda ws: ws.<action>(...))``: its ``Changes`` come back to every
  view as an ``Update`` before ``on_done`` has its result.
- A read that no update carries, asked for when a person asks or a view is shown, is
  ``read`` (on the lane), ``read_aside`` (on the logs' lane, with a connection of its own) or
  ``read_logs`` (the logs): a page of a table's history, one settled round opened, a wager
  checked as it is typed, the hold of a period, a shift report, the progressive meters' pages,
  the logs' pages, their tables and an export.

A view never calls the workstation outside these, but for its configuration, which never
changes and is read on any thread: the floor's tables and the logs' tabs (the window, as it is
made) and the shifts (``shifts``).

The clocks on the tiles move with time and not only with events, so the tiles are read again
at least once a second. ``now`` is the workstation's clock, so a test moves time by moving that
clock and nothing here sleeps.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from typing import Any

from app.workstation.changes import NOTHING, Changes
from app.workstation.errors import LogStopped

from app.qt import QObject, Qt, QTimer, Signal
from .tasks import Lane, report_bug

PUMP_MS = 100
SOON_MS = 3         # a device spoke: pump after this long at most, so that more events join the batch
TICK = timedelta(seconds=1)      # the tiles' countdowns and the status bar's idle time
TOUCH_EVERY = timedelta(seconds=1)


@dataclass(frozen=True)
class TableRound:
    """The watched table's round, as its round panel shows it. ``draft`` is always read (None: no
    round is being entered); ``rounds``, ``slips`` and ``result`` only when they may have changed
    (None: not read this time); ``error``: the round could not be read, and why."""
    table: str
    draft: Any = None                         # RoundDraftInfo, or None
    rounds: tuple | None = None               # the table's RoundSummary, newest first
    slips: tuple | None = None                # the table's SlipInfo, in number order
    result: Any = None                        # the RoundResult of the settlement open in the panel
    error: str = ""


@dataclass(frozen=True)
class Update:
    """What one pump or one action changed, with the readouts the views redraw from. A field
    left None was not read this time (it did not change); ``session`` is always read."""
    changes: Changes
    now: datetime
    session: Any = None                       # SessionInfo, or None when nobody is signed in
    tiles: tuple | None = None                # the tables' Tiles: every table's, or those that changed
    alarms: tuple | None = None               # every AlarmInfo, newest first
    approvals: tuple | None = None            # every ApprovalInfo (pending and decided)
    detail: Any = None                        # the watched table's TableDetail
    users: tuple | None = None                # every UserInfo (while the users dialog is open)
    first: bool = False                       # the first update: everything is in it
    round: TableRound | None = None           # the watched table's round (while its round panel is shown)
    needs_administrator: bool = False         # the first update: the log has no user yet
    shipping: Any = None                      # the background shipper's ShippingState (once a second; None:
    #                                           not read, or the log is not shipped: app/workstation/shipper.py)


@dataclass
class _Wanted:
    """What the GUI looks at, copied to each lane task (never shared between threads)."""
    table: str | None = None
    users: bool = False
    round: bool = False             # the watched table's round panel is shown
    settlement: int | None = None   # the settled round open in it
    book: int = 0                   # asked for the table's rounds and slips again this many times


def listed_counts(alarms, approvals, tables: set) -> tuple[dict, dict]:
    """Per table of the floor, its open alarms and pending requests in these lists, as its tile
    counts them (a table with none left out)."""
    open_, pending = {}, {}
    for a in alarms:
        if a.open and a.table in tables:
            open_[a.table] = open_.get(a.table, 0) + 1
    for q in approvals:
        if q.status == "pending" and q.table in tables:
            pending[q.table] = pending.get(q.table, 0) + 1
    return open_, pending


@dataclass
class _Reads:
    """What the lane read last: lives on the lane's thread only."""
    tick: datetime | None = None
    table: str | None = None
    users: bool = False
    round: bool = False
    book: int = 0
    seen: set = field(default_factory=set)
    newest: int | None = None      # the watched table's newest settlement, as last read
    shipping: tuple | None = None  # what the status bar says of the shipper, as last sent
    # per table, the open alarms and pending requests of the lists last sent: the tiles' counts,
    # read every tick, say when another hand changed them (its Changes went to it, not here)
    listed: tuple | None = None
    lists: tuple = ((), ())        # the alarms and the approvals last sent


class Bridge(QObject):
    changed = Signal(object)      # Update
    failed = Signal(str)          # the log stopped, or the workstation failed: no more work
    _arrived = Signal()           # from a link's thread: the inbox stopped being empty

    def __init__(self, workstation, clock: Callable[[], datetime] | None = None, pump_ms: int = PUMP_MS,
                 parent: QObject | None = None):
        super().__init__(parent)
        self.ws = workstation
        self.clock = clock or getattr(workstation, "clock", None) or datetime.now
        self.lane = Lane("workstation", self)
        self.lane.failed.connect(self._lane_failed)
        # the logs view reads on a lane of its own, through the workstation's own read connection
        # (app/workstation/logs.py): a sort of a million rows never holds up a pump, nor a pump it
        self.logs_lane = Lane("logs", self)
        self.timer = QTimer(self)
        self.timer.setObjectName("pump")
        self.timer.setInterval(pump_ms)
        self.timer.timeout.connect(self.pump)
        self.soon = QTimer(self)
        self.soon.setObjectName("pump soon")
        self.soon.setSingleShot(True)
        self.soon.setInterval(SOON_MS)
        self.soon.timeout.connect(self.pump)
        self._arrived.connect(self._on_arrived, Qt.ConnectionType.QueuedConnection)
        self._again = False           # events arrived while a pump was running
        self._notify = self._arrived.emit
        self._closed = False
        self.wanted = _Wanted()
        self._reads = _Reads()
        self._pumping = False
        self._last_touch: datetime | None = None
        self.stopped: str | None = None
        self._last_error = ""
        self.pumps = 0                # pumps completed (tests wait on it)

    # -- life ----------------------------------------------------------------------------------
    def start(self) -> None:
        inbox = getattr(self.ws, "events", None)
        if hasattr(inbox, "notify"):
            inbox.notify = self._notify
        self.timer.start()
        self.pump()

    def close(self) -> None:
        """Stop pumping and wait for the lane (an action already sent is finished); no update
        reaches the views after this."""
        self._closed = True
        inbox = getattr(self.ws, "events", None)
        if getattr(inbox, "notify", None) is self._notify:
            inbox.notify = None
        self.timer.stop()
        self.soon.stop()
        self.lane.close()
        self.logs_lane.close()

    def _on_arrived(self) -> None:
        """A device spoke: pump within ``SOON_MS`` (or right after the pump under way)."""
        if self._closed or self.stopped:
            return          # the news of a device that spoke as the window closed
        if self._pumping:
            self._again = True
        elif not self.soon.isActive():
            self.soon.start()

    # -- the timer's side ----------------------------------------------------------------------
    def pump(self) -> None:
        """Drain the workstation once (skipped while the last pump is still running)."""
        if self._pumping or self.stopped or self._closed:
            return
        self._pumping = True
        wanted = replace(self.wanted)
        if not self.lane.run(lambda: self._pump_work(wanted), self._pumped, self._pump_failed):
            self._pumping = False

    def _pump_work(self, wanted: _Wanted) -> Update:
        now = self.clock()
        # the idle sign-out is the workstation's rule; the pump is only when it is asked
        try:
            changes = self.ws.live.pump(now) | self.ws.people.expire_idle(now)
        except LogStopped as e:
            if self._reads.tick is None:
                # a log that failed its start-up check, opened read-only: the floor as logged is
                # painted once, under the banner (issue 26)
                e.update = self._read(NOTHING, now, wanted)
            raise
        return self._read(changes, now, wanted)

    def _pumped(self, update: Update) -> None:
        self._pumping = False
        self.pumps += 1
        if update is not None:
            self.changed.emit(update)
        if self._again:
            # devices spoke during this pump: the next one once the views have the update (a pump
            # run beside the views' work takes longer for the interpreter lock they share)
            self._again = False
            self._on_arrived()

    def _pump_failed(self, error: BaseException) -> None:
        self._pumping = False
        self._again = False
        if isinstance(error, LogStopped):
            update = getattr(error, "update", None)
            if update is not None:
                self.changed.emit(update)
            self._stop(error)          # nothing more can be written: the banner says why
        elif str(error) != self._last_error:
            self._last_error = str(error)   # said once, not every 100 ms
            self.failed.emit(f"reading the workstation failed: {error}")

    # -- actions and reads ----------------------------------------------------------------------
    def act(self, action: Callable[[Any], Any], on_done: Callable[[Any], None] | None = None,
            on_error: Callable[[BaseException], None] | None = None) -> None:
        """Run ``action(workstation)`` on the lane. If it returns a ``Changes``, the views get an
        ``Update`` for it before ``on_done(result)`` runs; an error goes to ``on_error`` (a
        dialog shows it as it is) and the log stopping also to ``failed``."""
        wanted = replace(self.wanted)

        def work():
            result = action(self.ws)
            if isinstance(result, Changes):
                return result, self._read(result, self.clock(), wanted)
            return result, None

        def done(pair):
            result, update = pair
            if update is not None:
                self.changed.emit(update)
            if on_done is not None:
                on_done(result)

        def failed(error):
            if isinstance(error, LogStopped):
                self._stop(error)
            if on_error is not None:
                on_error(error)
            elif not isinstance(error, LogStopped):
                self.failed.emit(str(error))

        self.lane.run(work, done, failed)

    def read(self, reader: Callable[[Any], Any], on_done: Callable[[Any], None],
             on_error: Callable[[BaseException], None] | None = None) -> None:
        """``reader(workstation)`` on the lane, its result to ``on_done`` on the GUI thread."""
        self.lane.run(lambda: reader(self.ws), on_done, on_error)

    def read_logs(self, reader: Callable[[Any], Any], on_done: Callable[[Any], None],
                  on_error: Callable[[BaseException], None] | None = None) -> None:
        """``reader(workstation.logs)`` on the logs' lane, its result to ``on_done`` on the GUI thread."""
        logs = self.ws.logs
        self.logs_lane.run(lambda: reader(logs), on_done, on_error)

    @property
    def shifts(self):
        """The pit's shifts (the workstation's configuration: immutable, read on any thread)."""
        return self.ws.shifts

    @property
    def chips(self):
        """The casino's chip values and the drop box's notes (``[chips]``: configuration, read on any thread)."""
        return self.ws.config.chips, self.ws.config.currency

    def read_aside(self, reader: Callable[[Any], Any], on_done: Callable[[Any], None],
                   on_error: Callable[[BaseException], None] | None = None) -> None:
        """``reader(workstation)`` on the logs' lane, for a read that opens its own connection to
        the log and may take a while (the hold of a period): the pump's lane is not held up."""
        ws = self.ws
        self.logs_lane.run(lambda: reader(ws), on_done, on_error)

    def interrupt_logs(self) -> None:
        """Give up the logs' query being opened (a newer one was asked for); never waits."""
        self.ws.logs.interrupt()

    def touch(self) -> None:
        """A key or a click: the signed-in session is in use (at most once a second)."""
        now = self.clock()
        if self._last_touch is not None and now - self._last_touch < TOUCH_EVERY:
            return
        self._last_touch = now
        self.act(lambda ws: ws.people.touch(now), on_error=lambda e: None)

    def watch_table(self, table: str | None) -> None:
        """The table view shows ``table`` (None: no table): its detail comes with the updates."""
        self.wanted.table = table
        self.pump_soon()

    def watch_round(self, on: bool, settlement: int | None = None) -> None:
        """The round panel of the watched table is shown (``on``), with the settled round
        ``settlement`` open in it (None: none): the updates carry the table's round (``Update.round``).
        Shown again, the next update brings all of it."""
        again = on and not self.wanted.round
        self.wanted.round, self.wanted.settlement = on, settlement
        if again:
            self.pump_soon()

    def reread_round(self, soon: bool = False) -> None:
        """The watched table's rounds or slips changed by a person's action (a settlement, a
        release, a slip voided or issued again, a round entered again): the next update carries
        them, with the settled round open in the panel, read again; ``soon``: that update comes now."""
        self.wanted.book += 1
        if soon:
            self.pump_soon()

    def watch_users(self, on: bool) -> None:
        self.wanted.users = on
        self.pump_soon()

    def pump_soon(self) -> None:
        QTimer.singleShot(0, self, self.pump)

    # -- on the lane: what to read back ---------------------------------------------------------
    def _read(self, changes: Changes, now: datetime, wanted: _Wanted) -> Update | None:
        r = self._reads
        first = r.tick is None
        tick = first or now - r.tick >= TICK or now < r.tick
        if tick:
            r.tick = now
        new_table = wanted.table != r.table
        new_users = wanted.users and not r.users
        new_round = wanted.round and (new_table or not r.round or wanted.book != r.book)
        r.table, r.users, r.round, r.book = wanted.table, wanted.users, wanted.round, wanted.book
        ws = self.ws
        # the shipper runs on its own thread and time, not the workstation's clock: its state is
        # read every pump (an attribute) and sent when what the status bar says of it changed, or
        # once a tick (a workstation whose clock stood still showed "STARTING" for ever)
        shipping = ws.shipping() if hasattr(ws, "shipping") else None
        if shipping is not None:
            said = (shipping.refused, shipping.heard, shipping.error, shipping.short, shipping.shipped,
                    shipping.local, shipping.lag_events)
            if first or tick or said != r.shipping:
                r.shipping = said
            else:
                shipping = None
        if not (changes or tick or new_table or new_users or new_round or shipping is not None):
            return None
        tiles = None
        if first or tick or changes.alarms or changes.approvals:
            tiles = ws.reads.tiles(now)        # every tile: its clocks, its alarm and approval counts
        elif changes.tables or changes.rounds:
            # only the tables that changed (issue 33: a pump of a forty-table floor read and redrew
            # every tile, and most had not changed since the pump a few milliseconds before)
            tiles = ws.reads.tiles(now, changes.tables | changes.rounds)
        stale_lists = False
        if tiles is not None and tick and r.listed is not None:
            # a request or an alarm made by another hand (the demo's dealers): the lists read again
            counts = ({t.table: t.open_alarms for t in tiles if t.open_alarms},
                      {t.table: t.pending_approvals for t in tiles if t.pending_approvals})
            stale_lists = counts != r.listed
        alarms = ws.reads.alarms(open_only=False) if first or changes.alarms or stale_lists else None
        approvals = ws.reads.approvals(pending_only=False) if first or changes.approvals or stale_lists else None
        if alarms is not None or approvals is not None:
            r.lists = (alarms if alarms is not None else r.lists[0], approvals if approvals is not None else r.lists[1])
            r.listed = listed_counts(*r.lists, set(ws.tables()))
        detail = None
        if wanted.table is not None and (tick or new_table or wanted.table in changes.tables or changes.alarms
                                         or changes.approvals):
            detail = ws.reads.table_detail(wanted.table, now)
        users = ws.people.users() if wanted.users and (new_users or changes.users or changes.session) else None
        round_ = None
        if wanted.round and wanted.table is not None:
            # a decision changes where a settled round stands; a shuffler's hands, arriving many
            # times a second, change the round being entered only
            book = first or new_round or bool(changes.approvals) or wanted.table in changes.books
            if tick and not book:
                # a round settled by another hand (a dealer's terminal, the demo's dealers): its
                # Changes went to whoever settled it, so once a second the newest is looked at
                newest = ws.rounds.settled(wanted.table, limit=1)
                book = (newest[0].settlement if newest else None) != r.newest
            if book:
                newest = ws.rounds.settled(wanted.table, limit=1)
                r.newest = newest[0].settlement if newest else None
            if book or wanted.table in changes.rounds:
                round_ = self._read_round(wanted, book)
        needs = ws.people.needs_first_administrator() if first else False
        return Update(changes, now, ws.people.session(now), tiles, alarms, approvals, detail, users, first, round_, needs,
                      shipping)

    def _read_round(self, wanted: _Wanted, book: bool) -> TableRound:
        """The watched table's round being entered and, ``book``, its rounds, its slips and the
        settled round open in the panel."""
        ws, table = self.ws, wanted.table
        try:
            draft = ws.rounds.draft(table)
            if not book:
                return TableRound(table, draft)
            return TableRound(table, draft, ws.rounds.settled(table), ws.rounds.slip_book(table),
                              ws.rounds.result(wanted.settlement) if wanted.settlement is not None else None)
        except Exception as e:      # said in the round panel; the other views' readouts still go
            report_bug(e)
            return TableRound(table, error=str(e) or type(e).__name__)

    # -- failure ----------------------------------------------------------------------------------
    def _stop(self, error: BaseException) -> None:
        if self.stopped:
            return
        self.stopped = str(error) or type(error).__name__
        self.timer.stop()
        self.soon.stop()
        self.failed.emit(self.stopped)

    def _lane_failed(self, error: BaseException) -> None:
        self.failed.emit(str(error))
