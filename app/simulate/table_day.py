"""A simulated table's life between rounds, in simulated time: its game opened (decks brought,
inspected and verified, dice placed, players seated) and closed; the decks changed before they
are due and the dice before theirs, players coming and going, the stub counted, irregularities
and device faults with the alarms the workstation raises for them acknowledged by the floor
supervisor. Each step is an ``Item``: what the pit's people (or a device) do at the desk
(app/simulate/staff.py) at the table's time, which the shift (app/simulate/shift.py) runs in time
order across its tables. The rounds themselves are played by ``Table``
(app/simulate/round_play.py).

The table's state is the log's (``Workstation.state_of``), read again after every step: the
simulator keeps only what the log cannot know (who the players are, how the dealer deals next,
when the pit means to change the cards).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from app.engine.deadlines import dice_deadline, table_deck_deadline
from app.engine.players import table_seats
from app.engine.procedure import TableState
from app.rules.resources import profile

from .regulars import REGULARS
from .staff import Desk
from .tray_play import TrayDay

SHUFFLERS = ("automated-shoe", "three-four")
COLOURS = ("red", "blue", "green", "black", "purple", "orange", "grey")
PROGRESSIVE_FAULT = 0.003   # a round's chance that the progressive controller restarts
RNG_FAULT = 0.003           # a round's chance that the random number display drops off its link
COUNT_WRONG = 0.01          # a stub count's chance of a deck a card short (001 11.17(h))

# what the floor supervisor says acknowledging an alarm, by its kind
ACKNOWLEDGED = {
    "irregularity": "seen at the table: {}",
    "progressive_offline": "the controller restarted; its meter is checked against the last reading",
    "rng_offline": "the display is blank; the dice are used until it is back",   # the alarm cites its table's text
}


class SimulationError(RuntimeError):
    """The workstation refused what the simulator did: a bug in the simulator."""


@dataclass
class Item:
    """One step of a table, at its simulated time: ``fn(desk)`` does it; its value goes back."""

    time: datetime
    fn: Callable[[Desk], Any]


def regular_of(table: str, player: int, seated_cards) -> tuple[str, str] | None:
    """The regular (name, card) who is the table's ``player``-th player to sit down, or None: two
    players in five are regulars (app/simulate/regulars.py), each table's own, none seated twice.
    Which players are regulars follows from their number, not from the table's dice, and the
    simulator knows each player by the same id whether they show a card or not, so that a shift's
    rounds are the same with or without the ratings."""
    if player % 5 not in (1, 3):
        return None
    k = (player * 3) % len(REGULARS)
    card = f"PC-{table}-{k + 1:02d}"
    if card in seated_cards:
        return None
    return f"{REGULARS[k]} ({table})", card


class TableDay(TrayDay):
    """Table ``index`` of the shift (``shift``, app/simulate/shift.py), playing ``rounds`` settled
    rounds of profile ``name``."""

    def __init__(self, shift, index: int, name: str, rounds: int):
        self.shift = shift
        self.index = index
        self.id = f"T{index + 1}"
        self.rng = random.Random(shift.rng.getrandbits(64))
        self.n_rounds = rounds
        self.dealer = f"dealer-{self.id}"
        self.t = shift.start + timedelta(minutes=2 * index, seconds=self.rng.randint(0, 59))
        self.players = 0
        self.decks_made = 0
        self.rng_down = 0
        self.rng_fault = False
        self.dice_change_at: datetime | None = None
        self.owner: dict[int, str] = {}   # seat -> the player seated there
        self.cards: dict[str, str] = {}   # a player who showed a card -> the card (issue 36)
        self.methods_used: set[str] = set()
        self.profile = profile(name)
        self.rules = self.profile.rules
        self.ranker = self.profile.ranker()
        self.house = self.profile.house()
        self.seats = table_seats(self.rules)
        self.face_up = "player-dealer" in self.rules.banking_modes
        self.last_wager_of: dict[int, int] = {}
        self.pd_seat: int | None = None
        self.pd_hands = 0
        self.devices = shift.devices[self.id]
        # the progressive meter as the log last read it (the controller's, then each settlement's)
        self.meter: int | None = None
        self.money_start()

    # -- helpers ---------------------------------------------------------------------------
    @property
    def state(self) -> TableState:
        """The table's state as the log holds it now."""
        return self.shift.desk.ws.state_of(self.id)[0]

    @property
    def stats(self) -> Counter:
        return self.shift.stats

    def wait(self, low: int, high: int) -> None:
        self.t += timedelta(seconds=self.rng.randint(low, high))

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def call(self, fn: Callable[[Desk], Any]) -> Item:
        return Item(self.t, fn)

    def ev(self, type_: str, who: str | None = None, **data) -> Item:
        """A table event recorded now by ``who`` (default: the floor supervisor at the desk); its
        ``Changes`` go back. The workstation's refusal is a simulator bug (the shift says so)."""
        t, table = self.t, self.id

        def do(desk: Desk):
            old = self.state
            changed = desk.record(who or desk.operator(t), table, type_, data)
            self.count(old, self.state, type_)
            return changed
        return Item(t, do)

    def rate(self, seat: int, card: str, player: str) -> Item:
        """The floor supervisor rates a regular sitting down at ``seat`` now."""
        t, table = self.t, self.id

        def do(desk: Desk):
            old = self.state
            changed = desk.rate(desk.operator(t), table, seat, card, player)
            self.count(old, self.state, "player_seated")
            return changed
        return Item(t, do)

    def unrate(self, seat: int) -> Item:
        """The rated regular at ``seat`` stands up now."""
        t, table = self.t, self.id

        def do(desk: Desk):
            old = self.state
            changed = desk.unrate(desk.operator(t), table, seat)
            self.count(old, self.state, "player_left")
            return changed
        return Item(t, do)

    def events(self, events: list[tuple[str, dict]], who: str) -> Item:
        """Table events ``who`` records at one sitting at the desk, now."""
        t, table = self.t, self.id

        def do(desk: Desk):
            for type_, data in events:
                old = self.state
                desk.record(who, table, type_, data)
                self.count(old, self.state, type_)
        return Item(t, do)

    def count(self, old: TableState, new: TableState, type_: str) -> None:
        """The shift's counts of what the event did to the table."""
        self.stats["decks_received"] += len(set(new.decks) - set(old.decks))
        gone = len(set(old.decks) - set(new.decks))
        self.stats["decks_removed"] += gone
        if gone and new.state != "closed":
            self.stats["decks_changed"] += gone
        for irr in new.irregularities[len(old.irregularities):]:
            self.stats["irregularities"] += 1
            self.shift.irregularity_kinds.add(irr.kind)
        if type_ == "dice_placed":
            self.stats["dice_placed"] += 1
            if old.dice_placed is not None:
                self.stats["dice_changed"] += 1

    def device(self, cls: str, message: dict) -> Item:
        """The table's device of class ``cls`` sends ``message`` (the workstation's pump takes it)."""
        table = self.id

        def do(desk: Desk):
            old = self.state
            changed = desk.device_says(table, cls, message)
            # the workstation raises an irregularity's alarm for the floor as it stood (the next pump)
            changed |= desk.pump()
            self.count(old, self.state, "")
            return changed
        return Item(self.t, do)

    def link(self, cls: str, old: str, new: str, reason: str = "") -> Item:
        table = self.id

        def do(desk: Desk):
            return desk.link(table, cls, old, new, reason) | desk.pump()
        return Item(self.t, do)

    def acknowledge(self) -> Iterator[Item]:
        """The floor supervisor acknowledges the table's open alarms, each with its reason (with an
        irregularity's alarm, the irregularity it stands for, 000(n))."""
        self.wait(15, 90)
        table = self.id

        def do(desk: Desk):
            for a in desk.open_alarms(table):
                reason = ACKNOWLEDGED.get(a.kind, "seen to at the table").format(a.message.split(":")[0])
                desk.signed(desk.operator(self.t)).decisions.acknowledge_alarm(a.id, reason)
        yield self.call(do)

    def irregularity(self, kind: str, **data) -> Iterator[Item]:
        """An irregularity recorded at the table; the workstation raises an alarm for one a
        supervisor must acknowledge, and the floor supervisor does."""
        self.wait(5, 40)
        changed = yield self.ev(kind, **data)
        if changed.alarms:
            yield from self.acknowledge()

    # -- the table's day -----------------------------------------------------------------------
    def run(self) -> Iterator[Item]:
        yield from self.open()
        for _ in range(self.n_rounds):
            yield from self.play_round()
        yield from self.close()

    def play_round(self) -> Iterator[Item]:
        """A round, played until it is settled and released (app/simulate/round_play.py)."""
        raise NotImplementedError

    def choose_method(self) -> str:
        """How the dealer deals the next decks: a method of the profile's the table has not dealt
        by yet this shift, if any (the pit moves its shufflers and shoes between tables), else any.
        The method never changes what a hand can be: every deal is of a shuffled deck."""
        methods = list(self.rules.procedures.deal)
        method = self.rng.choice([m for m in methods if m not in self.methods_used] or methods)
        self.methods_used.add(method)
        return method

    def open(self) -> Iterator[Item]:
        self.wait(60, 240)
        self.method = self.choose_method()
        if "progressive" in self.devices:
            # the controller says its meter as the table opens (000(q)(5)): the meter the rounds read
            self.meter = self.rules.progressive_reset_cents + self.rng.randrange(0, 500_000, 100)
            yield self.device("progressive", {"type": "meter", "cents": self.meter})
        yield from self.new_decks()
        yield from self.tray_open()
        if self.state.dice_placed is None:
            yield self.ev("dice_placed")
            self.plan_dice()
        # 000(f)(4)(i): the first player to the table is offered the first cut
        lo = 3 if self.face_up else 2
        for _ in range(self.rng.randint(lo, len(self.seats))):
            yield from self.seat_player()

    def seat_player(self) -> Iterator[Item]:
        free = [s for s in self.seats if s not in self.state.seated]
        if not free:
            return
        self.players += 1
        name = f"{self.id}-p{self.players:02d}"
        seat = self.rng.choice(free)
        self.wait(5, 40)
        seated_cards = {self.cards[self.owner[x]] for x in self.state.seated if self.owner.get(x) in self.cards}
        regular = regular_of(self.id, self.players, seated_cards)
        if regular is None:
            yield self.ev("player_seated", seat=seat, player=name)
        else:
            # a regular shows their player's card: rated from the moment they sit (issue 36)
            shown, card = regular
            self.cards[name] = card
            yield self.rate(seat, card, shown)
        self.owner[seat] = name
        yield from self.buy_in(seat)     # the player buys chips with cash as they sit down
        # 000(o)(1), 001 11.12: one player may play two adjacent betting areas
        if self.rules.adjacent_areas > 1 and self.rng.random() < 0.15:
            nxt = [s for s in (seat - 1, seat + 1) if s in free and s != seat]
            if nxt:
                other = self.rng.choice(nxt)
                yield self.ev("player_seated", seat=other, player=name)
                self.owner[other] = name

    def close(self) -> Iterator[Item]:
        self.wait(30, 120)
        yield self.ev("table_closed")
        for deck in list(self.state.decks):
            self.wait(10, 30)
            yield self.ev("deck_removed", deck=deck)
        yield from self.tray_close()
        self.wait(60, 300)

    # -- decks and dice --------------------------------------------------------------------
    def deck_count(self) -> int:
        # 000(b)(2): two decks of different backs alternate with a shuffler that needs them
        return 2 if self.method == "automated-shoe" else 1

    def new_decks(self) -> Iterator[Item]:
        """000(e)(1)-(3): received and inspected by the dealer, who comes to the desk to record
        both once the cards are inspected; verified by the floor supervisor; spread and washed."""
        held = self.state.decks
        made = []
        for _ in range(self.deck_count() - len(held)):
            self.decks_made += 1
            colours = [c for c in COLOURS if not any(d.startswith(c) for d in held)]
            made.append(f"{colours[self.decks_made % len(colours)]}-{self.decks_made:03d}")
        self.wait(10, 40)
        self.wait(45 * len(made), 120 * len(made))
        yield self.events([(type_, {"deck": deck}) for deck in made for type_ in ("deck_received", "deck_inspected")],
                          self.dealer)
        for deck in made:
            self.wait(20, 90)
            yield self.ev("deck_verified", deck=deck)
            self.wait(10, 30)
            yield self.ev("deck_spread", deck=deck)
            self.wait(20, 60)
            yield self.ev("deck_washed", deck=deck)
        self.counting = self.method in SHUFFLERS and self.rng.random() < 0.5
        # the pit changes the cards some time before they are due (000(e)(5))
        first = min(d.received for d in self.state.decks.values())
        self.change_at = first + (self.deadline() - first) * self.rng.uniform(0.55, 0.95)

    def deadline(self) -> datetime:
        """When the first of the table's decks is due for change, as the workstation's clocks read it."""
        state = self.state
        return min(table_deck_deadline(d, state, self.rules)[0] for d in state.decks.values())

    def change_decks(self) -> Iterator[Item]:
        for deck in list(self.state.decks):
            self.wait(10, 40)
            yield self.ev("deck_removed", deck=deck)
        self.method = self.choose_method() if self.rng.random() < 0.6 else self.method
        yield from self.new_decks()

    def plan_dice(self) -> None:
        # dice leave the table within 24 hours (000(d)(1)(ii)); many pits change them sooner
        self.dice_change_at = self.state.dice_placed + timedelta(hours=self.rng.uniform(3, 8))

    # -- between rounds --------------------------------------------------------------------
    def between_rounds(self) -> Iterator[Item]:
        s = self.state
        if s.state == "round_complete" and s.rounds_played:
            # players come and go
            lo = 3 if self.face_up else 2
            if len(s.seated) > lo and self.rng.random() < 0.05:
                player = self.owner[self.rng.choice(s.seated)]
                for x in [x for x in s.seated if self.owner[x] == player]:
                    self.wait(5, 30)
                    if player in self.cards:
                        yield self.unrate(x)
                    else:
                        yield self.ev("player_left", seat=x, player=player)
            if len(self.state.seated) < len(self.seats) and self.rng.random() < 0.06:
                yield from self.seat_player()
        # 000(e)(5): the cards before their deadline (and as planned)
        if self.t + timedelta(minutes=15) >= self.deadline() or self.t >= self.change_at:
            yield from self.change_decks()
        # 000(d)(1)(ii): dice within 24 hours, as planned
        if self.t >= self.dice_change_at or self.t + timedelta(hours=1) >= dice_deadline(self.state.dice_placed,
                                                                                        self.rules)[0]:
            self.wait(20, 60)
            yield self.ev("dice_placed")
            self.plan_dice()
        yield from self.stub_count()
        if s.state == "round_complete" and s.rounds_played:
            yield from self.tray_between_rounds()
        # device faults now and then
        if "progressive" in self.devices and self.chance(PROGRESSIVE_FAULT):
            yield from self.progressive_restart()
        if self.rng_down:
            self.rng_down -= 1
            if not self.rng_down:
                self.wait(5, 30)
                yield self.link("rng", "offline", "online")

    def stub_count(self) -> Iterator[Item]:
        """001 11.17(h): the stub is counted at least once every five rounds (without a counting shuffler)."""
        if self.method == "three-four" and not self.counting and self.state.state in ("round_complete", "betting") \
                and self.state.rounds_since_count >= (4 if self.rng.random() < 0.8 else 2):
            self.wait(20, 60)
            # a short count removes the deck; only between rounds (in betting the engine would
            # remove the deck just shuffled but keep it as the deck in play)
            wrong = self.state.state == "round_complete" and self.chance(COUNT_WRONG)
            changed = yield self.ev("stub_counted", deck_total=52 if wrong else 53)
            if wrong:
                if changed.alarms:
                    yield from self.acknowledge()
                yield from self.new_decks()

    def progressive_restart(self) -> Iterator[Item]:
        """000(q)(6): the controller drops off its link and restarts; back online it restores the
        meter from its last reading, a reset the pit manager approves."""
        yield self.link("progressive", "online", "offline", "the controller restarted")
        yield from self.acknowledge()
        self.wait(30, 120)
        yield self.link("progressive", "offline", "online")
        changed = yield self.device("progressive", {"type": "reset", "cents": self.meter})
        yield from self.decide(sorted(changed.approvals))

    def decide(self, requests: list[int]) -> Iterator[Item]:
        """Each pending request approved by the role it needs: the floor supervisor at the desk, or
        the pit manager, who comes to the desk for it."""
        for request in requests:
            self.wait(20, 150)

            def do(desk: Desk, request=request):
                req = next(a for a in desk.ws.reads.approvals(True, self.id) if a.request == request)
                who = self.shift.pit_manager if req.role_needed == "pit manager" else desk.operator(self.t)
                desk.signed(who).decisions.decide(request, "approved", f"checked: {req.reason}")
            yield self.call(do)
