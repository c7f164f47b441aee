"""A table through the procedures of its rule text, as a state machine driven by events.

The state is a pure function of the event list: ``replay(events, rules)`` rebuilds a table
from its log, and an event that the procedures do not allow in the current state is refused
with the reason. Events carry their own time and actor; nothing here reads a clock.

States (000(e)-(l), 001 11.5-11.9, 003 NEW CARDS IN PLAY):
closed -> opening (deck received, inspected by the dealer, verified by the floor person,
spread for the first player, washed) -> betting -> no_more_bets -> starting_position ->
dealing -> setting -> revealing -> settling -> round_complete -> shuffling -> betting ... -> closed.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from . import position as positions
# due (and deck_deadline, dice_deadline) re-exported for app/cli/round_command.py and
# app/store/read_models.py until they import app.engine.deadlines
from .deadlines import deck_deadline, dice_deadline, due  # noqa: F401
from .deal import four_card_check
from .irregularities import IRREGULARITIES, irregularity
from .layout import SEATS, name
from .position import SEVEN_SEATS, PositionError
from .profile import RuleProfile
from .rotation import bank_eligibility, bank_offer_order, bank_offer_start, cut_offers
from .table_state import IN_ROUND, STATES, SUPERVISORS, Deck, Event, Irregularity, Refused, TableState

# the states each event may arrive in, and the state it leaves the table in
TRANSITIONS: dict[str, tuple[tuple[str, ...], str | None]] = {
    "deck_received": (("closed", "opening", "betting", "round_complete", "shuffling"), None),
    "deck_inspected": (("opening", "betting", "round_complete", "shuffling"), None),
    "deck_verified": (("opening", "betting", "round_complete", "shuffling"), None),
    "deck_spread": (("opening", "betting", "round_complete", "shuffling"), None),
    "deck_washed": (("opening", "betting", "round_complete", "shuffling"), None),
    "deck_removed": (("opening", "betting", "round_complete", "shuffling", "closed"), None),
    "dice_placed": (("closed", "opening", "betting", "round_complete", "shuffling"), None),
    "shuffle_started": (("opening", "round_complete", "betting") + IN_ROUND, "shuffling"),
    "shuffle_completed": (("shuffling", "betting") + IN_ROUND, "betting"),
    "no_more_bets": (("betting",), "no_more_bets"),
    "position_determined": (("no_more_bets", "dealing"), None),
    "dealt": (("no_more_bets", "starting_position", "dealing"), None),
    "hands_set": (("setting",), "revealing"),
    "revealed": (("revealing",), "settling"),
    "settled": (("settling",), "round_complete"),
    "acknowledged": (STATES, None),
    "cut": (("betting", "no_more_bets", "starting_position"), None),
    "recut_ordered": (("betting", "no_more_bets", "starting_position"), None),
    "player_seated": (STATES[1:], None),
    "player_left": (STATES, None),
    "bank_declared": (("betting",), None),
    "stub_counted": (("setting", "round_complete", "betting"), None),
    "dealer_wager_placed": (("betting",), None),
    "table_closed": (("betting", "round_complete", "opening", "shuffling"), "closed"),
    # the progressive controller's link, reported by the device layer at any time (000(q)(2))
    "progressive_link": (STATES, None),
}


def _deck(state: TableState, event: Event) -> Deck:
    d = event.data.get("deck")
    if d not in state.decks:
        raise Refused(f"{event.type}: no deck {d!r} at the table (received: {', '.join(state.decks) or 'none'})")
    return state.decks[d]


def apply(state: TableState, event: Event, rules: RuleProfile) -> TableState:
    """The table after ``event``, or Refused with the reason."""
    if state.last_time is not None and event.time < state.last_time:
        raise Refused(f"{event.type}: time {event.time.isoformat()} is before the previous event")
    t = event.type
    if t in IRREGULARITIES:
        return irregularity(state, event, rules)
    if t not in TRANSITIONS:
        raise Refused(f"unknown event type {t!r}")
    allowed, after = TRANSITIONS[t]
    if state.state not in allowed:
        raise Refused(f"{t}: not allowed while the table is {state.state} (allowed in: {', '.join(allowed)})")
    s = replace(state, last_time=event.time)
    d = event.data

    if t == "deck_received":
        # 000(e)(1), 001 11.5(a); 000(b)(2): at most two decks, each of a different back colour
        deck_id = d.get("deck")
        if not isinstance(deck_id, str) or not deck_id:
            raise Refused("deck_received: the deck needs an id")
        if deck_id in s.decks:
            raise Refused(f"deck_received: deck {deck_id!r} is already at the table")
        if len(s.decks) >= 2:
            raise Refused("deck_received: a table uses one deck, or two with a shuffler (000(b)(2))")
        decks = dict(s.decks)
        decks[deck_id] = Deck(deck_id, event.time)
        if s.state == "closed":  # a new game begins (000(m)(2))
            # a new game: 001 11.17(h)'s five rounds count from its first round
            return replace(s, decks=decks, state="opening", rounds_played=0, last_bank=(), rounds_without_bank=0,
                           wagered_last_unbanked=None, banked_this_rotation=(), first_player=None,
                           rounds_since_count=0)
        return replace(s, decks=decks)
    if t in ("deck_inspected", "deck_verified", "deck_spread", "deck_washed"):
        deck = _deck(s, event)
        if t == "deck_inspected":
            if event.role != "dealer":
                raise Refused("deck_inspected: the dealer sorts and inspects the cards (000(e)(1))")
            deck = replace(deck, inspected=True)
        elif t == "deck_verified":
            if event.role not in SUPERVISORS:
                raise Refused("deck_verified: the floor person verifies the inspection (000(e)(1)), not a "
                              f"{event.role}")
            if not deck.inspected:
                raise Refused("deck_verified: the dealer has not inspected this deck yet (000(e)(1))")
            deck = replace(deck, verified_by=event.actor)
        elif t == "deck_spread":
            if deck.verified_by is None:
                raise Refused("deck_spread: spread for the first player after the floor person's verification "
                              "(000(e)(2))")
            deck = replace(deck, spread=True)
        else:
            if not deck.spread:
                raise Refused("deck_washed: the cards are washed after the first player's inspection (000(e)(3))")
            deck = replace(deck, washed=True)
        return replace(s, decks={**s.decks, deck.id: deck})
    if t == "deck_removed":
        deck = _deck(s, event)
        decks = {k: v for k, v in s.decks.items() if k != deck.id}
        return replace(s, decks=decks, deck_in_play=None if s.deck_in_play == deck.id else s.deck_in_play)
    if t == "dice_placed":
        return replace(s, dice_placed=event.time)
    if t in ("shuffle_started", "shuffle_completed") and _other_deck(s, d.get("deck")):
        return _background_shuffle(s, event)
    if t in ("shuffle_started", "shuffle_completed") and s.state in IN_ROUND:
        raise Refused(f"{t}: a round is in progress; only the other deck may be shuffled meanwhile "
                      "(000(b)(2)(iii))")
    if t == "shuffle_completed" and s.state != "shuffling":
        raise Refused(f"shuffle_completed: no shuffle was started (the table is {s.state})")
    if t == "shuffle_started":
        ready = [k for k, v in s.decks.items() if v.washed]
        if not ready:
            raise Refused("shuffle_started: no deck has been inspected, verified, spread and washed (000(e)(1)-(4))")
        return replace(s, state="shuffling")
    if t == "shuffle_completed":
        deck = _deck(s, event)
        if not deck.washed:
            raise Refused(f"shuffle_completed: deck {deck.id!r} was not opened for play (000(e)(4))")
        count = d.get("card_count")
        if count is not None and count != 53:
            # 001 11.17(i), 000(b)(1): a shuffler that counts a wrong number: the deck is removed
            irr = Irregularity(len(s.irregularities) + 1, "deck_count_wrong", event.time,
                               f"the shuffler counted {count} cards, not 53: the deck is removed", "001 11.17(i)",
                               True)
            decks = {k: v for k, v in s.decks.items() if k != deck.id}
            return replace(s, irregularities=s.irregularities + (irr,), decks=decks, state="opening" if not decks
                           else "shuffling")
        if len(s.decks) == 2 and deck.id == s.last_deck_dealt:
            raise Refused(f"shuffle_completed: deck {deck.id!r} was dealt last round; the two decks alternate "
                          "(000(b)(2)(iv))")
        return replace(s, state="betting", deck_in_play=deck.id, void=False, starting_position=None,
                       manual_shuffle=bool(d.get("manual", False)), cut_by=None, bank=(), bank_mode=None,
                       rounds_since_count=0 if count == 53 else s.rounds_since_count)
    if t == "no_more_bets":
        if s.deck_in_play is None:
            raise Refused("no_more_bets: no shuffled deck is ready")
        if s.manual_shuffle and s.cut_by is None:
            raise Refused("no_more_bets: a manual shuffle is cut before the deal (000(f)(2)(ii), (3))")
        pending = s.pending_acks()
        if pending:
            raise Refused(f"no_more_bets: irregularity {pending[0].ref} ({pending[0].kind}) awaits a "
                          "supervisor's acknowledgement")
        method = d.get("method")
        if method not in rules.procedures.deal:
            raise Refused(f"no_more_bets: deal method must be one of {', '.join(rules.procedures.deal)} for "
                          f"profile {rules.name!r}, got {method!r}")
        wagers = d.get("wagers")
        if wagers is None and _player_banking(rules):
            raise Refused("no_more_bets: list the seats with a wager ('wagers'): who may bank next depends on it "
                          "(000(m)(4)(i))")
        given = wagers is not None
        wagers = tuple(wagers or ())
        for seat in wagers:
            _check_seat(s, rules, seat, "no_more_bets")
        progressive = _progressive_seats(s, rules, d.get("progressive"), wagers if given else None)
        deck = s.decks[s.deck_in_play]
        deadline, rule = deck_deadline(deck, rules, method)
        if event.time > deadline:
            raise Refused(f"no_more_bets: deck {deck.id!r} was due for change at {deadline.isoformat()} ({rule})")
        if method == "three-four" and s.rounds_since_count >= 5:
            raise Refused("no_more_bets: count the stub first; it is counted at least once every five rounds "
                          "(001 11.17(h))")
        deck = s.decks[s.deck_in_play]
        decks = {**s.decks, deck.id: replace(deck, in_play_since=deck.in_play_since or event.time)}
        return replace(s, state="no_more_bets", round=s.round + 1, dealing_method=method, decks=decks,
                       void=False, starting_position=None, rounds_since_count=s.rounds_since_count + 1,
                       voided_seats=(), round_wagers=wagers, round_progressive=progressive)
    if t == "position_determined":
        pos = d.get("position")
        if not isinstance(pos, int) or not 0 <= pos <= 7:
            raise Refused(f"position_determined: position is 0 (dealer) or a seat, got {pos!r}")
        if d.get("method") not in rules.procedures.starting_position:
            raise Refused(f"position_determined: method must be one of "
                          f"{', '.join(rules.procedures.starting_position)}, got {d.get('method')!r}")
        if s.state == "no_more_bets" and s.dealing_method == "hand":
            raise Refused("position_determined: from the hand the seven stacks are dealt and checked first "
                          "(000(i)(4)-(5))")
        _check_cut(s, "position_determined")
        _check_position(s, rules, event)
        if s.state == "dealing":  # 000(i)(5): from the hand, the stacks are dealt first
            return replace(s, starting_position=pos, state="setting")
        return replace(s, starting_position=pos, state="starting_position")
    if t == "dealt":
        if s.state == "dealing":
            raise Refused("dealt: the stacks are dealt; determine the starting position to deliver them (000(i)(5))")
        if s.state == "no_more_bets" and s.dealing_method not in ("hand", "three-four"):
            raise Refused("dealt: determine the starting position first (000(h)(2), (j)(3)); only a deal from "
                          "the hand makes the stacks first (000(i)(5))")
        _check_cut(s, "dealt")
        remaining = d.get("remaining")
        sizes = d.get("hand_sizes", [7] * 7)
        if not isinstance(remaining, int) or not isinstance(sizes, list):
            raise Refused("dealt: give 'remaining' (cards left) and optionally 'hand_sizes'")
        if s.dealing_method == "three-four":
            # 001 11.17(h): the stub is checked by the stub count, not the four-card check
            verdict, rule = (("ok", "001 11.17(g)") if all(n == 7 for n in sizes)
                             else ("misdeal", "001 11.17(h)2: all hands void"))
        else:
            verdict, rule = four_card_check(remaining, sizes)
        if verdict != "ok":
            kind = "misdeal" if verdict == "misdeal" else "deck_count_wrong"
            irr = Irregularity(len(s.irregularities) + 1, kind, event.time,
                               "all hands void, reshuffle" if verdict == "misdeal"
                               else "round void, the deck is removed from the table", rule, True)
            out = replace(s, irregularities=s.irregularities + (irr,), void=True, state="round_complete")
            if verdict == "deck_removed":
                decks = {k: v for k, v in out.decks.items() if k != s.deck_in_play}
                out = replace(out, decks=decks, deck_in_play=None)
            return out
        if s.state == "no_more_bets" and s.dealing_method == "hand":
            return replace(s, state="dealing")
        # 001 11.4(a), 11.17(d): the three-card deal starts at the wagering player farthest to the
        # dealer's left, with no dice or RNG
        return replace(s, state="setting")
    if t in ("hands_set", "revealed"):
        return replace(s, state=after)
    if t == "settled":
        out = replace(s, state="round_complete", last_deck_dealt=s.deck_in_play, deck_in_play=None,
                      last_bank=s.bank if s.bank_mode in ("player", "co-bank") else (), bank=(), bank_mode=None,
                      rounds_played=s.rounds_played + 1)
        if s.ready_deck in s.decks:
            # 000(b)(2)(iv): the deck shuffled during the round is dealt next
            out = replace(out, state="betting", deck_in_play=s.ready_deck, ready_deck=None, void=False,
                          starting_position=None, manual_shuffle=False, cut_by=None)
        if s.bank_mode in ("player", "co-bank"):
            return replace(out, rounds_without_bank=0, banked_this_rotation=s.banked_this_rotation + s.bank)
        # 003 PLAYER BANK 1: the bank returns to the house hand after passing through all players
        return replace(out, rounds_without_bank=s.rounds_without_bank + 1, wagered_last_unbanked=s.round_wagers,
                       banked_this_rotation=())
    if t == "dealer_wager_placed":
        # 000(m)(7): the bank's last wager against the dealer, or less, or none; 003 PLAYER BANK 7:
        # up to 10% more (Lucky Money) or prepaid commission, not both; never against a co-bank
        if s.bank_mode != "player":
            raise Refused("dealer_wager_placed: the dealer wagers only against a player bank (000(m)(5), (7))")
        cents, last = d.get("cents"), d.get("last_wager")
        if not isinstance(cents, int) or not isinstance(last, int) or cents < 0:
            raise Refused("dealer_wager_placed: give 'cents' and the bank's 'last_wager' in cents")
        cap = last * (100 + rules.lucky_money_percent) // 100
        if cents > cap:
            raise Refused(f"dealer_wager_placed: {cents} cents is more than {cap} (000(m)(7); 003 PLAYER BANK 7)")
        if cents > last and d.get("prepaid_commission"):
            raise Refused("dealer_wager_placed: Lucky Money or prepaid commission, not both (003 PLAYER BANK 7)")
        return replace(s, dealer_wager=cents)
    if t == "stub_counted":
        # 001 11.17(h): 53 cards in all is right; otherwise the deck is removed (or, if the
        # cards were misdealt, the hands are void)
        total = d.get("deck_total")
        if not isinstance(total, int):
            raise Refused("stub_counted: give 'deck_total', the cards in the deck by the count")
        if total == 53:
            return replace(s, rounds_since_count=0)
        # counted while the hands are on the layout (001 11.17(g)1): all hands are void too
        counting_round = s.state == "setting"
        deck_id = s.deck_in_play if counting_round else s.last_deck_dealt or s.deck_in_play
        irr = Irregularity(len(s.irregularities) + 1, "deck_count_wrong", event.time,
                           f"the stub count shows {total} cards in deck {deck_id!r}: "
                           + ("all hands void, " if counting_round else "") + "the deck is removed",
                           "001 11.17(h)2", True)
        decks = {k: v for k, v in s.decks.items() if k != deck_id}
        out = replace(s, irregularities=s.irregularities + (irr,), decks=decks, rounds_since_count=0,
                      deck_in_play=None if s.deck_in_play == deck_id else s.deck_in_play)
        if counting_round:
            out = replace(out, void=True, state="round_complete")
        return out
    if t == "cut":
        return _cut(s, event, rules)
    if t == "recut_ordered":
        # 000(f)(6), 001 11.6: after the cut and before any card is dealt
        if event.role not in SUPERVISORS:
            raise Refused("recut_ordered: a casino supervisor orders a re-cut (000(f)(6))")
        if s.cut_by is None:
            raise Refused("recut_ordered: the cards have not been cut")
        return replace(s, cut_by=None, recut=True, last_cutter=s.cut_by)
    if t == "player_seated":
        seat = d.get("seat")
        _check_seat(replace(s, seated=(seat,)), rules, seat, t)
        if seat in s.seated:
            raise Refused(f"player_seated: seat {seat} is already occupied")
        first = s.first_player
        if first is None and not s.seated and s.rounds_played == 0:
            first = seat  # 000(f)(4)(i): the first player to the table
        return replace(s, seated=tuple(sorted(s.seated + (seat,))), first_player=first)
    if t == "player_left":
        seat = d.get("seat")
        if seat not in s.seated:
            raise Refused(f"player_left: seat {seat!r} is not occupied (occupied: {list(s.seated)})")
        return replace(s, seated=tuple(x for x in s.seated if x != seat))
    if t == "bank_declared":
        return _bank_declared(s, event, rules)
    if t == "acknowledged":
        if event.role not in SUPERVISORS:
            raise Refused(f"acknowledged: a {event.role} cannot acknowledge an irregularity; a floor supervisor "
                          "or pit manager must")
        ref = d.get("ref")
        found = [i for i in s.irregularities if i.ref == ref]
        if not found:
            raise Refused(f"acknowledged: no irregularity {ref!r}")
        if found[0].acknowledged_by is not None:
            raise Refused(f"acknowledged: irregularity {ref} was already acknowledged by {found[0].acknowledged_by}")
        irr = tuple(replace(i, acknowledged_by=event.actor) if i.ref == ref else i for i in s.irregularities)
        return replace(s, irregularities=irr)
    if t == "table_closed":
        return replace(s, state="closed", deck_in_play=None, seated=(), first_player=None)
    if t == "progressive_link":
        online = d.get("online")
        if not isinstance(online, bool):
            raise Refused(f"progressive_link: 'online' is true or false, got {online!r}")
        return replace(s, progressive_online=online)
    raise Refused(f"unhandled event {t!r}")  # pragma: no cover - every TRANSITIONS key is handled


def _other_deck(s: TableState, deck: Any) -> bool:
    """A shuffle of the deck that is not in play, while the deck in play is on the table."""
    return (isinstance(deck, str) and deck in s.decks and s.deck_in_play is not None and deck != s.deck_in_play
            and (s.state in IN_ROUND or s.state == "betting"))


def _background_shuffle(s: TableState, event: Event) -> TableState:
    """000(b)(2)(iii): the shuffler works on the other deck while this one is dealt; the table
    stays where it is. A wrong count removes that deck and leaves the round alone (001 11.17(i))."""
    deck = s.decks[event.data["deck"]]
    if not deck.washed:
        raise Refused(f"{event.type}: deck {deck.id!r} was not opened for play (000(e)(4))")
    if event.type == "shuffle_started":
        return replace(s, ready_deck=None if s.ready_deck == deck.id else s.ready_deck)
    count = event.data.get("card_count")
    if count is not None and count != 53:
        irr = Irregularity(len(s.irregularities) + 1, "deck_count_wrong", event.time,
                           f"the shuffler counted {count} cards in deck {deck.id!r}, not 53: that deck is removed; "
                           "the round in play goes on", "001 11.17(i)", True)
        decks = {k: v for k, v in s.decks.items() if k != deck.id}
        return replace(s, irregularities=s.irregularities + (irr,), decks=decks,
                       ready_deck=None if s.ready_deck == deck.id else s.ready_deck)
    return replace(s, ready_deck=deck.id)


def table_seats(rules: RuleProfile) -> tuple[int, ...]:
    """The betting positions: six around a house dealer, seven in 002's player-dealer game."""
    return SEVEN_SEATS if "player-dealer" in rules.banking_modes else SEATS


def _player_banking(rules: RuleProfile) -> bool:
    return bool({"player", "co-bank"} & set(rules.banking_modes))


def _check_seat(s: TableState, rules: RuleProfile, seat: Any, what: str) -> None:
    seats = table_seats(rules)
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in seats:
        raise Refused(f"{what}: a seat is one of {', '.join(map(str, seats))}, got {seat!r}")
    if seat not in s.seated:
        raise Refused(f"{what}: seat {seat} is not occupied (occupied: {list(s.seated)}); record player_seated")


def _progressive_seats(s: TableState, rules: RuleProfile, seats: Any, wagers: tuple[int, ...] | None
                       ) -> tuple[int, ...]:
    """The seats with a progressive payout wager this round (000(q)(1)-(2), 001 11.14(a)-(b))."""
    if seats is None:
        return ()
    if not isinstance(seats, list | tuple):
        raise Refused(f"no_more_bets: 'progressive' lists the seats with a progressive wager, got {seats!r}")
    if not seats:
        return ()
    if "progressive" not in rules.side_bets:
        raise Refused(f"no_more_bets: profile {rules.name!r} offers no progressive payout wager (000(q)(1))")
    for seat in seats:
        _check_seat(s, rules, seat, "no_more_bets")
    if len(set(seats)) != len(seats):
        raise Refused(f"no_more_bets: a seat is listed twice among the progressive wagers: {list(seats)}")
    if wagers is not None:
        # 000(q)(1): offered to a player "who has placed a Pai Gow Poker wager"
        alone = [x for x in seats if x not in wagers]
        if alone:
            raise Refused(f"no_more_bets: seat {alone[0]} has a progressive wager but no Pai Gow Poker wager "
                          "(000(q)(1))")
    if not s.progressive_online:
        # 000(q)(2), (3)(i), (5): the controller locks the acceptors out, lights them and moves
        # the meter; with its link down none of that can be done or verified
        listed = ", ".join(map(str, sorted(seats)))
        raise Refused(f"no_more_bets: progressive wagers are closed while the progressive controller is offline "
                      f"(000(q)); seat{'s' if len(seats) > 1 else ''} {listed} "
                      f"ha{'ve' if len(seats) > 1 else 's'} one")
    return tuple(sorted(seats))


def _check_cut(s: TableState, what: str) -> None:
    if s.manual_shuffle and s.cut_by is None:
        raise Refused(f"{what}: a re-cut was ordered; the cards are re-cut before any card is dealt (000(f)(6))")


def _cut(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(f)(3)-(6), 001 11.6(c)-(e): the cut is offered in order, the dealer cuts if nobody
    accepts, and a re-cut is made by the last cutter or the next person entitled to cut."""
    d = event.data
    if not s.manual_shuffle:
        raise Refused("cut: only a manual shuffle is cut; a shuffler's deck is dealt as it comes (000(f)(2)(i))")
    depth = d.get("depth")
    if not isinstance(depth, int) or not 10 <= depth <= 43:
        raise Refused(f"cut: the cutting card goes at least 10 cards from either end (000(f)(5)), got {depth!r}")
    by = d.get("by")
    if not isinstance(by, int) or isinstance(by, bool):
        raise Refused(f"cut: 'by' is the seat that cut, or 0 for the dealer, got {by!r}")
    if s.cut_by is not None:
        raise Refused("cut: the deck was already cut; a re-cut needs a supervisor's order (000(f)(6))")
    bank = s.bank[0] if s.bank and s.bank_mode in ("player", "co-bank") else None
    offers = cut_offers(s.rounds_played == 0, s.first_player, bank, s.rounds_without_bank, s.seated)
    if s.recut:
        allowed = [s.last_cutter]
        if s.last_cutter in offers and offers.index(s.last_cutter) + 1 < len(offers):
            allowed.append(offers[offers.index(s.last_cutter) + 1])
        if by not in allowed:
            raise Refused(f"cut: the re-cut is made by the last cutter or the next person entitled, "
                          f"{' or '.join(map(name, allowed))} (000(f)(6)), not {name(by)}")
        return replace(s, cut_by=by, recut=False)
    if s.state != "betting":
        raise Refused(f"cut: the cards are cut before no more bets; now only a re-cut (000(f)(6))")
    if by not in offers:
        raise Refused(f"cut: the cut is offered to {', then '.join(map(name, offers))} (000(f)(3)-(4)), "
                      f"not {name(by)}")
    declined = d.get("declined", [])
    for earlier in offers[:offers.index(by)]:
        if earlier not in declined:
            raise Refused(f"cut: {name(earlier)} is offered the cut before {name(by)} and has not declined "
                          "(000(f)(3)-(4))")
    return replace(s, cut_by=by, last_cutter=by)


def _bank_declared(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    d = event.data
    mode = d.get("mode")
    seats = d.get("seats") or ([d["seat"]] if "seat" in d else [])
    if mode not in rules.banking_modes or mode == "house":
        raise Refused(f"bank_declared: mode must be one of {', '.join(m for m in rules.banking_modes if m != 'house')}"
                      f" for profile {rules.name!r}, got {mode!r}")
    if not seats or not all(isinstance(x, int) for x in seats):
        raise Refused("bank_declared: give the bank's seat (or the partners' seats, 003 PLAYER BANK 17)")
    for seat in seats:
        _check_seat(s, rules, seat, "bank_declared")
    if len(seats) > 1 and mode != "player":
        raise Refused("bank_declared: partners combine bankrolls only as a player bank (003 PLAYER BANK 17)")
    out = replace(s, bank=tuple(seats), bank_mode=mode, dealer_wager=None)
    if mode not in ("player", "co-bank"):
        return out
    if s.rounds_played == 0:
        raise Refused("bank_declared: a player may not be the bank at the start of the game (000(m)(2))")
    p = rules.procedures
    if p.bank_rotation == "each-round":
        # 000(m)(3), 001 11.10(c)
        again = set(seats) & set(s.last_bank)
        if again:
            raise Refused(f"bank_declared: seat {sorted(again)[0]} banked the last round; no player banks two "
                          "consecutive rounds (000(m)(3))")
        first = bank_offer_start(s.rounds_played)
        if first is None:
            raise Refused("bank_declared: the initial offer has come round to the dealer; the house banks this "
                          "round (000(m)(3))")
        passed = s.last_bank
    else:
        # 003 PLAYER BANK 1-2, 17: each player (or partnership) banks once in each rotation,
        # which runs counterclockwise and returns to the house hand
        again = set(seats) & set(s.banked_this_rotation)
        if again:
            raise Refused(f"bank_declared: seat {sorted(again)[0]} has banked in this rotation; the bank passes "
                          "through all players before returning to the house (003 PLAYER BANK 1-2, 17)")
        first = s.banked_this_rotation[-1] % 7 + 1 if s.banked_this_rotation else 1
        passed = s.banked_this_rotation
    wagered = s.wagered_last_unbanked or ()
    for seat in seats:
        if seat not in wagered:
            raise Refused(f"bank_declared: seat {seat} did not wager against the dealer in the last unbanked round "
                          "(000(m)(4)(i); 003 PLAYER BANK 1)")
    declined = d.get("declined", [])
    for earlier in bank_offer_order(first, s.seated):
        if earlier == seats[0]:
            break
        eligible, _ = bank_eligibility(earlier, passed, wagered, None, None)
        if eligible and earlier not in declined and earlier not in seats:
            raise Refused(f"bank_declared: seat {earlier} is offered the bank before seat {seats[0]} and has not "
                          "declined (000(m)(3))")
    chips, cover = d.get("chips"), d.get("cover")
    if isinstance(chips, int) and isinstance(cover, int) and chips < cover:
        if not (p.bank_cover_ruling and event.role in SUPERVISORS and d.get("ruling") == "proceed"):
            how = ("; the floor supervisor may rule 'proceed' (003 PLAYER BANK 3)" if p.bank_cover_ruling else "")
            raise Refused(f"bank_declared: {chips} cents of chips cannot cover {cover} cents of wagers "
                          f"(000(m)(4)(ii)){how}")
        ruling = Irregularity(len(s.irregularities) + 1, "bank_cover_ruling", event.time,
                              f"the floor supervisor let seat {seats[0]} bank with {chips} cents against {cover}",
                              "003 PLAYER BANK 3", True, acknowledged_by=event.actor)
        out = replace(out, irregularities=s.irregularities + (ruling,))
    return out


def _check_position(s: TableState, rules: RuleProfile, event: Event) -> None:
    """The position must be the one the method gives (000(k), 004(4), 002): a wrong count
    is refused here, and cards already delivered to it are the wrong_dice_total irregularity."""
    d = event.data
    method, value, pos = d.get("method"), d.get("value"), d["position"]
    bank = s.bank[0] if s.bank and s.bank_mode in ("player", "co-bank") else None
    uses_dice = method in ("dice", "two-dice") or (method == "action" and d.get("source") == "dice")
    if uses_dice:
        if s.dice_placed is None:
            raise Refused(f"position_determined: no dice at the table; record dice_placed first (000(d))")
        at, rule = dice_deadline(s.dice_placed, rules)
        if event.time > at:
            raise Refused(f"position_determined: the dice were due to leave the table at {at.isoformat()} ({rule})")
    if method != "button" and (not isinstance(value, int) or isinstance(value, bool)):
        raise Refused(f"position_determined: give the dice total or RNG number as 'value', got {value!r}")
    try:
        if method == "dice":
            found = positions.dice(value, bank)
        elif method == "rng":
            found = positions.rng(value, bank)
        elif method == "button":
            found = positions.button(s.rounds_played)
        elif method == "two-dice":
            found = positions.two_dice(value)
        else:
            dealer = s.bank[0] if s.bank_mode == "player-dealer" else d.get("player_dealer")
            if not isinstance(dealer, int):
                raise Refused("position_determined: the action button counts from the player-dealer; declare the "
                              "bank or give 'player_dealer' (002)")
            found = positions.action_button(value, dealer)
    except PositionError as e:
        raise Refused(f"position_determined: {e}") from None
    if found.position != pos:
        shown = f"{method} {value}" if method != "button" else f"the button after {s.rounds_played} rounds"
        raise Refused(f"position_determined: {shown} gives {name(found.position)} ({found.rule}), not {name(pos)}; "
                      "if the cards went there, record wrong_dice_total (000(n)(3))")


def replay(events: list[Event], rules: RuleProfile) -> tuple[TableState, tuple[int, Event, str] | None]:
    """Rebuild a table from its events; stops at the first refused event (index, event, reason)."""
    s = TableState()
    for i, e in enumerate(events):
        try:
            s = apply(s, e, rules)
        except Refused as r:
            return s, (i, e, str(r))
    return s, None
