"""Rule profiles, pay tables and house ways are validated on load; a bad file names file, key, value."""

import shutil

import pytest

from app.rules import resources
from app.rules.resources import (ResourceError, load_house_way_file, load_paytable_file, load_profile_file, names,
                           paytable, profile)


def test_every_shipped_file_loads():
    assert names("rules") == ["casino", "face-up-ca", "nj", "sd", "section6", "section6-even"]
    for n in names("rules"):
        profile(n)
    for n in names("paytables"):
        assert paytable(n).citation
    for n in names("houseways"):
        resources.house_way_table(n)


def test_profile_wheel_settings_cite_their_texts():
    # 003 IMPORTANT NOTES 2, 001 11.3(b), 004(1): second highest; 002: lowest
    assert {n: profile(n).wheel for n in names("rules")} == {
        "casino": "second", "nj": "second", "sd": "second", "section6": "second", "section6-even": "second",
        "face-up-ca": "lowest"}
    assert profile("face-up-ca").house_way == "face-up"


def _copy(tmp_path, folder, name):
    dst = tmp_path / f"{name}.toml"
    shutil.copy(resources.RESOURCES / folder / f"{name}.toml", dst)
    return dst


def _edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_unknown_profile_key_names_file_key_and_value(tmp_path):
    p = _copy(tmp_path, "rules", "casino")
    p.write_text(p.read_text().replace("[paytables]", 'colour = "green"\n\n[paytables]'))
    with pytest.raises(ResourceError) as e:
        load_profile_file(p)
    assert "casino.toml" in str(e.value) and "'colour'" in str(e.value) and "green" in str(e.value)


def test_wrong_type_in_profile(tmp_path):
    p = _copy(tmp_path, "rules", "casino")
    _edit(p, 'wheel = "second"', "wheel = 2")
    with pytest.raises(ResourceError, match="casino.toml: key 'wheel' must be a string, got 2"):
        load_profile_file(p)


def test_impossible_value_in_profile(tmp_path):
    p = _copy(tmp_path, "rules", "casino")
    _edit(p, 'wheel = "second"', 'wheel = "middle"')
    with pytest.raises(ResourceError, match="key 'wheel' must be one of .* got 'middle'"):
        load_profile_file(p)


def test_profile_pay_table_of_the_wrong_kind(tmp_path):
    p = _copy(tmp_path, "rules", "casino")
    _edit(p, 'envy = "envy-003"', 'envy = "fortune-003"')
    with pytest.raises(ResourceError, match="'paytables.envy' value 'fortune-003' is a fortune table"):
        load_profile_file(p)


def test_unknown_pay_table_line(tmp_path):
    p = _copy(tmp_path, "paytables", "fortune-003")
    _edit(p, "straight = 2", "straight = 2\nsix_of_a_kind = 9")
    with pytest.raises(ResourceError, match="fortune-003.toml: unknown line 'pays.six_of_a_kind' \\(value 9\\)"):
        load_paytable_file(p)


def test_negative_and_fractional_odds_are_refused(tmp_path):
    p = _copy(tmp_path, "paytables", "fortune-003")
    _edit(p, "straight = 2", "straight = -2")
    with pytest.raises(ResourceError, match="'pays.straight' must be positive, got -2"):
        load_paytable_file(p)
    _edit(p, "straight = -2", "straight = 2.5")
    with pytest.raises(ResourceError, match="'pays.straight' must be a whole number"):
        load_paytable_file(p)


def test_house_way_with_a_gap_is_refused(tmp_path):
    p = _copy(tmp_path, "houseways", "casino")
    _edit(p, 'high = [7, 10]\nlow = [7, 10]', 'high = [7, 10]\nlow = [8, 10]')
    with pytest.raises(ResourceError, match="casino.toml: key 'two_pair' does not cover the pairs 8s and 7s"):
        load_house_way_file(p)


def test_broken_toml_is_named(tmp_path):
    p = tmp_path / "casino.toml"
    p.write_text("name = \n")
    with pytest.raises(ResourceError, match="casino.toml: not valid TOML"):
        load_profile_file(p)


def test_unknown_profile_lists_the_known_ones():
    with pytest.raises(ResourceError, match="unknown rule profile 'vegas'; known: casino, face-up-ca"):
        profile("vegas")


def test_settlement_settings_cite_their_texts():
    r = {n: profile(n).rules for n in names("rules")}
    # 000(l)(9) "at odds of 2 to 1", as written (docs/rule-settings.md, e.); section6-even reads it 1 to 1
    assert (r["section6"].payout_odds, r["section6"].payout_reading) == ((2, 1), "as written")
    assert (r["section6-even"].payout_odds, r["section6-even"].payout_reading) == ((1, 1), "1 to 1")
    assert all(r[n].payout_odds == (1, 1) and r[n].payout_reading == "" for n in ("nj", "face-up-ca", "casino", "sd"))
    assert r["sd"].foul == "reset" and r["sd"].surrender == "returns_half"          # 004(5), 004(9)
    assert r["sd"].banking_modes == ("house",)                                      # 004(3)
    assert r["face-up-ca"].commission.mode == "flat_fee"                            # 002
    assert r["face-up-ca"].banking_modes == ("player-dealer",)
    assert r["casino"].limits.per_table_cents == 7_500_000                          # 003
    assert r["casino"].commission.prepaid_allowed and r["casino"].lucky_money_percent == 10
    assert r["casino"].bettors_per_circle == 4


@pytest.mark.parametrize("old,new,message", [
    ('foul = "loses"', 'foul = "forgiven"', r"key 'base.foul' must be one of .*got 'forgiven'"),
    ("percent = 5", "percent = 12", r"key 'commission.percent' value 12: must be 1 to 10 \(004\(12\)"),
    ('offered = ["fortune"]', 'offered = ["fortune", "keno"]', r"'keno' is not one of"),
    ('offered = ["fortune"]', 'offered = ["fortune", "insurance"]', r"'insurance' needs the pay table"),
    ("bettors_per_circle = 4", "bettors_per_circle = 5", r"'seating.bettors_per_circle' value 5: must be 1 to 4"),
    ('modes = ["house", "player", "co-bank"]', 'modes = ["house", "casino"]', r"'banking.modes'"),
    ("per_table_cents = 7500000", "per_table_cents = -1", r"'limits.per_table_cents' must be positive cents, got -1"),
    ("payout_odds_as_written = [1, 1]", "payout_odds_as_written = [1, 0]",
     r"'base.payout_odds_as_written' must be two positive whole numbers"),
    ("[seating]", "[seats]", r"unknown key 'seats'"),
])
def test_bad_settlement_settings_are_refused(tmp_path, old, new, message):
    p = _copy(tmp_path, "rules", "casino")
    _edit(p, old, new)
    with pytest.raises(ResourceError, match=message) as e:
        load_profile_file(p)
    assert "casino.toml" in str(e.value)


def test_fortune_and_three_card_bonus_never_share_a_table(tmp_path):
    # 001 11.15(a), 11.17(a)
    p = _copy(tmp_path, "rules", "nj")
    _edit(p, '[paytables]', '[paytables]\nfortune = "fortune-001"\nenvy = "envy-001"')
    _edit(p, 'offered = ["insurance"', 'offered = ["fortune", "insurance"')
    with pytest.raises(ResourceError, match=r"may not share a table \(001 11.15\(a\), 11.17\(a\)\)"):
        load_profile_file(p)


def test_additional_wager_odds_must_be_within_the_regulation(tmp_path):
    # 000(p)(2)(vi): no less than 5 1/2 to 1 and no more than 6 to 1
    p = _copy(tmp_path, "rules", "section6")
    _edit(p, "additional_odds = [11, 2]", "additional_odds = [7, 1]")
    with pytest.raises(ResourceError, match=r"000\(p\)\(2\)\(vi\)"):
        load_profile_file(p)


def test_per_player_limit_below_the_regulation_floor_is_refused(tmp_path):
    # 000(s)(3): at least $40,000 or the most a minimum bettor could win
    p = _copy(tmp_path, "rules", "section6")
    _edit(p, "cents = 4000000", "cents = 3999999")
    with pytest.raises(ResourceError, match=r"below the least limit allowed, \$40,000.00"):
        load_profile_file(p)


# -- the settings where the texts allow two readings (docs/rule-settings.md) ---------------------
def test_each_profile_states_its_readings():
    r = {n: profile(n).rules for n in names("rules")}
    # 000(m)(4)(ii) with (m)(7), 001 11.10(d)2 with (g): the players' wagers; 003 PLAYER BANK 7: the
    # dealer acts as a player
    assert {n: r[n].bank.covers_dealer_wager for n in ("section6", "nj", "casino")} == {
        "section6": False, "nj": False, "casino": True}
    # each profile cites its own text's cover rule
    assert {n: (r[n].bank.cite_cover, r[n].bank.cite_co_bank_cover) for n in ("section6", "nj", "casino")} == {
        "section6": ("000(m)(4)(ii)", "000(m)(5)"), "nj": ("001 11.10(d)2", "001 11.10(e)"),
        "casino": ("003 PLAYER BANK 3, 7", "003 PLAYER BANK 16")}
    # and its own rule for no player bank at the start of the game (issue 27)
    assert {n: r[n].bank.cite_first_round for n in ("section6", "nj", "casino")} == {
        "section6": "000(m)(2)", "nj": "001 11.10(b)", "casino": "003 PLAYER BANK 1"}
    assert all(r[n].bank.co_bank_odd_cent == "house" for n in ("section6", "nj", "casino"))   # 000(m)(13)
    assert r["section6"].limits.per_player_counts_envy and r["nj"].limits.per_player_counts_envy  # 000(s)(3)
    assert r["casino"].limits.table_limit_remainder == "proportional"   # 003 Maximum Aggregate Payoff Calculation
    # a winning base wager's odds, each profile citing its own text's paragraph (docs/rule-settings.md, e.)
    assert {n: (r[n].payout_odds_as_written, r[n].cite_payout) for n in names("rules")} == {
        "section6": ((2, 1), "000(l)(9)"), "section6-even": ((2, 1), "000(l)(9)"), "nj": ((1, 1), "001 11.9(j)"),
        "face-up-ca": ((1, 1), "002 DEALING PROCEDURES & ROUND OF PLAY"), "casino": ((1, 1), "003 Clearing the Layout 1b"),
        "sd": ((1, 1), "004(12)")}


@pytest.mark.parametrize("name,old,message", [
    ("casino", "bank_covers_dealer_wager = true\n", r"missing key 'banking.bank_covers_dealer_wager': the profile "
                                                    r"must state its reading"),
    ("section6", 'co_bank_odd_cent = "house"\n', r"missing key 'banking.co_bank_odd_cent'"),
    ("casino", 'table_limit_remainder = "proportional"\n', r"missing key 'limits.table_limit_remainder'"),
    ("nj", "per_player_counts_envy = true\n", r"missing key 'limits.per_player_counts_envy'"),
    # 000(l)(9): "at odds of 2 to 1", a doubtful figure: the profile says how it reads it
    ("section6", 'payout_odds = "as written"\n', r"section6.toml: missing key 'base.payout_odds': the profile must "
                                                  r"state its reading"),
])
def test_a_profile_that_does_not_state_a_reading_is_refused(tmp_path, name, old, message):
    p = _copy(tmp_path, "rules", name)
    _edit(p, old, "")
    with pytest.raises(ResourceError, match=message):
        load_profile_file(p)


@pytest.mark.parametrize("name,old,new,message", [
    ("sd", "lucky_money_percent = 0\n", 'lucky_money_percent = 0\nco_bank_odd_cent = "house"\n',
     r"'banking.co_bank_odd_cent' value 'house': the profile has no co-bank"),
    ("face-up-ca", "[limits]\n", "[limits]\ntable_limit_remainder = \"proportional\"\n",
     r"'limits.table_limit_remainder' .*no per_table_cents limit"),
    ("casino", 'co_bank_odd_cent = "house"', 'co_bank_odd_cent = "dealer"',
     r"'banking.co_bank_odd_cent' must be one of \('house', 'co-bank'\), got 'dealer'"),
    ("casino", 'table_limit_remainder = "proportional"', 'table_limit_remainder = "largest"',
     r"'limits.table_limit_remainder' must be one of \('proportional', 'high_money_winner'\)"),
    ("section6", "bank_covers_dealer_wager = false", "bank_covers_dealer_wager = 0",
     r"'banking.bank_covers_dealer_wager' must be true or false, got 0"),
    # 001 11.9(j) pays 1 to 1 as written: there is nothing to read two ways
    ("nj", 'cite_payout = "001 11.9(j)"\n', 'cite_payout = "001 11.9(j)"\npayout_odds = "1 to 1"\n',
     r"nj.toml: key 'base.payout_odds' value '1 to 1': the text pays 1 to 1 as written \(001 11.9\(j\)\): there "
     r"is no other reading to choose"),
    ("sd", 'cite_payout = "004(12)"\n', 'cite_payout = "004(12)"\npayout_odds = "as written"\n',
     r"sd.toml: key 'base.payout_odds' value 'as written': the text pays 1 to 1 as written \(004\(12\)\)"),
    ("section6", 'payout_odds = "as written"', 'payout_odds = "2 to 1"',
     r"section6.toml: key 'base.payout_odds' must be one of \('as written', '1 to 1'\), got '2 to 1'"),
    ("section6", 'payout_odds = "as written"', "payout_odds = [1, 1]",
     r"section6.toml: key 'base.payout_odds' must be a string, got \[1, 1\]"),
    ("casino", 'cite_payout = "003 Clearing the Layout 1b"\n', "", r"casino.toml: missing key 'base.cite_payout'"),
])
def test_a_reading_where_it_cannot_apply_or_of_a_bad_value_is_refused(tmp_path, name, old, new, message):
    p = _copy(tmp_path, "rules", name)
    _edit(p, old, new)
    with pytest.raises(ResourceError, match=message):
        load_profile_file(p)


# -- a profile that extends another (section6-even: 000 with the base wager paid 1 to 1) -------------
def test_section6_even_is_section6_with_one_reading_changed():
    six, even = profile("section6").rules, profile("section6-even").rules
    assert (even.name, even.rule_text, even.extends) == ("section6-even", "000", "section6")
    assert even.title == "Section 6 - Pai Gow Poker Rules (000), base wagers paid 1 to 1"
    # 000(l)(9): the odds read 1 to 1; everything else is section6's
    assert (even.payout_odds, even.payout_reading, even.cite_payout) == ((1, 1), "1 to 1", "000(l)(9)")
    from dataclasses import replace
    assert replace(even, name=six.name, title=six.title, extends="", payout_odds=six.payout_odds,
                   payout_reading=six.payout_reading, table_limits=six.table_limits) == six
    assert even.table_limits.of("base") == six.table_limits.of("base")


def _extending(tmp_path, text):
    _copy(tmp_path, "rules", "section6")
    p = tmp_path / "section6-even.toml"
    p.write_text(text)
    return p


EVEN = (resources.RESOURCES / "rules" / "section6-even.toml").read_text()


@pytest.mark.parametrize("old,new,message", [
    ('extends = "section6"', 'extends = "vegas"',
     r"section6-even.toml: key 'extends' names no rule profile beside it: 'vegas' \(known: section6\)"),
    ('payout_odds = "1 to 1"', 'payout_odds = "as written"',
     r"section6-even.toml: key 'base.payout_odds' value 'as written' is section6's own reading"),
    ('payout_odds = "1 to 1"', 'payout_odds = "even"',
     r"section6-even.toml: key 'base.payout_odds' must be one of \('as written', '1 to 1'\), got 'even'"),
    ('payout_odds = "1 to 1"', 'payout_odds = "1 to 1"\nfoul = "reset"',
     r"section6-even.toml: key 'base.foul' \(value 'reset'\): a profile that extends another changes only its "
     r"readings \(base.payout_odds, banking.bank_covers_dealer_wager"),
    ('[base]', '[commission]\npercent = 4\n\n[base]',
     r"section6-even.toml: key 'commission' .*changes only its readings"),
    ('title = "Section 6 - Pai Gow Poker Rules (000), base wagers paid 1 to 1"',
     'title = "Section 6 - Pai Gow Poker Rules (000)"', r"section6-even.toml: key 'title' value .* is section6's"),
    ('title = "Section 6 - Pai Gow Poker Rules (000), base wagers paid 1 to 1"\n', "",
     r"section6-even.toml: missing key 'title'"),
    ('[base]\npayout_odds = "1 to 1"', "", r"section6-even.toml: extends 'section6' and changes none of its readings"),
    ('name = "section6-even"', 'name = "section6-odd"', r"key 'name' is 'section6-odd' but the file is section6-even.toml"),
    # a reading that cannot apply to the profile it extends is refused as in any profile
    ('[base]', '[limits]\ntable_limit_remainder = "proportional"\n\n[base]',
     r"section6-even.toml: key 'limits.table_limit_remainder' .*no per_table_cents limit"),
])
def test_a_bad_extending_profile_is_refused(tmp_path, old, new, message):
    assert old in EVEN
    p = _extending(tmp_path, EVEN.replace(old, new, 1))
    with pytest.raises(ResourceError, match=message):
        load_profile_file(p)


def test_an_extending_profile_extends_a_profile_that_extends_none(tmp_path):
    _extending(tmp_path, EVEN)
    p = tmp_path / "section6-odd.toml"
    p.write_text(EVEN.replace('name = "section6-even"', 'name = "section6-odd"').replace(
        'extends = "section6"', 'extends = "section6-even"'))
    with pytest.raises(ResourceError, match=r"section6-odd.toml: key 'extends' value 'section6-even': that profile "
                                            r"extends 'section6' itself"):
        load_profile_file(p)
    # and the profile it extends is refused on its own, naming its own file
    _edit(tmp_path / "section6.toml", 'payout_odds = "as written"\n', "")
    with pytest.raises(ResourceError, match=r"section6.toml: missing key 'base.payout_odds'"):
        load_profile_file(tmp_path / "section6-even.toml")


# -- table limits -----------------------------------------------------------------------------------
def test_table_limits_of_every_profile():
    lim = {n: profile(n).rules.table_limits for n in names("rules")}
    # casino defaults where the texts give no figure
    assert all((lim[n].of("base").min, lim[n].of("base").max) == (500, 500_000) for n in ("casino", "section6", "nj", "sd"))
    # 002: the base maximum is the largest wager of the posted collection fee schedule ($500)
    assert lim["face-up-ca"].of("base").max == 50_000
    # 003 Minimum and Maximum Wagers on the Bonus: $1.00 to $100.00, both set by the text
    f = lim["casino"].of("fortune")
    assert (f.min, f.max, f.fixed, f.rule) == (100, 10_000, {"min", "max"}, "003 Minimum and Maximum Wagers on the Bonus")
    assert lim["casino"].of("fortune_toke") == f   # 003 GENERAL RULES 6: "up to the limit"
    # 000(r)(2): a bonus wager no less than $1.00; 000(q)(1), 001 11.14(a): $1.00 or $5.00
    assert (lim["section6"].of("fortune").min, lim["section6"].of("fortune").fixed) == (100, {"min"})
    for n, rule in (("section6", "000(q)(1)"), ("nj", "001 11.14(a)")):
        p = lim[n].of("progressive")
        assert (p.min, p.max, p.fixed, p.rule) == (100, 500, {"min", "max"}, rule)


@pytest.mark.parametrize("name,old,new,message", [
    ("casino", "fortune = {min = 100, max = 10000", "# fortune = {min = 100, max = 10000",
     r"missing key 'table_limits.fortune'"),
    ("casino", "[seating]", "ace_high = {min = 100, max = 1000}\n\n[seating]", r"unknown key 'table_limits.ace_high'"),
    ("casino", "base = {min = 500, max = 500000}", "base = {min = 500000, max = 500}",
     r"'table_limits.base' .*the minimum \$5,000.00 is over the maximum \$5.00"),
    ("casino", "base = {min = 500, max = 500000}", "base = {min = 500}", r"missing key 'table_limits.base.max'"),
    ("casino", "base = {min = 500, max = 500000}", "base = {min = 500, max = 500000, fixed = ['max']}",
     r"'table_limits.base' .*needs the paragraph that sets it"),
    ("section6", 'progressive = {min = 100, max = 500', 'progressive = {min = 100, max = 1000',
     r"'table_limits.progressive' .*\$1.00 or \$5.00"),
    ("face-up-ca", "base = {min = 500, max = 50000}", "base = {min = 500, max = 60000}",
     r"max 60000 is over the largest wager of the collection fee schedule, 50000 cents \(002 COLLECTION PROCEDURES\)"),
    ("section6", "fortune = {min = 100,", "fortune = {min = 600,",
     r"'limits.per_player' .*row 0: cents = 4000000 \(\$40,000.00\) is below the least limit allowed, \$48,000.00"),
])
def test_bad_table_limits_are_refused(tmp_path, name, old, new, message):
    p = _copy(tmp_path, "rules", name)
    _edit(p, old, new)
    with pytest.raises(ResourceError, match=message):
        load_profile_file(p)
