"""The link runner over real TCP sockets and pseudo-terminals: one reader thread per port, the
session's states as a user meets them, events handed over through a queue."""

import contextlib
import json
import os
import queue
import select
import socket
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

import pytest

from app.devices.frame import Decoder, encode
from app.devices.link import DeviceMessage, Link, LinkLog, LinkState
from app.devices.messages import decode_message, encode_message
from app.devices.session import Policy

PITDESK = str(Path(sys.executable).with_name("pitdesk"))
FAST = Policy(degraded_after_s=0.6, offline_after_s=1.2, backoff_first_s=0.1, backoff_max_s=0.4, heartbeat_s=0.2)


class MiniDevice:
    """A device in a few lines: answers hello, acks, sends what it is told. Talks on any fd-like."""

    def __init__(self, send_bytes, serial="RNG-1"):
        self.send_bytes, self.serial = send_bytes, serial
        self.decoder, self.seq, self.host = Decoder(), 100, []

    def feed(self, data: bytes) -> None:
        for f in self.decoder.feed(data):
            msg = decode_message(f)
            self.host.append(msg)
            if msg["type"] not in ("ack", "nak", "heartbeat"):
                self.send_bytes(encode(encode_message("ack", self.seq, acked=f.seq)))
            if msg["type"] == "hello":
                self.say("hello", device="rng", serial=self.serial, firmware="t-1")

    def say(self, name, **values) -> int:
        seq, self.seq = self.seq, (self.seq + 1) % 256
        self.send_bytes(encode(encode_message(name, seq, **values)))
        return seq


def wait_for(events: queue.Queue, pred, timeout=5.0):
    end = time.monotonic() + timeout
    seen = []
    while time.monotonic() < end:
        try:
            ev = events.get(timeout=0.05)
        except queue.Empty:
            continue
        seen.append(ev)
        if pred(ev):
            return ev
    raise AssertionError(f"not seen in {timeout} s; saw {seen}")


def is_state(new):
    return lambda ev: isinstance(ev, LinkState) and ev.new == new


class TcpDevice:
    def __init__(self, port=0):
        self.server = socket.create_server(("127.0.0.1", port))
        self.port = self.server.getsockname()[1]
        self.conn = None
        self.device = None
        self.running = True
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while self.running:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            self.conn = conn
            self.device = MiniDevice(conn.sendall)
            try:
                while data := conn.recv(4096):
                    self.device.feed(data)
            except OSError:
                pass

    def drop(self):
        """Lose the link: close the connection and stop listening."""
        self.running = False
        with contextlib.suppress(OSError):   # wakes an accept() waiting in the serving thread (Linux)
            self.server.shutdown(socket.SHUT_RDWR)
        self.server.close()
        if self.conn:
            with contextlib.suppress(OSError):
                self.conn.shutdown(socket.SHUT_RDWR)
            self.conn.close()
        self.thread.join(5)


def test_tcp_connect_deliver_lose_and_reconnect():
    dev = TcpDevice()
    events = queue.Queue()
    link = Link(f"socket://127.0.0.1:{dev.port}", events.put, policy=FAST, install_serial="WS-9").start()
    try:
        wait_for(events, is_state("online"))
        assert link.session.device == "rng" and link.session.device_serial == "RNG-1"
        assert dev.device.host[0]["type"] == "hello" and dev.device.host[0]["serial"] == "WS-9"
        dev.device.say("rng_number", number=6)
        msg = wait_for(events, lambda e: isinstance(e, DeviceMessage))
        assert msg.message["number"] == 6 and msg.serial == "RNG-1" and msg.device == "rng"
        assert msg.url == f"socket://127.0.0.1:{dev.port}"
        # the device server goes away: offline, and the failed reconnects are logged once
        port = dev.port
        dev.drop()
        off = wait_for(events, is_state("offline"))
        assert "socket disconnected" in off.reason or "lost" in off.reason
        assert off.device == "rng"   # which device went offline is still known
        wait_for(events, lambda e: isinstance(e, LinkLog) and "cannot open the port" in e.text)
        time.sleep(0.5)
        # back on the same port: the link reconnects by itself
        dev2 = TcpDevice(port)
        back = wait_for(events, is_state("online"))
        assert "hello from rng RNG-1" in back.reason
        dev2.device.say("rng_number", number=2)
        assert wait_for(events, lambda e: isinstance(e, DeviceMessage)).message["number"] == 2
        assert link.session.counters.connects == 2
        dev2.drop()
    finally:
        link.stop()
    assert not link._thread.is_alive()


def test_pty_silence_degrades_then_offline_then_back():
    # a pseudo-terminal has no connection to lose: only the device's silence tells
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    dev = MiniDevice(lambda b: os.write(master, b))
    quiet = threading.Event()
    stop = threading.Event()

    def serve():
        while not stop.is_set():
            r, _, _ = select.select([master], [], [], 0.05)
            if r:
                data = os.read(master, 4096)
                if not quiet.is_set():
                    dev.feed(data)
    server = threading.Thread(target=serve, daemon=True)
    server.start()
    events = queue.Queue()
    link = Link(path, events.put, policy=FAST).start()
    try:
        wait_for(events, is_state("online"))
        quiet.set()   # the device stops answering: no acks, no heartbeats
        wait_for(events, is_state("degraded"))
        wait_for(events, is_state("offline"))
        quiet.clear()
        wait_for(events, is_state("online"))
    finally:
        link.stop()
        stop.set()
        server.join(5)
        os.close(master)
        os.close(slave)


def test_watch_prints_events_and_a_summary():
    dev = TcpDevice()

    def talk():
        while dev.device is None or not any(m["type"] == "hello" for m in dev.device.host):
            time.sleep(0.02)
        time.sleep(0.1)
        dev.device.say("rng_number", number=3)
        dev.conn.sendall(b"\x02\x05garbage\x03")   # a refused frame
        dev.device.say("rng_number", number=7)
    threading.Thread(target=talk, daemon=True).start()
    p = subprocess.run([PITDESK, "devices", "watch", f"socket://127.0.0.1:{dev.port}", "--seconds", "1.5"],
                       capture_output=True, text=True, timeout=20)
    dev.drop()
    assert p.returncode == 0, p.stderr
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert all("type" in x for x in lines)
    assert [x["number"] for x in lines if x["type"] == "rng_number"] == [3, 7]
    assert [x["state"] for x in lines if x["type"] == "link"][:2] == ["connecting", "online"]
    summary = lines[-1]
    assert summary["type"] == "summary" and summary["frames_rejected"] == 1 and summary["delivered"] == 2
    assert summary["frames_accepted"] >= 4 and summary["device"] == "rng" and summary["state"] == "online"


@pytest.mark.parametrize("args,message", [
    (["foo://bar"], "URL 'foo://bar': invalid URL, protocol 'foo' not known"),
    (["socket://127.0.0.1:1", "--seconds", "0"], "--seconds: a positive number of seconds, got 0"),
])
def test_watch_bad_input_exits_2_naming_it(args, message):
    p = subprocess.run([PITDESK, "devices", "watch", *args], capture_output=True, text=True, timeout=20)
    assert p.returncode == 2 and message in p.stderr and p.stdout == ""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_watch_a_port_nobody_listens_on_exits_1_naming_the_fault():
    url = f"socket://127.0.0.1:{_free_port()}"
    p = subprocess.run([PITDESK, "devices", "watch", url, "--seconds", "1"], capture_output=True, text=True,
                       timeout=20)
    assert p.returncode == 1, (p.stdout, p.stderr)
    assert f"pitdesk: devices watch: never connected to {url}: cannot open the port" in p.stderr
    assert "Connection refused" in p.stderr and "Traceback" not in p.stderr
    summary = json.loads(p.stdout.splitlines()[-1])
    assert summary["type"] == "summary" and summary["connects"] == 0 and summary["fault"].startswith("never connected")


def test_watch_a_device_that_never_says_hello_exits_1_naming_the_fault():
    server = socket.create_server(("127.0.0.1", 0))   # accepts (the kernel's backlog) and says nothing
    try:
        url = f"socket://127.0.0.1:{server.getsockname()[1]}"
        p = subprocess.run([PITDESK, "devices", "watch", url, "--seconds", "1"], capture_output=True, text=True,
                           timeout=20)
    finally:
        server.close()
    assert p.returncode == 1, (p.stdout, p.stderr)
    assert f"pitdesk: devices watch: no hello from the device on {url}" in p.stderr and "Traceback" not in p.stderr
    lines = [json.loads(x) for x in p.stdout.splitlines()]
    assert [x["state"] for x in lines if x["type"] == "link"][:1] == ["connecting"]
    assert lines[-1]["fault"].startswith("no hello from the device")
