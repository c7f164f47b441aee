"""The live desk: the pump that takes what the device links queued into the log.

``pump(now)`` drains the inbox in one batch through the live pit (app/workstation/pit.py) into
the log, in one append with the rows the workstation writes by itself for the floor as it stands:
decks and dice overdue (once each), alarms for irregularities waiting for a supervisor, alarms
cleared by themselves, acceptor lights that disagree with the round's wagers. It returns what
changed: the tables touched (a link light, a logged row, a clock that changed level), the alarms
raised or cleared, the approvals requested. A window's bridge calls it on a timer (about every
100 ms) and whenever a device speaks; it never waits for the workstation's lock: while a person's
action is being written on another thread it returns at once and the events wait for the next.
"""

from __future__ import annotations

from datetime import datetime

from app.devices.link import DeviceMessage, LinkEvent, LinkState
from app.store.log import StoreStopped

from ..changes import NOTHING, Changes, changes
from ..clocks import ClockWatch
from ..errors import LogStopped
from ..pit import drain

PUMP_LIMIT = 2_000   # link events taken in one pump: one append stays short, whatever a device sends,
#                      so a person's action waits for it at most a moment (docs/devices.md, "Bounded input")

class Live:
    def __init__(self, ws):
        self.ws = ws
        self.clocks = ClockWatch()      # the tables' clocks, worked out again only when they can change
        self._levels: dict[str, str] = {}

    def pump(self, now: datetime | None = None) -> Changes:
        """Drain the device queue in one batch through the live pit into the log (one append), with
        the workstation's own rows; what changed. ``NOTHING`` at once while the workstation is busy
        on another thread; ``LogStopped`` once the log has stopped (the events stay queued)."""
        ws = self.ws
        if not ws.lock.acquire(blocking=False):
            return NOTHING
        try:
            if ws.closed:
                return NOTHING
            if ws.log.stopped:   # the events stay queued; nothing more can be written
                raise LogStopped(ws.log.stopped)
            now = now or ws.clock()
            events = drain(ws.events, PUMP_LIMIT)
            states = ws.states()
            batch = ws.pit.take(events)
            # the workstation's own rows, for the floor as it stood, go first in the batch's
            # append: one pump, one append
            extra = ws.book.automatic(now, states, ws.pit.links(), batch.doors(), self.clocks.all(states, now))
            extra += ws.acceptors.rows(now, {t: s for t, (s, _) in states.items()}, self._controllers(), ws.pit.rules)
            extra += ws.rounds.notes()
            if ws.shipper is not None:   # the log's copy at the casino's server lagging, or refused
                extra += ws.shipper.alarm_rows(now, ws.book)
            try:
                if events or extra or batch.records:   # records: repeated alarms released
                    ws.pit.commit(batch, before=extra)
            except StoreStopped as e:
                ws.book.forget_pending()   # nothing more is written; the log says why
                raise LogStopped(str(e)) from None
            except Exception:
                ws.book.load()             # what it marked cleared or raised was not written
                raise
            return ws.journal.changes() | changes(tables=self._touched(events) | self._levels_changed(now))
        finally:
            ws.lock.release()

    def last_words(self) -> None:
        """At close: what the links said last, logged (closed by us is not an outage), with the
        devices' repeated alarms and faults still held."""
        batch = drain(self.ws.events)
        if (batch or self.ws.pit.repeats.holding) and not self.ws.log.stopped:
            try:
                self.ws.pit.handle(batch, flush=True)
            except StoreStopped:
                pass

    def _touched(self, batch: list[LinkEvent]) -> set[str]:
        """The tables whose devices spoke in ``batch``."""
        by_serial = self.ws.pit.by_serial
        return {by_serial[ev.serial] for ev in batch
                if isinstance(ev, DeviceMessage | LinkState) and (ev.serial or "") in by_serial}

    def _levels_changed(self, now: datetime) -> set[str]:
        out = set()
        for table, w in self.clocks.all(self.ws.states(), now).items():
            if self._levels.get(table) != w.level:
                self._levels[table] = w.level
                out.add(table)
        return out

    def _controllers(self) -> dict[str, tuple[str, bool | None, tuple[int, ...] | None]]:
        """table -> its progressive controller's (serial, locked, seats lit), as last reported."""
        out = {}
        for t in self.ws.config.tables:
            serial = next((d.serial for d in t.devices if d.cls == "progressive"), None)
            if serial is None:
                continue
            readings = self.ws.pit.heard[t.id].readings
            lock, lights = readings.get("lockout"), readings.get("acceptor_lights")
            out[t.id] = (serial, lock.values["locked"] if lock else None,
                         tuple(lights.values["seats"]) if lights else None)
        return out
