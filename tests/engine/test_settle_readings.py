"""The five places where the texts allow two readings: each a profile setting, each tested both
ways with amounts worked out by hand from the text (docs/rule-settings.md)."""

from __future__ import annotations

import copy
from dataclasses import replace

import pytest

from app.engine.money import dollars
from app.engine.round import RoundError, parse_round
from app.engine.settle import settle
from app.rules.resources import profile

BANK = {"seat": 3, "cards": "Qs Qd 9h 7c 5s 3d 2h", "high": "Qs Qd 7c 5s 3d", "low": "9h 2h"}
WINNER = {"seat": 1, "cards": "Ks Kd Ah Jc 8d 6s 4c", "high": "Ks Kd 8d 6s 4c", "low": "Ah Jc"}  # beats the bank
LOSER = {"seat": 2, "cards": "Jh Td 8c 6h 4d 3s 2s", "high": "Jh Td 8c 6h 4d", "low": "3s 2s"}   # loses to it
# set by the house way as A-A-7-4-2 / K-Q (003 ONE PAIR): beats the bank's Q-Q-7-5-3 / 9-2 both ways
STRONG_DEALER = "As Ad Kh Qh 7s 4h 2d"


def rules_of(name, **changes):
    """The profile's rules with some settings read the other way."""
    rules = profile(name).rules
    for part, values in changes.items():
        rules = replace(rules, **{part: replace(getattr(rules, part), **values)})
    return rules


def run(obj, rules=None):
    p = profile(obj["profile"])
    rules = rules or p.rules
    return settle(parse_round(copy.deepcopy(obj), rules), rules, p.ranker(), p.house())


def result(s, seat, wager):
    (r,) = [r for r in s.results if r.seat == seat and r.wager == wager]
    return r


def moves(s):
    return [(m.frm, m.to, m.cents) for m in s.ledger]


def seat(base, template, **extra):
    return {**copy.deepcopy(template), "wagers": {"base": base}, **extra}


# -- a. does the player bank's cover include the dealer's wager? --------------------------------
def dealer_beats_bank(name, stake, chips, dealer_wager=2000):
    """One player beating the bank with ``stake``; the dealer wagers ``dealer_wager`` and wins too."""
    return {"profile": name, "banking": {"mode": "player", "seat": 3, "chips": chips, "last_wager": 2000,
                                         "dealer_wager": dealer_wager},
            "dealer": {"cards": STRONG_DEALER}, "seats": [seat(stake, WINNER), copy.deepcopy(BANK)]}


def test_nj_bank_covers_the_players_wagers_not_the_dealers():
    # 001 11.10(d)2: chips "to cover all of the wagers placed by other players at the table": the
    # $30 wager would win $30 at 1 to 1 (11.9(j)); the dealer's $20 is fixed only after (11.10(g))
    with pytest.raises(RoundError) as e:
        run(dealer_beats_bank("nj", 3000, 2999))
    assert str(e.value) == ("banking.chips: the bank has $29.99 but must cover $30.00 of the players' "
                            "wagers (001 11.10(d)2)")
    # with $30 of chips it banks; the dealer and the player both win, so the bank makes up $20 + $30
    # (11.10(l): "all winning wagers, including the dealer's wager"), $20 beyond its chips
    s = run(dealer_beats_bank("nj", 3000, 3000))
    assert moves(s) == [("seat 3", "center", 5000), ("center", "house", 2000), ("center", "seat 1", 3000),
                        ("seat 1", "house", 150)]
    assert result(s, 3, "bank").net == -5000
    assert any("made up $50.00, $20.00 more than its $30.00 of chips" in n for n in s.notes)


def test_nj_read_the_other_way_the_bank_covers_the_dealers_wager_too():
    rules = rules_of("nj", bank={"covers_dealer_wager": True})
    with pytest.raises(RoundError) as e:
        run(dealer_beats_bank("nj", 3000, 4999), rules)
    assert str(e.value) == ("banking.chips: the bank has $49.99 but must cover $50.00 of wagers, the "
                            "dealer's included (001 11.10(d)2)")
    assert result(run(dealer_beats_bank("nj", 3000, 5000), rules), 3, "bank").net == -5000


def test_section6_bank_cover_at_two_to_one_leaves_out_the_dealers_wager():
    # 000(m)(4)(ii) and (m)(7); 000(l)(9): the $30 wager would win $60
    with pytest.raises(RoundError, match=r"has \$59.99 but must cover \$60.00 of the players' wagers "
                                         r"\(000\(m\)\(4\)\(ii\)\)$"):
        run(dealer_beats_bank("section6", 3000, 5999))
    run(dealer_beats_bank("section6", 3000, 6000))
    # read the other way: the dealer's $20 would win $40 as well
    rules = rules_of("section6", bank={"covers_dealer_wager": True})
    with pytest.raises(RoundError, match=r"must cover \$100.00 of wagers, the dealer's included"):
        run(dealer_beats_bank("section6", 3000, 6000), rules)


def test_casino_bank_covers_the_dealer_who_acts_as_a_player():
    # 003 PLAYER BANK 7: "The Dealer will act as a player when a guest is the Player Bank"
    with pytest.raises(RoundError) as e:
        run(dealer_beats_bank("casino", 3000, 4999))
    assert str(e.value) == ("banking.chips: the bank has $49.99 but must cover $50.00 of wagers, the "
                            "dealer's included (003 PLAYER BANK 3, 7)")
    s = run(dealer_beats_bank("casino", 3000, 5000))
    assert result(s, 3, "bank").net == -5000 and not s.notes
    # read the other way, $30 of chips would do
    run(dealer_beats_bank("casino", 3000, 3000), rules_of("casino", bank={"covers_dealer_wager": False}))


@pytest.mark.parametrize("name,cite", [("section6", "000(m)(5)"), ("nj", "001 11.10(e)"),
                                       ("casino", "003 PLAYER BANK 16")])
def test_each_profile_cites_its_own_text_for_the_co_banks_cover(name, cite):
    # a $20 and a $10 wager; the co-bank covers half of what they would win
    obj = {"profile": name, "banking": {"mode": "co-bank", "seat": 3, "chips": 0, "last_wager": 2000},
           "dealer": {"cards": STRONG_DEALER}, "seats": [seat(2000, WINNER), seat(1000, LOSER), copy.deepcopy(BANK)]}
    n = 2 if name == "section6" else 1  # 000(l)(9): 2 to 1
    obj["banking"]["chips"] = 1500 * n - 1
    with pytest.raises(RoundError) as e:
        run(obj)
    assert str(e.value) == (f"banking.chips: the co-bank has {dollars(1500 * n - 1)} but must cover "
                            f"{dollars(1500 * n)} of wagers ({cite})")


def test_nj_asks_for_the_banks_chips_under_its_own_paragraph():
    obj = dealer_beats_bank("nj", 3000, 3000)
    del obj["banking"]["chips"]
    with pytest.raises(RoundError, match=r"required \(001 11.10\(d\)2\)$"):
        run(obj)


# -- b. does envy count toward the per-player limit? --------------------------------------------
SF7 = {"seat": 1, "cards": "2s 3s 4s 5s 6s 7s 8s", "high": "4s 5s 6s 7s 8s", "low": "2s 3s",
       "wagers": {"base": 1000, "fortune": 1000}}
QUADS = {"seat": 2, "cards": "9c 9d 9h 9s Kd 4c 2h", "high": "9c 9d 9h 9s 2h", "low": "Kd 4c",
         "wagers": {"base": 1000}}
SECTION6_SF7 = {"profile": "section6", "banking": {"mode": "house"}, "dealer": {"cards": "Kc Qh Jd Tc 8c 6d 3c"},
                "seats": [SF7, QUADS]}


def test_section6_per_player_limit_counts_envy():
    # 000(s)(3) "Notwithstanding ... the fixed bonus amount required in (s)(2)": $10 on a natural
    # seven-card straight flush wins 8,000 to 1 = $80,000 ((s)(1)); the envy for seat 2's four of a
    # kind is $5 ((s)(2)). $80,005 is cut to $40,000, shared 8,000,000 : 500 and rounded down
    # (3,999,750.02 and 249.98), the cent left over to the larger remainder: $39,997.50 and $2.50
    s = run(SECTION6_SF7)
    assert result(s, 1, "fortune").win == 3_999_750
    assert result(s, 1, "envy of seat 2").win == 250
    assert s.limits[0]["envy_counted"] is True


def test_section6_read_the_other_way_envy_is_paid_beside_the_limit():
    # 000(s)(3) "shall apply only to payouts of Pai Gow Poker bonus wagers": the bonus wager is cut
    # to $40,000 and the $5 envy bonus is paid in full
    s = run(SECTION6_SF7, rules_of("section6", limits={"per_player_counts_envy": False}))
    assert result(s, 1, "fortune").win == 4_000_000
    assert result(s, 1, "envy of seat 2").win == 500
    assert s.limits[0]["before"] == 8_000_000 and s.limits[0]["envy_counted"] is False


# -- c. the rest of 003's table limit: in proportion or to the high money winner ------------------
def casino_house(*seats):
    return {"profile": "casino", "banking": {"mode": "house"}, "dealer": {"cards": "Ad Kc 9c 7d 5c 4d 2d"},
            "seats": list(seats)}


# $70 on a seven-card straight flush with the joker wins 1,000 to 1 = $70,000; $100 on a royal
# flush 150 to 1 = $15,000 (003 PAY TABLE). Envy: $500 to B for A's hand, $50 to A for B's.
SF7_JOKER = {"seat": 1, "cards": "8h 9h Th Jh Qh Kh Jk", "high": "Th Jh Qh Kh Jk", "low": "8h 9h",
             "wagers": {"base": 1000, "fortune": 7000}}
ROYAL = {"seat": 2, "cards": "As Ks Qs Js Ts 3d 2c", "high": "As Ks Qs Js Ts", "low": "3d 2c",
         "wagers": {"base": 1000, "fortune": 10000}}


def test_casino_shares_the_rest_of_the_table_limit_in_proportion():
    # 003 Maximum Aggregate Payoff Calculation: envy first ($550), $74,450 left, shared 70 : 15:
    # $61,311.7647 and $13,138.2353, rounded down, the cent left over to the larger remainder
    s = run(casino_house(copy.deepcopy(SF7_JOKER), copy.deepcopy(ROYAL)))
    assert (result(s, 1, "fortune").line, result(s, 2, "fortune").line) == ("sf7_joker", "royal_flush")
    assert (result(s, 1, "envy of seat 2").win, result(s, 2, "envy of seat 1").win) == (5_000, 50_000)
    assert result(s, 1, "fortune").win == 6_131_176
    assert result(s, 2, "fortune").win == 1_313_824
    assert s.limits[0]["remainder"] == "proportional"


def test_casino_read_the_other_way_the_high_money_winner_is_paid_first():
    # 003 Irregularities: "Envy Bonuses are paid first and the remaining amount would then be paid to
    # the high money winner": A's $70,000 in full, and the $4,450 still left to B
    rules = rules_of("casino", limits={"table_limit_remainder": "high_money_winner"})
    s = run(casino_house(copy.deepcopy(SF7_JOKER), copy.deepcopy(ROYAL)), rules)
    assert result(s, 1, "fortune").win == 7_000_000
    assert result(s, 2, "fortune").win == 445_000
    assert s.limits[0]["remainder"] == "high_money_winner" and "Irregularities" in s.limits[0]["rule"]


def test_003_worked_example_read_for_the_high_money_winner():
    # the worked example's players: A's $160,000 is more than the $69,750 left after envy, so A
    # takes all of it and B's $4,000 Fortune win is paid nothing; each keeps its envy bonus
    a = {"seat": 1, "cards": "2s 3s 4s 5s 6s 7s 8s", "high": "4s 5s 6s 7s 8s", "low": "2s 3s",
         "wagers": {"base": 1000, "fortune": 2000}}
    b = {"seat": 2, "cards": "As Ah Ad Ac Jk 9h 9d", "high": "As Ah Ad Ac Jk", "low": "9h 9d",
         "wagers": {"base": 1000, "fortune": 1000}}
    obj = casino_house(a, b)
    obj["dealer"] = {"cards": "Kc Qh Jd Tc 8c 6d 3c"}
    s = run(obj, rules_of("casino", limits={"table_limit_remainder": "high_money_winner"}))
    assert result(s, 1, "fortune").win == 6_975_000 and result(s, 2, "fortune").win == 0
    assert result(s, 1, "envy of seat 2").win == 25_000 and result(s, 2, "envy of seat 1").win == 500_000


# -- d. the odd cent of a co-bank's split result ----------------------------------------------------
def co_bank(win_stake, lose_stake):
    return {"profile": "casino", "banking": {"mode": "co-bank", "seat": 3, "chips": 100_000, "last_wager": 2000},
            "dealer": {"cards": STRONG_DEALER},
            "seats": [seat(win_stake, WINNER), seat(lose_stake, LOSER), copy.deepcopy(BANK)]}


def test_co_bank_shortfall_odd_cent_carried_by_the_house():
    # 000(m)(13), 003 #16a: $20.01 to pay and $10.00 collected: $10.01 short; the co-bank's half
    # is $5.00, the table inventory's $5.01
    s = run(co_bank(2001, 1000))
    assert ("seat 3", "center", 500) in moves(s) and ("house", "center", 501) in moves(s)


def test_co_bank_shortfall_odd_cent_carried_by_the_co_bank():
    s = run(co_bank(2001, 1000), rules_of("casino", bank={"co_bank_odd_cent": "co-bank"}))
    assert ("seat 3", "center", 501) in moves(s) and ("house", "center", 500) in moves(s)


def test_co_bank_surplus_odd_cent_kept_by_the_house():
    # $20.01 collected, $10.00 paid: $10.01 surplus; the house's half $5.01, the co-bank's $5.00,
    # less 25 cents vigorish (000(l)(9): 5% of $5.00)
    s = run(co_bank(1000, 2001))
    assert moves(s)[-3:] == [("center", "house", 501), ("center", "house", 25), ("center", "seat 3", 475)]


def test_co_bank_surplus_odd_cent_kept_by_the_co_bank():
    # the co-bank's half $5.01: 5% is 25.05 cents, rounded up to the next 25 cents: 50 (000(l)(9))
    s = run(co_bank(1000, 2001), rules_of("casino", bank={"co_bank_odd_cent": "co-bank"}))
    assert moves(s)[-3:] == [("center", "house", 500), ("center", "house", 50), ("center", "seat 3", 451)]


# -- e. the odds of a winning base wager in 000: 2 to 1 as written, or 1 to 1 ------------------------
def section6_house(name):
    """$26 beats the house's Q-Q-5-3-2 / 9-7 both ways, $50 loses to it."""
    return {"profile": name, "banking": {"mode": "house"}, "dealer": {"cards": BANK["cards"]},
            "seats": [seat(2600, WINNER), seat(5000, LOSER)]}


@pytest.mark.parametrize("name,reading,win,vig,house", [
    # 000(l)(9) "at odds of 2 to 1": $26 wins $52; the vigorish is "five percent of the amount won",
    # $2.60, rounded "to 25 cents or the next highest multiple of 25 cents": $2.75. The $50 loses
    # (000(l)(6)). The house: -$52 + $2.75 + $50 = +$0.75
    ("section6", "as written", 5200, 275, 75),
    # read as 001 11.9(j) "at odds of 1 to 1": $26 wins $26; 5% is $1.30, rounded up to $1.50 (003's
    # $26 -> $30 -> $1.50). The house: -$26 + $1.50 + $50 = +$25.50
    ("section6-even", "1 to 1", 2600, 150, 2550),
])
def test_a_winning_base_wager_is_paid_at_the_profiles_reading_of_000_l_9(name, reading, win, vig, house):
    s = run(section6_house(name))
    assert s.profile == name and profile(name).rules.payout_reading == reading
    assert sorted(moves(s)) == sorted([("house", "seat 1", win), ("seat 1", "house", vig), ("seat 2", "house", 5000)])
    r = result(s, 1, "base")
    assert (r.win, r.commission, r.net) == (win, vig, win - vig)
    assert [m.reason for m in s.ledger if m.to == "seat 1"] == [f"wins {win // 2600} to 1"]
    assert s.as_json()["net_by_party"]["house"] == house


def test_a_round_file_for_section6_is_not_settled_as_section6_even():
    # the profile the round names is the reading played: one profile's round is refused by the other
    obj = section6_house("section6")
    p = profile("section6-even")
    with pytest.raises(RoundError, match=r"round.profile: the round is for 'section6', not 'section6-even'"):
        settle(parse_round(copy.deepcopy(obj), profile("section6").rules), p.rules, p.ranker(), p.house())


@pytest.mark.parametrize("name,cover,owed,vig", [
    # 000(m)(4)(ii): the bank's chips cover what the players' wagers would win: $30 at 2 to 1 is $60
    # as written, $30 at 1 to 1. The dealer's $20 wins $40 or $20 (000(m)(11),(14)); the player pays
    # 5% of the win (000(m)(15)): $3.00 or $1.50
    ("section6", 6000, 4000 + 6000, 300),
    ("section6-even", 3000, 2000 + 3000, 150),
])
def test_a_player_bank_covers_and_pays_at_the_profiles_odds(name, cover, owed, vig):
    with pytest.raises(RoundError) as e:
        run(dealer_beats_bank(name, 3000, cover - 1))
    assert str(e.value) == (f"banking.chips: the bank has {dollars(cover - 1)} but must cover {dollars(cover)} of "
                            "the players' wagers (000(m)(4)(ii))")
    s = run(dealer_beats_bank(name, 3000, cover))
    dealer_win = owed - cover
    assert moves(s) == [("seat 3", "center", owed), ("center", "house", dealer_win), ("center", "seat 1", cover),
                        ("seat 1", "house", vig)]
    assert result(s, 3, "bank").net == -owed
