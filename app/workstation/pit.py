"""The live pit: device events through each table's procedures into the audit log.

The data flows one way: device frame -> link (app/devices/link.py, one reader thread per port)
-> DeviceMessage / LinkState on a queue -> ``Pit.handle`` -> mapping (app/devices/mapping.py)
-> engine (app/engine/procedure.py) -> store (one batch per call) -> views, which read the
store and ``Pit.snapshot()``. ``handle`` runs on one consumer thread (a view's timer, or
``Pit.run``), so each table's state moves one event at a time.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import datetime

from app.devices import mapping
from app.devices.link import DeviceMessage, LinkEvent, LinkGap, LinkLog, LinkState
from app.devices.session import CLOSED_BY_US
from app.engine.procedure import Refused, TableState, apply
from app.rules.resources import profile
from app.store.approvals import ApprovalError, request_record
from app.store.floor import Floor
from app.store.log import AuditLog, Record


def drain(events: "queue.Queue[LinkEvent]") -> list[LinkEvent]:
    """Everything queued now, without waiting: one batch for ``Pit.handle``."""
    got = []
    while True:
        try:
            got.append(events.get_nowait())
        except queue.Empty:
            return got


@dataclass(frozen=True)
class TableConfig:
    table: str
    profile: str
    devices: dict[str, str]      # serial -> class (shuffler, shoe, progressive, rng)


@dataclass
class TableView:
    """What the supervisor's panel shows of one table, kept current by ``Pit.handle``."""
    table: str
    profile: str
    state: TableState
    links: dict[str, str] = field(default_factory=dict)       # serial -> link state
    readings: dict[str, mapping.Reading] = field(default_factory=dict)  # what -> the latest
    meter: int | None = None
    alarms: int = 0
    faults: int = 0
    refused: int = 0
    last_event: str = ""

    def copy(self, state: TableState) -> "TableView":
        """A working copy for one batch, starting from the log's ``state``."""
        return replace(self, state=state, links=dict(self.links), readings=dict(self.readings))


class Pit:
    def __init__(self, log: AuditLog, tables: list[TableConfig], actor: str = "pitdesk",
                 clock: Callable[[], datetime] = datetime.now):
        self.log = log
        self.floor = Floor(log)
        self.actor = actor
        self.views: dict[str, TableView] = {}
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
            self.views[t.table] = TableView(t.table, t.profile, state)
            self.feeds[t.table] = mapping.TableDevices(t.table, rules, t.devices,
                                                       progressive_online=state.progressive_online)

    # -- the consumer ----------------------------------------------------------------------
    def handle(self, events: list[LinkEvent], before: Iterable[Record] = ()) -> list[int]:
        """Map, apply and log a batch of link events; the sequence numbers logged. ``before`` are
        rows of the caller's (the workstation's own alarms) written first in the same append,
        so that a batch is one transaction.

        The log first, then the screen (app/store/floor.py): the batch is worked out on copies
        of the tables' views, the engine deciding what it accepts, and the views are replaced
        only after the log has acknowledged every row. If the log refuses (disk full, closed),
        the error propagates and the screen still shows what the log holds."""
        states = self.floor.states(self.views)   # one look at the log for every table
        work = {table: view.copy(states[table]) for table, view in self.views.items()}
        records: list[Record] = list(before)
        for ev in events:
            if isinstance(ev, (DeviceMessage, LinkState)) and ev.serial:
                self._serial_at[ev.url] = ev.serial   # so a link's log lines name its table
            if isinstance(ev, DeviceMessage):
                table = self._table_of(ev.serial, ev.url, ev.time, records)
                if table is not None:
                    actions = self.feeds[table].on_message(ev.message, ev.time, ev.serial)
                    records += self._act(work[table], actions, ev.time)
            elif isinstance(ev, LinkState):
                table = self.by_serial.get(ev.serial or "")
                if table is not None:
                    work[table].links[ev.serial] = ev.new
                    if ev.device and ev.reason != CLOSED_BY_US:   # shutting down is not an outage
                        actions = self.feeds[table].on_link(ev.device, ev.serial, ev.new, ev.time, ev.reason)
                        records += self._act(work[table], actions, ev.time)
            elif isinstance(ev, LinkGap):
                # frames the device gave up, or lost with the link: never a silent skip
                # (docs/devices.md, "In order, once each")
                table = self.by_serial.get(ev.serial or self._serial_at.get(ev.url, ""))
                records.append(Record("device_fault", ev.time, ev.serial or self.actor, "device", table,
                                      {"device": ev.device or "link", "code": "gap", "message": ev.text,
                                       "serial": ev.serial or ev.url, "first_seq": ev.first_seq,
                                       "count": ev.count, "reason": ev.reason}))
                if table is not None:
                    work[table].faults += 1
            elif isinstance(ev, LinkLog):
                # the link's first failure of a kind, or the count of its repeats (docs/devices.md)
                table = self.by_serial.get(self._serial_at.get(ev.url, ""))
                records.append(Record("device_fault", ev.time, self.actor, "device", table,
                                      {"device": "link", "code": "link", "message": ev.text, "serial": ev.url}))
                if table is not None:
                    work[table].faults += 1
        seqs = self.log.append_many(records) if records else []
        states = self.floor.states(work)
        for table, view in work.items():
            # the engine's state as the log holds it now, not the working copy
            view.state = states[table]
        self.views = work
        return seqs

    def run(self, events: "queue.Queue[LinkEvent]", stop: threading.Event, batch_s: float = 0.05,
            on_batch: Callable[[list[int]], None] | None = None) -> None:
        """Drain the queue in batches until ``stop`` (a consumer thread's body)."""
        while not stop.is_set():
            try:
                batch = [events.get(timeout=batch_s)]
            except queue.Empty:
                continue
            while True:
                try:
                    batch.append(events.get_nowait())
                except queue.Empty:
                    break
            seqs = self.handle(batch)
            if on_batch is not None:
                on_batch(seqs)

    def snapshot(self) -> dict[str, TableView]:
        return dict(self.views)

    # -- internals -------------------------------------------------------------------------
    def _table_of(self, serial: str | None, url: str, time: datetime, records: list[Record]) -> str | None:
        table = self.by_serial.get(serial or "")
        if table is None and (serial or url) not in self._unknown:
            self._unknown.add(serial or url)   # logged once, not at every frame
            records.append(Record("device_fault", time, serial or url, "device", None,
                                  {"device": "unknown", "code": "not_configured", "serial": serial or "",
                                   "message": f"device {serial!r} on {url} is not configured at any table"}))
        return table

    def _act(self, view: "TableView", actions: list[mapping.Action], time: datetime) -> list[Record]:
        """The records for ``actions``, moving the working copy ``view`` as the engine accepts them."""
        table, rules = view.table, self.rules[view.table]
        out: list[Record] = []
        for a in actions:
            if isinstance(a, mapping.TableEvent):
                event = a.event
                if view.state.last_time is not None and event.time < view.state.last_time:
                    # readers on different ports stamp their own arrivals: keep the table's order
                    event = replace(event, time=view.state.last_time)
                try:
                    view.state = apply(view.state, event, rules)
                except Refused as e:
                    view.refused += 1
                    # the procedures refused what the device reported: logged as its fault, with why
                    fault = mapping.DeviceFault(a.device, "refused", f"{event.type}: {e}", event.actor)
                    type_, data = fault.record()
                    out.append(Record(type_, time, event.actor, "device", table, data))
                    view.faults += 1
                    continue
                view.last_event = event.type
                out.append(Record(event.type, event.time, event.actor, event.role, table, event.data))
            elif isinstance(a, mapping.ApprovalRequest):
                try:
                    out.append(request_record(a.kind, time, a.serial or self.actor, "device", table, a.seat,
                                              a.cents, a.role_needed, a.reason, a.rule, a.line))
                except ApprovalError as e:
                    out.append(Record("device_fault", time, a.serial or self.actor, "device", table,
                                      {"device": "progressive", "code": "approval", "message": str(e),
                                       "serial": a.serial}))
            elif isinstance(a, mapping.Reading):
                view.readings[a.what] = a
            else:   # Alarm, DeviceFault, MeterReading, HandRead: rows of their own
                if isinstance(a, mapping.Alarm):
                    view.alarms += 1
                elif isinstance(a, mapping.DeviceFault):
                    view.faults += 1
                elif isinstance(a, mapping.MeterReading):
                    view.meter = a.cents
                type_, data = a.record()
                out.append(Record(type_, time, a.serial or self.actor, "device", table, data))
        return out

