"""The workstation's configuration file (TOML, read with tomllib): docs/workstation-config.md.

``load(path)`` gives a ``WorkstationConfig`` or raises ``ConfigError`` naming the file, the line
and the key: ``config.toml line 14: tables[2].profile: unknown rule profile 'vegas' (one of
casino, face-up-ca, nj, sd, section6)``. Everything is checked before anything is opened: a
window never starts on half a configuration.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from datetime import time, timedelta
from pathlib import Path
from typing import Any

from app.engine.chips import ChipError, ChipSet
from app.engine.names import name_fault
from app.store.limited import CONFIG_BYTES, TooLarge, read_bytes

from . import equipment
from .errors import ConfigError
from .locate import Lines, show
from .shifts import DEFAULT as DEFAULT_SHIFTS
from .shifts import ShiftError, ShiftPlan

IDLE_DEFAULT = timedelta(minutes=5)   # sign out after five idle minutes unless configured

_TOP = {"workstation", "tables", "shifts", "shipping", "chips"}
_SHIFT = {"name", "start"}
_HHMM = re.compile(r"^([01][0-9]|2[0-3]):([0-5][0-9])$")
_WORKSTATION = {"database", "idle_minutes", "slip_cents"}
_TABLE = {"id", "profile", "row", "col", "limits", "devices"}
_DEVICE = {"class", "serial", "url"}
_SHIPPING = {"to", "every_seconds", "alarm_lag_events", "alarm_lag_seconds"}
_CHIPS = {"denominations", "currency", "difference_alarm_cents"}
# a believable set: $1, $5, $25, $100, $500, $1,000 (docs/workstation-config.md, "[chips]")
DEFAULT_CHIPS = ChipSet((100, 500, 2500, 10000, 50000, 100000))
# the drop box holds cash: $1, $5, $10, $20, $50, $100 notes (the count room counts them by value)
DEFAULT_CURRENCY = ChipSet((100, 500, 1000, 2000, 5000, 10000))
DIFFERENCE_ALARM_DEFAULT = 2500   # a tray or a win off by more than $25 is an alarm (docs/inventory.md)
SHIP_EVERY_DEFAULT = 5.0         # seconds between the background shipper's runs
SHIP_ALARM_SECONDS_DEFAULT = 600.0   # the lag alarm when neither alarm_lag_* is given


@dataclass(frozen=True)
class DeviceSetup:
    cls: str        # shuffler, shoe, progressive or rng
    serial: str     # what the device says in its hello; maps it to its table
    url: str        # what serial.serial_for_url opens: /dev/ttyUSB0, COM3, socket://host:port, rfc2217://...


@dataclass(frozen=True)
class TableSetup:
    id: str
    profile: str
    devices: tuple[DeviceSetup, ...] = ()
    row: int | None = None    # where the table stands in the pit, counted from 1; None: placed on a grid
    col: int | None = None
    # per-wager limit overrides in cents (docs/round-format.md, "Table limits"), checked against the
    # profile when read; the rounds entered at the table are held to them (app/workstation/round_draft.py)
    limits: dict[str, Any] = field(default_factory=dict, compare=False)

    def device_classes(self) -> dict[str, str]:
        """serial -> class, as app/workstation/pit.py TableConfig takes it."""
        return {d.serial: d.cls for d in self.devices}


@dataclass(frozen=True)
class ShippingSetup:
    """``[shipping]``: the casino's server the workstation ships its log to in the background
    (docs/casino.md, app/workstation/shipper.py), how often, and the lag that raises an alarm."""
    to: str                                  # postgresql://USER@HOST/DB, a login of pitdesk_ship
    every_seconds: float = SHIP_EVERY_DEFAULT
    alarm_lag_events: int | None = None      # rows the server lacks past which the alarm is raised
    alarm_lag_seconds: float | None = None   # age of the oldest row the server lacks, the same


@dataclass(frozen=True)
class WorkstationConfig:
    tables: tuple[TableSetup, ...]
    idle: timedelta = IDLE_DEFAULT
    database: Path | None = None   # None: the user data folder's pitdesk.db (app/store/paths.py)
    source: str = "<config>"       # the file it came from, for messages
    # a payoff of this many cents or more gets a payout slip, beside those the rules ask for
    # (docs/workstation.md, "Rounds"); None: only those
    slip_cents: int | None = None
    # the pit's shifts (``[[shifts]]``; default grave, day, swing: app/workstation/shifts.py)
    shifts: ShiftPlan = DEFAULT_SHIFTS
    # ``[shipping]``: the log shipped in the background to the casino's server; None: not shipped
    shipping: ShippingSetup | None = None
    # ``[chips]``: the casino's chip values, and the difference of a count past which it is an alarm
    chips: ChipSet = DEFAULT_CHIPS
    difference_alarm_cents: int = DIFFERENCE_ALARM_DEFAULT
    # ``[chips] currency``: the notes a drop box holds, by value (the count room's count)
    currency: ChipSet = DEFAULT_CURRENCY

    def table(self, table_id: str) -> TableSetup:
        for t in self.tables:
            if t.id == table_id:
                return t
        raise KeyError(table_id)

    def positions(self) -> dict[str, tuple[int, int]]:
        """Every table's (row, col) in the pit, counted from 1: as configured, and the tables
        without a position on a grid in the free cells after them, row by row, as many columns as
        the widest row (at least four)."""
        placed = {t.id: (t.row, t.col) for t in self.tables if t.row is not None and t.col is not None}
        cols = max([4] + [c for _, c in placed.values()])
        taken = set(placed.values())
        cell = 0
        for t in self.tables:
            if t.id in placed:
                continue
            while (cell // cols + 1, cell % cols + 1) in taken:
                cell += 1
            placed[t.id] = (cell // cols + 1, cell % cols + 1)
            taken.add(placed[t.id])
        return placed


def load(path: Path | str) -> WorkstationConfig:
    path = Path(path)
    try:
        text = read_bytes(path, CONFIG_BYTES, "a configuration").decode("utf-8")
    except TooLarge as e:
        raise ConfigError(str(e)) from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read the configuration: {e.strerror or e}") from None
    except UnicodeDecodeError as e:
        raise ConfigError(f"{path}: the configuration is not UTF-8 text ({e.reason} at byte {e.start})") from None
    if "\x00" in text:
        raise ConfigError(f"{path}: the configuration is binary, not text (a NUL byte at {text.index(chr(0))})")
    return parse(text, str(path), base=path.parent)


def parse(text: str, name: str = "<config>", base: Path | None = None) -> WorkstationConfig:
    """The configuration in ``text``; ``name`` is the file named in messages, ``base`` the folder a
    relative database path is taken from."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        what = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(e)) or "not TOML"
        where = f" line {m.group(1)}" if m else ""
        raise ConfigError(f"{name}{where}: invalid TOML: {what}" + (f" (column {m.group(2)})" if m else "")) \
            from None
    return _Checker(doc, Lines(text), name, base).config()


class _Checker:
    def __init__(self, doc: dict, lines: Lines, name: str, base: Path | None):
        self.doc, self.lines, self.name, self.base = doc, lines, name, base

    def bad(self, path: tuple, problem: str) -> ConfigError:
        n = self.lines.line(path)
        where = f"{self.name} line {n}" if n else self.name
        return ConfigError(f"{where}: {show(path)}: {problem}" if path else f"{where}: {problem}")

    def keys(self, value: dict, path: tuple, known: set[str], required: tuple[str, ...] = ()) -> None:
        for k in value:
            if k not in known:
                raise self.bad(path + (k,), f"unknown key (known here: {', '.join(sorted(known))})")
        for k in required:
            if k not in value:
                raise self.bad(path, f"missing key {k!r}")

    def text(self, value: Any, path: tuple) -> str:
        if not isinstance(value, str) or not value.strip() or value != value.strip():
            raise self.bad(path, f"expected non-empty text without leading or trailing spaces, got {value!r}")
        return value

    def table_of(self, value: Any, path: tuple) -> dict:
        if not isinstance(value, dict):
            raise self.bad(path, f"expected a table, got {value!r}")
        return value

    def config(self) -> WorkstationConfig:
        self.keys(self.doc, (), _TOP, ("tables",))
        ws = self.table_of(self.doc.get("workstation", {}), ("workstation",))
        self.keys(ws, ("workstation",), _WORKSTATION)
        idle = IDLE_DEFAULT
        if "idle_minutes" in ws:
            v = ws["idle_minutes"]
            if isinstance(v, bool) or not isinstance(v, int | float) or not 0 < v <= 24 * 60:
                raise self.bad(("workstation", "idle_minutes"), f"minutes from 0 to 1440 (more than 0), got {v!r}")
            idle = timedelta(minutes=v)
        slip_cents = None
        if "slip_cents" in ws:
            v = ws["slip_cents"]
            if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
                raise self.bad(("workstation", "slip_cents"), f"a positive whole number of cents, got {v!r}")
            slip_cents = v
        database = None
        if "database" in ws:
            database = Path(self.text(ws["database"], ("workstation", "database"))).expanduser()
            if not database.is_absolute() and self.base is not None:
                database = self.base / database
        tables = self.doc["tables"]
        if not isinstance(tables, list) or not tables or not all(isinstance(t, dict) for t in tables):
            raise self.bad(("tables",), "expected one [[tables]] section per table, at least one")
        out = tuple(self.table(t, ("tables", i)) for i, t in enumerate(tables))
        self.unique(out)
        chips, alarm, currency = self.chips()
        return WorkstationConfig(out, idle, database, self.name, slip_cents, self.shifts(), self.shipping(), chips,
                                 alarm, currency)

    def chips(self) -> tuple[ChipSet, int, ChipSet]:
        if "chips" not in self.doc:
            return DEFAULT_CHIPS, DIFFERENCE_ALARM_DEFAULT, DEFAULT_CURRENCY
        path = ("chips",)
        c = self.table_of(self.doc["chips"], path)
        self.keys(c, path, _CHIPS, ("denominations",))
        values = c["denominations"]
        if not isinstance(values, list):
            raise self.bad(path + ("denominations",), f"a list of chip values in cents, smallest first, got {values!r}")
        try:
            chips = ChipSet(tuple(values))
        except ChipError as e:
            raise self.bad(path + ("denominations",), str(e)) from None
        currency = DEFAULT_CURRENCY
        if "currency" in c:
            notes = c["currency"]
            if not isinstance(notes, list):
                raise self.bad(path + ("currency",), f"a list of note values in cents, smallest first, got {notes!r}")
            try:
                currency = ChipSet(tuple(notes))
            except ChipError as e:
                raise self.bad(path + ("currency",), str(e).replace("chip", "note")) from None
        alarm = c.get("difference_alarm_cents", DIFFERENCE_ALARM_DEFAULT)
        if isinstance(alarm, bool) or not isinstance(alarm, int) or not 0 <= alarm <= 10_000_000:
            raise self.bad(path + ("difference_alarm_cents",), f"whole cents from 0 to 10000000, got {alarm!r}")
        return chips, alarm, currency

    def shipping(self) -> ShippingSetup | None:
        if "shipping" not in self.doc:
            return None
        path = ("shipping",)
        s = self.table_of(self.doc["shipping"], path)
        self.keys(s, path, _SHIPPING, ("to",))
        to = self.text(s["to"], path + ("to",))
        from app.store.pg.server import BadUrl, check_url   # psycopg, only when shipping is configured
        try:
            check_url(to, "to")
        except BadUrl as e:
            raise self.bad(path + ("to",), str(e).removeprefix("to ")) from None
        every = self.number(s, path, "every_seconds", SHIP_EVERY_DEFAULT, 3600)
        events = s.get("alarm_lag_events")
        if events is not None and (isinstance(events, bool) or not isinstance(events, int) or events <= 0):
            raise self.bad(path + ("alarm_lag_events",), f"a positive whole number of rows, got {events!r}")
        seconds = self.number(s, path, "alarm_lag_seconds", None, 7 * 24 * 3600)
        if events is None and seconds is None:
            seconds = SHIP_ALARM_SECONDS_DEFAULT
        return ShippingSetup(to, every, events, seconds)

    def number(self, s: dict, path: tuple, key: str, default: float | None, most: float) -> float | None:
        if key not in s:
            return default
        v = s[key]
        if isinstance(v, bool) or not isinstance(v, int | float) or not 0 < v <= most:
            raise self.bad(path + (key,), f"seconds more than 0 and at most {most:g}, got {v!r}")
        return float(v)

    def shifts(self) -> ShiftPlan:
        if "shifts" not in self.doc:
            return DEFAULT_SHIFTS
        shifts = self.doc["shifts"]
        if not isinstance(shifts, list) or not shifts or not all(isinstance(s, dict) for s in shifts):
            raise self.bad(("shifts",), "expected one [[shifts]] section per shift, at least one")
        starts = []
        for i, s in enumerate(shifts):
            path = ("shifts", i)
            self.keys(s, path, _SHIFT, ("name", "start"))
            name = self.text(s["name"], path + ("name",))
            start = s["start"]
            m = _HHMM.match(start) if isinstance(start, str) else None
            if m is None:
                raise self.bad(path + ("start",), f"a time of day as \"HH:MM\" (00:00 to 23:59), got {start!r}")
            starts.append((name, time(int(m.group(1)), int(m.group(2)))))
        try:
            return ShiftPlan(tuple(starts))
        except ShiftError as e:
            raise self.bad(("shifts",), str(e)) from None

    def table(self, t: dict, path: tuple) -> TableSetup:
        from app.rules.resources import ResourceError, names, profile
        self.keys(t, path, _TABLE, ("id", "profile"))
        table_id = self.text(t["id"], path + ("id",))
        fault = name_fault(table_id)
        if fault:
            raise self.bad(path + ("id",), f"the table id {fault}")
        name = self.text(t["profile"], path + ("profile",))
        try:
            rules = profile(name).rules
        except ResourceError:
            raise self.bad(path + ("profile",), f"unknown rule profile {name!r} (one of "
                                                f"{', '.join(names('rules'))})") from None
        row, col = t.get("row"), t.get("col")
        for k, v in (("row", row), ("col", col)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 99):
                raise self.bad(path + (k,), f"a whole number from 1 to 99, got {v!r}")
        if (row is None) != (col is None):
            raise self.bad(path + ("row" if row is None else "col",),
                           "give both row and col, or neither (the table is then placed on a grid)")
        limits = self.table_of(t.get("limits", {}), path + ("limits",))
        for wager, bounds in limits.items():
            self.table_of(bounds, path + ("limits", wager))
        if limits:
            # checked against the profile now (a wager it offers, a fixed bound only tightened,
            # 000(s)(3)'s floor), so a bad limit stops the start, not the first round
            from app.engine.tablelimits import TableLimitsError
            try:
                rules.limits_for_table(limits)
            except TableLimitsError as e:
                text = str(e)
                bad = next((path + ("limits", w) for w in limits
                            if text.startswith((f"{w}.", f"{w}:")) or f"{w!r}" in text), path + ("limits",))
                raise self.bad(bad, str(e)) from None
        devices = t.get("devices", [])
        if not isinstance(devices, list) or not all(isinstance(d, dict) for d in devices):
            raise self.bad(path + ("devices",), "expected one [[tables.devices]] section per device")
        use = equipment.uses(rules)
        out = []
        for j, d in enumerate(devices):
            dpath = path + ("devices", j)
            self.keys(d, dpath, _DEVICE, ("class", "serial", "url"))
            cls = d["class"]
            if cls not in equipment.CLASSES:
                raise self.bad(dpath + ("class",), f"unknown device class {cls!r} (one of "
                                                   f"{', '.join(equipment.CLASSES)})")
            if cls not in use:
                raise self.bad(dpath + ("class",), f"profile {name!r} has no use for a {cls}: "
                                                   f"{equipment.why_not(rules, cls)}")
            out.append(DeviceSetup(cls, self.text(d["serial"], dpath + ("serial",)),
                                   self.text(d["url"], dpath + ("url",))))
        return TableSetup(table_id, name, tuple(out), row, col, dict(limits))

    def unique(self, tables: tuple[TableSetup, ...]) -> None:
        seen: dict[Any, tuple] = {}
        for i, t in enumerate(tables):
            for key, path, what in ([(("id", t.id), ("tables", i, "id"), f"table {t.id!r}")]
                                    + ([(("pos", t.row, t.col), ("tables", i, "row"),
                                         f"row {t.row}, col {t.col}")] if t.row is not None else [])
                                    + [(("serial", d.serial), ("tables", i, "devices", j, "serial"),
                                        f"serial {d.serial!r}") for j, d in enumerate(t.devices)]
                                    + [(("url", d.url), ("tables", i, "devices", j, "url"), f"port {d.url!r}")
                                       for j, d in enumerate(t.devices)]):
                if key in seen:
                    raise self.bad(path, f"{what} is also at {show(seen[key])}")
                seen[key] = path
