"""Load and validate the data in resources/: pay tables, house ways and rule profiles.

The engine never reads files; this module reads the TOML, checks every key, and hands the
engine plain values. A bad file is refused with a message naming the file, key and value.
"""

from __future__ import annotations

import threading
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from app.engine.bank import ODD_CENT_PARTIES
from app.engine.bonus import ROYAL_MATCH_VARIANTS
from app.engine.citations import TEXT_IDS, citation_faults
from app.engine.houseway import ALWAYS, NEVER, HouseWay, HouseWayTable
from app.engine.limits import TABLE_REMAINDERS
from app.engine.money import dollars
from app.engine.paytable import KIND_LINES, KIND_UNITS, Pay, PayTable
from app.engine.profile import (BANK_ROTATIONS, BANKING_MODES, COMMISSION_FLAT_FEE, COMMISSION_MODES, DEAL_METHODS, FOUL_RULES,
                                PAYOUT_EVEN, PAYOUT_READINGS, POSITION_METHODS, SIDE_BETS,
                                SURRENDER_RULES, Bank, Commission, Envy, Limits, Procedures, RuleProfile,
                                least_per_player_cents)
from app.engine.rank import WHEEL_SETTINGS, Ranker, Tables
from app.engine.tablelimits import BOUNDS, TableLimits, TableLimitsError, WagerLimit
from app.engine.words import citation

from . import rank_tables as _rank_tables

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
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
            raise ResourceError(f"{_rel(path)}: unknown key {where + key!r} (value {value!r})")
    for key in sorted(required - data.keys()):
        raise ResourceError(f"{_rel(path)}: missing key {where + key!r}")


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
    return PayTable(name, kind, citation(_expect(path, "citation", data["citation"], str, "a string")), out, extras)


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
    return HouseWayTable(data["name"], procedure, two_pair, quads, citation(data["citation"]))


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
# which pay tables a side bet needs
SIDE_BET_TABLES = {"fortune": ("fortune", "envy"), "insurance": ("insurance",), "three_card": ("three_card",),
                   "seven_card": ("seven_card",), "ace_high": ("ace_high",),
                   "progressive": ("progressive_1", "progressive_5"), "additional": ()}


@dataclass(frozen=True)
class Profile:
    """A loaded rule profile: the engine's RuleProfile and the house way it names."""

    rules: RuleProfile

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def wheel(self) -> str:
        return self.rules.wheel

    @property
    def house_way(self) -> str:
        return self.rules.house_way

    @property
    def royal_match(self) -> str:
        return self.rules.royal_match

    @property
    def paytables(self) -> dict[str, PayTable]:
        return self.rules.paytables

    def ranker(self) -> Ranker:
        return _ranker(self.wheel)

    def house(self, name: str | None = None) -> HouseWay:
        return _house(name or self.house_way, self.wheel)


@cache
def _ranker(wheel: str) -> Ranker:
    return Ranker(wheel, rank_tables()[wheel])


_RANK_TABLES: dict[str, dict[str, Tables]] = {}
_RANK_TABLES_READ = threading.Lock()


def rank_tables() -> dict[str, Tables]:
    """Each wheel setting's rank tables, read once per process from resources/rank-tables.npy
    (app/rules/rank_tables.py), never built on a workstation's start (issue 33). Once, whichever
    threads ask first (the demo's dealers and the window's lane may)."""
    with _RANK_TABLES_READ:
        if "read" not in _RANK_TABLES:
            try:
                _RANK_TABLES["read"] = _rank_tables.read(_rank_tables.FILE)
            except _rank_tables.RankTablesError as e:
                raise ResourceError(str(e)) from None
        return _RANK_TABLES["read"]


@cache
def _house(name: str, wheel: str) -> HouseWay:
    return HouseWay(house_way_table(name), _ranker(wheel))


class _Section:
    """Typed reads from one table of a profile file, naming file and key on every fault."""

    def __init__(self, path: Path, data: dict, name: str, keys: set[str], optional: set[str] = frozenset()):
        self.path, self.name = path, name
        value = data.get(name)
        if value is None:
            raise ResourceError(f"{_rel(path)}: missing table [{name}]")
        if not isinstance(value, dict):
            raise ResourceError(f"{_rel(path)}: key {name!r} must be a table, got {value!r}")
        _check_keys(path, value, keys, optional, where=f"{name}.")
        self.data = value

    def key(self, k: str) -> str:
        return f"{self.name}.{k}"

    def get(self, k: str, typ, what: str, default=None):
        if k not in self.data:
            return default
        return _expect(self.path, self.key(k), self.data[k], typ, what)

    def cents(self, k: str, default=None, allow_zero: bool = False) -> int | None:
        v = self.get(k, int, "a whole number of cents", default)
        if v is not None and (v < 0 or (v == 0 and not allow_zero)):
            raise ResourceError(f"{_rel(self.path)}: key {self.key(k)!r} must be positive cents, got {v!r}")
        return v

    def choice(self, k: str, options, default=None) -> str:
        v = self.get(k, str, "a string", default)
        if v not in options:
            raise ResourceError(f"{_rel(self.path)}: key {self.key(k)!r} must be one of {tuple(options)}, got {v!r}")
        return v

    def odds(self, k: str) -> tuple[int, int] | None:
        v = self.get(k, list, "[N, M] for N to M")
        if v is None:
            return None
        if len(v) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in v):
            raise ResourceError(f"{_rel(self.path)}: key {self.key(k)!r} must be two positive whole numbers [N, M], got {v!r}")
        return (v[0], v[1])

    def bad(self, k: str, why: str):
        raise ResourceError(f"{_rel(self.path)}: key {self.key(k)!r} value {self.data.get(k)!r}: {why}")


def load_profile_file(path: Path) -> Profile:
    data = _read(path)
    extends = ""
    if "extends" in data:
        extends = data["extends"]
        data = _extended(path, data)
    _check_keys(path, data, {"name", "rule_text", "title", "wheel", "house_way", "royal_match", "paytables",
                             "base", "commission", "banking", "side_bets", "envy", "limits", "seating",
                             "procedures", "table_limits", "citations"}, {"regulation"})
    for key in ("name", "rule_text", "title", "wheel", "house_way", "royal_match"):
        _expect(path, key, data[key], str, "a string")
    regulation, citations = _citations(path, data)
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

    base = _Section(path, data, "base", {"payout_odds_as_written", "cite_payout", "foul", "surrender", "ties",
                                         "cite_win", "cite_lose", "cite_push"},
                    {"payout_odds", "dealer_ace_high_pushes"})
    ties = base.choice("ties", ("banker", "push"))
    cites = {k: base.get(f"cite_{k}", str, "a citation") for k in ("win", "lose", "push")}
    payout = _payout_settings(base)
    foul = base.choice("foul", FOUL_RULES)
    surrender = base.choice("surrender", SURRENDER_RULES)
    ace_high_pushes = base.get("dealer_ace_high_pushes", bool, "true or false", False)

    com = _Section(path, data, "commission", {"mode"},
                   {"percent", "round_up_to_cents", "minimum_cents", "prepaid_allowed", "flat_fees"})
    mode = com.choice("mode", COMMISSION_MODES)
    percent = com.get("percent", int, "a whole percent", 5)
    if not 0 < percent <= 10:  # 004(12): "not more than ten percent"
        com.bad("percent", "must be 1 to 10 (004(12): not more than ten percent)")
    fees = com.get("flat_fees", list, "a list of [largest wager cents, fee cents]", [])
    flat: list[tuple[int, int]] = []
    for i, row in enumerate(fees):
        if not (isinstance(row, list) and len(row) == 2 and all(isinstance(x, int) and x > 0 for x in row)):
            com.bad("flat_fees", f"row {i} must be [largest wager cents, fee cents]")
        flat.append((row[0], row[1]))
    if len(flat) > 5:
        com.bad("flat_fees", "at most five collection rates per table (002 COLLECTION PROCEDURES)")
    if [w for w, _ in flat] != sorted({w for w, _ in flat}):
        com.bad("flat_fees", "rows must be in rising order of wager")
    if mode == COMMISSION_FLAT_FEE and not flat:
        com.bad("mode", "flat_fee needs the flat_fees schedule")
    commission = Commission(mode, percent, com.cents("round_up_to_cents", 25), com.cents("minimum_cents", 0, True),
                            com.get("prepaid_allowed", bool, "true or false", False), tuple(flat))

    bank = _Section(path, data, "banking", {"modes"}, {"lucky_money_percent"} | set(PLAYER_BANK_KEYS)
                    | set(CO_BANK_KEYS))
    modes = tuple(bank.get("modes", list, "a list of banking modes"))
    if not modes or any(m not in BANKING_MODES for m in modes):
        bank.bad("modes", f"each must be one of {BANKING_MODES}")
    lucky = bank.get("lucky_money_percent", int, "a whole percent", 0)
    if not 0 <= lucky <= 100:
        bank.bad("lucky_money_percent", "must be 0 to 100")
    bank_rules = _bank_settings(bank, modes)

    side = _Section(path, data, "side_bets", {"offered"}, {"additional_odds", "progressive_reset_cents",
                                                           "fortune_before_base"})
    reset = side.cents("progressive_reset_cents", 1_000_000)
    if reset < 1_000_000:
        side.bad("progressive_reset_cents", "000(q)(6): never less than $10,000")
    fortune_first = side.get("fortune_before_base", bool, "true or false", False)
    offered = tuple(side.get("offered", list, "a list of side bets"))
    for bet in offered:
        if bet not in SIDE_BETS:
            side.bad("offered", f"{bet!r} is not one of {SIDE_BETS}")
        for role in SIDE_BET_TABLES[bet]:
            if role not in chosen:
                side.bad("offered", f"{bet!r} needs the pay table 'paytables.{role}'")
    if "fortune" in offered and ({"three_card", "seven_card"} & set(offered)):
        side.bad("offered", "the bonus wager and the three-/seven-card bonus wagers may not share a table "
                            "(001 11.15(a), 11.17(a))")
    additional = side.odds("additional_odds")
    if "additional" in offered:
        if additional is None:
            side.bad("offered", "'additional' needs side_bets.additional_odds")
        from fractions import Fraction
        if not Fraction(11, 2) <= Fraction(*additional) <= 6:
            side.bad("additional_odds", "000(p)(2)(vi): no less than 5 1/2 to 1 and no more than 6 to 1")

    env = _Section(path, data, "envy", {"minimum_wager_cents", "counts_nonbetting_hands",
                                        "player_banker_hand_counts"}, {"toke_max_payout_cents"})
    envy = Envy(env.cents("minimum_wager_cents"), env.get("counts_nonbetting_hands", bool, "true or false"),
                env.get("player_banker_hand_counts", bool, "true or false"), env.cents("toke_max_payout_cents"))

    table_limits = _table_limits(path, data, data["name"], offered, commission)

    lim = _Section(path, data, "limits", set(), {"per_player", "per_table_cents", "approval_threshold_cents",
                                                 "per_player_counts_envy", "table_limit_remainder"})
    per_player = []
    for i, row in enumerate(lim.get("per_player", list, "a list of {cents, wagers}", [])):
        if not isinstance(row, dict) or set(row) != {"cents", "wagers"} or not isinstance(row["cents"], int) \
                or row["cents"] <= 0 or not isinstance(row["wagers"], list) \
                or any(w not in SIDE_BETS for w in row["wagers"]):
            lim.bad("per_player", f"row {i} must be {{cents = N, wagers = [side bets]}}")
        # 000(s)(3), 001 11.16(d): at least $40,000; 001 11.18(d): seven-card at least $50,000;
        # or the most one player could win betting the minimum, whichever is greater
        floor = least_per_player_cents(row["wagers"], chosen, table_limits)
        if row["cents"] < floor:
            lim.bad("per_player", f"row {i}: cents = {row['cents']} ({dollars(row['cents'])}) is below the least limit "
                                  f"allowed, {dollars(floor)} "
                                  "(000(s)(3), 001 11.16(d), 11.18(d))")
        per_player.append((row["cents"], tuple(row["wagers"])))
    per_table = lim.cents("per_table_cents")
    limits = Limits(tuple(per_player), per_table, lim.cents("approval_threshold_cents"),
                    **_limit_settings(lim, per_player, per_table))

    seat = _Section(path, data, "seating", {"bettors_per_circle", "adjacent_areas"})
    bettors = seat.get("bettors_per_circle", int, "a whole number")
    areas = seat.get("adjacent_areas", int, "a whole number")
    if not 1 <= bettors <= 4:
        seat.bad("bettors_per_circle", "must be 1 to 4 (003: a maximum of four players on one betting circle)")
    if not 1 <= areas <= 2:
        seat.bad("adjacent_areas", "must be 1 or 2 (000(o)(1), 001 11.12(a): no more than two adjacent areas)")

    proc = _Section(path, data, "procedures", {"starting_position", "deal", "delivery", "deck_hours_shoe",
                                               "deck_hours_hand", "dice_hours", "dealer_exposed_card"},
                    {"deck_hours_shuffler", "bank_rotation", "bank_cover_ruling", "shuffler_malfunction_voids"})
    methods = {}
    for key, allowed in (("starting_position", POSITION_METHODS), ("deal", DEAL_METHODS)):
        values = proc.get(key, list, "a list of methods")
        if not values or any(v not in allowed for v in values):
            proc.bad(key, f"each must be one of {allowed}")
        methods[key] = tuple(values)
    hours = {}
    for key in ("deck_hours_shoe", "deck_hours_hand", "dice_hours", "deck_hours_shuffler"):
        v = proc.get(key, int, "a whole number of hours")
        if v is not None and not 0 < v <= 24:
            proc.bad(key, "must be 1 to 24 hours (000(e)(5), (d)(1)(ii))")
        hours[key] = v
    procedures = Procedures(methods["starting_position"], methods["deal"],
                            proc.choice("delivery", ("clockwise", "counterclockwise")), hours["deck_hours_shoe"],
                            hours["deck_hours_hand"], hours["deck_hours_shuffler"], hours["dice_hours"],
                            proc.choice("dealer_exposed_card", ("void", "play")),
                            proc.choice("bank_rotation", BANK_ROTATIONS, "each-round"),
                            proc.get("bank_cover_ruling", bool, "true or false", False),
                            proc.get("shuffler_malfunction_voids", bool, "true or false", False))

    rules = RuleProfile(
        data["name"], data["rule_text"], data["title"], data["wheel"], data["house_way"], data["royal_match"],
        chosen, **payout, foul=foul, surrender=surrender, commission=commission, banking_modes=modes,
        side_bets=offered, envy=envy, limits=limits, additional_odds=additional, lucky_money_percent=lucky, bettors_per_circle=bettors, adjacent_areas=areas,
        dealer_ace_high_pushes=ace_high_pushes, procedures=procedures, ties=ties, base_citations=cites,
        progressive_reset_cents=reset, fortune_before_base=fortune_first, bank=bank_rules,
        table_limits=table_limits, extends=extends, regulation=regulation, citations=citations)
    return Profile(rules)


def _citations(path: Path, data: dict) -> tuple[str, dict[str, str]]:
    """``regulation`` and ``[citations]``: every matter a table cites (app/engine/citations.py), each
    from the profile's own text first and from no text but it and its regulation."""
    text = data["rule_text"]
    if text not in TEXT_IDS:
        raise ResourceError(f"{_rel(path)}: key 'rule_text' value {text!r} names no rule text ({', '.join(TEXT_IDS)})")
    regulation = data.get("regulation", "")
    if "regulation" in data and (regulation not in TEXT_IDS or regulation == text):
        raise ResourceError(f"{_rel(path)}: key 'regulation' value {regulation!r}: the rule text "
                            f"({', '.join(TEXT_IDS)}) a house's own procedures run under, other than its own {text}")
    citations = _expect(path, "citations", data["citations"], dict, "a table")
    faults = citation_faults(text, regulation, citations)
    if faults:
        raise ResourceError(f"{_rel(path)}: " + "; ".join(faults))
    return regulation, dict(citations)


# The settings where the texts allow two readings (docs/rule-settings.md). Each is required where it
# can matter, so every such profile states its reading, and refused where it cannot.
PLAYER_BANK_KEYS = ("bank_covers_dealer_wager", "cite_cover", "cite_first_round")
CO_BANK_KEYS = ("co_bank_odd_cent", "cite_co_bank_cover")


def _applicable(sec: _Section, keys, applies: bool, why_not: str) -> None:
    for k in keys:
        if applies and k not in sec.data:
            raise ResourceError(f"{_rel(sec.path)}: missing key {sec.key(k)!r}: the profile must state its reading "
                                "(docs/rule-settings.md)")
        if not applies and k in sec.data:
            sec.bad(k, why_not)


def _payout_settings(sec: _Section) -> dict:
    """A winning base wager's odds: as the text writes them where they are 1 to 1; where they are not
    (000(l)(9): "at odds of 2 to 1"), as the profile reads them (docs/rule-settings.md, e.)."""
    written = sec.odds("payout_odds_as_written")
    cite = sec.get("cite_payout", str, "a citation")
    doubtful = written != (1, 1)
    _applicable(sec, ("payout_odds",), doubtful, f"the text pays 1 to 1 as written ({cite}): there is no other "
                                                 "reading to choose")
    reading = sec.choice("payout_odds", PAYOUT_READINGS) if doubtful else ""
    odds = (1, 1) if reading == PAYOUT_EVEN else written
    return {"payout_odds": odds, "payout_odds_as_written": written, "payout_reading": reading, "cite_payout": cite}


def _bank_settings(sec: _Section, modes: tuple[str, ...]) -> Bank:
    player, co = "player" in modes, "co-bank" in modes
    _applicable(sec, PLAYER_BANK_KEYS, player, "the profile has no player bank ('player' is not in banking.modes)")
    _applicable(sec, CO_BANK_KEYS, co, "the profile has no co-bank ('co-bank' is not in banking.modes)")
    default = Bank()
    return Bank(sec.get("bank_covers_dealer_wager", bool, "true or false", default.covers_dealer_wager),
                sec.choice("co_bank_odd_cent", ODD_CENT_PARTIES, default.co_bank_odd_cent),
                sec.get("cite_cover", str, "a citation", "") or "",
                sec.get("cite_co_bank_cover", str, "a citation", "") or "",
                sec.get("cite_first_round", str, "a citation", default.cite_first_round if player else ""))


def _limit_settings(sec: _Section, per_player, per_table) -> dict:
    envy_limited = any("fortune" in wagers for _, wagers in per_player)
    _applicable(sec, ("per_player_counts_envy",), envy_limited,
                "no per-player limit covers the bonus (fortune) wager whose envy it could count")
    _applicable(sec, ("table_limit_remainder",), per_table is not None, "the profile has no per_table_cents limit")
    return {"per_player_counts_envy": sec.get("per_player_counts_envy", bool, "true or false", True),
            "table_limit_remainder": sec.choice("table_limit_remainder", TABLE_REMAINDERS, TABLE_REMAINDERS[0])}


# Every setting where the texts allow two readings, by table: all that a profile extending another
# may change (docs/rule-settings.md, "A profile that extends another").
READINGS = {"base": ("payout_odds",), "banking": ("bank_covers_dealer_wager", "co_bank_odd_cent"),
            "limits": ("per_player_counts_envy", "table_limit_remainder")}
_EXTENDING_KEYS = ("name", "title", "extends")


def _extended(path: Path, data: dict) -> dict:
    """The profile ``path`` extends (a file beside it) with this one's name, title and readings over
    it; everything else is the other profile's. The other profile must load on its own and extend
    none, and this one must change at least one of its readings and say so in its title."""
    parent = data["extends"]
    folder = path.parent
    if not isinstance(parent, str) or not (folder / f"{parent}.toml").exists():
        known = ", ".join(sorted(p.stem for p in folder.glob("*.toml") if p != path))
        raise ResourceError(f"{_rel(path)}: key 'extends' names no rule profile beside it: {parent!r} (known: {known})")
    ppath = folder / f"{parent}.toml"
    base = _read(ppath)
    if "extends" in base:
        raise ResourceError(f"{_rel(path)}: key 'extends' value {parent!r}: that profile extends {base['extends']!r} "
                            "itself; extend a profile that extends none")
    load_profile_file(ppath)   # refused on its own, naming its own file
    for key in ("name", "title"):
        if key not in data:
            raise ResourceError(f"{_rel(path)}: missing key {key!r}")
        _expect(path, key, data[key], str, "a string")
    if data["title"] == base["title"]:
        raise ResourceError(f"{_rel(path)}: key 'title' value {data['title']!r} is {parent}'s: the title says which "
                            "readings this profile changes")
    allowed = ", ".join(f"{t}.{k}" for t, keys in READINGS.items() for k in keys)
    changed = 0
    for table, value in data.items():
        if table in _EXTENDING_KEYS:
            continue
        if table not in READINGS or not isinstance(value, dict):
            raise ResourceError(f"{_rel(path)}: key {table!r} (value {value!r}): a profile that extends another "
                                f"changes only its readings ({allowed}; docs/rule-settings.md)")
        for k, v in value.items():
            if k not in READINGS[table]:
                raise ResourceError(f"{_rel(path)}: key {table + '.' + k!r} (value {v!r}): a profile that extends "
                                    f"another changes only its readings ({allowed}; docs/rule-settings.md)")
            if base.get(table, {}).get(k) == v:
                raise ResourceError(f"{_rel(path)}: key {table + '.' + k!r} value {v!r} is {parent}'s own reading: "
                                    "state only the readings this profile changes")
            changed += 1
    if not changed:
        raise ResourceError(f"{_rel(path)}: extends {parent!r} and changes none of its readings ({allowed})")
    merged = {k: dict(v) if isinstance(v, dict) else v for k, v in base.items()}
    for table, value in data.items():
        if table == "extends":
            continue
        if isinstance(value, dict):
            merged.setdefault(table, {}).update(value)
        else:
            merged[table] = value
    return merged


def _table_limits(path: Path, data: dict, name: str, offered, commission: Commission) -> TableLimits:
    """[table_limits]: for the base wager and every wager offered, {min, max} in cents, the bounds
    the text sets (``fixed``) and the paragraph (``rule``)."""
    want = {"base"} | set(offered)
    sec = _Section(path, data, "table_limits", want)
    out: dict[str, WagerLimit] = {}
    for k in sorted(want):
        row = sec.data[k]
        if not isinstance(row, dict):
            sec.bad(k, "must be {min = cents, max = cents}, with fixed = [...] and rule = '...' where the text sets them")
        _check_keys(path, row, set(BOUNDS), {"fixed", "rule"}, where=f"table_limits.{k}.")
        fixed = row.get("fixed", [])
        if not isinstance(fixed, list) or set(fixed) - set(BOUNDS):
            sec.bad(k, f"fixed must list some of {BOUNDS}")
        rule = row.get("rule", "")
        if fixed and not (isinstance(rule, str) and rule):
            sec.bad(k, "a bound the text sets needs the paragraph that sets it: rule = '...'")
        try:
            out[k] = WagerLimit(row["min"], row["max"], frozenset(fixed), rule)
            TableLimits(name, {k: out[k]})
        except TableLimitsError as e:
            sec.bad(k, str(e))
        if k == "progressive" and not ({row["min"], row["max"]} <= {100, 500} and set(fixed) == set(BOUNDS)):
            sec.bad(k, "000(q)(1), 001 11.14(a): the progressive wager is $1.00 or $5.00: min and max are 100 or "
                       "500, both fixed")
    # 002 COLLECTION PROCEDURES: "one collection schedule option, which utilizes one table limit and
    # the specified collection fees for that table limit": no base wager beyond the schedule
    if commission.mode == COMMISSION_FLAT_FEE and out["base"].max > commission.flat_fees[-1][0]:
        sec.bad("base", f"max {out['base'].max} is over the largest wager of the collection fee schedule, "
                        f"{commission.flat_fees[-1][0]} cents (002 COLLECTION PROCEDURES)")
    return TableLimits(name, out)


DEFAULT_PROFILE = "casino"


@cache
def profile(name: str = DEFAULT_PROFILE) -> Profile:
    # a name is one of the profiles' files, never a path: anything else is unknown before a file
    # is looked for (a name of 5,000 characters made the file system refuse it, a traceback)
    known = names("rules")
    if not isinstance(name, str) or name not in known:
        shown = name if not isinstance(name, str) or len(name) <= 64 else f"{name[:64]}... ({len(name)} characters)"
        raise ResourceError(f"unknown rule profile {shown!r}; known: {', '.join(known)}")
    return load_profile_file(RESOURCES / "rules" / f"{name}.toml")
