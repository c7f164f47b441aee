"""Benchmark: the device link (issue 6).

1. Decoding: 200,000 frames of mixed device messages (stuffed bytes included) fed to
   ``Decoder.feed`` in 4 KiB reads, as a reader thread gets them. Goal: >= 50,000 frames/s.
2. Frame to engine event: 40 tables x 3 devices (shuffler, progressive controller, RNG display),
   each device sending 10 frames/s over its own TCP socket to its own link (reader thread,
   session, acknowledgements), for ``--seconds``. One consumer thread takes the events off the
   queue, maps them to table actions (app/devices/mapping.py) and applies the engine events
   (app/engine/procedure.py). Latency is from the device's write of a frame to the engine
   event (or table action) made from it. Goal: p99 <= 20 ms.

Run alone: ``.venv/bin/python bench/device_bench.py [--seconds N] [--tables N]``; also part of
``make bench``.

Two measurements by hand, not part of ``make bench`` (issue 12):
- ``--order N``: a simulated shuffler at ``--pace 0.15`` with a drop or a bad CRC injected through
  its stdin every 0.4 s, watched with ``pitdesk devices watch`` for N seconds: how many events
  arrived out of the shuffler's order or twice, how many ``shuffle_completed`` before their own
  ``card_count``, and the deck colours reported (docs/devices.md, "In order, once each").
- ``--floor-stop``: ``pitdesk simulate floor --tables 4`` (what ``make run`` starts), sent SIGINT
  as a terminal's Ctrl-C after 6 s, three times: seconds from the signal to its exit.
"""

from __future__ import annotations

import argparse
import json
import queue
import random
import selectors
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from app.devices.frame import Decoder, encode
from app.devices.messages import decode_message, encode_message

GOALS = {
    "device_decode": ">= 50,000 frames/s",
    "device_frame_to_engine": "p99 <= 20 ms at 40 tables x 3 devices x 10 frames/s",
}


def _mixed_frames(n: int, rng: random.Random) -> bytes:
    kinds = [("meter", lambda: {"cents": rng.randrange(10 ** 9)}),
             ("card_count", lambda: {"deck": rng.choice(["red", "blue"]), "count": 53}),
             ("rng_number", lambda: {"number": rng.randint(1, 7)}),
             ("increment", lambda: {"seat": rng.randint(1, 7), "cents": rng.choice([2, 3, 16, 0x0203])}),
             ("stack_dispensed", lambda: {"position": rng.randint(1, 7), "cards": 7}),
             ("jam", lambda: {"code": 0x1002, "text": "card path blocked"})]
    out = bytearray()
    for k in range(n):
        name, values = rng.choice(kinds)
        out += encode(encode_message(name, k % 256, **values()))
    return bytes(out)


def bench_decode(n: int = 200_000) -> tuple[float, str]:
    data = _mixed_frames(n, random.Random(6))
    best = float("inf")
    for _ in range(3):
        d = Decoder()
        got = 0
        t = time.perf_counter()
        for i in range(0, len(data), 4096):
            got += len(d.feed(data[i:i + 4096]))
        best = min(best, time.perf_counter() - t)
        assert got == n and d.rejected == 0
    return n / best, f"{len(data) / n:.1f} bytes/frame on the wire"


class _Devices:
    """Every device of the floor in one selector thread: each listens on its own TCP port,
    answers the workstation's hello and acknowledges its frames, and sends 10 frames/s."""

    CLASSES = ("shuffler", "progressive", "rng")

    def __init__(self, tables: int, rate: float):
        self.sel = selectors.DefaultSelector()
        self.rate = rate
        self.sent: dict[tuple[str, int], float] = {}
        self.devices = []
        for t in range(1, tables + 1):
            for cls in self.CLASSES:
                srv = socket.create_server(("127.0.0.1", 0))
                srv.setblocking(False)
                url = f"socket://127.0.0.1:{srv.getsockname()[1]}"
                dev = {"url": url, "cls": cls, "serial": f"{cls[:3].upper()}-{t}", "table": f"T{t}", "conn": None,
                       "dec": Decoder(), "seq": 0, "hello": False, "next": 0.0, "n": 0}
                self.devices.append(dev)
                self.sel.register(srv, selectors.EVENT_READ, ("accept", dev))
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, name="bench devices", daemon=True)

    def _send(self, dev, name, **values) -> None:
        seq = dev["seq"]
        dev["seq"] = (seq + 1) % 256
        data = encode(encode_message(name, seq, **values))
        self.sent[(dev["url"], seq)] = time.perf_counter()
        dev["conn"].sendall(data)

    def _frame(self, dev):
        cls, n = dev["cls"], dev["n"]
        dev["n"] += 1
        if cls == "progressive":
            return "meter", {"cents": 2_500_000 + n * 3}
        if cls == "rng":
            return "rng_number", {"number": n % 7 + 1}
        deck = ("red", "blue")[n // 4 % 2]
        return [("shuffle_started", {"deck": deck}), ("card_count", {"deck": deck, "count": 53}),
                ("shuffle_completed", {"deck": deck}), ("hands_dispensed", {"deck": deck, "hands": 7,
                                                                            "cards_per_hand": 7})][n % 4]

    def _run(self) -> None:
        rng = random.Random(1)
        for dev in self.devices:
            dev["next"] = rng.random() / self.rate   # spread the devices over the first period
        start = time.perf_counter()
        while not self.stop.is_set():
            for key, _ in self.sel.select(timeout=0.001):
                kind, dev = key.data
                if kind == "accept":
                    conn, _ = key.fileobj.accept()
                    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                    dev["conn"] = conn
                    self.sel.register(conn, selectors.EVENT_READ, ("read", dev))
                    continue
                try:
                    data = key.fileobj.recv(4096)
                except OSError:
                    data = b""
                if not data:
                    self.sel.unregister(key.fileobj)
                    dev["conn"] = None
                    continue
                for f in dev["dec"].feed(data):
                    msg = decode_message(f)
                    if msg["type"] in ("ack", "nak", "heartbeat"):
                        continue
                    dev["conn"].sendall(encode(encode_message("ack", dev["seq"], acked=f.seq)))
                    if msg["type"] == "hello":
                        self._send(dev, "hello", device=dev["cls"], serial=dev["serial"], firmware="bench")
                        dev["hello"] = True
            now = time.perf_counter() - start
            for dev in self.devices:
                if dev["hello"] and dev["conn"] is not None and now >= dev["next"]:
                    dev["next"] += 1 / self.rate
                    name, values = self._frame(dev)
                    self._send(dev, name, **values)


def bench_latency(tables: int = 40, rate: float = 10.0, seconds: float = 20.0) -> tuple[list[float], dict]:
    from app.devices.link import DeviceMessage, Link, stop_all
    from app.devices.session import ONLINE
    devices = _Devices(tables, rate)
    devices.thread.start()
    events: queue.Queue = queue.Queue()
    links = [Link(d["url"], events.put) for d in devices.devices]
    feeds = _table_feeds(devices)
    for link in links:
        link.start()
    deadline = time.monotonic() + 15
    while not all(link.state == ONLINE for link in links):
        if time.monotonic() > deadline:
            raise SystemExit("not every link came online within 15 s")
        time.sleep(0.05)
    latencies: list[float] = []
    counts = {"messages": 0, "engine_events": 0, "refused": 0, "other_actions": 0}
    measure_from = time.perf_counter() + 2.0   # after the first cycle settles
    end = measure_from + seconds
    while time.perf_counter() < end:
        try:
            ev = events.get(timeout=0.1)
        except queue.Empty:
            continue
        if not isinstance(ev, DeviceMessage):
            continue
        done = feeds(ev, counts)
        sent = devices.sent.get((ev.url, ev.message["seq"]))
        if sent is not None and sent >= measure_from:
            latencies.append(done - sent)
    devices.stop.set()
    stop_all(links)   # together: one after another, pyserial's socket:// close waits 0.3 s each
    c = {k: sum(link.session.counters.__dict__[k] for link in links)
         for k in ("frames_accepted", "frames_rejected", "retransmitted", "given_up", "duplicates")}
    return latencies, {**counts, **c, "links": len(links), "threads_after": threading.active_count()}


def _table_feeds(devices: _Devices):
    """The consumer's work for each device message: mapping to table actions, engine events
    applied to the table's state. Returns the time the last action was made."""
    from app.devices import mapping
    from app.engine.procedure import Refused, apply
    from app.rules.resources import profile
    rules = profile("section6").rules
    tables = {}
    for d in devices.devices:
        serials = {x["serial"]: x["cls"] for x in devices.devices if x["table"] == d["table"]}
        tables.setdefault(d["table"], {"feed": mapping.TableDevices(d["table"], rules, serials),
                                       "state": _opened(rules)})
    table_of = {d["url"]: d["table"] for d in devices.devices}

    def consume(ev, counts) -> float:
        t = tables[table_of[ev.url]]
        counts["messages"] += 1
        for action in t["feed"].on_message(ev.message, ev.time, ev.serial):
            if isinstance(action, mapping.TableEvent):
                try:
                    t["state"] = apply(t["state"], action.event, rules)
                    counts["engine_events"] += 1
                except Refused:
                    counts["refused"] += 1
            else:
                counts["other_actions"] += 1
        return time.perf_counter()

    return consume


def _opened(rules):
    """A table open for play: its two decks received, inspected, verified, spread and washed."""
    from datetime import datetime, timedelta

    from app.engine.procedure import Event, TableState, apply
    t0 = datetime(2026, 11, 21, 14, 0)
    s = TableState()
    steps = []
    for deck in ("red", "blue"):
        steps += [("deck_received", "dealer", {"deck": deck}), ("deck_inspected", "dealer", {"deck": deck}),
                  ("deck_verified", "floor supervisor", {"deck": deck}), ("deck_spread", "dealer", {"deck": deck}),
                  ("deck_washed", "dealer", {"deck": deck})]
    for k, (kind, role, data) in enumerate(steps):
        s = apply(s, Event(kind, t0 + timedelta(seconds=k), "bench", role, data), rules)
    return s


def bench(seconds: float = 20.0, tables: int = 40) -> list[tuple[str, str, float, str]]:
    rate, note = bench_decode()
    rows = [("device_decode", "Decoder.feed, 200,000 mixed frames in 4 KiB reads", rate, note)]
    lat, info = bench_latency(tables, 10.0, seconds)
    lat_ms = sorted(x * 1000 for x in lat)
    p50 = statistics.median(lat_ms)
    p99 = lat_ms[int(0.99 * (len(lat_ms) - 1))]
    rows.append(("device_frame_to_engine", f"{tables} tables x 3 devices x 10 frames/s over TCP, {seconds:g} s",
                 len(lat) / seconds, f"p50 {p50:.2f} ms, p99 {p99:.2f} ms, max {lat_ms[-1]:.1f} ms; "
                 + ", ".join(f"{k} {v}" for k, v in info.items())))
    return rows


PITDESK = str(Path(sys.executable).with_name("pitdesk"))


def measure_order(seconds: float) -> dict:
    """The shuffler on a faulty line, as the technician's watch shows it."""
    sim = subprocess.Popen([PITDESK, "simulate", "device", "shuffler", "--listen", "127.0.0.1:0", "--pace", "0.15",
                            "--fault-rate", "0", "--seed", "1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    url = json.loads(sim.stdout.readline())["url"]
    stop = threading.Event()

    def inject() -> None:
        k = 0
        while not stop.wait(0.4):
            sim.stdin.write(("drop", "bad-crc")[k % 2] + "\n")
            sim.stdin.flush()
            k += 1
    threading.Thread(target=inject, daemon=True).start()
    watch = subprocess.run([PITDESK, "devices", "watch", url, "--seconds", str(seconds)], capture_output=True,
                           text=True)
    stop.set()
    sim.terminate()
    _, err = sim.communicate()
    lines = [json.loads(x) for x in watch.stdout.splitlines()]
    events = [x for x in lines if x["type"] not in ("link", "link_log", "gap", "summary")]
    seen, wrap, last, behind = [], 0, None, 0
    for e in events:   # the device's order: SEQs unwrapped past 255
        if last is not None and e["seq"] < last - 128:
            wrap += 256
        last = e["seq"]
        n = e["seq"] + wrap
        behind += bool(seen) and n < max(seen)
        seen.append(n)
    counted, early = set(), 0
    for e in events:
        if e["type"] == "card_count":
            counted.add(e["deck"])
        elif e["type"] == "shuffle_completed":
            early += e["deck"] not in counted
            counted.discard(e["deck"])
    stats = json.loads(err.strip().splitlines()[-1])["stats"]
    return {"events": len(events), "out_of_order": behind, "twice": len(seen) - len(set(seen)),
            "shuffle_completed_before_its_card_count": early,
            "deck_colour": [(e["seq"], e["deck"]) for e in events if e["type"] == "deck_colour"],
            "gaps": [x["text"] for x in lines if x["type"] == "gap"], "injected": stats["faults"],
            "given_up_by_the_device": stats["given_up"], "watch_exit": watch.returncode}


def measure_floor_stop(runs: int = 3) -> list[float]:
    import os
    import signal
    import tempfile
    took = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as home:
            p = subprocess.Popen([PITDESK, "simulate", "floor", "--tables", "4", "--db", f"{home}/floor.db"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                                 env={**os.environ, "PITDESK_HOME": home})
            time.sleep(6)
            t = time.monotonic()
            os.killpg(p.pid, signal.SIGINT)
            p.wait(60)
            took.append(round(time.monotonic() - t, 3))
    return took


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--tables", type=int, default=40)
    ap.add_argument("--order", type=float, metavar="N", help="measure the faulty shuffler's order for N s, only")
    ap.add_argument("--floor-stop", action="store_true", help="measure Ctrl-C on the demo floor, only")
    args = ap.parse_args()
    if args.order:
        print(json.dumps(measure_order(args.order)))
        return 0
    if args.floor_stop:
        print(json.dumps({"sigint_to_exit_s": measure_floor_stop()}))
        return 0
    rows = bench(args.seconds, args.tables)
    for key, what, rate, note in rows:
        print(f"| {key} | {what} | {rate:,.0f} | {note} | {GOALS.get(key, '')} |")
    print(json.dumps([{"key": k, "what": w, "rate": r, "note": n} for k, w, r, n in rows]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
