"""What the views render: plain frozen values, every rule already applied.

A view reads these and draws them; it never asks the engine or the store anything itself. Times
are datetimes, money whole cents, seats numbered as docs/table-layout.md numbers them (0 is the
house dealer's position). Levels are ``ok``, ``amber`` or ``red`` (app/workstation/clocks.py);
link states ``connecting``, ``online``, ``degraded`` or ``offline`` (docs/devices.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from datetime import datetime

from .changes import Changes
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
    round_now: int = 0              # the round the table is on: in progress or just complete, else the one being
                                    # wagered on (round + 1); a round entered now is for it (RoundDraftInfo.round)
    waits: str = ""                 # the round being entered waits for a person: whose cards to check (a
                                    # misread, a reading against the typed cards); "" nothing waits
    progressive_rule: str = ""      # the table's own citation for a controller offline (its profile's
                                    # progressive_offline: app/engine/citations.py), shown with "closed"
    tray: Any = None                # the table's tray at a glance (app/workstation/money_readout.py FloorTray)
    pace: Any = None                # its last hour: rounds, wagered, seats, off its usual pace (app/workstation/pace.py)


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
    countersigned_by: str | None = None     # the second person whose PIN authorised the acknowledgement
    countersigned_role: str | None = None

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
    countersigned_by: str | None = None     # the second person whose PIN authorised the decision
    countersigned_role: str | None = None


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
    money: Any = None                          # the table's tray in full (money_readout.TrayInfo, issue 34)
    pace_hours: tuple = ()                     # its shift so far, per clock hour (pace.PaceHour, issue 36)


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


# -- rounds (app/workstation/round_draft.py; docs/workstation.md, "Rounds") ---------------------------
@dataclass(frozen=True)
class FieldCheck:
    """One field as a person typed it (a wager, the bank's chips): the cents it reads as, or why not.
    ``reason`` None: the field is fine. A view shows the reason beside the field."""
    field: str                      # "base", "fortune", "additional 3", "chips" ...
    text: str
    cents: int | None
    reason: str | None = None


@dataclass(frozen=True)
class HandSet:
    """A hand set in two: the five-card high hand and the two-card low hand, and what set it."""
    high: tuple[str, ...]
    low: tuple[str, ...]
    set_by: str                     # "house way", "as entered"
    rule: str                       # the house-way paragraph that chose the set, or "" as entered


@dataclass(frozen=True)
class PositionCards:
    """A position's cards in the round being entered: the dealer (0) or a seat."""
    position: int
    name: str                       # "dealer", "seat 3"
    cards: tuple[str, ...]          # in the order typed or read; () none yet
    source: str                     # "", "typed", "shuffler"
    serial: str                     # the shuffler that read them ("" typed)
    corrected_by: tuple[str, ...]   # who corrected a card the shuffler read (hand_corrected rows)
    in_round: bool                  # a hand in the round (a wager, or the bank); the others are discarded
    entered: HandSet | None         # the set entered for the position (a player's high and low)
    house_way: HandSet | None       # the house way's set of the seven cards, with its rule
    plays: HandSet | None           # the set that will be settled: the house way's for the dealer and a
                                    # co-bank, the entered one for a player (a foul as the profile says)
    foul: str | None                # "foul: ... the hand loses (000(l)(6)(iii))": the profile's consequence
    problem: str | None             # a misread or a hand not complete: blocks settlement
    reading: tuple[str, ...] | None = None   # the shuffler's reading beside typed cards it disagrees with:
                                    # the person chooses one (``Rounds.choose_reading``)
    reading_serial: str = ""        # the shuffler that read it


@dataclass(frozen=True)
class SeatWagers:
    seat: int
    player: str | None
    wagers: dict                    # wager -> cents: base, fortune, ..., "additional 3"
    prepaid_commission: int
    surrender: bool
    bettors: tuple[tuple[str, int], ...]   # 003: (name, base cents) of others betting on this circle


@dataclass(frozen=True)
class BankingDraft:
    mode: str                       # house, player, co-bank, player-dealer
    seat: int | None
    amounts: dict                   # chips, last_wager, dealer_wager, wager, dealer_prepaid_commission (cents)
    action_seat: int | None         # 002
    cover_ruling: bool              # 003 PLAYER BANK 3
    modes: tuple[str, ...]          # what the profile allows
    offers: tuple                   # BankOffer: the procedures' offers in rotation order; () none to offer
    note: str                       # why these offers (or none)


@dataclass(frozen=True)
class WagerLimitInfo:
    wager: str
    min: int
    max: int
    source: str                     # "profile casino; 003 ...", "table configuration"


@dataclass(frozen=True)
class RoundForm:
    """What the table's profile lets a person enter in a round, so that a view shows a field for
    each and decides nothing itself (app/workstation/wagers.py ``round_form``)."""
    seats: tuple[int, ...]          # the seats that may wager: 1-6, or 002's 1-7
    wagers: tuple[str, ...]         # every wager offered, as the round file names it ("additional 3")
    wager_names: dict               # wager -> its name in words ("Fortune bonus wager")
    banking_fields: dict            # mode -> the amounts and seats it takes (chips, last_wager, ...)
    bettors_per_circle: int         # 003: up to four bettors on one circle; 1 elsewhere
    surrender: bool                 # the player may surrender (000(l)(4), 004(9))
    prepaid_commission: bool        # 003 COLLECTING 6
    cover_ruling: bool              # 003 PLAYER BANK 3: a supervisor's ruling on the bank's cover
    progressive: bool               # a progressive wager is offered: the meter goes with the round
    rng: bool                       # additional wagers on the RNG's number (000(p))
    house_way_rule: str = ""        # the table's own citation for a player who asks for the house way
    surrender_rule: str = ""        # and for a surrender (issue 33: the panel cited 003 and 000 at every table)


@dataclass(frozen=True)
class RoundDraftInfo:
    """The round being entered at a table, as the round panel shows it."""
    table: str
    profile: str
    round: int                      # the procedures' round it is for
    banking: BankingDraft
    positions: tuple[PositionCards, ...]
    seats: tuple[SeatWagers, ...]
    limits: tuple[WagerLimitInfo, ...]
    progressive_meter: int | None   # cents: as entered, else the meter at the round's start (meter_at_start)
    rng_number: int | None
    problems: tuple[str, ...]       # what blocks settlement (misreads, missing cards); () ready to try
    returned: str | None            # a denial sent this round back: who denied what, and why
    replaces: int | None            # the settlement (seq) the denial sent back
    form: RoundForm | None = None   # what the profile lets a person enter
    waiting: str | None = None      # a shuffler's deal waiting for this round to be settled or discarded,
                                    # in words (000(b)(2)(iii), (v)): it comes up then, never over this one
    in_round: tuple[int, ...] = ()  # the seats with a hand in the round (a wager, or the bank): none, nothing to settle


@dataclass(frozen=True)
class ResultLine:
    seat: int                       # 0: the dealer's wager against a player bank
    wager: str
    stake: int
    outcome: str                    # win, lose, push, surrender, returned, paid
    line: str | None
    win: int
    commission: int
    net: int
    bettor: str | None
    rule: str
    note: str


@dataclass(frozen=True)
class LedgerLine:
    frm: str
    to: str
    cents: int
    seat: int | None
    wager: str
    reason: str
    rule: str


@dataclass(frozen=True)
class RoundApproval:
    request: int                    # what decide() takes
    kind: str
    seat: int | None
    cents: int | None
    role_needed: str
    reason: str
    rule: str
    status: str                     # pending, approved, denied
    decided_by: str | None
    decision_reason: str | None


@dataclass(frozen=True)
class Payout:
    seat: int
    bettor: str | None
    to: str                         # who is handed it: "seat 2", "seat 1/ann", "tokes" (003 GENERAL RULES 6)
    wager: str
    line: str | None
    stake: int
    cents: int                      # the win handed over (the returned wager aside)
    slip_reason: str | None         # why it needs a payout slip, None: no slip
    w2g: bool                       # the slip carries W-2G data ($600 and 300 times the wager)
    slip: int | None                # the slip's number once released
    commission: int = 0             # cents the house took of the win (000(i): 5 % of a winning hand)


@dataclass(frozen=True)
class SlipInfo:
    number: int
    seq: int
    table: str | None
    seat: int | None
    wager: str
    wager_cents: int
    win_cents: int
    time: datetime
    issued_by: str
    status: str                     # ISSUED or VOID
    void_reason: str | None
    voided_by: str | None
    w2g: dict | None
    settlement: int | None          # the round (settlement seq) it pays, if issued for one
    replaces: int | None            # the void slip it was issued again for
    commission_cents: int | None = None     # the commission taken of the win (None: a slip issued without it)
    issue_countersigned: tuple[str, str] | None = None  # (name, role) whose PIN authorised the issue
    void_countersigned: tuple[str, str] | None = None   # ... and the void


@dataclass(frozen=True)
class RoundResult:
    """One settled round, read back from the log as it was logged (``logged``), with where it stands."""
    settlement: int                 # the settlement row's seq: the round's id (release, history)
    table: str
    round: int
    time: datetime
    actor: str
    role: str
    profile: str
    banking: str
    banker_high: tuple[str, ...]
    banker_low: tuple[str, ...]
    results: tuple[ResultLine, ...]
    ledger: tuple[LedgerLine, ...]
    net_by_party: dict              # party -> cents; they add up to zero
    approvals: tuple[RoundApproval, ...]
    notes: tuple[str, ...]
    status: str                     # pending, denied, ready, released
    status_text: str
    payouts: tuple[Payout, ...]
    released: datetime | None
    released_by: str | None
    logged: dict                    # the settlement exactly as logged (what `pitdesk settle` prints)
    round_file: dict | None         # what was settled (docs/round-format.md)
    replaces: int | None            # the settlement a denial sent back, settled again here


@dataclass(frozen=True)
class RoundSummary:
    """A row of the table's round history, newest first."""
    settlement: int
    table: str
    round: int
    time: datetime
    actor: str
    banking: str
    house_net: int
    approvals: int
    status: str


@dataclass(frozen=True)
class RoundOutcome:
    """What ``settle`` and ``release`` return: what they changed, and the round as it now stands."""
    changes: Changes
    result: RoundResult
