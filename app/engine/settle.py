"""Settle a whole round as the table's rule text says, recording every chip movement.

``settle(round, rules, ranker, house_way)`` is a pure function: the same round always gives
the same Settlement. The order of the texts is kept:
1. additional 1-7 wagers, before any card (000(p)(2)(iv)-(v));
2. progressive wagers feed the meter (000(q)(5));
3. the banker's hand: the dealer's (or co-bank's) by the house way (000(l)(3), (m)(5)), a
   player bank's as set, reset by the house way if fouled (000(n)(10));
4. in a player-banked round, the dealer's wager against the bank first (000(m)(11));
5. each seat from the dealer's right, counterclockwise (000(l)(5)): the base wager, then the
   side wagers (000(l)(8), (r)(4)); in 002 clockwise from the action button;
6. envy last (000(r)(4)(iii)); aggregate limits applied before anything is paid.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .bank import co_bank_halves, cover_needed
from .citations import noted
from .houseway import HouseWay
from .ledger import (CENTER, FLOOR_SUPERVISOR, HOUSE, METER, PIT_MANAGER, TOKES, Approval, Book, Movement, Result,
                     net_by_party)
from .limits import PROPORTIONAL, cap_table, proportional_shares
from .progressive import progressive_payout
from .profile import FOUL_RESET, SURRENDER_RETURNS_HALF, RuleProfile
from .rank import Ranker, legal_set
from .round import Round, RoundError, Seat
from .sidebets import Claim, ace_high_claim, envy_lines, side_claims
from . import bonus
from .money import dollars
from .words import kind as kind_words

WIN, LOSE, PUSH, SURRENDER = "win", "lose", "push", "surrender"


@dataclass(frozen=True)
class Settlement:
    profile: str
    banking: str
    banker_high: tuple[int, ...]
    banker_low: tuple[int, ...]
    results: list[Result]
    ledger: list[Movement]
    approvals: list[Approval]
    limits: list[dict] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    meter_before: int | None = None
    meter_after: int | None = None

    def as_json(self) -> dict:
        from .cards import cards_str
        nets = net_by_party(self.ledger)
        return {
            "profile": self.profile,
            "banking": self.banking,
            "banker_hand": {"high": cards_str(self.banker_high), "low": cards_str(self.banker_low)},
            "results": [{k: getattr(r, k) for k in r.__slots__ if getattr(r, k) not in (None, "")}
                        for r in sorted(self.results, key=lambda r: r.seat)],
            "ledger": [m.as_json() for m in self.ledger],
            "net_by_party": dict(sorted(nets.items())),
            "approvals": [vars(a) for a in self.approvals],
            "aggregate_limits": self.limits,
            "progressive_meter": {"before": self.meter_before, "after": self.meter_after},
            "notes": self.notes,
        }


# -- the base game ------------------------------------------------------------------------
def compare_hands(ranker: Ranker, high, low, bhigh, blow, rules: RuleProfile | None = None) -> tuple[str, str]:
    """000(l)(6)-(8): both higher wins; a copy counts for the banker (000(l)(6)(ii)); one of
    each is a push. Where the profile's ties push (004(7)), a player loses only when the
    banker's hands are both superior."""
    h = ranker.five(high) - ranker.five(bhigh)
    lo = ranker.two(low) - ranker.two(blow)
    ties_push = rules is not None and rules.ties == "push"
    if h > 0 and lo > 0:
        outcome = WIN
    elif (h < 0 and lo < 0) if ties_push else (h <= 0 and lo <= 0):
        outcome = LOSE
    else:
        outcome = PUSH
    cites = rules.base_citations if rules is not None else {}
    default = {WIN: "000(l)(8); 001 11.9(i)", LOSE: "000(l)(6)(i),(ii); 001 11.9(g)", PUSH: "000(l)(7); 001 11.9(h)"}
    return outcome, cites.get(outcome) or default[outcome]


def _player_set(seat: Seat, rules: RuleProfile, ranker: Ranker, house_way: HouseWay, book: Book):
    """The seat's set, or None when it is a foul that loses (000(l)(6)(iii))."""
    high, low = seat.hand.high, seat.hand.low
    ok, _ = legal_set(ranker, high, low)
    if ok:
        return high, low
    if rules.foul == FOUL_RESET:
        s = house_way.set(seat.hand.cards)
        book.notes.append(f"seat {seat.seat}: foul hand reset by the house way (004(5))")
        return s.high, s.low
    return None


def _banker_set(rnd: Round, rules: RuleProfile, ranker: Ranker, house_way: HouseWay, book: Book):
    mode = rnd.banking.mode
    if mode in ("house", "player") and rnd.dealer is None:
        raise RoundError("round: the dealer's seven cards are required")
    dealer_set = None
    if rnd.dealer is not None:
        s = house_way.set(rnd.dealer.cards)
        if rnd.dealer.high is not None and (sorted(rnd.dealer.high), sorted(rnd.dealer.low)) != \
                (sorted(s.high), sorted(s.low)):
            book.notes.append("dealer: hands not set by the house way were reset "
                              f"({rules.cite('dealer_hand_not_house_way')})")
        dealer_set = (s.high, s.low)
    if mode == "house":
        return dealer_set, dealer_set
    bank = rnd.seat(rnd.banking.seat)
    if mode == "co-bank":
        s = house_way.set(bank.hand.cards)  # 000(m)(5): the dealer sets the co-bank hand
        if bank.hand.high is not None and (sorted(bank.hand.high), sorted(bank.hand.low)) != \
                (sorted(s.high), sorted(s.low)):
            book.notes.append(f"seat {bank.seat}: the co-bank hand is set by the house way "
                              f"({rules.bank.cite_co_bank_cover})")
        return (s.high, s.low), dealer_set
    if mode == "player-dealer" and bank.hand.high is None:
        s = house_way.set(bank.hand.cards)  # 002: the player-dealer may ask for the House Way
        return (s.high, s.low), dealer_set
    high, low = bank.hand.high, bank.hand.low
    if not legal_set(ranker, high, low)[0]:
        s = house_way.set(bank.hand.cards)
        book.notes.append(f"seat {bank.seat}: the bank set an automatic loser; reset by the house way "
                          f"({rules.cite('bank_hand_not_set_correctly')})")
        return (s.high, s.low), dealer_set
    return (high, low), dealer_set


@dataclass
class _BaseClaim:
    seat: int
    party: str
    bettor: str | None
    stake: int
    outcome: str
    rule: str
    prepaid: int = 0
    forfeit: int = 0   # surrender: what the player gives up (000(l)(4); 004(9): half)


def _base_claims(rnd: Round, rules: RuleProfile, ranker: Ranker, house_way: HouseWay, banker, book: Book,
                 order: list[Seat], face_up_push: bool) -> tuple[list[_BaseClaim], list[Result]]:
    claims, results = [], []
    bank_seat = rnd.banking.seat if rnd.banking.mode != "house" else None
    for seat in order:
        if seat.seat == bank_seat:
            continue
        bettors = ([(None, seat.party, seat.wagers.get("base", 0), seat.prepaid_commission)] +
                   [(b.name, f"{seat.party}/{b.name}", b.base, b.prepaid_commission) for b in seat.bettors])
        if seat.surrender:
            for name, party, stake, _ in bettors:
                if stake:
                    keep = stake // 2 if rules.surrender == SURRENDER_RETURNS_HALF else 0
                    rule = rules.cite("surrender")
                    claims.append(_BaseClaim(seat.seat, party, name, stake, SURRENDER, rule, 0, stake - keep))
            continue
        pset = _player_set(seat, rules, ranker, house_way, book)
        if face_up_push:
            outcome, rule = PUSH, "002 OBJECT OF THE GAME: the player-dealer's ace-high pushes every base wager"
        elif pset is None:
            outcome, rule = LOSE, noted(rules.cite("foul"), "the high hand does not outrank the low hand")
        else:
            outcome, rule = compare_hands(ranker, pset[0], pset[1], banker[0], banker[1], rules)
        for name, party, stake, prepaid in bettors:
            if stake:
                claims.append(_BaseClaim(seat.seat, party, name, stake, outcome, rule, prepaid))
    return claims, results


def win_amount(stake: int, rules: RuleProfile) -> int:
    """A winning base wager's win at the profile's payout odds (000(l)(8), (9); 001 11.9(j))."""
    n, m = rules.payout_odds
    return stake * n // m  # a fraction of a cent is not paid


_win_amount = win_amount


def additional_win(stake: int, rules: RuleProfile) -> int:
    """A winning additional wager's win: 000(p)(2)(vi), rounded down to the whole dollar."""
    n, m = rules.additional_odds
    return stake * n // m // 100 * 100


# -- settlement ---------------------------------------------------------------------------

def meter_rise(rules, stake: int) -> int:
    """000(q)(5): what a progressive wager of ``stake`` cents adds to the meter, by the rate of
    progression of its pay table ($1: progressive-1, $5: progressive-5)."""
    table = rules.paytables["progressive_1" if stake == 100 else "progressive_5"]
    return stake * table.extras["rate_of_progression_percent"] // 100

def settle(rnd: Round, rules: RuleProfile, ranker: Ranker, house_way: HouseWay) -> Settlement:
    if rnd.profile != rules.name:
        raise RoundError(f"round.profile: the round is for {rnd.profile!r}, not {rules.name!r}")
    book = Book()
    results: list[Result] = []
    limits_working: list[dict] = []
    mode = rnd.banking.mode
    banker, dealer_set = _banker_set(rnd, rules, ranker, house_way, book)

    # 1. 000(p): additional wagers, settled before any card is dealt
    for seat in rnd.seats:
        for number, stake in sorted(seat.additional.items()):
            if number == rnd.rng_number:
                win = additional_win(stake, rules)  # 000(p)(2)(vi): rounded down to the whole dollar
                book.move(HOUSE, seat.party, win, seat.seat, f"additional {number}", "wins",
                          rules.cite("additional_wins"))
                results.append(Result(seat.seat, f"additional {number}", stake, WIN, str(number), win, 0, win,
                                      rule=rules.cite("additional_wins")))
            else:
                book.move(seat.party, HOUSE, stake, seat.seat, f"additional {number}", "loses",
                          rules.cite("additional_loses"))
                results.append(Result(seat.seat, f"additional {number}", stake, LOSE, None, 0, 0, -stake,
                                      rule=rules.cite("additional_number")))

    # 2. 000(q)(5): every progressive wager raises the meter by the rate of progression
    meter = rnd.progressive_meter
    meter_before = meter
    for seat in rnd.seats:
        stake = seat.wagers.get("progressive", 0)
        if stake:
            rise = meter_rise(rules, stake)
            book.move(seat.party, HOUSE, stake, seat.seat, "progressive", "wager into the table inventory",
                      rules.cite("progressive_wager"))
            book.move(HOUSE, METER, rise, seat.seat, "progressive", "rate of progression",
                      rules.cite("progressive_rate"))
            meter += rise

    # 3. settlement order: 000(l)(5) from the dealer's right; 002 clockwise from the action button
    order = list(rnd.seats)
    if mode == "player-dealer":
        # seats are numbered counterclockwise, so clockwise runs from high numbers to low
        clockwise = sorted((s.seat for s in rnd.seats), reverse=True)
        k = clockwise.index(rnd.banking.action_seat)
        order = [rnd.seat(n) for n in clockwise[k:] + clockwise[:k]]
    face_up_push = False
    if rules.dealer_ace_high_pushes and mode == "player-dealer":
        bank_cards = rnd.seat(rnd.banking.seat).hand.cards
        face_up_push = bonus.ace_high(list(bank_cards), ranker) != "none"

    base_claims, base_results = _base_claims(rnd, rules, ranker, house_way, banker, book, order, face_up_push)
    results += base_results

    # side-wager claims, before limits; each seat's seven cards are looked at once
    views = {s.seat: bonus.view(list(s.hand.cards), ranker) for s in order}
    fortunes = {}
    if "envy" in rules.paytables or "fortune" in rules.side_bets:
        fortunes = {s.seat: bonus.fortune(list(s.hand.cards), ranker, rules.royal_match, views[s.seat])
                    for s in order}
    claims: list[Claim] = []
    for seat in order:
        # a surrendering seat keeps only wagers settled before (the three-card bonus, 001 11.17(f))
        claims += side_claims(seat, rules, ranker, views[seat.seat], fortunes.get(seat.seat))
        if seat.wagers.get("ace_high"):
            claims.append(ace_high_claim(seat, rnd.seat(rnd.banking.seat).hand.cards, rules, ranker))
    envy = _envy_claims(rnd, rules, ranker, order, views, fortunes)
    claims, envy = _apply_limits(rnd, rules, claims, envy, limits_working, book)

    if mode == "house":
        # seat by seat from the dealer's right: the base wager, then the side wagers, then the
        # progressive (000(l)(8),(9), (r)(4)(i)-(ii)); 003 settles the Fortune bonus first (RULES
        # OF PLAY 9); envy after every seat (000(r)(4)(iii))
        for seat in order:
            base = [c for c in base_claims if c.seat == seat.seat]
            side = [c for c in claims if c.seat == seat.seat]
            if rules.fortune_before_base:
                _pay_house_side(side, [], rules, book, results, rnd)
                _pay_house_base(base, rules, book, results)
            else:
                _pay_house_base(base, rules, book, results)
                _pay_house_side(side, [], rules, book, results, rnd)
            meter = _pay_progressive_seat(seat, rules, ranker, meter, book, results, views)
        _pay_house_side([], envy, rules, book, results, rnd)
    elif mode in ("player", "co-bank"):
        _pay_bank(rnd, rules, ranker, base_claims, dealer_set, banker, book, results)
        _pay_house_side(claims, envy, rules, book, results, rnd)
    else:
        _pay_player_dealer(rnd, rules, base_claims, claims, envy, book, results, order)

    if mode != "house":
        # after the banked wagers, each seat's progressive in order (000(l)(8): base first)
        meter = _pay_progressive(rnd, rules, ranker, order, meter, book, results, views)
    _threshold_approvals(rules, results, book)
    return Settlement(rules.name, mode, tuple(banker[0]), tuple(banker[1]), results, book.movements,
                      book.approvals, limits_working, book.notes, meter_before, meter)


def _envy_claims(rnd: Round, rules: RuleProfile, ranker: Ranker, order: list[Seat], views: dict,
                 fortunes: dict) -> list[Claim]:
    """000(r)(4)(iii), (s)(2): each qualifying bonus wager earns an envy bonus for every
    other player's premium hand; never for the player's own or the dealer's hand."""
    table = rules.paytables.get("envy")
    if table is None:
        return []
    bank_seat = rnd.banking.seat if rnd.banking.mode != "house" else None
    premium: list[tuple[Seat, str]] = []
    for seat in order:
        if seat.surrender:
            continue
        if seat.seat == bank_seat and not rules.envy.player_banker_hand_counts:
            continue
        if not seat.wagers.get("fortune") and not rules.envy.counts_nonbetting_hands:
            continue
        line = envy_lines(seat, rules, ranker, views[seat.seat], fortunes.get(seat.seat))
        if line:
            premium.append((seat, line))
    out = []
    for seat in order:
        if seat.wagers.get("fortune", 0) < rules.envy.minimum_wager_cents or seat.surrender:
            continue
        for other, line in premium:
            # 000(a)(1)(v): never for the player's own cards, which include a second area (000(o))
            if other.player != seat.player:
                out.append(Claim(seat.seat, f"envy of seat {other.seat}", 0, line, table.pays[line].cents,
                                 f"{table.citation}; {rules.cite('envy')}"))
    return out


def _apply_limits(rnd: Round, rules: RuleProfile, claims: list[Claim], envy: list[Claim],
                  working: list[dict], book: Book) -> tuple[list[Claim], list[Claim]]:
    players = {s.seat: s.player for s in rnd.seats}
    # per player per round: 000(s)(3), 001 11.16(d), 11.18(d). Whether a player's envy payments
    # count with the bonus wagers is the profile's reading: "notwithstanding ... the fixed bonus
    # amount required in (s)(2)" (they do) or "shall apply only to payouts of ... bonus wagers"
    # (they do not); docs/rule-settings.md
    counts_envy = rules.limits.per_player_counts_envy
    for cap, wagers in rules.limits.per_player:
        for player in sorted(set(players.values())):
            group = [("claim", i) for i, c in enumerate(claims)
                     if players[c.seat] == player and c.wager in wagers and c.win]
            if "fortune" in wagers and counts_envy:
                group += [("envy", i) for i, e in enumerate(envy) if players[e.seat] == player and e.win]
            lists = {"claim": claims, "envy": envy}
            amounts = [lists[k][i].win for k, i in group]
            total = sum(amounts)
            if total > cap:
                shares = proportional_shares(cap, amounts)
                for (k, i), share in zip(group, shares):
                    c = lists[k][i]
                    lists[k][i] = Claim(c.seat, c.wager, c.stake, c.line, share, c.rule + "; aggregate limit")
                working.append({"limit": "per player", "player": player, "wagers": list(wagers), "cap": cap,
                                "before": total, "after": cap, "shares": shares,
                                "envy_counted": counts_envy and "fortune" in wagers,
                                "rule": rules.cite("payout_limit")})
                book.approve("aggregate_limit", None, cap, PIT_MANAGER,
                             f"player {player!r}: payouts of {dollars(total)} limited to {dollars(cap)}",
                             rules.cite("payout_limit"))
    # per table (003): envy first, then the rest of the limit to the Fortune winners (toke payouts
    # are Fortune payouts too), in proportion (Maximum Aggregate Payoff Calculation) or to the high
    # money winner (Irregularities), as the profile reads it
    limit = rules.limits.per_table_cents
    if limit is not None:
        remainder = rules.limits.table_limit_remainder
        f_idx = [i for i, c in enumerate(claims) if c.wager in ("fortune", "fortune_toke") and c.win]
        bonus_wins = [claims[i].win for i in f_idx]
        envy_paid, bonus_paid, applied = cap_table(limit, [e.win for e in envy], bonus_wins, remainder)
        if applied:
            for i, share in zip(f_idx, bonus_paid):
                c = claims[i]
                claims[i] = Claim(c.seat, c.wager, c.stake, c.line, share, c.rule + "; 003 aggregate limit")
            working.append({"limit": "per table", "cap": limit, "envy_first": sum(envy_paid),
                            "shared": limit - sum(envy_paid), "before": sum(bonus_wins),
                            "claims": {f"{claims[i].seat}:{claims[i].wager}": w for i, w in zip(f_idx, bonus_wins)},
                            "shares": {f"{claims[i].seat}:{claims[i].wager}": x for i, x in zip(f_idx, bonus_paid)},
                            "remainder": remainder,
                            "rule": "003 Maximum Aggregate Payoff Calculation: envy first, then in proportion; "
                                    "shares rounded down, left-over cents to the largest remainders"
                            if remainder == PROPORTIONAL else
                            "003 Irregularities: envy first, then the remaining amount to the high money winner "
                            "(the next highest while any is left)"})
            book.approve("aggregate_limit", None, limit, PIT_MANAGER,
                         f"table aggregate of {dollars(sum(envy_paid) + sum(bonus_wins))} limited to {dollars(limit)}",
                         "003 Aggregate Limit")
    return claims, envy


def _pay_house_base(base_claims: list[_BaseClaim], rules: RuleProfile, book: Book, results: list[Result]) -> None:
    for c in base_claims:
        if c.outcome == SURRENDER:
            book.move(c.party, HOUSE, c.forfeit, c.seat, "base", "surrender", c.rule)
            results.append(Result(c.seat, "base", c.stake, SURRENDER, None, 0, 0, -c.forfeit, c.bettor, c.rule))
        elif c.outcome == LOSE:
            book.move(c.party, HOUSE, c.stake, c.seat, "base", "loses", c.rule)
            results.append(Result(c.seat, "base", c.stake, LOSE, None, 0, 0, -c.stake, c.bettor, c.rule))
        elif c.outcome == PUSH:
            results.append(Result(c.seat, "base", c.stake, PUSH, None, 0, 0, 0, c.bettor, c.rule,
                                  _prepaid_note(c.prepaid, 0)))
        else:
            win = _win_amount(c.stake, rules)
            book.move(HOUSE, c.party, win, c.seat, "base", f"wins {rules.payout_odds[0]} to {rules.payout_odds[1]}",
                      c.rule)
            due, crule = _collect_commission(c, win, rules, book)
            results.append(Result(c.seat, "base", c.stake, WIN, None, win, due, win - due, c.bettor, c.rule,
                                  _prepaid_note(c.prepaid, due)))


def _prepaid_note(prepaid: int, due: int) -> str:
    """003 COLLECTING 6: prepaid commission is the commission due on a win; the rest (all of it
    on a push or a loss) stays with the player."""
    if not prepaid:
        return ""
    if prepaid >= due:
        return f"prepaid commission {dollars(prepaid)}: {dollars(due)} taken, {dollars(prepaid - due)} returned"
    return f"prepaid commission {dollars(prepaid)}: {dollars(due - prepaid)} more collected"


def _collect_commission(c: _BaseClaim, win: int, rules: RuleProfile, book: Book,
                        to: str = HOUSE) -> tuple[int, str]:
    # 000(l)(9), 001 11.9(j): five percent of the amount won, rounded up to 25 cents; 003 takes
    # prepaid commission with the wager (COLLECTING 6): it is the commission on a win and is
    # simply kept by the player on a push or a loss.
    due, rule = rules.commission.on_win(win), rules.cite("commission")
    reason = "commission" + (" (prepaid)" if c.prepaid else "")
    book.move(c.party, to, due, c.seat, "base", reason, rule)
    return due, rule


def _pay_house_side(claims: list[Claim], envy: list[Claim], rules: RuleProfile, book: Book,
                    results: list[Result], rnd: Round) -> None:
    for c in claims:
        party = rnd.seat(c.seat).party
        to = TOKES if c.wager == "fortune_toke" else party
        if c.line is None:
            book.move(party, HOUSE, c.stake, c.seat, c.wager, "loses", c.rule)
            results.append(Result(c.seat, c.wager, c.stake, LOSE, None, 0, 0, -c.stake, rule=c.rule))
        else:
            book.move(HOUSE, to, c.win, c.seat, c.wager, f"wins on {kind_words(c.line)}", c.rule)
            if to != party:
                book.move(party, to, c.stake, c.seat, c.wager, "the winning toke bet goes to the dealers", c.rule)
            results.append(Result(c.seat, c.wager, c.stake, WIN, c.line, c.win, 0,
                                  c.win if to == party else -c.stake, rule=c.rule))
    for e in envy:
        party = rnd.seat(e.seat).party
        book.move(HOUSE, party, e.win, e.seat, e.wager, f"envy bonus for {kind_words(e.line)}", e.rule)
        results.append(Result(e.seat, e.wager, 0, WIN, e.line, e.win, 0, e.win, rule=e.rule))


def _pay_bank(rnd: Round, rules: RuleProfile, ranker: Ranker, base_claims: list[_BaseClaim], dealer_set,
              banker, book: Book, results: list[Result]) -> None:
    """000(m)(11)-(15), 001 11.10(k)-(o), 003 PLAYER BANK 11-14 and #16 (co-bank)."""
    b = rnd.banking
    bank = f"seat {b.seat}"
    co = b.mode == "co-bank"
    # 000(m)(4)(ii), 001 11.10(d)2: chips to cover the wagers: what the bank would pay if every
    # one won; the dealer's wager too where the profile reads it so (app/engine/bank.py)
    cover = cover_needed([_win_amount(c.stake, rules) for c in base_claims if c.outcome != SURRENDER],
                         _win_amount(b.dealer_wager, rules), rules.bank.covers_dealer_wager, co)
    # 003 PLAYER BANK 3: where the floor supervisor ruled the game proceeds, the bank is still
    # responsible for all outcomes (003 PLAYER BANK, Important Note)
    if b.chips < cover and not b.cover_ruling:
        what = "wagers" if co or not b.dealer_wager else \
            "wagers, the dealer's included" if rules.bank.covers_dealer_wager else "the players' wagers"
        raise RoundError(f"banking.chips: the {'co-bank' if co else 'bank'} has {dollars(b.chips)} but must cover "
                         f"{dollars(cover)} of {what} "
                         f"({rules.bank.cite_co_bank_cover if co else rules.bank.cite_cover})")
    winners: list[tuple[str, int | None, int, str]] = []  # (party, seat, cents owed incl. stake, rule)
    # 000(m)(11): the dealer's wager against the bank first
    if b.dealer_wager and dealer_set is not None:
        outcome, rule = compare_hands(ranker, dealer_set[0], dealer_set[1], banker[0], banker[1], rules)
        if outcome == LOSE:
            book.move(HOUSE, CENTER, b.dealer_wager, None, "dealer wager", "the dealer loses to the bank",
                      rules.cite("dealer_wager_first"))
        elif outcome == WIN:
            # 000(m)(14): the dealer's win and wager return to the table inventory
            winners.append((HOUSE, None, _win_amount(b.dealer_wager, rules), rules.cite("dealer_wager_first")))
        results.append(Result(0, "dealer wager", b.dealer_wager, outcome, None,
                              _win_amount(b.dealer_wager, rules) if outcome == WIN else 0, 0,
                              {WIN: _win_amount(b.dealer_wager, rules), LOSE: -b.dealer_wager, PUSH: 0}[outcome],
                              "dealer", rule))
    owed: list[tuple[_BaseClaim, int]] = []
    for c in base_claims:
        if c.outcome == SURRENDER:
            # 000(m)(12): every collected wager goes to the center of the layout
            book.move(c.party, CENTER, c.forfeit, c.seat, "base", "surrender, to the center",
                      f"{c.rule}; {rules.cite('bank_pays')}")
            results.append(Result(c.seat, "base", c.stake, SURRENDER, None, 0, 0, -c.forfeit, c.bettor, c.rule))
        elif c.outcome == LOSE:
            book.move(c.party, CENTER, c.stake, c.seat, "base", "loses to the bank", rules.cite("bank_pays"))
            results.append(Result(c.seat, "base", c.stake, LOSE, None, 0, 0, -c.stake, c.bettor, c.rule))
        elif c.outcome == PUSH:
            results.append(Result(c.seat, "base", c.stake, PUSH, None, 0, 0, 0, c.bettor, c.rule))
        else:
            owed.append((c, _win_amount(c.stake, rules)))
    # winners are paid from the center; the bank (or co-bank and house by halves) makes up a shortfall
    center = sum(m.cents for m in book.movements if m.to == CENTER) - sum(
        m.cents for m in book.movements if m.frm == CENTER)
    need = sum(w for _, _, w, _ in winners) + sum(w for _, w in owed)
    if need > center:
        short = need - center
        if co:
            # 000(m)(13): one-half from the co-bank, one-half from the table inventory; the
            # profile names the party whose half carries an odd cent (app/engine/bank.py)
            mine, house = co_bank_halves(short, rules.bank.co_bank_odd_cent)
            split = rules.cite("co_bank_split")
            book.move(bank, CENTER, mine, b.seat, "bank", "co-bank covers half the shortfall", split)
            book.move(HOUSE, CENTER, house, None, "bank", "house covers half the shortfall", split)
        else:
            mine = short
            book.move(bank, CENTER, short, b.seat, "bank", "the bank makes up the shortfall", rules.cite("bank_pays"))
        if mine > b.chips:
            # a cover of the players' wagers only, or a supervisor's ruling (003 PLAYER BANK 3): the
            # bank still pays what it owes; the record says it went beyond the chips it showed
            book.notes.append(f"seat {b.seat}: the bank made up {dollars(mine)}, {dollars(mine - b.chips)} more than "
                              f"its {dollars(b.chips)} of chips on the table "
                              f"({rules.cite('co_bank_split' if co else 'bank_pays')})")
    for party, seat, win, rule in winners:
        book.move(CENTER, party, win, seat, "dealer wager", "the dealer wins against the bank", rule)
    for c, win in owed:
        book.move(CENTER, c.party, win, c.seat, "base", "wins against the bank", rules.cite("bank_pays"))
        # 000(m)(15): each winner pays vigorish on the amount won
        due, _ = _collect_commission(c, win, rules, book)
        results.append(Result(c.seat, "base", c.stake, WIN, None, win, due, win - due, c.bettor, c.rule))
    surplus = max(0, center - need)
    if surplus:
        if co:
            # 000(m)(13): half the surplus to the house; vig on the co-bank's half only (003 #16e)
            mine, house_half = co_bank_halves(surplus, rules.bank.co_bank_odd_cent)
            book.move(CENTER, HOUSE, house_half, None, "bank", "the house's half of the surplus",
                      rules.cite("co_bank_split"))
        else:
            mine = surplus
        vig = min(rules.commission.on_win(mine), mine)
        book.move(CENTER, HOUSE, vig, b.seat, "bank", "vigorish on the bank's surplus", rules.cite("bank_pays"))
        book.move(CENTER, bank, mine - vig, b.seat, "bank", "the rest of the surplus to the bank",
                  rules.cite("bank_pays"))
    bank_net = sum(m.cents for m in book.movements if m.to == bank and m.wager == "bank") - sum(
        m.cents for m in book.movements if m.frm == bank and m.wager == "bank")
    results.append(Result(b.seat, "bank", 0, WIN if bank_net > 0 else LOSE if bank_net < 0 else PUSH, None,
                          max(bank_net, 0), 0, bank_net, rule=rules.cite("co_bank_split" if co else "bank_pays")))


def _pay_player_dealer(rnd: Round, rules: RuleProfile, base_claims: list[_BaseClaim], claims: list[Claim],
                       envy: list[Claim], book: Book, results: list[Result], order: list[Seat]) -> None:
    """002: the player-dealer collects and pays only up to its own wager, in settlement order
    (base, Ace-High, Fortune, envy, seat by seat from the action button clockwise); once its
    wager is exhausted, the wagers it does not cover are returned."""
    b = rnd.banking
    pd = f"seat {b.seat}"
    cap = b.wager
    net = 0  # the player-dealer's running result, kept within [-cap, +cap]
    rule_cap = "002 TYPE OF GAME, COLLECTION PROCEDURES: only up to the player-dealer's wager"
    fees = rules.commission
    # 002 COLLECTION PROCEDURES: flat collection fees, set before play, to the house
    for seat in order:
        stake = b.wager if seat.seat == b.seat else seat.wagers.get("base", 0)
        fee = fees.flat_fee(stake) if fees.mode == "flat_fee" else 0
        book.move(seat.party, HOUSE, fee, seat.seat, "collection fee", "posted collection fee",
                  "002 COLLECTION PROCEDURES")
        if fee:
            results.append(Result(seat.seat, "collection fee", stake, "paid", None, 0, fee, -fee,
                                  rule="002 COLLECTION PROCEDURES"))
    by_seat: dict[int, list] = {}
    for c in base_claims:
        by_seat.setdefault(c.seat, []).append(("base", c))
    order_of = {"ace_high": 1, "fortune": 2}
    for c in sorted(claims, key=lambda c: order_of.get(c.wager, 3)):
        by_seat.setdefault(c.seat, []).append((c.wager, c))
    for e in envy:
        by_seat.setdefault(e.seat, []).append(("envy", e))
    # "may not win or lose more than the original amount wagered": once it has lost its whole
    # wager it is exhausted and every wager after is returned; once it has won its whole wager
    # it collects no more, though it still pays winners
    exhausted = False
    for seat in order:
        for kind, c in by_seat.get(seat.seat, []):
            if kind == "base":
                party, stake = c.party, c.stake
                if c.outcome == SURRENDER:
                    stake, wins, lose, amount = c.forfeit, False, True, 0
                else:
                    wins, lose = c.outcome == WIN, c.outcome == LOSE
                    amount = _win_amount(stake, rules) if wins else 0
                wager, rule, line, bettor = "base", c.rule, None, c.bettor
            else:
                party, stake, bettor = seat.party, c.stake, None
                wins, lose = c.line is not None, c.line is None and kind != "envy"
                amount, wager, rule, line = c.win, c.wager, c.rule, c.line
            if exhausted and (wins or lose):
                results.append(Result(seat.seat, wager, stake, "returned", line, 0, 0, 0, bettor, rule,
                                      f"not covered: the player-dealer's wager is exhausted ({rule_cap})"))
                continue
            if lose:
                take = min(stake, cap - net)
                book.move(party, pd, take, seat.seat, wager, "loses to the player-dealer", rule)
                net += take
                note = "" if take == stake else f"{dollars(stake - take)} not covered, returned ({rule_cap})"
                results.append(Result(seat.seat, wager, stake, LOSE if take else "returned", line, 0, 0, -take,
                                      bettor, rule, note))
            elif wins:
                pay = min(amount, cap + net)
                book.move(pd, party, pay, seat.seat, wager,
                          f"paid by the player-dealer{' on ' + line if line else ''}", rule)
                net -= pay
                exhausted = net == -cap
                note = "" if pay == amount else f"{dollars(amount - pay)} not covered ({rule_cap})"
                results.append(Result(seat.seat, wager, stake, WIN if pay else "returned", line, pay, 0, pay,
                                      bettor, rule, note))
            else:
                results.append(Result(seat.seat, wager, stake, PUSH, None, 0, 0, 0, bettor, rule))
    results.append(Result(b.seat, "player-dealer", cap, WIN if net > 0 else LOSE if net < 0 else PUSH, None,
                          max(net, 0), 0, net, rule=rule_cap))


def _pay_progressive(rnd: Round, rules: RuleProfile, ranker: Ranker, order: list[Seat], meter: int | None,
                     book: Book, results: list[Result], views: dict) -> int | None:
    """000(q)(3)-(7): paid whatever the base outcome, at the meter as it stands when paid;
    large payouts come off the meter, smaller ones from the table inventory."""
    for seat in order:
        meter = _pay_progressive_seat(seat, rules, ranker, meter, book, results, views)
    return meter


def _pay_progressive_seat(seat: Seat, rules: RuleProfile, ranker: Ranker, meter: int | None, book: Book,
                          results: list[Result], views: dict) -> int | None:
    stake = seat.wagers.get("progressive", 0)
    if not stake or seat.surrender:
        return meter
    table = rules.paytables["progressive_1" if stake == 100 else "progressive_5"]
    line = table.best_progressive(bonus.progressive_lines(list(seat.hand.cards), ranker, views[seat.seat]),
                                  meter)
    if line is None:
        results.append(Result(seat.seat, "progressive", stake, LOSE, None, 0, 0, -stake,
                              rule=rules.cite("progressive_pays")))
        return meter
    # the figures of app/engine/progressive.py, which the workstation's readout of a hit shows too
    paid = progressive_payout(table, line, meter, rules.progressive_reset_cents)
    pay, amount = table.pays[line], paid.amount
    if paid.from_meter:
        book.move(METER, seat.party, amount, seat.seat, "progressive", f"wins {kind_words(line)} off the meter",
                  rules.cite("progressive_meter"))
        if paid.reset is not None:
            # 000(q)(6): after the top award the casino funds the meter to its reset amount
            book.move(HOUSE, METER, paid.funded, seat.seat, "progressive", "meter reset",
                      rules.cite("progressive_reset"))
        meter = paid.meter_after
        book.approve("progressive_meter_payout", seat.seat, amount,
                     PIT_MANAGER if pay.meter_percent == 100 else FLOOR_SUPERVISOR,
                     f"seat {seat.seat}: {kind_words(line)} pays {dollars(amount)} off the meter",
                     rules.cite("progressive_hit"))
    else:
        book.move(HOUSE, seat.party, amount, seat.seat, "progressive", f"wins {kind_words(line)}",
                  rules.cite("progressive_pays"))
    results.append(Result(seat.seat, "progressive", stake, WIN, line, amount, 0, amount - stake,
                          rule=rules.cite("progressive_pays")))
    return meter


def _threshold_approvals(rules: RuleProfile, results: list[Result], book: Book) -> None:
    """003 Clearing the Layout 1a: the supervisor is notified of payoffs of $250.00 or more."""
    limit = rules.limits.approval_threshold_cents
    if limit is None:
        return
    for r in results:
        if r.outcome == WIN and r.win >= limit and r.wager not in ("bank", "player-dealer", "dealer wager"):
            book.approve("payoff_threshold", r.seat, r.win, FLOOR_SUPERVISOR,
                         f"seat {r.seat}: {kind_words(r.wager)} pays {dollars(r.win)}", "003 Clearing the Layout 1a")
