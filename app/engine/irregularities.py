"""The irregularities of 000(n), 001 11.11 and 003 EXPOSED CARDS / DICE SHAKING: what each one
does to the table (its consequence, whether a supervisor must acknowledge it, whether the round is
void, and the paragraph of the table's own text: ``RuleProfile.cite``, app/engine/citations.py),
and the irregularities the other procedures note (a wrong count, a misdeal, a floor supervisor's
ruling), each numbered for the acknowledgement.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime

from .profile import RuleProfile
from .table_state import IN_ROUND, STATES, Event, Irregularity, Refused, TableState

# kind -> (consequence, needs a supervisor's acknowledgement, what happens to the round); the paragraph is
# the profile's own for the kind (``rules.cite(kind)``: a 002 table cites no 000 paragraph)
IRREGULARITIES: dict[str, tuple[str, bool, str]] = {
    "no_roll": ("No roll: the dice are shaken again", False, "continue"),
    "wrong_dice_total": ("all hands dead, the cards reshuffled", True, "void"),
    "player_card_exposed": ("the player may void the hand before looking at the rest", False, "continue"),
    "dealer_card_exposed": ("all hands void, the cards reshuffled", True, "void"),
    "card_face_up_in_shoe": ("the card goes to the discard rack and is not used", False, "continue"),
    "cards_face_up_in_shoe": ("more than one card face up: all hands void, reshuffle", True, "void"),
    "card_drawn_in_error": ("used as though it were the next card", False, "continue"),
    "wrong_number_of_cards": ("all hands void, the cards reshuffled", True, "void"),
    "dealer_hand_not_house_way": ("the hands are reset by the house way and the round completed", True, "continue"),
    "bank_hand_not_set_correctly": ("the dealer resets the bank's hands by the house way", True, "continue"),
    "card_exposed_while_dealing_stacks": ("the cards are reshuffled", True, "void"),
    "shuffler_jam": ("the cards are reshuffled", True, "void"),
    "incomplete_shuffle": ("the device stopped or did not finish the shuffle: the cards are reshuffled", True, "void"),
    "bank_card_exposed": ("a card of the bank's hand exposed: all hands void, reshuffle", True, "void"),
    "bank_cards_exposed_by_dealer": ("the player-banker may call the hand dead before looking at the rest", False,
                                     "continue"),
    "bank_exposed_own_cards": ("the player-banker exposed its own cards: the hand plays", False, "continue"),
    "shoe_jam": ("the round is void; the cards are removed and reshuffled with those dealt", True, "void"),
    "stacks_not_dealt_in_order": ("the seven stacks were not dealt in the order required: the cards are reshuffled",
                                  True, "void"),
    "cards_exposed_after_cut": ("three or more exposed: the dealer must reshuffle", True, "void"),
}

# Irregularities that void a round but may also happen with no round in progress, and the states
# they may happen in: then there is nothing to void and the cards are reshuffled.
OUTSIDE_A_ROUND: dict[str, tuple[str, ...]] = {
    "shuffler_jam": STATES, "incomplete_shuffle": STATES,   # 000(n)(13): the shuffler works between rounds
    "cards_exposed_after_cut": STATES,
    # 000(h)(1), (j)(2)(i): the shuffled deck is in the shoe before "No more bets"
    "shoe_jam": ("betting",), "cards_face_up_in_shoe": ("betting",),
}
SHUFFLER_KINDS = ("shuffler_jam", "incomplete_shuffle")


def irregularity(state: TableState, event: Event, rules: RuleProfile) -> TableState:
    """The table after the irregularity ``event`` (its type is one of IRREGULARITIES), or Refused."""
    kind = event.type
    consequence, needs_ack, effect = IRREGULARITIES[kind]
    rule = rules.cite(kind)
    if kind == "dealer_card_exposed" and rules.procedures.dealer_exposed_card == "play":
        consequence, effect = "the dealer's hand must be played", "continue"   # 003 EXPOSED CARDS 2
    if kind in ("no_roll", "wrong_dice_total") and state.state not in ("no_more_bets", "starting_position",
                                                                         "dealing", "setting"):
        raise Refused(f"{kind}: only while the starting position is being determined or dealt to")
    if effect == "void" and state.state not in IN_ROUND and state.state not in OUTSIDE_A_ROUND.get(kind, ()):
        raise Refused(f"{kind}: there is no round in progress to void")
    if kind in ("shoe_jam", "cards_face_up_in_shoe") and state.state not in IN_ROUND:
        consequence = "before the deal: the cards are removed from the shoe and reshuffled"
    jammed = event.data.get("deck")
    other_deck = (kind in SHUFFLER_KINDS and isinstance(jammed, str) and jammed in state.decks
                  and state.deck_in_play not in (None, jammed))
    if other_deck and (state.state == "betting" or (
            state.state in IN_ROUND and not rules.procedures.shuffler_malfunction_voids)):
        # 000(b)(2)(iii): one deck is shuffled while the other is dealt. The device failed on the
        # deck it was shuffling, and only those cards are reshuffled (000(n)(13)).
        consequence = (f"deck {jammed!r} in the shuffler is reshuffled; play with deck {state.deck_in_play!r} "
                       "continues")
        rule, effect = rules.cite("other_deck_reshuffled"), "continue"
    voided = state.voided_seats
    if kind in ("player_card_exposed", "bank_cards_exposed_by_dealer"):
        option = event.data.get("option")
        if option not in ("void", "play"):
            raise Refused(f"{kind}: the player's option is 'void' or 'play' ({rule})")
        if kind == "bank_cards_exposed_by_dealer":
            if not state.bank:
                raise Refused(f"{kind}: no player is banking this round")
            if event.data.get("count", 0) < 3:
                raise Refused(f"{kind}: the option arises when three or more cards are exposed ({rule})")
        # 003 EXPOSED CARDS 3 "the player's hand" while a player banks: the banker's by default,
        # or the seat named (the text allows either reading; docs/table-events.md)
        seat = event.data.get("seat") if kind == "player_card_exposed" else event.data.get("seat", state.bank[0])
        if not isinstance(seat, int):
            raise Refused(f"{kind}: name the seat whose card was exposed")
        consequence = f"seat {seat} chose to {option} the hand"
        if option == "void":
            voided = voided + (seat,)
    if kind == "stacks_not_dealt_in_order" and state.dealing_method != "hand":
        raise Refused(f"{kind}: only when the stacks are dealt from the hand ({rule})")
    if kind == "cards_exposed_after_cut" and event.data.get("count", 0) < 3:
        consequence, needs_ack, effect = "fewer than three cards exposed: play continues", False, "continue"
    s = replace(with_irregularity(state, kind, event.time, consequence, rule, needs_ack), last_time=event.time,
                voided_seats=voided)
    if effect == "void":
        if state.state in IN_ROUND:
            # 000(n)(3)-(14): the same cards are reshuffled, so the deck does not count as dealt
            s = replace(s, void=True, state="round_complete", deck_in_play=None)
        else:
            s = replace(s, state="shuffling" if state.state != "closed" else "closed")
    return s


def with_irregularity(s: TableState, kind: str, time: datetime, consequence: str, rule: str, needs_ack: bool = True,
                      acknowledged_by: str | None = None) -> TableState:
    """The table with one more irregularity noted, numbered after the others (the number a
    supervisor acknowledges, 000(n))."""
    irr = Irregularity(len(s.irregularities) + 1, kind, time, consequence, rule, needs_ack, acknowledged_by)
    return replace(s, irregularities=s.irregularities + (irr,))
