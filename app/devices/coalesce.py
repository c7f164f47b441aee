"""A device's repeated readings thinned to a few a second, the latest kept and the rest counted
(docs/devices.md, "Bounded input").

A progressive controller broadcasts its meter (000(q)(5): the meter display shows the amount the
progressive pays); a controller that broadcasts as fast as it can made 274,390 ``meter_reading``
rows in a minute. Each reading supersedes the one before, so a run of them says no more than its
last one and how many came, except when the meter fell inside the run (000(q)(5), (6): it falls
only by a payout or a reset), which the kept reading carries.

A kind's readings pass on at most one a half second (``every_s``) on average, and the link lets a
few (``burst``) pass at once after a quiet spell: a new meter value goes on as it comes, and only
a device that keeps sending new values faster than that waits (issue 33: every new value held up
to half a second put the tiles' meters 0.3 s behind). A reading that says the value last passed
on again (the controller's broadcast between wagers) is news to nobody: it is held, superseded by
the next, and spends nothing.

Pure: messages and the monotonic time in, the messages to pass on out, in the device's order,
each as ``(message, tag)`` with the tag it was offered with.
Only a run of one kind is thinned: any other message of the device passes everything held first,
so nothing overtakes anything, and messages that move a table (a shuffle, a hand read, a hit, a
lock-out, the acceptor lights, an increment) are never held at all.
"""

from __future__ import annotations

from dataclasses import dataclass

EVERY_S = 0.5   # one reading of a kind per half second from one device, on average: two rows a second
BURST = 4       # the link's: at most four at once after a quiet spell (a token bucket of four)
# kind -> the field whose value supersedes the last (and whose fall is kept): only the meter.
# card_count belongs to the shuffle it precedes (001 11.17(i)), a door's open/closed and the key
# switch are changes, not broadcasts, and readings with no row of their own do not grow the log.
SUPERSEDING = {"meter": "cents"}


@dataclass
class _Held:
    message: dict
    tag: object                          # the caller's, passed back with it (the link: when it arrived)
    coalesced: int = 0                   # readings it stands for that are not passed on
    fell: tuple[int, int] | None = None  # the first fall inside the run (from, to)
    falls: int = 0


_NONE = object()   # no value passed on yet


class Coalescer:
    """One device's readings. ``offer`` each message as it arrives, ``due`` on the reader's timer
    (``next_due`` says when), ``flush`` before anything that is not a message (a state change).
    ``burst``: readings of a kind that may pass at once after a quiet spell (1: one a ``every_s``)."""

    def __init__(self, every_s: float = EVERY_S, kinds: dict[str, str] | None = None, burst: int = 1):
        self.every_s = every_s
        self.burst = max(1, burst)
        self.kinds = dict(SUPERSEDING if kinds is None else kinds)
        self._held: dict[str, _Held] = {}
        # kind -> when the next reading is due at the steady rate (the generic cell rate algorithm's
        # theoretical time, a token bucket's): one may pass ``burst - 1`` half seconds before it
        self._full_at: dict[str, float] = {}
        self._passed: dict[str, object] = {}    # kind -> the value last passed on
        self._last_value: dict[str, int] = {}   # kind -> the value last seen in this run
        self.coalesced = 0                      # readings not passed on, in all

    def offer(self, now: float, message: dict, tag: object = None) -> list[tuple[dict, object]]:
        kind = message.get("type")
        field = self.kinds.get(kind)
        if field is None:
            out = self.flush()
            self._last_value.clear()   # a run ends at any other message: a hit or reset may move the meter
            return out + [(message, tag)]
        value = message.get(field)
        last = self._last_value.get(kind)
        self._last_value[kind] = value
        held = self._held.get(kind)
        if held is None:
            held = self._held[kind] = _Held(message, tag)
        else:
            held.message, held.tag = message, tag
            held.coalesced += 1
            self.coalesced += 1
        if isinstance(value, int) and isinstance(last, int) and value < last:
            held.falls += 1
            held.fell = held.fell or (last, value)
        if self._news(kind) and now >= self._free_at(kind):
            self._spend(kind, now)
            return [self._release(kind)]
        return []

    def due(self, now: float) -> list[tuple[dict, object]]:
        """The held readings whose time has come (a value passed on already waits for the next)."""
        ready = [k for k in self._held if self._news(k) and now >= self._free_at(k)]
        for k in ready:
            self._spend(k, now)
        return [self._release(k) for k in ready]

    def next_due(self) -> float | None:
        waiting = [self._free_at(k) for k in self._held if self._news(k)]
        return min(waiting) if waiting else None

    def flush(self) -> list[tuple[dict, object]]:
        """Everything held, in the order it was first held."""
        return [self._release(k) for k in list(self._held)]

    @property
    def holding(self) -> int:
        return len(self._held)

    def _news(self, kind: str) -> bool:
        """The reading held says something the last one passed on did not: a new value, or a fall."""
        h = self._held[kind]
        return bool(h.falls) or h.message.get(self.kinds[kind]) != self._passed.get(kind, _NONE)

    def _free_at(self, kind: str) -> float:
        return self._full_at.get(kind, float("-inf")) - (self.burst - 1) * self.every_s

    def _spend(self, kind: str, now: float) -> None:
        self._full_at[kind] = max(self._full_at.get(kind, float("-inf")), now) + self.every_s

    def _release(self, kind: str) -> tuple[dict, object]:
        h = self._held.pop(kind)
        self._passed[kind] = h.message.get(self.kinds[kind])
        msg = dict(h.message)
        if h.coalesced:
            msg["coalesced"] = h.coalesced
        if h.falls:
            msg["fell"] = list(h.fell)
            msg["falls"] = h.falls
        return msg, h.tag
