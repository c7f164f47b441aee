"""What each simulated table device does, round after round (docs/devices.md, "Simulators").

A device class is a generator of steps: ``(delay, message, fields)`` is "wait ``delay`` seconds (at
pace 1), then send this message", and ``ROUND`` marks the start of a round, where the device may
draw a random fault. The code after a ``yield`` runs once that message has gone to the link, so
state a message announces (the progressive meter) changes only when the message is sent.
``take(fault)`` consumes an injected content fault (jam, miscount, misread) at the point of the round where
a real device would show it. The link faults (garbage, bad-crc, drop, silence, slow) are the
link's business (app/simulate/sim_device.py), not the class's. The names of the classes and the
faults, and the usage errors for them, are here too.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

from app.engine.cards import full_deck

KINDS = ("shuffler", "shoe", "progressive", "rng")
FAULTS = ("jam", "miscount", "misread", "garbage", "bad-crc", "drop", "silence", "slow")
# the content faults exist only where the message table has a message for them
ONLY_FOR = {"jam": ("shuffler", "shoe"), "miscount": ("shuffler",), "misread": ("shuffler",)}
SERIAL_PREFIX = {"shuffler": "SHF", "shoe": "SHO", "progressive": "PRG", "rng": "RNG"}

ROUND = "round"
Step = tuple[float, str, dict]
Take = Callable[[str], bool]


def applies(fault: str, kind: str) -> bool:
    return fault in FAULTS and kind in ONLY_FOR.get(fault, KINDS)


class SimError(ValueError):
    """A usage error; ``option`` names the command-line option it comes from."""

    def __init__(self, message: str, option: str = ""):
        super().__init__(message)
        self.option = option


def check_kind(kind: str) -> str:
    if kind not in KINDS:
        raise SimError(f"unknown device {kind!r} (one of: {', '.join(KINDS)})", "device")
    return kind


def check_fault(name: str, kind: str) -> str:
    if name not in FAULTS:
        raise SimError(f"unknown fault {name!r} (one of: {', '.join(FAULTS)})", "faults")
    if not applies(name, kind):
        raise SimError(f"fault {name!r} does not apply to the {kind}, which has no message for it "
                       f"({name} is for: {', '.join(ONLY_FOR[name])})", "faults")
    return name


class Shuffler:
    """A hand-forming shuffler with two decks of different backs in alternation (000(b)(2)): while
    one deck is dealt the other is shuffled. Each shuffle reports its card count BEFORE it reports
    the shuffle complete, so the workstation can refuse the deck before its hands are dealt. It
    reads the cards it deals: each shuffle is one real 53-card deck in a random order, dealt as
    seven hands of seven with four cards left over, and a ``hand_read`` per position follows the
    ``hands_dispensed``; a misread reads one hand wrong (a card missed, or one card read as
    another of the same hand), never the hands themselves."""

    kind = "shuffler"
    DECKS = (("red", "red"), ("blue", "blue"))
    JAMS = ((0x0101, "card jam in the elevator"), (0x0102, "gripper jam"), (0x0103, "card misfeed"))
    tick = None

    def __init__(self, rng: random.Random, self_test_rate: float = 0.1,
                 positions: tuple[int, ...] = tuple(range(0, 7))):
        # the positions whose hands are read, in the order the hands go out: a house-dealer
        # table's 0 (the dealer) to 6 by default (docs/table-layout.md); 1 to 7 at a 002
        # player-dealer table
        if len(positions) != 7:
            raise TypeError(f"a shuffler deals seven hands, got positions {positions!r}")
        self.rng = rng
        self.self_test_rate = self_test_rate
        self.positions = tuple(positions)

    def greeting(self) -> list[tuple[str, dict]]:
        # two decks of different backs, 000(b)(2)(i)
        return [("deck_colour", {"deck": d, "colour": c}) for d, c in self.DECKS]

    def rounds(self, take: Take) -> Iterator[Step | str]:
        r = self.rng
        while True:
            for deck, _colour in self.DECKS:
                yield ROUND
                if r.random() < self.self_test_rate:
                    yield (r.uniform(0.5, 1.0), "self_test", {"passed": True, "code": 0})
                yield (r.uniform(1.0, 3.0), "shuffle_started", {"deck": deck})  # 000(f)(1)
                while take("jam"):
                    code, text = r.choice(self.JAMS)
                    # 000(n)(13): a jammed shuffle is not completed; the deck is shuffled again
                    yield (r.uniform(0.5, 1.5), "jam", {"code": code, "text": text})
                    yield (r.uniform(1.0, 3.0), "shuffle_started", {"deck": deck})
                if take("miscount"):
                    # 001 11.17(i): 53 expected; the workstation removes the deck, so no hands from it
                    yield (r.uniform(1.0, 2.0), "card_count", {"deck": deck, "count": r.choice((52, 54))})
                    yield (r.uniform(0.2, 0.5), "shuffle_completed", {"deck": deck})
                    continue
                yield (r.uniform(1.0, 2.0), "card_count", {"deck": deck, "count": 53})  # 001 11.17(i)
                yield (r.uniform(0.2, 0.5), "shuffle_completed", {"deck": deck})  # 000(f)(1)
                # the order the shuffle left: one deck, 52 cards and a joker (000(b)(1))
                cards = full_deck()
                r.shuffle(cards)
                # seven stacks of seven (000(j)(1)); 001 11.17's 3-then-4 tables are not simulated
                yield (r.uniform(1.0, 3.0), "hands_dispensed", {"deck": deck, "hands": 7, "cards_per_hand": 7})
                # a hand to each position; the four cards left go to the discard rack (000(j)(5)(i))
                dealt = {p: cards[7 * k:7 * k + 7] for k, p in enumerate(self.positions)}
                wrong = r.choice(self.positions) if take("misread") else None
                for position, hand in dealt.items():
                    read = self._misread(hand) if position == wrong else hand
                    yield (r.uniform(0.2, 0.5), "hand_read", {"deck": deck, "position": position, "cards": read})

    def _misread(self, hand: list[int]) -> list[int]:
        """The hand as a faulty reader sees it: a card missed (six cards), or a card read as another
        card of the same hand (a card twice); docs/devices.md, "Faults"."""
        r = self.rng
        read = list(hand)
        k = r.randrange(len(read))
        if r.random() < 0.5:
            del read[k]
        else:
            read[k] = r.choice([c for i, c in enumerate(read) if i != k])
        return read


class Shoe:
    """An automated dealing shoe: seven stacks of seven, then the four cards left (000(j), (h)(4))."""

    kind = "shoe"
    JAMS = ((0x0201, "stack jam at the gate"), (0x0202, "card face up in the shoe"), (0x0203, "elevator stall"))
    tick = None

    def __init__(self, rng: random.Random, positions: tuple[int, ...] = tuple(range(0, 7))):
        # the positions that receive a stack, in the order dealt: a house-dealer table's 0 (the
        # dealer) to 6 by default (app/engine/layout.py); 1 to 7 at a 002 player-dealer table
        if len(positions) != 7:
            raise TypeError(f"a shoe deals seven stacks, got positions {positions!r}")
        self.rng = rng
        self.positions = tuple(positions)

    def greeting(self) -> list[tuple[str, dict]]:
        return []

    def rounds(self, take: Take) -> Iterator[Step | str]:
        r = self.rng
        while True:
            yield ROUND
            jam_at = r.randint(1, 7) if take("jam") else None
            for n, position in enumerate(self.positions, start=1):
                if n == jam_at:
                    code, text = r.choice(self.JAMS)
                    # 000(n)(14): a shoe jam voids the round; the next round starts at the first stack
                    yield (r.uniform(0.3, 1.0), "shoe_jam", {"code": code, "text": text})
                    break
                yield (r.uniform(1.0, 3.0) if n == 1 else r.uniform(0.3, 0.8),
                       "stack_dispensed", {"position": position, "cards": 7})  # 000(j)
            else:
                yield (r.uniform(0.3, 1.0), "cards_remaining", {"count": 4})  # 000(h)(4): four left


class Progressive:
    """A progressive controller: the meter broadcast every second (000(q)(5)), an increment per
    progressive wager, lockout and the acceptor lights per round (000(q)(2), 001 11.7(d)), and now
    and then a hit waiting for approval (000(q)(3)) and the meter reset (000(q)(6))."""

    kind = "progressive"
    tick = 1.0
    SEED_CENTS = 1_000_000          # the minimum reset, $10,000 (000(q)(6); progressive-1)
    CONTRIBUTION_CENTS = 21         # 21% of a $1.00 wager (000(q)(5); progressive-1)
    TOP_LINES = ("natural_royal_and_pair", "five_aces_and_pair")  # the 100% lines of progressive-1
    SEATS = range(1, 7)

    def __init__(self, rng: random.Random, hit_rate: float = 0.03, key_rate: float = 0.05,
                 meter: int = SEED_CENTS):
        self.rng = rng
        self.hit_rate = hit_rate
        self.key_rate = key_rate
        self.meter = meter           # where the meter stands when the controller starts

    def greeting(self) -> list[tuple[str, dict]]:
        return [self.broadcast()]

    def broadcast(self) -> tuple[str, dict]:
        return ("meter", {"cents": self.meter})  # 000(q)(5)

    def said(self, message: str, fields: dict) -> None:
        """What the table's play made the controller say moves its meter as its own rounds do."""
        if message == "increment":
            self.meter += fields["cents"]
        elif message == "reset":
            self.meter = fields["cents"]

    def rounds(self, take: Take) -> Iterator[Step | str]:
        r = self.rng
        while True:
            yield ROUND
            if r.random() < self.key_rate:
                yield (r.uniform(1.0, 2.0), "key_switch", {"position": "test"})
                yield (r.uniform(1.0, 2.0), "key_switch", {"position": "run"})
            seats = sorted(r.sample(self.SEATS, r.randint(1, 4)))
            for seat in seats:
                yield (r.uniform(0.3, 1.0), "increment", {"seat": seat, "cents": self.CONTRIBUTION_CENTS})
                self.meter += self.CONTRIBUTION_CENTS  # sent: the meter now shows it
            # the lights come on as the wagers go in, before the lock-out: a light that comes on
            # after it is a wager after No more bets (000(g)(3), (q)(2); app/devices/mapping.py)
            lit = {"lit": sum(1 << (s - 1) for s in seats)}  # a bit per seat, bit 0 is seat 1
            yield (r.uniform(0.2, 0.5), "acceptor_lights", lit)
            yield (r.uniform(1.0, 2.0), "lockout", {"locked": True})  # 000(q)(2): no more progressive wagers
            # the lights locked in, unchanged, that the dealer counts the chips against (001 11.7(d), 11.14(b))
            yield (r.uniform(0.2, 0.5), "acceptor_lights", lit)
            if r.random() < self.hit_rate:
                seat, line = r.choice(seats), r.choice(self.TOP_LINES)
                # the meter the hit is paid from, on the display before the hit (000(q)(7))
                yield (0.1, *self.broadcast())
                # 000(q)(3): a hit waits for the supervisor's approval
                yield (r.uniform(1.0, 2.0), "hit_pending", {"seat": seat, "line": line, "cents": self.meter})
                yield (r.uniform(1.0, 3.0), "reset", {"cents": self.SEED_CENTS})  # 000(q)(6)
                self.meter = self.SEED_CENTS
            yield (r.uniform(1.0, 3.0), "lockout", {"locked": False})


class Rng:
    """The random number display that picks the starting position, 1 to 7 (000(k)(3))."""

    kind = "rng"
    tick = None

    def __init__(self, rng: random.Random):
        self.rng = rng

    def greeting(self) -> list[tuple[str, dict]]:
        return []

    def rounds(self, take: Take) -> Iterator[Step | str]:
        while True:
            yield ROUND
            yield (self.rng.uniform(1.0, 3.0), "rng_number", {"number": self.rng.randint(1, 7)})  # 000(k)(3)


CLASSES = {c.kind: c for c in (Shuffler, Shoe, Progressive, Rng)}
