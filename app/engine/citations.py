"""What a table cites, matter by matter, from its own rule text (issue 33).

Every citation a table shows, logs or prints comes from its profile's ``citations`` (the
``[citations]`` table of resources/rules/<profile>.toml): a paragraph of the profile's own
``rule_text``, or where that text has no paragraph for the matter the words saying so ("002 has
no paragraph on this: the house's procedure"), never another jurisdiction's paragraph. A house's
own procedures may run under a regulation (003, a casino's procedures): such a profile names it
(``regulation = "000"``) and cites both, its own first ("003 GENERAL RULES 5; 000(n)(13)").
app/rules/resources.py refuses a profile whose citations name any other text
(``citation_faults``); docs/rule-settings.md, "Citations".
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# matter -> what it is about (the key of a profile's [citations] table)
MATTERS: dict[str, str] = {
    # irregularities (app/engine/irregularities.py), one a kind
    "no_roll": "the dice do not land flat or fall out: no roll",
    "wrong_dice_total": "the dice totalled wrongly and dealt from the wrong position",
    "player_card_exposed": "the dealer exposes a card of a player's hand",
    "dealer_card_exposed": "a card of the dealer's hand exposed",
    "bank_card_exposed": "a card of the bank's hand exposed",
    "bank_cards_exposed_by_dealer": "the dealer exposes cards of the player-banker's hand",
    "bank_exposed_own_cards": "the player-banker exposes its own cards",
    "card_face_up_in_shoe": "one card found face up in the shoe",
    "cards_face_up_in_shoe": "more than one card found face up in the shoe",
    "card_drawn_in_error": "a card drawn in error, its face not exposed",
    "wrong_number_of_cards": "a hand dealt more or fewer than seven cards",
    "dealer_hand_not_house_way": "the dealer's hand not set by the house way",
    "bank_hand_not_set_correctly": "the bank's hand not set correctly (a foul by the bank)",
    "card_exposed_while_dealing_stacks": "a card exposed while the seven stacks are dealt",
    "stacks_not_dealt_in_order": "the stacks not dealt in the order the procedure requires",
    "cards_exposed_after_cut": "cards exposed when the cut cards are stacked",
    "shuffler_jam": "the shuffler jams",
    "incomplete_shuffle": "the shuffler stops or does not finish a shuffle",
    "other_deck_reshuffled": "the shuffler fails on the deck it shuffles while the other deck is dealt",
    "shoe_jam": "the automated dealing shoe jams or stops dealing",
    # device faults (app/devices/mapping.py)
    "device_removed": "a shuffler or shoe that fails is removed before another way of shuffling or dealing",
    "rng_offline": "the random number generator is not working: the starting position by other means",
    "progressive_offline": "the progressive controller is not working",
    "deck_count": "the shuffler's count of a deck is not 53",
    "deck_colours": "the two decks of a shuffler differ in colour",
    "one_deck": "one deck, each card in it once (a card at two positions)",
    "hand_size": "a device dispensed or read a hand of other than seven cards",
    "four_card_ok": "four cards remain after the deal: a good deal",
    "misdeal": "a misdeal: a hand of more or fewer than seven cards voids all hands",
    "deck_removed": "more or fewer than four cards remain with no misdeal: the deck is removed",
    "stub_count": "the stub counted at least every five rounds in the three-card deal",
    "progressive_wager": "the progressive wager is $1.00 or $5.00",
    "progressive_meter": "the progressive meter falls only by a payout or a reset",
    "progressive_rate": "the progressive meter's rate of progression",
    "progressive_hit": "a progressive hit: the light, the hand, a supervisor validates the payout",
    "progressive_reset": "the progressive meter's initial and reset amounts",
    "progressive_lockout": "no progressive wager after No more bets; the lights counted",
    "progressive_pays": "what a winning progressive wager pays",
    # the procedures' refusals (app/engine/procedure.py, players.py)
    "deck_opening": "a deck received, inspected, verified, spread and washed before it is shuffled or dealt",
    "deck_inspection": "the dealer inspects a deck received, the floor person verifies it",
    "deck_spread": "the deck spread for the first player's inspection",
    "deck_washed": "the deck washed after the first player's inspection",
    "two_decks": "one deck, or two alternating with a shuffler, the other shuffled while one is dealt",
    "deal_waits": "the other deck's hands wait while a round is dealt from one deck, one deck in play at a time",
    "cut": "the shuffle and cut of the cards, and a re-cut",
    "starting_position": "the starting position for the deal",
    "dice": "the dice and their shaker",
    "deal": "the cards dealt or the stacks delivered from the starting position",
    "wagers": "the wagers placed before No more bets",
    "betting_areas": "a player wagering on more than one betting area",
    "bank_one_area": "the bank wagers on one betting area only",
    # deck and dice changes (app/engine/deadlines.py)
    "deck_change_shoe": "cards dealt from a shoe are changed within the hours",
    "deck_change_hand": "cards dealt from the hand are changed within the hours",
    "deck_change_shuffler": "cards in a shuffler are changed within the hours",
    "dice_change": "dice are changed within the hours",
    # the bank (app/engine/rotation.py, players.py; app/workstation/detail.py)
    "bank_rotation": "how the bank is offered round by round; no player banks two rounds running",
    "bank_wagered": "the bank is offered to a player who wagered against the dealer",
    # settlement (app/engine/settle.py; app/workstation/round_draft.py)
    "foul": "a hand set with the low hand above the high hand (a foul)",
    "surrender": "a player surrenders the hand",
    "house_way_asked": "a player asks the dealer to set the hand by the house way",
    "commission": "the commission on a winning base wager",
    "payout_limit": "the most a player is paid for one round on the bonus wagers",
    "dealer_wager": "the dealer's wager against a player bank: the bank's last wager, or less",
    "dealer_wager_first": "the dealer's wager against a player bank is settled first",
    "envy": "an envy bonus paid to a qualifying bonus wager for another player's hand",
    "additional_number": "the additional wagers settled by the number the RNG displays",
    "additional_loses": "a losing additional wager collected",
    "additional_wins": "a winning additional wager paid at its odds",
    "bank_pays": "a player bank pays the winning wagers and keeps the losing ones",
    "co_bank_split": "a co-bank's share of the shortfall or surplus",
    # the table inventory container (app/engine/inventory.py, issue 34)
    "tray_collect": "losing wagers and progressive wagers collected into the table inventory container",
    "tray_progressive_cage": "a progressive payout not paid from the table inventory container",
    "tray_count": "the table inventory counted at the opener and the closer, and the drop box counted",
    "tray_slip": "chips moved between the cage and the table inventory by a fill or a credit",
}

TEXT_IDS = ("000", "001", "002", "003", "004")
# a rule text named in a citation: 000 .. 004 standing alone, not inside "19:47-11.11" or a sum
_TEXT = re.compile(r"(?<![\w.,:$-])(00\d)(?![\w.])")


def texts_named(citation: str) -> list[str]:
    """The rule texts a citation names, in order: "003 GENERAL RULES 5; 000(n)(13)" -> 003, 000."""
    return _TEXT.findall(citation)


def no_paragraph(text: str, regulation: str = "", theirs: str = "") -> str:
    """What a table cites where its own text has no paragraph for the matter."""
    if regulation and theirs:
        return f"{text} has no paragraph on this; {theirs}"
    return f"{text} has no paragraph on this: the house's procedure"


def citation_faults(rule_text: str, regulation: str, citations: Mapping[str, object]) -> list[str]:
    """Why a profile's citations cannot be shown (empty: they can): a matter missing or unknown,
    a citation that does not begin with the profile's own text, or one that names a text other
    than its own or its regulation."""
    out = []
    for m in MATTERS:
        if m not in citations:
            out.append(f"citations.{m}: missing ({MATTERS[m]})")
    for m, c in citations.items():
        if m not in MATTERS:
            out.append(f"citations.{m}: not a matter a table cites (one of {', '.join(MATTERS)})")
            continue
        if not isinstance(c, str) or not c.strip():
            out.append(f"citations.{m}: {c!r} is not a citation")
            continue
        named = texts_named(c)
        if not named or not c.startswith(rule_text):
            out.append(f"citations.{m}: {c!r} does not begin with the profile's own text {rule_text}"
                       + (f" (its own first, then its regulation {regulation})" if regulation else ""))
        foreign = [t for t in dict.fromkeys(named) if t not in (rule_text, regulation)]
        if foreign:
            out.append(f"citations.{m}: {c!r} cites {', '.join(foreign)}, another text's law: a {rule_text} "
                       f"table cites {rule_text}" + (f" or its regulation {regulation}" if regulation else "")
                       + ", or says its text has no paragraph on this")
    return out


def noted(citation: str, note: str) -> str:
    """A citation with what it is for: "000(e)(5): from a shoe"; where the text has no paragraph
    the note comes first ("from a shoe; 001 has no paragraph on this: the house's procedure")."""
    if "has no paragraph on this" in citation.split("; ")[0]:
        return f"{note}; {citation}"
    return f"{citation}: {note}"


def names_only(citation: str, rule_text: str, regulation: str = "") -> bool:
    """The citation names no rule text but ``rule_text`` and its ``regulation``: a paragraph a
    text-blind part of the engine gives (the dice's 000(k)(2)(ii)) may be shown as it is."""
    return all(t in (rule_text, regulation) for t in texts_named(citation))


def house_way_rule(rule: str, rule_text: str, regulation: str = "") -> str:
    """The house-way paragraph that chose a set, as a table of ``rule_text`` shows it. A house way
    is the house's own document: a table whose text has none plays the house's (000(l)(2), 001
    11.9(b), 004(10): the casino's submission, the house rules), so its paragraph is shown as the
    house's, without the number of another jurisdiction's text ("003 ONE PAIR: ..." at a 000 table
    is "the house's ONE PAIR: ...")."""
    named = texts_named(rule)
    if not named or named[0] in (rule_text, regulation):
        return rule
    own = re.sub(r"^\s*\d{3}\s*", "", rule, count=1)
    return f"the house's {own}"
