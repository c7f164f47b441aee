"""Random rounds for the shift simulator: who wagers what, the cards each position is dealt,
how each hand is set, and the round file (docs/round-format.md) the engine settles.

Adapted from tests/support/random_rounds.py, but the cards come from the table's own deal: a shuffled deck
goes through the engine's deal function for the method, starting position, first stack and
delivery the table's events record (app/engine/deal.py), so the round file and the event log
tell the same story: every hand at its true odds.

Only a shift that asks for them (``run_shift(..., plant=True)``, ``pitdesk simulate shift
--plant``: for tests) plants rare hands on purpose (``PLANTS``), so that the approvals and the
W-2G slips they bring turn up in a short shift; the planted cards are swapped in from wherever
the deal put them, so every card is still dealt once. Such a shift's hold means nothing, and its
log says it planted them.

Everything random comes from the ``random.Random`` passed in.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from app.engine import deal
from app.engine.cards import cards_str, parse_cards
from app.engine.houseway import HouseWay
from app.engine.profile import RuleProfile
from app.engine.rank import Ranker, legal_set

BASE_WAGERS = (500, 1000, 1500, 2500, 2600, 5000, 10000, 25000, 50000)
BASE_WEIGHTS = (20, 25, 8, 18, 4, 12, 8, 4, 1)
SIDE_WAGERS = {
    "fortune": ((100, 500, 1000, 2500, 5000), 0.45),
    "insurance": ((100, 500, 1000), 0.3),
    "three_card": ((100, 500, 1000), 0.3),
    "seven_card": ((100, 500, 1000), 0.3),
    "ace_high": ((100, 500, 1000), 0.3),
    "progressive": ((100, 500), 0.35),
}
PD_WAGERS = (5000, 10000, 25000, 100000)  # 002: the player-dealer's wager

# Rare hands placed on purpose: (seven cards, the wagers the target seat must carry)
PLANTS: dict[str, tuple[str, dict[str, int]]] = {
    # a fortune win of 25 to 1: $250 or more in 003 asks the floor supervisor (payoff_threshold)
    "four_of_a_kind": ("9s 9h 9d 9c Kd 7s 2c", {"fortune": 1000}),
    # a seven-card straight flush: 8000 to 1 is over the aggregate limit (aggregate_limit), a W-2G win
    "sf7_natural": ("9h 8h 7h 6h 5h 4h 3h", {"fortune": 2000}),
    # a straight flush on the progressive is paid off the meter (progressive_meter_payout)
    "straight_flush": ("9d 8d 7d 6d 5d Kc 2s", {"progressive": 100}),
    # a natural royal and a pair takes the whole meter (a pit manager's approval, then meter_reset)
    "natural_royal_and_pair": ("As Ks Qs Js Ts 9h 9d", {"progressive": 100}),
}


def plantable(rules: RuleProfile) -> list[str]:
    """The planted hands that bring something about at a table of ``rules``: a payoff over the
    profile's threshold, a win over its aggregate limit, a progressive hit paid off the meter,
    the meter's top award (which the controller's reset follows)."""
    options = []
    if "fortune" in rules.side_bets and rules.limits.approval_threshold_cents is not None:
        options.append("four_of_a_kind")
    if "fortune" in rules.side_bets and (rules.limits.per_table_cents or any(
            "fortune" in w for _, w in rules.limits.per_player)):
        options.append("sf7_natural")
    if "progressive" in rules.side_bets:
        options += ["straight_flush", "natural_royal_and_pair"]
    return options


@dataclass
class SeatPlan:
    seat: int
    player: str
    wagers: dict[str, int] = field(default_factory=dict)
    additional: dict[str, int] = field(default_factory=dict)
    prepaid: int = 0
    bettors: list[dict] = field(default_factory=list)
    surrender: bool = False
    own_way: bool = False  # the player sets the hand some other way than the house way (maybe a foul)

    @property
    def base(self) -> int:
        return self.wagers.get("base", 0)


def within(rules: RuleProfile, wager: str, amounts) -> list[int]:
    """The amounts within the profile's table limits for the wager (app/engine/tablelimits.py)."""
    lim = rules.limits_for_table().of(wager)
    return [a for a in amounts if lim is None or lim.min <= a <= lim.max]


def win_amount(stake: int, rules: RuleProfile) -> int:
    n, m = rules.payout_odds
    return stake * n // m


def seat_wagers(rng: random.Random, rules: RuleProfile, table: str, seat: int, player: str, banker: bool,
                mode: str, rng_round: bool) -> SeatPlan:
    """One seat's wagers: a base wager (not the bank's), side wagers the profile offers."""
    p = SeatPlan(seat, player)
    if not banker:
        allowed = within(rules, "base", BASE_WAGERS)
        p.wagers["base"] = rng.choices(allowed, [w for a, w in zip(BASE_WAGERS, BASE_WEIGHTS) if a in allowed])[0]
    if mode == "player-dealer" and banker:
        return p  # 002: the player-dealer does not wager against itself
    for bet in rules.side_bets:
        if bet == "additional":
            if rng_round and rng.random() < 0.25:
                p.additional[str(rng.randint(1, 7))] = rng.choice((500, 1000))
            continue
        amounts, chance = SIDE_WAGERS[bet]
        if rng.random() < chance:
            p.wagers[bet] = rng.choice(within(rules, bet, amounts))
    if "fortune" in rules.side_bets and rules.envy.toke_max_payout_cents is not None and rng.random() < 0.05:
        p.wagers["fortune_toke"] = rng.choice((100, 500))  # 003 GENERAL RULES 6: a toke bet
    if not banker and rules.commission.prepaid_allowed and rng.random() < 0.15:
        p.prepaid = rules.commission.on_win(win_amount(p.base, rules))  # 003 COLLECTING 6
    if not banker and rules.bettors_per_circle > 1 and rng.random() < 0.1:
        # 003 PLAYERS WAGERING ON ANOTHER PLAYER'S HAND 2: up to the remaining balance of the table limit
        room = rules.limits_for_table().of("base").max - p.base
        for k in range(rng.randint(1, min(2, rules.bettors_per_circle - 1))):
            amounts = [a for a in within(rules, "base", (500, 1000, 2600)) if a <= room]
            if amounts:
                p.bettors.append({"name": f"{table}-back{seat}{k}", "base": rng.choice(amounts)})
                room -= p.bettors[-1]["base"]
    p.own_way = rng.random() < 0.08
    return p


def choose_surrenders(rng: random.Random, rules: RuleProfile, plans: list[SeatPlan], bank_seat: int | None) -> None:
    """000(l)(4), 001 11.9(e), 004(9): now and then a player with only a base wager surrenders,
    where the profile allows it and no envy bet on the game gives every hand action."""
    if rules.surrender == "forbidden":
        return
    if rules.envy.counts_nonbetting_hands and "envy" in rules.paytables and any(
            p.wagers.get("fortune", 0) >= rules.envy.minimum_wager_cents for p in plans):
        return
    for p in plans:
        if p.seat != bank_seat and set(p.wagers) == {"base"} and not p.additional and not p.bettors \
                and rng.random() < 0.03:
            p.surrender = True


def deal_hands(rng: random.Random, rules: RuleProfile, method: str, start: int | None, first_stack: int,
               in_round: list[int]) -> tuple[dict[int, list[int]], list[int]]:
    """The cards each position receives, by the table's deal (000(h), (i), (j); 001 11.17)."""
    deck = list(range(53))
    rng.shuffle(deck)
    ring = deal.PLAYER_DEALER_TABLE if "player-dealer" in rules.banking_modes else deal.DEALERS_TABLE
    direction = rules.procedures.delivery
    if method == "manual-shoe":
        d = deal.manual_shoe(deck, start, direction, ring)
    elif method == "hand":
        d = deal.from_hand(deck, start, first_stack, direction, ring)
    elif method == "automated-shoe":
        d = deal.automated_shoe(deck, start, direction, ring)
    else:
        d = deal.three_then_four(deck, in_round)
    return {p: list(c) for p, c in d.hands.items()}, list(d.remaining)


def plant(hands: dict[int, list[int]], remaining: list[int], target: int, text: str) -> None:
    """Give ``target`` the seven cards of ``text``, swapping each from wherever it was dealt."""
    want = parse_cards(text, count=7)
    mine = hands[target]
    spare = [c for c in mine if c not in want]
    for c in want:
        if c in mine:
            continue
        out = spare.pop()
        for cards in list(hands.values()) + [remaining]:
            if c in cards:
                cards[cards.index(c)] = out
                break
        mine[mine.index(out)] = c
    # the order dealt: the planted cards in the order given (the three-card bonus reads the first three)
    hands[target] = want


def foul_split(ranker: Ranker, cards: list[int]) -> tuple[list[int], list[int]] | None:
    """A set whose two-card hand outranks the five-card hand (000(n)(10)), if the cards allow one."""
    for i in range(7):
        for j in range(i + 1, 7):
            low = [cards[i], cards[j]]
            high = [c for k, c in enumerate(cards) if k not in (i, j)]
            if not legal_set(ranker, high, low)[0]:
                return high, low
    return None


def other_split(house: HouseWay, cards: list[int]) -> tuple[list[int], list[int]]:
    """A set that is not the house way's (for a dealer hand set wrongly, 000(n)(9))."""
    s = house.set(cards)
    high, low = list(s.high), list(s.low)
    for a in range(5):
        for b in range(2):
            h, lo = high[:], low[:]
            h[a], lo[b] = lo[b], h[a]
            if sorted(lo) != sorted(low):
                return h, lo
    return high, low  # pragma: no cover - seven cards always allow another split


def _set(rng: random.Random, house: HouseWay, cards: list[int], own_way: bool) -> tuple[list[int], list[int]]:
    if own_way:
        mixed = cards[:]
        rng.shuffle(mixed)
        return mixed[:5], mixed[5:]
    s = house.set(cards)
    return list(s.high), list(s.low)


def _text(cards) -> str:
    return " ".join(cards_str(cards))


def round_file(rng: random.Random, rules: RuleProfile, house: HouseWay, ranker: Ranker, hands: dict[int, list[int]],
               plans: list[SeatPlan], banking: dict, meter: int | None, rng_number: int | None,
               first_round: bool, dealer_wrong_way: bool = False, bank_foul: bool = False) -> dict:
    """The round file for the engine (docs/round-format.md)."""
    mode = banking["mode"]
    bank_seat = banking.get("seat")
    rnd: dict = {"profile": rules.name, "banking": banking, "seats": []}
    if mode != "player-dealer":
        cards = hands[0]
        rnd["dealer"] = {"cards": _text(cards)}
        if dealer_wrong_way:
            high, low = other_split(house, cards)
            rnd["dealer"].update(high=_text(high), low=_text(low))
    for p in plans:
        cards = hands[p.seat]
        seat: dict = {"seat": p.seat, "player": p.player, "cards": _text(cards)}
        dealer_sets = p.seat == bank_seat and mode == "co-bank"  # 000(m)(5): the dealer sets it, house way
        if p.surrender and not dealer_sets:
            seat["surrender"] = True
        elif not dealer_sets:
            high, low = _set(rng, house, cards, p.own_way and p.seat != bank_seat)
            if p.seat == bank_seat and bank_foul:
                high, low = foul_split(ranker, cards)
            seat["high"], seat["low"] = _text(high), _text(low)
        seat["wagers"] = dict(p.wagers)
        if p.additional:
            seat["additional"] = dict(p.additional)
        if p.prepaid:
            seat["prepaid_commission"] = p.prepaid
        if p.bettors:
            seat["bettors"] = [dict(b) for b in p.bettors]
        rnd["seats"].append(seat)
    if meter is not None and any(p.wagers.get("progressive") for p in plans):
        rnd["progressive_meter"] = meter
    if rng_number is not None and any(p.additional for p in plans):
        rnd["rng_number"] = rng_number
    if first_round:
        rnd["first_round_of_game"] = True
    return rnd
