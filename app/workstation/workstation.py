"""``Workstation``: the pit supervisor's workstation without a window (docs/workstation.md,
docs/architecture.md).

It builds, owns and closes everything the floor needs (the audit log, the live pit, the device
links, the alarm book, the journal of what was logged) and checks who may do what. Its jobs are
done at its desks, one module each (app/workstation/desks/):

- ``people``: sign-in, the idle sign-out, the users;
- ``rounds``: a round entered, settled, released, sent back and reopened; payout slips;
- ``decisions``: alarms acknowledged, requests decided, table events recorded, reports logged;
- ``inventory``: the pit's money: openers and closers, fills and credits, buy-ins, drops;
- ``live``: the pump that takes what the device links queued into the log;
- ``reads``: what the views show (tiles, alarms, approvals, a table, the meters, the hold).

A window (or the command line, or a test) calls the desks: ``ws.rounds.settle("T1")``. Every
action is done under the workstation's one lock, writes its rows in one append and returns a
``Changes``, or raises a ``WorkstationError`` naming the fault with nothing written (the one
exception: a failed sign-in is logged and counted toward the lockout, app/store/users.py).

Time comes from the ``clock`` given (``datetime.now`` by default) or is passed in; nothing below
reads the wall clock itself.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

from app.devices.link import Port, open_port
from app.devices.session import Policy
from app.engine.procedure import TableState
from app.engine.profile import RuleProfile
from app.engine.roles import SYSTEM
from app.engine.tablelimits import TableLimits
from app.store import meters, paths
from app.store.floor import Floor
from app.store.holder import Holder, InUse, location_fault
from app.store.log import AuditLog, Record, StoreError, StoreStopped
from app.store.slips import Slips

from .acceptors import AcceptorWatch
from .alarm_book import AlarmBook
from .changes import Changes
from .config import WorkstationConfig
from .desks.decisions import Decisions
from .desks.inventory import Inventory
from .desks.live import Live
from .desks.people import People
from .desks.ratings import Ratings
from .desks.reads import Reads
from .desks.rounds import Rounds
from .errors import ConfigError, LogStopped, Refused
from .hits import Hits
from .inbox import INBOX_LIMIT, Inbox
from .journal import Journal
from .logs import Logs
from .pace import PaceBook
from .pit import Pit, TableConfig
from .progressive_readout import MeterBook
from .runner import runner_for, stop_together
from .shipper import Shipper, ShippingState
from .signed_in import SignedIn


class Workstation:
    """The floor in ``config``, logged into ``db`` (default: the config's database, else the user
    data folder's pitdesk.db). Tables are configured in the log at the first start; a table
    whose profile differs from the log's is refused (``ConfigError``). Links start with
    ``start()``; ``close()`` stops them and the log.

    ``link_factory`` and ``policy`` go to every ``Link`` (app/devices/link.py): a test passes a
    quicker session policy. The links run in a process of their own (app/devices/host.py) unless
    ``link_process`` is false or a test gives them a port factory or a clock of its own
    (app/workstation/runner.py, ``runner_for``). ``on_close`` are called (together) after the
    links stop and before the log closes: the demo stops its simulated devices there.

    ``pin_salt(n)`` gives the ``n`` random bytes that salt a PIN's hash (default: the system's
    random source, ``secrets.token_bytes``); only a simulated shift passes its own seeded one, so
    that the same seed logs the same rows (app/simulate/shift.py). ``commit_every`` is the
    simulated shift's too, and only its: its log acknowledges each action's rows before they are
    committed, ``commit_every`` rows at a time (app/store/log.py); 0, every other workstation's,
    acknowledges an action only once its rows are on disk."""

    def __init__(self, config: WorkstationConfig, db: Path | str | None = None, *,
                 clock: Callable[[], datetime] = datetime.now, link_factory: Callable[[str], Port] = open_port,
                 policy: Policy | None = None, install_serial: str = SYSTEM,
                 on_close: Iterable[Callable[[], None]] = (), link_process: bool = True,
                 pin_salt: Callable[[int], bytes] | None = None, commit_every: int = 0,
                 inbox_limit: int = INBOX_LIMIT):
        self.config = config
        self.clock = clock
        path = Path(db) if db is not None else (config.database or paths.default_db())
        # a folder that is not there is a mistyped path, not a new floor: only 'pitdesk users init'
        # makes one; a read-only one is named as such, not as SQLite's "unable to open" (issue 26)
        fault = location_fault(path)
        if fault:
            raise LogStopped(fault)
        try:
            self._holder = Holder(path)     # one workstation on a log at a time
        except InUse as e:
            raise LogStopped(str(e)) from None
        except OSError as e:
            raise LogStopped(f"the audit database {path} cannot be held for this workstation: "
                             f"{e.strerror or e}") from None
        try:
            self._build(config, path, clock, link_factory, policy, install_serial, on_close, link_process,
                        pin_salt, commit_every, inbox_limit)
        except BaseException:
            self._holder.release()
            raise

    def _build(self, config, path, clock, link_factory, policy, install_serial, on_close, link_process,
               pin_salt, commit_every, inbox_limit) -> None:
        try:
            self.log = AuditLog(path, commit_every=commit_every)
        except (StoreError, OSError, KeyError) as e:   # KeyError: the install key (app/store/paths.py)
            raise LogStopped(str(e).strip("'\"")) from None
        # the log checked before anything is written: one that fails is opened read-only, every
        # write refused naming the row and the kind (app/store/checkpoint.py, issue 26)
        self.startup_check = self.log.check()
        self._setups = {t.id: t for t in config.tables}
        try:
            self.journal = Journal(self.log, self._setups, meters.latest(self.log))
            self.pit = Pit(self.log, [TableConfig(t.id, t.profile, t.device_classes()) for t in config.tables],
                           actor=SYSTEM, clock=clock, vet=Hits(self).vet)
            self.floor = Floor(self.log)
            self.slips = Slips(self.log)
            self.book = AlarmBook(self.log)
            self.meter_book = MeterBook(self.log)       # the progressive readout's kept figures
            self.acceptors = AcceptorWatch(self.log)    # the lights against the round's wagers
            self.logs = Logs(path, clock)               # the logs view's reads, on a connection of their own
        except StoreError as e:
            self.log.close()
            raise LogStopped(str(e)) from None
        except ValueError as e:   # a table whose profile differs from the log's (app/workstation/pit.py)
            self.log.close()
            raise ConfigError(f"{config.source}: {e}") from None
        except BaseException:
            self.log.close()
            raise
        self.journal.fold_into(self._fold_alarms)
        self.pace = PaceBook(self.log)              # each table's last hour, for its tile (issue 36)
        self.journal.fold_into(self.pace.fold)
        # queue.Queue[LinkEvent] that says when it fills, and what it drops when full (docs/devices.md)
        self.events: Inbox = Inbox(inbox_limit)
        self.runner = runner_for([d for t in config.tables for d in t.devices], self.events, factory=link_factory,
                                 policy=policy, install_serial=install_serial, wall=clock, process=link_process)
        self.positions = config.positions()
        # each table's limits: the profile's with the configuration's overrides (docs/round-format.md,
        # "Table limits")
        self.limits: dict[str, TableLimits] = {t.id: self.pit.rules[t.id].limits_for_table(t.limits or None)
                                               for t in config.tables}
        self.lock = threading.RLock()
        self._on_close = list(on_close)
        self._first_at_close: list[Callable[[], None]] = []
        self._closed = False
        # the log shipped to the casino's server in the background (``[shipping]``), None: not shipped
        self.shipper = Shipper(config.shipping, path, clock) if config.shipping else None
        self.people = People(self, pin_salt)
        self.rounds = Rounds(self)
        self.decisions = Decisions(self)
        self.inventory = Inventory(self)
        self.ratings = Ratings(self)
        self.live = Live(self)
        self.reads = Reads(self)

    # -- life ----------------------------------------------------------------------------------
    def start(self) -> "Workstation":
        """Start one link per configured device (returns at once; each opens its port on its own
        thread and retries with backoff)."""
        with self.lock:
            if self._closed:
                raise LogStopped("the workstation is closed")
            self.runner.start()
            if self.shipper is not None:
                self.shipper.start()
        return self

    def close(self) -> None:
        """Stop every link (together), then ``on_close``, log what the links said last, close the
        log. Idempotent; leaves no thread of the workstation's running. What acts on the
        workstation from a thread of its own (``first_at_close``) is stopped first, before the
        workstation is held."""
        if not self._closed:
            stop_together(self._first_at_close)
            if self.shipper is not None:
                self.shipper.stop()   # its run under way ends after the batch it committed
        with self.lock:
            if self._closed:
                return
            self._closed = True
            try:
                self.runner.stop()
                stop_together(self._on_close)
                self.live.last_words()
            finally:
                try:
                    self.logs.close()
                    self.log.close()
                finally:
                    self._holder.release()

    def shipping(self) -> ShippingState | None:
        """The background shipper's state (``[shipping]``); None when the log is not shipped."""
        return self.shipper.state if self.shipper is not None else None

    def first_at_close(self, stop: Callable[[], None]) -> None:
        """``stop`` is called first when the workstation closes: a thread of its own that acts on
        it (the demo floor's dealers) ends before the links and the log."""
        self._first_at_close.append(stop)

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> "Workstation":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- what every desk asks first ------------------------------------------------------------
    def require(self, roles: tuple[str, ...], what: str) -> tuple[SignedIn, datetime]:
        """The signed-in session if its role may do ``what``, and now; the session touched.
        ``SignInRequired`` (nobody, or the session ran out), ``NotPermitted`` (the role),
        ``LogStopped`` (nothing more can be written)."""
        self.writable()
        return self.people.allowed(roles, what)

    @contextmanager
    def reading(self):
        """Reads hold the workstation too: a consistent moment (not half a pump), and never the
        database under a ``close()`` on another thread."""
        with self.lock:
            if self._closed:
                raise LogStopped("the workstation is closed")
            yield

    def writable(self) -> None:
        """Every action first: a closed workstation or a stopped log (disk full, closed) takes no
        more work, and says why."""
        if self._closed:
            raise LogStopped("the workstation is closed")
        if self.log.stopped:
            raise LogStopped(self.log.stopped)

    def check_table(self, table: str) -> None:
        if table not in self._setups:
            raise Refused(f"no table {table!r} on this floor (tables: {', '.join(self._setups)})")

    # -- the log ---------------------------------------------------------------------------------
    def write(self, records: list[Record]) -> Changes:
        """Append ``records`` in one transaction; what they (and any row logged meanwhile) changed."""
        try:
            self.log.write(records)
        except StoreStopped as e:
            self.book.forget_pending()
            raise LogStopped(str(e)) from None
        except Exception:   # a row the store refused: nothing of the action is written
            self.book.forget_pending()
            raise
        return self.journal.changes()

    def states(self) -> dict[str, tuple[TableState, RuleProfile]]:
        """Every table's engine state as the log holds it, with its rule profile (one look)."""
        states = self.pit.states()
        return {t: (states[t], self.pit.rules[t]) for t in self._setups}

    def state_of(self, table: str) -> tuple[TableState, RuleProfile]:
        return self.pit.floor.state(table), self.pit.rules[table]

    def _fold_alarms(self, rows) -> tuple[str, ...]:
        self.book.fold(rows)
        return ()

    # -- the floor -------------------------------------------------------------------------------
    @property
    def shifts(self):
        """The pit's shifts (app/workstation/shifts.py ``ShiftPlan``): the configuration's."""
        return self.config.shifts

    def tables(self) -> tuple[str, ...]:
        """The floor's table ids, in the configuration's order."""
        return tuple(self._setups)

    def setup(self, table: str):
        """The table's configuration (``TableSetup``)."""
        return self._setups[table]
