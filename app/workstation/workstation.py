"""``Workstation``: the pit supervisor's workstation without a window (docs/workstation.md).

It owns the audit log, the floor, the live pit (app/workstation/pit.py), the people and the one sign-in
session, approvals, alarms, slips and the device links. A window (or the command line, or a test)
calls it and nothing else:

- every action a person takes is one method, done under one lock, that writes its rows in one
  append and returns ``Changes``, or raises a ``WorkstationError`` naming the fault with nothing
  written (the one exception: a failed sign-in is logged and counted toward the lockout, as
  app/store/users.py does);
- ``pump(now)`` takes what the device links queued since the last call, in one batch, through
  the live pit into the log (one append), and returns ``Changes``: the window's bridge calls it on
  a timer (about every 100 ms). It never waits for the lock: if a person's action is being written
  on another thread it returns at once and the events wait for the next tick;
- the read side (``tiles``, ``alarms``, ``approvals``, ``table_detail``, ``history``, ``users``,
  ``session``) returns frozen values (app/workstation/readouts.py) with every rule applied.

Time comes from the ``clock`` given (``datetime.now`` by default) or is passed in; nothing below
reads the wall clock itself.
"""

from __future__ import annotations

import json
import queue
import threading
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from app.devices.link import DeviceMessage, LinkEvent, LinkState, Port, open_port
from app.devices.session import Policy
from app.engine.procedure import Event, Refused as EngineRefused, TableState, apply
from app.engine.profile import RuleProfile
from .pit import Pit, TableConfig, drain
from app.store import paths
from app.store.approvals import APPROVER_LEVEL, DECISIONS, ApprovalError
from app.store.floor import Floor
from app.store.log import AuditLog, Record, StoreError, StoreStopped
from app.store.slips import Slips
from app.store.users import ROLES, Session, SignInError, UserError, Users

from . import detail
from .alarms import AlarmBook
from .changes import NOTHING, Changes, changes
from .clocks import deck_clocks, dice_clock, worst
from .config import WorkstationConfig
from .errors import ConfigError, LogStopped, NotPermitted, Refused, SignInRefused, SignInRequired
from .readouts import AlarmInfo, ApprovalInfo, HistoryPage, SessionInfo, TableDetail, Tile, UserInfo
from .runner import LinkRunner, stop_together
from .session import ADMINISTRATOR, AT_THE_TABLE, SUPERVISORS, SignedIn, a_or_an, roles_text
from .tiles import tile

ACTOR = "pitdesk"   # the live pit's own rows (link faults), as app/simulate/floor.py names it
USER_EVENTS = ("user_added", "role_changed", "pin_changed", "user_locked", "user_unlocked", "sign_in",
               "sign_in_failed", "signed_out")


class Workstation:
    """The floor in ``config``, logged into ``db`` (default: the config's database, else the user
    data folder's pitdesk.db). Tables are configured in the log at the first start; a table
    whose profile differs from the log's is refused (``ConfigError``). Links start with
    ``start()``; ``close()`` stops them and the log.

    ``link_factory`` and ``policy`` go to every ``Link`` (app/devices/link.py): a test passes a
    quicker session policy. ``on_close`` are called (together) after the links stop and before
    the log closes: the demo stops its simulated devices there."""

    def __init__(self, config: WorkstationConfig, db: Path | str | None = None, *,
                 clock: Callable[[], datetime] = datetime.now, link_factory: Callable[[str], Port] = open_port,
                 policy: Policy | None = None, install_serial: str = "pitdesk",
                 on_close: Iterable[Callable[[], None]] = ()):
        self.config = config
        self.clock = clock
        self.idle = config.idle
        path = Path(db) if db is not None else (config.database or paths.default_db())
        try:
            self.log = AuditLog(path)
        except (StoreError, OSError, KeyError) as e:   # KeyError: the install key (app/store/paths.py)
            raise LogStopped(str(e).strip("'\"")) from None
        try:
            tables = [TableConfig(t.id, t.profile, t.device_classes()) for t in config.tables]
            self.pit = Pit(self.log, tables, actor=ACTOR, clock=clock)
            self.floor = Floor(self.log)
            self._users = Users(self.log)
            self._approvals = self.floor.approvals
            self.slips = Slips(self.log)
            self.book = AlarmBook(self.log)
            self._seen = self.log.query("SELECT IFNULL(MAX(seq), 0) AS seq FROM events")[0]["seq"]
            self._meter: dict[str, int] = {r["table_id"]: r["cents"] for r in self.log.query(
                "SELECT table_id, cents FROM meter_readings WHERE seq IN (SELECT MAX(seq) FROM meter_readings "
                "GROUP BY table_id)")}
        except StoreError as e:
            self.log.close()
            raise LogStopped(str(e)) from None
        except ValueError as e:   # a table whose profile differs from the log's (app/workstation/pit.py)
            self.log.close()
            raise ConfigError(f"{config.source}: {e}") from None
        except BaseException:
            self.log.close()
            raise
        self.events: queue.Queue[LinkEvent] = queue.Queue()
        self.runner = LinkRunner([d for t in config.tables for d in t.devices], self.events, factory=link_factory,
                                 policy=policy, install_serial=install_serial, wall=clock)
        self._setups = {t.id: t for t in config.tables}
        self._positions = config.positions()
        self._lock = threading.RLock()
        self._session: SignedIn | None = None
        self._levels: dict[str, str] = {}
        self._colours: dict[str, dict[str, str]] = {t: {} for t in self._setups}
        self._counts: dict[str, dict[str, int]] = {t: {} for t in self._setups}
        self._on_close = list(on_close)
        self._started = self._closed = False

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> "Workstation":
        """Start one link per configured device (returns at once; each opens its port on its own
        thread and retries with backoff)."""
        with self._lock:
            if self._closed:
                raise LogStopped("the workstation is closed")
            self.runner.start()
            self._started = True
        return self

    def close(self) -> None:
        """Stop every link (together), then ``on_close``, log what the links said last, close the
        log. Idempotent; leaves no thread of the workstation's running."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            try:
                self.runner.stop()
                stop_together(self._on_close)
                batch = drain(self.events)
                if batch and not self.log.stopped:
                    try:
                        self.pit.handle(batch)   # the links' last words: closed by us is not an outage
                    except StoreStopped:
                        pass
            finally:
                self.log.close()

    def __enter__(self) -> "Workstation":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- the live pit ------------------------------------------------------------------------
    def pump(self, now: datetime | None = None) -> Changes:
        """Drain the device queue in one batch through the live pit into the log (one append),
        with the rows the workstation writes by itself for the state as it stood: deck and dice
        overdue (once each), alarms for irregularities waiting for a supervisor, alarms cleared by
        themselves. What changed: the tables touched (a link light, a logged row, a clock that
        changed level), the alarms raised or cleared, the approvals requested. Never waits: while
        an action or a read holds the workstation on another thread it returns ``NOTHING`` at
        once. ``LogStopped`` once the log has stopped (the events stay queued)."""
        if not self._lock.acquire(blocking=False):
            return NOTHING
        try:
            if self._closed:
                return NOTHING
            if self.log.stopped:   # the events stay queued; nothing more can be written
                raise LogStopped(self.log.stopped)
            now = now or self.clock()
            batch = drain(self.events)
            touched = self._note(batch)
            # the workstation's own rows go first in the live pit's append: one pump, one append
            extra = self.book.automatic(now, self._states(), self._links())
            try:
                if batch or extra:
                    self.pit.handle(batch, before=extra)
            except StoreStopped as e:
                self.book.pending = []   # nothing more is written; the log says why
                raise LogStopped(str(e)) from None
            except Exception:
                self.book.load()         # what it marked cleared or raised was not written
                raise
            return self._observe() | changes(tables=touched | self._levels_changed(now))
        finally:
            self._lock.release()

    def _note(self, batch: list[LinkEvent]) -> set[str]:
        """The tables a batch touches; the deck colours and counts and the doors it reports."""
        touched = set()
        for ev in batch:
            if not isinstance(ev, DeviceMessage | LinkState):
                continue
            table = self.pit.by_serial.get(ev.serial or "")
            if table is None:
                continue
            touched.add(table)
            if isinstance(ev, DeviceMessage):
                m = ev.message
                if m.get("type") == "deck_colour":
                    self._colours[table][m["deck"]] = m["colour"]
                elif m.get("type") == "card_count":
                    self._counts[table][m["deck"]] = m["count"]
                elif m.get("type") == "door_open":
                    self.book.doors[ev.serial] = bool(m["open"])
        return touched

    def _levels_changed(self, now: datetime) -> set[str]:
        out = set()
        for table, (state, rules) in self._states().items():
            dice = dice_clock(state, rules, now)
            lvl = worst([c.level for c in deck_clocks(state, rules, now)] + ([dice.level] if dice else []))
            if self._levels.get(table) != lvl:
                self._levels[table] = lvl
                out.add(table)
        return out

    # -- people ------------------------------------------------------------------------------
    def sign_in(self, name: str, pin: str) -> Changes:
        """Sign ``name`` in with ``pin``, replacing whoever was signed in. ``SignInRefused`` for an
        unknown name, a wrong PIN (counted: five in a row lock the account for 15 minutes) or a
        locked account; the attempt is logged either way (docs/audit.md, "People")."""
        with self._lock:
            self._check_writable()
            now = self.clock()
            try:
                s = self._users.sign_in(name, pin, now)
            except SignInError as e:
                self._observe()
                raise SignInRefused(str(e)) from None
            except StoreStopped as e:
                raise LogStopped(str(e)) from None
            self._session = SignedIn(s.name, s.role, now, now)
            return self._observe() | changes(session=True)

    def sign_out(self, reason: str = "signed out") -> Changes:
        """End the session (logged as ``signed_out``); ``NOTHING`` when nobody is signed in."""
        with self._lock:
            if self._session is None:
                return NOTHING
            return self._end_session(self.clock(), reason)

    def touch(self, now: datetime | None = None) -> Changes:
        """Activity (a key, a click): the idle time starts again. Nothing is logged."""
        with self._lock:
            now = now or self.clock()
            if self._session is not None and not self._session.expired(now, self.idle):
                self._session = self._session.touched(now)
            return NOTHING

    def expire_idle(self, now: datetime | None = None) -> Changes:
        """Sign out a session idle for the configured time (logged at the moment it ran out)."""
        with self._lock:
            now = now or self.clock()
            s = self._session
            if s is None or not s.expired(now, self.idle):
                return NOTHING
            return self._end_session(s.ends(self.idle), f"idle for {_minutes(self.idle)}")

    def session(self, now: datetime | None = None) -> SessionInfo | None:
        """Who is signed in, or None (also once the idle time has run out)."""
        s = self._session
        now = now or self.clock()
        if s is None or s.expired(now, self.idle):
            return None
        return s.info(self.idle)

    def _end_session(self, at: datetime, reason: str) -> Changes:
        # nobody stays signed in, even when the log can no longer say so (LogStopped)
        s, self._session = self._session, None
        self._append([Record("signed_out", at, s.name, s.role, None, {"name": s.name, "reason": reason})])
        return self._observe() | changes(session=True)

    def _require(self, roles: tuple[str, ...], what: str) -> tuple[SignedIn, datetime]:
        """The signed-in session if its role may do ``what``, now; the session touched."""
        self._check_writable()
        now = self.clock()
        s = self._session
        if s is None:
            raise SignInRequired(f"nobody is signed in; sign in with a PIN to {what}")
        if s.expired(now, self.idle):
            self._end_session(s.ends(self.idle), f"idle for {_minutes(self.idle)}")
            raise SignInRequired(f"{s.name}'s session ended after {_minutes(self.idle)} without activity; sign in "
                                 f"again to {what}")
        if s.role not in roles:
            raise NotPermitted(f"{s.name} is {a_or_an(s.role)}; to {what} takes {roles_text(roles)}")
        self._session = s.touched(now)
        return self._session, now

    # -- alarms and approvals ----------------------------------------------------------------
    def acknowledge_alarm(self, alarm_id: int, reason: str) -> Changes:
        """A floor supervisor or pit manager acknowledges an alarm, saying why; logged with who and
        when (``alarm_acknowledged``), together with the engine's ``acknowledged`` of the
        irregularity it stands for. ``Refused``: no such alarm, already acknowledged, no reason."""
        with self._lock:
            s, now = self._require(SUPERVISORS, "acknowledge an alarm")
            records, table = self.book.acknowledgement(alarm_id, s.name, s.role, reason, now, self._state_of)
            self._append(records)
            return self._observe() | changes(tables=[table] if table else [], alarms=[alarm_id])

    def decide(self, request: int, decision: str, reason: str = "") -> Changes:
        """Approve (``approved``) or deny (``denied``) a pending request as the signed-in floor
        supervisor or pit manager (a pit manager's request needs a pit manager). A denial needs a
        reason; an approval without one records the rule it was approved under. A request is
        decided once: a second decision is ``Refused``."""
        with self._lock:
            s, now = self._require(SUPERVISORS, "approve or deny a request")
            if decision not in DECISIONS:
                raise Refused(f"a decision is 'approved' or 'denied', got {decision!r}")
            rows = self.log.query("SELECT * FROM approvals WHERE request = ?", (request,))
            if not rows:
                raise Refused(f"no approval request {request}")
            req = rows[0]
            if req["status"] != "pending":
                raise Refused(f"request {request} ({req['kind']}) was already {req['status']} by {req['decided_by']} "
                              f"at {req['decided']}")
            if APPROVER_LEVEL[s.role] < APPROVER_LEVEL[req["role_needed"]]:
                raise NotPermitted(f"request {request} ({req['kind']}) needs {a_or_an(req['role_needed'])}; "
                                   f"{s.name} is {a_or_an(s.role)}")
            reason = (reason or "").strip()
            if not reason:
                if decision == "denied":
                    raise Refused(f"a denial records its reason: say why request {request} is denied")
                reason = f"approved under {req['rule']}"
            try:
                self._approvals.decide(Session(s.name, s.role), request, decision, reason, now)
            except ApprovalError as e:
                raise Refused(str(e)) from None
            except StoreStopped as e:
                raise LogStopped(str(e)) from None
            return self._observe() | changes(approvals=[request], tables=[req["table_id"]] if req["table_id"] else [])

    # -- the procedures ----------------------------------------------------------------------
    def record(self, table: str, type_: str, data: dict | None = None) -> Changes:
        """Record a procedure event at ``table`` as the signed-in dealer, floor supervisor or pit
        manager (docs/table-events.md: ``record("T1", "player_seated", {"seat": 3})``). The
        procedures decide: ``Refused`` with their reason, nothing written. An irregularity that
        needs a supervisor raises its alarm in the same append."""
        with self._lock:
            s, now = self._require(AT_THE_TABLE, "record a table event")
            if table not in self._setups:
                raise Refused(f"no table {table!r} on this floor (tables: {', '.join(self._setups)})")
            if type_ == "acknowledged":
                raise Refused("an irregularity is acknowledged through its alarm (acknowledge_alarm), which records "
                              "the reason")
            state, rules = self._state_of(table)
            # the table's events keep their order: an event is never before the last one logged
            # (devices stamp their arrival on other threads, as app/workstation/pit.py allows for)
            event = Event(type_, max(now, state.last_time or now), s.name, s.role, dict(data or {}))
            try:
                new = apply(state, event, rules)
            except EngineRefused as e:
                raise Refused(f"table {table}: {e}") from None
            self._append([Record(type_, event.time, s.name, s.role, table, event.data),
                          *self.book.irregularity_alarms(table, new, now)])
            return self._observe() | changes(tables=[table])

    # -- administration ----------------------------------------------------------------------
    def needs_first_administrator(self) -> bool:
        """True on a new database: nobody can sign in until ``create_administrator``."""
        with self._reading():
            return not self.log.query("SELECT 1 FROM users LIMIT 1")

    def create_administrator(self, name: str, pin: str) -> Changes:
        """First run only: the first user, an administrator (``Refused`` once any user exists)."""
        with self._lock:
            self._check_writable()
            return self._user_change(lambda now: self._users.create_administrator(name, pin, now), name)

    def add_user(self, name: str, role: str, pin: str) -> Changes:
        """An administrator adds a dealer, floor supervisor, pit manager or administrator."""
        with self._lock:
            s, _ = self._require(ADMINISTRATOR, "add users")
            return self._user_change(lambda now: self._users.add(Session(s.name, s.role), name, role, pin, now), name)

    def change_pin(self, name: str, pin: str) -> Changes:
        """A user changes their own PIN; an administrator anyone's."""
        with self._lock:
            s, _ = self._require(ROLES, "change a PIN")
            if s.name != name and s.role != "administrator":
                raise NotPermitted(f"{s.name} may change only their own PIN; an administrator changes {name}'s")
            return self._user_change(lambda now: self._users.change_pin(Session(s.name, s.role), name, pin, now),
                                     name)

    def set_role(self, name: str, role: str) -> Changes:
        """An administrator gives a user another role (``role_changed``); their next sign-in is in
        it. ``Refused``: an unknown user or role, the role they have, or the last unlocked
        administrator's (app/store/users.py). An administrator who steps down stays signed in
        in the new role, and may then do only what it may."""
        with self._lock:
            s, _ = self._require(ADMINISTRATOR, "set roles")
            changed = self._user_change(lambda now: self._users.set_role(Session(s.name, s.role), name, role, now),
                                        name)
            if name == s.name:
                self._session = replace(self._session, role=role)
                changed |= changes(session=True)
            return changed

    def lock_user(self, name: str) -> Changes:
        """An administrator locks an account until it is unlocked."""
        with self._lock:
            s, _ = self._require(ADMINISTRATOR, "lock users")
            if name == s.name:
                raise Refused(f"{name} cannot lock their own account")
            return self._user_change(lambda now: self._users.lock(Session(s.name, s.role), name, now), name)

    def unlock_user(self, name: str) -> Changes:
        """An administrator unlocks an account (an administrator's lock, or the 15-minute lockout)."""
        with self._lock:
            s, _ = self._require(ADMINISTRATOR, "unlock users")
            return self._user_change(lambda now: self._users.unlock(Session(s.name, s.role), name, now), name)

    def _user_change(self, do: Callable[[datetime], None], name: str) -> Changes:
        try:
            do(self.clock())
        except UserError as e:
            raise Refused(str(e)) from None
        except StoreStopped as e:
            raise LogStopped(str(e)) from None
        return self._observe() | changes(users=[name])

    # -- the read side -----------------------------------------------------------------------
    def tables(self) -> tuple[str, ...]:
        """The floor's table ids, in the configuration's order."""
        return tuple(self._setups)

    def tiles(self, now: datetime | None = None) -> tuple[Tile, ...]:
        """Every table's tile, in the configuration's order, its clocks for ``now``."""
        now = now or self.clock()
        with self._reading():
            alarms = self.book.open_counts()
            approvals = {r["table_id"]: r["n"] for r in self.log.query(
                "SELECT table_id, count(*) AS n FROM approvals WHERE status = 'pending' GROUP BY table_id")}
            links = self._links()
            states = self._states()
        return tuple(tile(self._setups[t], self._positions[t], state, rules, links, self._meter.get(t),
                          alarms.get(t, 0), approvals.get(t, 0), now) for t, (state, rules) in states.items())

    def tile(self, table: str, now: datetime | None = None) -> Tile:
        self._check_table(table)
        return next(t for t in self.tiles(now) if t.table == table)

    def alarms(self, open_only: bool = True, table: str | None = None) -> tuple[AlarmInfo, ...]:
        """Alarms, newest first: only those waiting for acknowledgement unless ``open_only`` is
        False; of one table if given."""
        with self._reading():
            return self.book.list(open_only, table)

    def approvals(self, pending_only: bool = True, table: str | None = None) -> tuple[ApprovalInfo, ...]:
        """Approval requests, oldest first (the queue): pending only unless ``pending_only`` is False."""
        where, params = [], []
        if pending_only:
            where.append("status = 'pending'")
        if table is not None:
            where.append("table_id = ?")
            params.append(table)
        with self._reading():
            rows = self.log.query("SELECT * FROM approvals" + (" WHERE " + " AND ".join(where) if where else "")
                                  + " ORDER BY request", tuple(params))
        return tuple(ApprovalInfo(r["request"], r["kind"], r["table_id"], r["seat"], r["cents"], r["role_needed"],
                                  r["reason"], r["rule"], datetime.fromisoformat(r["requested"]), r["status"],
                                  r["decided_by"], r["decided_role"], r["decision_reason"],
                                  datetime.fromisoformat(r["decided"]) if r["decided"] else None) for r in rows)

    def table_detail(self, table: str, now: datetime | None = None,
                     history_limit: int = detail.HISTORY_PAGE) -> TableDetail:
        """The table view: positions and who sits there, this round's starting position and deal
        order, the bank and who is offered it next, the decks (colour, count, clock), this round's
        irregularities, and the first page of the table's history (``history`` pages on)."""
        self._check_table(table)
        with self._reading():   # one moment of the table: the tile, its state and its log rows
            t = self.tile(table, now)
            state, rules = self._state_of(table)
            return TableDetail(t, rules.title, detail.positions(state, rules, detail.players(self.log, table, state)),
                               state.starting_position, detail.deal_order(state, rules), rules.procedures.delivery,
                               detail.bank(state, rules),
                               detail.decks(t, state, self._colours[table], self._counts[table]),
                               detail.irregularities(self.log, table, state),
                               detail.history(self.log, table, None, history_limit))

    def history(self, table: str, before: int | None = None, limit: int = detail.HISTORY_PAGE) -> HistoryPage:
        """The table's log rows, newest first, ``limit`` at a time (keyset paging on ``before``)."""
        self._check_table(table)
        with self._reading():
            return detail.history(self.log, table, before, limit)

    def users(self) -> tuple[UserInfo, ...]:
        """Everyone who may sign in, by name: role, wrong PINs in a row, locks. Never a PIN hash."""
        with self._reading():
            rows = self._users.list()
        return tuple(UserInfo(r["name"], r["role"], datetime.fromisoformat(r["created"]), r["failures"],
                              datetime.fromisoformat(r["locked_until"]) if r["locked_until"] else None,
                              r["locked_by"]) for r in rows)

    # -- internals ---------------------------------------------------------------------------
    @contextmanager
    def _reading(self):
        """Reads hold the workstation too: a consistent moment (not half a pump), and never the
        database under a ``close()`` on another thread."""
        with self._lock:
            if self._closed:
                raise LogStopped("the workstation is closed")
            yield

    def _check_writable(self) -> None:
        """Every action first: a closed workstation or a stopped log (disk full, closed) takes no
        more work, and says why."""
        if self._closed:
            raise LogStopped("the workstation is closed")
        if self.log.stopped:
            raise LogStopped(self.log.stopped)

    def _check_table(self, table: str) -> None:
        if table not in self._setups:
            raise Refused(f"no table {table!r} on this floor (tables: {', '.join(self._setups)})")

    def _states(self) -> dict[str, tuple[TableState, RuleProfile]]:
        projector = self.log.projector   # once: each read of it catches up with the database
        return {t: (projector.states[t], self.pit.rules[t]) for t in self._setups}

    def _state_of(self, table: str) -> tuple[TableState, RuleProfile]:
        return self.log.projector.states[table], self.pit.rules[table]

    def _links(self) -> dict[str, str]:
        return {serial: state for view in self.pit.views.values() for serial, state in view.links.items()}

    def _append(self, records: list[Record]) -> list[int]:
        try:
            return self.log.append_many(records)
        except StoreStopped as e:
            self.book.pending = []
            raise LogStopped(str(e)) from None
        except Exception:   # a row the store refused: nothing of the action is written
            self.book.pending = []
            raise

    def _observe(self) -> Changes:
        """Fold the rows logged since the last look into the alarm book and the meters; what
        they changed."""
        top = self.log.query("SELECT IFNULL(MAX(seq), 0) AS seq FROM events")[0]["seq"]
        if top <= self._seen:
            return NOTHING
        rows = self.log.query("SELECT seq, type, table_id, body FROM events WHERE seq > ? AND seq <= ? ORDER BY seq",
                              (self._seen, top))
        self._seen = top
        self.book.fold(rows)
        tables, alarms, approvals, users = set(), set(), set(), set()
        for r in rows:
            if r["table_id"] in self._setups:
                tables.add(r["table_id"])
            kind = r["type"]
            if kind == "alarm_raised":
                alarms.add(r["seq"])
            elif kind == "approval_requested":
                approvals.add(r["seq"])
            elif kind in ("alarm_acknowledged", "alarm_cleared", "approval_decided", "meter_reading") \
                    or kind in USER_EVENTS:
                data = json.loads(r["body"])["data"]
                if kind == "meter_reading" and r["table_id"]:
                    self._meter[r["table_id"]] = data["cents"]
                elif kind == "approval_decided":
                    approvals.add(data["request"])
                elif kind in USER_EVENTS:
                    users.add(data.get("name"))
                else:
                    alarms.add(data["alarm"])
        return changes(tables, alarms, approvals, {u for u in users if u}, seqs=[r["seq"] for r in rows])


def _minutes(idle) -> str:
    m = idle.total_seconds() / 60
    return f"{m:g} minute{'s' if m != 1 else ''}"
