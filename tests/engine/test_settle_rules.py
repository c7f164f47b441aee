"""Settlement examples from the rule texts; every expected amount is worked out by hand."""

from __future__ import annotations

import copy

import pytest

from app.engine.profile import Commission
from app.engine.round import RoundError, parse_round
from app.engine.settle import settle
from app.rules.resources import profile

# The dealer's seven cards set by the house way as K-7-5-3-2 / Q-9 (003 NO PAIR).
DEALER = "Ks Qd 9c 7h 5s 3d 2c"


def run(obj):
    p = profile(obj["profile"])
    return settle(parse_round(copy.deepcopy(obj), p.rules), p.rules, p.ranker(), p.house())


def result(s, seat, wager):
    found = [r for r in s.results if r.seat == seat and r.wager == wager]
    assert len(found) == 1, (seat, wager, s.results)
    return found[0]


def seat(n, cards, high, low, **wagers):
    return {"seat": n, "cards": cards, "high": high, "low": low, "wagers": wagers}


def house_round(*seats, profile_name="casino", dealer=DEALER, **extra):
    return {"profile": profile_name, "banking": {"mode": "house"}, "dealer": {"cards": dealer},
            "seats": list(seats), **extra}


# -- commission ---------------------------------------------------------------------------
@pytest.mark.parametrize("win,expected,why", [
    (2600, 150, "003 COLLECTING 5: commission on $26 is charged as on $30: $1.50"),
    (2000, 100, "000(l)(9): five percent of $20"),
    (100, 25, "003 COLLECTING 4: minimum commission 25 cents"),
    (10100, 525, "000(l)(9): $5.05 rounded up to the next multiple of 25 cents"),
])
def test_commission(win, expected, why):
    assert Commission().on_win(win) == expected, why


def test_sd_commission_is_five_percent_to_the_cent():
    # 004(12): not more than ten percent; the sd profile takes 5% rounded up to the cent
    assert profile("sd").rules.commission.on_win(2600) == 130


# -- the base game ------------------------------------------------------------------------
def test_win_pays_even_money_less_commission():
    # 003 Clearing the Layout 1b; the dealer's K-7-5-3-2 / Q-9 against a pair of aces / K-J
    s = run(house_round(seat(1, "Ah Ad 8c 6d 4h Kc Jh", "Ah Ad 8c 6d 4h", "Kc Jh", base=2600)))
    r = result(s, 1, "base")
    assert (r.outcome, r.win, r.commission, r.net) == ("win", 2600, 150, 2450)


def test_section6_pays_two_to_one_as_written():
    # 000(l)(9): "paid off ... at odds of 2 to 1", vigorish five percent of the amount won
    s = run(house_round(seat(1, "Ah Ad 8c 6d 4h Kc Jh", "Ah Ad 8c 6d 4h", "Kc Jh", base=2000),
                        profile_name="section6"))
    r = result(s, 1, "base")
    assert (r.win, r.commission, r.net) == (4000, 200, 3800)


def test_copy_hands_go_to_the_banker():
    # 000(l)(6)(ii): a copy of the dealer's K-7-5-3-2 and a copy of its Q-9: the wager loses
    s = run(house_round(seat(1, "Kh 7d 5h 3c 2d Qh 9d", "Kh 7d 5h 3c 2d", "Qh 9d", base=1000)))
    assert result(s, 1, "base").outcome == "lose"
    assert [(m.frm, m.to, m.cents) for m in s.ledger] == [("seat 1", "house", 1000)]


def test_copy_high_and_higher_low_is_a_push():
    # 000(l)(7)(ii): the high hand a copy, the low hand Q-T above the dealer's Q-9
    s = run(house_round(seat(1, "Kh 7d 5h 3c 2d Qh Tc", "Kh 7d 5h 3c 2d", "Qh Tc", base=1000)))
    assert result(s, 1, "base").outcome == "push"


def test_higher_high_and_copy_low_is_a_push():
    # 000(l)(7)(i): high A-7-5-3-2 above K-7-5-3-2, low Q-9 a copy of the dealer's Q-9
    s = run(house_round(seat(1, "Ah 7d 5h 3c 2d Qh 9d", "Ah 7d 5h 3c 2d", "Qh 9d", base=1000)))
    assert result(s, 1, "base").outcome == "push"
    assert s.ledger == []


FOUL = seat(1, "Ah Ad 7c 6d 4s 3h 2h", "7c 6d 4s 3h 2h", "Ah Ad", base=1000)  # aces in front: a foul


def test_foul_loses():
    # 000(l)(6)(iii), 003 DEALER BANK 5: a low hand above the high hand is an automatic loser
    s = run(house_round(copy.deepcopy(FOUL)))
    assert result(s, 1, "base").outcome == "lose"


def test_foul_is_reset_by_the_house_way_in_south_dakota():
    # 004(5): reset to A-A-4-3-2 / 7-6: high beats K-7-5-3-2, low 7-6 below Q-9: a push
    s = run(house_round(copy.deepcopy(FOUL), profile_name="sd"))
    assert result(s, 1, "base").outcome == "push"
    assert any("004(5)" in n for n in s.notes)


def test_surrender_forfeits_the_wager():
    # 000(l)(4), 001 11.9(e)
    obj = house_round(dict(seat(1, "Ah Ad 8c 6d 4h Kc Jh", "Ah Ad 8c 6d 4h", "Kc Jh", base=2000), surrender=True))
    s = run(obj)
    assert [(m.frm, m.to, m.cents) for m in s.ledger] == [("seat 1", "house", 2000)]


def test_surrender_returns_half_in_south_dakota():
    # 004(9): half to the rack, half back to the player (an odd cent stays with the rack)
    obj = house_round(dict(seat(1, "Ah Ad 8c 6d 4h Kc Jh", "Ah Ad 8c 6d 4h", "Kc Jh", base=2001), surrender=True),
                      profile_name="sd")
    s = run(obj)
    assert result(s, 1, "base").net == -1001


def test_no_surrender_with_a_progressive_wager():
    obj = house_round(dict(seat(1, "Ah Ad 8c 6d 4h Kc Jh", "Ah Ad 8c 6d 4h", "Kc Jh", base=2000, progressive=100),
                           surrender=True), profile_name="section6", progressive_meter=1_000_000)
    with pytest.raises(RoundError, match=r"progressive wager at stake \(000\(l\)\(4\)"):
        run(obj)


# -- the 003 aggregate limit, the worked example ------------------------------------------
def test_003_aggregate_limit_worked_example_to_the_cent():
    # Player A bets $20 and hits a 7 card straight flush (no joker): $160,000; player B bets $10
    # and hits five aces: $4,000. Envy first: A gets $250 for B's five aces, B $5,000 for A's
    # straight flush; $69,750 is left, shared 97.56% / 2.44%: $68,048.78 and $1,701.22.
    a = seat(1, "2s 3s 4s 5s 6s 7s 8s", "4s 5s 6s 7s 8s", "2s 3s", base=1000, fortune=2000)
    b = seat(2, "As Ah Ad Ac Jk 9h 9d", "As Ah Ad Ac Jk", "9h 9d", base=1000, fortune=1000)
    s = run(house_round(a, b, dealer="Kc Qh Jd Tc 8c 6d 3c"))
    assert result(s, 1, "fortune").win == 6_804_878
    assert result(s, 2, "fortune").win == 170_122
    assert result(s, 1, "envy of seat 2").win == 25_000
    assert result(s, 2, "envy of seat 1").win == 500_000
    assert result(s, 1, "fortune").win + result(s, 2, "fortune").win + 525_000 == 7_500_000
    (work,) = s.limits
    assert work["envy_first"] == 525_000 and work["shared"] == 6_975_000 and work["before"] == 16_400_000
    assert any(a.kind == "aggregate_limit" and a.role == "pit manager" for a in s.approvals)


def test_per_player_limit_of_section6():
    # 000(s)(3): $40,000 a round; a $10 bonus wager on a natural seven-card straight flush
    # would win 8,000 to 1 = $80,000
    a = seat(1, "2s 3s 4s 5s 6s 7s 8s", "4s 5s 6s 7s 8s", "2s 3s", base=1000, fortune=1000)
    s = run(house_round(a, profile_name="section6", dealer="Kc Qh Jd Tc 8c 6d 3c"))
    assert result(s, 1, "fortune").win == 4_000_000
    assert s.limits[0]["before"] == 8_000_000


# -- envy -----------------------------------------------------------------------------------
QUADS = seat(2, "8c 8d 8h 8s Kd 4c 2h", "8c 8d 8h 8s 2h", "Kd 4c", base=1000)  # four of a kind, no bonus wager
ENVIER = seat(1, "Ah Ad 9c 6d 4h Kc Jh", "Ah Ad 9c 6d 4h", "Kc Jh", base=1000, fortune=500)


def test_envy_for_another_players_hand_even_without_a_bonus_wager():
    # 003 GENERAL RULES 3; 000(s)(2): four of a kind, $5
    s = run(house_round(copy.deepcopy(ENVIER), copy.deepcopy(QUADS), dealer="Ks Qd 9s 7h 5s 3d 2c"))
    assert result(s, 1, "envy of seat 2").win == 500


def test_no_envy_for_the_dealers_hand_or_ones_own():
    # 000(a)(1)(v): not for his or her own cards or the cards of the dealer
    own = seat(1, "8c 8d 8h 8s Kd 4c 2h", "8c 8d 8h 8s 2h", "Kd 4c", base=1000, fortune=500)
    s = run(house_round(own, dealer="As Ah Ad Ac 9s 7h 5d"))
    assert not [r for r in s.results if r.wager.startswith("envy")]


def test_envy_needs_five_dollars():
    # 000(r)(3): a bonus wager of at least $5.00 qualifies
    small = dict(copy.deepcopy(ENVIER), wagers={"base": 1000, "fortune": 400})
    s = run(house_round(small, copy.deepcopy(QUADS), dealer="Ks Qd 9s 7h 5s 3d 2c"))
    assert not [r for r in s.results if r.wager.startswith("envy")]


def test_toke_bet_pays_at_most_500_and_earns_no_envy():
    # 003 GENERAL RULES 6, 7: a $100 toke bet on four of a kind would pay 25 to 1 = $2,500
    toke = seat(1, "8c 8d 8h 8s Kd 4c 2h", "8c 8d 8h 8s 2h", "Kd 4c", base=1000, fortune_toke=10000)
    other = seat(2, "9c 9d 9h 9s Qd 5c 3h", "9c 9d 9h 9s 3h", "Qd 5c", base=1000)
    s = run(house_round(toke, other, dealer="Ks Qs Js 7h 5s 3d 2c"))
    r = result(s, 1, "fortune_toke")
    assert r.win == 50_000 and r.net == -10_000
    assert any(m.to == "tokes" and m.cents == 50_000 for m in s.ledger)
    assert not [r for r in s.results if r.wager.startswith("envy")]


# -- progressive ----------------------------------------------------------------------------
def test_progressive_meter_rises_then_pays_in_settlement_order_and_resets():
    # 000(q)(5): the meter rises 21% of $1 and 27% of $5; (q)(7): paid at the meter when paid;
    # natural royal flush and pair pays 100% of the meter; (q)(6): reset to at least $10,000.
    royal = seat(1, "As Ks Qs Js Ts 9h 9d", "As Ks Qs Js Ts", "9h 9d", base=1000, progressive=100)
    quads = seat(2, "7c 7d 7h 7s 2c 2d Kh", "7c 7d 7h 7s Kh", "2c 2d", base=1000, progressive=500)
    s = run(house_round(royal, quads, profile_name="section6", dealer="Kc Qh Jd Tc 8c 6d 3c",
                        progressive_meter=1_000_000))
    assert result(s, 1, "progressive").win == 1_000_000 + 21 + 135
    # four of a kind and pair on $5 pays $200: less than $250, from the table inventory
    assert result(s, 2, "progressive").win == 20_000
    assert any(m.frm == "house" and m.to == "seat 2" and m.wager == "progressive" for m in s.ledger)
    assert s.meter_after == 1_000_000
    kinds = [(a.kind, a.seat) for a in s.approvals]
    assert ("progressive_meter_payout", 1) in kinds and ("progressive_meter_payout", 2) not in kinds


def test_straight_flush_comes_off_the_meter():
    # 000(q)(5): any payout for a straight flush is deducted from the meter
    sf = seat(1, "5h 6h 7h 8h 9h 2c 3d", "5h 6h 7h 8h 9h", "2c 3d", base=1000, progressive=100)
    s = run(house_round(sf, profile_name="section6", dealer="Kc Qh Jd Tc 8c 6d 3c", progressive_meter=2_000_000))
    assert result(s, 1, "progressive").win == 2_500
    assert s.meter_after == 2_000_000 + 21 - 2_500


# -- the additional wager -------------------------------------------------------------------
def test_additional_wager_pays_five_and_a_half_to_one_rounded_down_to_the_dollar():
    # 000(p)(2)(vi): $5 at 5 1/2 to 1 is $27.50, paid $27; the $10 on another number loses
    st = dict(seat(1, "Ah Ad 8c 6d 4h Kc Jh", "Ah Ad 8c 6d 4h", "Kc Jh", base=1000), additional={"3": 500, "5": 1000})
    s = run(house_round(st, profile_name="section6", rng_number=3))
    assert result(s, 1, "additional 3").win == 2700
    assert result(s, 1, "additional 5").net == -1000


# -- player bank and co-bank ------------------------------------------------------------------
BANK = seat(3, "Qs Qd 9h 7c 5s 3d 2h", "Qs Qd 7c 5s 3d", "9h 2h")
WINNER = "Ks Kd Ah Jc 8d 6s 4c", "Ks Kd 8d 6s 4c", "Ah Jc"     # beats the bank both ways
LOSER = "Jh Td 8c 6h 4d 3s 2s", "Jh Td 8c 6h 4d", "3s 2s"      # loses both ways


def banked(mode, win_stake, lose_stake, chips=100_000, **banking):
    banking.setdefault("last_wager", 2000)
    if mode == "player":
        banking.setdefault("dealer_wager", 0)
    return {"profile": "casino", "banking": {"mode": mode, "seat": 3, "chips": chips, **banking},
            "dealer": {"cards": "Ac Kh 9s 7d 5c 4s Th"},
            "seats": [seat(1, *WINNER, base=win_stake), seat(2, *LOSER, base=lose_stake), copy.deepcopy(BANK)]}


def moves(s):
    return [(m.frm, m.to, m.cents) for m in s.ledger]


def test_player_bank_makes_up_a_shortfall():
    # 000(m)(12): losing wagers to the center, winners paid from it, the bank makes up the rest;
    # 000(m)(15): the winner pays vigorish
    s = run(banked("player", 2000, 1000))
    assert moves(s) == [("seat 2", "center", 1000), ("seat 3", "center", 1000), ("center", "seat 1", 2000),
                        ("seat 1", "house", 100)]
    assert result(s, 3, "bank").net == -1000


def test_player_bank_pays_vigorish_on_its_surplus():
    # 000(m)(12): the surplus is charged five percent: $10.00 -> 50 cents, $9.50 to the bank
    s = run(banked("player", 1000, 2000))
    assert moves(s)[-2:] == [("center", "house", 50), ("center", "seat 3", 950)]


def test_co_bank_shortfall_is_shared_by_halves():
    # 000(m)(13): one-half from the co-bank, one-half from the table inventory
    s = run(banked("co-bank", 2000, 1000))
    assert ("seat 3", "center", 500) in moves(s) and ("house", "center", 500) in moves(s)


def test_co_bank_surplus_half_to_the_house_vig_on_its_half():
    # 000(m)(13), 003 #16e: $10 surplus: $5 to the house; 5% of the co-bank's $5 is 25 cents
    s = run(banked("co-bank", 1000, 2000))
    assert moves(s)[-3:] == [("center", "house", 500), ("center", "house", 25), ("center", "seat 3", 475)]


def test_dealer_wager_against_the_bank_is_settled_first():
    # 000(m)(11): the dealer's J-5-4-3-2 / 8-7 loses to the bank's Q-Q-7-5-3 / 9-2: to the center
    obj = banked("player", 1000, 2000, dealer_wager=2000, last_wager=2000)
    obj["dealer"] = {"cards": "Js 8s 7h 5h 4s 3h 2d"}
    s = run(obj)
    assert moves(s)[0] == ("house", "center", 2000)


def test_lucky_money_at_most_ten_percent_more():
    # 003 PLAYER BANK 7: up to 10% higher than the bank's last wager
    run(banked("player", 1000, 2000, dealer_wager=2200, last_wager=2000))
    with pytest.raises(RoundError, match="Lucky Money"):
        run(banked("player", 1000, 2000, dealer_wager=2201, last_wager=2000))


def test_lucky_money_or_prepaid_commission_not_both():
    # 003 PLAYER BANK 7
    run(banked("player", 1000, 2000, dealer_wager=2000, last_wager=2000, dealer_prepaid_commission=100))
    with pytest.raises(RoundError, match="Lucky Money or prepaid commission, not both"):
        run(banked("player", 1000, 2000, dealer_wager=2200, last_wager=2000, dealer_prepaid_commission=100))


def test_bank_that_cannot_cover_is_refused():
    # 003 PLAYER BANK 3: a $10 and a $20 wager at even money: $30.00 to cover
    with pytest.raises(RoundError, match=r"has \$29.99 but must cover \$30.00 of wagers \(003 PLAYER BANK 3, 7\)"):
        run(banked("player", 1000, 2000, chips=2999))


def test_supervisor_ruling_lets_an_uncovered_bank_proceed_and_it_owes_everything():
    # 003 PLAYER BANK 3: the Floor Supervisor makes the final determination; the Important Note:
    # the Player Banker is still responsible for all outcomes. Seat 1 wins $20 on $20, seat 2
    # loses $10: the bank makes up the $10 shortfall though it showed only $5 of chips.
    s = run(banked("player", 2000, 1000, chips=500, cover_ruling=True))
    assert ("seat 3", "center", 1000) in moves(s)
    assert result(s, 3, "bank").net == -1000
    assert sum(r.net for r in s.results if r.seat in (1, 2, 3) and r.wager in ("base", "bank")) == \
        -sum(m.cents for m in s.ledger if m.to == "house")


@pytest.mark.parametrize("name", ["section6", "nj"])
def test_cover_ruling_only_where_the_profile_has_it(name):
    # 000(m)(4)(ii) and 001 11.10: no supervisor's ruling, the chips must cover every wager
    obj = banked("player", 1000, 2000, chips=2999, cover_ruling=True)
    obj["profile"] = name
    with pytest.raises(RoundError, match=rf"banking.cover_ruling: profile '{name}' has no supervisor's ruling"):
        run(obj)


def test_cover_ruling_is_true_or_false():
    with pytest.raises(RoundError, match=r"banking.cover_ruling: true or false, got 'yes'"):
        run(banked("player", 1000, 2000, cover_ruling="yes"))
    with pytest.raises(RoundError, match=r"banking.banked_last_round: true or false, got 1"):
        run(banked("player", 1000, 2000, banked_last_round=1))


def test_no_player_banks_two_rounds_in_a_row():
    # 003 PLAYER BANK 1-2 (a casino round; 000(m)(3) for a section6 one): no player banks two
    # consecutive rounds, each cited from the table's own text (issue 33)
    with pytest.raises(RoundError, match=r"two consecutive rounds \(003 PLAYER BANK PROCEDURES 1, 2\)"):
        run(banked("player", 1000, 2000, banked_last_round=True))
    with pytest.raises(RoundError, match=r"two consecutive rounds \(000\(m\)\(3\)\)"):
        run({**banked("player", 1000, 2000, banked_last_round=True), "profile": "section6"})


def test_bank_must_have_wagered_in_the_last_unbanked_round():
    # 000(m)(4)(i)
    with pytest.raises(RoundError, match=r"000\(m\)\(4\)\(i\)"):
        run(banked("co-bank", 1000, 2000, last_wager=0))


def test_bank_foul_is_reset_by_the_house_way():
    # 000(n)(10), 003 IMPORTANT NOTES 1: the bank cannot set an automatic loser
    obj = banked("player", 1000, 2000)
    obj["seats"][2] = seat(3, "Qs Qd 9h 7c 5s 3d 2h", "9h 7c 5s 3d 2h", "Qs Qd")
    s = run(obj)
    assert any("000(n)(10)" in n for n in s.notes)


# -- multi-bets -------------------------------------------------------------------------------
def test_each_bettor_on_a_circle_pays_its_own_commission():
    # 003 PLAYERS WAGERING ON ANOTHER PLAYER'S HAND 3, 5
    st = dict(seat(1, "Ah Ad 8c 6d 4h Kc Jh", "Ah Ad 8c 6d 4h", "Kc Jh", base=2000),
              bettors=[{"name": "ann", "base": 2600}, {"name": "bo", "base": 500}])
    s = run(house_round(st))
    by = {r.bettor: r for r in s.results if r.wager == "base"}
    assert (by[None].commission, by["ann"].commission, by["bo"].commission) == (100, 150, 25)
    assert ("seat 1/ann", "house", 150) in moves(s)


# -- Face Up (002) -----------------------------------------------------------------------------
def face_up(pd_cards, players, wager=100_000, action=3, pd_seat=4):
    return {"profile": "face-up-ca", "banking": {"mode": "player-dealer", "seat": pd_seat, "wager": wager,
                                                 "action_seat": action},
            "seats": players + [{"seat": pd_seat, "cards": pd_cards}]}


def test_dealer_ace_high_pushes_every_base_wager_and_pays_ace_high_bonus():
    # 002: the player-dealer's seven-card ace-high hand; the Ace-High bonus pays 40:1 when the
    # player's hand is ace-high too, 5:1 on the player-dealer's natural ace-high alone
    both = seat(3, "Ah Qd Tc 8h 6s 4d 3h", "Ah Tc 8h 6s 4d", "Qd 3h", base=1000, ace_high=1000)
    alone = seat(2, "Kc Kh 9d 9h 2s 2d 4c", "Kc Kh 9d 9h 4c", "2s 2d", base=1000, ace_high=1000)
    s = run(face_up("As Jd 9c 7h 5s 3d 2c", [both, alone]))
    assert result(s, 3, "base").outcome == "push" and result(s, 2, "base").outcome == "push"
    assert result(s, 3, "ace_high").win == 40_000
    assert result(s, 2, "ace_high").win == 5_000


def test_player_dealer_pays_only_up_to_its_wager_then_returns_the_rest():
    # 002 TYPE OF GAME: a $50 player-dealer; three $40 winners, clockwise from the action
    # button at seat 3: seat 3 is paid $40, seat 2 $10, seat 1's wager is returned
    players = [seat(1, "As Ad Kc Qh 8s 6c Th", "As Ad 8s 6c Th", "Kc Qh", base=4000),
               seat(2, "Ah Ac Ks Qd 8h 6d Tc", "Ah Ac 8h 6d Tc", "Ks Qd", base=4000),
               seat(3, "Kd Kh Qs Jd 8c 6h Ts", "Kd Kh 8c 6h Ts", "Qs Jd", base=4000)]
    s = run(face_up("2s 3h 4c 5d 7s 9d Jc", players, wager=5000))
    assert result(s, 3, "base").win == 4000
    assert result(s, 2, "base").win == 1000
    assert result(s, 1, "base").outcome == "returned"
    assert result(s, 4, "player-dealer").net == -5000
    # 002 COLLECTION PROCEDURES: the posted fee ($2 for wagers up to $100) from every seat
    assert [m.cents for m in s.ledger if m.wager == "collection fee"] == [200, 200, 200, 200]


# -- bad rounds ---------------------------------------------------------------------------------
GOOD = house_round(seat(1, "Ah Ad 8c 6d 4h Kc Jh", "Ah Ad 8c 6d 4h", "Kc Jh", base=1000))


@pytest.mark.parametrize("change,message", [
    (lambda o: o["seats"][0].update(cards="Ks Ad 8c 6d 4h Kc Jh", high="Ks Ad 8c 6d 4h"),
     "card Ks is dealt to both dealer and seat 1"),
    (lambda o: o["seats"][0].update(cards="Ah Ad 8c 6d 4h Kc"), r"seats\[0\].cards: expected 7 cards, got 6"),
    (lambda o: o["seats"][0]["wagers"].update(insurance=500), "does not offer this wager"),
    (lambda o: o["seats"][0].pop("high"), "give both 'high' and 'low'"),
    (lambda o: (o["seats"][0].pop("high"), o["seats"][0].pop("low")), "high and low hands are required"),
    (lambda o: o["seats"][0]["wagers"].update(base=10.5), "amounts are whole cents, got 10.5"),
    (lambda o: o["banking"].update(mode="player-dealer"), "is not allowed by profile 'casino'"),
    (lambda o: o["seats"][0].update(seat=9), r"seats\[0\].seat: must be 1..6"),
    (lambda o: o["seats"][0].update(bettors=[{"name": str(i), "base": 500} for i in range(4)]),
     "at most 4 bettors on one circle"),
    (lambda o: o["seats"][0].update(colour="red"), "unknown field 'colour'"),
])
def test_bad_rounds_are_refused_with_the_field_named(change, message):
    obj = copy.deepcopy(GOOD)
    change(obj)
    with pytest.raises(RoundError, match=message):
        run(obj)


def test_a_round_for_another_profile_is_refused():
    obj = copy.deepcopy(GOOD)
    obj["profile"] = "nj"
    with pytest.raises(RoundError, match="the round is for 'nj', not 'casino'"):
        parse_round(obj, profile("casino").rules)


def test_two_areas_must_be_adjacent():
    # 000(o)(1): no more than two betting areas, adjacent
    a = dict(seat(1, "Ah Ad 8c 6d 4h Kc Jh", "Ah Ad 8c 6d 4h", "Kc Jh", base=1000), player="pat")
    b = dict(seat(3, "As Ac 8s 6s 4s Kd Jd", "As Ac 8s 6s 4s", "Kd Jd", base=1000), player="pat")
    with pytest.raises(RoundError, match="must be adjacent"):
        run(house_round(a, b, profile_name="section6"))


# -- New Jersey's own wagers ------------------------------------------------------------------
def test_nj_insurance_three_card_and_seven_card():
    # 001 11.16(c) table A: nine-high pai gow 400 to 1; 11.18(b): 2-3-4 a three-card straight 4 to 1;
    # the first three A-A-A are three of a kind 25 to 1; 11.18(c) table A: A-A-A-J-J a full house 5 to 1
    one = seat(1, "2s 3h 4d 5c 7s 8h 9d", "9d 5c 4d 3h 2s", "8h 7s", base=1000, insurance=500, three_card=500,
               seven_card=500)
    two = seat(2, "Ah Ad As 9s Jh Jc 4h", "As Ad Ah 9s 4h", "Jh Jc", base=2000, three_card=500, seven_card=1000)
    s = run(house_round(one, two, profile_name="nj", dealer="Kc Qh Jd Tc 8c 6d 3c"))
    assert result(s, 1, "insurance").win == 200_000
    assert result(s, 1, "three_card").win == 2_000
    assert result(s, 1, "seven_card").outcome == "lose"
    assert result(s, 2, "three_card").win == 12_500
    assert result(s, 2, "seven_card").win == 5_000


def test_per_player_limit_adds_up_two_adjacent_seats():
    # 000(o)(1), (s)(3): one player on seats 1 and 2; $5 on a natural seven-card straight flush
    # ($40,000) and $100 on four of a kind ($2,500) exceed $40,000: shared 4,000,000 : 250,000,
    # rounded down (3,764,705 and 235,294) with the cent left over to the larger remainder
    a = dict(seat(1, "2s 3s 4s 5s 6s 7s 8s", "4s 5s 6s 7s 8s", "2s 3s", base=1000, fortune=500), player="pat")
    b = dict(seat(2, "9c 9d 9h 9s Kd 4c 2h", "9c 9d 9h 9s 2h", "Kd 4c", base=1000, fortune=10000), player="pat")
    s = run(house_round(a, b, profile_name="section6", dealer="Kc Qh Jd Tc 8c 6d 3c"))
    assert result(s, 1, "fortune").win == 3_764_706
    assert result(s, 2, "fortune").win == 235_294
    # 000(a)(1)(v): the other seat's hand is the player's own cards: no envy either way
    assert not [r for r in s.results if r.wager.startswith("envy")]


# -- from the review against the texts ---------------------------------------------------------
def test_exhausted_player_dealer_returns_every_later_wager():
    # 002 TYPE OF GAME: "Once the player-dealer's wager has been exhausted, the wagers not covered
    # by the player-dealer shall be returned": a $50 player-dealer pays seat 3 (the action seat)
    # $50 of its $100 win and is exhausted; seat 2's losing $100 is returned, not collected
    players = [seat(2, "Th 8h 6s 4d 3d 7c 2h", "Th 8h 6s 4d 3d", "7c 2h", base=10000),
               seat(3, "Kd Kh Qs Jd 8c 6h Ts", "Kd Kh 8c 6h Ts", "Qs Jd", base=10000)]
    s = run(face_up("2s 3h 4c 5d 7s 9d Jc", players, wager=5000))
    assert result(s, 3, "base").win == 5000
    assert result(s, 2, "base").outcome == "returned" and result(s, 2, "base").net == 0
    assert result(s, 4, "player-dealer").net == -5000


def test_south_dakota_ties_push():
    # 004(7): "If either of the dealer's hand results in a tie or loss to a player, the player
    # receives a push"; the player loses only when both dealer hands are superior
    dealer = "9h 9d 5c 4s 3h Kd Qc"           # set by the house way: 9-9-5-4-3 / K-Q
    tie_high = seat(1, "9s 9c 5d 4c 3s Jh Tc", "9s 9c 5d 4c 3s", "Jh Tc", base=1000)   # copy high, lower low
    s = run(house_round(tie_high, profile_name="sd", dealer=dealer))
    assert result(s, 1, "base").outcome == "push" and result(s, 1, "base").rule == "004(7)"
    s = run(house_round(tie_high, dealer=dealer))  # 003: the banker wins absolute ties
    assert result(s, 1, "base").outcome == "lose"


def test_surrender_keeps_the_three_card_bonus_and_refuses_seven_card_wagers():
    # 000(l)(4): only the base wager is surrendered; 001 11.17(f): the three-card bonus is
    # settled on the first three cards before the rest are dealt; the seven cards of a
    # surrender are collected unseen, so no insurance or seven-card wager may be at stake
    st = dict(seat(1, "2s 3h 4d 5c 7s 8h 9d", "9d 5c 4d 3h 2s", "8h 7s", base=1000, three_card=500),
              surrender=True)
    s = run(house_round(st, profile_name="nj", dealer="Kc Qh Jd Tc 8c 6d 3c"))
    assert result(s, 1, "base").net == -1000
    assert result(s, 1, "three_card").win == 2000   # 2-3-4, a three-card straight, 4 to 1
    st["wagers"]["insurance"] = 500
    with pytest.raises(RoundError, match="insurance wager at stake"):
        run(house_round(st, profile_name="nj", dealer="Kc Qh Jd Tc 8c 6d 3c"))


def test_no_surrender_while_an_envy_bet_is_on_the_game():
    # 003 GENERAL RULES 12: with envy bets on the game all hands receive action
    sur = dict(seat(1, "Ah Ad 8c 6d 4h Kc Jh", "Ah Ad 8c 6d 4h", "Kc Jh", base=1000), surrender=True)
    other = seat(2, "As Ac 8s 6s 4s Kd Jd", "As Ac 8s 6s 4s", "Kd Jd", base=1000, fortune=500)
    with pytest.raises(RoundError, match="every hand receives action"):
        run(house_round(sur, other))


def test_surrender_against_a_player_bank_goes_to_the_center():
    # 000(m)(12): collected wagers go to the center of the layout, for the bank
    obj = banked("player", 1000, 2000)
    obj["seats"][1]["surrender"] = True
    s = run(obj)
    assert ("seat 2", "center", 2000) in moves(s)
    assert result(s, 3, "bank").net == 1000 - 50   # 2000 surrendered - 1000 paid, less 50 vig


def test_per_player_limit_counts_envy():
    # 000(s)(3): "Notwithstanding ... the fixed bonus amount required in (s)(2)": a $5 bonus on a
    # natural seven-card straight flush ($40,000) plus $5 envy for another's four of a kind is
    # limited to $40,000 in all
    a = seat(1, "2s 3s 4s 5s 6s 7s 8s", "4s 5s 6s 7s 8s", "2s 3s", base=1000, fortune=500)
    b = seat(2, "9c 9d 9h 9s Kd 4c 2h", "9c 9d 9h 9s 2h", "Kd 4c", base=1000)
    s = run(house_round(a, b, profile_name="section6", dealer="Kc Qh Jd Tc 8c 6d 3c"))
    assert result(s, 1, "fortune").win + result(s, 1, "envy of seat 2").win == 4_000_000


def test_toke_payouts_count_in_the_003_table_limit():
    a = seat(1, "2s 3s 4s 5s 6s 7s 8s", "4s 5s 6s 7s 8s", "2s 3s", base=1000, fortune=1000, fortune_toke=100)
    s = run(house_round(a, dealer="Kc Qh Jd Tc 8c 6d 3c"))
    paid = result(s, 1, "fortune").win + result(s, 1, "fortune_toke").win
    assert paid == 7_500_000


def test_meter_resets_only_after_the_whole_meter_is_paid():
    # 000(q)(6): the reset amount follows the top award; a 10% award just comes off the meter
    five = seat(1, "As Ah Ad Ac Jk 9h 2d", "As Ah Ad Ac Jk", "9h 2d", base=1000, progressive=100)
    s = run(house_round(five, profile_name="section6", dealer="Kc Qh Jd Tc 8c 6d 3c", progressive_meter=1_000_000))
    assert result(s, 1, "progressive").win == 100_002   # 10% of $10,000.21
    assert s.meter_after == 1_000_021 - 100_002


def test_bettors_on_the_banks_circle_and_too_many_circles_are_refused():
    obj = banked("player", 1000, 2000)
    obj["seats"][2]["bettors"] = [{"name": "ann", "base": 1000}]
    with pytest.raises(RoundError, match="nobody wagers on the bank's circle"):
        run(obj)
    # 003 DEALER BANK 15: a player without a hand bets on at most two other hands
    seats = [dict(seat(1, "Ah Ad 8c 6d 4h Kc Jh", "Ah Ad 8c 6d 4h", "Kc Jh", base=1000),
                  bettors=[{"name": "zoe", "base": 500}]),
             dict(seat(2, "As Ac 8s 6s 4s Kd Jd", "As Ac 8s 6s 4s", "Kd Jd", base=1000),
                  bettors=[{"name": "zoe", "base": 500}]),
             dict(seat(4, "Qh Qc 7c 6c 5d 3c 2d", "Qh Qc 7c 6c 5d", "3c 2d", base=1000),
                  bettors=[{"name": "zoe", "base": 500}])]
    with pytest.raises(RoundError, match="at most 2 other hand"):
        run(house_round(*seats, dealer="Jc Tc 9h 8h 4c 3s 2h"))


def test_the_dealers_wager_must_be_stated_and_no_bank_at_the_start():
    obj = banked("player", 1000, 2000)
    del obj["banking"]["dealer_wager"]
    with pytest.raises(RoundError, match=r"000\(m\)\(7\)"):
        run(obj)
    obj = banked("co-bank", 1000, 2000)
    obj["first_round_of_game"] = True
    # the profile's own rule: casino's 003 PLAYER BANK 1 (000(m)(2) and 001 11.10(b) elsewhere)
    with pytest.raises(RoundError, match=r"start of the game \(003 PLAYER BANK 1\)"):
        run(obj)


def test_co_bank_needs_no_dealer_hand():
    # 003 #16b: the house does not take a hand
    obj = banked("co-bank", 1000, 2000)
    del obj["dealer"]
    assert run(obj).banking == "co-bank"


def test_003_fortune_maximum():
    # 003 Minimum and Maximum Wagers on the Bonus: Maximum Wager $100.00
    st = seat(1, "Ah Ad 8c 6d 4h Kc Jh", "Ah Ad 8c 6d 4h", "Kc Jh", base=1000, fortune=10001)
    with pytest.raises(RoundError) as e:
        run(house_round(st))
    assert str(e.value) == ("seat 1: Fortune bonus wager $100.01 is over the table maximum $100.00 "
                            "(profile casino; 003 Minimum and Maximum Wagers on the Bonus)")


def test_house_ledger_runs_seat_by_seat():
    # 000(l)(8),(9): each seat's base wager, then its other wagers, then the next seat; 003 RULES
    # OF PLAY 9 settles the Fortune bonus before the hand
    a = seat(1, "Ah Ad 8c 6d 4h Kc Jh", "Ah Ad 8c 6d 4h", "Kc Jh", base=1000, fortune=500)
    b = seat(2, "As Ac 8s 6s 4s Kd Jd", "As Ac 8s 6s 4s", "Kd Jd", base=1000, fortune=500)
    s = run(house_round(a, b, dealer="Qs Tc 9h 7d 5c 3s 2h"))
    assert [(m.seat, m.wager) for m in s.ledger] == [(1, "fortune"), (1, "base"), (1, "base"),
                                                     (2, "fortune"), (2, "base"), (2, "base")]
    s = run(house_round(a, b, profile_name="section6", dealer="Qs Tc 9h 7d 5c 3s 2h"))
    assert [m.seat for m in s.ledger] == [1, 1, 1, 2, 2, 2]
    assert [m.wager for m in s.ledger][:3] == ["base", "base", "fortune"]


def test_the_bank_banks_on_the_spot_it_last_wagered():
    # 003 PLAYER BANK 4
    with pytest.raises(RoundError, match=r"003 PLAYER BANK 4"):
        run(banked("player", 1000, 2000, last_wager_seat=2))
    run(banked("player", 1000, 2000, last_wager_seat=3))
