"""A round to settle: who sits where, the cards, how each hand was set, and every wager.

The round file is JSON (docs/round-format.md); the command line reads it and hands the
decoded object to ``parse_round``, which refuses anything malformed with a RoundError naming
the field (``seats[2].wagers.fortune``) and the fault. Amounts are integer cents.

Seats are the betting positions 1..6 counted counterclockwise from the player farthest to the
dealer's right (the order of 000(l)(5) and 000(k)(2)(ii): a dice total of 14 is seat 6); in a
player-dealer game (002) all seven positions are seats 1..7.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .cards import CardError, parse_cards
from .citations import noted
from .money import dollars
from .names import name_fault
from .profile import SIDE_BETS, RuleProfile
from .tablelimits import TableLimits, refusals

WAGER_KEYS = ("base",) + SIDE_BETS + ("fortune_toke",)


class RoundError(ValueError):
    """A round that cannot be settled; nothing of it is settled."""


@dataclass(frozen=True)
class Hand:
    cards: tuple[int, ...]
    high: tuple[int, ...] | None = None
    low: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Bettor:
    """Another player's base wager on this circle (003 PLAYERS WAGERING ON ANOTHER PLAYER'S HAND)."""

    name: str
    base: int
    prepaid_commission: int = 0


@dataclass(frozen=True)
class Seat:
    seat: int
    player: str
    hand: Hand
    wagers: dict[str, int]
    additional: dict[int, int] = field(default_factory=dict)  # 000(p): number 1..7 -> cents
    surrender: bool = False
    prepaid_commission: int = 0
    bettors: tuple[Bettor, ...] = ()

    @property
    def party(self) -> str:
        return f"seat {self.seat}"


@dataclass(frozen=True)
class Banking:
    mode: str = "house"
    seat: int | None = None
    chips: int | None = None          # the bank's chips on the table (000(m)(4)(ii))
    dealer_wager: int = 0             # the dealer's wager against a player bank (000(m)(7))
    last_wager: int | None = None     # the bank's last wager against the dealer (000(m)(7), 003 #7)
    wager: int | None = None          # the player-dealer's wager (002)
    action_seat: int | None = None    # 002: the seat holding the action button
    banked_last_round: bool = False   # 000(m)(3): no player banks two consecutive rounds
    dealer_prepaid_commission: int = 0  # 003 PLAYER BANK 7, COLLECTING 8: with the dealer's wager
    cover_ruling: bool = False        # 003 PLAYER BANK 3: the floor supervisor let the bank proceed uncovered


@dataclass(frozen=True)
class Round:
    profile: str
    banking: Banking
    dealer: Hand | None
    seats: tuple[Seat, ...]
    progressive_meter: int | None = None
    rng_number: int | None = None     # 000(p): the number the RNG displayed, for additional wagers

    def seat(self, n: int) -> Seat:
        for s in self.seats:
            if s.seat == n:
                return s
        raise KeyError(n)


def _cents(value: Any, where: str, allow_zero: bool = True) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RoundError(f"{where}: amounts are whole cents, got {value!r}")
    if value < 0 or (value == 0 and not allow_zero):
        raise RoundError(f"{where}: must be {'at least 0' if allow_zero else 'positive'}, got {value}")
    return value


def _flag(obj: dict, key: str) -> bool:
    value = obj.get(key, False)
    if not isinstance(value, bool):
        raise RoundError(f"banking.{key}: true or false, got {value!r}")
    return value


def _cards(value: Any, where: str, count: int) -> tuple[int, ...]:
    if not isinstance(value, str):
        raise RoundError(f"{where}: cards are a string like 'As Kd Th 9c', got {value!r}")
    try:
        return tuple(parse_cards(value, count=count))
    except CardError as e:
        raise RoundError(f"{where}: {e}") from None


def _keys(obj: Any, where: str, allowed: set[str], required: set[str] = frozenset()) -> dict:
    if not isinstance(obj, dict):
        raise RoundError(f"{where}: must be an object, got {obj!r}")
    for k in obj:
        if k not in allowed:
            raise RoundError(f"{where}: unknown field {k!r}")
    for k in sorted(required - obj.keys()):
        raise RoundError(f"{where}: missing field {k!r}")
    return obj


def _hand(obj: Any, where: str) -> Hand:
    _keys(obj, where, {"cards", "high", "low"}, {"cards"})
    cards = _cards(obj["cards"], f"{where}.cards", 7)
    if ("high" in obj) != ("low" in obj):
        raise RoundError(f"{where}: give both 'high' and 'low', or neither")
    if "high" not in obj:
        return Hand(cards)
    high = _cards(obj["high"], f"{where}.high", 5)
    low = _cards(obj["low"], f"{where}.low", 2)
    if sorted(high + low) != sorted(cards):
        raise RoundError(f"{where}: 'high' and 'low' must be the seven cards dealt, in two hands of five and two")
    return Hand(cards, high, low)


def _name(value: Any, where: str) -> str:
    """A player's or bettor's name: text, printable, at most NAME_MAX characters (app/engine/names.py)."""
    if not isinstance(value, str) or not value.strip():
        raise RoundError(f"{where}: expected a name (non-empty text), got {value!r}")
    fault = name_fault(value)
    if fault:
        raise RoundError(f"{where}: the name {fault}")
    return value


def parse_round(obj: Any, profile: RuleProfile, limits: TableLimits | None = None) -> Round:
    """Validate a decoded round file against the table's rule profile and table limits.

    ``limits`` are the table's (``profile.limits_for_table(overrides)``); without them the
    profile's own limits apply. A wager outside them refuses the whole round.
    """
    if limits is not None and limits.profile != profile.name:
        raise RoundError(f"table limits are for profile {limits.profile!r}, not {profile.name!r}")
    _keys(obj, "round", {"profile", "banking", "dealer", "seats", "progressive_meter", "rng_number",
                         "first_round_of_game"},
          {"profile", "banking", "seats"})
    if obj["profile"] != profile.name:
        raise RoundError(f"round.profile: the round is for {obj['profile']!r}, not {profile.name!r}")
    b = _keys(obj["banking"], "banking", {"mode", "seat", "chips", "dealer_wager", "last_wager", "wager",
                                          "action_seat", "banked_last_round", "dealer_prepaid_commission",
                                          "last_wager_seat", "cover_ruling"},
              {"mode"})
    mode = b["mode"]
    if mode not in profile.banking_modes:
        raise RoundError(f"banking.mode: {mode!r} is not allowed by profile {profile.name!r} "
                         f"(allowed: {', '.join(profile.banking_modes)})")
    banking = Banking(
        mode=mode,
        seat=b.get("seat"),
        chips=_cents(b["chips"], "banking.chips") if "chips" in b else None,
        dealer_wager=_cents(b.get("dealer_wager", 0), "banking.dealer_wager"),
        last_wager=_cents(b["last_wager"], "banking.last_wager") if "last_wager" in b else None,
        wager=_cents(b["wager"], "banking.wager", allow_zero=False) if "wager" in b else None,
        action_seat=b.get("action_seat"),
        banked_last_round=_flag(b, "banked_last_round"),
        dealer_prepaid_commission=_cents(b.get("dealer_prepaid_commission", 0), "banking.dealer_prepaid_commission"),
        cover_ruling=_flag(b, "cover_ruling"),
    )
    max_seat = 7 if mode == "player-dealer" else 6
    if mode != "house":
        if not isinstance(banking.seat, int) or not 1 <= banking.seat <= max_seat:
            raise RoundError(f"banking.seat: the {mode} needs a seat 1..{max_seat}, got {banking.seat!r}")
    if mode == "player-dealer" and banking.wager is None:
        raise RoundError("banking.wager: the player-dealer's wager is required (002 TYPE OF GAME)")

    dealer = None
    if mode == "co-bank" and "dealer" in obj:
        dealer = _hand(obj["dealer"], "dealer")
    elif mode not in ("player-dealer", "co-bank"):
        if "dealer" not in obj:
            raise RoundError("round: missing field 'dealer' (the dealer's seven cards)")
        dealer = _hand(obj["dealer"], "dealer")

    if not isinstance(obj["seats"], list) or not obj["seats"]:
        raise RoundError("seats: no seat is in the round (a round has at least one seat with a hand)")
    seats: list[Seat] = []
    for i, s in enumerate(obj["seats"]):
        where = f"seats[{i}]"
        _keys(s, where, {"seat", "player", "cards", "high", "low", "wagers", "additional", "surrender",
                         "prepaid_commission", "bettors"}, {"seat", "cards"})
        n = s["seat"]
        if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= max_seat:
            raise RoundError(f"{where}.seat: must be 1..{max_seat}, got {n!r}")
        hand = _hand({k: s[k] for k in ("cards", "high", "low") if k in s}, where)
        wagers_in = _keys(s.get("wagers", {}), f"{where}.wagers", set(WAGER_KEYS))
        wagers = {k: _cents(v, f"{where}.wagers.{k}") for k, v in wagers_in.items() if v != 0}
        for k in wagers:
            if k in SIDE_BETS and k not in profile.side_bets:
                raise RoundError(f"{where}.wagers.{k}: profile {profile.name!r} does not offer this wager")
            if k == "fortune_toke" and "fortune" not in profile.side_bets:
                raise RoundError(f"{where}.wagers.fortune_toke: profile {profile.name!r} does not offer the bonus wager")
        additional = {}
        for num, amount in _keys(s.get("additional", {}), f"{where}.additional", {str(k) for k in range(1, 8)}).items():
            if "additional" not in profile.side_bets:
                raise RoundError(f"{where}.additional: profile {profile.name!r} does not offer the additional wager")
            additional[int(num)] = _cents(amount, f"{where}.additional.{num}", allow_zero=False)
        bettors = []
        for j, bt in enumerate(s.get("bettors", [])):
            bw = f"{where}.bettors[{j}]"
            _keys(bt, bw, {"name", "base", "prepaid_commission"}, {"name", "base"})
            bettors.append(Bettor(_name(bt["name"], f"{bw}.name"),
                                  _cents(bt["base"], f"{bw}.base", allow_zero=False),
                                  _cents(bt.get("prepaid_commission", 0), f"{bw}.prepaid_commission")))
        player = _name(s["player"], f"{where}.player") if "player" in s else f"seat {n}"
        seats.append(Seat(n, player, hand, wagers, additional,
                          bool(s.get("surrender", False)),
                          _cents(s.get("prepaid_commission", 0), f"{where}.prepaid_commission"), tuple(bettors)))
    seats.sort(key=lambda s: s.seat)  # results never depend on the order in the file
    _check_round(seats, dealer, banking, profile, obj)
    # the wagers are taken within the table's limits (002 DESCRIPTION OF TABLE USED, 004(3), 003
    # PLAYER BANK 9: also against a player bank); the first wager outside them refuses the round
    faults = refusals(seats, limits if limits is not None else profile.limits_for_table())
    if faults:
        raise RoundError(faults[0])
    meter = obj.get("progressive_meter")
    if meter is not None:
        meter = _cents(meter, "progressive_meter")
    rng = obj.get("rng_number")
    if rng is not None and (isinstance(rng, bool) or not isinstance(rng, int) or not 1 <= rng <= 7):
        raise RoundError(f"rng_number: the RNG displays 1..7, got {rng!r}")
    rnd = Round(profile.name, banking, dealer, tuple(seats), meter, rng)
    if any(s.wagers.get("progressive") for s in seats) and meter is None:
        raise RoundError("progressive_meter: a progressive wager needs the meter reading in cents")
    if any(s.additional for s in seats) and rng is None:
        raise RoundError("rng_number: an additional wager needs the number the RNG displayed "
                         f"({profile.cite('additional_number')})")
    return rnd


def _check_round(seats: list[Seat], dealer: Hand | None, banking: Banking, profile: RuleProfile, obj) -> None:
    numbers = [s.seat for s in seats]
    for n in set(numbers):
        if numbers.count(n) > 1:
            raise RoundError(f"seats: seat {n} appears twice")
    # no card twice across the hands on the table
    owner: dict[int, str] = {}
    hands = ([("dealer", dealer)] if dealer else []) + [(f"seat {s.seat}", s.hand) for s in seats]
    from .cards import card_str
    for who, h in hands:
        for c in h.cards:
            if c in owner:
                raise RoundError(f"card {card_str(c)} is dealt to both {owner[c]} and {who}")
            owner[c] = who
    for s in seats:
        where = f"seat {s.seat}"
        banker = banking.mode != "house" and s.seat == banking.seat
        if s.hand.high is None and not (banker and banking.mode in ("co-bank", "player-dealer")) \
                and not (banker and banking.mode == "player") and not s.surrender:
            raise RoundError(f"{where}: the player's high and low hands are required (only the dealer's and a "
                             f"co-bank's hands are set by the house way)")
        if banker and banking.mode == "player" and s.hand.high is None:
            raise RoundError(f"{where}: the player bank sets its own hands; give 'high' and 'low'")
        if not banker and s.wagers.get("base", 0) == 0 and not s.bettors:
            raise RoundError(f"{where}: a seat in the round needs a base wager ({profile.cite('wagers')})")
        if banker and s.wagers.get("base"):
            raise RoundError(f"{where}: the bank does not wager against itself")
        if banker and banking.mode == "player-dealer" and (s.wagers or s.additional):
            raise RoundError(f"{where}: the player-dealer does not wager against itself (002)")
        prog = s.wagers.get("progressive", 0)
        if prog and prog not in (100, 500):
            raise RoundError(f"{where}.wagers.progressive: the progressive wager is $1.00 or $5.00 "
                             f"({profile.cite('progressive_wager')}), "
                             f"got {dollars(prog)}")
        if s.surrender:
            if profile.surrender == "forbidden":
                raise RoundError(f"{where}.surrender: profile {profile.name!r} does not allow surrender")
            # only the base wager is surrendered and the seven cards are collected unseen
            # (000(l)(4)(ii)), so no wager that looks at them may be at stake: 000(l)(4) and
            # 001 11.9(e) name the progressive and seven-card wagers; the bonus, insurance and
            # Ace-High wagers look at the same seven cards (000(r)(4)(ii), 001 11.15(d)2)
            at_stake = [k for k in ("progressive", "seven_card", "fortune", "fortune_toke", "insurance", "ace_high")
                        if s.wagers.get(k)]
            if at_stake:
                raise RoundError(f"{where}.surrender: not allowed with a {', '.join(at_stake)} wager at stake "
                                 f"({noted(profile.cite('surrender'), 'the seven cards are collected unseen')})")
            # 003 GENERAL RULES 12 and 000(r)(4)(ii): with an envy bet on the game every hand
            # receives action, where hands without a bonus wager count for envy
            if profile.envy.counts_nonbetting_hands and any(
                    o.wagers.get("fortune", 0) >= profile.envy.minimum_wager_cents for o in seats):
                raise RoundError(f"{where}.surrender: there is an envy bet on the game, so every hand receives "
                                 f"action (003 GENERAL RULES 12, 000(r)(4)(ii))")
            if banker:
                raise RoundError(f"{where}.surrender: the bank cannot surrender")
        if s.prepaid_commission and not profile.commission.prepaid_allowed:
            raise RoundError(f"{where}.prepaid_commission: profile {profile.name!r} does not take prepaid commission")
        if banker and s.bettors:
            raise RoundError(f"{where}.bettors: nobody wagers on the bank's circle")
        if len(s.bettors) + 1 > profile.bettors_per_circle:
            raise RoundError(f"{where}.bettors: at most {profile.bettors_per_circle} bettors on one circle "
                             f"(003 PLAYERS WAGERING ON ANOTHER PLAYER'S HAND 1)")
    # 003 DEALER BANK 15: a player with a hand may bet on one other hand; one without, on two
    seated_players = {s.player for s in seats}
    bets_by: dict[str, list[int]] = {}
    for s in seats:
        for b in s.bettors:
            if b.name == s.player:
                raise RoundError(f"seat {s.seat}.bettors: {b.name!r} is the seated player of this circle")
            bets_by.setdefault(b.name, []).append(s.seat)
    for who, circles in bets_by.items():
        most = 1 if who in seated_players else 2
        if len(circles) > most:
            raise RoundError(f"bettor {who!r} bets on seats {circles}: at most {most} other hand(s) "
                             "(003 DEALER BANK 15)")
    # 000(o)(1), 001 11.12(a): one player on at most two betting areas, adjacent
    by_player: dict[str, list[int]] = {}
    for s in seats:
        by_player.setdefault(s.player, []).append(s.seat)
    for player, areas in by_player.items():
        if len(areas) > profile.adjacent_areas:
            raise RoundError(f"player {player!r} wagers on seats {areas}: at most {profile.adjacent_areas} "
                             f"betting area(s) ({profile.cite('betting_areas')})")
        if len(areas) == 2 and abs(areas[0] - areas[1]) != 1:
            raise RoundError(f"player {player!r} wagers on seats {areas}: the two areas must be adjacent "
                             f"({profile.cite('betting_areas')})")
    if banking.mode != "house":
        if banking.seat not in numbers:
            raise RoundError(f"banking.seat: seat {banking.seat} has no hand in this round")
        bank_player = next(s.player for s in seats if s.seat == banking.seat)
        if len(by_player[bank_player]) > 1:
            raise RoundError("banking.seat: the bank may only wager on one betting area "
                             f"({profile.cite('bank_one_area')})")
    if banking.mode in ("player", "co-bank"):
        if obj.get("first_round_of_game"):
            raise RoundError("banking.mode: a player may not be the bank at the start of the game "
                             f"({profile.bank.cite_first_round})")
        if banking.mode == "player" and "dealer_wager" not in obj["banking"]:
            raise RoundError("banking.dealer_wager: state the dealer's wager against the bank: the bank's last "
                             f"wager, a lesser amount, or 0 ({profile.cite('dealer_wager')})")
        spot = obj["banking"].get("last_wager_seat")
        if spot is not None and spot != banking.seat:
            raise RoundError(f"banking.seat: the player banker banks only on the spot it last wagered, seat {spot} "
                             "(003 PLAYER BANK 4)")
        if banking.banked_last_round:
            raise RoundError("banking.banked_last_round: no player may bank two consecutive rounds "
                             f"({profile.cite('bank_rotation')})")
        if not banking.last_wager:
            raise RoundError("banking.last_wager: the bank must have wagered against the dealer in the last round "
                             f"without a player bank ({profile.cite('bank_wagered')})")
        cite = profile.bank.cite_co_bank_cover if banking.mode == "co-bank" else profile.bank.cite_cover
        if banking.chips is None:
            raise RoundError(f"banking.chips: the bank's chips on the table are required ({cite})")
        if banking.cover_ruling and not profile.procedures.bank_cover_ruling:
            raise RoundError(f"banking.cover_ruling: profile {profile.name!r} has no supervisor's ruling on the bank's "
                             f"cover; the bank's chips must cover the wagers ({cite})")
        if banking.mode == "co-bank" and banking.dealer_wager:
            raise RoundError("banking.dealer_wager: the dealer may not wager against a co-bank "
                             f"({profile.bank.cite_co_bank_cover})")
        if banking.dealer_prepaid_commission and banking.dealer_wager > banking.last_wager:
            raise RoundError("banking.dealer_prepaid_commission: the bank may have Lucky Money or prepaid "
                             "commission, not both (003 PLAYER BANK 7)")
        if banking.dealer_prepaid_commission and not profile.commission.prepaid_allowed:
            raise RoundError(f"banking.dealer_prepaid_commission: profile {profile.name!r} does not take prepaid "
                             "commission")
        if banking.mode == "player" and banking.dealer_wager:
            cap = banking.last_wager * (100 + profile.lucky_money_percent) // 100
            if banking.dealer_wager > cap:
                raise RoundError(f"banking.dealer_wager: {dollars(banking.dealer_wager)} is more than the bank's "
                                 f"last wager {dollars(banking.last_wager)}" + (f" plus {profile.lucky_money_percent}% Lucky Money "
                                                                  "(003 PLAYER BANK 7)" if profile.lucky_money_percent
                                                                  else f" ({profile.cite('dealer_wager')})"))
    if banking.mode == "player-dealer":
        a = banking.action_seat
        if not isinstance(a, int) or a not in numbers:
            raise RoundError(f"banking.action_seat: the seat holding the action button (002) must be a seat in "
                             f"the round, got {a!r}")
