"""The floor's links in a process of their own (app/devices/host.py, app/workstation/runner.py):
a simulated device over a real TCP socket, read by a link in the spawned child, its messages
passed on in order; stopping ends the child and its last link state comes through; a child
that is killed is reported as every link lost, and a new one links the devices again."""

import multiprocessing
import os
import queue
import signal
import time

from app.devices.host import LinkHost
from app.devices.link import DeviceMessage, LinkLog, LinkState
from app.devices.session import CLOSED_BY_US, OFFLINE, ONLINE, Policy
from app.simulate.sim_device import SimDevice
from app.workstation.runner import HostedLinkRunner, LinkRunner, runner_for
from app.workstation.config import DeviceSetup

QUICK = Policy(degraded_after_s=1.0, offline_after_s=2.5, backoff_first_s=0.1, backoff_max_s=0.5)


class Seen:
    def __init__(self):
        self.events: queue.SimpleQueue = queue.SimpleQueue()
        self.all: list = []

    def put(self, e):
        self.events.put(e)

    def until(self, pred, what, timeout=20.0):
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                self.all.append(self.events.get(timeout=0.05))
            except queue.Empty:
                pass
            if pred(self.all):
                return
        raise AssertionError(f"{what}: not within {timeout} s; seen last: {self.all[-8:]}")

    def states(self, url):
        return [e for e in self.all if isinstance(e, LinkState) and e.url == url]

    def messages(self, url):
        return [e for e in self.all if isinstance(e, DeviceMessage) and e.url == url]


def _served(kind, serial, seed, **tuning):
    d = SimDevice(kind, serial, seed=seed, pace=0.2, **tuning)
    return d, d.serve_tcp()


def test_a_device_read_in_the_child_reaches_the_parent_in_order_and_stop_ends_the_child():
    _, served = _served("progressive", "PRG-H1", 1, hit_rate=0.0)
    seen = Seen()
    host = LinkHost([served.url], seen.put, policy=QUICK)
    try:
        host.start()
        assert host.pid != os.getpid()
        seen.until(lambda a: len(seen.messages(served.url)) >= 20, "20 messages from the controller")
        states = seen.states(served.url)
        assert [s.new for s in states][:2] == ["connecting", ONLINE]
        msgs = seen.messages(served.url)
        assert {m.serial for m in msgs} == {"PRG-H1"} and {m.device for m in msgs} == {"progressive"}
        # one clock for every process: a message arrived in the child before the parent had it
        assert all(m.received <= time.monotonic() for m in msgs)
        # in the order the device said them: with no hit the meter only grows (000(q)(5))
        meters = [m.message["cents"] for m in msgs if m.message["type"] == "meter"]
        assert len(meters) >= 2 and meters == sorted(meters)
        pid = host.pid
    finally:
        host.stop()
        served.stop()
    seen.until(lambda a: any(s.reason == CLOSED_BY_US for s in seen.states(served.url)), "closed by us")
    assert seen.states(served.url)[-1].new == OFFLINE
    assert not [p for p in multiprocessing.active_children() if p.pid == pid]


def test_a_killed_child_is_every_link_lost_and_a_new_child_links_them_again():
    served_devs = [_served("rng", "RNG-H1", 2), _served("shoe", "SHO-H1", 3)]
    urls = [s.url for _, s in served_devs]
    seen = Seen()
    host = LinkHost(urls, seen.put, policy=QUICK, restart_s=0.2)
    try:
        host.start()
        seen.until(lambda a: all(ONLINE in [s.new for s in seen.states(u)] for u in urls), "both online")
        first = host.pid
        os.kill(first, signal.SIGKILL)
        seen.until(lambda a: all(seen.states(u)[-1].new == OFFLINE for u in urls), "both lost")
        for u in urls:
            lost = seen.states(u)[-1]
            assert "links' process ended" in lost.reason and "-9" in lost.reason
        assert any(isinstance(e, LinkLog) and "links' process ended" in e.text for e in seen.all)
        seen.until(lambda a: all(seen.states(u)[-1].new == ONLINE for u in urls), "both online again")
        assert host.restarts == 1 and host.pid not in (None, first)
    finally:
        host.stop()
        for _, s in served_devs:
            s.stop()
    assert multiprocessing.active_children() == []


def test_the_floor_runs_its_links_in_a_child_unless_a_test_gives_them_a_port_or_clock():
    devices = [DeviceSetup("shuffler", "SHF-1", "socket://127.0.0.1:9")]
    q = queue.Queue()
    assert isinstance(runner_for(devices, q), HostedLinkRunner)
    assert isinstance(runner_for(devices, q, process=False), LinkRunner)
    assert isinstance(runner_for(devices, q, factory=lambda url: None), LinkRunner)
    from datetime import datetime
    assert isinstance(runner_for(devices, q, wall=lambda: datetime(2026, 1, 1)), LinkRunner)
