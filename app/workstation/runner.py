"""The device links of the floor: one ``Link`` (app/devices/link.py, a reader thread each) per
configured device, all feeding one ``queue.Queue`` that the workstation drains in ``pump``.

``runner_for`` chooses where the links run: in a process of their own (``LinkHost``,
app/devices/host.py), so that 1,200 frames a second are read and decoded beside the window and
the log's writer instead of under their interpreter lock; or as threads of this process
(``LinkRunner``) when a test gives the links a port factory or a clock of its own, which cannot
cross into another process.

Starting returns at once (each link opens its port on its own thread, retrying with backoff);
stopping stops every link at the same time and waits for their threads, so closing a floor of
forty devices takes about as long as closing one (a reader looks at its stop flag every 20 ms,
every 100 ms while it waits to reconnect).
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Iterable
from datetime import datetime

from app.devices.host import LinkHost
from app.devices.link import Link, LinkEvent, Port, open_port
from app.devices.session import Policy

from .config import DeviceSetup

STOP_TIMEOUT_S = 2.0   # a thread still running after this is reported by ``stop``, not waited for


def stop_together(stops: Iterable[Callable[[], None]], timeout: float = STOP_TIMEOUT_S) -> list[str]:
    """Call every ``stop`` at once, each on a short-lived thread, and wait for all of them; the
    names of those that did not return within ``timeout``."""
    threads = [threading.Thread(target=stop, name=f"stopping {getattr(stop, '__qualname__', stop)}", daemon=True)
               for stop in stops]
    for t in threads:
        t.start()
    late = []
    for t in threads:
        t.join(timeout)
        if t.is_alive():
            late.append(t.name)
    return late


class LinkRunner:
    """``start()`` one link per device, ``stop()`` them all; ``links`` by serial."""

    def __init__(self, devices: Iterable[DeviceSetup], events: "queue.Queue[LinkEvent]", *,
                 factory: Callable[[str], Port] = open_port, policy: Policy | None = None,
                 install_serial: str = "", wall: Callable[[], datetime] = datetime.now):
        self.devices = tuple(devices)
        self.events = events
        self._factory, self._policy = factory, policy
        self._install_serial, self._wall = install_serial, wall
        self.links: dict[str, Link] = {}
        self._started = False

    def start(self) -> None:
        if self._started:
            return
        self._started = True
        for d in self.devices:
            kw = {"policy": self._policy} if self._policy is not None else {}
            self.links[d.serial] = Link(d.url, self.events.put, factory=self._factory,
                                        install_serial=self._install_serial, wall=self._wall, **kw).start()

    def stop(self, timeout: float = STOP_TIMEOUT_S) -> None:
        """Stop every link and wait for its thread (at most ``timeout``). Their last link states
        (closed by us, which the live pit does not count as an outage) are left on the queue."""
        stop_together([lambda link=link: link.stop(timeout) for link in self.links.values()], timeout + 0.5)


class HostedLinkRunner:
    """``LinkRunner``'s ``start``/``stop`` with the links in a child process (``LinkHost``)."""

    def __init__(self, devices: Iterable[DeviceSetup], events: "queue.Queue[LinkEvent]", *,
                 policy: Policy | None = None, install_serial: str = ""):
        self.devices = tuple(devices)
        self.events = events
        self.host = LinkHost([d.url for d in self.devices], events.put, policy=policy, install_serial=install_serial)
        self._started = False

    def start(self) -> None:
        if self._started or not self.devices:
            return
        self._started = True
        self.host.start(STOP_TIMEOUT_S)

    def stop(self, timeout: float = STOP_TIMEOUT_S) -> None:
        if self._started:
            self.host.stop(timeout)


def runner_for(devices: Iterable[DeviceSetup], events: "queue.Queue[LinkEvent]", *,
               factory: Callable[[str], Port] = open_port, policy: Policy | None = None, install_serial: str = "",
               wall: Callable[[], datetime] = datetime.now, process: bool = True) -> "LinkRunner | HostedLinkRunner":
    """The links in their own process when they open real ports on the real clock, else threads."""
    if process and factory is open_port and wall == datetime.now:   # a classmethod: equal, never identical
        return HostedLinkRunner(devices, events, policy=policy, install_serial=install_serial)
    return LinkRunner(devices, events, factory=factory, policy=policy, install_serial=install_serial, wall=wall)
