"""The demo floor: seven tables of simulated devices over loopback TCP, and eight demo people.

``open_demo(db)`` serves a simulated device (app/simulate/sim_device.py) for every device of the
demo tables, each on its own loopback TCP port with occasional faults, builds the configuration
with their URLs, opens the ``Workstation`` on ``db`` (a second run continues the same log), adds
the demo people on a new database, opens the tables as a dealer and a floor supervisor would
(app/simulate/opening.py) and starts the links. ``close()`` on the workstation stops the
simulators too. A kept log whose tables played other profiles is carried over first
(``carry_over``). The tables' money (issue 34) is played by their dealers
(app/simulate/demo_money.py): trays opened and closed with the configured shifts, buy-ins, fills
and credits that wait for the supervisor's approval, the count room's drops. A kept log from
before the cage, security and the count room gets those people added (``add_demo_users``).

| table | profile | devices | why |
|---|---|---|---|
| T1, T5 | section6-even (000, the base wager paid 1 to 1) | shuffler, shoe, progressive, rng | 000(j) automated shoe, (q) progressive, (k)(3) RNG; 000(l)(9) read 1 to 1 (docs/rule-settings.md e.) |
| T2, T6 | nj (001) | shuffler, shoe, progressive, rng | 001 11.8B, 11.14, 11.8C |
| T3 | casino (003) | shuffler, shoe, rng | 003 offers no progressive wager |
| T4 | face-up-ca (002) | shuffler, shoe (seats 1-7), rng | 002: seven seated hands; the RNG for the action button |
| T7 | sd (004) | none | 004(2), (4): seven stacks dealt by hand, two dice |
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from app.devices.session import Policy
from app.engine.procedure import IN_ROUND, Event, apply
from app.engine.roles import ADMINISTRATOR, DEALER, FLOOR_SUPERVISOR, SYSTEM
from app.rules.resources import profile
from app.store import meters, rows
from app.store.floor import Floor
from app.store.holder import Holder, InUse
from app.store.log import AuditLog, StoreError

from app.workstation.config import DeviceSetup, TableSetup, WorkstationConfig
from .opening import DEMO_DEALER, DEMO_FLOOR, opening_events
from .tray_play import SIM_CHIPS
from .regulars import Regulars
from .table_play import Conductor, Dealer, Pace, sign_in_stations
from app.workstation.errors import WorkstationError
from app.workstation.runner import stop_together
from app.workstation.workstation import Workstation


@dataclass(frozen=True)
class DemoUser:
    name: str
    role: str
    pin: str


# fixed so that the README can give them (PINs are 4 to 32 digits, docs/audit.md)
DEMO_USERS = (
    DemoUser("demo-admin", "administrator", "1111"),
    DemoUser(DEMO_FLOOR, "floor supervisor", "2222"),
    DemoUser("demo-pit", "pit manager", "3333"),
    DemoUser(DEMO_DEALER, "dealer", "4444"),
    # the cage, security and the count room: fills, credits and drops (issue 34, docs/inventory.md)
    DemoUser("demo-cashier", "cashier", "5555"),
    DemoUser("demo-security", "security", "6666"),
    DemoUser("demo-count-1", "count team", "7777"),
    DemoUser("demo-count-2", "count team", "8888"),
)

# table, profile, (row, col), device classes; the serial of each device is its class prefix and
# the table (SHF-T1). T1 and T5 play 000 with the base wager paid 1 to 1, section6-even
# (docs/rule-settings.md e.): as written, 000(l)(9)'s "2 to 1" has a house-banked table lose about a
# quarter of its base wagers (a theoretical hold near -24%), which on a demo floor reads as a bug.
# They played section6 until issue 25; ``carry_over`` changes them in a kept log.
DEMO_TABLES = (
    ("T1", "section6-even", (1, 1), ("shuffler", "shoe", "progressive", "rng")),
    ("T2", "nj", (1, 2), ("shuffler", "shoe", "progressive", "rng")),
    ("T3", "casino", (1, 3), ("shuffler", "shoe", "rng")),
    ("T4", "face-up-ca", (1, 4), ("shuffler", "shoe", "rng")),
    ("T5", "section6-even", (2, 1), ("shuffler", "shoe", "progressive", "rng")),
    ("T6", "nj", (2, 2), ("shuffler", "shoe", "progressive", "rng")),
    ("T7", "sd", (2, 4), ()),
)
PREFIX = {"shuffler": "SHF", "shoe": "SHO", "progressive": "PRG", "rng": "RNG"}
# how the demo floor plays (app/simulate/table_play.py): 30 rounds an hour at each table, a few
# device faults per table per eight-hour shift; ``pitdesk gui --demo --busy`` for a storm of them
DEMO_PACE = Pace(rounds_per_hour=30.0, faults_per_shift=3.0)
# the faults a round may bring when the devices play by themselves (docs/devices.md, "Faults");
# slow is left out, it only slows the line
DEMO_FAULTS = ("jam", "miscount", "garbage", "bad-crc", "drop", "silence")
DEMO_FAULT_RATE = 0.02


def serial(cls: str, table: str) -> str:
    return f"{PREFIX[cls]}-{table}"


class DemoDevices:
    """The simulated devices of the demo tables, each served on a loopback TCP port. ``driven``:
    they say only what the tables' play makes them say (app/simulate/table_play.py), and their
    faults come from it; otherwise each plays rounds of its own with ``fault_rate`` (the devices'
    tests)."""

    def __init__(self, tables=DEMO_TABLES, *, faults: tuple[str, ...] = DEMO_FAULTS,
                 fault_rate: float = DEMO_FAULT_RATE, pace: float = 1.0, seed: int | None = None,
                 driven: bool = False, meters: dict[str, int] | None = None):
        from app.simulate.device_kinds import applies
        from app.simulate.sim_device import SimDevice
        self.tables = tables
        self.devices: dict[str, SimDevice] = {}
        n = 0
        for table, game, _, classes in tables:
            for cls in classes:
                # 002: the shoe deals seven stacks to seats 1-7, no house hand (app/engine/layout.py)
                tuning = {"positions": tuple(range(1, 8))} if cls == "shoe" and game == "face-up-ca" else {}
                if cls == "progressive" and (meters or {}).get(table) is not None:
                    tuning = {"meter": meters[table]}     # where the kept log left it
                self.devices[serial(cls, table)] = SimDevice(
                    cls, serial(cls, table), faults=tuple(f for f in faults if applies(f, cls)),
                    seed=None if seed is None else seed * 1000 + n, pace=pace,
                    fault_rate=0.0 if driven else fault_rate, driven=driven, **tuning)
                n += 1
        self.served: dict = {}

    def start(self) -> dict[str, str]:
        """Serve every device; serial -> its URL (socket://127.0.0.1:PORT)."""
        try:
            for s, dev in self.devices.items():
                self.served[s] = dev.serve_tcp("127.0.0.1", 0)
        except BaseException:
            self.stop()
            raise
        return {s: h.url for s, h in self.served.items()}

    def inject(self, serial_: str, fault: str) -> None:
        self.served[serial_].inject(fault)

    def stop(self) -> None:
        stop_together([h.stop for h in self.served.values()])


def demo_config(urls: dict[str, str], tables=DEMO_TABLES) -> WorkstationConfig:
    """The demo's tables and devices; its chips are the casino's with the coins a commission's
    change needs (app/simulate/tray_play.py ``SIM_CHIPS``), so a closer is counted to the cent."""
    return WorkstationConfig(tuple(
        TableSetup(table, profile, tuple(DeviceSetup(cls, serial(cls, table), urls[serial(cls, table)])
                                         for cls in classes), row, col)
        for table, profile, (row, col), classes in tables), source="the demo floor", chips=SIM_CHIPS)


def add_demo_users(ws: Workstation) -> None:
    """On a new database: the demo administrator first, who adds the others. On a kept log from
    before some of them (the cage, security and the count room came with issue 34): the demo
    administrator adds those missing, as the window would; if their PIN was changed, nobody is
    added (the dealers then say they could not sign in the cage)."""
    admin, *others = DEMO_USERS
    if not ws.people.needs_first_administrator():
        have = {u.name for u in ws.people.users()}
        missing = [u for u in others if u.name not in have]
        if not missing:
            return
        try:
            ws.people.sign_in(admin.name, admin.pin)
        except WorkstationError:
            return
        try:
            for u in missing:
                ws.people.add_user(u.name, u.role, u.pin)
        finally:
            ws.people.sign_out()
        return
    ws.people.create_administrator(admin.name, admin.pin)
    ws.people.sign_in(admin.name, admin.pin)
    for u in others:
        ws.people.add_user(u.name, u.role, u.pin)
    ws.people.sign_out()


def open_demo_tables(ws: Workstation) -> None:
    """Every closed table with no cards yet is opened (000(e)) by the demo dealer and floor
    supervisor, in one append for the floor; a hand game with one deck."""
    records = []
    for t in ws.config.tables:
        state, rules = ws.floor.state(t.id), profile(t.profile).rules
        if state.state != "closed" or state.decks:
            continue
        decks = ("red", "blue") if any(d.cls == "shuffler" for d in t.devices) else ("red",)
        for event in opening_events(ws.clock, DEMO_DEALER, DEMO_FLOOR, decks):
            state = apply(state, event, rules)   # the procedures check each one, as Floor.record does
            records.append(rows.procedure_event(t.id, event))
    if records:
        ws.log.append_many(records)


def carry_over(db: Path | str, tables=DEMO_TABLES, clock: Callable[[], datetime] = datetime.now) -> tuple:
    """The demo's tables as they may be configured on ``db``, after carrying a kept log over to them.

    The workstation refuses a table whose profile differs from the log's (app/workstation/pit.py).
    Such a table is changed as a pit changes a table's game, in one append, each event through the
    procedures: the demo floor supervisor closes it (``table_closed``), the demo dealer removes its
    decks (``deck_removed``), and it is configured again with the profile the demo's configuration
    gives, as the workstation configures a table from its configuration (``table_configured`` by
    the system, as administrator). The demo then opens it as it opens any closed table. A table in
    the middle of a round cannot be closed: it keeps its logged profile for this run, and is
    carried over on a later one."""
    path = Path(db)
    if not path.exists():
        return tables
    # nothing is written before the log is held and has passed its check (issue 35, finding 6): a
    # log another window holds, or one that fails its check, is left as it is, and the
    # workstation's own opening names why
    try:
        holder = Holder(path)
    except (InUse, OSError):
        return tables
    try:
        return _carried(path, tables, clock)
    finally:
        holder.release()


def _carried(path: Path, tables, clock: Callable[[], datetime]) -> tuple:
    try:
        log = AuditLog(path)
    except (StoreError, OSError, KeyError):
        return tables   # the workstation's own opening names the fault
    try:
        if log.check().finding is not None:
            return tables
        floor = Floor(log)
        logged = floor.tables()
        records, kept = [], {}
        last = log.last_time()   # nothing is stamped before the log's last row
        now = max(clock(), datetime.fromisoformat(last)) if last else clock()
        for table, name, _, _ in tables:
            if logged.get(table, name) == name:
                continue
            state, rules = floor.state(table), profile(logged[table]).rules
            if state.state in IN_ROUND:
                kept[table] = logged[table]
                continue
            events = [Event("table_closed", now, DEMO_FLOOR, FLOOR_SUPERVISOR, {})] if state.state != "closed" else []
            events += [Event("deck_removed", now, DEMO_DEALER, DEALER, {"deck": d}) for d in state.decks]
            for event in events:
                state = apply(state, event, rules)   # the procedures check each one, as Floor.record does
                records.append(rows.procedure_event(table, event))
            records.append(rows.table_configured(now, SYSTEM, ADMINISTRATOR, table, name))
        if records:
            log.append_many(records)
    finally:
        log.close()
    return tuple((t, kept.get(t, name), pos, classes) for t, name, pos, classes in tables)


def kept_meters(db: Path | str) -> dict[str, int]:
    """Each table's progressive meter as a kept log last says it: the demo's controllers start
    there, as a real controller keeps its meter across the workstation's restarts (000(q)(5))."""
    path = Path(db)
    if not path.exists():
        return {}
    try:
        log = AuditLog(path)
    except (StoreError, OSError, KeyError):
        return {}
    try:
        return meters.latest(log)
    finally:
        log.close()


def open_demo(db: Path | str, *, clock: Callable[[], datetime] = datetime.now, tables=DEMO_TABLES,
              faults: tuple[str, ...] = DEMO_FAULTS, fault_rate: float = DEMO_FAULT_RATE, pace: float = 1.0,
              seed: int | None = None, policy: Policy | None = None,
              play: Pace | None = None, deal: bool = True) -> tuple[Workstation, DemoDevices]:
    """The demo workstation on ``db``, its links started, and its simulated devices (to inject
    faults). ``play``: the tables play by themselves at that pace, their dealers at the tables'
    stations (app/simulate/table_play.py; ``pitdesk gui --demo``); without it the devices play
    rounds of their own and nobody deals. ``deal`` False: the dealers are the caller's to start
    (``start_dealers``: ``pitdesk gui --demo`` starts them once the floor is painted).
    ``workstation.close()`` stops the dealers and the devices too."""
    tables = carry_over(db, tables, clock)
    devices = DemoDevices(tables, faults=faults, fault_rate=fault_rate, pace=pace, seed=seed,
                          driven=play is not None, meters=kept_meters(db))
    urls = devices.start()
    try:
        ws = Workstation(demo_config(urls, tables), db, clock=clock, policy=policy, install_serial="pitdesk-demo",
                         on_close=[devices.stop])
    except BaseException:
        devices.stop()
        raise
    try:
        add_demo_users(ws)
        open_demo_tables(ws)
        ws.start()
        if play is not None and deal:
            start_dealers(ws, devices, play, seed)
    except BaseException:
        ws.close()
        raise
    return ws, devices


def start_dealers(ws: Workstation, devices: DemoDevices, pace: Pace, seed: int | None = None) -> Conductor:
    """A dealer at every demo table, playing at ``pace``; stopped first when the workstation
    closes. The conductor's thread first signs the demo dealer and floor supervisor in, once
    each, at every table's station (``sign_in_stations``): this returns at once, the PINs'
    hashes are not the caller's to wait for (``pitdesk gui --demo`` calls it once the floor is
    painted)."""
    rng = random.Random(seed)
    pins = {u.name: u.pin for u in DEMO_USERS}
    dealers = []
    regulars = Regulars(random.Random(rng.getrandbits(64)))     # they come and go between the tables
    for table, _, _, classes in devices.tables:
        served = {cls: devices.served[serial(cls, table)] for cls in classes}
        dealers.append(Dealer(ws, table, served, pace, random.Random(rng.getrandbits(64)), regulars=regulars))
    conductor = Conductor(dealers, first=lambda: sign_in_stations(ws, dealers, pins))
    ws.first_at_close(conductor.stop)
    return conductor.start()
