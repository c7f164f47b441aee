"""``pitdesk simulate device``: one simulated device until SIGINT or SIGTERM (app/simulate/devices.py).

Stdout gets exactly one JSON line, where the device is; stderr gets the injections and, on exit,
the device's counters. Fault names on stdin, one a line, are injected at once (read always: from
a pipe, a file or a terminal); a bad name is reported on stderr and the device carries on.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading

from .device_kinds import FAULTS, applies
from .devices import SimDevice, SimError

EXIT_BAD_INPUT = 2


def parse_listen(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise SimError(f"expected HOST:PORT, got {text!r}", "listen")
    return host, int(port)


def parse_faults(text: str, kind: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if names == ["all"]:
        return [f for f in FAULTS if applies(f, kind)]
    return names  # SimDevice names the bad one


def parse_span(text: str, option: str) -> tuple[float, float]:
    lo, _, hi = text.partition("-")
    try:
        span = (float(lo), float(hi or lo))
    except ValueError:
        raise SimError(f"expected seconds MIN-MAX, got {text!r}", option) from None
    if not 0 < span[0] <= span[1]:
        raise SimError(f"expected seconds MIN-MAX, more than 0, got {text!r}", option)
    return span


def _read_faults(served, stop: threading.Event) -> None:
    """Fault names from stdin, one a line; os.read, not sys.stdin, so that exiting never waits on
    the buffered reader's lock."""
    tail = b""
    while not stop.is_set():
        try:
            data = os.read(0, 1024)
        except OSError:
            return
        if not data:
            return
        lines = (tail + data).split(b"\n")
        tail = lines.pop()
        for raw in lines:
            name = raw.decode(errors="replace").strip()
            if not name or name.startswith("#"):
                continue
            try:
                served.inject(name)
            except SimError as e:
                print(f"pitdesk: error: {e}", file=sys.stderr, flush=True)
            else:
                print(f"pitdesk: injected {name}", file=sys.stderr, flush=True)


def run_device(args) -> int:
    try:
        silence = parse_span(args.silence, "silence")
        listen = parse_listen(args.listen) if args.listen is not None else None
        device = SimDevice(args.kind, args.serial, parse_faults(args.faults, args.kind), seed=args.seed,
                           pace=args.pace, fault_rate=args.fault_rate, silence=silence)
        served = device.serve_tcp(*listen) if listen else device.serve_pty(args.port)
    except SimError as e:
        print(f"pitdesk: error: --{e.option}: {e}" if e.option else f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: stop.set())
    print(json.dumps(served.info), flush=True)
    threading.Thread(target=_read_faults, args=(served, stop), name="sim-stdin", daemon=True).start()
    while not stop.wait(0.2) and served.alive:
        pass
    served.stop()
    print(json.dumps({"stopped": served.info, "stats": served.stats}), file=sys.stderr, flush=True)
    if served.error is not None:
        print(f"pitdesk: error: the device stopped: {served.error!r}", file=sys.stderr)
        return 1
    return 0
