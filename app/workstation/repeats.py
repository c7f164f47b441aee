"""A device's repeated alarms and faults thinned to a few a second, the latest kept and the rest
counted (docs/devices.md, "Bounded input").

A device that keeps to the window may still send, as fast as our acks come back, valid messages
that each make an alarm or a device fault: an increment under the rate of progression
(``meter_rate``, 000(q)(5)), a door open (000(n)(13)), a failed self-test, a stack of the wrong
size. One row each grew the log by thousands of rows a second. Here the rows of one kind that one
device's messages of one kind make are written at most once a half second: the first at once,
the ones after it held, each replacing the last, and the latest written when its half second is
up with ``repeats``: how many rows like it it stands for that were not written, said in its
message too. So every alarm and fault the device caused is in the log, as a row or in a row's
count (their sum is the number made).

Only ``alarm_raised`` and ``device_fault`` rows are thinned. A table event, a hand read, an
approval and a meter reading are the record the procedures need and are never held; a misread
names the hand that waits for a person (000(j)(1), (n)(8)), so it is never held either.

Pure: records in, each with when its message arrived (the link's monotonic ``received``, one
clock for every process of the machine, app/devices/host.py), records out. Not the wall clock:
the workstation's may be a test's, standing still, or set back.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from app.devices.coalesce import EVERY_S
from app.store.log import Record

THINNED = ("alarm_raised", "device_fault")
NEVER = frozenset({"misread"})   # fault codes always written: each names a hand a person must check

Key = tuple[str, str, str, str, str | None]   # row type, device serial, message type, kind or code, table


@dataclass
class _Held:
    record: Record
    at: float          # when its message arrived (monotonic seconds)
    repeats: int = 0   # rows like it before it, not written


def _key(message: str, r: Record) -> Key | None:
    if r.type not in THINNED:
        return None
    what = r.data.get("kind") if r.type == "alarm_raised" else r.data.get("code")
    if what in NEVER:
        return None
    return r.type, str(r.data.get("serial") or r.actor), message, str(what), r.table


class Repeats:
    """The held rows of every device. ``offer`` each row a device's message made, ``due`` at each
    pump, ``flush`` at close. ``copy`` for a batch that may not be written (``Pit.take``)."""

    def __init__(self, every_s: float = EVERY_S):
        self.every_s = every_s
        self._held: dict[Key, _Held] = {}
        self._last_out: dict[Key, float] = {}   # when the message of the row last written arrived

    def copy(self) -> "Repeats":
        out = Repeats(self.every_s)
        out._held = {k: _Held(h.record, h.at, h.repeats) for k, h in self._held.items()}
        out._last_out = dict(self._last_out)
        return out

    @property
    def holding(self) -> int:
        return len(self._held)

    def offer(self, message: str, record: Record, at: float) -> list[Record]:
        """``record``, made by a device's message of type ``message`` that arrived ``at``: written
        now, or held."""
        key = _key(message, record)
        if key is None:
            return [record]
        held = self._held.get(key)
        if held is None and self._free(key, at):
            self._last_out[key] = at
            return [record]
        if held is None:
            self._held[key] = _Held(record, at)
        else:
            held.record, held.at, held.repeats = record, at, held.repeats + 1
        return []

    def due(self, now: float) -> list[Record]:
        """The held rows whose half second is up at ``now`` (the clock of ``at``)."""
        ready = [k for k in self._held if self._free(k, now)]
        for k in ready:
            # the half second runs from its message's arrival, not the pump's: a backlog in the
            # inbox does not make the messages after it look early or late
            self._last_out[k] = self._held[k].at
        return [self._release(k) for k in ready]

    def flush(self) -> list[Record]:
        """Every held row, in the order first held."""
        return [self._release(k) for k in list(self._held)]

    def _free(self, key: Key, now: float) -> bool:
        last = self._last_out.get(key)
        return last is None or now - last >= self.every_s

    def _release(self, key: Key) -> Record:
        h = self._held.pop(key)
        if not h.repeats:
            return h.record
        n = h.repeats
        said = f"(and {n} more like it before this one, not logged one by one)"
        data = {**h.record.data, "repeats": n, "message": f"{h.record.data.get('message', '')} {said}"}
        return replace(h.record, data=data)
