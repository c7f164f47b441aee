"""A table through the procedures of its rule text, as a state machine driven by events.

The state is a pure function of the event list: ``replay(events, rules)`` rebuilds a table
from its log, and an event that the procedures do not allow in the current state is refused
with the reason. Events carry their own time and actor; nothing here reads a clock.

``apply`` checks what every event shares (its time, its type, the states it may arrive in,
``TRANSITIONS``) and hands it to its handler in ``HANDLERS``; an irregularity goes to
app/engine/irregularities.py, and what the players do to app/engine/players.py.

States (000(e)-(l), 001 11.5-11.9, 003 NEW CARDS IN PLAY):
closed -> opening (deck received, inspected by the dealer, verified by the floor person,
spread for the first player, washed) -> betting -> no_more_bets -> starting_position ->
dealing -> setting -> revealing -> settling -> round_complete -> shuffling -> betting ... -> closed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from . import players
from . import position as positions
from .citations import names_only
from .deadlines import deck_deadline, dice_deadline, overdue
from .deal import four_card_check
from .irregularities import IRREGULARITIES, irregularity, with_irregularity
from .layout import name
from .players import check_seat, player_bank, player_banking, progressive_seats
from .position import PositionError
from .profile import RuleProfile
# the table's values, imported from here by the rest of the code
from .roles import SUPERVISORS
from .table_state import IN_ROUND, STATES, Deck, Event, Refused, TableState

Handler = Callable[[TableState, Event, RuleProfile], TableState]

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


def apply(state: TableState, event: Event, rules: RuleProfile) -> TableState:
    """The table after ``event``, or Refused with the reason."""
    if state.last_time is not None and event.time < state.last_time:
        raise Refused(f"{event.type}: time {event.time.isoformat()} is before the previous event")
    t = event.type
    if t in IRREGULARITIES:
        return irregularity(state, event, rules)
    if t not in TRANSITIONS:
        raise Refused(f"unknown event type {t!r}")
    allowed, _ = TRANSITIONS[t]
    if state.state not in allowed:
        raise Refused(f"{t}: not allowed while the table is {state.state} (allowed in: {', '.join(allowed)})")
    return HANDLERS[t](replace(state, last_time=event.time), event, rules)


def replay(events: list[Event], rules: RuleProfile) -> tuple[TableState, tuple[int, Event, str] | None]:
    """Rebuild a table from its events; stops at the first refused event (index, event, reason)."""
    s = TableState()
    for i, e in enumerate(events):
        try:
            s = apply(s, e, rules)
        except Refused as r:
            return s, (i, e, str(r))
    return s, None


# -- the cards: received, opened for play (000(e)(1)-(4)), shuffled, counted ------------------
def _deck(state: TableState, event: Event) -> Deck:
    """The deck the event names."""
    d = event.data.get("deck")
    if d not in state.decks:
        raise Refused(f"{event.type}: no deck {d!r} at the table (received: {', '.join(state.decks) or 'none'})")
    return state.decks[d]


def _with_deck(s: TableState, deck: Deck) -> TableState:
    return replace(s, decks={**s.decks, deck.id: deck})


def _without(s: TableState, deck_id: str | None) -> dict[str, Deck]:
    return {k: v for k, v in s.decks.items() if k != deck_id}


def _remove_deck(s: TableState, deck_id: str | None) -> TableState:
    return replace(s, decks=_without(s, deck_id), deck_in_play=None if s.deck_in_play == deck_id else s.deck_in_play)


def _deck_received(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(e)(1), 001 11.5(a); 000(b)(2): at most two decks, each of a different back colour."""
    deck_id = event.data.get("deck")
    if not isinstance(deck_id, str) or not deck_id:
        raise Refused("deck_received: the deck needs an id")
    if deck_id in s.decks:
        raise Refused(f"deck_received: deck {deck_id!r} is already at the table")
    if len(s.decks) >= 2:
        raise Refused(f"deck_received: a table uses one deck, or two with a shuffler ({rules.cite('two_decks')})")
    decks = {**s.decks, deck_id: Deck(deck_id, event.time)}
    if s.state == "closed":
        # a new game (000(m)(2)): 001 11.17(h)'s five rounds count from its first round
        return replace(s, decks=decks, state="opening", rounds_played=0, last_bank=(), rounds_without_bank=0,
                       wagered_last_unbanked=None, banked_this_rotation=(), first_player=None, rounds_since_count=0)
    return replace(s, decks=decks)


def _deck_inspected(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(e)(1): the dealer sorts and inspects the cards."""
    deck = _deck(s, event)
    if event.role != "dealer":
        raise Refused(f"deck_inspected: the dealer sorts and inspects the cards ({rules.cite('deck_inspection')})")
    return _with_deck(s, replace(deck, inspected=True))


def _deck_verified(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(e)(1): the floor person verifies the dealer's inspection."""
    deck = _deck(s, event)
    if event.role not in SUPERVISORS:
        raise Refused(f"deck_verified: the floor person verifies the inspection ({rules.cite('deck_inspection')}), "
                      f"not a {event.role}")
    if not deck.inspected:
        raise Refused(f"deck_verified: the dealer has not inspected this deck yet ({rules.cite('deck_inspection')})")
    return _with_deck(s, replace(deck, verified_by=event.actor))


def _deck_spread(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(e)(2): spread for the first player's inspection."""
    deck = _deck(s, event)
    if deck.verified_by is None:
        raise Refused("deck_spread: spread for the first player after the floor person's verification "
                      f"({rules.cite('deck_spread')})")
    return _with_deck(s, replace(deck, spread=True))


def _deck_washed(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(e)(3): washed after the first player's inspection."""
    deck = _deck(s, event)
    if not deck.spread:
        raise Refused("deck_washed: the cards are washed after the first player's inspection "
                      f"({rules.cite('deck_washed')})")
    return _with_deck(s, replace(deck, washed=True))


def _deck_removed(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """A deck leaves the table, changed (000(e)(5)) or taken out of play."""
    return _remove_deck(s, _deck(s, event).id)


def _dice_placed(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(d): the dice's time at the table (000(d)(1)(ii)) runs from now."""
    return replace(s, dice_placed=event.time)


def _other_deck(s: TableState, deck: Any) -> bool:
    """A shuffle of the deck that is not in play, while the deck in play is on the table."""
    return (isinstance(deck, str) and deck in s.decks and s.deck_in_play is not None and deck != s.deck_in_play
            and (s.state in IN_ROUND or s.state == "betting"))


def _background_shuffle(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(b)(2)(iii): the shuffler works on the other deck while this one is dealt; the table
    stays where it is. A wrong count removes that deck and leaves the round alone (001 11.17(i))."""
    deck = s.decks[event.data["deck"]]
    if not deck.washed:
        raise Refused(f"{event.type}: deck {deck.id!r} was not opened for play ({rules.cite('deck_opening')})")
    if event.type == "shuffle_started":
        return replace(s, ready_deck=None if s.ready_deck == deck.id else s.ready_deck)
    count = event.data.get("card_count")
    if count is not None and count != 53:
        s = with_irregularity(s, "deck_count_wrong", event.time,
                              f"the shuffler counted {count} cards in deck {deck.id!r}, not 53: that deck is removed; "
                              "the round in play goes on", rules.cite("deck_count"))
        return replace(s, decks=_without(s, deck.id), ready_deck=None if s.ready_deck == deck.id else s.ready_deck)
    return replace(s, ready_deck=deck.id)


def _not_in_round(s: TableState, what: str, rules: RuleProfile) -> None:
    """000(b)(2)(iii): during a round only the other deck is shuffled."""
    if s.state in IN_ROUND:
        raise Refused(f"{what}: a round is in progress; only the other deck may be shuffled meanwhile "
                      f"({rules.cite('two_decks')})")


def _shuffle_started(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(e)(1)-(4): only cards opened for play are shuffled."""
    if _other_deck(s, event.data.get("deck")):
        return _background_shuffle(s, event, rules)
    _not_in_round(s, event.type, rules)
    if not any(deck.washed for deck in s.decks.values()):
        raise Refused("shuffle_started: no deck has been inspected, verified, spread and washed "
                      f"({rules.cite('deck_opening')})")
    return replace(s, state="shuffling")


def _shuffle_completed(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(e)(4): a deck opened for play; 001 11.17(i): a shuffler's wrong count removes it;
    000(b)(2)(iv): two decks alternate."""
    if _other_deck(s, event.data.get("deck")):
        return _background_shuffle(s, event, rules)
    _not_in_round(s, event.type, rules)
    if s.state != "shuffling":
        raise Refused(f"shuffle_completed: no shuffle was started (the table is {s.state})")
    deck = _deck(s, event)
    if not deck.washed:
        raise Refused(f"shuffle_completed: deck {deck.id!r} was not opened for play ({rules.cite('deck_opening')})")
    count = event.data.get("card_count")
    if count is not None and count != 53:
        # 000(b)(1): 53 cards
        decks = _without(s, deck.id)
        s = with_irregularity(s, "deck_count_wrong", event.time,
                              f"the shuffler counted {count} cards, not 53: the deck is removed",
                              rules.cite("deck_count"))
        return replace(s, decks=decks, state="opening" if not decks else "shuffling")
    if len(s.decks) == 2 and deck.id == s.last_deck_dealt:
        raise Refused(f"shuffle_completed: deck {deck.id!r} was dealt last round; the two decks alternate "
                      f"({rules.cite('two_decks')})")
    return replace(s, state="betting", deck_in_play=deck.id, void=False, starting_position=None,
                   manual_shuffle=bool(event.data.get("manual", False)), cut_by=None, bank=(), bank_mode=None,
                   rounds_since_count=0 if count == 53 else s.rounds_since_count)


def _stub_counted(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """001 11.17(h): 53 cards in all is right; otherwise the deck is removed, and counted while the
    hands are on the layout (001 11.17(g)1) the hands are void too."""
    total = event.data.get("deck_total")
    if not isinstance(total, int):
        raise Refused("stub_counted: give 'deck_total', the cards in the deck by the count")
    if total == 53:
        return replace(s, rounds_since_count=0)
    counting_round = s.state == "setting"
    deck_id = s.deck_in_play if counting_round else s.last_deck_dealt or s.deck_in_play
    out = with_irregularity(s, "deck_count_wrong", event.time,
                            f"the stub count shows {total} cards in deck {deck_id!r}: "
                            + ("all hands void, " if counting_round else "") + "the deck is removed",
                            rules.cite("stub_count"))
    out = replace(_remove_deck(out, deck_id), rounds_since_count=0)
    if counting_round:
        out = replace(out, void=True, state="round_complete")
    return out


# -- the round: no more bets (000(g)), the starting position (000(k)), the deal, the settlement --
def _no_more_bets(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(g): the round begins, with a deck ready to deal that is not due for change (000(e)(5))
    and, in the three-card deal, a stub counted in the last five rounds (001 11.17(h))."""
    _ready_to_deal(s, rules)
    method = event.data.get("method")
    if method not in rules.procedures.deal:
        raise Refused(f"no_more_bets: deal method must be one of {', '.join(rules.procedures.deal)} for "
                      f"profile {rules.name!r}, got {method!r}")
    wagers, progressive = _wagers(s, event.data, rules)
    deck = s.decks[s.deck_in_play]
    deadline, rule = deck_deadline(deck, rules, method)
    if overdue(deadline, event.time):
        raise Refused(f"no_more_bets: deck {deck.id!r} was due for change at {deadline.isoformat()} ({rule})")
    if method == "three-four" and s.rounds_since_count >= 5:
        raise Refused("no_more_bets: count the stub first; it is counted at least once every five rounds "
                      f"({rules.cite('stub_count')})")
    decks = {**s.decks, deck.id: replace(deck, in_play_since=deck.in_play_since or event.time)}
    return replace(s, state="no_more_bets", round=max(s.round, s.last_round) + 1, dealing_method=method, decks=decks,
                   void=False, starting_position=None, rounds_since_count=s.rounds_since_count + 1,
                   voided_seats=(), round_wagers=wagers, round_progressive=progressive)


def _ready_to_deal(s: TableState, rules: RuleProfile) -> None:
    """A shuffled deck, cut if shuffled by hand (000(f)(2)(ii), (3)), and no irregularity awaiting
    a supervisor's acknowledgement."""
    if s.deck_in_play is None:
        raise Refused("no_more_bets: no shuffled deck is ready")
    if s.manual_shuffle and s.cut_by is None:
        raise Refused(f"no_more_bets: a manual shuffle is cut before the deal ({rules.cite('cut')})")
    pending = s.pending_acks()
    if pending:
        raise Refused(f"no_more_bets: irregularity {pending[0].ref} ({pending[0].kind}) awaits a "
                      "supervisor's acknowledgement")


def _wagers(s: TableState, d: dict, rules: RuleProfile) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The seats wagering this round, and those with a progressive wager (000(q)(1)); where a
    player may bank, who may bank next depends on them (000(m)(4)(i))."""
    wagers = d.get("wagers")
    if wagers is None and player_banking(rules):
        raise Refused("no_more_bets: list the seats with a wager ('wagers'): who may bank next depends on it "
                      f"({rules.cite('bank_wagered')})")
    given = wagers is not None
    wagers = tuple(wagers or ())
    for seat in wagers:
        check_seat(s, rules, seat, "no_more_bets")
    return wagers, progressive_seats(s, rules, d.get("progressive"), wagers if given else None)


def _check_cut(s: TableState, what: str, rules: RuleProfile) -> None:
    """000(f)(6): a re-cut ordered is made before any card is dealt."""
    if s.manual_shuffle and s.cut_by is None:
        raise Refused(f"{what}: a re-cut was ordered; the cards are re-cut before any card is dealt "
                      f"({rules.cite('cut')})")


def _position_determined(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(k), 004(4), 002: the starting position by the profile's method; 000(i)(4)-(5): from the
    hand, after the seven stacks are dealt and checked."""
    pos = event.data.get("position")
    if not isinstance(pos, int) or not 0 <= pos <= 7:
        raise Refused(f"position_determined: position is 0 (dealer) or a seat, got {pos!r}")
    if event.data.get("method") not in rules.procedures.starting_position:
        raise Refused(f"position_determined: method must be one of "
                      f"{', '.join(rules.procedures.starting_position)}, got {event.data.get('method')!r}")
    if s.state == "no_more_bets" and s.dealing_method == "hand":
        raise Refused("position_determined: from the hand the seven stacks are dealt and checked first "
                      f"({rules.cite('deal')})")
    _check_cut(s, "position_determined", rules)
    _check_position(s, rules, event)
    return replace(s, starting_position=pos, state="setting" if s.state == "dealing" else "starting_position")


def _check_position(s: TableState, rules: RuleProfile, event: Event) -> None:
    """The position must be the one the method gives (000(k), 004(4), 002): a wrong count
    is refused here, and cards already delivered to it are the wrong_dice_total irregularity."""
    d = event.data
    method, value, pos = d.get("method"), d.get("value"), d["position"]
    if method in ("dice", "two-dice") or (method == "action" and d.get("source") == "dice"):
        _dice_in_time(s, rules, event)
    if method != "button" and (not isinstance(value, int) or isinstance(value, bool)):
        raise Refused(f"position_determined: give the dice total or RNG number as 'value', got {value!r}")
    try:
        found = _position_by(s, method, value, d)
    except PositionError as e:
        raise Refused(f"position_determined: {e}") from None
    if found.position != pos:
        shown = f"{method} {value}" if method != "button" else f"the button after {s.rounds_played} rounds"
        # app/engine/position.py counts as 000(k) words it; a table of another text cites its own
        own = names_only(found.rule, rules.rule_text, rules.regulation)
        rule = found.rule if own else rules.cite("starting_position")
        raise Refused(f"position_determined: {shown} gives {name(found.position)} ({rule}), not {name(pos)}; "
                      f"if the cards went there, record wrong_dice_total ({rules.cite('wrong_dice_total')})")


def _dice_in_time(s: TableState, rules: RuleProfile, event: Event) -> None:
    """000(d): dice at the table, and not past their time (000(d)(1)(ii))."""
    if s.dice_placed is None:
        raise Refused(f"position_determined: no dice at the table; record dice_placed first ({rules.cite('dice')})")
    at, rule = dice_deadline(s.dice_placed, rules)
    if overdue(at, event.time):
        raise Refused(f"position_determined: the dice were due to leave the table at {at.isoformat()} ({rule})")


def _position_by(s: TableState, method: str, value: Any, d: dict) -> positions.StartingPosition:
    """The starting position ``method`` gives: dice, RNG or the button (000(k)(2)-(4)), two dice
    (004(4)), the action button from the player-dealer (002)."""
    if method == "dice":
        return positions.dice(value, player_bank(s))
    if method == "rng":
        return positions.rng(value, player_bank(s))
    if method == "button":
        return positions.button(s.rounds_played)
    if method == "two-dice":
        return positions.two_dice(value)
    dealer = s.bank[0] if s.bank_mode == "player-dealer" else d.get("player_dealer")
    if not isinstance(dealer, int):
        raise Refused("position_determined: the action button counts from the player-dealer; declare the "
                      "bank or give 'player_dealer' (002)")
    return positions.action_button(value, dealer)


def _dealt(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(h)(2), (j)(3): the cards are delivered from the starting position, then the four-card
    check (000(h)(4); with the three-card deal seven cards a hand, 001 11.17(g)-(h)); from the hand
    the stacks come first (000(i)(5))."""
    if s.state == "dealing":
        raise Refused("dealt: the stacks are dealt; determine the starting position to deliver them "
                      f"({rules.cite('deal')})")
    if s.state == "no_more_bets" and s.dealing_method not in ("hand", "three-four"):
        raise Refused("dealt: determine the starting position first; only a deal from the hand makes the stacks "
                      f"first ({rules.cite('deal')})")
    _check_cut(s, "dealt", rules)
    remaining = event.data.get("remaining")
    sizes = event.data.get("hand_sizes", [7] * 7)
    if not isinstance(remaining, int) or not isinstance(sizes, list):
        raise Refused("dealt: give 'remaining' (cards left) and optionally 'hand_sizes'")
    verdict, rule = _deal_check(s, remaining, sizes, rules)
    if verdict != "ok":
        return _misdealt(s, event, verdict, rule)
    if s.state == "no_more_bets" and s.dealing_method == "hand":
        return replace(s, state="dealing")
    # 001 11.4(a), 11.17(d): the three-card deal starts at the wagering player farthest to the
    # dealer's left, with no dice or RNG
    return replace(s, state="setting")


def _deal_check(s: TableState, remaining: int, sizes: list, rules: RuleProfile) -> tuple[str, str]:
    """000(h)(4): the four-card check; 001 11.17(h): in the three-card deal the stub count checks
    the deck instead, and each hand has seven cards (001 11.17(g))."""
    if s.dealing_method == "three-four":
        # the three-card deal is 001's alone (001 11.17(g), (h)2)
        return ("ok", rules.cite("hand_size")) if all(n == 7 for n in sizes) else ("misdeal", rules.cite("misdeal"))
    return four_card_check(remaining, sizes, rules)


def _misdealt(s: TableState, event: Event, verdict: str, rule: str) -> TableState:
    """000(h)(4)(ii), (n)(8): the round is void, and the deck removed unless the cards were misdealt."""
    out = with_irregularity(s, "misdeal" if verdict == "misdeal" else "deck_count_wrong", event.time,
                            "all hands void, reshuffle" if verdict == "misdeal"
                            else "round void, the deck is removed from the table", rule)
    out = replace(out, void=True, state="round_complete")
    return _remove_deck(out, s.deck_in_play) if verdict == "deck_removed" else out


def _advance(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(l)(1)-(3): the players set their hands, then the dealer's are turned over and set; the
    next state is the one ``TRANSITIONS`` gives."""
    return replace(s, state=TRANSITIONS[event.type][1])


def _settled(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """The round is over: 000(m)(3) no player banks the next; 000(b)(2)(iv) the deck shuffled
    meanwhile is dealt next; 003 PLAYER BANK 1 the bank returns to the house hand after passing
    through all players."""
    out = replace(s, state="round_complete", last_deck_dealt=s.deck_in_play, deck_in_play=None,
                  last_bank=s.bank if s.bank_mode in ("player", "co-bank") else (), bank=(), bank_mode=None,
                  rounds_played=s.rounds_played + 1)
    if s.ready_deck in s.decks:
        out = replace(out, state="betting", deck_in_play=s.ready_deck, ready_deck=None, void=False,
                      starting_position=None, manual_shuffle=False, cut_by=None)
    if s.bank_mode in ("player", "co-bank"):
        return replace(out, rounds_without_bank=0, banked_this_rotation=s.banked_this_rotation + s.bank)
    return replace(out, rounds_without_bank=s.rounds_without_bank + 1, wagered_last_unbanked=s.round_wagers,
                   banked_this_rotation=())


# -- the supervisors and the devices -----------------------------------------------------------
def _acknowledged(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(n): a floor supervisor or pit manager acknowledges an irregularity."""
    if event.role not in SUPERVISORS:
        raise Refused(f"acknowledged: a {event.role} cannot acknowledge an irregularity; a floor supervisor "
                      "or pit manager must")
    ref = event.data.get("ref")
    found = [i for i in s.irregularities if i.ref == ref]
    if not found:
        raise Refused(f"acknowledged: no irregularity {ref!r}")
    if found[0].acknowledged_by is not None:
        raise Refused(f"acknowledged: irregularity {ref} was already acknowledged by {found[0].acknowledged_by}")
    irr = tuple(replace(i, acknowledged_by=event.actor) if i.ref == ref else i for i in s.irregularities)
    return replace(s, irregularities=irr)


def _table_closed(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """The players leave; the next deck received begins a new game (000(m)(2))."""
    return replace(s, state="closed", deck_in_play=None, seated=(), first_player=None)


def _progressive_link(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(q)(2), (3)(i), (5): the progressive controller's link, up or down."""
    online = event.data.get("online")
    if not isinstance(online, bool):
        raise Refused(f"progressive_link: 'online' is true or false, got {online!r}")
    return replace(s, progressive_online=online)


def round_logged(s: TableState, round_no: object) -> TableState:
    """A settlement logged at the table for ``round_no``: that round's number is used up, and the
    next round is one more (000(g): a round begins at No more bets), also where the round's
    procedures were not recorded. The table's procedures themselves do not move."""
    if isinstance(round_no, bool) or not isinstance(round_no, int) or round_no <= s.last_round:
        return s
    return replace(s, last_round=round_no)


# each event's handler: the table after it, or Refused; ``apply`` has checked the state
HANDLERS: dict[str, Handler] = {
    "deck_received": _deck_received, "deck_inspected": _deck_inspected, "deck_verified": _deck_verified,
    "deck_spread": _deck_spread, "deck_washed": _deck_washed, "deck_removed": _deck_removed,
    "dice_placed": _dice_placed,
    "shuffle_started": _shuffle_started, "shuffle_completed": _shuffle_completed, "stub_counted": _stub_counted,
    "no_more_bets": _no_more_bets, "position_determined": _position_determined, "dealt": _dealt,
    "hands_set": _advance, "revealed": _advance, "settled": _settled,
    "player_seated": players.player_seated, "player_left": players.player_left,
    "cut": players.cut, "recut_ordered": players.recut_ordered,
    "bank_declared": players.bank_declared, "dealer_wager_placed": players.dealer_wager_placed,
    "acknowledged": _acknowledged, "table_closed": _table_closed, "progressive_link": _progressive_link,
}
