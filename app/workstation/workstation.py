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
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from datetime import datetime
from pathlib import Path

from app.devices.link import DeviceMessage, LinkEvent, LinkState, Port, open_port
from app.devices.session import Policy
from app.engine.cards import cards_str
from app.engine.procedure import IN_ROUND, Event, Refused as EngineRefused, TableState, apply
from app.engine.profile import RuleProfile
from app.engine.round import RoundError, parse_round
from app.engine.settle import settle
from app.engine.tablelimits import TableLimits
from app.rules.resources import profile
from .pit import Pit, TableConfig, drain
from app.store import paths
from app.store.approvals import APPROVER_LEVEL, DECISIONS, ApprovalError
from app.store.floor import Floor
from app.store.log import AuditLog, Record, StoreError, StoreStopped
from app.store.slips import SlipError, Slips, slip_record
from app.store.users import ROLES, Session, SignInError, UserError, Users

from . import detail, progressive_readout as progressive, roundlog
from .acceptors import AcceptorWatch
from .alarms import AlarmBook
from .changes import NOTHING, Changes, changes
from .clocks import ClockWatch
from .config import WorkstationConfig
from .errors import ConfigError, FieldsRefused, LogStopped, NotPermitted, Refused, SignInRefused, SignInRequired
from .inbox import Inbox
from .logs import Logs
from .readouts import (AlarmInfo, ApprovalInfo, FieldCheck, HandSet, HistoryPage, RoundDraftInfo, RoundOutcome,
                       RoundResult, RoundSummary, SessionInfo, SlipInfo, TableDetail, Tile, UserInfo)
from .round_draft import DraftError, RoundDraft, bank_refusal, check_wager
from .runner import runner_for, stop_together
from .signed_in import ADMINISTRATOR, AT_THE_TABLE, SUPERVISORS, SignedIn, a_or_an, roles_text
from .tiles import round_at_hand, tile

ACTOR = "pitdesk"   # the live pit's own rows (link faults), as app/simulate/live_floor.py names it
USER_EVENTS = ("user_added", "role_changed", "pin_changed", "user_locked", "user_unlocked", "sign_in",
               "sign_in_failed", "signed_out")


class Workstation:
    """The floor in ``config``, logged into ``db`` (default: the config's database, else the user
    data folder's pitdesk.db). Tables are configured in the log at the first start; a table
    whose profile differs from the log's is refused (``ConfigError``). Links start with
    ``start()``; ``close()`` stops them and the log.

    ``link_factory`` and ``policy`` go to every ``Link`` (app/devices/link.py): a test passes a
    quicker session policy. The links run in a process of their own (app/devices/host.py) unless
    ``link_process`` is false or a test gives them a port factory or a clock of its own
    (app/workstation/runner.py, ``runner_for``). ``on_close`` are called (together) after the links stop and before
    the log closes: the demo stops its simulated devices there."""

    def __init__(self, config: WorkstationConfig, db: Path | str | None = None, *,
                 clock: Callable[[], datetime] = datetime.now, link_factory: Callable[[str], Port] = open_port,
                 policy: Policy | None = None, install_serial: str = "pitdesk",
                 on_close: Iterable[Callable[[], None]] = (), link_process: bool = True):
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
            self.meter_book = progressive.MeterBook(self.log)   # issue 15: the progressive readout
            self.acceptors = AcceptorWatch(self.log)            # the lights against the round's wagers
            self.logs = Logs(path, clock)   # the logs view's reads, on a connection of their own
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
        self.events: Inbox = Inbox()   # queue.Queue[LinkEvent] that says when it fills
        self.runner = runner_for([d for t in config.tables for d in t.devices], self.events, factory=link_factory,
                                 policy=policy, install_serial=install_serial, wall=clock, process=link_process)
        self._setups = {t.id: t for t in config.tables}
        self._positions = config.positions()
        self._lock = threading.RLock()
        self._session: SignedIn | None = None
        self._unreported: Changes = NOTHING   # rows observed by an action that was refused
        self._levels: dict[str, str] = {}
        self._watch = ClockWatch()      # the tables' clocks, worked out again only when they can change
        self._colours: dict[str, dict[str, str]] = {t: {} for t in self._setups}
        self._counts: dict[str, dict[str, int]] = {t: {} for t in self._setups}
        self._on_close = list(on_close)
        self._started = self._closed = False
        # the round being entered at each table (app/workstation/round_draft.py), and each table's limits:
        # the profile's with the configuration's overrides (docs/round-format.md, "Table limits")
        self._drafts: dict[str, RoundDraft] = {}
        self._limits: dict[str, TableLimits] = {t.id: self.pit.rules[t.id].limits_for_table(t.limits or None)
                                                for t in config.tables}
        self._restore_hands()

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
                self.logs.close()
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
            states = self._states()
            extra = self.book.automatic(now, states, self._links(), self._watch.all(states, now))
            extra += self.acceptors.rows(now, self.log.projector.states, self._controllers())
            try:
                if batch or extra:
                    self.pit.handle(batch, before=extra)
            except StoreStopped as e:
                self.book.pending = []   # nothing more is written; the log says why
                raise LogStopped(str(e)) from None
            except Exception:
                self.book.load()         # what it marked cleared or raised was not written
                raise
            unreported, self._unreported = self._unreported, NOTHING
            return unreported | self._observe() | changes(tables=touched | self._levels_changed(now))
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
        for table, w in self._watch.all(self._states(), now).items():
            lvl = w.level
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
                # the failed attempt was logged: the next pump says so (a refusal returns no Changes)
                self._unreported = self._unreported | self._observe()
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
            changed = self._observe() | changes(approvals=[request], tables=[req["table_id"]] if req["table_id"] else [])
            settlement = roundlog.settlement_of_request(self.log, request)
            if settlement is not None:
                changed |= changes(rounds=[req["table_id"]])
                # a denial sends the round back to be entered again, with the reason, unless another
                # round is being entered at the table (reopen_round then brings it back)
                d = self._drafts.get(req["table_id"])
                if decision == "denied" and (d is None or not (d.touched or d.hands or d.returned)):
                    res = self._round(settlement)
                    self._send_back(settlement, roundlog.denial(next(a for a in res.approvals if a.request == request)))
            return changed

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

    # -- rounds (issue 14; docs/workstation.md, "Rounds") -------------------------------------
    # Who: a dealer enters and settles the round at the table (as they record its events); a floor
    # supervisor or pit manager approves what it needs (decide) and makes a cover ruling (003
    # PLAYER BANK 3); the payouts are released by whoever is at the table, except payouts that need
    # a payout slip, which a floor supervisor or pit manager releases and signs; only they void a
    # slip or issue one again. An administrator runs the system, not the game: none of these.
    def start_round(self, table: str) -> Changes:
        """Begin entering the table's round (the procedures' round in progress, else the next one).
        A round already being entered is kept (``Refused`` if it is for an earlier round: settle
        or discard it first)."""
        with self._lock:
            self._require(AT_THE_TABLE, "enter a round")
            self._check_table(table)
            d = self._drafts.get(table)
            fresh = self._new_draft(table)
            if d is not None and (d.touched or d.hands or d.returned):
                if d.round == fresh.round:
                    return changes(rounds=[table])
                raise Refused(f"table {table}: round {d.round} is still being entered; settle it, or discard it "
                              f"(discard_round), before round {fresh.round}")
            self._drafts[table] = fresh
            return changes(rounds=[table])

    def discard_round(self, table: str) -> Changes:
        """Throw away the round being entered (nothing of it was logged but the cards the shuffler
        read and their corrections, which stay in the log)."""
        with self._lock:
            self._require(AT_THE_TABLE, "discard a round")
            self._check_table(table)
            if self._drafts.pop(table, None) is None:
                raise Refused(f"table {table}: no round is being entered")
            return changes(rounds=[table])

    def load_round(self, table: str, round_file: dict) -> Changes:
        """A round file (docs/round-format.md) as the table's round: refused, naming the field, if
        ``parse_round`` refuses it, its profile is not the table's, or a bank the procedures would
        not allow; a round already being entered must be settled or discarded first."""
        with self._lock:
            s, _ = self._require(AT_THE_TABLE, "enter a round")
            self._check_table(table)
            state, rules = self._state_of(table)
            if not isinstance(round_file, dict) or round_file.get("profile") != rules.name:
                got = round_file.get("profile") if isinstance(round_file, dict) else None
                raise Refused(f"table {table} plays profile {rules.name!r}; the round file is for {got!r}")
            d = self._drafts.get(table)
            if d is not None and (d.touched or d.hands or d.returned):
                raise Refused(f"table {table}: round {d.round} is being entered; settle it or discard it first")
            try:
                rnd = parse_round(round_file, rules, self._limits[table])
            except RoundError as e:
                raise Refused(f"table {table}: {e}") from None
            self._check_bank(table, rnd.banking.mode, rnd.banking.seat)
            if rnd.banking.cover_ruling and s.role not in SUPERVISORS:
                raise NotPermitted(f"{s.name} is {a_or_an(s.role)}; the cover ruling is the floor supervisor's "
                                   "(003 PLAYER BANK 3)")
            fresh = self._new_draft(table)
            fresh.load(round_file, rnd)
            self._drafts[table] = fresh
            return changes(rounds=[table])

    def round_draft(self, table: str) -> RoundDraftInfo | None:
        """The round being entered at the table, as the round panel shows it; None: none."""
        self._check_table(table)
        with self._reading():
            d = self._drafts.get(table)
            if d is None:
                return None
            offers, note = self._offers(table)
            return d.info(offers, note, self._meter.get(table))

    def check_wager(self, table: str, seat: int, wager: str, text: str) -> FieldCheck:
        """A wager as it is typed, checked against the table's limits (nothing changes): its cents,
        or the reason to show beside the field."""
        self._check_table(table)
        rules = self.pit.rules[table]
        return check_wager(rules, self._limits[table], seat, wager, text)

    def set_wagers(self, table: str, seat: int, wagers: Mapping[str, str]) -> Changes:
        """A seat's wagers as typed ({"base": "25", "fortune": "5", "additional 3": "5"}); empty or 0
        clears one. ``FieldsRefused`` (a reason per field) and nothing taken if any is wrong: not
        dollars and cents, not offered by the profile, outside the table's limits (002 DESCRIPTION
        OF TABLE USED, 004(3), 003 PLAYER BANK 9), a progressive wager other than $1 or $5 (000(q)(1))."""
        return self._edit(table, "enter wagers", lambda d: d.set_wagers(seat, wagers))

    def set_player(self, table: str, seat: int, player: str | None) -> Changes:
        """Who plays the seat (one player on two adjacent seats adds up their limits, 000(o)(1))."""
        return self._edit(table, "enter a round", lambda d: d.set_player(seat, player))

    def set_bettors(self, table: str, seat: int, bettors: Sequence[tuple[str, str]]) -> Changes:
        """003 PLAYERS WAGERING ON ANOTHER PLAYER'S HAND: others' base wagers on the circle, (name,
        amount typed), within the limits per circle."""
        return self._edit(table, "enter wagers", lambda d: d.set_bettors(seat, bettors))

    def set_prepaid_commission(self, table: str, seat: int, text: str) -> Changes:
        """003 COLLECTING 6: commission paid with the wager."""
        return self._edit(table, "enter wagers", lambda d: d.set_prepaid_commission(seat, text))

    def set_surrender(self, table: str, seat: int, surrender: bool = True) -> Changes:
        """The player surrenders (where the profile allows it: 000(l)(4), 004(9))."""
        return self._edit(table, "enter a round", lambda d: d.set_surrender(seat, surrender))

    def set_round_info(self, table: str, meter: str | None = None, rng_number: int | None = None) -> Changes:
        """The progressive meter when the round starts, typed (default: the meter last logged) and
        the RNG's number for the additional wagers (000(p))."""
        return self._edit(table, "enter a round", lambda d: d.set_round_info(meter, rng_number))

    def set_banking(self, table: str, mode: str, seat: int | None = None, *, chips: str | None = None,
                    last_wager: str | None = None, dealer_wager: str | None = None, wager: str | None = None,
                    dealer_prepaid_commission: str | None = None, action_seat: int | None = None,
                    cover_ruling: bool = False) -> Changes:
        """Who banks the round: ``house``, ``player`` or ``co-bank`` with the seat, or 002's
        ``player-dealer`` with its seat, wager and the action button's seat, as the profile allows;
        amounts typed as dollars. A seat the procedures would not let bank is refused with their
        reason (000(m)(2)-(4), 001 11.10, 003 PLAYER BANK 1-2); ``cover_ruling`` (003 PLAYER BANK 3)
        takes a floor supervisor or pit manager, where the profile has it."""
        with self._lock:
            s, _ = self._require(AT_THE_TABLE, "enter a round")
            self._check_table(table)
            rules = self.pit.rules[table]
            if cover_ruling:
                if not rules.procedures.bank_cover_ruling:
                    raise Refused(f"table {table}: profile {rules.name!r} has no supervisor's ruling on the bank's "
                                  f"cover; its chips must cover the wagers ({rules.bank.cite_cover})")
                if s.role not in SUPERVISORS:
                    raise NotPermitted(f"{s.name} is {a_or_an(s.role)}; the cover ruling takes a floor supervisor or "
                                       "a pit manager (003 PLAYER BANK 3)")
            self._check_bank(table, mode, seat)
            amounts = {"chips": chips, "last_wager": last_wager, "dealer_wager": dealer_wager, "wager": wager,
                       "dealer_prepaid_commission": dealer_prepaid_commission}
            d = self._draft_for(table)
            try:
                d.set_banking(mode, seat, amounts, action_seat, cover_ruling)
            except DraftError as e:
                raise FieldsRefused(f"table {table}: {e}", e.fields) from None
            return changes(rounds=[table])

    def set_cards(self, table: str, position: int, text: str) -> Changes:
        """A position's cards typed ("as kd 7h 7c 2s jk 10d"; position 0 the dealer); a card already
        at another position is refused at once naming both (000(b)(1)). Cards the shuffler read are
        corrected with ``correct_cards`` instead, which logs who and why."""
        return self._edit(table, "enter cards", lambda d: d.set_cards(position, text))

    def set_hands(self, table: str, position: int, high: str, low: str) -> Changes:
        """The set: five cards high and two low, the seven dealt. A foul is taken and shown with
        the profile's consequence (``round_draft``); the dealer's and a co-bank's hand play the
        house way whatever is entered (000(l)(3), (m)(5); a different set is reset, 000(n)(9))."""
        return self._edit(table, "enter the hands", lambda d: d.set_hands(position, high, low))

    def house_way(self, table: str, position: int) -> HandSet:
        """How the house way sets the position's seven cards and the rule that chose it: what the
        dealer recommends to a player who asks (003 GENERAL PROCEDURES 8, DEALER BANK 10; 002:
        the House Way chart on request). Nothing changes."""
        self._check_table(table)
        with self._reading():
            d = self._drafts.get(table)
            if d is None:
                raise Refused(f"table {table}: no round is being entered")
            try:
                return d.house_way(position)
            except DraftError as e:
                raise Refused(f"table {table}: {e}") from None

    def use_house_way(self, table: str, position: int) -> Changes:
        """Set the position's hand by the house way, for a player who asked for it."""
        def do(d: RoundDraft) -> None:
            hw = d.house_way(position)
            d.set_hands(position, " ".join(hw.high), " ".join(hw.low))
        return self._edit(table, "enter the hands", do)

    def correct_cards(self, table: str, position: int, cards: str, reason: str) -> Changes:
        """A person corrects the hand the shuffler read at a position: the seven cards as they are,
        and why. Logged as ``hand_corrected`` {position, was, cards, reason, deck, serial, round},
        who and when. Refused: nothing read there, not seven cards, a card at another position
        (naming it), no reason."""
        with self._lock:
            s, now = self._require(AT_THE_TABLE, "correct a card the shuffler read")
            self._check_table(table)
            d = self._drafts.get(table)
            if d is None:
                raise Refused(f"table {table}: no round is being entered")
            reason = (reason or "").strip()
            try:
                new = d.check_correction(position, cards)
            except DraftError as e:
                raise Refused(f"table {table}: {e}") from None
            if not reason:
                raise Refused("a correction of a card the shuffler read records why")
            held = d.hands[position]
            self._append([Record("hand_corrected", now, s.name, s.role, table,
                                 {"position": position, "was": cards_str(held.cards) + list(held.unreadable),
                                  "cards": cards_str(new), "reason": reason, "deck": held.deck,
                                  "serial": held.serial, "round": d.round})])
            return self._observe() | changes(tables=[table], rounds=[table])

    def settle(self, table: str) -> RoundOutcome:
        """Settle the round being entered: its round file (docs/round-format.md) through exactly
        ``parse_round`` and ``settle`` (what ``pitdesk settle`` prints for the same file), logged
        through ``Floor.settle`` in one append (the settlement with the round file, an approval
        request per approval it needs, the meter). Refused, with nothing written: a misread or a
        missing hand (``round_draft().problems``), a bank the procedures no longer allow, and
        whatever the engine refuses, naming the field. A round that needs approvals is pending
        until every request is approved (``decide``); then ``release`` pays it."""
        with self._lock:
            s, now = self._require(AT_THE_TABLE, "settle a round")
            self._check_table(table)
            d = self._drafts.get(table)
            if d is None or not (d.touched or d.hands):
                raise Refused(f"table {table}: no round is being entered")
            problems = d.problems()
            if problems:
                raise Refused(f"table {table}: round {d.round} cannot be settled yet: " + "; ".join(problems))
            rules = self.pit.rules[table]
            self._check_bank(table, d.banking["mode"], d.banking.get("seat"))
            obj = d.round_file(self._meter.get(table))
            prof = profile(rules.name)
            try:
                result = settle(parse_round(obj, rules, self._limits[table]), rules, prof.ranker(), prof.house())
            except RoundError as e:
                raise Refused(f"table {table}: {e}") from None
            try:
                seqs = self.floor.settle(table, d.round, result, now, s.name, s.role, round_file=obj,
                                         replaces=d.replaces)
            except StoreStopped as e:
                raise LogStopped(str(e)) from None
            del self._drafts[table]
            changed = self._observe() | changes(tables=[table], rounds=[table])
            return RoundOutcome(changed, self._round(seqs[0]))

    def release(self, settlement: int, payees: Mapping[int, dict] | None = None) -> RoundOutcome:
        """Pay a settled round once every approval it needs is approved: one ``round_released``
        row, and a ``payout`` row per payout, each that needs one after its payout slip, numbered
        next in sequence (app/store/slips.py), in one append. ``payees`` gives, by seat, the W-2G
        data (name, address, tin, id_type, id_number) of a win of $600 and 300 times the wager.
        Refused: a request pending (naming it and the role it needs), a request denied (the round
        went back), already released, W-2G data missing. Payouts with slips take a floor
        supervisor or pit manager."""
        with self._lock:
            s, now = self._require(AT_THE_TABLE, "release a round's payouts")
            res = self._round(settlement)
            table = res.table
            if res.status == roundlog.RELEASED:
                raise Refused(f"table {table} round {res.round} ({settlement}) was already {res.status_text}")
            if res.status in (roundlog.PENDING, roundlog.DENIED):
                raise Refused(f"table {table} round {res.round} ({settlement}): its payouts wait: {res.status_text}")
            slips = [p for p in res.payouts if p.slip_reason]
            if slips and s.role not in SUPERVISORS:
                raise NotPermitted(f"{s.name} is {a_or_an(s.role)}; payouts with a payout slip (seat "
                                   f"{', '.join(str(p.seat) for p in slips)}: {slips[0].slip_reason}) are released "
                                   f"by {roles_text(SUPERVISORS)}")
            payees = payees or {}
            records = [Record("round_released", now, s.name, s.role, table,
                              {"settlement": settlement, "round": res.round, "payouts": len(res.payouts)})]
            for p in res.payouts:
                if p.slip_reason:
                    try:
                        records.append(slip_record(now, s.name, s.role, table, p.seat, p.wager, p.stake, p.cents,
                                                   payees.get(p.seat), {"settlement": settlement,
                                                                        "reason": p.slip_reason}))
                    except SlipError as e:
                        raise Refused(f"table {table} seat {p.seat} {p.wager}: {e}") from None
                records.append(Record("payout", now, s.name, s.role, table,
                                      {"settlement": settlement, "round": res.round, "seat": p.seat,
                                       "bettor": p.bettor, "to": p.to, "wager": p.wager, "line": p.line,
                                       "cents": p.cents, "slip": None}, prepare=roundlog.slip_number if p.slip_reason else None))
            self._append(records)
            changed = self._observe() | changes(tables=[table], rounds=[table])
            return RoundOutcome(changed, self._round(settlement))

    def reopen_round(self, settlement: int) -> Changes:
        """A round a denial sent back, entered again at its table (done by ``decide`` itself when
        nothing else is being entered there)."""
        with self._lock:
            self._require(AT_THE_TABLE, "enter a round")
            res = self._round(settlement)
            if res.status != roundlog.DENIED:
                raise Refused(f"round {settlement} at {res.table} is {res.status}; only a round a denial sent back "
                              "is entered again")
            again = roundlog.settled_again(self.log, settlement)
            if again is not None:
                raise Refused(f"round {settlement} at {res.table} was settled again as {again}")
            d = self._drafts.get(res.table)
            if d is not None and (d.touched or d.hands or d.returned):
                raise Refused(f"table {res.table}: round {d.round} is being entered; settle it or discard it first")
            if not self._send_back(settlement, roundlog.denial(next(a for a in res.approvals if a.status == "denied"))):
                raise Refused(f"round {settlement} at {res.table} was not settled from a round file here")
            return changes(rounds=[res.table])

    def round_result(self, settlement: int) -> RoundResult:
        """One settled round read back from the log exactly as logged, and where it stands."""
        with self._reading():
            return self._round(settlement)

    def rounds(self, table: str, before: int | None = None, limit: int = detail.HISTORY_PAGE
               ) -> tuple[RoundSummary, ...]:
        """The table's settled rounds, newest first (``before``: a settlement seq, for the next page)."""
        self._check_table(table)
        with self._reading():
            return roundlog.history(self.log, table, before, limit)

    def hold(self, start: datetime | None = None, end: datetime | None = None, table: str | None = None):
        """The hold per table and wager type and for the pit (app/workstation/hold.py), over
        ``start <= time < end``. It reads the log on a read-only connection of its own, so it may
        run on any thread, away from the one that pumps the links (a shift takes a moment)."""
        from .hold import read_hold   # the theoretical figures load the analysis only when asked
        return read_hold(self.log.path, start, end, table)

    def shift_report(self, day, name: str):
        """The report of shift ``name`` starting on ``day`` (app/workstation/shift_figures.py), over
        the floor's tables and the configuration's shifts, not yet numbered. Read on a read-only
        connection of its own, so it may run on any thread (a shift takes a moment)."""
        from .shift_figures import read_shift_report
        return read_shift_report(self.log.path, day, name, self.shifts, list(self.tables()), self.clock())

    def log_report_printed(self, report, where: str) -> Changes:
        """The signed-in supervisor prints ``report``: it is logged with its own number, COPY if
        its shift was printed before (the report gets both). Refused without a sign-in."""
        from .shift_figures import log_printed
        with self._lock:
            s, now = self._require(SUPERVISORS, "print a shift report")
            try:
                log_printed(self.log, report, where, s.name, s.role, now)
            except StoreStopped as e:
                raise LogStopped(str(e)) from None
            return self._observe()

    def log_report_failed(self, report, where: str, reason: str) -> Changes:
        """A numbered report that did not reach its paper or file: the gap in the numbers explained."""
        from .shift_figures import log_failed
        with self._lock:
            s, now = self._require(SUPERVISORS, "print a shift report")
            log_failed(self.log, report, where, s.name, s.role, now, reason)
            return self._observe()

    def slip_book(self, table: str | None = None) -> tuple[SlipInfo, ...]:
        """The payout slips in number order (of one table if given); a void one says VOID."""
        with self._reading():
            return roundlog.slip_book(self.log, table)

    def void_slip(self, number: int, reason: str) -> Changes:
        """A floor supervisor or pit manager voids a slip, saying why; it stays in the book as VOID
        and its number is never used again (``reissue_slip`` gives the payout a new one)."""
        with self._lock:
            s, now = self._require(SUPERVISORS, "void a payout slip")
            try:
                self.slips.void(number, reason, now, s.name, s.role)
            except SlipError as e:
                raise Refused(str(e)) from None
            except StoreStopped as e:
                raise LogStopped(str(e)) from None
            return self._observe() | changes(tables=[r["table_id"] for r in self.log.query(
                "SELECT table_id FROM slips WHERE number = ?", (number,)) if r["table_id"]])

    def reissue_slip(self, number: int, payee: dict | None = None) -> Changes:
        """A new slip, numbered next, for the payout of a void slip (with W-2G data again where the
        win needs it). Refused: the slip is not void, or was already issued again."""
        with self._lock:
            s, now = self._require(SUPERVISORS, "issue a payout slip")
            rows = self.log.query("SELECT * FROM slips WHERE number = ?", (number,))
            if not rows:
                raise Refused(f"no slip {number}")
            old = rows[0]
            if old["status"] != "VOID":
                raise Refused(f"slip {number} is {old['status']}; only a void slip is issued again")
            again = self.log.query("SELECT number FROM slips s JOIN events e ON e.seq = s.seq WHERE "
                                   "json_extract(e.body, '$.data.replaces') = ?", (number,))
            if again:
                raise Refused(f"void slip {number} was already issued again as slip {again[0]['number']}")
            data = json.loads(self.log.query("SELECT body FROM events WHERE seq = ?", (old["seq"],))[0]["body"])["data"]
            try:
                rec = slip_record(now, s.name, s.role, old["table_id"], old["seat"], old["wager"], old["wager_cents"],
                                  old["win_cents"], payee, {"replaces": number,
                                                            **({"settlement": data["settlement"]}
                                                               if data.get("settlement") else {})})
            except SlipError as e:
                raise Refused(str(e)) from None
            self._append([rec])
            return self._observe() | changes(tables=[old["table_id"]] if old["table_id"] else [])

    # the round helpers
    def _new_draft(self, table: str) -> RoundDraft:
        state, rules = self._state_of(table)
        prof = profile(rules.name)
        # the procedures' round in progress (or just complete), else the one about to begin: the
        # round the table's header shows (Tile.round_now)
        d = RoundDraft(table, rules, self._limits[table], prof.house(), prof.ranker(), round_at_hand(state))
        if state.bank and state.bank_mode in rules.banking_modes and state.bank_mode != "house":
            d.banking = {"mode": state.bank_mode, "seat": state.bank[0]}   # bank_declared this round
        return d

    def _draft_for(self, table: str) -> RoundDraft:
        d = self._drafts.get(table)
        if d is None:
            d = self._drafts[table] = self._new_draft(table)
        return d

    def _edit(self, table: str, what: str, do: Callable[[RoundDraft], None]) -> Changes:
        with self._lock:
            self._require(AT_THE_TABLE, what)
            self._check_table(table)
            d = self._draft_for(table)
            try:
                do(d)
            except DraftError as e:
                raise FieldsRefused(f"table {table}: {e}", e.fields) from None
            return changes(rounds=[table])

    def _check_bank(self, table: str, mode: str, seat: int | None) -> None:
        state, rules = self._state_of(table)
        why = bank_refusal(state, rules, mode, seat)
        if why:
            raise Refused(f"table {table}: seat {seat} may not be the {mode} this round: {why}")

    def _offers(self, table: str) -> tuple[tuple, str]:
        state, rules = self._state_of(table)
        if state.state == "closed":
            return (), ("the table is closed in the log: the procedures have no rotation to offer the bank; the "
                        "round's own fields are checked when it is settled (000(m)(2)-(4))")
        info = detail.bank(state, rules)
        return info.offers, info.note

    def _round(self, settlement: int) -> RoundResult:
        try:
            row = roundlog.settlement_row(self.log, settlement)
        except roundlog.NoSuchRound as e:
            raise Refused(str(e)) from None
        rules = self.pit.rules.get(row["table_id"]) or profile(row["data"]["settlement"]["profile"]).rules
        return roundlog.result(self.log, settlement, rules, self.config.slip_cents)

    def _send_back(self, settlement: int, why: str) -> bool:
        """The round of ``settlement`` entered again at its table, saying why it came back."""
        row = roundlog.settlement_row(self.log, settlement)
        table, obj = row["table_id"], row["data"].get("round_file")
        if table not in self._setups or obj is None:
            return False
        state, rules = self._state_of(table)
        try:
            rnd = parse_round(obj, rules, self._limits[table])
        except RoundError:
            return False
        d = self._new_draft(table)
        d.load(obj, rnd)
        d.round, d.returned, d.replaces = row["data"].get("round") or d.round, why, settlement
        self._drafts[table] = d
        return True

    def _fold_hands(self, rows: list[dict]) -> set[str]:
        """``hand_read`` rows fill the table's round (created if none is being entered); a person's
        ``hand_corrected`` replaces the read cards (app/workstation/round_draft.py)."""
        out = set()
        states = None      # one look at the log for the whole batch (each look asks SQLite for its tail)
        for r in rows:
            table = r["table_id"]
            if table not in self._setups or r["type"] not in ("hand_read", "hand_corrected"):
                continue
            body = json.loads(r["body"])
            data = body["data"]
            if r["type"] == "hand_read":
                pos, cards = data.get("position"), data.get("cards")
                if not isinstance(pos, int) or not isinstance(cards, list):
                    continue
                if states is None:
                    states = self.log.projector.states
                self._draft_for(table).read_hand(pos, cards, str(data.get("serial") or body["actor"]),
                                                 str(data.get("deck", "")), states[table].round)
            elif table in self._drafts:
                self._drafts[table].correct(data["position"], data["cards"], body["actor"])
            out.add(table)
        return out

    def _restore_hands(self) -> None:
        """After a restart: the cards read (and corrected) in the round each table is in."""
        for table in self._setups:
            state = self._state_of(table)[0]
            if state.state not in IN_ROUND:
                continue
            start = self.log.query("SELECT IFNULL(MAX(seq), 0) AS s FROM events WHERE table_id = ? AND type IN "
                                   "('no_more_bets', 'settlement')", (table,))[0]["s"]
            rows = self.log.query("SELECT seq, type, table_id, body FROM events WHERE table_id = ? AND seq > ? AND "
                                  "type IN ('hand_read', 'hand_corrected') ORDER BY seq", (table, start))
            self._fold_hands(rows)

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
    @property
    def shifts(self):
        """The pit's shifts (app/workstation/shifts.py ``ShiftPlan``): the configuration's."""
        return self.config.shifts

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

    def progressive(self, since: datetime | None = None, after: int | Mapping[str, int] = 0,
                    record_from: datetime | None = None, now: datetime | None = None,
                    limit: int | None = None) -> tuple[progressive.ControllerReadout, ...]:
        """Every progressive controller (app/workstation/progressive_readout.py): link, lock-out, lights
        against the round's wagers, the meter and its readings logged after seq ``after`` (or
        ``after[serial]``) at or after ``since``, at most ``limit`` a controller (a view passes
        each controller's ``last_seq`` next time, and reads again at once while ``more``), the hits
        in the order reported, and the meter's record at each shift's start and end and at every
        reset from ``record_from`` (default: the shift before the one ``now`` is in) to ``now``."""
        now = now or self.clock()
        record_from = record_from or self.shifts.shifts_back(now, 1).start
        with self._reading():
            return progressive.readouts(self.log, self.meter_book, self.config.tables, self.pit.rules,
                                        self.log.projector.states, self._links(), self.pit.views, now, since,
                                        after, record_from, limit, self.shifts)

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

    def _controllers(self) -> dict[str, tuple[str, bool | None, tuple[int, ...] | None]]:
        """table -> its progressive controller's (serial, locked, seats lit), as last reported."""
        out = {}
        for t in self.config.tables:
            serial = next((d.serial for d in t.devices if d.cls == "progressive"), None)
            if serial is None:
                continue
            readings = self.pit.views[t.id].readings
            lock, lights = readings.get("lockout"), readings.get("acceptor_lights")
            out[t.id] = (serial, lock.values["locked"] if lock else None,
                         tuple(lights.values["seats"]) if lights else None)
        return out

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
        rounds = self._fold_hands(rows)
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
        return changes(tables, alarms, approvals, {u for u in users if u}, seqs=[r["seq"] for r in rows],
                       rounds=rounds)


def _minutes(idle) -> str:
    m = idle.total_seconds() / 60
    return f"{m:g} minute{'s' if m != 1 else ''}"
