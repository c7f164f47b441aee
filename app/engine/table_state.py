"""A table's values: its state (``TableState``), the decks and irregularities it holds, the events
that move it (``Event``) and the refusal of one (``Refused``); what the procedures do with them
is app/engine/procedure.py's (the order of the states is its ``TRANSITIONS``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from .roles import ROLES

STATES = ("closed", "opening", "betting", "no_more_bets", "starting_position", "dealing", "setting",
          "revealing", "settling", "round_complete", "shuffling")

# the states of a round in progress, from "No more bets" to the settlement (000(g)-(l))
IN_ROUND = ("no_more_bets", "starting_position", "dealing", "setting", "revealing", "settling")



class Refused(ValueError):
    """An event the procedures do not allow now; nothing of it is applied."""


@dataclass(frozen=True)
class Event:
    type: str
    time: datetime
    actor: str
    role: str
    data: dict = field(default_factory=dict)

    @staticmethod
    def from_json(obj: Any) -> "Event":
        if not isinstance(obj, dict):
            raise Refused(f"an event is a JSON object, got {obj!r}")
        for k in ("type", "time", "actor", "role"):
            if k not in obj:
                raise Refused(f"event without {k!r}: {obj!r}")
        try:
            t = datetime.fromisoformat(obj["time"])
        except (TypeError, ValueError):
            raise Refused(f"event time must be ISO 8601 like 2026-11-21T14:30:00, got {obj['time']!r}") from None
        if obj["role"] not in ROLES:
            raise Refused(f"unknown role {obj['role']!r}; roles are {', '.join(ROLES)}")
        data = {k: v for k, v in obj.items() if k not in ("type", "time", "actor", "role")}
        return Event(obj["type"], t, str(obj["actor"]), obj["role"], data)


@dataclass(frozen=True)
class Deck:
    id: str
    received: datetime
    inspected: bool = False
    verified_by: str | None = None
    spread: bool = False
    washed: bool = False
    in_play_since: datetime | None = None


@dataclass(frozen=True)
class Irregularity:
    ref: int
    kind: str
    time: datetime
    consequence: str
    rule: str
    needs_ack: bool
    acknowledged_by: str | None = None


@dataclass(frozen=True)
class TableState:
    state: str = "closed"
    round: int = 0                     # the round begun last (000(g): a round begins at No more bets)
    last_round: int = 0                # the round settled last, as the log's settlements say
    decks: dict[str, Deck] = field(default_factory=dict)
    deck_in_play: str | None = None    # the deck dealt this round
    last_deck_dealt: str | None = None  # 000(b)(2)(iv): two decks alternate
    dealing_method: str | None = None
    dice_placed: datetime | None = None
    starting_position: int | None = None
    void: bool = False                 # this round is void (an irregularity)
    irregularities: tuple[Irregularity, ...] = ()
    last_time: datetime | None = None
    manual_shuffle: bool = False       # 000(f)(2)(ii): a manual shuffle is cut
    cut_by: int | None = None          # who cut this deck: a seat, or 0 for the dealer (000(f)(3))
    recut: bool = False                # 000(f)(6): a supervisor ordered a re-cut
    last_cutter: int | None = None     # 000(f)(6): re-cut by the last cutter or the next entitled
    seated: tuple[int, ...] = ()       # occupied seats
    first_player: int | None = None    # 000(f)(4)(i): the first player to the table
    bank: tuple[int, ...] = ()         # this round's player bank seat (partners: 003 PLAYER BANK 17)
    bank_mode: str | None = None
    last_bank: tuple[int, ...] = ()    # 000(m)(3): never two consecutive rounds
    rounds_since_count: int = 0        # 001 11.17(h): the stub is counted at least every five rounds
    # rounds of play settled since the table opened. A void round is not a round of play: its
    # cards are reshuffled and it is played again, so it moves neither the bank nor the button.
    rounds_played: int = 0
    rounds_without_bank: int = 0       # 000(f)(4)(iii): consecutive rounds with no bank
    round_wagers: tuple[int, ...] = ()  # seats wagering this round
    wagered_last_unbanked: tuple[int, ...] | None = None  # 000(m)(4)(i)
    banked_this_rotation: tuple[int, ...] = ()  # 003 PLAYER BANK 2: one bank per rotation
    voided_seats: tuple[int, ...] = ()  # 000(n)(4): players who voided an exposed hand this round
    dealer_wager: int | None = None    # 000(m)(7): the dealer's wager against a player bank, cents
    # 000(q)(2), (3)(i), (5): the table controller locks out, lights the acceptors and moves the
    # meter; while its link is down no progressive wager can be taken
    progressive_online: bool = True
    # 000(b)(2)(iii), 001 11.2(b)3: one deck is shuffled while the other is dealt; the deck the
    # shuffler finished meanwhile comes into play when the round is settled
    ready_deck: str | None = None
    round_progressive: tuple[int, ...] = ()  # seats with a progressive wager this round (000(q)(1))

    def round_at_hand(self) -> int:
        """The round the table is on: the one begun and not yet settled, else the next, which
        begins at No more bets (000(g)). Settled or voided, a round's number is used up: the
        next is one more, whether or not its procedures were recorded (a table whose rounds
        are entered by hand has no No more bets in the log)."""
        if self.state in IN_ROUND + ("round_complete",) and self.round > self.last_round:
            return self.round
        return max(self.round, self.last_round) + 1

    def pending_acks(self) -> list[Irregularity]:
        return [i for i in self.irregularities if i.needs_ack and i.acknowledged_by is None]

    def as_json(self) -> dict:
        return {
            "state": self.state, "round": self.round, "last_round": self.last_round,
            "deck_in_play": self.deck_in_play,
            "decks": {d.id: {"received": d.received.isoformat(), "inspected": d.inspected,
                             "verified_by": d.verified_by, "spread": d.spread, "washed": d.washed,
                             "in_play_since": d.in_play_since.isoformat() if d.in_play_since else None}
                      for d in self.decks.values()},
            "dice_placed": self.dice_placed.isoformat() if self.dice_placed else None,
            "starting_position": self.starting_position, "void": self.void, "cut_by": self.cut_by,
            "seated": list(self.seated), "rounds_played": self.rounds_played,
            "bank": {"mode": self.bank_mode, "seats": list(self.bank), "dealer_wager": self.dealer_wager}
            if self.bank else None,
            "voided_seats": list(self.voided_seats), "ready_deck": self.ready_deck,
            "progressive": {"online": self.progressive_online, "seats": list(self.round_progressive)},
            "irregularities": [{"ref": i.ref, "kind": i.kind, "time": i.time.isoformat(),
                                "consequence": i.consequence, "rule": i.rule, "needs_ack": i.needs_ack,
                                "acknowledged_by": i.acknowledged_by} for i in self.irregularities],
            "pending_acknowledgements": [i.ref for i in self.pending_acks()],
        }
