"""The live pit: a batch of device events through each table's procedures into the audit log.

The data flows one way: device frame -> link (app/devices/link.py) -> ``DeviceMessage`` /
``LinkState`` on the inbox -> ``Pit.handle`` -> mapping (app/devices/mapping.py) -> engine
(app/engine/procedure.py) -> the log (one append per batch). Each table's engine state has one
holder, the log (``AuditLog.projector``, read through ``Floor.states``); the pit keeps only what
the devices said that the log does not fold into a state (``Heard``: links, the latest readings,
deck colours and counts, doors). ``handle`` runs on one consumer thread (the workstation's pump,
or ``Pit.run``), so each table moves one event at a time.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime

from app.devices import mapping
from app.devices.bounded import BoundedQueue
from app.devices.link import DeviceMessage, LinkDropped, LinkEvent, LinkGap, LinkLog, LinkState
from app.devices.session import CLOSED_BY_US
from app.engine import words
from app.engine.procedure import Refused, TableState, apply
from app.engine.roles import DEVICE, SYSTEM
from app.rules.resources import profile
from app.store import rows
from app.store.approvals import ApprovalError
from app.store.floor import Floor
from app.store.log import AuditLog, Logged, Record

from .repeats import Repeats


def drain(events: "queue.Queue[LinkEvent]", limit: int | None = None) -> list[LinkEvent]:
    """What is queued now (at most ``limit``), without waiting: one batch for ``Pit.handle``. A
    bounded queue (app/devices/bounded.py) ends it with what it dropped since the last batch."""
    if isinstance(events, BoundedQueue):
        return events.take(limit)
    got = []
    while limit is None or len(got) < limit:
        try:
            got.append(events.get_nowait())
        except queue.Empty:
            break
    return got


@dataclass(frozen=True)
class TableConfig:
    table: str
    profile: str
    devices: dict[str, str]      # serial -> class (shuffler, shoe, progressive, rng)


@dataclass
class Heard:
    """What a table's devices last said that no engine state holds, kept by ``Pit.handle`` and
    replaced only once the log has taken the batch."""
    table: str
    profile: str
    links: dict[str, str] = field(default_factory=dict)       # serial -> link state
    readings: dict[str, mapping.Reading] = field(default_factory=dict)  # what -> the latest
    colours: dict[str, str] = field(default_factory=dict)     # deck -> its back's colour (000(b)(2)(ii))
    counts: dict[str, int] = field(default_factory=dict)      # deck -> the shuffler's last card count
    doors: dict[str, bool] = field(default_factory=dict)      # serial -> its door open, as last reported
    meter: int | None = None
    # (round, the meter before that round's first increment): the meter at the round's start, which
    # a settlement raises by each progressive wager's rate (000(q)(5)); the last reading, taken
    # after the increments, already holds them
    round_meter: tuple[int, int] | None = None
    alarms: int = 0
    faults: int = 0
    refused: int = 0
    last_event: str = ""

    def copy(self) -> "Heard":
        """A working copy for one batch."""
        return replace(self, links=dict(self.links), readings=dict(self.readings), colours=dict(self.colours),
                       counts=dict(self.counts), doors=dict(self.doors))


class _Copies(dict):
    """What the pit heard, for one batch: a table's ``Heard`` is copied when the batch first takes
    it, the others are the pit's own, untouched (issue 33: a pump copied all forty tables' for the
    few its events named)."""

    def __init__(self, heard: dict[str, Heard]):
        super().__init__(heard)
        self._copied: set[str] = set()

    def __getitem__(self, table: str) -> Heard:
        h = super().__getitem__(table)
        if table not in self._copied:
            self._copied.add(table)
            h = h.copy()
            self[table] = h
        return h


@dataclass
class Batch:
    """A batch of link events mapped and applied on copies, waiting for ``Pit.commit``."""
    records: list[Record]
    heard: dict[str, Heard]
    repeats: Repeats | None = None   # the devices' repeated alarms and faults held, as the batch leaves them

    def doors(self) -> dict[str, bool]:
        """serial -> its door open, as the batch leaves it."""
        return {serial: is_open for h in self.heard.values() for serial, is_open in h.doors.items()}


# what a table's devices said, checked by the application before it is logged: (table, its state,
# what the pit heard, the actions of one message, when) -> (the actions left, rows of its own first)
Vet = Callable[[str, TableState, "Heard", list, datetime], tuple[list, list[Record]]]


class Pit:
    def __init__(self, log: AuditLog, tables: list[TableConfig], actor: str = SYSTEM,
                 clock: Callable[[], datetime] = datetime.now, vet: Vet | None = None,
                 monotonic: Callable[[], float] = time.monotonic):
        self.log = log
        self.vet = vet
        self.monotonic = monotonic   # the clock of the links' ``received``: for the repeats held
        self.repeats = Repeats()   # a device's repeated alarms and faults, at most two rows a second (repeats.py)
        self.floor = Floor(log)
        self.actor = actor
        self.heard: dict[str, Heard] = {}
        self.feeds: dict[str, mapping.TableDevices] = {}
        self.rules = {}
        self.by_serial: dict[str, str] = {}
        self._unknown: set[str] = set()
        self._serial_at: dict[str, str] = {}   # port URL -> the serial of the device last on it
        for t in tables:
            for serial in t.devices:
                if serial in self.by_serial:
                    raise ValueError(f"device {serial} is configured at tables {self.by_serial[serial]} and {t.table}")
                self.by_serial[serial] = t.table
            rules = profile(t.profile).rules   # a bad profile name fails here, naming it
            configured = self.floor.tables().get(t.table)
            if configured is not None and configured != t.profile:
                raise ValueError(f"table {t.table} is configured with profile {configured!r} in this log, not "
                                 f"{t.profile!r}; close it and configure it again")
            if configured is None:
                self.floor.configure(t.table, t.profile, clock(), actor, "administrator")
            state = self.floor.state(t.table)
            self.rules[t.table] = rules
            self.heard[t.table] = Heard(t.table, t.profile)
            self.feeds[t.table] = mapping.TableDevices(t.table, rules, t.devices,
                                                       progressive_online=state.progressive_online)

    def states(self) -> dict[str, TableState]:
        """Every table's engine state, as the log holds it now (one look)."""
        return self.floor.states(self.heard)

    def links(self) -> dict[str, str]:
        """serial -> link state, of every device of the floor heard from."""
        return {serial: state for h in self.heard.values() for serial, state in h.links.items()}

    # -- the consumer ----------------------------------------------------------------------
    def handle(self, events: list[LinkEvent], before: Iterable[Record] = (), flush: bool = False) -> list[Logged]:
        """Map, apply and log a batch of link events; the rows logged. ``before`` are rows of the
        caller's (the workstation's own alarms) written first in the same append, so that a
        batch is one transaction. ``flush``: every repeated alarm or fault held is written too
        (at close)."""
        return self.commit(self.take(events, flush=flush), before)

    def take(self, events: list[LinkEvent], flush: bool = False) -> "Batch":
        """A batch worked out and not yet logged: its rows, the engine deciding what it accepts
        from the log's states, and what the pit heard with it, on copies. A device's repeated
        alarms and faults are held (app/workstation/repeats.py); those whose time is up, or all of
        them with ``flush``, end the batch."""
        states = self.states()     # one look at the log for every table; moved below as the engine accepts
        work = _Copies(self.heard)
        repeats = self.repeats.copy()
        records: list[Record] = []
        for ev in events:
            if isinstance(ev, (DeviceMessage, LinkState)) and ev.serial:
                self._serial_at[ev.url] = ev.serial   # so a link's log lines name its table
            if isinstance(ev, DeviceMessage):
                table = self._table_of(ev.serial, ev.url, ev.time, records)
                if table is not None:
                    actions = self.feeds[table].on_message(ev.message, ev.time, ev.serial)
                    made: list[Record] = []
                    if self.vet is not None and actions:
                        actions, made = self.vet(table, states[table], work[table], actions, ev.time)
                    made += self._act(work[table], states, actions, ev.time)
                    kind = str(ev.message.get("type")) if isinstance(ev.message, dict) else "?"
                    for r in made:
                        records += repeats.offer(kind, r, ev.received)
            elif isinstance(ev, LinkState):
                table = self.by_serial.get(ev.serial or "")
                if table is not None:
                    work[table].links[ev.serial] = ev.new
                    if ev.device and ev.reason != CLOSED_BY_US:   # shutting down is not an outage
                        actions = self.feeds[table].on_link(ev.device, ev.serial, ev.new, ev.time, ev.reason)
                        records += self._act(work[table], states, actions, ev.time)
            elif isinstance(ev, LinkGap):
                # frames the device gave up, or lost with the link: never a silent skip
                # (docs/devices.md, "In order, once each")
                table = self.by_serial.get(ev.serial or self._serial_at.get(ev.url, ""))
                records.append(rows.device_fault(ev.time, ev.serial or self.actor, table, ev.device or "link", "gap",
                                                 ev.text, ev.serial or ev.url, first_seq=ev.first_seq, count=ev.count,
                                                 reason=ev.reason))
                if table is not None:
                    work[table].faults += 1
            elif isinstance(ev, LinkDropped):
                # a queue on the way was full: what was lost is said, never silent (docs/devices.md)
                table = self.by_serial.get(ev.serial or self._serial_at.get(ev.url, ""))
                records.append(rows.device_fault(ev.time, self.actor, table, "link", "dropped", ev.text,
                                                 ev.serial or ev.url, count=ev.count, where=ev.where))
                if table is not None:
                    work[table].faults += 1
            elif isinstance(ev, LinkLog):
                # the link's first failure of a kind, or the count of its repeats (docs/devices.md)
                table = self.by_serial.get(self._serial_at.get(ev.url, ""))
                records.append(rows.device_fault(ev.time, self.actor, table, "link", "link", ev.text, ev.url))
                if table is not None:
                    work[table].faults += 1
        # the half second is the arrivals': with a backlog in the inbox, the latest arrival in the
        # batch, not the clock (which would let one row out a pump); with none known, the clock
        arrived = [ev.received for ev in events if isinstance(ev, DeviceMessage) and ev.received > 0]
        released = repeats.flush() if flush else repeats.due(max(arrived) if arrived else self.monotonic())
        if released:
            # a row held for its half second is logged now: never stamped before the rows already
            # logged (a simulated shift's hours pass in a real second), its first time kept in it
            last = self.log.last_time()
            latest = max([r.time for r in records] + ([datetime.fromisoformat(last)] if last else []), default=None)
            released = [r if latest is None or r.time >= latest else
                        replace(r, time=latest, data={**r.data, "held_since": r.time.isoformat()}) for r in released]
        records += released
        return Batch(records, work, repeats)

    def commit(self, batch: "Batch", before: Iterable[Record] = ()) -> list[Logged]:
        """Log ``batch`` after ``before`` in one append; the rows logged. The log first, then what
        the pit heard (app/store/floor.py): the copies are kept only after the log has acknowledged
        every row. If the log refuses (disk full, closed), the error propagates and nothing the
        batch said is kept."""
        records = [*before, *batch.records]
        logged = self.log.write(records) if records else []
        self.heard = dict(batch.heard)
        if batch.repeats is not None:
            self.repeats = batch.repeats
        return logged

    def run(self, events: "queue.Queue[LinkEvent]", stop: threading.Event, batch_s: float = 0.05,
            on_batch: Callable[[list[Logged]], None] | None = None) -> None:
        """Drain the queue in batches until ``stop`` (a consumer thread's body)."""
        while not stop.is_set():
            try:
                batch = [events.get(timeout=batch_s)]
            except queue.Empty:
                if self.repeats.holding:   # a device's repeats held: written when their time is up
                    logged = self.handle([])
                    if on_batch is not None and logged:
                        on_batch(logged)
                continue
            while True:
                try:
                    batch.append(events.get_nowait())
                except queue.Empty:
                    break
            logged = self.handle(batch)
            if on_batch is not None:
                on_batch(logged)

    # -- internals -------------------------------------------------------------------------
    def _table_of(self, serial: str | None, url: str, time: datetime, records: list[Record]) -> str | None:
        table = self.by_serial.get(serial or "")
        if table is None and (serial or url) not in self._unknown:
            self._unknown.add(serial or url)   # logged once, not at every frame
            records.append(rows.device_fault(time, serial or url, None, "unknown", "not_configured",
                                             f"device {serial!r} on {url} is not configured at any table",
                                             serial or ""))
        return table

    def _act(self, heard: Heard, states: dict[str, TableState], actions: list[mapping.Action],
             time: datetime) -> list[Record]:
        """The records for ``actions``, moving ``states[table]`` and the working copy ``heard`` as the
        engine accepts them."""
        table, rules = heard.table, self.rules[heard.table]
        out: list[Record] = []
        for a in actions:
            if isinstance(a, mapping.TableEvent):
                event, state = a.event, states[table]
                if state.last_time is not None and event.time < state.last_time:
                    # readers on different ports stamp their own arrivals: keep the table's order
                    event = replace(event, time=state.last_time)
                try:
                    states[table] = apply(state, event, rules)
                except Refused as e:
                    heard.refused += 1
                    # the procedures refused what the device reported: logged as its fault, with why
                    why = str(e) if str(e).startswith(f"{event.type}:") else f"{event.type}: {e}"
                    out.append(rows.device_fault(time, event.actor, table, a.device, "refused", words.refusal(why),
                                                 event.actor))
                    heard.faults += 1
                    continue
                heard.last_event = event.type
                out.append(rows.procedure_event(table, event))
            elif isinstance(a, mapping.ApprovalRequest):
                try:
                    out.append(rows.approval_requested(time, a.serial or self.actor, DEVICE, table, a.kind, a.seat,
                                                       a.cents, a.role_needed, a.reason, a.rule, a.line,
                                                       states[table].round_at_hand()))
                except ApprovalError as e:
                    out.append(rows.device_fault(time, a.serial or self.actor, table, "progressive", "approval", str(e),
                                                 a.serial))
            elif isinstance(a, mapping.Reading):
                heard.readings[a.what] = a
                if a.what == "deck_colour":
                    heard.colours[a.values["deck"]] = a.values["colour"]
                elif a.what == "card_count":
                    heard.counts[a.values["deck"]] = a.values["count"]
                elif a.what == "door_open":
                    heard.doors[a.serial] = bool(a.values["open"])
                elif a.what == "increment":
                    at = states[table].round_at_hand()
                    if (heard.round_meter is None or heard.round_meter[0] != at) and heard.meter is not None:
                        heard.round_meter = (at, heard.meter)
                elif a.what == "rng_number":
                    # 000(k)(3): the number shown while the table waits for its starting position counts it
                    event = mapping.rng_position(a.values["number"], states[table], rules, time, a.serial)
                    if event is not None:
                        out += self._act(heard, states, [mapping.TableEvent(event, a.device)], time)
            else:   # Alarm, DeviceFault, MeterReading, HandRead: rows of their own
                actor = a.serial or self.actor
                if isinstance(a, mapping.Alarm):
                    heard.alarms += 1
                    if a.kind.endswith("_door_open"):
                        heard.doors[a.serial] = True
                    out.append(rows.alarm_raised(time, table, a.kind, a.message, a.rule, a.serial, actor))
                elif isinstance(a, mapping.DeviceFault):
                    heard.faults += 1
                    out.append(rows.device_fault(time, actor, table, a.device, a.code, a.message, a.serial))
                elif isinstance(a, mapping.MeterReading):
                    heard.meter = a.cents
                    out.append(rows.meter_reading(time, actor, DEVICE, table, a.cents, a.source, a.serial,
                                                    coalesced=a.coalesced))
                else:   # dealt for the round the table is on (000(g)), one hand of its deal
                    out.append(rows.hand_read(time, actor, table, a.position, a.deck, a.cards, a.serial, a.deal,
                                              a.hands, states[table].round_at_hand()))
        return out
