"""The link queue: what the device links report, waiting for the next ``pump``.

A queue with a limit (app/devices/bounded.py: what comes when it is full is dropped and said,
docs/devices.md "Bounded input") that can say when it stops being empty, so a window pumps as soon as
a device speaks instead of at its next timer tick: ``notify`` is called (on the link's thread,
under the queue's lock, so it must only hand the news on, e.g. emit a queued Qt signal) when an
event arrives in an empty queue: once per drain, however many events follow.
"""

from __future__ import annotations

from collections.abc import Callable

from app.devices.bounded import LIMIT, BoundedQueue

INBOX_LIMIT = LIMIT   # link events waiting for the pump (about 80 s of a floor of forty tables)


class Inbox(BoundedQueue):
    def __init__(self, maxsize: int = INBOX_LIMIT) -> None:
        super().__init__(maxsize, "the workstation's inbox")
        self.notify: Callable[[], None] | None = None

    def _put(self, item) -> None:
        first = not self.queue
        super()._put(item)
        notify = self.notify
        if first and notify is not None:
            notify()
