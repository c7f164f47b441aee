"""The link queue: what the device links report, waiting for the next ``pump``.

A plain ``queue.Queue`` that can say when it stops being empty, so a window pumps as soon as
a device speaks instead of at its next timer tick: ``notify`` is called (on the link's thread,
under the queue's lock, so it must only hand the news on, e.g. emit a queued Qt signal) when an
event arrives in an empty queue: once per drain, however many events follow.
"""

from __future__ import annotations

import queue
from collections.abc import Callable


class Inbox(queue.Queue):
    def __init__(self) -> None:
        super().__init__()
        self.notify: Callable[[], None] | None = None

    def _put(self, item) -> None:
        first = not self.queue
        super()._put(item)
        notify = self.notify
        if first and notify is not None:
            notify()
