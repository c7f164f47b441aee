"""A whole pit shift in simulated time, played through the workstation's own code into its audit
log: the driver that opens the pit's workstation, adds and signs in its people, runs its tables
side by side in time order and sums up what was logged.

``run_shift(db, tables, rounds, start, seed)`` opens a ``Workstation`` (app/workstation) on ``db``
for a pit of ``tables`` tables, with the shift's simulated clock and no device links, and plays
``rounds`` settled rounds at each. Everything is done as the application does it, by a person
signed in with a PIN at the workstation (app/simulate/staff.py says who): the administrator adds
the pit's people; each table event is recorded through ``decisions.record`` (the procedures
accept it, or the simulator has a bug); each round is entered as a round file, settled and
released with its payout slips at the rounds desk; each approval the rounds need is decided by
the role it needs; each alarm the workstation raises (an irregularity waiting for a supervisor, a
device that faulted) is acknowledged through ``decisions.acknowledge_alarm``; the table devices
(a shuffler's or a shoe's jam, the progressive controller's meter and reset, a link that drops)
speak through the workstation's pump. A row the application would refuse cannot be simulated.

The tables cycle over the rule profiles, each table playing one profile all shift (the
workstation configures a table once). The cards come only from shuffled decks dealt by the
table's method, every hand at its true odds; irregularities come at a fixed rate per round
(``irregularity_rate``, each kind that fits the round alike) and device faults at fixed rates, and
nothing is played toward an outcome, so the hold of a long simulated day converges on the
theoretical (bench/convergence_bench.py). Timestamps run from ``start`` at a table's pace (a
round every 1.5 to 3 minutes); the run itself never sleeps. A table's life between rounds is
app/simulate/table_day.py; a round, app/simulate/round_play.py.

``plant=True`` (``pitdesk simulate shift --plant``), for tests only, plants rare hands now and
then (app/simulate/random_rounds.py ``PLANTS``) so that the approvals and W-2G slips they bring
turn up in a short shift; the log says so in a note at its start and the summary counts them
(``plants``). Such a shift's hold means nothing.

The pit's money (issue 34, app/simulate/tray_play.py): each table's dealer counts its opener with
the floor supervisor's counter-signature, players buy in with cash as they sit down and now and then
again, a tray below its low-water mark asks for a fill and one above its high-water mark sends a
credit (the supervisor at the desk approves; the cage's cashier and security sign; the dealer and
the supervisor sign the delivery), the closer is counted as the tray the rounds expect and the count
room (count-1, count-2) counts the drop box's notes: the win by count is the rounds' win to the cent.
``walk=cents`` (``--walk AMOUNT``, for tests) walks chips of that worth off one table's tray (chosen
by the seed) before its closer: the closer is short by them, and past the threshold the
``tray_difference`` and ``win_difference`` alarms name the table and the amount; the log's note and
the summary (``walked``) say so. The summary's ``money`` gives each table's ``ShiftMoney.as_json()``.

Determinism: every choice comes from ``random.Random`` seeded from ``seed`` (the PIN salts too);
the tables run as generators merged in simulated-time order, so the same seed and start give the
same rows, the same hash chain and the same summary (but ``elapsed_seconds``). Every simulated
user's PIN is ``SIM_PIN``.

Writing: every action of the workstation is one append. The simulation's log commits them
``COMMIT_EVERY`` rows at a time (``AuditLog``'s ``commit_every``, which only the simulator
passes): the rows, the chain and the head file are as any log's, but a crash loses the rows
since the last commit.
"""

from __future__ import annotations

import heapq
import math
import random
import time
from collections import Counter
from datetime import datetime
from pathlib import Path

from app.engine.money import dollars
from app.rules.resources import names, profile
from app.store.log import AuditLog, Logged
from app.workstation.config import DeviceSetup, TableSetup, WorkstationConfig
from app.workstation.equipment import uses
from app.workstation.errors import WorkstationError
from app.workstation.workstation import Workstation

from .round_play import Table
from .staff import Desk, SimClock
from .table_day import SimulationError
from .tray_play import SIM_CHIPS

__all__ = ["SIM_PIN", "ShiftError", "SimulationError", "parse_start", "run_shift"]

SIM_PIN = "2468"
START_FORMAT = "%Y-%m-%d %H:%M"
IRREGULARITY_RATE = 0.03    # a round's chance of an irregularity (each kind that fits the round alike)
SLIP_CENTS = 50_000         # the simulated pit gives a payout slip to every payoff of $500 or more
COMMIT_EVERY = 2000
PREFIX = {"shuffler": "SHF", "shoe": "SHO", "progressive": "PRG", "rng": "RNG"}


class ShiftError(ValueError):
    """Bad arguments for a shift; the message names the fault."""


def parse_start(text: str) -> datetime:
    for fmt in (START_FORMAT, "%Y-%m-%dT%H:%M"):
        try:
            return datetime.strptime(text.strip(), fmt)
        except ValueError:
            pass
    raise ShiftError(f"--start: expected a time like 2026-11-21 14:00 (YYYY-MM-DD HH:MM), got {text!r}")


class Tally:
    """What the log took, counted as the log hands over each row it commits (``AuditLog.listen``)."""

    def __init__(self) -> None:
        self.types: Counter = Counter()
        self.approval_kinds: set[str] = set()
        self.w2g_slips = 0

    def __call__(self, logged: list[Logged]) -> None:
        for r in logged:
            self.types[r.type] += 1
            if r.type == "approval_requested":
                self.approval_kinds.add(r.data["kind"])
            elif r.type == "slip_issued" and r.data.get("w2g"):
                self.w2g_slips += 1


class Shift:
    """What the tables of one shift share: its plan, its people, its generator, its counts and the
    pit's workstation (``desk``)."""

    def __init__(self, tables: int, rounds: int, start: datetime, seed: int, plant: bool, irregularity_rate: float,
                 walk: int | None = None):
        self.n_tables, self.n_rounds, self.start, self.seed = tables, rounds, start, seed
        self.plant, self.irregularity_rate = plant, irregularity_rate
        self.rng = random.Random(seed)
        self.stats: Counter = Counter()
        self.irregularity_kinds: set[str] = set()
        self.floor_supervisors = [f"floor-{k + 1}" for k in range(max(1, math.ceil(tables / 4)))]
        self.pit_manager = "pit-1"
        self.dealers = [f"dealer-T{i + 1}" for i in range(tables)]
        self.cage = ("cage-1", "security-1")            # a fill's or credit's signatures at the cage
        self.count_team = ("count-1", "count-2")        # the drop box's count
        # the table a planted walk takes chips from: drawn from the seed, apart from the rounds' choices
        self.walk = (f"T{random.Random(f'{seed}-walk').randrange(tables) + 1}", walk) if walk else None
        all_profiles = names("rules")
        self.profiles = {f"T{i + 1}": all_profiles[i % len(all_profiles)] for i in range(tables)}
        # each table's devices, by class: those its profile has a use for (app/workstation/equipment.py)
        self.devices = {t: {cls: f"{PREFIX[cls]}-{t}" for cls in uses(profile(p).rules)}
                        for t, p in self.profiles.items()}
        self.desk: Desk | None = None

    def config(self) -> WorkstationConfig:
        """The simulated pit: its tables and their devices (never linked: the simulator speaks
        for them through the inbox), payout slips from $500."""
        return WorkstationConfig(tuple(
            TableSetup(t, p, tuple(DeviceSetup(cls, serial, f"simulated://{serial}")
                                   for cls, serial in self.devices[t].items()))
            for t, p in self.profiles.items()), source="the simulated pit", slip_cents=SLIP_CENTS, chips=SIM_CHIPS)

    def note(self) -> str:
        what = (f"a simulated shift (pitdesk simulate shift, seed {self.seed}, {self.n_tables} tables x "
                f"{self.n_rounds} rounds)")
        walk = (f"; chips of {dollars(self.walk[1])} walked off table {self.walk[0]}'s tray before its closer "
                "(--walk): its difference is planted" if self.walk else "")
        if self.plant:
            return (f"{what} with planted hands (--plant): rare hands are placed on purpose now and then, so its "
                    f"hold means nothing{walk}")
        return f"{what}: every hand dealt from a shuffled deck, nothing planted{walk}"


def run_shift(db: Path | str, tables: int, rounds: int, start: datetime | None = None, seed: int = 0, *,
              plant: bool = False, irregularity_rate: float = IRREGULARITY_RATE, walk: int | None = None) -> dict:
    """Simulate the shift into the audit database ``db`` (new or empty); the summary."""
    if not isinstance(tables, int) or tables < 1:
        raise ShiftError(f"--tables: at least one table, got {tables}")
    if not isinstance(rounds, int) or rounds < 1:
        raise ShiftError(f"--rounds: at least one round per table, got {rounds}")
    if not 0 <= irregularity_rate <= 1:
        raise ShiftError(f"--irregularity-rate: a probability from 0 to 1, got {irregularity_rate:g}")
    if walk is not None and (isinstance(walk, bool) or not isinstance(walk, int) or walk <= 0
                             or walk % SIM_CHIPS.denominations[0]):
        raise ShiftError(f"--walk: an amount of chips, a positive multiple of "
                         f"{dollars(SIM_CHIPS.denominations[0])}, got {walk!r} cents")
    start = (start or datetime.now()).replace(second=0, microsecond=0)
    began = time.perf_counter()
    with AuditLog(db) as log:
        if log.seq:
            raise ShiftError(f"--db: {db} already holds {log.seq} events; simulate a shift into a new database")
    shift = Shift(tables, rounds, start, seed, plant, irregularity_rate, walk)
    clock = SimClock(start)
    salt = random.Random(shift.rng.getrandbits(64)).randbytes
    tally = Tally()
    with Workstation(shift.config(), db, clock=clock, link_process=False, pin_salt=salt,
                     commit_every=COMMIT_EVERY) as ws:
        ws.log.listen(tally)
        staff = [(n, "floor supervisor") for n in shift.floor_supervisors] + [(shift.pit_manager, "pit manager")]
        staff += [(n, "dealer") for n in shift.dealers]
        staff += [(shift.cage[0], "cashier"), (shift.cage[1], "security")]
        staff += [(n, "count team") for n in shift.count_team]
        ws.people.create_administrator("admin", SIM_PIN)
        ws.people.sign_in("admin", SIM_PIN)
        for name, role in staff:
            ws.people.add_user(name, role, SIM_PIN)
        ws.decisions.log_note(shift.note())
        ws.people.sign_out("the pit's people added")
        desk = shift.desk = Desk(ws, clock, SIM_PIN, shift.floor_supervisors, start)
        play(shift, desk)
        desk.end("the end of the shift")
        ws.live.last_words()     # the devices' repeated alarms held (app/workstation/repeats.py), written now
        ws.log.flush()
        money = {t: ws.inventory.money(t)[1].as_json() for t in shift.profiles}
        events, head = ws.log.seq, f"{ws.log.seq}:{ws.log.head_hash}"
        last = ws.log.last_time()
    st, n = shift.stats, tally.types
    return {
        "seed": seed, "start": start.isoformat(), "end": last, "db": str(db),
        "tables": tables, "rounds_per_table": rounds, "profiles": sorted(set(shift.profiles.values())),
        "plants": st["plants"],
        "rounds": n["settlement"], "void_rounds": st["void_rounds"], "events": events,
        "settlements": n["settlement"], "approvals_requested": n["approval_requested"],
        "approvals_decided": n["approval_decided"], "approval_kinds": sorted(tally.approval_kinds),
        "slips": n["slip_issued"], "slips_void": n["slip_voided"], "w2g_slips": tally.w2g_slips,
        "irregularities": st["irregularities"], "irregularity_kinds": sorted(shift.irregularity_kinds),
        "decks_received": st["decks_received"], "decks_removed": st["decks_removed"],
        "decks_changed": st["decks_changed"], "dice_placed": st["dice_placed"], "dice_changed": st["dice_changed"],
        "alarms": n["alarm_raised"], "device_faults": n["device_fault"], "meter_readings": n["meter_reading"],
        "users": len(staff) + 1,
        "money": money, "buy_ins": n["buy_in"], "fills": st["fills"], "credits": st["credits"],
        "walked": {"table": shift.walk[0], "cents": shift.walk[1]} if shift.walk else None, "sign_ins": n["sign_in"], "head": head,
        "elapsed_seconds": round(time.perf_counter() - began, 3),
    }


def play(shift: Shift, desk: Desk) -> None:
    """Every table's day, step by step in simulated-time order across the tables."""
    heap: list = []
    counter = 0
    for i, (table, name) in enumerate(shift.profiles.items()):
        g = Table(shift, i, name, shift.n_rounds).run()
        item = next(g)
        heap.append((item.time, i, counter, item, g))
        counter += 1
    heapq.heapify(heap)
    while heap:
        _, i, _, item, g = heapq.heappop(heap)
        desk.clock.t = item.time
        try:
            result = item.fn(desk)
        except WorkstationError as e:
            raise SimulationError(f"table T{i + 1} ({shift.profiles[f'T{i + 1}']}) at {item.time.isoformat()}: "
                                  f"{type(e).__name__}: {e}") from e
        try:
            nxt = g.send(result)
        except StopIteration:
            continue
        counter += 1
        heapq.heappush(heap, (nxt.time, i, counter, nxt, g))
