"""The round being entered at a table, before it is settled: ``RoundDraft`` (what each wager
and amount a round takes is, and its check as typed, are app/workstation/wagers.py's).

A draft holds what a person typed (wagers as dollars, cards, the sets, the banking) and what a
card-reading shuffler read (``hand_read`` rows, app/devices/mapping.py), in whole cents and card
numbers. It computes no settlement: ``round_file()`` writes it in the round format of
docs/round-format.md, and the workstation runs exactly ``parse_round`` and ``settle`` on that, as
``pitdesk settle`` does on a file. What it checks itself is what a view shows beside a field as it
is typed: an amount that is not dollars and cents, a wager the profile does not offer or outside
the table's limits, a card used twice (naming both positions), a set that is not the seven cards
dealt, a foul with the profile's consequence, and a misread that blocks settlement.

Each method checks everything first and changes the draft only when nothing is wrong
(``DraftError``, with a reason per field where there are several); nothing here is logged.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from types import SimpleNamespace

from app.engine.cards import CardError, card_str, cards_str, parse_cards
from app.engine.citations import house_way_rule, noted
from app.engine.houseway import HouseWay
from app.engine.layout import DEALER, name as position_name
from app.engine.names import name_fault
from app.engine.players import table_seats
from app.engine.profile import FOUL_RESET, RuleProfile
from app.engine.rank import Ranker, legal_set
from app.engine.round import Round
from app.engine.tablelimits import TableLimits, refusals

from .readouts import BankingDraft, HandSet, PositionCards, RoundDraftInfo, SeatWagers, WagerLimitInfo
from .wagers import AMOUNTS, check_amount, check_wager, ring, round_form

HAND = 7

class DraftError(ValueError):
    """Something a person entered that cannot go into the round; ``fields`` maps each field of the
    entry to its reason where several were entered at once ({"fortune": "... over the table
    maximum ..."})."""

    def __init__(self, message: str, fields: Mapping[str, str] | None = None):
        super().__init__(message)
        self.fields = dict(fields or {})


def _cards_text(cards: Sequence[int]) -> str:
    return " ".join(cards_str(cards))


def duplicate_card(card: int, held: Sequence[int], rules: RuleProfile, read_by: str = "") -> str:
    """One card at more than one place (000(b)(1), 003 GENERAL PROCEDURES 17: one deck, each card in
    it once), said once, naming every position that holds it (``held``: a position once per time it
    holds the card): "Kc is at both dealer and seat 2", "Kc is at seat 3 twice"; ``read_by``: the
    shuffler that read the hands it is in, if one did; the rule is the profile's own text's."""
    counts = {p: held.count(p) for p in dict.fromkeys(held)}
    times = {2: "twice"}
    if len(counts) == 1:
        (p, n), = counts.items()
        names = [f"{position_name(p)} {times.get(n, f'{n} times')}"]
    else:
        names = [position_name(p) + (f" ({times.get(n, f'{n} times')})" if n > 1 else "") for p, n in counts.items()]
    where = (f"both {names[0]} and {names[1]}" if len(names) == 2 else
             names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}")
    who = f"the shuffler {read_by} misread the hand: " if read_by else ""
    return f"{card_str(card)} is at {where} ({_one_deck(rules)}): {who}correct the misread card"


def _one_deck(rules: RuleProfile) -> str:
    return noted(rules.cite("one_deck"), "one deck, each card once")


@dataclass
class Hand:
    """One position's cards: typed by a person, or read by the shuffler (and then corrected only
    with a reason, logged). What a person typed stays theirs: a reading that disagrees with it is
    kept beside it (``reading``) until the person chooses one, with a reason."""
    cards: tuple[int, ...] = ()
    source: str = ""                 # "typed" or "shuffler"
    serial: str = ""
    deck: str = ""
    round: int | None = None         # the procedures' round the shuffler read it in
    unreadable: tuple[str, ...] = ()
    corrected_by: tuple[str, ...] = ()
    high: tuple[int, ...] | None = None
    low: tuple[int, ...] | None = None
    deal: str = ""                   # the shuffler's deal it was read in
    reading: tuple[str, ...] | None = None   # the shuffler's reading beside typed cards it disagrees with
    reading_serial: str = ""

    def unset(self) -> "Hand":
        return replace(self, high=None, low=None)


@dataclass
class Deal:
    """A card-reading shuffler's deal at a table: the hands it read (position -> the cards as read),
    for the round it was dealt for. It is shown when every hand it dispensed is read, never half
    read (app/workstation/desks/rounds.py)."""
    id: str
    round: int
    hands: int
    deck: str
    serial: str
    reads: dict[int, list[str]] = field(default_factory=dict)

    @property
    def complete(self) -> bool:
        return len(self.reads) >= self.hands


@dataclass
class SeatEntry:
    player: str | None = None
    wagers: dict[str, int] = field(default_factory=dict)   # base, fortune, ..., "additional 3"
    prepaid_commission: int = 0
    surrender: bool = False
    bettors: list[tuple[str, int, int]] = field(default_factory=list)   # (name, base, prepaid commission)

    @property
    def empty(self) -> bool:
        return not (self.wagers or self.bettors or self.surrender or self.prepaid_commission)


class RoundDraft:
    """The round being entered at one table (``round_no``: the procedures' round it is for)."""

    def __init__(self, table: str, rules: RuleProfile, limits: TableLimits, house: HouseWay, ranker: Ranker,
                 round_no: int):
        self.table, self.rules, self.limits, self.house, self.ranker = table, rules, limits, house, ranker
        self.round = round_no
        self.positions = ring(rules)
        self.hands: dict[int, Hand] = {}
        self.seats: dict[int, SeatEntry] = {}
        mode = "house" if "house" in rules.banking_modes else rules.banking_modes[0]
        self.banking: dict = {"mode": mode}
        self.meter: int | None = None
        self.rng_number: int | None = None
        self.first_round_of_game = False
        self.returned: str | None = None
        self.replaces: int | None = None
        self.touched = False            # a person entered something
        self.form = round_form(rules)

    # -- where ----------------------------------------------------------------------------------
    def check_position(self, position: int) -> None:
        if isinstance(position, bool) or position not in self.positions:
            what = "the dealer (0) or seats 1-6" if DEALER in self.positions else "seats 1-7 (002: no house hand)"
            raise DraftError(f"position {position!r}: the positions at a {self.rules.name} table are {what}")

    def check_seat(self, seat: int) -> None:
        seats = table_seats(self.rules)
        if isinstance(seat, bool) or seat not in seats:
            raise DraftError(f"seat {seat!r}: a seat is one of {', '.join(map(str, seats))}")

    def owner_of(self, card: int, other_than: int) -> int | None:
        for pos, h in self.hands.items():
            if pos != other_than and card in h.cards:
                return pos
        return None

    def _check_unique(self, position: int, cards: Sequence[int]) -> None:
        # 000(b)(1), 003 GENERAL PROCEDURES 17: one deck of 53 cards, each card in it once
        for c in cards:
            other = self.owner_of(c, position)
            if other is not None:
                raise DraftError(f"{card_str(c)} is already at {position_name(other)}; {position_name(position)} "
                                 f"cannot have it too ({_one_deck(self.rules)})")

    # -- cards -----------------------------------------------------------------------------------
    def set_cards(self, position: int, text: str) -> None:
        """Typed cards ("as kd 7h 7c 2s jk 10d"); empty clears them. A card used twice, here or at
        another position, is refused at once naming both."""
        self.check_position(position)
        where = position_name(position)
        held = self.hands.get(position)
        if held is not None and held.source == "shuffler":
            raise DraftError(f"{where}'s cards were read by the shuffler {held.serial}; a correction of a read "
                             "card records who and why (correct_cards)")
        try:
            cards = tuple(parse_cards(text))
        except CardError as e:
            raise DraftError(f"{where}: {e}") from None
        if len(cards) > HAND:
            raise DraftError(f"{where}: seven cards a hand ({self.rules.cite('hand_size')}), got {len(cards)}")
        self._check_unique(position, cards)
        if not cards:
            self.hands.pop(position, None)
        else:
            keep = held is not None and held.high is not None and sorted(held.high + held.low) == sorted(cards)
            self.hands[position] = Hand(cards, "typed", high=held.high if keep else None,
                                        low=held.low if keep else None)
        self.touched = True

    @property
    def free(self) -> bool:
        """Nothing entered, read or sent back: a deal may fill it."""
        return not (self.touched or self.hands or self.returned)

    def holds_deal(self) -> str:
        """The deal whose hands the draft shows ('' none)."""
        return next((h.deal for h in self.hands.values() if h.deal), "")

    def take_deal(self, deal: Deal) -> None:
        """A complete deal for this round: each hand as read, except where a person typed the
        cards; a reading that disagrees with them is kept beside them for the person to choose
        (``choose``), never put over them."""
        for position, tokens in sorted(deal.reads.items()):
            if position not in self.positions:
                continue   # the live pit logged it as the device's fault (bad_position)
            held = self.hands.get(position)
            if held is not None and held.source == "typed" and held.cards:
                if list(cards_str(held.cards)) != [str(t) for t in tokens]:
                    self.hands[position] = replace(held, reading=tuple(str(t) for t in tokens),
                                                   reading_serial=deal.serial, deal=deal.id, deck=deal.deck)
                continue
            self.read_hand(position, tokens, deal.serial, deal.deck, deal.round, deal.id)

    def read_hand(self, position: int, tokens: Sequence[str], serial: str, deck: str, proc_round: int,
                  deal: str = "") -> None:
        """One hand the shuffler read, as read (a misread too: it shows as a problem until a
        person corrects it)."""
        if position not in self.positions:
            return
        cards, bad = [], []
        for t in tokens:
            try:
                cards += parse_cards([str(t)])
            except CardError:
                bad.append(str(t))
        self.hands[position] = Hand(tuple(cards), "shuffler", serial, deck, proc_round, tuple(bad), deal=deal)

    def check_choice(self, position: int) -> Hand:
        """The hand whose typed cards and reading disagree, for a person to choose one."""
        self.check_position(position)
        held = self.hands.get(position)
        if held is None or held.reading is None:
            raise DraftError(f"{position_name(position)}: no reading disagrees with the cards typed there")
        return held

    def choose(self, position: int, use_reading: bool, who: str) -> None:
        """A ``reading_chosen`` row: the reading put in place of the typed cards (a misread shows as
        a problem like any reading), or the typed cards kept; the other is set aside."""
        held = self.hands.get(position)
        if held is None or held.reading is None:
            return
        if use_reading:
            self.read_hand(position, held.reading, held.reading_serial, held.deck, self.round, held.deal)
            self.hands[position] = replace(self.hands[position], corrected_by=held.corrected_by + (who,))
        else:
            self.hands[position] = replace(held, reading=None, corrected_by=held.corrected_by + (who,))

    def check_correction(self, position: int, text: str) -> tuple[int, ...]:
        """The seven cards a person gives for a hand the shuffler read, checked."""
        self.check_position(position)
        where = position_name(position)
        held = self.hands.get(position)
        if held is None or held.source != "shuffler":
            raise DraftError(f"{where}: no cards read by the shuffler to correct; type the cards (set_cards)")
        try:
            cards = tuple(parse_cards(text, count=HAND))
        except CardError as e:
            raise DraftError(f"{where}: {e}") from None
        self._check_unique(position, cards)
        return cards

    def correct(self, position: int, cards: Sequence[str], who: str) -> None:
        """A ``hand_corrected`` row: the cards as the person gave them."""
        held = self.hands.get(position)
        if held is None:
            return
        parsed = tuple(parse_cards(list(cards)))
        keep = held.high is not None and sorted(held.high + held.low) == sorted(parsed)
        self.hands[position] = replace(held if keep else held.unset(), cards=parsed, unreadable=(),
                                       corrected_by=held.corrected_by + (who,))

    def set_hands(self, position: int, high: str, low: str) -> None:
        """The set entered: five cards high, two low, together the seven dealt. A foul is taken
        (and shown with the profile's consequence); empty clears the set."""
        self.check_position(position)
        where = position_name(position)
        held = self.hands.get(position)
        if not high.strip() and not low.strip():
            if held is not None:
                self.hands[position] = held.unset()
            self.touched = True
            return
        if held is None or len(held.cards) != HAND or len(set(held.cards)) != HAND:
            raise DraftError(f"{where}: the seven cards come before the set")
        try:
            hi = tuple(parse_cards(high, count=5))
            lo = tuple(parse_cards(low, count=2))
        except CardError as e:
            raise DraftError(f"{where}: {e}") from None
        if sorted(hi + lo) != sorted(held.cards):
            raise DraftError(f"{where}: the high and low hands must be the seven cards dealt ({_cards_text(held.cards)}),"
                             " five and two")
        self.hands[position] = replace(held, high=hi, low=lo)
        self.touched = True

    def house_way(self, position: int) -> HandSet:
        """How the house way sets the position's seven cards, and the rule that chose it."""
        self.check_position(position)
        held = self.hands.get(position)
        if held is None or len(held.cards) != HAND or len(set(held.cards)) != HAND:
            raise DraftError(f"{position_name(position)}: the house way sets seven cards; "
                             f"{len(held.cards) if held else 0} entered")
        s = self.house.set(held.cards)
        return HandSet(tuple(cards_str(s.high)), tuple(cards_str(s.low)), "house way", self._house_rule(s.rule))

    def _house_rule(self, rule: str) -> str:
        """The house way's paragraph in the table's own words (issue 33: a 000 table cited 003)."""
        return house_way_rule(rule, self.rules.rule_text, self.rules.regulation or "")

    # -- wagers ----------------------------------------------------------------------------------
    def check_wagers(self, seat: int, texts: Mapping[str, str]) -> dict[str, int]:
        """Every field checked; the cents of each, or ``DraftError`` with a reason per field."""
        self.check_seat(seat)
        checks = {k: check_wager(self.rules, self.limits, seat, k, str(v)) for k, v in texts.items()}
        bad = {k: c.reason for k, c in checks.items() if c.reason}
        if bad:
            raise DraftError(f"seat {seat}: " + "; ".join(f"{k}: {r}" for k, r in bad.items()), bad)
        return {k: c.cents or 0 for k, c in checks.items()}

    def set_wagers(self, seat: int, texts: Mapping[str, str]) -> None:
        cents = self.check_wagers(seat, texts)
        entry = self.seats.get(seat, SeatEntry())
        wagers = dict(entry.wagers)
        for k, v in cents.items():
            if v:
                wagers[k] = v
            else:
                wagers.pop(k, None)
        self._check_circle(seat, replace(entry, wagers=wagers))
        self._put(seat, replace(entry, wagers=wagers))

    def _check_circle(self, seat: int, entry: SeatEntry) -> None:
        # 003 PLAYERS WAGERING ON ANOTHER PLAYER'S HAND 1-2: the limits apply per betting circle
        if entry.bettors:
            probe = SimpleNamespace(seat=seat, wagers={k: v for k, v in entry.wagers.items() if k == "base"},
                                    bettors=[SimpleNamespace(name=n, base=b) for n, b, _ in entry.bettors],
                                    additional={})
            faults = refusals([probe], self.limits)
            if faults:
                raise DraftError(faults[0], {"bettors": faults[0]})

    def _put(self, seat: int, entry: SeatEntry) -> None:
        if entry.empty and entry.player is None:
            self.seats.pop(seat, None)
        else:
            self.seats[seat] = entry
        self.touched = True

    def set_player(self, seat: int, player: str | None) -> None:
        self.check_seat(seat)
        player = (player or "").strip() or None
        fault = player and name_fault(player)
        if fault:
            raise DraftError(f"seat {seat}: the player's name {fault}", {"player": f"the name {fault}"})
        self._put(seat, replace(self.seats.get(seat, SeatEntry()), player=player))

    def set_prepaid_commission(self, seat: int, text: str) -> None:
        self.check_seat(seat)
        if not self.rules.commission.prepaid_allowed and text.strip() and text.strip() not in ("0", "0.00"):
            raise DraftError(f"seat {seat}: profile {self.rules.name!r} does not take prepaid commission",
                             {"prepaid_commission": "not taken here"})
        c = check_amount("prepaid_commission", text)
        if c.reason:
            raise DraftError(f"seat {seat}: prepaid commission: {c.reason}", {"prepaid_commission": c.reason})
        self._put(seat, replace(self.seats.get(seat, SeatEntry()), prepaid_commission=c.cents or 0))

    def set_surrender(self, seat: int, surrender: bool) -> None:
        self.check_seat(seat)
        if surrender and self.rules.surrender == "forbidden":
            raise DraftError(f"seat {seat}: profile {self.rules.name!r} does not allow surrender")
        self._put(seat, replace(self.seats.get(seat, SeatEntry()), surrender=bool(surrender)))

    def set_bettors(self, seat: int, bettors: Sequence[tuple[str, str]]) -> None:
        """003 PLAYERS WAGERING ON ANOTHER PLAYER'S HAND: others' base wagers on this circle,
        (name, amount typed); at most the profile's bettors per circle, each within the limits."""
        self.check_seat(seat)
        if bettors and self.rules.bettors_per_circle < 2:
            raise DraftError(f"seat {seat}: profile {self.rules.name!r} takes one bettor on a circle")
        if len(bettors) + 1 > self.rules.bettors_per_circle:
            raise DraftError(f"seat {seat}: at most {self.rules.bettors_per_circle} bettors on one circle (003 "
                             "PLAYERS WAGERING ON ANOTHER PLAYER'S HAND 1)")
        out, bad = [], {}
        for i, (who, text) in enumerate(bettors):
            who = (who or "").strip()
            key = f"bettors[{i}]"
            if not who:
                bad[key] = "a bettor is named"
                continue
            fault = name_fault(who)
            if fault:
                bad[key] = f"the bettor's name {fault}"
                continue
            c = check_wager(self.rules, self.limits, seat, "base", str(text))
            if c.reason or not c.cents:
                bad[key] = (c.reason or "a bettor's base wager is more than $0.00").replace(f"seat {seat}:",
                                                                                          f"seat {seat} ({who}):")
                continue
            out.append((who, c.cents, 0))
        if bad:
            raise DraftError(f"seat {seat}: " + "; ".join(bad.values()), bad)
        entry = replace(self.seats.get(seat, SeatEntry()), bettors=out)
        self._check_circle(seat, entry)
        self._put(seat, entry)

    # -- banking ---------------------------------------------------------------------------------
    def set_banking(self, mode: str, seat: int | None, amounts: Mapping[str, str | None],
                    action_seat: int | None = None, cover_ruling: bool = False) -> None:
        """Who banks and the amounts that go with it, as typed; the procedures' eligibility is the
        workstation's to check (``bank_refusal``)."""
        modes = self.rules.banking_modes
        if mode not in modes:
            raise DraftError(f"banking: profile {self.rules.name!r} allows {', '.join(modes)}, not {mode!r}",
                             {"mode": f"one of {', '.join(modes)}"})
        if mode == "house":
            if seat is not None:
                raise DraftError("banking: the house banks from the dealer's position; no seat", {"seat": "no seat"})
        else:
            try:
                self.check_seat(seat)
            except DraftError as e:
                raise DraftError(f"banking: the {mode} needs its seat; {e}", {"seat": str(e)}) from None
        out, bad = {}, {}
        for k, text in amounts.items():
            if k not in AMOUNTS:
                bad[k] = f"not a banking amount (one of {', '.join(AMOUNTS)})"
                continue
            if text is None:
                continue
            c = check_amount(k, str(text))
            if c.reason:
                bad[k] = c.reason
            elif c.cents is not None:
                out[k] = c.cents
        if action_seat is not None:
            try:
                self.check_seat(action_seat)
            except DraftError as e:
                bad["action_seat"] = str(e)
        if bad:
            raise DraftError("banking: " + "; ".join(f"{k}: {r}" for k, r in bad.items()), bad)
        b: dict = {"mode": mode}
        if mode != "house":
            b["seat"] = seat
        b.update(out)
        if action_seat is not None:
            b["action_seat"] = action_seat
        if cover_ruling:
            b["cover_ruling"] = True
        self.banking = b
        self.touched = True

    def set_round_info(self, meter: str | None = None, rng_number: int | None = None) -> None:
        """The progressive meter when the round starts (typed; empty: the meter last logged) and the
        number the RNG displayed (000(p): for the additional wagers)."""
        cents = self.meter
        if meter is not None:
            c = check_amount("progressive_meter", meter)
            if c.reason:
                raise DraftError(f"progressive meter: {c.reason}", {"progressive_meter": c.reason})
            cents = c.cents
        if rng_number is not None and (isinstance(rng_number, bool) or not 1 <= rng_number <= 7):
            raise DraftError(f"the RNG displays 1..7, got {rng_number!r}",
                             {"rng_number": "1 to 7"})
        self.meter = cents
        if rng_number is not None:
            self.rng_number = rng_number
        self.touched = True

    # -- the round file ----------------------------------------------------------------------------
    def in_round(self) -> list[int]:
        """The seats with a hand in the round: a wager on the circle, or the bank."""
        out = {s for s, e in self.seats.items() if not e.empty}
        if self.banking["mode"] != "house" and self.banking.get("seat") is not None:
            out.add(self.banking["seat"])
        return sorted(out)

    def needs_dealer(self) -> bool:
        return self.banking["mode"] in ("house", "player")

    def problems(self) -> list[str]:
        """What blocks settlement: a misread (000(b)(1): a card twice; 000(j)(1): seven cards a
        position, 000(n)(8)), a hand not complete, a hand in the round with no cards."""
        out = []
        at: dict[int, list[int]] = {}      # card -> every position holding it, once per time it is there
        playing = set(self.in_round()) | ({DEALER} if self.needs_dealer() else set())
        for pos in self.positions:
            h = self.hands.get(pos)
            where = position_name(pos)
            if h is None or not (h.cards or h.unreadable):
                if pos in playing:
                    out.append(f"{where}: no cards")
                continue
            # a card twice in the hand is said with the card, below: one line a card
            p = self.position_problem(pos, twice=False)
            if p and (h.source == "shuffler" or pos in playing):
                out.append(p)
            if h.reading is not None:
                out.append(f"{where}: the shuffler {h.reading_serial} read {' '.join(h.reading)}, not the cards "
                           f"typed ({_cards_text(h.cards)}): choose one, saying why")
            for c in h.cards:
                at.setdefault(c, []).append(pos)
        for c, held in at.items():
            if len(held) > 1:
                readers = dict.fromkeys(self.hands[p].serial for p in held if self.hands[p].source == "shuffler")
                out.append(duplicate_card(c, held, self.rules, ", ".join(readers)))
        return out

    def waits(self) -> str:
        """Whose cards a person must check before Settle (a shuffler's misread, a card read twice,
        a reading against the typed cards), as the floor's tile says it; "" nothing waits."""
        for pos in self.positions:
            h = self.hands.get(pos)
            if h is not None and ((h.source == "shuffler" and self.position_problem(pos)) or h.reading is not None):
                return position_name(pos)
        seen: dict[int, int] = {}
        for pos in self.positions:      # one card read at two positions (000(b)(1))
            h = self.hands.get(pos)
            for c in (h.cards if h is not None else ()):
                if c in seen and seen[c] != pos:
                    return position_name(seen[c])
                seen[c] = pos
        return ""

    def position_problem(self, pos: int, twice: bool = True) -> str | None:
        """What is wrong with the position's hand alone (``twice``: a card in it twice too)."""
        h = self.hands.get(pos)
        if h is None:
            return None
        where = position_name(pos)
        wrong = []
        if h.unreadable:
            wrong.append(f"unreadable {', '.join(h.unreadable)}")
        twice = twice and sorted({c for c in h.cards if h.cards.count(c) > 1}, key=h.cards.index)
        if twice:
            wrong.append(f"{', '.join(cards_str(twice))} read twice ({_one_deck(self.rules)})")
        if len(h.cards) != HAND:
            if h.source == "shuffler":
                wrong.append(f"{len(h.cards)} cards read, not seven; a hand of another size voids all hands "
                             f"({self.rules.cite('hand_size')})")
            else:
                wrong.append(f"{len(h.cards)} of seven cards entered")
        if not wrong:
            return None
        if h.source == "shuffler":
            return f"{where}: the shuffler {h.serial} misread the hand: {'; '.join(wrong)}: a person checks the cards"
        return f"{where}: {'; '.join(wrong)}"

    def round_file(self, meter_default: int | None = None) -> dict:
        """The draft in the round format of docs/round-format.md, as `pitdesk settle` reads it."""
        obj: dict = {"profile": self.rules.name, "banking": dict(self.banking)}
        if self.first_round_of_game:
            obj["first_round_of_game"] = True
        if self.banking["mode"] != "player-dealer":
            d = self.hands.get(DEALER)
            if d is not None and d.cards:
                obj["dealer"] = self._hand_json(d)
        seats = []
        for n in self.in_round():
            e = self.seats.get(n, SeatEntry())
            s: dict = {"seat": n}
            if e.player is not None:
                s["player"] = e.player
            h = self.hands.get(n)
            s.update(self._hand_json(h) if h is not None else {"cards": ""})
            s["wagers"] = {k: v for k, v in e.wagers.items() if not k.startswith("additional ")}
            extra = {k.split()[1]: v for k, v in e.wagers.items() if k.startswith("additional ")}
            if extra:
                s["additional"] = dict(sorted(extra.items()))
            if e.surrender:
                s["surrender"] = True
            if e.prepaid_commission:
                s["prepaid_commission"] = e.prepaid_commission
            if e.bettors:
                s["bettors"] = [{"name": n_, "base": b, **({"prepaid_commission": p} if p else {})}
                                for n_, b, p in e.bettors]
            seats.append(s)
        obj["seats"] = seats
        meter = self.meter
        if meter is None and any(self.seats.get(n, SeatEntry()).wagers.get("progressive") for n in self.in_round()):
            meter = meter_default
        if meter is not None:
            obj["progressive_meter"] = meter
        if self.rng_number is not None:
            obj["rng_number"] = self.rng_number
        return obj

    @staticmethod
    def _hand_json(h: Hand) -> dict:
        out = {"cards": _cards_text(h.cards)}
        if h.high is not None:
            out.update(high=_cards_text(h.high), low=_cards_text(h.low))
        return out

    def load(self, obj: dict, rnd: Round) -> None:
        """A round file that ``parse_round`` took (``rnd``), into this (new) draft."""
        b = obj["banking"]
        self.banking = {k: b[k] for k in ("mode", "seat", *AMOUNTS, "action_seat", "last_wager_seat",
                                          "cover_ruling", "banked_last_round") if k in b}
        if rnd.dealer is not None:
            self.hands[DEALER] = Hand(rnd.dealer.cards, "typed", high=rnd.dealer.high, low=rnd.dealer.low)
        given = {s["seat"]: s for s in obj["seats"]}
        for s in rnd.seats:
            self.hands[s.seat] = Hand(s.hand.cards, "typed", high=s.hand.high, low=s.hand.low)
            wagers = dict(s.wagers)
            wagers.update({f"additional {n}": c for n, c in s.additional.items()})
            self.seats[s.seat] = SeatEntry(given[s.seat].get("player"), wagers, s.prepaid_commission, s.surrender,
                                           [(x.name, x.base, x.prepaid_commission) for x in s.bettors])
        self.meter = rnd.progressive_meter
        self.rng_number = rnd.rng_number
        self.first_round_of_game = bool(obj.get("first_round_of_game", False))
        self.touched = True

    # -- the panel -------------------------------------------------------------------------------
    def info(self, offers: tuple, note: str, meter_default: int | None) -> RoundDraftInfo:
        playing = set(self.in_round()) | ({DEALER} if self.needs_dealer() else set())
        positions = tuple(self._position_info(p, p in playing) for p in self.positions)
        seats = tuple(SeatWagers(n, e.player, dict(e.wagers), e.prepaid_commission, e.surrender,
                                 tuple((x, b) for x, b, _ in e.bettors)) for n, e in sorted(self.seats.items()))
        limits = tuple(WagerLimitInfo(k, lim.min, lim.max, lim.source("max", self.limits.profile))
                       for k, lim in self.limits.wagers.items())
        b = self.banking
        banking = BankingDraft(b["mode"], b.get("seat"), {k: b[k] for k in AMOUNTS if k in b}, b.get("action_seat"),
                               bool(b.get("cover_ruling")), self.rules.banking_modes, offers, note)
        return RoundDraftInfo(self.table, self.rules.name, self.round, banking, positions, seats, limits,
                              self.meter if self.meter is not None else meter_default, self.rng_number,
                              tuple(self.problems()), self.returned, self.replaces, self.form,
                              in_round=tuple(self.in_round()))

    def _position_info(self, pos: int, playing: bool) -> PositionCards:
        h = self.hands.get(pos)
        where = position_name(pos)
        if h is None:
            return PositionCards(pos, where, (), "", "", (), playing, None, None, None, None,
                                 f"{where}: no cards" if playing else None)
        entered = HandSet(tuple(cards_str(h.high)), tuple(cards_str(h.low)), "as entered", "") \
            if h.high is not None else None
        complete = len(h.cards) == HAND and len(set(h.cards)) == HAND
        house = None
        if complete:
            s = self.house.set(h.cards)
            house = HandSet(tuple(cards_str(s.high)), tuple(cards_str(s.low)), "house way", self._house_rule(s.rule))
        plays, foul = self._plays(pos, h, entered, house)
        return PositionCards(pos, where, tuple(cards_str(h.cards)) + h.unreadable, h.source, h.serial,
                             h.corrected_by, playing, entered, house, plays, foul, self.position_problem(pos),
                             h.reading, h.reading_serial if h.reading is not None else "")

    def _plays(self, pos: int, h: Hand, entered: HandSet | None, house: HandSet | None
               ) -> tuple[HandSet | None, str | None]:
        """The set that will be settled, and a foul with the profile's consequence."""
        mode, bank = self.banking["mode"], self.banking.get("seat")
        if pos == DEALER or (mode == "co-bank" and pos == bank):
            # 000(l)(3), 003 DEALER BANK PROCEDURES 8: the dealer's hand by the house way; 000(m)(5),
            # 003 PLAYER BANK 16d: the co-bank's too (a set entered otherwise is reset, 000(n)(9))
            return house, None
        if entered is None:
            if mode == "player-dealer" and pos == bank:
                return house, None   # 002: the player-dealer may ask for the House Way
            return None, None
        ok, _ = legal_set(self.ranker, h.high, h.low)
        if ok:
            return entered, None
        what = "foul: the low hand outranks the high hand"
        if mode == "player" and pos == bank:
            # 000(n)(10), 003 PLAYER BANK Important Note: the bank cannot set an automatic loser
            return house, f"{what}; the bank's hand is reset by the house way " \
                          f"({self.rules.cite('bank_hand_not_set_correctly')})"
        if self.rules.foul == FOUL_RESET:
            return house, f"{what}; the dealer resets it by the house way ({self.rules.cite('foul')})"
        return entered, f"{what}; the hand loses ({self.rules.cite('foul')})"
