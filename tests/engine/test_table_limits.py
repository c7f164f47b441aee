"""Each wager type's table minimum and maximum: the profile's, a table's overrides, refused rounds."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.engine.round import RoundError, parse_round
from app.engine.settle import settle
from app.engine.tablelimits import TableLimitsError
from app.rules.resources import names, profile

PITDESK = str(Path(sys.executable).with_name("pitdesk"))
CARDS = {"cards": "Ah Ad 8c 6d 4h Kc Jh", "high": "Ah Ad 8c 6d 4h", "low": "Kc Jh"}
OTHER = {"cards": "As Ac 8s 6s 4s Kd Jd", "high": "As Ac 8s 6s 4s", "low": "Kd Jd"}
DEALER = {"cards": "Ks Qd 9c 7h 5s 3d 2c"}


def house(name, wagers, **seat_extra):
    return {"profile": name, "banking": {"mode": "house"}, "dealer": dict(DEALER),
            "seats": [{"seat": 1, **CARDS, "wagers": wagers, **seat_extra}]}


def refusal(obj, limits=None) -> str:
    rules = profile(obj["profile"]).rules
    with pytest.raises(RoundError) as e:
        parse_round(copy.deepcopy(obj), rules, limits)
    return str(e.value)


def settles(obj, limits=None):
    p = profile(obj["profile"])
    return settle(parse_round(copy.deepcopy(obj), p.rules, limits), p.rules, p.ranker(), p.house())


# -- the profile's limits ----------------------------------------------------------------------
def test_a_ten_million_dollar_base_wager_is_refused():
    # a house-banked base wager has a maximum; the casino's is a default (003 names no figure)
    assert refusal(house("casino", {"base": 1_000_000_000})) == (
        "seat 1: base wager $10,000,000.00 is over the table maximum $5,000.00 (profile casino)")


def test_a_base_wager_under_the_minimum_is_refused_and_the_bounds_themselves_are_taken():
    assert refusal(house("casino", {"base": 499})) == (
        "seat 1: base wager $4.99 is under the table minimum $5.00 (profile casino)")
    assert settles(house("casino", {"base": 500})).results
    assert settles(house("casino", {"base": 500_000})).results


@pytest.mark.parametrize("name,wager,amount,message", [
    # 000(r)(2): "A bonus wager shall be no less than $1.00"
    ("section6", "fortune", 99, "seat 1: Fortune bonus wager $0.99 is under the table minimum $1.00 "
                                "(profile section6; 000(r)(2))"),
    # 003 GENERAL RULES 6: toke bets on the Fortune Bonus "up to the limit": $100.00 (003)
    ("casino", "fortune_toke", 10_001, "seat 1: Fortune toke bet $100.01 is over the table maximum $100.00 "
                                       "(profile casino; 003 Minimum and Maximum Wagers on the Bonus)"),
    ("nj", "seven_card", 10_001, "seat 1: seven-card bonus wager $100.01 is over the table maximum $100.00 "
                                 "(profile nj)"),
    ("face-up-ca", "ace_high", 50, "seat 1: Ace-High bonus wager $0.50 is under the table minimum $1.00 "
                                   "(profile face-up-ca)"),
])
def test_side_wagers_are_held_to_their_limits(name, wager, amount, message):
    obj = house(name, {"base": 1000, wager: amount})
    if name == "face-up-ca":
        obj = {"profile": name, "banking": {"mode": "player-dealer", "seat": 4, "wager": 5000, "action_seat": 1},
               "seats": [{"seat": 1, **CARDS, "wagers": {"base": 1000, wager: amount}},
                         {"seat": 4, "cards": "2s 3h 4c 5d 7s 9d Jc"}]}
    assert refusal(obj) == message


def test_additional_wagers_are_limited_number_by_number():
    obj = house("section6", {"base": 1000}, additional={"3": 500, "5": 50})
    obj["rng_number"] = 3
    assert refusal(obj) == ("seat 1: additional wager on 5 $0.50 is under the table minimum $1.00 "
                            "(profile section6)")


def test_face_up_base_maximum_is_the_fee_schedules_and_the_player_dealer_is_not_limited():
    # 002 COLLECTION PROCEDURES: one table limit with its fees; the schedule goes up to $500
    def game(base, pd_wager):
        return {"profile": "face-up-ca", "banking": {"mode": "player-dealer", "seat": 4, "wager": pd_wager,
                                                     "action_seat": 1},
                "seats": [{"seat": 1, **CARDS, "wagers": {"base": base}}, {"seat": 4, "cards": "2s 3h 4c 5d 7s 9d Jc"}]}
    assert refusal(game(50_001, 5000)) == ("seat 1: base wager $500.01 is over the table maximum $500.00 "
                                           "(profile face-up-ca)")
    assert settles(game(50_000, 10_000_000)).results  # the player-dealer's wager is no betting space's


def test_table_limits_apply_per_betting_circle():
    # 003 PLAYERS WAGERING ON ANOTHER PLAYER'S HAND 1-2: the others bet "up to the remaining balance
    # of the table limit": $4,000 + $1,000 is the $5,000 maximum, $4,000 + $1,000.01 is over it
    obj = house("casino", {"base": 400_000}, bettors=[{"name": "ann", "base": 100_000}])
    assert settles(obj).results
    obj["seats"][0]["bettors"][0]["base"] = 100_001
    assert refusal(obj) == ("seat 1: base wagers on the circle $5,000.01 are over the table maximum $5,000.00 "
                            "(profile casino; 003 PLAYERS WAGERING ON ANOTHER PLAYER'S HAND 1: table limits "
                            "apply per betting circle)")
    obj = house("casino", {"base": 1000}, bettors=[{"name": "ann", "base": 400}])
    assert refusal(obj) == ("seat 1 (bettor ann): base wager $4.00 is under the table minimum $5.00 "
                            "(profile casino)")


def test_the_table_maximum_applies_against_a_player_bank():
    # 003 PLAYER BANK 9: "The table maximum bet will apply on wagers between Player Banker and any player"
    obj = {"profile": "casino", "banking": {"mode": "player", "seat": 2, "chips": 10_000_000, "last_wager": 2000,
                                            "dealer_wager": 0},
           "dealer": dict(DEALER), "seats": [{"seat": 1, **CARDS, "wagers": {"base": 500_001}},
                                             {"seat": 2, **OTHER, "wagers": {}}]}
    assert refusal(obj).startswith("seat 1: base wager $5,000.01 is over the table maximum $5,000.00")


# -- a table's configuration over the profile's ------------------------------------------------------
def test_a_tables_configuration_overrides_the_profile():
    limits = profile("casino").rules.limits_for_table({"base": {"min": 2500, "max": 1_000_000}})
    assert settles(house("casino", {"base": 1_000_000}), limits).results
    assert refusal(house("casino", {"base": 1_000_001}), limits) == (
        "seat 1: base wager $10,000.01 is over the table maximum $10,000.00 (table configuration)")
    assert refusal(house("casino", {"base": 2000}), limits) == (
        "seat 1: base wager $20.00 is under the table minimum $25.00 (table configuration)")
    # the bound not overridden still names the profile's text
    assert refusal(house("casino", {"base": 2500, "fortune": 10_001}), limits).endswith(
        "(profile casino; 003 Minimum and Maximum Wagers on the Bonus)")


def test_a_table_may_tighten_a_limit_the_text_sets_but_never_loosen_it():
    rules = profile("casino").rules
    tighter = rules.limits_for_table({"fortune": {"max": 5000}})
    assert refusal(house("casino", {"base": 1000, "fortune": 5001}), tighter) == (
        "seat 1: Fortune bonus wager $50.01 is over the table maximum $50.00 (table configuration)")
    with pytest.raises(TableLimitsError, match=r"fortune.max: \$100.01 is over the maximum \$100.00 that 003 Minimum "
                                               r"and Maximum Wagers on the Bonus sets; a table may only lower it"):
        rules.limits_for_table({"fortune": {"max": 10_001}})
    with pytest.raises(TableLimitsError, match=r"fortune.min: \$0.50 is below the minimum \$1.00 that 000\(r\)\(2\)"):
        profile("section6").rules.limits_for_table({"fortune": {"min": 50}})


def test_a_table_chooses_the_five_dollar_progressive():
    # 000(q)(1): "either a $1.00 or $5.00 wager", at the casino's discretion
    rules = profile("section6").rules
    five = rules.limits_for_table({"progressive": {"min": 500}})
    obj = house("section6", {"base": 1000, "progressive": 100})
    obj["progressive_meter"] = 1_000_000
    assert refusal(obj, five) == ("seat 1: progressive wager $1.00 is under the table minimum $5.00 "
                                  "(table configuration)")
    with pytest.raises(TableLimitsError, match=r"000\(q\)\(1\) sets; a table may only lower it"):
        rules.limits_for_table({"progressive": {"max": 1000}})


def test_a_bonus_minimum_may_not_outgrow_the_per_player_payout_limit():
    # 000(s)(3): the limit must be at least what one player could win betting the minimum; at $5.00
    # the best line (8,000 to 1) wins exactly $40,000, at $5.01 it would win $40,080
    rules = profile("section6").rules
    rules.limits_for_table({"fortune": {"min": 500}})
    with pytest.raises(TableLimitsError, match=r"win \$40,080.00 .* per-player payout limit of \$40,000.00"):
        rules.limits_for_table({"fortune": {"min": 501}})


@pytest.mark.parametrize("overrides,message", [
    ({"insurance": {"max": 100}}, r"profile 'casino' has no 'insurance' wager to limit"),
    ({"base": {"min": 10_000, "max": 5000}}, r"base: the minimum \$100.00 is over the maximum \$50.00"),
    ({"base": {"max": 0}}, r"base.max: a positive whole number of cents, got 0"),
    ({"base": {"max": 10.5}}, r"base.max: a positive whole number of cents, got 10.5"),
    ({"base": {"most": 100}}, r"give 'min' and/or 'max' in cents"),
])
def test_bad_overrides_are_refused(overrides, message):
    with pytest.raises(TableLimitsError, match=message):
        profile("casino").rules.limits_for_table(overrides)


def test_limits_of_another_profile_are_refused():
    limits = profile("nj").rules.limits_for_table()
    with pytest.raises(RoundError, match="table limits are for profile 'nj', not 'casino'"):
        parse_round(house("casino", {"base": 1000}), profile("casino").rules, limits)


# -- the command and the examples -----------------------------------------------------------------
def test_pitdesk_settle_refuses_a_wager_over_the_maximum_with_exit_2(tmp_path):
    path = tmp_path / "round.json"
    path.write_text(json.dumps(house("casino", {"base": 1_000_000_000})))
    p = subprocess.run([PITDESK, "settle", str(path)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and p.stdout == ""  # nothing settled
    assert "seat 1: base wager $10,000,000.00 is over the table maximum $5,000.00 (profile casino)" in p.stderr


def test_every_profile_limits_the_base_wager_and_every_wager_it_offers():
    for n in names("rules"):
        rules = profile(n).rules
        limited = set(rules.limits_for_table().wagers)
        assert limited == {"base"} | set(rules.side_bets), n
