"""Load and validate the data in resources/: pay tables, house ways and rule profiles.

The engine never reads files; this module reads the TOML, checks every key, and hands the
engine plain values. A bad file is refused with a message naming the file, key and value.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from app.engine.bonus import ROYAL_MATCH_VARIANTS
from app.engine.houseway import ALWAYS, NEVER, HouseWay, HouseWayTable
from app.engine.paytable import KIND_LINES, KIND_UNITS, Pay, PayTable
from app.engine.rank import WHEEL_SETTINGS, Ranker

RESOURCES = Path(__file__).resolve().parents[1] / "resources"
_RANK_WORDS = {"T": 10, "J": 11, "Q": 12, "K": 13, "A": 14}


class ResourceError(ValueError):
    """A resource file that cannot be used; the message names file, key and value."""


def _read(path: Path) -> dict:
    try:
        with path.open("rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise ResourceError(f"{path}: no such file") from None
    except tomllib.TOMLDecodeError as e:
        raise ResourceError(f"{path}: not valid TOML: {e}") from None


def _rel(path: Path) -> str:
    try:
        return str(path.relative_to(RESOURCES.parent))
    except ValueError:
        return str(path)


def _check_keys(path: Path, data: dict, required: set[str], optional: set[str] = frozenset(), where: str = "") -> None:
    for key, value in data.items():
        if key not in required | optional:
            raise ResourceError(f"{_rel(path)}: unknown key {where}{key!r} (value {value!r})")
    for key in sorted(required - data.keys()):
        raise ResourceError(f"{_rel(path)}: missing key {where}{key!r}")


def _expect(path: Path, key: str, value, typ, what: str):
    if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
        raise ResourceError(f"{_rel(path)}: key {key!r} must be {what}, got {value!r}")
    return value


# -- pay tables ---------------------------------------------------------------------------
def names(folder: str) -> list[str]:
    return sorted(p.stem for p in (RESOURCES / folder).glob("*.toml"))


def load_paytable_file(path: Path) -> PayTable:
    data = _read(path)
    extras_keys = {"wager", "meter_threshold", "rate_of_progression_percent", "minimum_reset"}
    _check_keys(path, data, {"name", "kind", "citation", "unit", "pays"}, extras_keys)
    name = _expect(path, "name", data["name"], str, "a string")
    kind = _expect(path, "kind", data["kind"], str, "a string")
    if kind not in KIND_LINES:
        raise ResourceError(f"{_rel(path)}: key 'kind' has unknown value {kind!r}; expected one of {sorted(KIND_LINES)}")
    unit = data["unit"]
    if unit != KIND_UNITS[kind]:
        raise ResourceError(f"{_rel(path)}: key 'unit' must be {KIND_UNITS[kind]!r} for kind {kind!r}, got {unit!r}")
    pays = _expect(path, "pays", data["pays"], dict, "a table")
    if not pays:
        raise ResourceError(f"{_rel(path)}: key 'pays' is empty")
    out: dict[str, Pay] = {}
    for line, value in pays.items():
        if line not in KIND_LINES[kind]:
            raise ResourceError(f"{_rel(path)}: unknown line 'pays.{line}' (value {value!r}) for kind {kind!r}")
        key = f"pays.{line}"
        if isinstance(value, str) and kind == "progressive" and value.endswith("%"):
            try:
                pct = int(value[:-1])
            except ValueError:
                raise ResourceError(f"{_rel(path)}: key {key!r} must be a whole percent like '10%', got {value!r}") from None
            if not 0 < pct <= 100:
                raise ResourceError(f"{_rel(path)}: key {key!r} percent must be 1..100, got {value!r}")
            out[line] = Pay(meter_percent=pct)
            continue
        _expect(path, key, value, int, "a whole number (odds N to 1, or cents)")
        if value <= 0:
            raise ResourceError(f"{_rel(path)}: key {key!r} must be positive, got {value!r}")
        out[line] = Pay(odds=value) if unit == "odds" else Pay(cents=value)
    extras = {}
    for k in extras_keys & data.keys():
        extras[k] = _expect(path, k, data[k], int, "a whole number")
        if extras[k] <= 0:
            raise ResourceError(f"{_rel(path)}: key {k!r} must be positive, got {extras[k]!r}")
    if name != path.stem:
        raise ResourceError(f"{_rel(path)}: key 'name' is {name!r} but the file is {path.name}")
    return PayTable(name, kind, _expect(path, "citation", data["citation"], str, "a string"), out, extras)


@cache
def paytable(name: str) -> PayTable:
    path = RESOURCES / "paytables" / f"{name}.toml"
    if not path.exists():
        raise ResourceError(f"unknown pay table {name!r}; known: {', '.join(names('paytables'))}")
    return load_paytable_file(path)


# -- house ways ---------------------------------------------------------------------------
def _rank(path: Path, key: str, value) -> int:
    if isinstance(value, str) and value.upper() in _RANK_WORDS:
        return _RANK_WORDS[value.upper()]
    if isinstance(value, int) and not isinstance(value, bool) and 2 <= value <= 14:
        return value
    raise ResourceError(f"{_rel(path)}: key {key!r} must be a rank 2-14 or T J Q K A, got {value!r}")


def _range(path: Path, key: str, value) -> range:
    if not (isinstance(value, list) and len(value) == 2):
        raise ResourceError(f"{_rel(path)}: key {key!r} must be [lowest, highest], got {value!r}")
    lo, hi = _rank(path, key, value[0]), _rank(path, key, value[1])
    if lo > hi:
        raise ResourceError(f"{_rel(path)}: key {key!r} is an empty range {value!r}")
    return range(lo, hi + 1)


def _threshold(path: Path, key: str, value) -> int:
    if value == "always":
        return ALWAYS
    if value == "never":
        return NEVER
    return _rank(path, key, value)


def load_house_way_file(path: Path) -> HouseWayTable:
    data = _read(path)
    _check_keys(path, data, {"name", "procedure", "citation", "two_pair", "four_of_a_kind"})
    procedure = data["procedure"]
    if procedure not in ("casino", "face-up"):
        raise ResourceError(f"{_rel(path)}: key 'procedure' must be 'casino' or 'face-up', got {procedure!r}")
    two_pair: dict[tuple[int, int], int] = {}
    for i, rule in enumerate(_expect(path, "two_pair", data["two_pair"], list, "a list of rules")):
        where = f"two_pair[{i}]."
        _check_keys(path, rule, {"high", "low", "keep_with", "cite"}, where=where)
        need = _threshold(path, where + "keep_with", rule["keep_with"])
        for hi in _range(path, where + "high", rule["high"]):
            for lo in _range(path, where + "low", rule["low"]):
                if lo >= hi:
                    continue
                if (hi, lo) in two_pair:
                    raise ResourceError(f"{_rel(path)}: {where}: pairs {hi}-{lo} are covered twice")
                two_pair[(hi, lo)] = need
    missing = [(h, lo) for h in range(3, 15) for lo in range(2, h) if (h, lo) not in two_pair]
    if missing:
        raise ResourceError(f"{_rel(path)}: key 'two_pair' does not cover the pairs {missing[0][0]}s and {missing[0][1]}s")
    quads: dict[int, int] = {}
    for i, rule in enumerate(_expect(path, "four_of_a_kind", data["four_of_a_kind"], list, "a list of rules")):
        where = f"four_of_a_kind[{i}]."
        _check_keys(path, rule, {"ranks", "keep_with", "cite"}, where=where)
        need = _threshold(path, where + "keep_with", rule["keep_with"])
        for r in _range(path, where + "ranks", rule["ranks"]):
            if r in quads:
                raise ResourceError(f"{_rel(path)}: {where}: four {r}s are covered twice")
            quads[r] = need
    if set(quads) != set(range(2, 15)):
        raise ResourceError(f"{_rel(path)}: key 'four_of_a_kind' does not cover ranks {sorted(set(range(2, 15)) - set(quads))}")
    return HouseWayTable(data["name"], procedure, two_pair, quads, data["citation"])


@cache
def house_way_table(name: str) -> HouseWayTable:
    path = RESOURCES / "houseways" / f"{name}.toml"
    if not path.exists():
        raise ResourceError(f"unknown house way {name!r}; known: {', '.join(names('houseways'))}")
    return load_house_way_file(path)


# -- rule profiles ------------------------------------------------------------------------
PROFILE_TABLE_KINDS = {"fortune": "fortune", "envy": "envy", "insurance": "insurance",
                       "three_card": "three_card", "seven_card": "seven_card", "ace_high": "ace_high",
                       "progressive_1": "progressive", "progressive_5": "progressive"}


@dataclass(frozen=True)
class Profile:
    name: str
    rule_text: str
    title: str
    wheel: str
    house_way: str
    royal_match: str
    paytables: dict[str, PayTable]

    def ranker(self) -> Ranker:
        return _ranker(self.wheel)

    def house(self, name: str | None = None) -> HouseWay:
        return _house(name or self.house_way, self.wheel)


@cache
def _ranker(wheel: str) -> Ranker:
    return Ranker(wheel)


@cache
def _house(name: str, wheel: str) -> HouseWay:
    return HouseWay(house_way_table(name), _ranker(wheel))


def load_profile_file(path: Path) -> Profile:
    data = _read(path)
    _check_keys(path, data, {"name", "rule_text", "title", "wheel", "house_way", "royal_match", "paytables"})
    for key in ("name", "rule_text", "title", "wheel", "house_way", "royal_match"):
        _expect(path, key, data[key], str, "a string")
    if data["wheel"] not in WHEEL_SETTINGS:
        raise ResourceError(f"{_rel(path)}: key 'wheel' must be one of {WHEEL_SETTINGS}, got {data['wheel']!r}")
    if data["royal_match"] not in ROYAL_MATCH_VARIANTS:
        raise ResourceError(f"{_rel(path)}: key 'royal_match' must be one of {ROYAL_MATCH_VARIANTS}, "
                            f"got {data['royal_match']!r}")
    if data["house_way"] not in names("houseways"):
        raise ResourceError(f"{_rel(path)}: key 'house_way' names no house way: {data['house_way']!r}")
    tables = _expect(path, "paytables", data["paytables"], dict, "a table")
    chosen: dict[str, PayTable] = {}
    for role, tname in tables.items():
        if role not in PROFILE_TABLE_KINDS:
            raise ResourceError(f"{_rel(path)}: unknown key 'paytables.{role}' (value {tname!r})")
        _expect(path, f"paytables.{role}", tname, str, "a pay table name")
        try:
            t = paytable(tname)
        except ResourceError as e:
            raise ResourceError(f"{_rel(path)}: key 'paytables.{role}' value {tname!r}: {e}") from None
        if t.kind != PROFILE_TABLE_KINDS[role]:
            raise ResourceError(f"{_rel(path)}: key 'paytables.{role}' value {tname!r} is a {t.kind} table")
        chosen[role] = t
    if data["name"] != path.stem:
        raise ResourceError(f"{_rel(path)}: key 'name' is {data['name']!r} but the file is {path.name}")
    return Profile(data["name"], data["rule_text"], data["title"], data["wheel"], data["house_way"],
                   data["royal_match"], chosen)


DEFAULT_PROFILE = "casino"


@cache
def profile(name: str = DEFAULT_PROFILE) -> Profile:
    path = RESOURCES / "rules" / f"{name}.toml"
    if not path.exists():
        raise ResourceError(f"unknown rule profile {name!r}; known: {', '.join(names('rules'))}")
    return load_profile_file(path)
