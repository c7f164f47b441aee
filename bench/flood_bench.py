"""Benchmark: a progressive controller that floods the workstation (issue 26, finding 4).

A one-table floor whose controller is tests/support/flooder.py on a loopback socket: valid meter
frames, the meter a cent higher each, as fast as the socket takes them. The workstation is the
real one (links, inbox, pump, pit, audit log) pumped every 50 ms as the window's timer does, for
``--seconds``. Two floods:

- ``window``: the controller keeps to the window of 8 and acknowledges, so nothing cuts it off:
  the link's coalescing is all that thins it;
- ``ignore``: it ignores the window and every acknowledgement (``--ignore-acks``): it is cut off
  and reconnected with a doubling backoff.

``--message`` picks what it floods (tests/support/flooder.py ``MESSAGES``): ``meter`` (the
default), ``low-increment`` (an increment under the rate of progression: alarm ``meter_rate``
each, 000(q)(5)) or ``bad-seat`` (an increment for a seat the table has not: fault ``bad_seat``
each), to measure the rows a flood of valid messages that are not readings makes.

Measured: meter frames the flooder sent, the readings they stand for in the log (rows, and rows
plus their ``coalesced`` counts), meter rows a second, device faults and alarms, the log file's
growth, this process's resident memory before and after (and the links' process's, when the links
run in one: ``--process``), and the pump: how long each took (median, p99, longest).

Run alone: ``.venv/bin/python bench/flood_bench.py [--seconds N] [--ignore-acks] [--process]
[--message M] [--json]``; not part of ``make bench`` (it takes the machine's cores for its whole run).
"""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.workstation.config import DeviceSetup, TableSetup, WorkstationConfig  # noqa: E402
from app.workstation.workstation import Workstation  # noqa: E402
from tests.support.flooder import MESSAGES, Flooder  # noqa: E402

SERIAL = "PRG-FLOOD"


def rss_mb(pid: int | str = "self") -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024
    except (OSError, StopIteration):
        return float("nan")


def run(seconds: float, ignore_acks: bool, process: bool, message: str = "meter") -> dict:
    home = tempfile.mkdtemp(prefix="pitdesk-flood-")
    os.environ["PITDESK_HOME"] = str(Path(home) / "home")
    db = Path(home) / "flood.db"
    flood = Flooder(SERIAL, ignore_acks=ignore_acks, message=message).start()
    cfg = WorkstationConfig((TableSetup("T1", "section6-even", (DeviceSetup("progressive", SERIAL, flood.url),)),),
                            source="flood bench")
    ws = Workstation(cfg, db, link_process=process).start()
    child = getattr(getattr(ws.runner, "host", None), "pid", None)
    before, child_before = rss_mb(), rss_mb(child) if child else None
    size_before = db.stat().st_size
    pumps: list[float] = []
    start = time.monotonic()
    peak = before
    try:
        while time.monotonic() - start < seconds:
            t = time.perf_counter()
            ws.live.pump()
            pumps.append(time.perf_counter() - t)
            peak = max(peak, rss_mb())
            time.sleep(0.05)
        elapsed = time.monotonic() - start
        flood.stop()
        end = time.monotonic() + 5
        while ws.pit.links().get(SERIAL) != "offline" and time.monotonic() < end:
            ws.live.pump()
            time.sleep(0.05)
        child_after = rss_mb(child) if child else None
        rows = ws.log.query("SELECT IFNULL(json_extract(body, '$.data.coalesced'), 0) AS c FROM events "
                            "WHERE type = 'meter_reading'")
        links = getattr(ws.runner, "links", {})
        counters = links[SERIAL].session.counters if SERIAL in links else None
    finally:
        ws.close()
    # after the close, which writes the repeats still held (app/workstation/repeats.py)
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        conn.row_factory = sqlite3.Row
        faults = conn.execute("SELECT json_extract(body, '$.data.code') AS code, IFNULL(json_extract(body, "
                              "'$.data.repeats'), 0) AS r FROM events WHERE type = 'device_fault'").fetchall()
        alarms = conn.execute("SELECT json_extract(body, '$.data.kind') AS kind, IFNULL(json_extract(body, "
                              "'$.data.repeats'), 0) AS r FROM events WHERE type = 'alarm_raised'").fetchall()
        log_rows = conn.execute("SELECT COUNT(*) FROM events").fetchone()[0]
    conn.close()
    pumps.sort()
    out = {
        "flood": "ignores the window" if ignore_acks else "keeps to the window",
        "message": message,
        "links": "own process" if process else "this process",
        "seconds": round(elapsed, 1),
        "frames_sent": flood.sent,
        "readings_in_log": sum(1 + r["c"] for r in rows),
        "meter_rows": len(rows),
        "meter_rows_per_s": round(len(rows) / elapsed, 2),
        "cut_off": getattr(counters, "cut_off", None) if counters else None,
        "connections": flood.connections,
        "device_faults": len(faults),
        "dropped_faults": sum(1 for f in faults if f["code"] == "dropped"),
        "alarms": len(alarms),
        "alarms_and_faults_said": sum(1 + r["r"] for r in alarms + faults),   # rows plus their repeats
        "messages_taken": getattr(counters, "delivered", None),   # by the link (its own process: not seen)
        "log_rows": log_rows,
        "log_growth_kb": round((db.stat().st_size - size_before) / 1024),
        "rss_before_mb": round(before), "rss_after_mb": round(rss_mb()), "rss_peak_mb": round(peak),
        "pumps": len(pumps),
        "pump_median_ms": round(statistics.median(pumps) * 1000, 2),
        "pump_p99_ms": round(pumps[int(len(pumps) * 0.99) - 1] * 1000, 2),
        "pump_max_ms": round(pumps[-1] * 1000, 2),
    }
    if child:
        out["links_rss_before_mb"], out["links_rss_after_mb"] = round(child_before), round(child_after)
    if counters is None:
        out.pop("cut_off")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0)
    ap.add_argument("--ignore-acks", action="store_true")
    ap.add_argument("--process", action="store_true", help="the links in a process of their own (the window's way)")
    ap.add_argument("--message", choices=sorted(MESSAGES), default="meter", help="what the controller floods")
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    got = run(a.seconds, a.ignore_acks, a.process, a.message)
    if a.json:
        print(json.dumps(got))
    else:
        for k, v in got.items():
            print(f"{k:>22}: {v}")


if __name__ == "__main__":
    main()
