"""The demo floor's dealers: every table plays by itself, as a pit does, while the supervisor
watches, acknowledges, approves, corrects and prints.

A ``Dealer`` is the person at one table. Signed in at the table's station with a PIN
(app/workstation/desks/people.py, ``sign_in_at``), never at the workstation, they do what a
dealer does, through the same desks the window uses: they make the table's devices say what the
play makes them say (the shuffler's shuffle, count, deal and reads; the shoe's stacks; the random
number; the progressive controller's increments, lights and lock-out), record the procedures
(docs/table-events.md), and enter and settle each round in the round being entered (the rounds
desk), as a person types it. The floor supervisor of the demo signs in at a station to verify new
decks (000(e)(1)). Whatever needs a supervisor at the workstation (an irregularity to acknowledge,
an approval, a misread to correct, a payout slip to release) waits for them: the table waits, as
a real one does, and its tile says why.

Hands come only from shuffled decks, so rare hands and progressive hits arrive at their true
odds. Faults arrive at ``Pace.faults_per_shift`` per table per eight hours (a calm floor is green);
``busy`` is the storm the devices used to make by themselves, for testing.

The ``Conductor`` runs every dealer on one thread of its own, each a generator of waits (seconds
at the table's pace); a dealer who meets something unexpected (a person discarded the round
they were entering) starts again from what the table's state says.
"""

from __future__ import annotations

import heapq
import logging
import random
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from app.engine import position as positions
from app.engine.deadlines import dice_deadline, table_deck_deadline
from app.engine.layout import clockwise_from
from app.engine.rotation import cut_offers
from app.engine.settle import meter_rise
from app.rules.resources import profile
from app.workstation.errors import NotPermitted, Refused, WorkstationError

from . import random_rounds as gen
from .demo_money import DemoTray
from .opening import DEMO_CASHIER, DEMO_COUNT, DEMO_DEALER, DEMO_FLOOR
from .regulars import Regulars

log = logging.getLogger(__name__)

SHIFT_HOURS = 8
FAULTS = ("jam", "misread", "shoe_jam", "drop", "silence", "garbage", "bad-crc")
BUSY_FAULTS = FAULTS + ("miscount",)
DECK_SPARE_MINUTES = 20     # decks are changed this long before they are due (000(e)(5))
DICE_SPARE_MINUTES = 60     # and dice (000(d)(1)(ii))
RETRY = 1.0                 # seconds between looks at something the table waits for (at 30 rounds an hour)


@dataclass(frozen=True)
class Pace:
    """How the demo floor plays: ``rounds_per_hour`` at each table; ``faults_per_shift`` per table
    per eight hours; ``busy``: a fault in most rounds (the storm, for testing); ``tray_marks``: a
    tray below the first (tenths of its opener) asks for a fill, above the second sends a credit."""

    rounds_per_hour: float = 30.0
    faults_per_shift: float = 3.0
    busy: bool = False
    # the trays' water marks, tenths of the opener: a fill below, a credit above (app/simulate/demo_money.py)
    tray_marks: tuple[int, int] = (8, 12)

    def __post_init__(self):
        if not self.rounds_per_hour > 0:
            raise ValueError(f"rounds_per_hour must be more than 0, got {self.rounds_per_hour!r}")
        if self.faults_per_shift < 0:
            raise ValueError(f"faults_per_shift cannot be negative, got {self.faults_per_shift!r}")
        low, high = self.tray_marks
        if not (isinstance(low, int) and isinstance(high, int) and 0 < low <= high):
            raise ValueError(f"tray_marks are whole tenths of the opener, 0 < low <= high, got {self.tray_marks!r}")

    @property
    def scale(self) -> float:
        """The waits below are for 30 rounds an hour (a round in about two minutes)."""
        return 30.0 / self.rounds_per_hour

    @property
    def fault_chance(self) -> float:
        """The chance that a round brings a fault."""
        if self.busy:
            return 0.5
        return min(1.0, self.faults_per_shift / (self.rounds_per_hour * SHIFT_HOURS))


def dollars(cents: int) -> str:
    return f"{cents // 100}.{cents % 100:02d}"


@dataclass
class Seat:
    player: str
    since_round: int


@dataclass
class DealerStats:
    rounds: int = 0
    settled: int = 0
    reads: int = 0
    shuffles: int = 0
    faults: dict[str, int] = field(default_factory=dict)
    waits: dict[str, int] = field(default_factory=dict)


class Dealer:
    """The dealer of ``table`` on workstation ``ws``: ``devices`` maps a device class to its served
    simulator (``say``, ``inject``). Its people sign in before it deals (``sign_in_stations``)."""

    def __init__(self, ws, table: str, devices: dict, pace: Pace, rng: random.Random,
                 first: bool = True, regulars: Regulars | None = None):
        self.ws, self.table, self.devices, self.pace, self.rng = ws, table, devices, pace, rng
        self.regulars = regulars      # the floor's regulars, who show a player's card (issue 36)
        setup = ws.setup(table)
        self.prof = profile(setup.profile)
        self.rules = self.prof.rules
        self.face_up = "player-dealer" in self.rules.banking_modes
        self.seats = tuple(range(1, 8)) if self.face_up else tuple(range(1, 7))
        self.method = self._method()
        # on the conductor's thread, before the first deal (``ready``): the stations the demo's
        # dealer and floor supervisor signed in at, the house way and the rankings
        self.dealer = self.floor = None
        self.house = self.ranker = None
        self.players: dict[int, Seat] = {}
        self.meter: int | None = None
        self.pd_seat: int | None = None
        self.pd_hands = 0
        self.first = first            # the first round is dealt at twice the pace (settled within 90 s)
        self.stats = DealerStats()
        self.fault: str | None = None  # the fault this round brings
        self.wait_for: str | None = None   # what the table waits for, for the supervisor (and the stats)
        self.money = DemoTray(self, random.Random(rng.getrandbits(64)))   # its tray (app/simulate/demo_money.py)

    def ready(self, dealer, floor) -> None:
        """The dealer and the floor supervisor signed in at this table's station (``Station``s,
        ``sign_in_stations``); the house way and the rankings read (on the conductor's thread)."""
        self.dealer, self.floor = dealer, floor
        self.house, self.ranker = self.prof.house(), self.prof.ranker()

    # -- what the table is ---------------------------------------------------------------------
    def _method(self) -> str:
        deal = self.rules.procedures.deal
        if "shoe" in self.devices and "automated-shoe" in deal:
            return "automated-shoe"
        return "hand" if "hand" in deal else deal[0]

    def state(self):
        return self.ws.state_of(self.table)[0]

    @property
    def retry(self) -> float:
        return max(0.05, RETRY * min(1.0, self.pace.scale))

    def wait(self, lo: float, hi: float) -> float:
        k = self.pace.scale * (0.5 if self.first else 1.0)
        return self.rng.uniform(lo, hi) * k

    def act(self, fn: Callable, station=None):
        """``fn(ws)`` done at the table's station, by the dealer unless ``station`` says otherwise."""
        with self.ws.people.at(station or self.dealer):
            return fn(self.ws)

    def record(self, type_: str, station=None, **data):
        return self.act(lambda ws: ws.decisions.record(self.table, type_, data), station)

    def say(self, cls: str, message: str, **fields) -> None:
        self.devices[cls].say(message, **fields)

    def until(self, what: str, done: Callable[[], bool], patience: float | None = None) -> Iterator[float]:
        """Wait for ``done()``: what a device said to reach the workstation, or a person at the
        workstation to do their part (``what`` says which, for the stats)."""
        waited = 0.0
        while not done():
            if patience is not None and waited >= patience:
                raise Stuck(f"table {self.table}: {what} did not happen in {patience:.0f} s")
            if self.wait_for != what:
                self.wait_for = what
                self.stats.waits[what] = self.stats.waits.get(what, 0) + 1
            waited += self.retry
            yield self.retry
        self.wait_for = None

    # -- the table's day ----------------------------------------------------------------------
    def play(self) -> Iterator[float]:
        """Forever: what the table's state says comes next."""
        yield self.rng.uniform(0.0, 4.0) * self.pace.scale
        while True:
            s = self.state()
            if s.state == "closed":
                yield 30.0
                continue
            if s.state in ("no_more_bets", "starting_position", "dealing", "setting", "revealing", "settling"):
                yield from self.finish_round()
                continue
            if s.state == "shuffling":
                yield from self.complete_shuffle()
                continue
            yield from self.money.between_rounds()     # first: the tray opens before anyone buys in
            yield from self.between_rounds()
            s = self.state()
            if s.state in ("opening", "round_complete") or (s.state == "betting" and s.deck_in_play is None):
                yield from self.shuffle()
                continue
            if s.state == "betting":
                yield from self.round()

    def between_rounds(self) -> Iterator[float]:
        """Decks and dice changed before they are due (000(e)(5), (d)(1)(ii)); players come and go."""
        s = self.state()
        now = self.ws.clock()
        for deck in list(s.decks.values()):
            due, _ = table_deck_deadline(deck, s, self.rules)
            if (due - now).total_seconds() < DECK_SPARE_MINUTES * 60:
                yield from self.change_deck(deck.id)
                s = self.state()
        if s.dice_placed is not None:
            due, _ = dice_deadline(s.dice_placed, self.rules)
            if (due - now).total_seconds() < DICE_SPARE_MINUTES * 60:
                yield self.wait(5, 15)
                self.record("dice_placed")
        for deck in self._decks():
            if deck not in self.state().decks:   # removed (a wrong count, 001 11.17(i)): a new one
                yield from self.change_deck(deck, remove=False)
        yield from self.seating()

    def _decks(self) -> tuple[str, ...]:
        return ("red", "blue") if "shuffler" in self.devices else ("red",)

    def change_deck(self, deck: str, remove: bool = True) -> Iterator[float]:
        """000(e)(1)-(5): the old deck leaves; a new one is received, inspected by the dealer,
        verified by the floor supervisor, spread and washed."""
        s = self.state()
        if s.state not in ("opening", "round_complete", "betting", "closed"):
            return
        if remove:
            yield self.wait(5, 10)
            self.record("deck_removed", deck=deck)
        for type_, station in (("deck_received", None), ("deck_inspected", None), ("deck_verified", self.floor),
                               ("deck_spread", None), ("deck_washed", None)):
            yield self.wait(2, 5)
            self.record(type_, station, deck=deck)

    def seating(self) -> Iterator[float]:
        s = self.state()
        seated = set(s.seated)
        # players come and go between rounds; a table keeps two to six of them
        for seat in sorted(seated):
            if len(seated) > 2 and self.rng.random() < 0.04:
                yield self.wait(2, 6)
                rated = [r for r in self.ws.ratings.open_ratings(self.table) if r.seat == seat and not r.bettor]
                if rated:            # a regular stands up: their rating ends, the seat is free
                    self.act(lambda ws: ws.ratings.stand_up(rated[0].rating), self.floor)
                else:
                    self.record("player_left", seat=seat)
                seated.discard(seat)
                self.players.pop(seat, None)
        want = self.rng.randint(2, 5) if not seated else (1 if self.rng.random() < 0.05 else 0)
        for seat in [x for x in self.seats if x not in seated][:want]:
            if self.rng.random() < 0.5 and seated:
                continue
            yield self.wait(2, 6)
            regular = self.regulars.arriving(self.ws) if self.regulars is not None else None
            if regular is not None:  # the floor supervisor rates a regular as they sit down
                self.act(lambda ws: ws.ratings.sit_down(self.table, seat, *regular), self.floor)
            else:
                self.record("player_seated", seat=seat)
            seated.add(seat)
            self.players.setdefault(seat, Seat(f"{self.table}-P{seat}-{self.rng.randrange(1000, 9999)}",
                                              self.state().round))
            yield from self.money.buy_in(seat)      # chips for cash as they sit down
        for seat in seated:
            self.players.setdefault(seat, Seat(f"{self.table}-P{seat}-{self.rng.randrange(1000, 9999)}",
                                              self.state().round))

    # -- the shuffle --------------------------------------------------------------------------
    def next_deck(self) -> str:
        s = self.state()
        decks = sorted(s.decks)
        return next((d for d in decks if d != s.last_deck_dealt), decks[0])

    def shuffle(self) -> Iterator[float]:
        deck = self.next_deck()
        self.stats.shuffles += 1
        if "shuffler" in self.devices:
            yield self.wait(2, 5)
            self.say("shuffler", "shuffle_started", deck=deck)   # 000(f)(1)
            yield from self.until("the shuffle to start", lambda: self.state().state == "shuffling", 60)
            if self.fault == "jam":
                self.fault = None
                yield self.wait(3, 8)
                code, text = self.rng.choice(((0x0101, "card jam in the elevator"), (0x0102, "gripper jam")))
                self.say("shuffler", "jam", code=code, text=text)   # 000(n)(13): shuffled again
                self._count("jam")
                yield from self.until("the jam to reach the table", lambda: self.state().pending_acks(), 60)
                yield self.wait(5, 10)
                if self.state().state != "shuffling":
                    self.say("shuffler", "shuffle_started", deck=deck)
        else:
            yield self.wait(3, 6)
            self.record("shuffle_started", deck=deck)
        yield from self.complete_shuffle(deck)

    def complete_shuffle(self, deck: str | None = None) -> Iterator[float]:
        deck = deck or self.state().decks and (self.state().ready_deck or self.next_deck())
        if "shuffler" in self.devices:
            yield self.wait(6, 12)
            count = 53
            if self.fault == "miscount":
                self.fault = None
                count = self.rng.choice((52, 54))
            self.say("shuffler", "card_count", deck=deck, count=count)   # 001 11.17(i)
            yield 0.3
            self.say("shuffler", "shuffle_completed", deck=deck)        # 000(f)(1)
            yield from self.until("the shuffle to complete", lambda: self.state().state != "shuffling", 60)
        else:
            yield self.wait(12, 20)
            self.record("shuffle_completed", deck=deck, manual=True)

    # -- a round ------------------------------------------------------------------------------
    def round(self) -> Iterator[float]:
        """From the wagers to the settlement (000(g)-(l))."""
        self.fault = self._fault()
        s = self.state()
        if not s.seated:
            return
        if self.fault in ("drop", "silence", "garbage", "bad-crc"):
            # a link fault: the device's link says so and comes back by itself (docs/devices.md)
            cls = self.rng.choice(sorted(self.devices)) if self.devices else None
            if cls is not None:
                self.devices[cls].inject(self.fault)
                self._count(self.fault)
            self.fault = None
        if s.manual_shuffle and s.cut_by is None:
            yield from self.cut()
        if self.face_up:
            yield from self.declare_player_dealer()
        yield from self.until("an irregularity to be acknowledged", lambda: not self.state().pending_acks())
        plans = self.wagers()
        if not plans:
            return
        yield self.wait(10, 20)
        progressive = {p.seat: p.wagers["progressive"] for p in plans if p.wagers.get("progressive")}
        if progressive and "progressive" in self.devices:
            yield from self.progressive_wagers(progressive)
        progressive = sorted(progressive)
        data = {"method": self.method, "wagers": [p.seat for p in plans]}
        if progressive:
            data["progressive"] = progressive
        self.record("no_more_bets", **data)   # 000(g)
        self.stats.rounds += 1
        yield from self.deal(plans)

    def _fault(self) -> str | None:
        if self.rng.random() >= self.pace.fault_chance:
            return None
        kinds = [f for f in (BUSY_FAULTS if self.pace.busy else FAULTS) if self._fault_fits(f)]
        return self.rng.choice(kinds) if kinds else None

    def _fault_fits(self, fault: str) -> bool:
        if fault in ("jam", "misread", "miscount"):
            return "shuffler" in self.devices
        if fault == "shoe_jam":
            return self.method == "automated-shoe"
        return bool(self.devices)

    def _count(self, fault: str) -> None:
        self.stats.faults[fault] = self.stats.faults.get(fault, 0) + 1

    def cut(self) -> Iterator[float]:
        """000(f)(3)-(5): offered in order; the dealer cuts when nobody accepts."""
        s = self.state()
        offers = cut_offers(s.rounds_played == 0, s.first_player, None, s.rounds_without_bank, s.seated)
        declined = []
        by = 0
        for by in offers:
            if by == 0 or self.rng.random() < 0.7:
                break
            declined.append(by)
        yield self.wait(3, 8)
        self.record("cut", depth=self.rng.randint(10, 43), by=by, **({"declined": declined} if declined else {}))

    def declare_player_dealer(self) -> Iterator[float]:
        """002: the player-dealer position goes clockwise after every two hands."""
        s = self.state()
        if self.pd_seat not in s.seated or self.pd_hands >= 2:
            start = self.pd_seat if self.pd_seat in self.seats else 1
            ring = clockwise_from(start, self.seats)
            after = ring[1:] + ring[:1] if self.pd_seat in s.seated else ring
            self.pd_seat = next(x for x in after if x in s.seated)
            self.pd_hands = 0
        yield self.wait(2, 5)
        self.record("bank_declared", mode="player-dealer", seat=self.pd_seat)

    def wagers(self) -> list[gen.SeatPlan]:
        s = self.state()
        mode = "player-dealer" if self.face_up else "house"
        seats = [x for x in s.seated if self.rng.random() > 0.08 or (self.face_up and x == self.pd_seat)]
        if self.face_up and len(seats) < 2:
            return []
        plans = []
        for seat in seats:
            who = self.players.setdefault(seat, Seat(f"{self.table}-P{seat}", s.round)).player
            plans.append(gen.seat_wagers(self.rng, self.rules, self.table, seat, who, seat == self.pd_seat,
                                         mode, False))
        gen.choose_surrenders(self.rng, self.rules, plans, self.pd_seat if self.face_up else None)
        return plans

    def progressive_wagers(self, stakes: dict[int, int]) -> Iterator[float]:
        """000(q)(1)-(2), (5): each wager moves the meter; the lights come on, then the lock-out."""
        seats = sorted(stakes)
        for seat in seats:
            yield 0.3
            # the rate of progression of the wager's pay table goes to the meter (000(q)(5)), as the
            # settlement counts it: the controller and the log tell one story
            self.say("progressive", "increment", seat=seat, cents=meter_rise(self.rules, stakes[seat]))
        lit = {"lit": sum(1 << (x - 1) for x in seats)}
        self.say("progressive", "acceptor_lights", **lit)
        yield 0.5
        self.say("progressive", "lockout", locked=True)
        self.say("progressive", "acceptor_lights", **lit)
        yield 1.0

    def deal(self, plans: list[gen.SeatPlan]) -> Iterator[float]:
        in_round = [p.seat for p in plans]
        start, value, action_seat = None, None, None
        if self.method != "hand":
            start, value, action_seat = yield from self.starting_position()
        hands, remaining = gen.deal_hands(self.rng, self.rules, self.method, start or 1, 1, in_round)
        if self.method == "automated-shoe" and self.fault == "shoe_jam":
            # 000(n)(14): a shoe jam voids the round; the cards are reshuffled
            self.fault = None
            self._count("shoe_jam")
            yield self.wait(3, 6)
            self.say("shoe", "shoe_jam", code=0x0201, text="stack jam at the gate")
            yield from self.until("the jam to reach the table", lambda: self.state().state not in (
                "no_more_bets", "starting_position", "dealing"), 60)
            return
        if "shuffler" in self.devices:
            yield from self.read_hands(hands)
        if self.method == "automated-shoe" and "shoe" in self.devices:
            for pos in clockwise_from(start, list(hands)) if start in hands else list(hands):
                yield 0.4
                self.say("shoe", "stack_dispensed", position=pos, cards=7)   # 000(j)(4)
            self.say("shoe", "cards_remaining", count=len(remaining))         # 000(h)(4)
        yield self.wait(4, 8)
        self.record("dealt", remaining=len(remaining))                       # 000(h)(4), (j)(5)
        if self.method == "hand":
            start, value, action_seat = yield from self.starting_position()
        yield from self.settle(plans, hands, value, action_seat)

    def starting_position(self) -> Iterator:
        """000(k), 004(4), 002: the count, by the RNG the device shows, or by the dice."""
        s = self.state()
        methods = self.rules.procedures.starting_position
        if "rng" in methods and "rng" in self.devices:
            number = self.rng.randint(1, 7)
            yield self.wait(2, 5)
            self.say("rng", "rng_number", number=number)   # 000(k)(3)
            yield from self.until("the random number to reach the table",
                                  lambda: self.state().starting_position is not None, 60)
            return self.state().starting_position, number, None
        yield self.wait(3, 6)
        if "action" in methods:
            value = sum(self.rng.randint(1, 6) for _ in range(3))
            found = positions.action_button(value, self.pd_seat)
            self.record("position_determined", method="action", value=value, position=found.position,
                        source="dice", player_dealer=self.pd_seat)
            return found.position, None, found.action_button
        if "two-dice" in methods:
            value = self.rng.randint(1, 6) + self.rng.randint(1, 6)
            found = positions.two_dice(value)
            self.record("position_determined", method="two-dice", value=value, position=found.position)
            return found.position, None, None
        if "dice" in methods:
            value = sum(self.rng.randint(1, 6) for _ in range(3))
            found = positions.dice(value)
            self.record("position_determined", method="dice", value=value, position=found.position)
            return found.position, None, None
        found = positions.button(s.rounds_played)
        self.record("position_determined", method="button", position=found.position)
        return found.position, None, None

    def read_hands(self, hands: dict[int, list[int]]) -> Iterator[float]:
        """The shuffler dispenses the seven hands and reads each (000(j)(1))."""
        deck = self.state().deck_in_play
        yield self.wait(2, 4)
        self.say("shuffler", "hands_dispensed", deck=deck, hands=7, cards_per_hand=7)
        wrong = self.rng.choice(sorted(hands)) if self.fault == "misread" else None
        if wrong is not None:
            self.fault = None
            self._count("misread")
        for pos, cards in sorted(hands.items()):
            yield 0.2
            read = list(cards)
            if pos == wrong:
                del read[self.rng.randrange(7)]   # a card missed: the supervisor corrects it
            self.say("shuffler", "hand_read", deck=deck, position=pos, cards=read)
            self.stats.reads += 1
        yield from self.until("the shuffler's reads to reach the round", lambda: self._read(hands), 60)

    def _read(self, hands) -> bool:
        d = self.ws.rounds.draft(self.table)
        return d is not None and sum(1 for p in d.positions if p.cards) >= len(hands)

    # -- the settlement -----------------------------------------------------------------------
    def settle(self, plans, hands, rng_number, action_seat) -> Iterator[float]:
        yield self.wait(15, 30)
        self.record("hands_set")
        yield self.wait(5, 10)
        self.record("revealed")
        banking: dict = {"mode": "house"}
        if self.face_up:
            ring = clockwise_from(action_seat or self.pd_seat, self.seats)
            action = next(x for x in ring if x in [p.seat for p in plans] and x != self.pd_seat)
            banking = {"mode": "player-dealer", "seat": self.pd_seat, "wager": self.rng.choice(gen.PD_WAGERS),
                       "action_seat": action}
        meter = self.ws.journal.meters.get(self.table)
        obj = gen.round_file(self.rng, self.rules, self.house, self.ranker, hands, plans, banking,
                             meter, rng_number, self.state().rounds_played == 0)
        yield self.wait(10, 20)
        settlement = yield from self.enter(obj, hands)
        if settlement is None:
            return
        self.stats.settled += 1
        self.first = False
        if self.face_up:
            self.pd_hands += 1
        yield from self.pay(settlement)
        yield self.wait(4, 8)
        if "progressive" in self.devices and self.state().round_progressive:
            self.say("progressive", "lockout", locked=False)
        self.record("settled")

    def enter(self, obj: dict, hands) -> Iterator:
        """The round typed into the round being entered, as a person types it, and settled; the
        settlement's number, or None when a person discarded the round meanwhile."""
        t = self.table
        read = "shuffler" in self.devices
        d = self.ws.rounds.draft(t)
        if d is None:
            self.act(lambda ws: ws.rounds.start(t))
        if not read:
            typed = ([0] if "dealer" in obj else []) + [x["seat"] for x in obj["seats"]]
            for pos in typed:
                self.act(lambda ws, p=pos: ws.rounds.set_cards(t, p, obj_cards(obj, p)))
        # a misread waits for the supervisor's correction before the hands are set (000(j)(1):
        # a person checks the cards)
        while True:
            d = self.ws.rounds.draft(t)
            if d is None:
                return None          # the supervisor discarded it
            if not [p for p in d.problems if "misread" in p or "read at both" in p]:
                break
            if self.wait_for != "a misread to be corrected":
                self.wait_for = "a misread to be corrected"
                self.stats.waits[self.wait_for] = self.stats.waits.get(self.wait_for, 0) + 1
            yield self.retry
        self.wait_for = None
        banking = obj["banking"]
        if banking["mode"] == "player-dealer":
            self.act(lambda ws: ws.rounds.set_banking(t, "player-dealer", banking["seat"],
                                                      wager=dollars(banking["wager"]),
                                                      action_seat=banking["action_seat"]))
        for seat in obj["seats"]:
            n = seat["seat"]
            wagers = {k: dollars(v) for k, v in seat["wagers"].items()}
            wagers |= {f"additional {k}": dollars(v) for k, v in seat.get("additional", {}).items()}
            if wagers:
                self.act(lambda ws, n=n, w=wagers: ws.rounds.set_wagers(t, n, w))
            if seat.get("player"):
                self.act(lambda ws, n=n, who=seat["player"]: ws.rounds.set_player(t, n, who))
            if seat.get("prepaid_commission"):
                self.act(lambda ws, n=n, c=seat["prepaid_commission"]: ws.rounds.set_prepaid_commission(
                    t, n, dollars(c)))
            if seat.get("bettors"):
                self.act(lambda ws, n=n, b=seat["bettors"]: ws.rounds.set_bettors(
                    t, n, [(x["name"], dollars(x["base"])) for x in b]))
            if seat.get("surrender"):
                self.act(lambda ws, n=n: ws.rounds.set_surrender(t, n, True))
            elif "high" in seat:
                self.act(lambda ws, n=n, h=seat["high"], lo=seat["low"]: ws.rounds.set_hands(t, n, h, lo))
        if "dealer" in obj:
            self.act(lambda ws: ws.rounds.use_house_way(t, 0))
        if obj.get("rng_number") is not None:   # the meter is the one last logged (the controller's)
            self.act(lambda ws: ws.rounds.set_round_info(t, None, obj["rng_number"]))
        outcome = self.act(lambda ws: ws.rounds.settle(t))
        return outcome.result.settlement

    def pay(self, settlement: int) -> Iterator[float]:
        """The payouts once every approval is given (a supervisor's); a payout slip is the
        supervisor's to release, the table goes on meanwhile (000(q)(3); the slip book)."""
        def status():
            return self.ws.rounds.result(settlement).status
        yield from self.until("an approval", lambda: status() not in ("pending",))
        res = self.ws.rounds.result(settlement)
        if res.status != "ready" or any(p.slip_reason for p in res.payouts):
            return
        self.act(lambda ws: ws.rounds.release(settlement))

    # -- a round begun before a restart ------------------------------------------------------
    def finish_round(self) -> Iterator[float]:
        """A round the last run left in progress: its cards are gone from the table; the round
        is void and played again (000(n)), said by the dealer as an irregularity would be. Here the
        supervisor's floor person closes it the simple way: the remaining procedures, no payout."""
        s = self.state()
        d = self.ws.rounds.draft(self.table)
        if d is not None:
            self.act(lambda ws: ws.rounds.discard(self.table))
        for type_, states in (("dealt", ("no_more_bets", "starting_position", "dealing")),
                              ("hands_set", ("setting",)), ("revealed", ("revealing",)), ("settled", ("settling",))):
            s = self.state()
            if s.state in states or (type_ == "dealt" and s.state in ("no_more_bets",)):
                yield self.wait(1, 2)
                try:
                    self.record(type_, **({"remaining": 4} if type_ == "dealt" else {}))
                except Refused:
                    pass
        if self.state().state in ("no_more_bets", "starting_position", "dealing", "setting", "revealing",
                                  "settling"):
            yield 30.0


def obj_cards(obj: dict, position: int) -> str:
    if position == 0:
        return obj["dealer"]["cards"]
    return next(s["cards"] for s in obj["seats"] if s["seat"] == position)


class Stuck(Exception):
    """Something a device said did not reach the table in time."""


def sign_in_stations(ws, dealers: list[Dealer], pins: dict[str, str]) -> None:
    """The demo's dealer and floor supervisor sign in once each, at the stations of every table
    of ``dealers`` (``People.sign_in_at_stations``: one PIN check and one row a person, not one a
    table), and each dealer is made ``ready``."""
    tables = tuple(d.table for d in dealers)
    if not tables:
        return
    dealer = ws.people.sign_in_at_stations(tables, DEMO_DEALER, pins[DEMO_DEALER])
    floor = ws.people.sign_in_at_stations(tables, DEMO_FLOOR, pins[DEMO_FLOOR])
    # the cage and the count room sign the trays' slips and drops (issue 34, app/simulate/demo_money.py);
    # a kept log whose administrator could not add them: the tables deal without their money
    try:
        cashier = ws.people.sign_in_at_stations(tables, DEMO_CASHIER, pins[DEMO_CASHIER])
        counter = ws.people.sign_in_at_stations(tables, DEMO_COUNT, pins[DEMO_COUNT])
    except WorkstationError as e:
        log.warning("the demo's trays are not played: %s", e)
        cashier = counter = None
    for d in dealers:
        d.ready(dealer[d.table], floor[d.table])
        if cashier is not None:
            d.money.ready(cashier[d.table], counter[d.table], pins)


class Conductor:
    """Every dealer of the floor, on one thread: ``start``, ``stop``. ``first`` runs on that thread
    before any dealer plays (the sign-ins, ``sign_in_stations``): whoever starts the conductor
    (the window, once the floor is painted) never waits for a PIN's hash."""

    def __init__(self, dealers: list[Dealer], clock: Callable[[], float] = time.monotonic,
                 first: Callable[[], None] | None = None):
        self.dealers = dealers
        self.clock = clock
        self.first = first
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> "Conductor":
        self._thread = threading.Thread(target=self._run, name="demo dealers", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=10)

    def _run(self) -> None:
        if self.first is not None:
            try:
                self.first()
            except Exception as e:   # nobody could sign in (a PIN changed, the log stopped): nobody deals
                self.errors.append(f"the dealers could not start: {type(e).__name__}: {e}")
                log.exception("the demo dealers could not start")
                return
        now = self.clock()
        plays = {i: d.play() for i, d in enumerate(self.dealers)}
        due = [(now, i) for i in plays]
        heapq.heapify(due)
        while not self._stop.is_set():
            at, i = heapq.heappop(due)
            if self._stop.wait(max(0.0, at - self.clock())):
                return
            dealer = self.dealers[i]
            try:
                delay = next(plays[i])
            except (Refused, NotPermitted, Stuck, WorkstationError) as e:
                # the table's state moved under the dealer (a person at the workstation acted):
                # they look again at what it says
                self.errors.append(f"{dealer.table}: {e}")
                log.info("demo dealer at %s starts again: %s", dealer.table, e)
                plays[i], delay = dealer.play(), 3.0
            except Exception as e:   # a fault of the demo itself: that table stops, the others go on
                self.errors.append(f"{dealer.table}: {type(e).__name__}: {e}")
                log.exception("demo dealer at %s stopped", dealer.table)
                if self.ws_closed(dealer):
                    return
                plays[i], delay = dealer.play(), 30.0
            heapq.heappush(due, (self.clock() + delay, i))

    @staticmethod
    def ws_closed(dealer: Dealer) -> bool:
        return dealer.ws.closed

