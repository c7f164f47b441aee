"""A round played at a simulated table: planned (who plays, the bank and its cover, the wagers, now
and then an irregularity that fits the round, at the shift's fixed rate; a rare hand planted only
when the shift asks for planted hands), then played through the table's procedures at the pit's
workstation until it is settled (a void round is played again with the cards reshuffled,
000(n)): the shuffle and the cut, the deal, the starting position, the hands set and revealed,
the round file loaded and settled at the rounds desk, its approvals decided, its payouts released
with their payout slips, and the round complete. ``Table`` is a ``TableDay``
(app/simulate/table_day.py) that plays its rounds.

Without planted hands the cards come only from the shuffled deck dealt by the table's method:
every hand at its true odds, and nothing played toward an outcome.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import timedelta

from app.engine import position as positions
from app.engine.bank import cover_needed
from app.engine.layout import clockwise_from
from app.engine.irregularities import IRREGULARITIES
from app.engine.rotation import bank_eligibility, bank_offer_order, bank_offer_start, cut_offers

from . import random_rounds as gen
from .staff import Desk
from .table_day import COUNT_WRONG, RNG_FAULT, SHUFFLERS, Item, TableDay

SHOES = ("manual-shoe", "automated-shoe")
PLANT_EVERY = 10       # with planted hands: one every so many rounds at a table whose profile has one
RECUT = 0.02           # a manual shuffle's chance that the supervisor orders a re-cut (000(f)(6))
BANK_OFFERED = 0.3     # a round's chance that the players take up the bank's offer, where they may
COVER_RULING = 0.05    # 003 PLAYER BANK 3: a bank's chance of being short of cover
MISPRINT = 0.1         # a payout slip's chance of being printed wrong, voided and issued again


# -- irregularities: which fit a round, and where they happen ------------------------------
@dataclass
class Context:
    profile: str
    rule_text: str
    method: str
    manual: bool
    dice: bool          # the starting position is counted by dice this round
    mode: str           # house, player, co-bank, player-dealer


FITS: dict[str, Callable[[Context], bool]] = {
    "no_roll": lambda c: c.dice,
    "wrong_dice_total": lambda c: c.dice,
    "player_card_exposed": lambda c: True,
    "dealer_card_exposed": lambda c: c.mode != "player-dealer",
    "card_face_up_in_shoe": lambda c: c.method in SHOES,
    "cards_face_up_in_shoe": lambda c: c.method in SHOES,
    "card_drawn_in_error": lambda c: c.method in ("manual-shoe", "hand"),
    "wrong_number_of_cards": lambda c: True,
    "dealer_hand_not_house_way": lambda c: c.mode != "player-dealer",
    "bank_hand_not_set_correctly": lambda c: c.mode == "player",
    "card_exposed_while_dealing_stacks": lambda c: c.method == "hand",
    "shuffler_jam": lambda c: c.method in SHUFFLERS,
    "incomplete_shuffle": lambda c: c.method in SHUFFLERS,
    "bank_card_exposed": lambda c: c.mode in ("player", "co-bank", "player-dealer"),
    "bank_cards_exposed_by_dealer": lambda c: c.rule_text == "003" and c.mode in ("player", "co-bank"),
    "bank_exposed_own_cards": lambda c: c.rule_text == "003" and c.mode in ("player", "co-bank"),
    "shoe_jam": lambda c: c.method == "automated-shoe",
    "stacks_not_dealt_in_order": lambda c: c.method == "hand",
    "cards_exposed_after_cut": lambda c: c.manual,
    # found by the engine from the counts: 000(h)(4)(ii), 001 11.17(h)-(i)
    "misdeal": lambda c: True,
    "deck_count_wrong": lambda c: True,
}
assert set(IRREGULARITIES) <= set(FITS)


@dataclass
class Plan:
    """One round as the players and the dealer will play it (kept for a void round's replay)."""

    players: dict[int, str]
    seats: list[int]                    # seats with a hand this round, the bank's included
    mode: str = "house"
    bank_seat: int | None = None
    declined: list[int] = field(default_factory=list)
    ruling: bool = False                # 003 PLAYER BANK 3: a doubtful cover for the supervisor
    chips: int | None = None
    cover_said: int | None = None
    last_wager: int | None = None
    dealer_wager: int = 0
    pd_wager: int | None = None
    plans: list[gen.SeatPlan] = field(default_factory=list)
    position_method: str | None = None
    rng_round: bool = False
    irregularity: str | None = None
    plant: str | None = None
    plant_seat: int | None = None
    recut: bool = False
    source: str = "rng"                 # 002: the action count from the RNG or the dice
    action_seat: int | None = None

    @property
    def wagering(self) -> list[int]:
        return [s for s in self.seats if s != self.bank_seat]


class Table(TableDay):
    """A table of the shift that plays its rounds."""

    def __init__(self, shift, index: int, name: str, rounds: int):
        super().__init__(shift, index, name, rounds)
        self.plants = 0                      # planted hands so far (only with the shift's plants)
        self.plant_in: int | None = None     # rounds to the next

    # -- a round -------------------------------------------------------------------------------
    def play_round(self) -> Iterator[Item]:
        self.wait(3, 15)
        yield from self.between_rounds()
        plan = self.plan_round()
        while True:
            outcome = yield from self.attempt(plan)
            if outcome == "settled":
                return
            # 000(n): a void round is played again with the cards reshuffled
            self.stats["void_rounds"] += 1
            plan.irregularity = None
            plan.recut = False
            self.wait(20, 60)
            if self.t + timedelta(minutes=15) >= self.deadline():
                yield from self.change_decks()
            yield from self.stub_count()

    def position_method(self) -> str:
        methods = list(self.rules.procedures.starting_position)
        if "rng" in self.devices and "rng" in methods and "dice" in methods and not self.rng_down \
                and self.chance(RNG_FAULT):
            self.rng_fault = True  # the display is found blank when the dealer reaches for it
            self.rng_down = self.rng.randint(3, 10)
        if self.rng_down and "dice" in methods and len(methods) > 1:
            return "dice"  # 003 NOTE: dice when the random number generator is not working
        if self.rules.rule_text == "003":
            return "rng"
        return self.rng.choice(methods)

    def plan_round(self) -> Plan:
        s = self.state
        players = {seat: self.owner[seat] for seat in s.seated}
        rules = self.rules
        # who plays this round (a player with two areas plays both or neither)
        sitting_out = {p for p in sorted(set(players.values())) if self.rng.random() < 0.08}
        seats = [x for x in s.seated if players[x] not in sitting_out] or list(s.seated)
        plan = Plan(players, seats)
        method_pos = None if self.method == "three-four" else self.position_method()
        plan.position_method = method_pos
        plan.rng_round = method_pos == "rng"
        if method_pos == "action":
            plan.source = "dice" if self.rng.random() < 0.2 else "rng"
        # the bank
        if self.face_up:
            plan.mode = "player-dealer"
            if self.pd_seat not in s.seated or self.pd_hands >= 2:
                # 002: the player-dealer position goes clockwise after every two hands
                ring = clockwise_from(self.pd_seat if self.pd_seat in self.seats else 1, self.seats)
                after = ring[1:] + ring[:1] if self.pd_seat in s.seated else ring
                self.pd_seat = next(x for x in after if x in s.seated)
                self.pd_hands = 0
            plan.bank_seat = self.pd_seat
            if plan.bank_seat not in plan.seats:
                plan.seats = sorted(plan.seats + [plan.bank_seat])
            if len(plan.seats) < 2:
                plan.seats = sorted(s.seated)
            plan.pd_wager = self.rng.choice(gen.PD_WAGERS)
        elif {"player", "co-bank"} & set(rules.banking_modes) and s.rounds_played > 0:
            self.plan_bank(plan)
        # wagers
        for seat in plan.seats:
            plan.plans.append(gen.seat_wagers(self.rng, rules, self.id, seat, players[seat], seat == plan.bank_seat,
                                              plan.mode, plan.rng_round))
        self.plan_plant(plan)
        gen.choose_surrenders(self.rng, rules, plan.plans, plan.bank_seat)
        if plan.mode in ("player", "co-bank"):
            self.plan_cover(plan)
        plan.irregularity = self.plan_irregularity(plan)
        manual = self.method in ("manual-shoe", "hand")
        plan.recut = manual and self.chance(RECUT)
        return plan

    def plan_bank(self, plan: Plan) -> None:
        """000(m)(3)-(4), 001 11.10(c), 003 PLAYER BANK 1-2: the offer order and who accepts."""
        s, rules = self.state, self.rules
        if rules.procedures.bank_rotation == "each-round":
            first = bank_offer_start(s.rounds_played)
            passed = s.last_bank
        else:
            first = s.banked_this_rotation[-1] % 7 + 1 if s.banked_this_rotation else 1
            passed = s.banked_this_rotation
        modes = [m for m in rules.banking_modes if m in ("player", "co-bank")]
        if first is None or not self.chance(BANK_OFFERED):
            return
        wagered = s.wagered_last_unbanked or ()
        declined = []
        for seat in bank_offer_order(first, s.seated):
            if not bank_eligibility(seat, passed, wagered, None, None, rules)[0]:
                continue
            player = plan.players[seat]
            areas = [x for x in plan.seats if plan.players[x] == player]
            others = [x for x in plan.seats if plan.players[x] != player]
            can = seat in plan.seats and len(areas) == 1 and others and seat in self.last_wager_of
            if can and self.rng.random() < 0.6:
                plan.mode = self.rng.choice(modes)
                plan.bank_seat = seat
                plan.declined = declined
                plan.last_wager = self.last_wager_of[seat]
                return
            declined.append(seat)

    def plan_cover(self, plan: Plan) -> None:
        """000(m)(4)(ii): the bank's chips cover every wager as if all won (the dealer's too where the
        profile reads it so); a co-bank half (003 #16)."""
        rules = self.rules
        if plan.mode == "player":
            cap = plan.last_wager * (100 + rules.lucky_money_percent) // 100
            plan.dealer_wager = self.rng.choice([0, plan.last_wager // 2, plan.last_wager, plan.last_wager, cap])
        stakes = [p.base for p in plan.plans if p.seat != plan.bank_seat and not p.surrender]
        stakes += [b["base"] for p in plan.plans for b in p.bettors if not p.surrender]
        # the engine's own reckoning, with the profile's reading of the dealer's wager (app/engine/bank.py)
        cover = cover_needed([gen.win_amount(x, rules) for x in stakes], gen.win_amount(plan.dealer_wager, rules),
                             rules.bank.covers_dealer_wager, plan.mode == "co-bank")
        plan.chips = cover + self.rng.randrange(0, 50_000, 100)
        plan.cover_said = cover
        # 003 PLAYER BANK 3: the chips on the table fall short of the wagers; the floor supervisor
        # lets the game proceed and the banker answers for all outcomes (003 Important Note)
        if rules.procedures.bank_cover_ruling and cover > 100 and self.chance(COVER_RULING):
            plan.ruling = True
            plan.chips = self.rng.randrange(0, cover, 100)

    def plan_plant(self, plan: Plan) -> None:
        """Only when the shift asks for planted hands (for tests): every ``PLANT_EVERY`` rounds or
        so, the next of the rare hands the profile can show (app/simulate/random_rounds.py
        ``plantable``) at a player's seat, in turn."""
        if not self.shift.plant:
            return
        options = gen.plantable(self.rules)
        targets = [p for p in plan.plans if p.seat != plan.bank_seat]
        if not options or not targets:
            return
        if self.plant_in is None:
            self.plant_in = self.rng.randint(1, PLANT_EVERY)
        self.plant_in -= 1
        if self.plant_in > 0:
            return
        self.plant_in = PLANT_EVERY
        name = options[self.plants % len(options)]
        self.plants += 1
        self.stats["plants"] += 1
        target = self.rng.choice(targets)
        cards, wagers = gen.PLANTS[name]
        limits = self.rules.limits_for_table()
        for k, v in wagers.items():
            lim = limits.of(k)
            target.wagers[k] = v if lim is None else min(max(v, lim.min), lim.max)
        target.surrender = False
        target.own_way = False
        plan.plant, plan.plant_seat = name, target.seat

    def plan_irregularity(self, plan: Plan) -> str | None:
        dice = plan.position_method in ("dice", "two-dice") or (plan.position_method == "action"
                                                                  and plan.source == "dice")
        ctx = Context(self.rules.name, self.rules.rule_text, self.method, self.method in ("manual-shoe", "hand"),
                      dice, plan.mode)
        kinds = [k for k, fits in FITS.items() if fits(ctx)]
        if self.rng.random() < self.shift.irregularity_rate:
            return self.rng.choice(kinds)
        return None

    # -- one attempt at a round: settled, or void --------------------------------------------
    def attempt(self, plan: Plan) -> Iterator[Item]:
        irr = plan.irregularity
        yield from self.shuffle(plan)
        # the count carries over from the table's last game, which the first round of a game
        # may already owe; the stub is not counted while the table is opening
        yield from self.stub_count()
        # the bank, then the cut (000(f)(4)(ii): the bank is offered the cut first)
        while True:
            if plan.mode != "house":
                yield from self.declare_bank(plan)
            if self.state.manual_shuffle:
                yield from self.cut()
                if irr == "cards_exposed_after_cut":
                    irr = None
                    count = self.rng.choice((1, 3, 3, 4))
                    yield from self.irregularity("cards_exposed_after_cut", count=count)
                    if self.state.state == "shuffling":  # three or more: reshuffle (003 EXPOSED CARDS 1)
                        self.wait(60, 120)
                        yield from self.complete_shuffle(plan)
                        continue
                if plan.recut:
                    yield from self.recut()
            break
        self.wait(8, 25)
        yield self.ev("no_more_bets", method=self.method, wagers=plan.wagering)
        rng_number = None
        if self.method == "three-four":
            hands, remaining = gen.deal_hands(self.rng, self.rules, self.method, None, 1, plan.seats)
            if (yield from self.dealt(len(remaining), len(plan.seats) + 1, irr)) == "void":
                return "void"
        else:
            first_stack = self.rng.randint(1, 7) if plan.mode in ("player", "co-bank") else 1  # 000(m)(9)
            if self.method == "hand":
                if irr == "card_exposed_while_dealing_stacks":
                    yield from self.irregularity(irr)
                    return "void"
                if (yield from self.dealt(4, 7, irr)) == "void":
                    return "void"
                if irr == "stacks_not_dealt_in_order":
                    yield from self.irregularity(irr)
                    return "void"
            start, rng_number = yield from self.position(plan, irr)
            if start is None:
                return "void"
            hands, remaining = gen.deal_hands(self.rng, self.rules, self.method, start, first_stack, plan.seats)
            if self.method in SHOES:
                if irr == "shoe_jam" and self.method == "automated-shoe":
                    # 000(n)(14): the shoe reports its jam; the workstation logs the fault and the void round
                    self.wait(5, 20)
                    yield from self.device_irregularity("shoe", {"type": "shoe_jam", "code": 2,
                                                                 "text": "card jam in the dispensing path"})
                    return "void"
                if irr == "card_face_up_in_shoe":
                    yield from self.irregularity(irr)
                if irr == "cards_face_up_in_shoe":
                    yield from self.irregularity(irr, count=2)
                    return "void"
                if (yield from self.dealt(4, 7, irr)) == "void":
                    return "void"
        if plan.plant:
            gen.plant(hands, remaining, plan.plant_seat, gen.PLANTS[plan.plant][0])
        in_round = [p for p in plan.plans]
        # irregularities while the hands are being set
        if irr in ("player_card_exposed", "card_drawn_in_error", "bank_cards_exposed_by_dealer",
                   "bank_exposed_own_cards", "dealer_card_exposed", "wrong_number_of_cards", "bank_card_exposed"):
            self.wait(5, 20)
            if irr == "player_card_exposed":
                choices = [p for p in in_round if p.seat != plan.bank_seat]
                victim = self.rng.choice(choices)
                others = [p for p in choices if p is not victim and not p.surrender]
                option = "void" if others and victim.seat != plan.plant_seat and self.rng.random() < 0.5 else "play"
                yield from self.irregularity(irr, seat=victim.seat, option=option)
                if option == "void":  # 000(n)(4): the hand is dead and its wagers returned
                    in_round = [p for p in in_round if p is not victim]
            elif irr == "bank_cards_exposed_by_dealer":
                yield from self.irregularity(irr, count=self.rng.choice((3, 4)), option="play")
            else:
                yield from self.irregularity(irr)
                if self.state.void:
                    return "void"
        self.wait(10, 25)
        yield self.ev("hands_set")
        dealer_wrong = bank_foul = False
        if irr == "dealer_hand_not_house_way":
            dealer_wrong = True
            yield from self.irregularity(irr)
        if irr == "bank_hand_not_set_correctly":
            bank = hands[plan.bank_seat]
            if gen.foul_split(self.ranker, bank) is not None:
                bank_foul = True
                yield from self.irregularity(irr)
        self.wait(5, 15)
        yield self.ev("revealed")
        yield from self.settle(plan, in_round, hands, rng_number, dealer_wrong, bank_foul)
        return "settled"

    def shuffle(self, plan: Plan) -> Iterator[Item]:
        if self.state.state in ("opening", "round_complete", "betting"):
            self.wait(3, 10)
            yield self.ev("shuffle_started")
        yield from self.complete_shuffle(plan)

    def complete_shuffle(self, plan: Plan) -> Iterator[Item]:
        manual = self.method in ("manual-shoe", "hand")
        while True:
            irr = plan.irregularity
            if irr in ("shuffler_jam", "incomplete_shuffle"):
                plan.irregularity = None
                self.wait(10, 40)
                if irr == "shuffler_jam" and "shuffler" in self.devices:
                    # 000(n)(13): the shuffler reports its jam; the workstation logs the fault and the event
                    yield from self.device_irregularity("shuffler", {"type": "jam", "code": 21,
                                                                     "text": "cards jammed in the elevator"})
                else:
                    yield from self.irregularity(irr)
                self.wait(30, 90)
            self.wait(20, 45) if manual else self.wait(5, 15)
            decks = list(self.state.decks)
            deck = next((d for d in decks if d != self.state.last_deck_dealt), decks[0]) if len(decks) == 2 \
                else decks[0]
            count = None
            if self.counting:
                count = 52 if self.chance(COUNT_WRONG / 3) else 53
            changed = yield self.ev("shuffle_completed", deck=deck, manual=manual,
                                    **({"card_count": count} if count else {}))
            if self.state.state == "betting":
                return
            # 001 11.17(i): the shuffler counted a wrong number; the deck is gone
            if changed.alarms:
                yield from self.acknowledge()
            yield from self.new_decks()
            if self.state.state == "opening":
                self.wait(5, 20)
                yield self.ev("shuffle_started")

    def declare_bank(self, plan: Plan) -> Iterator[Item]:
        self.wait(5, 15)
        if plan.mode == "player-dealer":
            yield self.ev("bank_declared", mode="player-dealer", seat=plan.bank_seat)
            return
        data = {"mode": plan.mode, "seat": plan.bank_seat, "declined": list(plan.declined), "chips": plan.chips,
                "cover": plan.cover_said}
        if plan.ruling:
            # 003 PLAYER BANK 3: the floor supervisor lets the game proceed; the banker answers for all
            self.wait(20, 90)
            yield self.ev("bank_declared", ruling="proceed", **data)
        else:
            yield self.ev("bank_declared", **data)
        if plan.mode == "player":
            self.wait(5, 20)
            yield self.ev("dealer_wager_placed", cents=plan.dealer_wager, last_wager=plan.last_wager)

    def cut_offers(self) -> list[int]:
        s = self.state
        bank = s.bank[0] if s.bank and s.bank_mode in ("player", "co-bank") else None
        return cut_offers(s.rounds_played == 0, s.first_player, bank, s.rounds_without_bank, s.seated)

    def cut(self) -> Iterator[Item]:
        """000(f)(3)-(5): offered in order; the dealer cuts when nobody accepts."""
        offers = self.cut_offers()
        declined = []
        for by in offers:
            if by == 0 or self.rng.random() < 0.7:
                break
            declined.append(by)
        self.wait(5, 15)
        yield self.ev("cut", depth=self.rng.randint(10, 43), by=by, **({"declined": declined} if declined else {}))

    def recut(self) -> Iterator[Item]:
        """000(f)(6): a supervisor orders a re-cut, by the last cutter or the next entitled."""
        self.wait(5, 20)
        yield self.ev("recut_ordered")
        last, offers = self.state.last_cutter, self.cut_offers()
        by = last
        if last in offers and offers.index(last) + 1 < len(offers) and self.rng.random() < 0.3:
            by = offers[offers.index(last) + 1]  # the last cutter passes it to the next entitled
        self.wait(5, 20)
        yield self.ev("cut", depth=self.rng.randint(10, 43), by=by)

    def dealt(self, remaining: int, hands: int, irr: str | None) -> Iterator[Item]:
        """000(h)(4), (i)(4), (j)(5): the four-card check (001 11.17(h): the stub count for 3+4)."""
        self.wait(10, 25)
        sizes = [7] * hands
        if irr == "misdeal":
            sizes[0], sizes[-1] = 6, 8
        elif irr == "deck_count_wrong" and self.method != "three-four":
            remaining = 3
        data = {"remaining": remaining}
        if self.method == "three-four" or irr == "misdeal":
            data["hand_sizes"] = sizes
        changed = yield self.ev("dealt", **data)
        if self.state.void:
            if changed.alarms:
                yield from self.acknowledge()
            if not self.state.decks:
                yield from self.new_decks()
            return "void"
        return "ok"

    def position(self, plan: Plan, irr: str | None) -> Iterator[Item]:
        """000(k), 004(4), 002: the count, and what goes wrong with dice."""
        method = plan.position_method
        s = self.state
        bank = s.bank[0] if s.bank and s.bank_mode in ("player", "co-bank") else None
        source = plan.source
        uses_dice = method in ("dice", "two-dice") or (method == "action" and source == "dice")
        if self.rng_fault:
            # 003 NOTE: the display is blank (its link drops); the dice are used while it is down
            self.rng_fault = False
            yield self.link("rng", "online", "offline", "display blank")
            yield from self.acknowledge()
        self.wait(3, 10)
        if irr == "no_roll" and uses_dice:
            yield from self.irregularity("no_roll")
        d3 = lambda: sum(self.rng.randint(1, 6) for _ in range(3))  # noqa: E731
        if method == "dice":
            value = d3()
            found = positions.dice(value, bank)
        elif method == "rng":
            value = self.rng.randint(1, 7)
            found = positions.rng(value, bank)
        elif method == "button":
            value = None
            found = positions.button(s.rounds_played)
        elif method == "two-dice":
            value = self.rng.randint(1, 6) + self.rng.randint(1, 6)
            found = positions.two_dice(value)
        else:
            value = d3() if source == "dice" else self.rng.randint(1, 7)
            found = positions.action_button(value, plan.bank_seat)
        data = {"method": method, "position": found.position}
        if value is not None:
            data["value"] = value
        if method == "action":
            data["source"] = source
        yield self.ev("position_determined", **data)
        if irr == "wrong_dice_total" and uses_dice:
            yield from self.irregularity("wrong_dice_total")
            return None, None
        plan.action_seat = found.action_button
        return found.position, value if method == "rng" else None

    def device_irregularity(self, cls: str, message: dict) -> Iterator[Item]:
        """The table's device reports an irregularity (its fault and the event, through the
        workstation's pump); the floor supervisor acknowledges its alarm."""
        changed = yield self.device(cls, message)
        if changed.alarms:
            yield from self.acknowledge()

    # -- settlement ------------------------------------------------------------------------
    def round_file(self, plan: Plan, in_round: list[gen.SeatPlan], hands, rng_number, dealer_wrong: bool,
                   bank_foul: bool) -> dict:
        """The round as the desk enters it (docs/round-format.md), the meter as the log last read it."""
        banking: dict = {"mode": plan.mode}
        if plan.mode in ("player", "co-bank"):
            banking.update(seat=plan.bank_seat, chips=plan.chips, last_wager=plan.last_wager)
            if plan.ruling:
                banking["cover_ruling"] = True
            if plan.mode == "player":
                banking["dealer_wager"] = plan.dealer_wager
        elif plan.mode == "player-dealer":
            # 002: settlement runs clockwise from the action button; when the count puts it at an
            # empty seat (or a hand voided), the next seat in the round clockwise holds it
            seats = [p.seat for p in in_round]
            ring = clockwise_from(plan.action_seat, self.seats)
            action = next(x for x in ring if x in seats and x != plan.bank_seat)
            banking.update(seat=plan.bank_seat, wager=plan.pd_wager, action_seat=action)
        return gen.round_file(self.rng, self.rules, self.house, self.ranker, hands, in_round, banking, self.meter,
                              rng_number, self.state.rounds_played == 0, dealer_wrong, bank_foul)

    def settle(self, plan: Plan, in_round: list[gen.SeatPlan], hands, rng_number, dealer_wrong: bool,
               bank_foul: bool) -> Iterator[Item]:
        """The round file loaded and settled at the rounds desk (as ``pitdesk settle`` settles it),
        its approvals decided, its payouts released with their payout slips (W-2G data where a win
        needs it), a misprinted slip now and then voided and issued again; the round complete."""
        obj = self.round_file(plan, in_round, hands, rng_number, dealer_wrong, bank_foul)
        self.wait(5, 15)
        table = self.id

        def enter(desk: Desk):
            ws = desk.signed(desk.operator(desk.clock()))
            ws.rounds.load(table, obj)
            return ws.rounds.settle(table).result
        result = yield self.call(enter)
        after = (result.logged.get("progressive_meter") or {}).get("after")
        if after is not None:
            self.meter = after
        # the approvals the round cannot be paid without
        yield from self.decide([a.request for a in result.approvals if a.status == "pending"])
        whole_meter = any(a.kind == "progressive_meter_payout" and a.role_needed == "pit manager"
                          for a in result.approvals)
        yield from self.release(result, plan)
        if whole_meter:
            # 000(q)(6): the meter paid in full is funded back to its reset amount on the controller,
            # a reset the pit manager approves
            self.wait(30, 120)
            changed = yield self.device("progressive", {"type": "reset", "cents": self.meter})
            yield from self.decide(sorted(changed.approvals))
        self.wait(5, 15)
        yield self.ev("settled")
        self.stats["rounds"] += 1
        if plan.mode == "house":
            self.last_wager_of = {p.seat: p.base for p in plan.plans if p.base}
        if plan.mode == "player-dealer":
            self.pd_hands += 1

    def release(self, result, plan: Plan) -> Iterator[Item]:
        """The floor supervisor releases the settled round's payouts (``result``: the round as
        settled), signing their payout slips."""
        settlement = result.settlement
        self.wait(5, 15)
        payees = {p.seat: self.payee(plan.players.get(p.seat, f"seat {p.seat}")) for p in result.payouts if p.w2g}
        if any(p.slip_reason for p in result.payouts):
            self.wait(15, 75)

        def release(desk: Desk):
            return desk.signed(desk.operator(desk.clock())).rounds.release(settlement, payees).result
        released = yield self.call(release)
        for p in released.payouts:
            if p.slip is not None and self.chance(MISPRINT):
                yield from self.misprint(p.slip, payees.get(p.seat))

    def payee(self, player: str) -> dict:
        """The W-2G data the player shows (IRS Form W-2G: name, address, TIN, identification)."""
        n = self.rng.randrange(10**8, 10**9)
        return {"name": f"{player} (simulated)", "address": f"{self.rng.randint(1, 999)} Main Street, Reno NV",
                "tin": f"{n // 10**6:03d}-{n // 10**4 % 100:02d}-{n % 10**4:04d}", "id_type": "driver license",
                "id_number": f"D{self.rng.randrange(10**7, 10**8)}"}

    def misprint(self, number: int, payee: dict | None) -> Iterator[Item]:
        """A slip printed wrong: the floor supervisor voids it and issues it again, numbered next."""
        self.wait(30, 120)

        def void(desk: Desk):
            desk.signed(desk.operator(desk.clock())).rounds.void_slip(number, "printed with the wrong seat")
        yield self.call(void)
        self.wait(10, 40)

        def again(desk: Desk):
            desk.signed(desk.operator(desk.clock())).rounds.reissue_slip(number, payee)
        yield self.call(again)
