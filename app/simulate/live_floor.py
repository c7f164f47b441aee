"""``pitdesk simulate floor --tables N``: a demo pit of simulated devices, watched live.

Each table gets a shuffler, an automated dealing shoe, a progressive controller and an RNG
display (app/simulate/sim_device.py), each on its own TCP port (or pseudo-terminal with --pty). The
workstation's side is the real one: a link per port (app/devices/link.py), the live pit
(app/workstation/pit.py) mapping device events through each table's procedures into a new audit
database. The tables are opened first as a dealer and floor supervisor would (000(e)): two decks
received, inspected, verified, spread and washed, dice placed. Every ``--every`` seconds a status
table (or a JSON line per table with --json) is printed; at the end a JSON summary.
"""

from __future__ import annotations

import json
import queue
import signal
import threading
import time
from datetime import datetime
from pathlib import Path

from app.simulate.opening import open_table as _open_table   # 000(e): shared with the workstation's demo

PROFILES = ("section6", "nj")   # both offer the progressive wager, the RNG and the shuffler
CLASSES = ("shuffler", "shoe", "progressive", "rng")
PREFIX = {"shuffler": "SHF", "shoe": "SHO", "progressive": "PRG", "rng": "RNG"}


class FloorError(ValueError):
    pass


def run_floor(tables: int, db: Path, seconds: float | None = None, faults: tuple[str, ...] = (),
              fault_rate: float = 0.05, seed: int | None = None, pty_dir: Path | None = None,
              every: float = 2.0, as_json: bool = False, out=None) -> dict:
    import sys

    from app.devices.link import Link, stop_all
    from app.workstation.pit import Pit, TableConfig, drain
    from app.store.log import AuditLog

    from .sim_device import SimDevice
    out = out or sys.stdout
    if tables < 1:
        raise FloorError(f"--tables: at least one table, got {tables}")
    if db.exists() and db.stat().st_size:
        raise FloorError(f"--db: {db} already exists; the demo floor logs into a new database")
    configs = [TableConfig(f"T{n}", PROFILES[(n - 1) % len(PROFILES)],
                           {f"{PREFIX[c]}-{n}": c for c in CLASSES}) for n in range(1, tables + 1)]
    stop = threading.Event()
    served, links = [], []
    events: queue.Queue = queue.Queue()
    with AuditLog(db) as log:
        pit = Pit(log, configs, actor="pitdesk")
        for t in configs:
            if pit.floor.state(t.table).state == "closed" and not pit.floor.state(t.table).decks:
                _open_table(pit.floor, t.table, datetime.now)
        consumer = threading.Thread(target=pit.run, args=(events, stop), name="live pit", daemon=True)
        consumer.start()
        try:
            for k, t in enumerate(configs):
                for serial, cls in t.devices.items():
                    dev = SimDevice(cls, serial, faults=tuple(f for f in faults if _applies(f, cls)),
                                    seed=None if seed is None else seed * 1000 + len(served), fault_rate=fault_rate)
                    handle = (dev.serve_pty(str(pty_dir / serial)) if pty_dir is not None else dev.serve_tcp())
                    served.append(handle)
                    links.append(Link(handle.url, events.put, install_serial="demo-floor").start())
            _watch(pit, links, stop, seconds, every, as_json, out)
        finally:
            # all at once, not one after another (Ctrl-C took 5 s): each link closes its port on its
            # own thread, and its last events are on the queue once its thread has ended
            stop_all(links)
            for handle in served:
                handle.stop(wait=False)
            for handle in served:
                handle.stop()
            stop.set()
            consumer.join(5)
            pit.handle(drain(events), flush=True)   # with the repeated alarms still held
        summary = _summary(pit, links, db, log)
    summary["still_open"] = _still_open(links, served, log)
    out.write(json.dumps(summary) + "\n")
    out.flush()
    return summary


def _still_open(links, served, log) -> list[str]:
    """What is still open or running after the floor closed: nothing, or the summary says what."""
    left = [f"link {link.url}" for link in links if link.alive]
    left += [f"simulator {h.info['serial']}" for h in served if h.alive]
    left += [f"thread {t.name}" for t in threading.enumerate()
             if t is not threading.current_thread() and t.is_alive()]
    if not log.stopped:
        left.append(f"audit log {log.path}")
    return left


def _applies(fault: str, cls: str) -> bool:
    from .device_kinds import applies
    return applies(fault, cls)


def _watch(pit, links, stop, seconds, every, as_json, out) -> None:
    end = None if seconds is None else time.monotonic() + seconds
    interrupted = threading.Event()
    handlers = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            handlers[sig] = signal.signal(sig, lambda *_: interrupted.set())
    try:
        nxt = time.monotonic() + every
        while not interrupted.is_set() and (end is None or time.monotonic() < end):
            interrupted.wait(0.05)
            if time.monotonic() >= nxt:
                nxt += every
                _print_status(pit, links, as_json, out)
    finally:
        for sig, h in handlers.items():
            signal.signal(sig, h)


def _status_rows(pit, links) -> list[dict]:
    by_serial = {link.session.device_serial: link.state for link in links if link.session.device_serial}
    rows = []
    states = pit.states()
    for table, v in pit.heard.items():
        s = states[table]
        rng = v.readings.get("rng_number")
        rows.append({"table": table, "profile": v.profile, "state": s.state, "deck": s.deck_in_play,
                     "decks": sorted(s.decks), "meter_cents": v.meter,
                     "rng": rng.values.get("number") if rng else None,
                     "progressive": "open" if s.progressive_online else "closed",
                     "links": {cls: by_serial.get(serial, "connecting") for serial, cls in
                               pit.feeds[table].devices.items()},
                     "alarms": v.alarms, "faults": v.faults, "refused": v.refused,
                     "last_event": v.last_event})
    return rows


def _print_status(pit, links, as_json: bool, out) -> None:
    rows = _status_rows(pit, links)
    if as_json:
        for r in rows:
            out.write(json.dumps({"type": "table", "time": datetime.now().isoformat(timespec="seconds"), **r}) + "\n")
    else:
        out.write(f"\n{datetime.now():%H:%M:%S}  table  profile   state      deck  meter        rng  "
                  "progressive  shuffler/shoe/progressive/rng            alarms faults\n")
        for r in rows:
            c = r["meter_cents"]
            meter = "-" if c is None else f"${c // 100:,}.{c % 100:02d}"
            link = "/".join(r["links"][c] for c in CLASSES)
            out.write(f"          {r['table']:<6} {r['profile']:<9} {r['state']:<10} {r['deck'] or '-':<5} "
                      f"{meter:<12} {r['rng'] or '-':<4} {r['progressive']:<12} {link:<40} "
                      f"{r['alarms']:>6} {r['faults']:>6}\n")
    out.flush()


def _summary(pit, links, db: Path, log) -> dict:
    counters = [link.session.counters for link in links]
    counts = log.counts("events", "alarms", "device_faults", "approvals")
    return {"type": "summary", "db": str(db), "tables": len(pit.heard), "devices": len(links),
            "events_logged": counts["events"], "alarms": counts["alarms"], "device_faults": counts["device_faults"],
            "approvals": counts["approvals"],
            "frames_accepted": sum(c.frames_accepted for c in counters),
            "frames_rejected": sum(c.frames_rejected for c in counters),
            "delivered": sum(c.delivered for c in counters),
            "retransmitted": sum(c.retransmitted for c in counters),
            "gaps": sum(c.gaps for c in counters),   # device frames never received (docs/devices.md)
            "connects": sum(c.connects for c in counters),
            "tables_state": {t: s.state for t, s in pit.states().items()}}
