"""What the devices of one table report, turned into what the table must do about it.

A decoded message (``messages.decode_message``'s dict) or a change of a link's state goes in;
actions come out: engine events for the table's procedures, alarms for the supervisor, device
faults, progressive meter readings, approval requests, and readings (device facts with no
effect on the procedures). docs/devices.md, "From device events to table events", lists every
rule.

Pure: no threads, no I/O, no clock. Time comes in with each message and goes out in the engine
events. The mapping does not know the table's state, so the engine may refuse an event it makes
(a shuffle_started while dealing); ``apply_events`` feeds the events to the engine and turns a
refusal into a device fault naming the engine's reason. Nothing here raises on what a device
sends: a message that does not fit is a fault.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from app.engine import position as positions
from app.engine.cards import DECK_SIZE, card_str
from app.engine.citations import noted
from app.engine.deal import four_card_check
from app.engine.money import dollars
from app.engine.players import table_seats
from app.engine.procedure import Event, Refused, TableState
from app.engine.profile import RuleProfile

from .messages import BY_NAME, HAND, SPECS, Spec

DEVICE_CLASSES = tuple(sorted({s.device for s in SPECS} - {"link"}))   # progressive, rng, shoe, shuffler
LINK_STATES = ("connecting", "online", "degraded", "offline")          # docs/devices.md, "The session"
ROLE = "device"
DECK = 53            # 000(b)(1): 52 cards and one joker
MIN_METER = 1_000_000  # 000(q)(6): the initial and reset amounts are at least $10,000
# 000(q)(5): the meter grows by at least 21% of a $1.00 wager and 27% of a $5.00 wager, so an
# increment under 21 cents is too small for either
MIN_INCREMENT = 21

# what a supervisor does when a device drops off the link, and the matter the table's own text
# cites for it (``RuleProfile.cite``: 000(n)(15), 001 11.11(o); 003 DICE SHAKING for the RNG)
OFFLINE = {
    "shuffler": ("shuffle by hand only once the shuffler is removed from the table", "device_removed"),
    "shoe": ("deal another way only once the shoe is removed from the table", "device_removed"),
    "progressive": ("progressive wagers are closed until it is back", "progressive_offline"),
    "rng": ("count the starting position with the dice", "rng_offline"),
}


# -- actions -----------------------------------------------------------------------------------
@dataclass(frozen=True)
class TableEvent:
    """An event for the table's procedures (``Floor.record``); the engine may refuse it."""
    event: Event
    device: str


@dataclass(frozen=True)
class Alarm:
    """For the supervisor's attention: store record ``alarm_raised``."""
    kind: str
    message: str
    rule: str = ""
    serial: str = ""


@dataclass(frozen=True)
class DeviceFault:
    """A device that failed or said something it should not: store record ``device_fault``."""
    device: str          # the device class, or "unknown" for a serial not configured here
    code: str
    message: str
    serial: str = ""


@dataclass(frozen=True)
class MeterReading:
    """The progressive meter: store record ``meter_reading``; source is controller or reset."""
    cents: int
    source: str
    serial: str = ""
    coalesced: int = 0     # readings before it that it superseded, not logged (app/devices/coalesce.py)


@dataclass(frozen=True)
class ApprovalRequest:
    """For ``Approvals.request``; kind is one of app/store/approvals.py KINDS. role_needed None
    leaves the kind's own role."""
    kind: str
    seat: int | None
    cents: int | None
    reason: str
    rule: str
    role_needed: str | None = None
    serial: str = ""
    line: str = ""       # a progressive hit: the pay-table line as the controller named it


@dataclass(frozen=True)
class Reading:
    """A device fact with no effect on the procedures, for the supervisor's panel and the audit:
    what is the message type (or "link"), values its fields, note what it means."""
    device: str
    what: str
    values: dict = field(default_factory=dict)
    note: str = ""
    serial: str = ""


@dataclass(frozen=True)
class HandRead:
    """The seven cards a card-recognising shuffler read for one position: store record
    ``hand_read``, the round's cards for that position (the round draft in app/workstation reads
    it). A misread is logged too, as read, with a ``DeviceFault("misread")`` beside it: the round
    shows what is wrong and waits for a person."""
    position: int        # 0 the dealer, or a seat as docs/table-layout.md numbers them
    deck: str
    cards: tuple[str, ...]   # the engine's text form, in the order read
    serial: str = ""
    deal: str = ""           # the deal it belongs to: the deck and when its hands were dispensed
    hands: int = 7           # how many hands that deal dispensed: the deal is read when all are


Action = TableEvent | Alarm | DeviceFault | MeterReading | ApprovalRequest | Reading | HandRead


def apply_events(actions: list[Action], apply: Callable[[Event], object]) -> list[Action]:
    """Feed the table events to ``apply`` in order (``lambda e: floor.record(table, e)``). An
    event the engine refuses becomes a device fault with the engine's reason: the device reported
    something the procedures do not allow now, and the log keeps that it did."""
    out: list[Action] = []
    for a in actions:
        if isinstance(a, TableEvent):
            try:
                apply(a.event)
            except Refused as r:
                out.append(DeviceFault(a.device, "refused", f"{a.event.type} from {a.event.actor} was refused: {r}",
                                       a.event.actor))
                continue
        out.append(a)
    return out


def rng_position(number: int, state: TableState, rules: RuleProfile, time: datetime, serial: str) -> Event | None:
    """``position_determined`` for the number the RNG shows (000(k)(3)), counted from the bank
    when a player banks (000(m)(8)(ii)-(iii), (10)(ii)-(iii)); None when the table is not
    waiting for a starting position counted by an RNG."""
    if "rng" not in rules.procedures.starting_position or not 1 <= number <= 7:
        return None
    if state.state not in ("no_more_bets", "dealing"):
        return None
    if state.state == "no_more_bets" and state.dealing_method == "hand":
        return None  # 000(i)(4)-(5): from the hand the stacks are dealt and checked first
    bank = state.bank[0] if state.bank and state.bank_mode in ("player", "co-bank") else None
    found = positions.rng(number, bank)
    return Event("position_determined", time, serial, ROLE, {"method": "rng", "value": number,
                                                             "position": found.position})


# -- one table's devices -----------------------------------------------------------------------
_RANGE = {"B": 0xFF, "H": 0xFFFF, "I": 0xFFFF_FFFF, "Q": 0xFFFF_FFFF_FFFF_FFFF}
CARD_TEXTS = frozenset(card_str(c) for c in range(DECK_SIZE))   # what decode_message makes of a card


def _malformed(spec: Spec, msg: Mapping) -> str | None:
    """Why ``msg`` is not what ``decode_message`` makes of ``spec``, or None."""
    if spec.name != "hello" and msg.get("device") != spec.device:
        return f"{spec.name}: device {msg.get('device')!r}, the message table says {spec.device!r}"
    for name, code in spec.fields:
        if name not in msg:
            return f"{spec.name}: missing field {name!r}"
        v = msg[name]
        if code == "str":
            ok = isinstance(v, str)
        elif code == "cards":
            ok = (isinstance(v, (list, tuple)) and len(v) <= HAND
                  and all(isinstance(c, str) and c in CARD_TEXTS for c in v))
        elif code == "?":
            ok = isinstance(v, bool)
        else:
            ok = isinstance(v, int) and not isinstance(v, bool) and 0 <= v <= _RANGE[code]
        if not ok:
            return f"{spec.name}: field {name}={v!r} does not fit"
    if spec.name == "rng_number" and not 1 <= msg["number"] <= 7:
        return f"rng_number: the display shows 1 to 7, got {msg['number']}"
    return None


def _said(line: str) -> str:
    """A pay-table line as a person says it: ``five_aces_and_pair`` -> ``five aces and pair``."""
    return line.replace("_", " ")


def _position(pos: int) -> str:
    """A position as a supervisor says it (docs/table-layout.md): the dealer, or seat N."""
    return "the dealer" if pos == 0 else f"seat {pos}"


def line_key(line: str) -> str:
    """A line as a controller names it ("Natural Royal Flush and Pair") as the pay tables key it
    (``natural_royal_and_pair``)."""
    key = re.sub(r"[^a-z0-9]+", "_", line.lower()).strip("_")
    return key.replace("royal_flush", "royal")


class TableDevices:
    """The devices of one table: ``devices`` maps each serial to its class (shuffler, shoe,
    progressive, rng). Keeps what a message means only with what came before: the card count
    waiting for its shuffle_completed, the stacks of the current deal, the meter last logged,
    the acceptor lights, and which links are down. ``progressive_online`` is the engine's view
    when the mapping starts (None: unknown, so the first link state is reported)."""

    def __init__(self, table: str, rules: RuleProfile, devices: Mapping[str, str],
                 progressive_online: bool | None = None) -> None:
        bad = {s: c for s, c in devices.items() if c not in DEVICE_CLASSES}
        if bad:
            raise ValueError(f"table {table}: device classes are {', '.join(DEVICE_CLASSES)}; got {bad}")
        self.table, self.rules, self.devices = table, rules, dict(devices)
        seats = table_seats(rules)
        # 000(h)(3): the dealer's position and each betting position receive a hand; in 002 the
        # seven hands go to seven seats
        self.positions = seats if len(seats) == 7 else (0,) + seats
        self.seats = seats
        self.three_four = "three-four" in rules.procedures.deal
        self.counts: dict[str, int] = {}       # deck -> card_count awaiting its shuffle_completed
        self.in_shuffler: str | None = None    # the deck the shuffler last reported on
        self.shuffling: str | None = None      # started and not completed
        self.colours: dict[str, str] = {}
        self.dispensed: dict[str, int] = {}    # deck -> cards per hand last dispensed
        self.read: dict[str, dict[int, list[str]]] = {}  # deck -> position -> the cards read this deal
        self.deals: dict[str, tuple[str, int]] = {}      # deck -> (its deal, the hands it dispensed)
        self.stacks: list[tuple[int, int]] = []  # (position, cards) of the shoe's current deal
        self.meter: int | None = None          # the meter last logged
        self.hits = 0                          # hits reported and not yet off the meter
        self.locked = False
        self.lights: int | None = None
        self.link: dict[str, str] = {}
        self.down: set[str] = set()
        self.progressive_online = progressive_online
        self._handlers: dict[str, Callable[[dict, datetime, str, str], list[Action]]] = {
            "shuffle_started": self._shuffle_started, "card_count": self._card_count,
            "shuffle_completed": self._shuffle_completed, "hands_dispensed": self._hands_dispensed,
            "hand_read": self._hand_read, "deck_colour": self._deck_colour, "self_test": self._self_test,
            "door_open": self._door_open,
            "jam": self._jam, "stack_dispensed": self._stack_dispensed, "cards_remaining": self._cards_remaining,
            "card_face_up": self._card_face_up, "shoe_jam": self._shoe_jam, "meter": self._meter,
            "increment": self._increment, "lockout": self._lockout, "acceptor_lights": self._acceptor_lights,
            "hit_pending": self._hit_pending, "reset": self._reset, "key_switch": self._key_switch,
            "rng_number": self._rng_number,
        }
        assert set(self._handlers) == {s.name for s in SPECS if s.device != "link"}

    # -- messages --------------------------------------------------------------------------
    def on_message(self, msg: Any, time: datetime, serial: str) -> list[Action]:
        cls = self.devices.get(serial)
        if cls is None:
            return [DeviceFault("unknown", "not_configured",
                                f"a message from {serial!r}, which is not configured at table {self.table}",
                                str(serial))]
        kind = msg.get("type") if isinstance(msg, Mapping) else None
        spec = BY_NAME.get(kind) if isinstance(kind, str) else None
        if spec is None:
            return [DeviceFault(cls, "unknown_message", f"unknown message {kind!r} from {cls} {serial}", serial)]
        problem = _malformed(spec, msg)
        if problem:
            return [DeviceFault(cls, "bad_message", problem, serial)]
        if spec.device == "link":
            return self._hello(msg, serial, cls) if kind == "hello" else []
        if spec.device != cls:
            return [DeviceFault(cls, "wrong_class", f"{kind} is a {spec.device} message; {serial} is configured "
                                                    f"as a {cls}", serial)]
        return self._handlers[kind](dict(msg), time, serial, cls)

    def _event(self, type_: str, time: datetime, serial: str, cls: str, **data) -> TableEvent:
        return TableEvent(Event(type_, time, serial, ROLE, data), cls)

    def _hello(self, msg: dict, serial: str, cls: str) -> list[Action]:
        if msg["device"] != cls:
            return [DeviceFault(cls, "wrong_class", f"{serial} says it is a {msg['device']}; it is configured as "
                                                    f"a {cls}", serial)]
        if msg["serial"] != serial:
            return [DeviceFault(cls, "serial_mismatch", f"the link of {serial} says hello as {msg['serial']!r}",
                                serial)]
        return [Reading(cls, "hello", {"firmware": msg["firmware"]}, "identified", serial)]

    # shuffler (000(b)(2), (f)(1), (n)(13); 001 11.17(i)) -------------------------------------
    def _shuffle_started(self, msg, time, serial, cls):
        deck = msg["deck"]
        self.in_shuffler = self.shuffling = deck
        self.counts.pop(deck, None)
        self.dispensed.pop(deck, None)
        self.read.pop(deck, None)   # a new shuffle, a new deal: no card of it has been read
        return [self._event("shuffle_started", time, serial, cls, deck=deck)]

    def _card_count(self, msg, time, serial, cls):
        # the shuffler reports its count before the shuffle_completed of the same deck
        self.counts[msg["deck"]] = msg["count"]
        self.in_shuffler = msg["deck"]
        return [Reading(cls, "card_count", {"deck": msg["deck"], "count": msg["count"]},
                        f"{DECK} expected ({self.rules.cite('deck_count')})", serial)]

    def _shuffle_completed(self, msg, time, serial, cls):
        deck = msg["deck"]
        self.in_shuffler, self.shuffling = deck, None
        count = self.counts.pop(deck, None)
        data = {"deck": deck, "manual": False} | ({"card_count": count} if count is not None else {})
        out: list[Action] = [self._event("shuffle_completed", time, serial, cls, **data)]
        if count is not None and count != DECK:
            # the engine removes the deck (001 11.17(i), 000(b)(1)); the supervisor replaces it
            out.append(Alarm("deck_count_wrong", f"the shuffler counted {count} cards in deck {deck!r}, not {DECK}: "
                                                 "the deck is removed from the table", self.rules.cite("deck_count"),
                             serial))
        return out

    def _hands_dispensed(self, msg, time, serial, cls):
        deck, hands, per = msg["deck"], msg["hands"], msg["cards_per_hand"]
        before = self.dispensed.get(deck)
        self.dispensed[deck] = per
        self.in_shuffler = deck
        if per != 4:   # a new deal (001 11.17: the four-card stacks follow the three-card ones of the same deal)
            self.read.pop(deck, None)
            self.deals[deck] = (f"{deck} {time.isoformat(timespec='milliseconds')}", min(hands, len(self.positions)))
        out: list[Action] = [Reading(cls, "hands_dispensed", {"deck": deck, "hands": hands, "cards_per_hand": per},
                                     self.rules.cite("hand_size"), serial)]
        wrong = None
        if hands > 7:
            wrong = f"{hands} hands at once; a round has at most seven ({self.rules.cite('hand_size')})"
        elif per == 7:
            pass
        elif not self.three_four or per not in (3, 4):
            wrong = (f"hands of {per} cards; hands are dealt seven cards"
                     + (", or three then four" if self.three_four else "") + f" ({self.rules.cite('hand_size')})")
        elif per == 4 and before not in (3, 4):
            wrong = "four-card stacks before the three-card stacks (001 11.17(d)-(g))"   # three_four: 001's alone
        elif per == 3 and before == 4:
            wrong = "three-card stacks after the four-card stacks of the same shuffle (001 11.17(d)-(g))"
        if wrong:
            void = self.rules.cite("wrong_number_of_cards")
            out.append(Alarm("hands_dispensed_wrong", f"the shuffler dispensed {wrong}, deck {deck!r}; a hand of the "
                                                      f"wrong size voids all hands ({void})", void, serial))
        return out

    def _hand_read(self, msg, time, serial, cls):
        # the cards a card-recognising shuffler read for one position, after its hands_dispensed
        deck, pos, cards = msg["deck"], msg["position"], list(msg["cards"])
        if pos not in self.positions:
            return [DeviceFault(cls, "bad_position", f"a hand read for position {pos}; the positions are "
                                                     f"{', '.join(map(str, self.positions))}", serial)]
        self.in_shuffler = deck
        hands = self.read.setdefault(deck, {})
        hands.pop(pos, None)   # read again: this read replaces the last one of the position
        wrong = []
        if len(cards) < HAND:
            # 000(h)(3), (j)(1): seven cards a position; a hand that really holds another number
            # voids all hands (000(n)(8)), so a person counts it
            wrong.append(f"{len(cards)} cards, not seven; a hand of another size voids all hands "
                         f"({self.rules.cite('hand_size')})")
        twice = sorted({c for c in cards if cards.count(c) > 1}, key=cards.index)
        if twice:
            # 000(b)(1): one deck, 52 cards and a joker: no card is in it twice
            once = noted(self.rules.cite("one_deck"), "one deck, each card once")
            wrong.append(f"{', '.join(twice)} read twice in the hand ({once})")
        for other, held in sorted(hands.items()):
            both = [c for c in dict.fromkeys(cards) if c in held]
            if both:
                wrong.append(f"{', '.join(both)} also read for {_position(other)} from the same deck "
                             f"({self.rules.cite('one_deck')})")
        hands[pos] = cards
        # a read with no hands_dispensed before it (a link that came up mid-deal) is its own deal
        deal, dealt = self.deals.setdefault(deck, (f"{deck} {time.isoformat(timespec='milliseconds')}",
                                                   len(self.positions)))
        out: list[Action] = [HandRead(pos, deck, tuple(cards), serial, deal, dealt)]
        if wrong:
            out.append(DeviceFault(cls, "misread", f"the shuffler misread {_position(pos)}'s hand from deck {deck!r} "
                                                   f"({' '.join(cards) or 'no cards'}): {'; '.join(wrong)}; the "
                                                   "hand waits for a person to check its cards", serial))
        return out

    def _deck_colour(self, msg, time, serial, cls):
        deck, colour = msg["deck"], msg["colour"]
        self.colours[deck] = colour
        rule = self.rules.cite("deck_colours")
        out: list[Action] = [Reading(cls, "deck_colour", {"deck": deck, "colour": colour}, rule, serial)]
        alike = [d for d, c in self.colours.items() if d != deck and c.strip().lower() == colour.strip().lower()]
        if alike:
            out.append(Alarm("deck_colours_alike", f"decks {alike[0]!r} and {deck!r} both have {colour} backs; the "
                                                   "two decks differ in colour", rule, serial))
        return out

    def _self_test(self, msg, time, serial, cls):
        if msg["passed"]:
            return [Reading(cls, "self_test", {"passed": True, "code": msg["code"]}, "passed", serial)]
        what, matter = OFFLINE[cls]
        return [DeviceFault(cls, f"self_test {msg['code']}", f"{cls} {serial} failed its self-test", serial),
                Alarm(f"{cls}_self_test_failed", f"the {cls} failed its self-test (code {msg['code']}): {what}",
                      self.rules.cite(matter), serial)]

    def _door_open(self, msg, time, serial, cls):
        if not msg["open"]:
            return [Reading(cls, "door_open", {"open": False}, "closed", serial)]
        rule = self.rules.cite("incomplete_shuffle") if self.shuffling else ""
        during = (f" during the shuffle of deck {self.shuffling!r}: a shuffle that stops is reshuffled ({rule})"
                  if self.shuffling else "")
        return [Alarm(f"{cls}_door_open", f"the {cls}'s door is open{during}", rule, serial)]

    def _jam(self, msg, time, serial, cls):
        # 000(n)(13): the cards are reshuffled; 003 GENERAL RULES 5: all hands void. The deck
        # the shuffler last reported on lets the engine tell the other deck from the one in play
        # (000(b)(2)(iii))
        deck = {"deck": self.in_shuffler} if self.in_shuffler is not None else {}
        self.shuffling = None
        return [DeviceFault(cls, f"jam {msg['code']}", msg["text"] or "jam", serial),
                self._event("shuffler_jam", time, serial, cls, code=msg["code"], text=msg["text"], **deck)]

    # automated dealing shoe (000(j), (n)(6), (14)) --------------------------------------------
    def _stack_dispensed(self, msg, time, serial, cls):
        pos, cards = msg["position"], msg["cards"]
        if pos not in self.positions:
            return [DeviceFault(cls, "bad_position", f"a stack for position {pos}; the positions are "
                                                     f"{', '.join(map(str, self.positions))}", serial)]
        out: list[Action] = [Reading(cls, "stack_dispensed", {"position": pos, "cards": cards},
                                     self.rules.cite("hand_size"), serial)]
        if self.three_four and cards in (3, 4):
            return out  # 001 11.17(b), (g)2: the stub count checks these, not the four-card check
        if len(self.stacks) == 7:
            self.stacks = []  # a new deal
        self.stacks.append((pos, cards))
        if cards != 7:
            out.append(Alarm("stack_wrong_size", f"the shoe dispensed {cards} cards for position {pos}, not seven: "
                                                 "a hand of the wrong size voids all hands",
                             self.rules.cite("hand_size"), serial))
        return out

    def _cards_remaining(self, msg, time, serial, cls):
        count = msg["count"]
        sizes = [c for _, c in self.stacks]
        values = {"count": count, "stacks": len(sizes), "hand_sizes": sizes}
        if len(sizes) < 7:
            return [Reading(cls, "cards_remaining", values, "", serial)]
        verdict, rule = four_card_check(count, sizes, self.rules)
        out: list[Action] = [Reading(cls, "cards_remaining", values,
                                     f"after seven stacks, for the dealer's four-card check: {verdict} ({rule})",
                                     serial)]
        if verdict != "ok":
            out.append(Alarm("four_card_check", f"the shoe holds {count} cards after seven stacks, not four: "
                                                f"{rule}", rule, serial))
        return out

    def _card_face_up(self, msg, time, serial, cls):
        n = msg["count"]
        if n == 0:
            return [Reading(cls, "card_face_up", {"count": 0}, "none", serial)]
        # 000(n)(6): one card face up goes to the discard rack; more than one voids all hands
        kind = "card_face_up_in_shoe" if n == 1 else "cards_face_up_in_shoe"
        return [self._event(kind, time, serial, cls, count=n)]

    def _shoe_jam(self, msg, time, serial, cls):
        # 000(n)(14): the round is void; the cards are removed and reshuffled with those dealt
        self.stacks = []
        return [DeviceFault(cls, f"jam {msg['code']}", msg["text"] or "jam", serial),
                self._event("shoe_jam", time, serial, cls, code=msg["code"], text=msg["text"])]

    # progressive controller (000(q), 001 11.14) ----------------------------------------------
    def _seat_fault(self, cls, serial, kind, seat) -> list[Action]:
        if seat in self.seats:
            return []
        return [DeviceFault(cls, "bad_seat", f"{kind} for seat {seat}; the seats are "
                                             f"{', '.join(map(str, self.seats))}", serial)]

    def _meter(self, msg, time, serial, cls):
        cents = msg["cents"]
        # a reading that stands for a run of them (the link thins a broadcast, app/devices/coalesce.py)
        # carries the falls inside the run, which no logged value shows
        falls, coalesced = msg.get("falls", 0), msg.get("coalesced", 0)
        if cents == self.meter and not falls:
            return []  # the controller broadcasts the meter; only a change is logged
        out: list[Action] = [MeterReading(cents, "controller", serial, coalesced)]
        fell = self.meter is not None and cents < self.meter
        if max(int(fell), falls) > (1 if self.hits else 0):
            # 000(q)(5), (6): the meter falls only by a payout deducted from it (one per hit) or a reset
            if falls:
                a, b = msg["fell"]
                what = (f"fell from {dollars(a)} to {dollars(b)} between readings the link coalesced ({coalesced} "
                        f"not logged, {falls} fall{'s' if falls > 1 else ''})")
            else:
                what = f"fell from {dollars(self.meter)} to {dollars(cents)}"
            out.append(Alarm("meter_fell", f"the progressive meter {what} with no hit or reset reported",
                             self.rules.cite("progressive_meter"), serial))
        if fell or falls:
            self.hits = 0
        self.meter = cents
        return out

    def _increment(self, msg, time, serial, cls):
        seat, cents = msg["seat"], msg["cents"]
        bad = self._seat_fault(cls, serial, "an increment", seat)
        if bad:
            return bad
        rate = self.rules.cite("progressive_rate")
        out: list[Action] = [Reading(cls, "increment", {"seat": seat, "cents": cents}, f"the meter grows ({rate})",
                                     serial)]
        if cents < MIN_INCREMENT:
            out.append(Alarm("meter_rate", f"seat {seat}'s progressive wager moved the meter {dollars(cents)}; the rate "
                                           "of progression is at least 21% of a $1.00 wager", rate, serial))
        return out

    def _lockout(self, msg, time, serial, cls):
        self.locked = msg["locked"]
        return [Reading(cls, "lockout", {"locked": self.locked},
                        noted(self.rules.cite("progressive_lockout"), "pressed at No more bets") if self.locked
                        else "released", serial)]

    def _acceptor_lights(self, msg, time, serial, cls):
        lit = msg["lit"]
        if lit == self.lights:
            return []
        seats = [k for k in range(1, 9) if lit >> (k - 1) & 1]   # bit 0 is seat 1
        strange = [k for k in seats if k not in self.seats]
        if strange:
            return [DeviceFault(cls, "bad_lights", f"acceptor lights {lit:#04x} light seat {strange[0]}, which this "
                                                   "table does not have", serial)]
        before = self.lights or 0
        self.lights = lit
        out: list[Action] = [Reading(cls, "acceptor_lights", {"lit": lit, "seats": seats, "count": len(seats)},
                                     "the dealer counts the chips against the lights lit; each player checks his or "
                                     f"her own light ({self.rules.cite('progressive_lockout')})", serial)]
        new = [k for k in seats if not before >> (k - 1) & 1]
        if self.locked and new:
            out.append(Alarm("acceptor_after_lockout", f"the acceptor light of seat {new[0]} came on after the "
                                                       "lock-out: no wager after No more bets",
                             self.rules.cite("progressive_lockout"), serial))
        return out

    def _hit_pending(self, msg, time, serial, cls):
        seat, line, cents = msg["seat"], msg["line"], msg["cents"]
        bad = self._seat_fault(cls, serial, "a hit", seat)
        if bad:
            return bad
        self.hits += 1
        # the top award (100% of the meter) needs a pit manager, as the settlement asks
        # (app/engine/settle.py); anything else the kind's floor supervisor
        key = line_key(line)
        pays = [t.pays[key] for n, t in self.rules.paytables.items() if n.startswith("progressive") and key in t.pays]
        role = "pit manager" if any(p.meter_percent == 100 for p in pays) else None
        known = "" if pays else f" (not a line of the {self.rules.name} pay tables)"
        return [ApprovalRequest("progressive_meter_payout", seat, cents,
                                f"the progressive controller reports seat {seat}: {_said(line)}{known} for {dollars(cents)}",
                                self.rules.cite("progressive_hit"), role, serial, line),
                Alarm("progressive_hit", f"progressive hit at seat {seat}: {_said(line)}, {dollars(cents)}; verify the acceptor "
                                         "light and the hand, a supervisor validates the payout",
                      self.rules.cite("progressive_hit"), serial)]

    def _reset(self, msg, time, serial, cls):
        cents = msg["cents"]
        self.meter, self.hits = cents, 0
        usual = self.rules.progressive_reset_cents
        note = "" if cents == usual else f"; the profile's reset amount is {dollars(usual)}"
        out: list[Action] = [MeterReading(cents, "reset", serial),
                             ApprovalRequest("meter_reset", None, cents, f"the progressive controller reset the meter "
                                             f"to {dollars(cents)}{note}", self.rules.cite("progressive_reset"), None,
                                             serial)]
        if cents < MIN_METER:
            out.append(Alarm("meter_reset_low", f"the meter was reset to {dollars(cents)}; the casino-funded reset amount "
                                                f"is at least {dollars(MIN_METER)}", self.rules.cite("progressive_reset"),
                             serial))
        return out

    def _key_switch(self, msg, time, serial, cls):
        return [Reading(cls, "key_switch", {"position": msg["position"]}, "", serial)]

    # random number generator (000(k)(3), (p)) -------------------------------------------------
    def _rng_number(self, msg, time, serial, cls):
        # the engine's position_determined needs the table's state (the bank counts as one,
        # 000(m)(8)(iii)); rng_position() makes it from this reading
        return [Reading(cls, "rng_number", {"number": msg["number"]},
                        "the starting position, counted counterclockwise from the dealer or the bank; settles the "
                        "additional wagers", serial)]

    # -- links -----------------------------------------------------------------------------
    def on_link(self, device_class: str, serial: str, state: str, time: datetime, reason: str = "") -> list[Action]:
        cls = self.devices.get(serial)
        if cls is None:
            return [DeviceFault("unknown", "not_configured",
                                f"link {state} for {serial!r}, which is not configured at table {self.table}",
                                str(serial))]
        if state not in LINK_STATES:
            return [DeviceFault(cls, "bad_link_state", f"link state {state!r}; states are {', '.join(LINK_STATES)}",
                                serial)]
        out: list[Action] = []
        if device_class != cls:
            out.append(DeviceFault(cls, "wrong_class", f"the link reports {serial} as a {device_class}; it is "
                                                       f"configured as a {cls}", serial))
        before = self.link.get(serial)
        self.link[serial] = state
        if state == "offline":
            if serial not in self.down:  # the first time only, until it is back: no alarm storms
                self.down.add(serial)
                what, matter = OFFLINE[cls]
                why = f": {reason}" if reason else ""
                out += [DeviceFault(cls, "offline", f"{cls} {serial} is offline{why}", serial),
                        Alarm(f"{cls}_offline", f"the {cls} is offline{why}; {what}", self.rules.cite(matter), serial)]
        elif state == "online" and serial in self.down:
            self.down.discard(serial)
            out.append(Reading(cls, "link", {"state": state}, "back online", serial))
        elif state != before and serial not in self.down:
            out.append(Reading(cls, "link", {"state": state}, reason, serial))
        if cls == "progressive" and state in ("online", "offline"):
            out += self._progressive_link(time, serial)
        return out

    def _progressive_link(self, time: datetime, serial: str) -> list[Action]:
        # offline only, not degraded: a degraded link still delivers, and the session gives up
        # on it (offline) after 10 s without a sound frame; every controller of the table counts
        controllers = {s for s, c in self.devices.items() if c == "progressive"}
        online = not (controllers & self.down)
        if online == self.progressive_online:
            return []
        self.progressive_online = online
        return [self._event("progressive_link", time, serial, "progressive", online=online)]
