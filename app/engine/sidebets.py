"""What each side wager of a seat wins before any limit: the claims the settlement pays.

Bonus wagers look at the player's seven cards however they were set (000(r)(4)(ii),
001 11.15(d)2); the three-card bonus at the first three cards dealt (001 11.17(f)).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import bonus
from .paytable import PayTable
from .profile import RuleProfile
from .rank import Ranker
from .round import Seat


@dataclass(slots=True)
class Claim:
    seat: int
    wager: str
    stake: int
    line: str | None    # None: the wager loses
    win: int            # excluding the returned stake, before limits
    rule: str


_TABLE_RULES = {"fortune": "000(s)(1); 001 11.16(a); 002 FORTUNE BONUS BET; 003 PAY TABLE",
                "insurance": "001 11.16(c)", "three_card": "001 11.18(b)", "seven_card": "001 11.18(c)"}


def fortune_category(seat: Seat, rules: RuleProfile, ranker: Ranker) -> tuple[str, bool]:
    return bonus.fortune(list(seat.hand.cards), ranker, rules.royal_match)


def odds_claim(seat: Seat, wager: str, table: PayTable, category: str, also_trips: bool = False) -> Claim:
    stake = seat.wagers[wager]
    line = table.line(category, also_trips) if category != "none" else None
    win = table.pays[line].amount(stake) if line else 0
    return Claim(seat.seat, wager, stake, line, win, f"{table.citation}")


def side_claims(seat: Seat, rules: RuleProfile, ranker: Ranker, view=None, fortune=None) -> list[Claim]:
    """Claims of the fortune, toke, insurance, three-card and seven-card wagers of a seat."""
    out: list[Claim] = []
    cards = list(seat.hand.cards)
    if seat.wagers.get("fortune") or seat.wagers.get("fortune_toke"):
        view = view or bonus.view(cards, ranker)
        cat, trips = fortune or bonus.fortune(cards, ranker, rules.royal_match, view)
        for w in ("fortune", "fortune_toke"):
            if seat.wagers.get(w):
                c = odds_claim(seat, w, rules.paytables["fortune"], cat, trips)
                if w == "fortune_toke" and rules.envy.toke_max_payout_cents is not None:
                    # 003 GENERAL RULES 6: toke bets pay at most $500
                    c = Claim(c.seat, w, c.stake, c.line, min(c.win, rules.envy.toke_max_payout_cents),
                              c.rule + "; 003 GENERAL RULES 6")
                out.append(c)
    if seat.wagers.get("insurance"):
        out.append(odds_claim(seat, "insurance", rules.paytables["insurance"], bonus.insurance(cards)))
    if seat.wagers.get("three_card"):
        out.append(odds_claim(seat, "three_card", rules.paytables["three_card"], bonus.three_card(cards[:3])))
    if seat.wagers.get("seven_card"):
        cat, trips = bonus.seven_card(cards, ranker, view or bonus.view(cards, ranker))
        out.append(odds_claim(seat, "seven_card", rules.paytables["seven_card"], cat, trips))
    return out


def ace_high_claim(seat: Seat, banker_cards, rules: RuleProfile, ranker: Ranker) -> Claim:
    """002 ACE HIGH BONUS BET: the player's and the player-dealer's seven cards."""
    table = rules.paytables["ace_high"]
    stake = seat.wagers["ace_high"]
    dealer = bonus.ace_high(list(banker_cards), ranker)
    player = bonus.ace_high(list(seat.hand.cards), ranker)
    line = None
    if dealer != "none" and player != "none":
        line = "player_and_dealer_ace_high"
    elif dealer == "ace_high_joker":
        line = "dealer_ace_high_joker"
    elif dealer == "ace_high_natural":
        line = "dealer_ace_high_natural"
    win = table.pays[line].amount(stake) if line else 0
    return Claim(seat.seat, "ace_high", stake, line, win, table.citation)


def envy_lines(seat: Seat, rules: RuleProfile, ranker: Ranker, view=None, fortune=None) -> str | None:
    """The envy line another player's hand earns (000(s)(2)), or None."""
    cat, _ = fortune or bonus.fortune(list(seat.hand.cards), ranker, rules.royal_match, view)
    table = rules.paytables.get("envy")
    return cat if table and cat in table.pays else None
