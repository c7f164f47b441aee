"""A queue of link events with a limit, that drops what comes when it is full and says so
(docs/devices.md, "Bounded input").

A device that floods the workstation faster than the log can take it must not grow a queue
without end (a controller's flood grew the window from 128 MB to 1.1 GB in a minute). What
does not fit is dropped, never waited for: a link's reader that waited would stop acknowledging
and reading every other frame, and its device would fall offline. Every drop is said: the next
``take`` ends with one ``LinkDropped`` per source (a device's serial, or its port) naming how
many of its events were dropped, which the live pit logs as a device fault.
"""

from __future__ import annotations

import queue
from collections.abc import Callable
from datetime import datetime

from .link import LinkDropped

LIMIT = 10_000   # link events waiting; a floor of 40 tables says about 120 a second


def _source(event) -> tuple[str, str | None]:
    """(the port url, the device's serial if known) of a link event."""
    return getattr(event, "url", "?"), getattr(event, "serial", None)


class BoundedQueue(queue.Queue):
    def __init__(self, maxsize: int = LIMIT, where: str = "the queue", wall: Callable[[], datetime] = datetime.now):
        super().__init__(maxsize)
        self.where = where
        self._wall = wall
        self.dropped: dict[tuple[str, str | None], int] = {}   # not yet said
        self.dropped_total = 0

    def put(self, item, block: bool = True, timeout: float | None = None) -> None:
        """Queue ``item`` at once, or drop it (and count it) when the queue is full; never waits."""
        with self.not_full:
            if 0 < self.maxsize <= self._qsize():
                key = _source(item)
                self.dropped[key] = self.dropped.get(key, 0) + 1
                self.dropped_total += 1
                return
            self._put(item)
            self.unfinished_tasks += 1
            self.not_empty.notify()

    def force(self, item) -> None:
        """Queue ``item`` past the limit (a stop signal, a report that must get through)."""
        with self.not_full:
            self._put(item)
            self.unfinished_tasks += 1
            self.not_empty.notify()

    def take(self, limit: int | None = None) -> list:
        """What is queued now, at most ``limit``, without waiting, then a ``LinkDropped`` for each
        source whose events were dropped since the last ``take``."""
        got = []
        while limit is None or len(got) < limit:
            try:
                got.append(self.get_nowait())
            except queue.Empty:
                break
        return got + self.reports()

    def reports(self) -> list[LinkDropped]:
        with self.mutex:
            dropped, self.dropped = self.dropped, {}
        now = self._wall()
        return [LinkDropped(url, f"{n} event{'s' if n > 1 else ''} dropped from {serial or url}: {self.where} was "
                                 f"full ({self.maxsize} events waiting)", now, serial, n, self.where)
                for (url, serial), n in dropped.items()]
