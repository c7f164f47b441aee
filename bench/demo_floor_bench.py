"""Benchmark: the demo floor playing by itself (issue 25). Measured, never asserted in a test.

``open_demo(play=Pace(...))`` (app/simulate/demo.py, app/simulate/table_play.py) on a new
temporary database, the workstation pumped every 100 ms as the window pumps it, for
``--seconds``; then, from the log, per table: the rounds settled, the shuffler's reads and
shuffles, the device faults and alarms, the approval requests; each per hour of the run and per
round. At ``--rounds-per-hour`` 30 (the demo's pace) the per-hour figures are what a supervisor
sees; at a higher pace the per-round figures are the same and the run is shorter. ``--busy`` is
the storm. The fills and credits asked for and the buy-ins (issue 34) are counted too: a slip
waits for a person's approval, so a run nobody approves asks once a table until it is approved.

    .venv/bin/python bench/demo_floor_bench.py [--rounds-per-hour 30] [--seconds 600] [--busy] [--seed 1]

It prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

COUNTS = {
    "settlements": "type = 'settlement'",
    "hand_reads": "type = 'hand_read'",
    "shuffles": "type = 'shuffle_started'",
    "device_faults": "type = 'device_fault'",
    "alarms": "type = 'alarm_raised'",
    "approval_requests": "type = 'approval_requested'",
    # the pit's money (issue 34, app/simulate/demo_money.py): fills and credits asked for, buy-ins
    "tray_slips_requested": "type = 'tray_slip_requested'",
    "buy_ins": "type = 'buy_in'",
}


def run(rounds_per_hour: float, seconds: float, busy: bool, seed: int) -> dict:
    from app.simulate.demo import open_demo
    from app.simulate.table_play import Pace
    home = tempfile.mkdtemp(prefix="pitdesk-bench-")
    os.environ["PITDESK_HOME"] = home
    ws, _ = open_demo(Path(home) / "demo.db", play=Pace(rounds_per_hour=rounds_per_hour, busy=busy), seed=seed)
    t0 = time.monotonic()
    pumps = []
    try:
        while time.monotonic() - t0 < seconds:
            a = time.perf_counter()
            ws.live.pump()
            pumps.append(time.perf_counter() - a)
            time.sleep(0.1)
        elapsed = time.monotonic() - t0
        tables = {}
        for t in ws.config.tables:
            c = {k: ws.log.query(f"SELECT count(*) AS n FROM events WHERE table_id = ? AND {w}", (t.id,))[0]["n"]
                 for k, w in COUNTS.items()}
            rounds = c["settlements"] or 1
            tables[t.id] = {"per_hour": {k: round(v * 3600 / elapsed, 1) for k, v in c.items()},
                            "per_round": {k: round(v / rounds, 3) for k, v in c.items() if k != "settlements"},
                            "counts": c}
        first = ws.log.query("SELECT min(time) AS t FROM events WHERE type = 'settlement'")[0]["t"]
        opened = ws.log.query("SELECT min(time) AS t FROM events WHERE type = 'sign_in'")[0]["t"]
    finally:
        ws.close()
    from datetime import datetime
    pumps.sort()
    return {"rounds_per_hour_set": rounds_per_hour, "busy": busy, "seconds": round(elapsed, 1), "seed": seed,
            "first_settlement_s": round((datetime.fromisoformat(first) - datetime.fromisoformat(opened))
                                        .total_seconds(), 1) if first else None,
            "pump_ms": {"p50": round(pumps[len(pumps) // 2] * 1000, 2),
                        "p99": round(pumps[int(len(pumps) * 0.99)] * 1000, 2)},
            "tables": tables}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds-per-hour", type=float, default=30.0)
    p.add_argument("--seconds", type=float, default=600.0)
    p.add_argument("--busy", action="store_true")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    print(json.dumps(run(a.rounds_per_hour, a.seconds, a.busy, a.seed), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
