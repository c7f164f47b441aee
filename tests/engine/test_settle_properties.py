"""Invariants of the settlement engine over random rounds of every profile and banking mode."""

import copy
import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.ledger import HOUSE
from app.engine.round import parse_round
from app.engine.settle import settle
from app.rules.resources import names, profile
from tests.support.random_rounds import premium_round, random_round

MODES = [(n, m) for n in names("rules") for m in profile(n).rules.banking_modes]

# Every reading of the settings where the texts allow two (docs/rule-settings.md), each on a
# profile and banking mode where it matters: (profile, mode, part, setting, value)
READINGS = ([(n, "player", "bank", "covers_dealer_wager", v) for n in ("section6", "nj", "casino")
             for v in (True, False)]
            + [(n, "co-bank", "bank", "co_bank_odd_cent", v) for n in ("section6", "nj", "casino")
               for v in ("house", "co-bank")]
            + [("section6", "house", "limits", "per_player_counts_envy", v) for v in (True, False)]
            + [("casino", "house", "limits", "table_limit_remainder", v)
               for v in ("proportional", "high_money_winner")])


def read_as(name, part, setting, value):
    rules = profile(name).rules
    return replace(rules, **{part: replace(getattr(rules, part), **{setting: value})})


def run(obj, rules=None):
    p = profile(obj["profile"])
    rules = rules or p.rules
    return settle(parse_round(copy.deepcopy(obj), rules), rules, p.ranker(), p.house())


def assert_conserved(s) -> dict[str, int]:
    nets = s.as_json()["net_by_party"]
    assert sum(nets.values()) == 0
    # every seat's results add up to what moved in and out of its chips
    for seat in {r.seat for r in s.results if r.seat}:
        ledger = sum(v for k, v in nets.items() if k == f"seat {seat}" or k.startswith(f"seat {seat}/"))
        assert sum(r.net for r in s.results if r.seat == seat) == ledger, seat
    return nets


def holdings(obj) -> dict[str, int]:
    """What each party has on the table before the round (the house holds without limit)."""
    p = profile(obj["profile"]).rules
    out = {"center": 0, "tokes": 0, "meter": obj.get("progressive_meter") or 0}
    for s in obj["seats"]:
        party = f"seat {s['seat']}"
        out[party] = sum(s.get("wagers", {}).values()) + sum(s.get("additional", {}).values())
        for b in s.get("bettors", []):
            out[f"{party}/{b['name']}"] = b["base"]
        if p.commission.mode == "flat_fee":
            stake = s.get("wagers", {}).get("base", 0)
            if obj["banking"].get("seat") == s["seat"]:
                stake = obj["banking"]["wager"]
            out[party] += p.commission.flat_fee(stake)
    b = obj["banking"]
    if b["mode"] in ("player", "co-bank"):
        out[f"seat {b['seat']}"] += b["chips"]
    if b["mode"] == "player-dealer":
        out[f"seat {b['seat']}"] += b["wager"]
    return out


@pytest.mark.parametrize("name,mode", MODES)
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_money_is_conserved_and_adds_up_per_seat(name, mode, seed):
    assert_conserved(run(random_round(seed, name, mode)))


@pytest.mark.parametrize("name,mode", MODES)
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_no_party_pays_more_than_it_holds(name, mode, seed):
    # 000(m)(4)(ii): the bank covers only with its chips; 002: the player-dealer only its wager;
    # the center of the layout never goes below nothing (000(m)(12)).
    obj = random_round(seed, name, mode)
    s = run(obj)
    bal = holdings(obj)
    for m in s.ledger:
        if m.frm != HOUSE:
            bal[m.frm] = bal.get(m.frm, 0) - m.cents
            assert bal[m.frm] >= 0, (m, bal[m.frm])
        bal[m.to] = bal.get(m.to, 0) + m.cents
    if mode == "player-dealer":
        pd = next(r for r in s.results if r.wager == "player-dealer")
        assert -obj["banking"]["wager"] <= pd.net <= obj["banking"]["wager"]


@pytest.mark.parametrize("name,mode", MODES)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_seat_order_in_the_file_does_not_matter_and_settling_twice_is_the_same(name, mode, seed):
    obj = random_round(seed, name, mode)
    first = run(obj).as_json()
    shuffled = copy.deepcopy(obj)
    random.Random(seed).shuffle(shuffled["seats"])
    assert run(shuffled).as_json() == first
    assert run(obj).as_json() == first


@pytest.mark.parametrize("name", names("rules"))
def test_every_amount_is_whole_cents(name):
    for seed in range(50):
        s = run(random_round(seed, name))
        assert all(isinstance(m.cents, int) and m.cents > 0 for m in s.ledger)
        assert all(isinstance(r.net, int) and isinstance(r.win, int) for r in s.results)


# -- each reading of the settings where the texts allow two -----------------------------------------
@pytest.mark.parametrize("name,mode,part,setting,value", READINGS)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_every_reading_conserves_money(name, mode, part, setting, value, seed):
    rules = read_as(name, part, setting, value)
    obj = premium_round(seed, name) if mode == "house" else random_round(seed, name, mode, rules, least_chips=True)
    assert_conserved(run(obj, rules))


# 000(l)(9): the base wager's odds as written (section6, 2 to 1) and read 1 to 1 (section6-even)
PAYOUT_READINGS = [(n, m) for n in ("section6", "section6-even") for m in profile(n).rules.banking_modes]


@pytest.mark.parametrize("name,mode", PAYOUT_READINGS)
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_both_readings_of_the_base_odds_conserve_money_and_pay_at_their_odds(name, mode, seed):
    rules = profile(name).rules
    obj = premium_round(seed, name) if mode == "house" else random_round(seed, name, mode, rules, least_chips=True)
    s = run(obj, rules)
    assert_conserved(s)
    n, m = {"section6": (2, 1), "section6-even": (1, 1)}[name]
    wins = [r for r in s.results if r.wager in ("base", "dealer wager") and r.outcome == "win"]
    assert all(r.win == r.stake * n // m for r in wins)
    # 000(l)(9), (m)(15): the vigorish is five percent of the amount won, rounded up to 25 cents
    assert all(r.commission == -(-r.win * 5 // 2500) * 25 for r in wins if r.wager == "base")


@pytest.mark.parametrize("name", ["section6", "nj", "casino"])
@pytest.mark.parametrize("covers", [True, False])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_a_bank_with_the_least_cover_pays_beyond_its_chips_only_for_an_uncovered_dealer(name, covers, seed):
    # 000(m)(4)(ii), 001 11.10(d)2: chips exactly the cover the reading asks for. Covering the
    # dealer's wager, the bank never pays more than its chips; covering only the players', it may
    # pay beyond them by no more than the dealer's win (000(m)(12): "including the dealer's wager")
    rules = read_as(name, "bank", "covers_dealer_wager", covers)
    obj = random_round(seed, name, "player", rules, least_chips=True)
    s = run(obj, rules)
    b = obj["banking"]
    made_up = sum(m.cents for m in s.ledger if m.frm == f"seat {b['seat']}" and m.wager == "bank")
    dealer = [r for r in s.results if r.wager == "dealer wager"]
    dealer_win = dealer[0].win if dealer else 0
    assert made_up <= b["chips"] + (0 if covers else dealer_win)


def moved(s, reason: str) -> int:
    return sum(m.cents for m in s.ledger if m.reason == reason)


@pytest.mark.parametrize("name", ["section6", "nj", "casino"])
@pytest.mark.parametrize("odd_cent", ["house", "co-bank"])
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_co_bank_halves_differ_by_the_odd_cent_only(name, odd_cent, seed):
    # 000(m)(13): the co-bank and the table inventory each take "one-half" of a shortfall or a
    # surplus; the named party's half is the larger by the odd cent, and the co-bank never pays
    # more than the chips its cover asked for
    rules = read_as(name, "bank", "co_bank_odd_cent", odd_cent)
    obj = random_round(seed, name, "co-bank", rules, least_chips=True)
    s = run(obj, rules)
    halves = [(moved(s, "co-bank covers half the shortfall"), moved(s, "house covers half the shortfall")),
              (moved(s, "vigorish on the bank's surplus") + moved(s, "the rest of the surplus to the bank"),
               moved(s, "the house's half of the surplus"))]
    for mine, house in halves:
        named, other = (house, mine) if odd_cent == "house" else (mine, house)
        assert named - other in (0, 1), (mine, house)
    assert halves[0][0] <= obj["banking"]["chips"]


@pytest.mark.parametrize("remainder", ["proportional", "high_money_winner"])
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_casino_table_limit_shares_the_rest_after_envy(remainder, seed):
    # 003: envy first, the rest of $75,000 to the Fortune winners, never more than a claim
    rules = read_as("casino", "limits", "table_limit_remainder", remainder)
    s = run(premium_round(seed, "casino"), rules)
    for work in (w for w in s.limits if w["limit"] == "per table"):
        claims, shares = work["claims"], work["shares"]
        assert sum(shares.values()) == max(0, 7_500_000 - work["envy_first"])
        assert all(0 <= shares[k] <= claims[k] for k in claims)
        total, rest = sum(claims.values()), sum(shares.values())
        if remainder == "proportional":  # each share within a cent of its exact proportion
            assert all(abs(shares[k] * total - rest * claims[k]) < total for k in claims)
        else:  # the largest claims in full, then one in part, the rest nothing
            ordered = sorted(claims, key=lambda k: -claims[k])
            partial = [k for k in ordered if 0 < shares[k] < claims[k]]
            assert len(partial) <= 1
            paid = [shares[k] > 0 for k in ordered]
            assert paid == sorted(paid, reverse=True)


@pytest.mark.parametrize("counts_envy", [True, False])
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_section6_per_player_limit_with_and_without_envy(counts_envy, seed):
    # 000(s)(3): $40,000 a player a round on the bonus wagers, with envy or beside it
    rules = read_as("section6", "limits", "per_player_counts_envy", counts_envy)
    obj = premium_round(seed, "section6")
    s = run(obj, rules)
    player = {x["seat"]: x.get("player", f"seat {x['seat']}") for x in obj["seats"]}
    envy_table = rules.paytables["envy"].pays
    for who in set(player.values()):
        fortune = sum(r.win for r in s.results if player.get(r.seat) == who and r.wager == "fortune")
        envy = [r for r in s.results if player.get(r.seat) == who and r.wager.startswith("envy")]
        assert fortune + (sum(r.win for r in envy) if counts_envy else 0) <= 4_000_000
        if not counts_envy:  # envy is paid in full, the fixed amounts of 000(s)(2)
            assert all(r.win == envy_table[r.line].cents for r in envy)
