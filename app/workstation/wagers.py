"""What a round at a table takes under its profile, before any round is drafted: the positions
that receive a hand, the wagers a seat may make and the fields the round panel asks for
(``round_form``), each wager and amount checked as it is typed, who the procedures let bank, and
which payoff of a wager needs a payout slip. Pure functions of the profile, the table's limits and
the table's state; the round being entered is app/workstation/round_draft.py's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime
from types import SimpleNamespace

from app.engine.layout import POSITIONS
from app.engine.ledger import Result
from app.engine.money import MoneyError, dollars, parse_dollars
from app.engine.players import table_seats
from app.engine.position import SEVEN_SEATS
from app.engine.procedure import Event, Refused as EngineRefused, TableState, apply
from app.engine.profile import RuleProfile
from app.engine.tablelimits import NAMES, TableLimits, refusals
from app.store.slips import needs_w2g

from .readouts import FieldCheck, RoundForm

AMOUNTS = ("chips", "last_wager", "dealer_wager", "wager", "dealer_prepaid_commission")
AMOUNT_NAMES = {"chips": "the bank's chips", "last_wager": "the bank's last wager against the dealer",
                "dealer_wager": "the dealer's wager against the bank", "wager": "the player-dealer's wager",
                "dealer_prepaid_commission": "the prepaid commission with the dealer's wager"}
# results that are no payoff of a wager: the bank's and the player-dealer's take, the dealer's own
# wager (as app/engine/settle.py's threshold approvals leave them out)
NOT_A_PAYOFF = ("bank", "player-dealer", "dealer wager", "collection fee")




def ring(rules: RuleProfile) -> tuple[int, ...]:
    """The positions that receive a hand: the dealer and seats 1-6, or 002's seats 1-7."""
    return SEVEN_SEATS if len(table_seats(rules)) == 7 else POSITIONS


def offered_wagers(rules: RuleProfile) -> tuple[str, ...]:
    """The wagers a seat may make under the profile, as the round file names them; the additional
    wagers of 000(p) as ``additional N`` for the RNG's numbers 1..7."""
    out = ["base"] + [w for w in rules.side_bets if w != "additional"]
    if "fortune" in rules.side_bets:
        out.append("fortune_toke")   # 003 GENERAL RULES 6: a toke bet on the bonus, up to its limit
    if "additional" in rules.side_bets:
        out += [f"additional {n}" for n in range(1, 8)]
    return tuple(out)


def round_form(rules: RuleProfile) -> RoundForm:
    """What a person may enter in a round under the profile: the seats, every wager offered with
    its name, what each banking mode takes (docs/round-format.md, "banking"), the bettors on a
    circle, surrender, prepaid commission, a supervisor's cover ruling, the meter and the RNG's
    number. A view shows a field for each of these and no other."""
    wagers = offered_wagers(rules)
    names = {w: NAMES.get(w, w) if not w.startswith("additional ") else f"additional wager on {w.split()[1]}"
             for w in wagers}
    prepaid = rules.commission.prepaid_allowed
    ruling = ("cover_ruling",) if rules.procedures.bank_cover_ruling else ()
    fields = {"house": (),
              # 000(m)(4), (7): the bank's chips, its last wager against the dealer, the dealer's wager;
              # 003 PLAYER BANK 7, COLLECTING 8: prepaid commission with the dealer's wager
              "player": ("seat", "chips", "last_wager", "dealer_wager")
              + (("dealer_prepaid_commission",) if prepaid else ()) + ruling,
              # 000(m)(5): the co-bank covers half; the dealer never wagers against it
              "co-bank": ("seat", "chips", "last_wager") + ruling,
              # 002: the player-dealer's wager and the action button
              "player-dealer": ("seat", "wager", "action_seat")}
    return RoundForm(tuple(table_seats(rules)), wagers, names,
                     {m: fields[m] for m in rules.banking_modes if m in fields}, rules.bettors_per_circle,
                     rules.surrender != "forbidden", prepaid, bool(ruling), "progressive" in rules.side_bets,
                     "additional" in rules.side_bets, rules.cite("house_way_asked"), rules.cite("surrender"))


def check_wager(rules: RuleProfile, limits: TableLimits, seat: int, wager: str, text: str) -> FieldCheck:
    """One wager as typed: its cents, or why it cannot be taken. Empty or zero clears it.

    The limits are the table's (002 DESCRIPTION OF TABLE USED, 004(3), 003 PLAYER BANK 9), the
    refusal in the engine's own words (app/engine/tablelimits.py)."""
    if wager not in offered_wagers(rules):
        what = NAMES.get(wager.split()[0], wager)
        return FieldCheck(wager, text, None, f"profile {rules.name!r} does not offer the {what}")
    if not text.strip():
        return FieldCheck(wager, text, 0)
    try:
        cents = parse_dollars(text)
    except MoneyError as e:
        return FieldCheck(wager, text, None, str(e))
    if cents < 0:
        return FieldCheck(wager, text, None, "a wager is never negative")
    if cents == 0:
        return FieldCheck(wager, text, 0)
    if wager == "progressive" and cents not in (100, 500):
        # 000(q)(1), 001 11.14(a): the progressive payout wager is $1.00 or $5.00
        return FieldCheck(wager, text, None, "the progressive wager is $1.00 or $5.00 "
                                             f"({rules.cite('progressive_wager')}), "
                                             f"not {dollars(cents)}")
    if wager.startswith("additional "):
        probe = SimpleNamespace(seat=seat, wagers={}, bettors=(), additional={int(wager.split()[1]): cents})
    else:
        probe = SimpleNamespace(seat=seat, wagers={wager: cents}, bettors=(), additional={})
    faults = refusals([probe], limits)
    return FieldCheck(wager, text, cents, faults[0] if faults else None)


def check_amount(what: str, text: str) -> FieldCheck:
    """An amount that is no wager on a betting space (the bank's chips, the dealer's wager, prepaid
    commission): dollars and cents, not negative; the table's limits do not apply to it
    (docs/round-format.md, "Table limits")."""
    if not text.strip():
        return FieldCheck(what, text, None)
    try:
        cents = parse_dollars(text)
    except MoneyError as e:
        return FieldCheck(what, text, None, str(e))
    if cents < 0:
        return FieldCheck(what, text, None, f"{AMOUNT_NAMES.get(what, what)} is never negative")
    return FieldCheck(what, text, cents)


def bank_refusal(state: TableState, rules: RuleProfile, mode: str, seat: int | None) -> str | None:
    """Why the procedures would not let ``seat`` bank this round as ``mode``, or None.

    The procedures decide it (app/engine/procedure.py ``bank_declared``: 000(m)(2)-(4), 001
    11.10(b)-(d), 003 PLAYER BANK 1-2, 17), from the table's log: the bank declared this round if
    one was, else who may bank after the rounds played (the seats offered before it taken as
    having passed the bank: the person entering the round says who took it). A table closed in the
    log has no rotation to check: the round's own fields (``first_round_of_game``,
    ``banked_last_round``, ``last_wager``) are checked when it is settled."""
    if mode == "house" or mode not in rules.banking_modes or state.state == "closed":
        return None   # a mode the profile does not allow is the draft's to refuse
    if state.bank and state.bank_mode:
        if state.bank_mode != mode or seat not in state.bank:
            where = ", ".join(f"seat {s}" for s in state.bank)
            return (f"the procedures have {state.bank_mode} {where} banking this round (bank declared); "
                    f"not {mode} seat {seat}")
        return None
    probe = replace(state, state="betting")
    event = Event("bank_declared", state.last_time or datetime.min, "round", "dealer",
                  {"mode": mode, "seat": seat, "declined": list(range(1, 8))})
    try:
        apply(probe, event, rules)
    except EngineRefused as e:
        return str(e).removeprefix("bank_declared: ")
    return None


def slip_reason(r: Result, rules: RuleProfile, meter_seats: Iterable[int], slip_cents: int | None,
                stakes: Mapping[int, Mapping[str, int]]) -> tuple[str | None, bool]:
    """Why a payout needs a payout slip (None: it does not), and whether the slip carries W-2G
    data. A progressive hit paid off the meter (000(q)(3)(iii), (5)); a payoff at or over the
    profile's approval threshold (003 Clearing the Layout 1a); at or over the workstation's
    configured slip amount; a win of $600 that is 300 times the wager (W-2G; envy's wager is the
    Fortune wager that earned it, 000(r)(3))."""
    if r.outcome != "win" or r.win <= 0 or r.wager in NOT_A_PAYOFF or r.seat < 1:
        return None, False
    if r.wager == "fortune_toke":
        return None, False   # 003 GENERAL RULES 6: the toke bet's win is the dealers', not the player's
    wager = r.stake if r.stake or not r.wager.startswith("envy") else stakes.get(r.seat, {}).get("fortune", 0)
    w2g = needs_w2g(r.win, wager)
    whys = []
    if r.wager == "progressive" and r.seat in meter_seats:
        whys.append(f"a progressive hit paid off the meter ({rules.cite('progressive_hit')})")
    limit = rules.limits.approval_threshold_cents
    if limit is not None and r.win >= limit:
        whys.append(f"a payoff of {dollars(limit)} or more (003 Clearing the Layout 1a)")
    if slip_cents is not None and r.win >= slip_cents:
        whys.append(f"a payoff of {dollars(slip_cents)} or more (the workstation's configuration)")
    if w2g:
        whys.append("a win of $600.00 or more and at least 300 times the wager (IRS Form W-2G)")
    return ("; ".join(whys) or None), w2g
