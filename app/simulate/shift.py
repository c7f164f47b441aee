"""A whole pit shift in simulated time, through the real engine, into the audit store: the driver
that signs its people in, runs its tables side by side in time order and sums up what it logged.

``run_shift(db, tables, rounds, start, seed)`` opens ``tables`` tables and plays ``rounds``
settled rounds at each, logging everything a pit logs: users and sign-ins, table
configuration, every table event (validated by ``app.engine.procedure.apply`` before it is
logged, exactly as ``Floor.record`` does), settlements with their approval requests and meter
readings (``Floor.settle``), approval decisions, payout slips (some with W-2G data, some
voided), irregularities with the supervisor's acknowledgement, deck and dice changes, alarms
and device faults, each row as the application writes it (app/store/rows.py). Timestamps run
from ``start`` at a table's pace (a round every 1.5 to 3 minutes); the run itself never sleeps.
A table's life between rounds is app/simulate/table_day.py; a round, app/simulate/round_play.py.

The tables cycle over the rule profiles (a table changes game when the rounds allow, so even a
few tables see every profile), and each deck brought to a table may be dealt by another of the
profile's deal methods. The simulator prefers what the shift has not shown yet: the first
rounds that can show an irregularity kind, an approval kind, a banking mode, a deal or
position method, a deck or dice change, a slip with W-2G data or a void slip usually do. The
rare hands behind some approvals are planted (app/simulate/random_rounds.py).

Determinism: every choice comes from ``random.Random`` seeded from ``seed``; the tables run as
generators merged in simulated-time order, so the same seed and start give the same event
bodies, the same hash chain and the same summary (but ``elapsed_seconds``). The simulated
users' PIN salts are drawn from the same generator for that reason; every simulated user's
PIN is ``SIM_PIN``.

Writing: the store's services (Floor, Approvals, Slips, Users) are handed the log written behind
(app/store/write_behind.py), which queues appends and commits them in batches, returning the
sequence numbers they will get; a read flushes first. The simulator is the only writer, so
the numbers are exact.
"""

from __future__ import annotations

import heapq
import math
import random
import time
from collections import Counter
from datetime import datetime
from pathlib import Path

from app.rules.resources import names
from app.store.approvals import Approvals
from app.store.floor import Floor
from app.store.log import AuditLog
from app.store.slips import Slips
from app.store.users import Users
from app.store.write_behind import WriteBehind

from .round_play import Table
from .table_day import Coverage, SimulationError, Store

__all__ = ["SIM_PIN", "ShiftError", "SimulationError", "parse_start", "run_shift"]

SIM_PIN = "2468"
START_FORMAT = "%Y-%m-%d %H:%M"


class ShiftError(ValueError):
    """Bad arguments for a shift; the message names the fault."""


def parse_start(text: str) -> datetime:
    for fmt in (START_FORMAT, "%Y-%m-%dT%H:%M"):
        try:
            return datetime.strptime(text.strip(), fmt)
        except ValueError:
            pass
    raise ShiftError(f"--start: expected a time like 2026-11-21 14:00 (YYYY-MM-DD HH:MM), got {text!r}")


class Shift:
    """What the tables of one shift share: its plan, its people, its generator, what it has shown
    (``coverage``) and its counts."""

    def __init__(self, tables: int, rounds: int, start: datetime, seed: int):
        self.n_tables, self.n_rounds, self.start, self.seed = tables, rounds, start, seed
        self.rng = random.Random(seed)
        self.coverage = Coverage()
        self.stats: Counter = Counter()
        self.configured: set[str] = set()
        n_fs = max(1, math.ceil(tables / 4))
        self.floor_supervisors = [f"floor-{k + 1}" for k in range(n_fs)]
        self.pit_manager = "pit-1"

    def sessions(self) -> list[list[tuple[str, int]]]:
        """The profiles each table plays and for how many rounds: the tables cycle over the
        profiles, and a table changes game when there are more profiles than tables."""
        profiles = names("rules")
        out = []
        for i in range(self.n_tables):
            mine = [profiles[j] for j in range(i, len(profiles), self.n_tables)] or [profiles[i % len(profiles)]]
            mine = mine[:self.n_rounds]
            k = len(mine)
            out.append([(p, self.n_rounds // k + (1 if j < self.n_rounds % k else 0)) for j, p in enumerate(mine)])
        return out


def run_shift(db: Path | str, tables: int, rounds: int, start: datetime | None = None, seed: int = 0) -> dict:
    """Simulate the shift into the audit database ``db`` (new or empty); the summary."""
    if not isinstance(tables, int) or tables < 1:
        raise ShiftError(f"--tables: at least one table, got {tables}")
    if not isinstance(rounds, int) or rounds < 1:
        raise ShiftError(f"--rounds: at least one round per table, got {rounds}")
    start = (start or datetime.now()).replace(second=0, microsecond=0)
    began = time.perf_counter()
    shift = Shift(tables, rounds, start, seed)
    with AuditLog(db) as log:
        if log.seq:
            raise ShiftError(f"--db: {db} already holds {log.seq} events; simulate a shift into a new database")
        batch = WriteBehind(log)
        users = Users(batch, salt=random.Random(shift.rng.getrandbits(64)).randbytes)
        users.create_administrator("admin", SIM_PIN, start)
        admin = users.sign_in("admin", SIM_PIN, start)
        staff = [(n, "floor supervisor") for n in shift.floor_supervisors] + [(shift.pit_manager, "pit manager")]
        staff += [(f"dealer-T{i + 1}", "dealer") for i in range(tables)]
        for name, role in staff:
            users.add(admin, name, role, SIM_PIN, start)
        sessions = {name: users.sign_in(name, SIM_PIN, start) for name, _ in staff}
        store = Store(batch, Floor(batch), Approvals(batch), Slips(batch), sessions)
        heap: list = []
        counter = 0
        for i, plan in enumerate(shift.sessions()):
            g = Table(shift, i, plan).run()
            item = next(g)
            heap.append((item.time, i, counter, item, g))
            counter += 1
        heapq.heapify(heap)
        while heap:
            _, i, _, item, g = heapq.heappop(heap)
            result = item.fn(store)
            try:
                nxt = g.send(result)
            except StopIteration:
                continue
            counter += 1
            heapq.heappush(heap, (nxt.time, i, counter, nxt, g))
        batch.flush()
        head = f"{log.seq}:{log.head_hash}"
        events = log.seq
        last = log.last_time()
    st = shift.stats
    kinds = sorted(k[1] for k in shift.coverage.seen if isinstance(k, tuple) and k[0] == "approval")
    irr_kinds = sorted(k[1] for k in shift.coverage.seen if isinstance(k, tuple) and k[0] == "irregularity")
    return {
        "seed": seed, "start": start.isoformat(), "end": last, "db": str(db),
        "tables": tables, "rounds_per_table": rounds, "profiles": sorted(shift.configured),
        "rounds": st["rounds"], "void_rounds": st["void_rounds"], "events": events,
        "settlements": st["settlements"], "approvals_requested": st["approvals_requested"],
        "approvals_decided": st["approvals_decided"], "approval_kinds": kinds,
        "slips": st["slips"], "slips_void": st["slips_void"], "w2g_slips": st["w2g_slips"],
        "irregularities": st["irregularities"], "irregularity_kinds": irr_kinds,
        "decks_received": st["decks_received"], "decks_removed": st["decks_removed"],
        "decks_changed": st["decks_changed"], "dice_placed": st["dice_placed"], "dice_changed": st["dice_changed"],
        "alarms": st["alarms"], "device_faults": st["device_faults"], "meter_readings": st["meter_readings"],
        "users": len(staff) + 1, "head": head,
        "elapsed_seconds": round(time.perf_counter() - began, 3),
    }
