"""A simulated table's life between rounds, in simulated time: a game opened (the table configured
for a rule profile, decks brought and inspected, dice placed, players seated) and closed; the
decks changed before they are due and the dice before theirs, players coming and going, the stub
counted, irregularities acknowledged, device faults with their alarms, approvals asked for and
decided. Each step is an ``Item``: a row, or a call of the store's services, at the table's time,
which the shift (app/simulate/shift.py) runs in time order across its tables. The rounds
themselves are played by ``Table`` (app/simulate/round_play.py).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from app.engine.deadlines import deck_deadline, dice_deadline
from app.engine.players import table_seats
from app.engine.procedure import Event, Refused, TableState, apply
from app.rules.resources import profile
from app.store import rows
from app.store.approvals import Approvals
from app.store.floor import Floor
from app.store.log import Record
from app.store.slips import Slips
from app.store.users import Session
from app.store.write_behind import WriteBehind

EAGER = 0.5           # the chance of showing something the shift has not shown yet, when it fits
SHUFFLERS = ("automated-shoe", "three-four")
COLOURS = ("red", "blue", "green", "black", "purple", "orange", "grey")


class SimulationError(RuntimeError):
    """The simulator produced something the engine refused: a bug in the simulator."""


@dataclass
class Store:
    """What a table's steps run against: the log written behind, the store's services on it, and
    the people signed in."""

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


class TableDay:
    """One table of the shift (``shift``, app/simulate/shift.py): number ``index``, playing each of
    ``profiles`` (a rule profile and its rounds) in turn."""

    def __init__(self, shift, index: int, profiles: list[tuple[str, int]]):
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

    def play_round(self) -> Iterator[Item]:
        """A round, played until it is settled (app/simulate/round_play.py)."""
        raise NotImplementedError

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
