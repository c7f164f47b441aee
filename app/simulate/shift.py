"""A whole pit shift in simulated time, through the real engine, into the audit store.

``run_shift(db, tables, rounds, start, seed)`` opens ``tables`` tables and plays ``rounds``
settled rounds at each, logging everything a pit logs: users and sign-ins, table
configuration, every table event (validated by ``app.engine.procedure.apply`` before it is
logged, exactly as ``Floor.record`` does), settlements with their approval requests and meter
readings (``Floor.settle``), approval decisions, payout slips (some with W-2G data, some
voided), irregularities with the supervisor's acknowledgement, deck and dice changes, alarms
and device faults. Timestamps run from ``start`` at a table's pace (a round every 1.5 to 3
minutes); the run itself never sleeps.

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
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from app.engine import position as positions
from app.engine.bank import cover_needed
from app.engine.layout import clockwise_from
from app.engine.procedure import (IRREGULARITIES, Event, Refused, TableState, apply, deck_deadline, dice_deadline,
                                  table_seats)
from app.engine.round import RoundError, parse_round
from app.engine.rotation import bank_eligibility, bank_offer_order, bank_offer_start, cut_offers
from app.engine.settle import settle
from app.rules.resources import names, profile
from app.store import rows
from app.store.approvals import Approvals
from app.store.floor import Floor
from app.store.log import AuditLog, Record
from app.store.slips import Slips, needs_w2g
from app.store.users import Session, Users
from app.store.write_behind import WriteBehind

from . import random_rounds as gen

SIM_PIN = "2468"
START_FORMAT = "%Y-%m-%d %H:%M"
EAGER = 0.5           # the chance of showing something the shift has not shown yet, when it fits
SLIP_MIN_CENTS = 50_000  # payout slips for wins of $500 or more
SHOES = ("manual-shoe", "automated-shoe")
SHUFFLERS = ("automated-shoe", "three-four")
COLOURS = ("red", "blue", "green", "black", "purple", "orange", "grey")
SETTLING_ONLY = ("bank", "player-dealer", "dealer wager", "collection fee")


class ShiftError(ValueError):
    """Bad arguments for a shift; the message names the fault."""


class SimulationError(RuntimeError):
    """The simulator produced something the engine refused: a bug in the simulator."""


def parse_start(text: str) -> datetime:
    for fmt in (START_FORMAT, "%Y-%m-%dT%H:%M"):
        try:
            return datetime.strptime(text.strip(), fmt)
        except ValueError:
            pass
    raise ShiftError(f"--start: expected a time like 2026-11-21 14:00 (YYYY-MM-DD HH:MM), got {text!r}")


@dataclass
class Store:
    batch: WriteBehind
    floor: Floor
    approvals: Approvals
    slips: Slips
    sessions: dict[str, Session]


@dataclass
class Item:
    """One step of a table, at its simulated time: ``fn(store)`` does it; its value goes back."""

    time: datetime
    fn: Callable[[Store], Any]


class Coverage:
    """What the shift has shown so far, shared by the tables."""

    def __init__(self) -> None:
        self.seen: Counter = Counter()

    def want(self, key) -> bool:
        return self.seen[key] == 0

    def saw(self, key) -> None:
        self.seen[key] += 1


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


class Table:
    def __init__(self, shift: "Shift", index: int, profiles: list[tuple[str, int]]):
        self.shift = shift
        self.index = index
        self.id = f"T{index + 1}"
        self.rng = random.Random(shift.rng.getrandbits(64))
        self.sessions = profiles
        self.dealer = f"dealer-{self.id}"
        self.fs = shift.floor_supervisors[index * len(shift.floor_supervisors) // max(1, shift.n_tables)]
        self.pm = shift.pit_manager
        self.t = shift.start + timedelta(minutes=2 * index, seconds=self.rng.randint(0, 59))
        self.state = TableState()
        self.players = 0
        self.decks_made = 0
        self.meter: int | None = None
        self.rng_down = 0
        self.rng_fault = False
        self.dice_change_at: datetime | None = None
        self.owner: dict[int, str] = {}   # seat -> the player seated there

    # -- profile ---------------------------------------------------------------------------
    def use(self, name: str) -> None:
        self.profile = profile(name)
        self.rules = self.profile.rules
        self.ranker = self.profile.ranker()
        self.house = self.profile.house()
        self.seats = table_seats(self.rules)
        self.face_up = "player-dealer" in self.rules.banking_modes
        self.last_wager_of: dict[int, int] = {}
        self.pd_seat: int | None = None
        self.pd_hands = 0
        if "progressive" in self.rules.side_bets:
            self.meter = self.rules.progressive_reset_cents + self.rng.randrange(0, 500_000, 100)
        else:
            self.meter = None

    # -- helpers ---------------------------------------------------------------------------
    @property
    def cov(self) -> Coverage:
        return self.shift.coverage

    @property
    def stats(self) -> Counter:
        return self.shift.stats

    def wait(self, low: int, high: int) -> None:
        self.t += timedelta(seconds=self.rng.randint(low, high))

    def chance(self, p: float, key=None) -> bool:
        if key is not None and self.cov.want(key):
            p = max(p, EAGER)
        return self.rng.random() < p

    def ev(self, type_: str, actor: str | None = None, role: str = "dealer", **data) -> Item:
        """A table event, applied to the table's state now (a refusal is a simulator bug)."""
        event = Event(type_, self.t, actor or self.dealer, role, data)
        old = self.state
        try:
            self.state = apply(old, event, self.rules)
        except Refused as e:
            raise SimulationError(f"table {self.id} ({self.rules.name}) at {self.t.isoformat()}: {e}") from None
        self.stats["decks_received"] += len(set(self.state.decks) - set(old.decks))
        gone = len(set(old.decks) - set(self.state.decks))
        self.stats["decks_removed"] += gone
        if gone and self.state.state != "closed":
            self.stats["decks_changed"] += gone
        for irr in self.state.irregularities[len(old.irregularities):]:
            self.stats["irregularities"] += 1
            self.cov.saw(("irregularity", irr.kind))
        if type_ == "player_seated":
            self.owner[data["seat"]] = event.actor
        if type_ == "dice_placed":
            self.stats["dice_placed"] += 1
            if old.dice_placed is not None:
                self.stats["dice_changed"] += 1
                self.cov.saw("dice_change")
        return self.rec(rows.procedure_event(self.id, event))

    def rec(self, record: Record) -> Item:
        """A row logged now; its seq goes back."""
        key = {"alarm_raised": "alarms", "device_fault": "device_faults", "meter_reading": "meter_readings"}.get(
            record.type)
        if key:
            self.stats[key] += 1
        return Item(self.t, lambda st: st.batch.append_many([record])[0])

    def meter_read(self, source: str) -> Item:
        """The floor supervisor reads the progressive meter (000(q)(5))."""
        return self.rec(rows.meter_reading(self.t, self.fs, "floor supervisor", self.id, self.meter, source))

    def call(self, fn: Callable[[Store], Any]) -> Item:
        return Item(self.t, fn)

    # -- the table's day -----------------------------------------------------------------------
    def run(self) -> Iterator[Item]:
        for name, n_rounds in self.sessions:
            yield from self.configure(name)
            yield from self.open()
            for _ in range(n_rounds):
                yield from self.play_round()
            yield from self.close()

    def configure(self, name: str) -> Iterator[Item]:
        self.use(name)
        t, table, pm = self.t, self.id, self.pm
        yield self.call(lambda st: st.floor.configure(table, name, t, pm, "pit manager"))
        self.stats["tables_configured"] += 1
        self.shift.configured.add(name)

    def choose_method(self) -> str:
        methods = list(self.rules.procedures.deal)
        unseen = [m for m in methods if self.cov.want(("method", self.rules.name, m))]
        if unseen:
            return self.rng.choice(unseen)
        return self.rng.choice(methods)

    def open(self) -> Iterator[Item]:
        self.wait(60, 240)
        self.method = self.choose_method()
        yield from self.new_decks()
        if self.state.dice_placed is None:
            yield self.ev("dice_placed")
            self.plan_dice()
        # 000(f)(4)(i): the first player to the table is offered the first cut
        lo = 3 if self.face_up else 2
        for _ in range(self.rng.randint(lo, len(self.seats))):
            yield from self.seat_player()
        if self.meter is not None:
            yield self.meter_read("opening")

    def seat_player(self) -> Iterator[Item]:
        free = [s for s in self.seats if s not in self.state.seated]
        if not free:
            return
        self.players += 1
        name = f"{self.id}-p{self.players:02d}"
        seat = self.rng.choice(free)
        self.wait(5, 40)
        yield self.ev("player_seated", name, "player", seat=seat)
        # 000(o)(1), 001 11.12: one player may play two adjacent betting areas
        if self.rules.adjacent_areas > 1 and self.rng.random() < 0.15:
            nxt = [s for s in (seat - 1, seat + 1) if s in free and s != seat]
            if nxt:
                yield self.ev("player_seated", name, "player", seat=self.rng.choice(nxt))

    def close(self) -> Iterator[Item]:
        self.wait(30, 120)
        yield self.ev("table_closed")
        for deck in list(self.state.decks):
            self.wait(10, 30)
            yield self.ev("deck_removed", deck=deck)
        if self.meter is not None:
            yield self.meter_read("closing")
        self.wait(60, 300)

    # -- decks and dice --------------------------------------------------------------------
    def deck_count(self) -> int:
        # 000(b)(2): two decks of different backs alternate with a shuffler that needs them
        return 2 if self.method == "automated-shoe" else 1

    def new_decks(self) -> Iterator[Item]:
        """000(e)(1)-(3): received, inspected by the dealer, verified by the floor person, spread, washed."""
        need = self.deck_count() - len(self.state.decks)
        made = []
        for _ in range(need):
            self.decks_made += 1
            colours = [c for c in COLOURS if not any(d.startswith(c) for d in self.state.decks)]
            deck = f"{colours[self.decks_made % len(colours)]}-{self.decks_made:03d}"
            self.wait(10, 40)
            yield self.ev("deck_received", deck=deck)
            made.append(deck)
        for deck in made:
            self.wait(45, 120)
            yield self.ev("deck_inspected", deck=deck)
            self.wait(20, 90)
            yield self.ev("deck_verified", self.fs, "floor supervisor", deck=deck)
            self.wait(10, 30)
            yield self.ev("deck_spread", deck=deck)
            self.wait(20, 60)
            yield self.ev("deck_washed", deck=deck)
        self.counting = self.method in SHUFFLERS and self.rng.random() < 0.5
        self.cov.saw(("method", self.rules.name, self.method))
        # when to change before the deadline: soon while the shift has not shown something
        first = min(d.received for d in self.state.decks.values())
        deadline = self.deadline()
        if any(self.cov.want(("method", self.rules.name, m)) for m in self.rules.procedures.deal) \
                or self.cov.want("deck_change"):
            self.change_at = first + timedelta(minutes=self.rng.randint(10, 30))
        else:
            self.change_at = first + (deadline - first) * self.rng.uniform(0.55, 0.95)

    def due(self) -> tuple[datetime, str]:
        """When the first of the table's decks is due for change, and the rule that says so."""
        return min(deck_deadline(d, self.rules, self.method) for d in self.state.decks.values())

    def deadline(self) -> datetime:
        return self.due()[0]

    def change_decks(self, reason: str) -> Iterator[Item]:
        due, rule = self.due()
        if due - self.t < timedelta(minutes=30):
            yield from self.alarm("deck_due", f"the cards are due for change at {due:%Y-%m-%d %H:%M} ({rule})", rule,
                                  "", f"the cards are changed now ({reason})")
        for deck in list(self.state.decks):
            self.wait(10, 40)
            yield self.ev("deck_removed", deck=deck)
        self.cov.saw("deck_change")
        old = self.method
        self.method = self.choose_method() if self.rng.random() < 0.6 else old
        yield from self.new_decks()

    def plan_dice(self) -> None:
        # dice leave the table within 24 hours (000(d)(1)(ii)); many pits change them sooner
        placed = self.state.dice_placed
        if self.cov.want("dice_change"):
            self.dice_change_at = placed + timedelta(minutes=self.rng.randint(15, 40))
        else:
            self.dice_change_at = placed + timedelta(hours=self.rng.uniform(3, 8))

    def alarm(self, kind: str, message: str, rule: str, serial: str, reason: str) -> Iterator[Item]:
        """Raised by the system, acknowledged by the floor supervisor with ``reason``."""
        seq = yield self.rec(rows.alarm_raised(self.t, self.id, kind, message, rule, serial))
        self.wait(20, 120)
        yield self.rec(rows.alarm_acknowledged(self.t, self.fs, "floor supervisor", self.id, seq, kind, reason))
        self.cov.saw(("alarm", kind))

    def device_fault(self, device: str, code: str, message: str, rule: str) -> Iterator[Item]:
        serial = f"{device}-{self.id}"
        yield self.rec(rows.device_fault(self.t, serial, self.id, device, code, message, serial))
        self.cov.saw(("device", device))
        yield from self.alarm("device_fault", f"{device} {code}: {message}", rule, serial,
                              f"the {device} was seen to at the table")

    # -- approvals and decisions ------------------------------------------------------------
    def decide(self, request: int, role_needed: str, decision: str, reason: str) -> Iterator[Item]:
        by = self.pm if role_needed == "pit manager" else self.fs
        self.wait(20, 150)
        t = self.t
        yield self.call(lambda st: st.approvals.decide(st.sessions[by], request, decision, reason, t))
        self.stats["approvals_decided"] += 1

    def request(self, kind: str, actor: str, role: str, reason: str, seat: int | None = None,
                cents: int | None = None) -> Iterator[Item]:
        t, table = self.t, self.id
        seq = yield self.call(lambda st: st.approvals.request(kind, t, actor, role, table=table, seat=seat,
                                                              cents=cents, reason=reason))
        self.stats["approvals_requested"] += 1
        self.cov.saw(("approval", kind))
        return seq

    def ack_pending(self) -> Iterator[Item]:
        """A floor supervisor acknowledges each irregularity that needs it, now and then after
        an approval request (000(n))."""
        for irr in self.state.pending_acks():
            if self.chance(0.3, ("approval", "irregularity")):
                req = yield from self.request("irregularity", self.dealer, "dealer",
                                              f"{irr.kind}: {irr.consequence}")
                yield from self.decide(req, "floor supervisor", "approved", f"{irr.rule}: confirmed at the table")
            self.wait(15, 90)
            yield self.ev("acknowledged", self.fs, "floor supervisor", ref=irr.ref)

    def irregularity(self, kind: str, **data) -> Iterator[Item]:
        self.wait(5, 40)
        yield self.ev(kind, **data)
        yield from self.ack_pending()

    # -- between rounds --------------------------------------------------------------------
    def between_rounds(self) -> Iterator[Item]:
        s = self.state
        if s.state == "round_complete" and s.rounds_played:
            # players come and go
            lo = 3 if self.face_up else 2
            if len(s.seated) > lo and self.rng.random() < 0.05:
                seat = self.rng.choice(s.seated)
                player = self.owner[seat]
                for x in [x for x in s.seated if self.owner[x] == player]:
                    self.wait(5, 30)
                    yield self.ev("player_left", player, "player", seat=x)
            if len(self.state.seated) < len(self.seats) and self.rng.random() < 0.06:
                yield from self.seat_player()
        # 000(e)(5): the cards before their deadline (and as planned)
        if self.t + timedelta(minutes=15) >= self.deadline() or self.t >= self.change_at:
            yield from self.change_decks("due" if self.t + timedelta(minutes=15) >= self.deadline() else "planned")
        # 000(d)(1)(ii): dice within 24 hours
        if self.t >= self.dice_change_at:
            due, rule = dice_deadline(self.state.dice_placed, self.rules)
            if self.t + timedelta(hours=1) >= due:
                yield from self.alarm("dice_due", f"the dice are due to leave the table at {due:%Y-%m-%d %H:%M} "
                                                  f"({rule})", rule, "", "new dice are placed now")
            self.wait(20, 60)
            yield self.ev("dice_placed")
            self.plan_dice()
        yield from self.stub_count()
        # device faults now and then
        if self.meter is not None and self.chance(0.003, ("device", "progressive")):
            yield from self.progressive_fault()
        if self.rng_down:
            self.rng_down -= 1

    def stub_count(self) -> Iterator[Item]:
        """001 11.17(h): the stub is counted at least once every five rounds (without a counting shuffler)."""
        if self.method == "three-four" and not self.counting and self.state.state in ("round_complete", "betting") \
                and self.state.rounds_since_count >= (4 if self.rng.random() < 0.8 else 2):
            self.wait(20, 60)
            # a short count removes the deck; only between rounds (in betting the engine would
            # remove the deck just shuffled but keep it as the deck in play)
            wrong = self.state.state == "round_complete" and self.chance(0.01, ("irregularity", "deck_count_wrong"))
            yield self.ev("stub_counted", deck_total=52 if wrong else 53)
            if wrong:
                yield from self.ack_pending()
                yield from self.new_decks()

    def progressive_fault(self) -> Iterator[Item]:
        yield from self.device_fault("progressive", "P17", "controller restarted; meter restored from the last "
                                                          "reading", "000(q)(6)")
        req = yield from self.request("meter_reset", self.fs, "floor supervisor",
                                      "progressive controller restarted: set the meter to the last reading",
                                      cents=self.meter)
        yield from self.decide(req, "pit manager", "approved", "last reading checked against the meter log")
        yield self.meter_read("reset")

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
                yield from self.change_decks("due")
            yield from self.stub_count()

    def position_method(self) -> str:
        methods = list(self.rules.procedures.starting_position)
        if self.rules.rule_text == "003" and not self.rng_down and self.chance(0.003, ("device", "rng")):
            self.rng_fault = True  # logged when the dealer reaches for it
            self.rng_down = self.rng.randint(3, 10)
        if self.rng_down and "dice" in methods and len(methods) > 1:
            return "dice"  # 003 NOTE: dice when the random number generator is not working
        unseen = [m for m in methods if self.cov.want(("position", self.rules.name, m))]
        if unseen and self.rng.random() < EAGER:
            return self.rng.choice(unseen)
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
        plan.recut = manual and self.chance(0.02, ("approval", "recut"))
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
        want = any(self.cov.want(("bank", rules.name, m)) for m in modes)
        if first is None or not self.chance(0.3, ("bank", rules.name, "any") if want else None):
            return
        wagered = s.wagered_last_unbanked or ()
        declined = []
        for seat in bank_offer_order(first, s.seated):
            if not bank_eligibility(seat, passed, wagered, None, None)[0]:
                continue
            player = plan.players[seat]
            areas = [x for x in plan.seats if plan.players[x] == player]
            others = [x for x in plan.seats if plan.players[x] != player]
            can = seat in plan.seats and len(areas) == 1 and others and seat in self.last_wager_of
            if can and self.rng.random() < 0.6:
                unseen = [m for m in modes if self.cov.want(("bank", rules.name, m))]
                plan.mode = self.rng.choice(unseen or modes)
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
        if rules.procedures.bank_cover_ruling and cover > 100 and self.chance(0.05, ("approval", "bank_eligibility")):
            plan.ruling = True
            plan.chips = self.rng.randrange(0, cover, 100)

    def plan_plant(self, plan: Plan) -> None:
        rules = self.rules
        options = []
        if "fortune" in rules.side_bets and rules.limits.approval_threshold_cents is not None:
            options.append(("four_of_a_kind", ("approval", "payoff_threshold")))
        if "fortune" in rules.side_bets and (rules.limits.per_table_cents or any(
                "fortune" in w for _, w in rules.limits.per_player)):
            options.append(("sf7_natural", ("approval", "aggregate_limit")))
        if "progressive" in rules.side_bets:
            options.append(("straight_flush", ("approval", "progressive_meter_payout")))
            options.append(("natural_royal_and_pair", ("approval", "meter_reset")))
        targets = [p for p in plan.plans if p.seat != plan.bank_seat]
        if not options or not targets:
            return
        unseen = [o for o in options if self.cov.want(o[1])]
        if unseen and self.rng.random() < 0.3:
            name = self.rng.choice(unseen)[0]
        elif self.rng.random() < 0.002:
            name = self.rng.choice(options)[0]
        else:
            return
        target = self.rng.choice(targets)
        cards, wagers = gen.PLANTS[name]
        limits = rules.limits_for_table()
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
        unseen = [k for k in kinds if self.cov.want(("irregularity", k))]
        if unseen and self.rng.random() < 0.35:
            return self.rng.choice(unseen)
        if self.rng.random() < 0.04:
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
        self.cov.saw(("bank", self.rules.name, plan.mode))
        if plan.mode in ("player", "co-bank"):
            self.cov.saw(("bank", self.rules.name, "any"))
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
                    yield from self.device_fault("shoe", "jam J02", "card jam in the dispensing path", "000(n)(14)")
                    yield from self.irregularity(irr)
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
        self.wait(10, 35)
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
                if irr == "shuffler_jam":
                    yield from self.device_fault("shuffler", "jam E21", "cards jammed in the elevator", "000(n)(13)")
                else:
                    yield from self.device_fault("shuffler", "E07", "shuffle stopped before the end", "000(n)(13)")
                yield from self.irregularity(irr)
                self.wait(30, 90)
            self.wait(20, 45) if manual else self.wait(5, 15)
            decks = list(self.state.decks)
            deck = next((d for d in decks if d != self.state.last_deck_dealt), decks[0]) if len(decks) == 2 \
                else decks[0]
            count = None
            if self.counting:
                wrong = self.chance(0.003, ("irregularity", "deck_count_wrong"))
                count = 52 if wrong else 53
            yield self.ev("shuffle_completed", deck=deck, manual=manual, **({"card_count": count} if count else {}))
            if self.state.state == "betting":
                return
            # 001 11.17(i): the shuffler counted a wrong number; the deck is gone
            yield from self.ack_pending()
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
            req = yield from self.request("bank_eligibility", self.dealer, "dealer",
                                          f"seat {plan.bank_seat}: {plan.chips} cents of chips against about "
                                          f"{plan.cover_said} cents of wagers", seat=plan.bank_seat,
                                          cents=plan.cover_said)
            yield from self.decide(req, "floor supervisor", "approved",
                                   "the banker's bankroll off the layout answers for the rest (003 PLAYER BANK 3)")
            yield self.ev("bank_declared", self.fs, "floor supervisor", ruling="proceed", **data)
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
        req = yield from self.request("recut", self.dealer, "dealer", "the cutting card went in crooked")
        approve = self.rng.random() < 0.75
        yield from self.decide(req, "floor supervisor", "approved" if approve else "denied",
                               "re-cut before any card is dealt" if approve else "the cut was good")
        if not approve:
            return
        self.wait(5, 20)
        yield self.ev("recut_ordered", self.fs, "floor supervisor")
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
        yield self.ev("dealt", **data)
        if self.state.void:
            yield from self.ack_pending()
            if not self.state.decks:
                yield from self.new_decks()
            return "void"
        return "ok"

    def position(self, plan: Plan, irr: str | None) -> Iterator[Item]:
        """000(k), 004(4), 002: the count, and what goes wrong with dice."""
        method = plan.position_method
        self.cov.saw(("position", self.rules.name, method))
        s = self.state
        bank = s.bank[0] if s.bank and s.bank_mode in ("player", "co-bank") else None
        source = plan.source
        uses_dice = method in ("dice", "two-dice") or (method == "action" and source == "dice")
        if self.rng_fault:
            # 003 NOTE: the dice are used while the random number generator is down
            self.rng_fault = False
            yield from self.device_fault("rng", "R03", "display blank", "000(k)(2); 003 NEW CARDS IN PLAY, NOTE")
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

    # -- settlement ------------------------------------------------------------------------
    def settle(self, plan: Plan, in_round: list[gen.SeatPlan], hands, rng_number, dealer_wrong: bool,
               bank_foul: bool) -> Iterator[Item]:
        rules = self.rules
        s = self.state
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
        obj = gen.round_file(self.rng, rules, self.house, self.ranker, hands, in_round, banking, self.meter,
                             rng_number, s.rounds_played == 0, dealer_wrong, bank_foul)
        try:
            settlement = settle(parse_round(obj, rules), rules, self.ranker, self.house)
        except RoundError as e:
            raise SimulationError(f"table {self.id} ({rules.name}) round {s.round}: {e}") from None
        self.wait(10, 25)
        t, table, dealer, round_no = self.t, self.id, self.dealer, s.round
        seqs = yield self.call(lambda st: st.floor.settle(table, round_no, settlement, t, dealer, "dealer"))
        self.stats["settlements"] += 1
        self.stats["approvals_requested"] += len(settlement.approvals)
        if settlement.meter_after is not None:
            self.stats["meter_readings"] += 1
            self.meter = settlement.meter_after
        # the approvals the round cannot close without
        whole_meter = False
        for a, req in zip(settlement.approvals, seqs[1:]):
            self.cov.saw(("approval", a.kind))
            whole_meter |= a.kind == "progressive_meter_payout" and a.role == "pit manager"
            yield from self.decide(req, a.role, "approved", f"checked: {a.reason}")
        if whole_meter:
            # 000(q)(6): the meter is funded back to the reset amount; the pit manager confirms it
            req = yield from self.request("meter_reset", self.fs, "floor supervisor",
                                          "meter paid in full and funded to the reset amount", cents=self.meter)
            yield from self.decide(req, "pit manager", "approved", "reset amount confirmed on the controller")
            yield self.meter_read("reset")
        # payout slips for the big wins
        for r in settlement.results:
            if r.outcome == "win" and r.win >= SLIP_MIN_CENTS and r.wager not in SETTLING_ONLY:
                yield from self.slip(r, plan.players.get(r.seat, f"seat {r.seat}"))
        self.wait(5, 15)
        yield self.ev("settled")
        self.stats["rounds"] += 1
        if plan.mode == "house":
            self.last_wager_of = {p.seat: p.base for p in plan.plans if p.base}
        if plan.mode == "player-dealer":
            self.pd_hands += 1

    def slip(self, r, player: str) -> Iterator[Item]:
        payee = None
        if needs_w2g(r.win, r.stake):
            n = self.rng.randrange(10**8, 10**9)
            payee = {"name": f"{player} (simulated)", "address": f"{self.rng.randint(1, 999)} Main Street, Reno NV",
                     "tin": f"{n // 10**6:03d}-{n // 10**4 % 100:02d}-{n % 10**4:04d}", "id_type": "driver license",
                     "id_number": f"D{self.rng.randrange(10**7, 10**8)}"}
        self.wait(20, 90)
        t, table, fs = self.t, self.id, self.fs
        args = (r.seat or None, r.wager, r.stake, r.win, payee)
        number = yield self.call(lambda st: st.slips.issue(t, fs, "floor supervisor", table, *args))
        self.stats["slips"] += 1
        if payee:
            self.stats["w2g_slips"] += 1
            self.cov.saw("w2g")
        if self.cov.want("slip_void") or self.rng.random() < 0.1:  # misprinted: voided and issued again
            self.wait(30, 120)
            t = self.t
            yield self.call(lambda st: st.slips.void(number, "printed with the wrong seat", t, fs, "floor supervisor"))
            self.stats["slips_void"] += 1
            self.cov.saw("slip_void")
            self.wait(10, 40)
            yield self.rec(rows.slip_issued(self.t, fs, "floor supervisor", table, *args, extra={"replaces": number}))
            self.stats["slips"] += 1
            self.stats["w2g_slips"] += 1 if payee else 0


class Shift:
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

