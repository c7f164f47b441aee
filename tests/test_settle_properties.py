"""Invariants of the settlement engine over random rounds of every profile and banking mode."""

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.engine.ledger import HOUSE
from app.engine.round import parse_round
from app.engine.settle import settle
from app.resources import names, profile
from tests.rounds import random_round

MODES = [(n, m) for n in names("rules") for m in profile(n).rules.banking_modes]


def run(obj):
    p = profile(obj["profile"])
    return settle(parse_round(copy.deepcopy(obj), p.rules), p.rules, p.ranker(), p.house())


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
    obj = random_round(seed, name, mode)
    s = run(obj)
    nets = s.as_json()["net_by_party"]
    assert sum(nets.values()) == 0
    # every seat's results add up to what moved in and out of its chips
    for seat in {r.seat for r in s.results if r.seat}:
        ledger = sum(v for k, v in nets.items() if k == f"seat {seat}" or k.startswith(f"seat {seat}/"))
        assert sum(r.net for r in s.results if r.seat == seat) == ledger, seat


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
