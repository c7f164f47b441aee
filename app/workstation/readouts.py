"""What the views render: plain frozen values, every rule already applied.

A view reads these and draws them; it never asks the engine or the store anything itself. Times
are datetimes, money whole cents, seats numbered as docs/table-layout.md numbers them (0 is the
house dealer's position). Levels are ``ok``, ``amber`` or ``red`` (app/workstation/clocks.py);
link states ``connecting``, ``online``, ``degraded`` or ``offline`` (docs/devices.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .clocks import DeckClock, DiceClock


@dataclass(frozen=True)
class DeviceLight:
    serial: str
    cls: str          # shuffler, shoe, progressive, rng
    state: str        # connecting (nothing heard yet), online, degraded, offline


@dataclass(frozen=True)
class BankMarker:
    """Who banks this round: ``house`` (the dealer), ``player`` (a player bank, 000(m)), ``co-bank``
    (003 PLAYER BANK 16, 001 11.10(e)) or ``player-dealer`` (002)."""
    mode: str
    seats: tuple[int, ...] = ()

    @property
    def text(self) -> str:
        if not self.seats and self.mode != "house":
            return f"{self.mode} not yet declared"
        where = ", ".join(f"seat {s}" for s in self.seats)
        return {"house": "house", "player": f"player bank {where}", "co-bank": f"co-bank {where}",
                "player-dealer": f"player-dealer {where}"}.get(self.mode, self.mode)


@dataclass(frozen=True)
class Tile:
    """One table on the floor overview."""
    table: str
    profile: str
    rule_text: str                  # 000, 001, 002, 003, 004 (docs/rules.md)
    row: int                        # where it stands in the pit, from 1 (config, or the grid)
    col: int
    state: str                      # the procedures' state: closed, opening, betting, ... (docs/table-events.md)
    round: int                      # rounds begun since the table opened
    void: bool                      # this round is void (an irregularity)
    bank: BankMarker
    deck: DeckClock | None          # the deck in play, else the next one; None with no deck at the table
    decks: tuple[DeckClock, ...]    # every deck at the table, the one in play first
    dice: DiceClock | None          # None: no dice at the table
    clock_level: str                # the worst of the deck and dice clocks
    lights: tuple[DeviceLight, ...]
    meter_cents: int | None         # the progressive meter last reported; None: none yet, or no progressive
    progressive: str | None         # "open" or "closed" (controller offline, 000(q)); None: not offered
    open_alarms: int                # not yet acknowledged (cleared by themselves or not)
    pending_approvals: int
    pending_acknowledgements: int   # irregularities waiting for a supervisor (no_more_bets is refused meanwhile)


@dataclass(frozen=True)
class AlarmInfo:
    id: int                         # the alarm_raised row's seq: what acknowledge_alarm takes
    table: str | None
    kind: str                       # deck_count_wrong, shuffler_offline, deck_overdue, irregularity, ...
    message: str
    rule: str
    serial: str                     # the device that raised it, if a device did
    raised: datetime
    cleared: datetime | None        # the condition went away by itself (link back, deck changed)
    cleared_how: str                # what cleared it, in words
    acknowledged: datetime | None
    acknowledged_by: str | None
    acknowledged_role: str | None
    reason: str | None              # why, as the person acknowledging it wrote
    irregularity: int | None = None  # the engine's irregularity ref an acknowledgement also acknowledges

    @property
    def open(self) -> bool:
        """Waiting for acknowledgement: an alarm that cleared by itself still waits."""
        return self.acknowledged is None


@dataclass(frozen=True)
class ApprovalInfo:
    request: int                    # what decide() takes
    kind: str                       # progressive_meter_payout, payoff_threshold, ... (docs/audit.md)
    table: str | None
    seat: int | None
    cents: int | None
    role_needed: str                # floor supervisor or pit manager
    reason: str
    rule: str
    requested: datetime
    status: str                     # pending, approved, denied
    decided_by: str | None = None
    decided_role: str | None = None
    decision_reason: str | None = None
    decided: datetime | None = None


@dataclass(frozen=True)
class PositionInfo:
    """One of the seven positions around the table: the dealer (0) and seats 1-6, or seats 1-7 at
    a 002 player-dealer table."""
    position: int
    name: str                       # "dealer" or "seat 3"
    occupied: bool                  # the dealer's position always
    player: str | None              # who sat down there, as recorded
    first_player: bool              # 000(f)(4)(i): the first player to the table
    banks: bool                     # banks this round
    wagers: bool                    # has a wager this round
    progressive: bool               # has a progressive wager this round
    voided: bool                    # voided an exposed hand this round (000(n)(4))


@dataclass(frozen=True)
class BankOffer:
    seat: int
    eligible: bool
    reason: str                     # the rule that allows or bars it


@dataclass(frozen=True)
class BankInfo:
    marker: BankMarker
    rotation: str                   # each-round (000(m)(3)) or once-per-rotation (003 PLAYER BANK 1-2)
    offers: tuple[BankOffer, ...]   # the next round's offers in order; () where players never bank
    note: str                       # e.g. "the house banks: the offer has come round to the dealer"
    dealer_wager: int | None        # cents, against a player bank (000(m)(7))
    last_bank: tuple[int, ...]


@dataclass(frozen=True)
class DeckInfo:
    clock: DeckClock
    colour: str | None              # the back colour the shuffler reported (000(b)(2)(ii))
    card_count: int | None          # the shuffler's last count of it (53 expected, 001 11.17(i))
    ready: bool                     # shuffled during the round, dealt next (000(b)(2)(iv))


@dataclass(frozen=True)
class IrregularityInfo:
    ref: int
    kind: str
    time: datetime
    consequence: str
    rule: str
    needs_ack: bool
    acknowledged_by: str | None


@dataclass(frozen=True)
class HistoryRow:
    seq: int
    time: datetime
    type: str
    actor: str
    role: str
    data: dict


@dataclass(frozen=True)
class HistoryPage:
    rows: tuple[HistoryRow, ...]    # newest first
    next_before: int | None         # pass as ``before`` for the next (older) page; None: no more


@dataclass(frozen=True)
class TableDetail:
    tile: Tile
    title: str                                 # the rule text's title
    positions: tuple[PositionInfo, ...]        # counterclockwise from the dealer (0, 1, ... 6)
    starting_position: int | None              # this round's, once determined
    deal_order: tuple[int, ...]                # positions in the order they receive cards; () until known
    delivery: str                              # clockwise or counterclockwise (the profile's)
    bank: BankInfo
    decks: tuple[DeckInfo, ...]
    irregularities: tuple[IrregularityInfo, ...]   # this round's, in order
    history: HistoryPage


@dataclass(frozen=True)
class UserInfo:
    name: str
    role: str
    created: datetime
    failures: int                   # wrong PINs in a row
    locked_until: datetime | None   # after five wrong PINs (15 minutes)
    locked_by: str | None           # an administrator's lock, until unlocked


@dataclass(frozen=True)
class SessionInfo:
    name: str
    role: str
    since: datetime
    last_activity: datetime
    expires: datetime               # signed out at this time unless touched
