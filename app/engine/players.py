"""What the players do at the table, as the procedures allow it: sit down and leave, cut a manual
shuffle (000(f)), bank (000(m); 003 PLAYER BANK), take the dealer's wager against their bank
(000(m)(7)) and wager on the progressive (000(q)(1)); and which seats a table has. The handlers
here are part of app/engine/procedure.py's table (``HANDLERS``), which checks the state first.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from .irregularities import with_irregularity
from .layout import SEATS, name
from .money import dollars
from .position import SEVEN_SEATS
from .profile import RuleProfile
from .rotation import bank_eligibility, bank_offer_order, bank_offer_start, cut_offers
from .roles import SUPERVISORS
from .table_state import Event, Refused, TableState


def table_seats(rules: RuleProfile) -> tuple[int, ...]:
    """The betting positions: six around a house dealer, seven in 002's player-dealer game."""
    return SEVEN_SEATS if "player-dealer" in rules.banking_modes else SEATS


def seat_number(rules: RuleProfile, seat: Any, what: str) -> None:
    """``seat`` is one of the table's betting positions (``table_seats``)."""
    seats = table_seats(rules)
    if not isinstance(seat, int) or isinstance(seat, bool) or seat not in seats:
        raise Refused(f"{what}: a seat is one of {', '.join(map(str, seats))}, got {seat!r}")


def check_seat(s: TableState, rules: RuleProfile, seat: Any, what: str) -> None:
    """``seat`` is a betting position with a player at it."""
    seat_number(rules, seat, what)
    if seat not in s.seated:
        raise Refused(f"{what}: seat {seat} is not occupied (occupied: {list(s.seated)}); record player_seated")


def player_seated(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(f)(4)(i): the first player to the table is remembered (offered the first cut)."""
    seat = event.data.get("seat")
    seat_number(rules, seat, event.type)
    if seat in s.seated:
        raise Refused(f"player_seated: seat {seat} is already occupied")
    first = s.first_player
    if first is None and not s.seated and s.rounds_played == 0:
        first = seat
    return replace(s, seated=tuple(sorted(s.seated + (seat,))), first_player=first)


def player_left(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """The seat is free: neither the cut (000(f)(3)-(4)) nor the bank (000(m)(3)) is offered to it."""
    seat = event.data.get("seat")
    if seat not in s.seated:
        raise Refused(f"player_left: seat {seat!r} is not occupied (occupied: {list(s.seated)})")
    return replace(s, seated=tuple(x for x in s.seated if x != seat))


def cut(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(f)(3)-(6), 001 11.6(c)-(e): the cut is offered in order, the dealer cuts if nobody
    accepts, and a re-cut is made by the last cutter or the next person entitled to cut."""
    d = event.data
    rule = rules.cite("cut")
    if not s.manual_shuffle:
        raise Refused(f"cut: only a manual shuffle is cut; a shuffler's deck is dealt as it comes ({rule})")
    depth = d.get("depth")
    if not isinstance(depth, int) or not 10 <= depth <= 43:
        raise Refused(f"cut: the cutting card goes at least 10 cards from either end ({rule}), got {depth!r}")
    by = d.get("by")
    if not isinstance(by, int) or isinstance(by, bool):
        raise Refused(f"cut: 'by' is the seat that cut, or 0 for the dealer, got {by!r}")
    if s.cut_by is not None:
        raise Refused(f"cut: the deck was already cut; a re-cut needs a supervisor's order ({rule})")
    offers = cut_offers(s.rounds_played == 0, s.first_player, player_bank(s), s.rounds_without_bank, s.seated)
    if s.recut:
        return _recut(s, by, offers, rule)
    if s.state != "betting":
        raise Refused(f"cut: the cards are cut before no more bets; now only a re-cut ({rule})")
    if by not in offers:
        raise Refused(f"cut: the cut is offered to {', then '.join(map(name, offers))} ({rule}), "
                      f"not {name(by)}")
    declined = d.get("declined", [])
    for earlier in offers[:offers.index(by)]:
        if earlier not in declined:
            raise Refused(f"cut: {name(earlier)} is offered the cut before {name(by)} and has not declined "
                          f"({rule})")
    return replace(s, cut_by=by, last_cutter=by)


def _recut(s: TableState, by: int, offers: list[int], rule: str) -> TableState:
    """000(f)(6): the re-cut is made by the last cutter or the next person entitled to cut."""
    allowed = [s.last_cutter]
    if s.last_cutter in offers and offers.index(s.last_cutter) + 1 < len(offers):
        allowed.append(offers[offers.index(s.last_cutter) + 1])
    if by not in allowed:
        raise Refused(f"cut: the re-cut is made by the last cutter or the next person entitled, "
                      f"{' or '.join(map(name, allowed))} ({rule}), not {name(by)}")
    return replace(s, cut_by=by, recut=False)


def recut_ordered(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(f)(6), 001 11.6: a supervisor orders a re-cut after the cut, before any card is dealt."""
    if event.role not in SUPERVISORS:
        raise Refused(f"recut_ordered: a casino supervisor orders a re-cut ({rules.cite('cut')})")
    if s.cut_by is None:
        raise Refused("recut_ordered: the cards have not been cut")
    return replace(s, cut_by=None, recut=True, last_cutter=s.cut_by)


def player_banking(rules: RuleProfile) -> bool:
    """The profile lets a player bank (000(m); 003 PLAYER BANK)."""
    return bool({"player", "co-bank"} & set(rules.banking_modes))


def player_bank(s: TableState) -> int | None:
    """The seat that banks this round when a player banks or co-banks (000(m)), else None."""
    return s.bank[0] if s.bank and s.bank_mode in ("player", "co-bank") else None


def bank_declared(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(m)(2)-(4), 001 11.10: the bank is offered in order, and no player banks two rounds
    running; 003 PLAYER BANK 1-3, 17: once in each rotation, partners together, and the floor
    supervisor's ruling on a bank that cannot cover its wagers."""
    d = event.data
    mode = d.get("mode")
    seats = d.get("seats") or ([d["seat"]] if "seat" in d else [])
    if mode not in rules.banking_modes or mode == "house":
        raise Refused(f"bank_declared: mode must be one of {', '.join(m for m in rules.banking_modes if m != 'house')}"
                      f" for profile {rules.name!r}, got {mode!r}")
    if not seats or not all(isinstance(x, int) for x in seats):
        raise Refused("bank_declared: give the bank's seat (or the partners' seats)")
    for seat in seats:
        check_seat(s, rules, seat, "bank_declared")
    if len(seats) > 1 and mode != "player":
        raise Refused("bank_declared: partners combine bankrolls only as a player bank")   # 003 PLAYER BANK 17
    out = replace(s, bank=tuple(seats), bank_mode=mode, dealer_wager=None)
    if mode not in ("player", "co-bank"):
        return out
    if s.rounds_played == 0:
        raise Refused("bank_declared: a player may not be the bank at the start of the game "
                      f"({rules.bank.cite_first_round})")
    first, passed = _bank_turn(s, seats, rules)
    _offered_in_order(s, seats, first, passed, d.get("declined", []), rules)
    return _covered(out, seats, event, rules)


def _bank_turn(s: TableState, seats: list[int], rules: RuleProfile) -> tuple[int, tuple[int, ...]]:
    """The seat the offer of the bank starts at, and the seats it passes over as having banked."""
    if rules.procedures.bank_rotation == "each-round":
        # 000(m)(3), 001 11.10(c)
        again = set(seats) & set(s.last_bank)
        if again:
            raise Refused(f"bank_declared: seat {sorted(again)[0]} banked the last round; no player banks two "
                          f"consecutive rounds ({rules.cite('bank_rotation')})")
        first = bank_offer_start(s.rounds_played)
        if first is None:
            raise Refused("bank_declared: the initial offer has come round to the dealer; the house banks this "
                          f"round ({rules.cite('bank_rotation')})")
        return first, s.last_bank
    # 003 PLAYER BANK 1-2, 17: each player (or partnership) banks once in each rotation,
    # which runs counterclockwise and returns to the house hand
    again = set(seats) & set(s.banked_this_rotation)
    if again:
        raise Refused(f"bank_declared: seat {sorted(again)[0]} has banked in this rotation; the bank passes "
                      f"through all players before returning to the house ({rules.cite('bank_rotation')})")
    return (s.banked_this_rotation[-1] % 7 + 1 if s.banked_this_rotation else 1), s.banked_this_rotation


def _offered_in_order(s: TableState, seats: list[int], first: int, passed: tuple[int, ...], declined: Any,
                      rules: RuleProfile) -> None:
    """000(m)(3)-(4)(i), 003 PLAYER BANK 1: the bank goes to a player who wagered against the dealer
    in the last unbanked round, offered to each eligible player in turn."""
    wagered = s.wagered_last_unbanked or ()
    for seat in seats:
        if seat not in wagered:
            raise Refused(f"bank_declared: seat {seat} did not wager against the dealer in the last unbanked round "
                          f"({rules.cite('bank_wagered')})")
    for earlier in bank_offer_order(first, s.seated):
        if earlier == seats[0]:
            break
        eligible, _ = bank_eligibility(earlier, passed, wagered, None, None, rules)
        if eligible and earlier not in declined and earlier not in seats:
            raise Refused(f"bank_declared: seat {earlier} is offered the bank before seat {seats[0]} and has not "
                          f"declined ({rules.cite('bank_rotation')})")


def _covered(out: TableState, seats: list[int], event: Event, rules: RuleProfile) -> TableState:
    """000(m)(4)(ii): the bank's chips cover the wagers; 003 PLAYER BANK 3: or the floor supervisor
    rules that it proceeds, noted as acknowledged."""
    chips, cover = event.data.get("chips"), event.data.get("cover")
    if not (isinstance(chips, int) and isinstance(cover, int) and chips < cover):
        return out
    ruling = rules.procedures.bank_cover_ruling
    if not (ruling and event.role in SUPERVISORS and event.data.get("ruling") == "proceed"):
        how = "; the floor supervisor may rule 'proceed' (003 PLAYER BANK 3)" if ruling else ""
        raise Refused(f"bank_declared: {dollars(chips)} of chips cannot cover {dollars(cover)} of wagers "
                      f"({rules.bank.cite_cover}){how}")
    return with_irregularity(out, "bank_cover_ruling", event.time,
                             f"the floor supervisor let seat {seats[0]} bank with {dollars(chips)} against {dollars(cover)}",
                             "003 PLAYER BANK 3", True, acknowledged_by=event.actor)


def dealer_wager_placed(s: TableState, event: Event, rules: RuleProfile) -> TableState:
    """000(m)(7): the bank's last wager against the dealer, or less, or none; 003 PLAYER BANK 7: up
    to 10% more (Lucky Money) or prepaid commission, not both; never against a co-bank."""
    d = event.data
    if s.bank_mode != "player":
        raise Refused("dealer_wager_placed: the dealer wagers only against a player bank "
                      f"({rules.cite('dealer_wager')})")
    cents, last = d.get("cents"), d.get("last_wager")
    if not isinstance(cents, int) or not isinstance(last, int) or cents < 0:
        raise Refused("dealer_wager_placed: give 'cents' and the bank's 'last_wager' in cents")
    cap = last * (100 + rules.lucky_money_percent) // 100
    if cents > cap:
        raise Refused(f"dealer_wager_placed: {dollars(cents)} is more than {dollars(cap)} "
                      f"({rules.cite('dealer_wager')})")
    if cents > last and d.get("prepaid_commission"):
        raise Refused("dealer_wager_placed: Lucky Money or prepaid commission, not both (003 PLAYER BANK 7)")
    return replace(s, dealer_wager=cents)


def progressive_seats(s: TableState, rules: RuleProfile, seats: Any, wagers: tuple[int, ...] | None
                      ) -> tuple[int, ...]:
    """The seats with a progressive payout wager this round (000(q)(1)-(2), 001 11.14(a)-(b))."""
    if seats is None:
        return ()
    if not isinstance(seats, list | tuple):
        raise Refused(f"no_more_bets: 'progressive' lists the seats with a progressive wager, got {seats!r}")
    if not seats:
        return ()
    if "progressive" not in rules.side_bets:
        raise Refused(f"no_more_bets: profile {rules.name!r} offers no progressive payout wager "
                      f"({rules.cite('progressive_wager')})")
    for seat in seats:
        check_seat(s, rules, seat, "no_more_bets")
    if len(set(seats)) != len(seats):
        raise Refused(f"no_more_bets: a seat is listed twice among the progressive wagers: {list(seats)}")
    if wagers is not None:
        # 000(q)(1): offered to a player "who has placed a Pai Gow Poker wager"
        alone = [x for x in seats if x not in wagers]
        if alone:
            raise Refused(f"no_more_bets: seat {alone[0]} has a progressive wager but no Pai Gow Poker wager "
                          f"({rules.cite('progressive_wager')})")
    if not s.progressive_online:
        # 000(q)(2), (3)(i), (5): the controller locks the acceptors out, lights them and moves
        # the meter; with its link down none of that can be done or verified
        listed = ", ".join(map(str, sorted(seats)))
        raise Refused(f"no_more_bets: progressive wagers are closed while the progressive controller is offline "
                      f"({rules.cite('progressive_offline')}); seat{'s' if len(seats) > 1 else ''} {listed} "
                      f"ha{'ve' if len(seats) > 1 else 's'} one")
    return tuple(sorted(seats))
