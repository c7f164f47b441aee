"""The table state machine: the procedures of the texts, replayed from events (issue 4)."""

import json
import re
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest

from app.engine.deadlines import due
from app.engine.procedure import Event, Refused, TableState, apply, replay
from app.rules.resources import profile
from tests.support.procedure import T0, WAGERS, a_round, ev, opened

RULES = profile("section6").rules


def run(events, rules=RULES):
    state, refused = replay(events, rules)
    return state, refused


def test_a_whole_round():
    state, refused = run(opened() + a_round("red", 10))
    assert refused is None
    assert (state.state, state.round) == ("round_complete", 1)


def test_replay_rebuilds_the_same_state_at_every_step():
    events = opened() + a_round("red", 10) + a_round("red", 20)
    s = TableState()
    for i, e in enumerate(events):
        s = apply(s, e, RULES)
        assert run(events[:i + 1])[0] == s


@pytest.mark.parametrize("events,reason", [
    (lambda: opened()[:1] + [ev("deck_verified", 2, "floor supervisor", "bob", deck="red")],
     "the dealer has not inspected this deck yet"),
    (lambda: opened()[:2] + [ev("deck_verified", 2, "dealer", deck="red")],
     "the floor person verifies the inspection"),
    (lambda: opened()[:3] + [ev("deck_washed", 4, deck="red")], "after the first player's inspection"),
    (lambda: opened() + [ev("no_more_bets", 6, method="manual-shoe", wagers=WAGERS)], "not allowed while the table is opening"),
    (lambda: opened() + a_round("red", 10)[:3] + [ev("dealt", 14, remaining=4)], "determine the starting position"),
    (lambda: opened() + a_round("red", 10)[:2] + [ev("no_more_bets", 12, method="manual-shoe", wagers=WAGERS),
                                                  ev("no_more_bets", 13, method="manual-shoe", wagers=WAGERS)],
     "not allowed while the table is no_more_bets"),
    (lambda: opened() + [ev("shuffle_started", 3)], "time .* is before the previous event"),
])
def test_illegal_events_are_refused_with_a_reason(events, reason):
    state, refused = run(events())
    assert refused is not None
    assert re.search(reason, refused[2]), refused[2]


def test_the_deal_method_must_be_the_profiles():
    # sd deals from the hand only (004(2))
    state, refused = run(opened() + a_round("red", 10), profile("sd").rules)
    assert "deal method must be one of hand" in refused[2]


def test_from_the_hand_the_stacks_come_before_the_position():
    # 000(i)(4)-(5): four-card check after the stacks, then the starting position
    events = opened() + [ev("shuffle_started", 10), ev("shuffle_completed", 11, deck="red"),
                         ev("no_more_bets", 12, method="hand", wagers=WAGERS), ev("dealt", 13, remaining=4),
                         ev("position_determined", 14, method="rng", value=3, position=2)]
    state, refused = run(events)
    assert refused is None and state.state == "setting"


def test_two_decks_alternate():
    # 000(b)(2)(iv): each deck used for every other round
    events = opened("red") + opened("blue", 5, players=()) + a_round("red", 10)
    events += [ev("shuffle_started", 20), ev("shuffle_completed", 21, deck="red")]
    state, refused = run(events)
    assert "dealt last round; the two decks alternate" in refused[2]
    events[-1] = ev("shuffle_completed", 21, deck="blue")
    assert run(events)[1] is None


def test_misdeal_voids_and_a_wrong_count_removes_the_deck():
    # 000(h)(4)(ii)
    base = opened() + a_round("red", 10)[:4]
    state, _ = run(base + [ev("dealt", 14, remaining=5, hand_sizes=[7, 7, 6, 7, 7, 7, 7])])
    assert state.void and state.irregularities[-1].kind == "misdeal" and "red" in state.decks
    state, _ = run(base + [ev("dealt", 14, remaining=3)])
    assert state.void and state.irregularities[-1].kind == "deck_count_wrong" and "red" not in state.decks


def test_dealer_card_exposed_voids_and_needs_a_supervisor():
    # 000(n)(5): all hands void; the next round waits for a supervisor's acknowledgement
    events = opened() + a_round("red", 10)[:4] + [ev("dealer_card_exposed", 14)] + a_round("red", 20)
    state, refused = run(events)
    assert "awaits a supervisor's acknowledgement" in refused[2]
    with_dealer_ack = events[:-8] + [ev("acknowledged", 15, "dealer", ref=1)]
    assert "a dealer cannot acknowledge" in run(with_dealer_ack)[1][2]
    acked = events[:-8] + [ev("acknowledged", 15, "floor supervisor", "bob", ref=1)] + a_round("red", 20)
    state, refused = run(acked)
    assert refused is None and state.round == 2 and state.irregularities[0].acknowledged_by == "bob"


def test_in_003_an_exposed_dealer_card_is_played():
    # 003 EXPOSED CARDS 2: "If the cards are exposed in the Dealer's hand, the hand must be played"
    rules = profile("casino").rules
    events = opened() + [ev("shuffle_started", 10), ev("shuffle_completed", 11, deck="red"),
                         ev("no_more_bets", 12, method="hand", wagers=WAGERS), ev("dealt", 13, remaining=4),
                         ev("position_determined", 14, method="rng", value=3, position=2),
                         ev("dealer_card_exposed", 15)]
    state, refused = run(events, rules)
    assert refused is None and not state.void and state.state == "setting"


def test_one_card_face_up_in_the_shoe_is_discarded_more_voids():
    # 000(n)(6)
    base = opened() + a_round("red", 10)[:4]
    one, _ = run(base + [ev("card_face_up_in_shoe", 14)])
    assert not one.void and not one.pending_acks()
    more, _ = run(base + [ev("cards_face_up_in_shoe", 14, count=2)])
    assert more.void


def test_player_may_void_an_exposed_hand():
    # 000(n)(4): the player's option, decided without looking at the unexposed cards
    base = opened() + a_round("red", 10)[:5]
    state, refused = run(base + [ev("player_card_exposed", 15, seat=2)])
    assert "'void' or 'play'" in refused[2]
    state, _ = run(base + [ev("player_card_exposed", 15, seat=2, option="void")])
    assert state.irregularities[-1].consequence == "seat 2 chose to void the hand"


def test_deck_and_dice_clocks():
    # 000(e)(5): a shoe deck within 8 hours, a hand deck within 4; (d)(1)(ii): dice within 24 hours;
    # 003 NEW CARDS IN PLAY 1: every four hours with the shuffler
    events = opened() + [ev("dice_placed", 5)] + a_round("red", 10)
    state, _ = run(events)
    # timed from the opening of the cards ("cards opened for use"), not from the first deal
    items = {d["item"]: d for d in due(state, RULES, T0 + timedelta(hours=7, minutes=59))}
    assert items["deck red"]["due"] == (T0 + timedelta(hours=8)).isoformat()
    assert not items["deck red"]["overdue"]
    items = {d["item"]: d for d in due(state, RULES, T0 + timedelta(hours=8, minutes=1))}
    assert items["deck red"]["overdue"]
    assert items["dice"]["due"] == (T0 + timedelta(hours=24, minutes=5)).isoformat()
    hand = opened() + [ev("shuffle_started", 10), ev("shuffle_completed", 11, deck="red"),
                       ev("no_more_bets", 12, method="hand", wagers=WAGERS)]
    state, _ = run(hand)
    deck = {d["item"]: d for d in due(state, RULES, T0 + timedelta(hours=4, minutes=12))}["deck red"]
    assert deck["overdue"] and deck["rule"] == "000(e)(5): from the hand"
    state, _ = run(hand, profile("casino").rules)
    deck = {d["item"]: d for d in due(state, profile("casino").rules, T0)}["deck red"]
    assert deck["rule"] == "003 NEW CARDS IN PLAY 1; 000(e)(5)"   # the casino's own, then its regulation's


PITDESK = str(Path(sys.executable).with_name("pitdesk"))


def test_replay_cli(tmp_path):
    events = opened() + a_round("red", 10)
    path = tmp_path / "events.jsonl"
    path.write_text("\n".join(json.dumps({"type": e.type, "time": e.time.isoformat(), "actor": e.actor,
                                          "role": e.role, **e.data}) for e in events) + "\n")
    p = subprocess.run([PITDESK, "round", "replay", str(path), "--profile", "section6"], capture_output=True,
                       text=True)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["state"]["state"] == "round_complete"
    path.write_text(path.read_text() + json.dumps({"type": "hands_set", "time": "2026-11-21T15:00:00",
                                                   "actor": "ann", "role": "dealer"}) + "\n")
    p = subprocess.run([PITDESK, "round", "replay", str(path), "--profile", "section6"], capture_output=True,
                       text=True)
    out = json.loads(p.stdout)
    assert p.returncode == 2 and out["refused"]["line"] == len(events) + 1
    assert "not allowed while the table is round_complete" in out["refused"]["reason"]


def manual(deck, t):
    return [ev("shuffle_started", t), ev("shuffle_completed", t + 1, deck=deck, manual=True)]


def test_a_manual_shuffle_is_cut_at_least_ten_cards_from_either_end():
    # 000(f)(2)(ii), (3), (5); at the beginning of the game the first player to the table (seat 1)
    base = opened() + manual("red", 10)
    assert "cut before the deal" in run(base + [ev("no_more_bets", 12, method="hand", wagers=WAGERS)])[1][2]
    assert "at least 10 cards" in run(base + [ev("cut", 12, depth=9, by=1)])[1][2]
    state, refused = run(base + [ev("cut", 12, depth=20, by=1), ev("no_more_bets", 13, method="hand",
                                                                      wagers=WAGERS)])
    assert refused is None and state.cut_by == 1


def test_cut_offer_order():
    # 000(f)(3)-(4)(i): at the beginning only the first player to the table, then the dealer
    base = opened(players=(4, 2)) + manual("red", 10)
    assert "offered to seat 4, then dealer" in run(base + [ev("cut", 12, depth=20, by=2)])[1][2]
    assert "seat 4 is offered the cut before dealer" in run(base + [ev("cut", 12, depth=20, by=0)])[1][2]
    state, refused = run(base + [ev("cut", 12, depth=20, by=0, declined=[4])])
    assert refused is None and state.cut_by == 0


def test_cut_offer_goes_around_only_from_the_bank():
    # 000(f)(4)(ii): the bank refuses, then counterclockwise from the bank; (iii) no bank: the
    # farthest right only, rotating over consecutive rounds without a bank
    banked = banked_round("section6", manual_shuffle=True)
    state, refused = run(banked + [ev("cut", 23, depth=20, by=3)])
    assert refused is None and state.cut_by == 3
    state, refused = run(banked + [ev("cut", 23, depth=20, by=5, declined=[3])])
    assert "seat 4 is offered the cut before seat 5" in refused[2]
    state, refused = run(banked + [ev("cut", 23, depth=20, by=5, declined=[3, 4])])
    assert refused is None and state.cut_by == 5
    unbanked = banked[:-1]  # second round, no bank: one unbanked round so far -> seat 1
    assert "offered to seat 1, then dealer" in run(unbanked + [ev("cut", 23, depth=20, by=2)])[1][2]


def test_recut_on_a_supervisors_order_by_the_last_cutter_or_the_next_entitled():
    # 000(f)(6): after the cut and before any card is dealt
    base = opened(players=(4, 2)) + manual("red", 10) + [ev("cut", 12, depth=20, by=4)]
    assert "already cut" in run(base + [ev("cut", 13, depth=15, by=4)])[1][2]
    assert "casino supervisor orders" in run(base + [ev("recut_ordered", 13)])[1][2]
    ordered = base + [ev("no_more_bets", 13, method="manual-shoe", wagers=[2, 4]),
                      ev("recut_ordered", 14, "floor supervisor", "bob")]
    assert "re-cut before any card is dealt" in run(ordered + [ev("position_determined", 15, method="dice",
                                                                   value=8, position=0)])[1][2]
    assert "last cutter or the next person entitled, seat 4 or dealer" in run(
        ordered + [ev("cut", 15, depth=15, by=2)])[1][2]
    state, refused = run(ordered + [ev("cut", 15, depth=15, by=0)])
    assert refused is None and state.cut_by == 0
    dealt = base + [ev("no_more_bets", 13, method="manual-shoe", wagers=[2, 4]),
                    ev("position_determined", 14, method="dice", value=8, position=0), ev("dealt", 15, remaining=4)]
    assert "not allowed while the table is setting" in run(dealt + [ev("recut_ordered", 16, "floor supervisor",
                                                                       "bob")])[1][2]


def a_played_round(t, position=0, wagers=WAGERS, value=1, manual_shuffle=False):
    # dealt from the hand; the RNG's 1 is the dealer, or the bank when a player banks (000(m)(9)(iv))
    return [ev("shuffle_started", t), ev("shuffle_completed", t + 1, deck="red", manual=manual_shuffle)] + (
        [ev("cut", t + 1, depth=20, by=1)] if manual_shuffle else []) + [
        ev("no_more_bets", t + 2, method="hand", wagers=wagers), ev("dealt", t + 3, remaining=4),
        ev("position_determined", t + 4, method="rng", value=value, position=position), ev("hands_set", t + 5),
        ev("revealed", t + 6), ev("settled", t + 7)]


def test_bank_never_at_the_start_nor_two_rounds_running():
    # 000(m)(2): not at the start of the game; (m)(3): never two consecutive rounds; the first
    # offer moves one seat counterclockwise each round
    first = opened() + [ev("shuffle_started", 10), ev("shuffle_completed", 11, deck="red"),
                        ev("bank_declared", 12, mode="player", seat=1)]
    assert "start of the game" in run(first)[1][2]
    second = opened() + a_played_round(10) + [ev("shuffle_started", 20), ev("shuffle_completed", 21, deck="red"),
                                             ev("bank_declared", 22, mode="player", seat=1)]
    state, refused = run(second)
    assert refused is None and state.bank == (1,)
    third = second + [ev("no_more_bets", 23, method="hand", wagers=[2, 3]), ev("dealt", 24, remaining=4),
                      ev("position_determined", 25, method="rng", value=1, position=1), ev("hands_set", 26),
                      ev("revealed", 27), ev("settled", 28), ev("shuffle_started", 30),
                      ev("shuffle_completed", 31, deck="red"), ev("bank_declared", 32, mode="player", seat=1)]
    assert "seat 1 banked the last round" in run(third)[1][2]
    # round 3: the first offer is seat 2 (000(m)(3)); seat 3 banks only after seat 2 declines
    third[-1] = ev("bank_declared", 32, mode="player", seat=3)
    assert "seat 2 is offered the bank before seat 3" in run(third)[1][2]
    third[-1] = ev("bank_declared", 32, mode="player", seat=3, declined=[2])
    assert run(third)[1] is None


def test_only_a_player_who_wagered_in_the_last_unbanked_round_may_bank():
    # 000(m)(4)(i), (ii)
    events = opened() + a_played_round(10, wagers=[2, 3]) + [ev("shuffle_started", 20),
                                                             ev("shuffle_completed", 21, deck="red")]
    assert "seat 1 did not wager" in run(events + [ev("bank_declared", 22, mode="player", seat=1)])[1][2]
    refused = run(events + [ev("bank_declared", 22, mode="co-bank", seat=2, chips=9_000, cover=10_000)])[1]
    assert "$90.00 of chips cannot cover $100.00" in refused[2] and "floor supervisor" not in refused[2]
    state, refused = run(events + [ev("bank_declared", 22, mode="co-bank", seat=2, chips=10_000, cover=10_000)])
    assert refused is None and state.bank_mode == "co-bank"


def test_003_one_bank_per_rotation_and_the_supervisors_cover_ruling():
    # 003 PLAYER BANK 1-3: offered to each player who wagered against the house, once in each
    # rotation counterclockwise; the floor supervisor decides a doubtful cover
    rules = profile("casino").rules
    events = opened() + a_played_round(10) + [ev("shuffle_started", 20), ev("shuffle_completed", 21, deck="red")]
    low = ev("bank_declared", 22, mode="player", seat=1, chips=5_000, cover=8_000)
    assert "the floor supervisor may rule 'proceed'" in run(events + [low], rules)[1][2]
    ruled = ev("bank_declared", 22, "floor supervisor", "bob", mode="player", seat=1, chips=5_000, cover=8_000,
               ruling="proceed")
    state, refused = run(events + [ruled], rules)
    assert refused is None and state.irregularities[-1].kind == "bank_cover_ruling"
    assert state.irregularities[-1].acknowledged_by == "bob" and not state.pending_acks()
    # seat 1 banked round 2; round 3 goes to seat 2 (or 3 once 2 declines), never seat 1 again
    played = events + [ev("bank_declared", 22, mode="player", seat=1)] + a_played_round(23, position=1)[2:]
    assert run(played, rules)[0].banked_this_rotation == (1,)
    nxt = played + [ev("shuffle_started", 40), ev("shuffle_completed", 41, deck="red")]
    assert "has banked in this rotation" in run(nxt + [ev("bank_declared", 42, mode="player", seat=1)], rules)[1][2]
    assert "seat 2 is offered the bank before seat 3" in run(
        nxt + [ev("bank_declared", 42, mode="player", seat=3)], rules)[1][2]
    assert run(nxt + [ev("bank_declared", 42, mode="player", seat=3, declined=[2])], rules)[1] is None


def test_bank_modes_follow_the_profile():
    # 004(3): player banking is not permitted
    events = opened() + a_round("red", 10)[:2] + [ev("bank_declared", 12, mode="player", seat=3)]
    assert "mode must be one of" in run(events, profile("sd").rules)[1][2]


def nj_round(t):
    return [ev("shuffle_started", t), ev("shuffle_completed", t + 1, deck="red"),
            ev("no_more_bets", t + 2, method="three-four", wagers=WAGERS), ev("dealt", t + 3, remaining=4, hand_sizes=[7] * 4),
            ev("hands_set", t + 5), ev("revealed", t + 6), ev("settled", t + 7)]


def test_nj_stub_count_every_five_rounds():
    # 001 11.17(h): the stub is counted at least once every five rounds
    rules = profile("nj").rules
    events = opened()
    for k in range(5):
        events += nj_round(10 + 10 * k)
    state, refused = run(events + nj_round(60), rules)
    assert "count the stub first" in refused[2]
    state, refused = run(events + [ev("stub_counted", 59, deck_total=53)] + nj_round(60), rules)
    assert refused is None and state.round == 6
    state, _ = run(events + [ev("stub_counted", 59, deck_total=52)], rules)
    assert state.irregularities[-1].kind == "deck_count_wrong" and "red" not in state.decks


def test_a_wrong_stub_count_while_betting_takes_the_deck_out_of_play():
    # 001 11.17(h)2: the deck is removed; the table cannot deal from it, it needs another deck
    rules = profile("nj").rules
    events = opened() + nj_round(10) + [ev("shuffle_started", 20), ev("shuffle_completed", 21, deck="red"),
                                        ev("stub_counted", 22, deck_total=51)]
    state, refused = run(events, rules)
    assert refused is None and state.deck_in_play is None and "red" not in state.decks
    _, refused = run(events + [ev("acknowledged", 23, "floor supervisor", "bob", ref=1),
                               ev("no_more_bets", 24, method="three-four", wagers=WAGERS)], rules)
    assert refused[2] == "no_more_bets: no shuffled deck is ready"


def test_a_wrong_stub_count_during_the_round_voids_the_hands():
    # 001 11.17(g)1, (h)2: counted while the hands are out, all hands are void and the deck removed
    rules = profile("nj").rules
    events = opened() + nj_round(10)[:4] + [ev("stub_counted", 14, deck_total=52)]
    state, refused = run(events, rules)
    assert refused is None and state.void and state.state == "round_complete"
    assert "red" not in state.decks and state.deck_in_play is None
    assert state.irregularities[-1].rule == "001 11.17(h)2" and "all hands void" in state.irregularities[-1].consequence
    state, refused = run(opened() + nj_round(10)[:4] + [ev("stub_counted", 14, deck_total=53)], rules)
    assert refused is None and state.state == "setting" and state.rounds_since_count == 0


def test_the_five_round_stub_count_starts_again_with_a_new_game():
    # 001 11.17(h): five rounds of play; a closed table reopened starts a new game
    rules = profile("nj").rules
    events = opened()
    for k in range(4):
        events += nj_round(10 + 10 * k)
    events += [ev("deck_removed", 55, deck="red"), ev("table_closed", 56)]
    state, refused = run(events + opened(start=60) + nj_round(100) + nj_round(110), rules)
    assert refused is None and state.rounds_since_count == 2


def test_a_shuffler_that_counts_a_wrong_number_removes_the_deck():
    # 001 11.17(i): a counting shuffler replaces the stub count; a wrong count removes the deck. A
    # section6 table cites its own 000(b)(1) (53 cards), never 001's paragraph (issue 33); an nj table 001 11.17(i)
    state, _ = run(opened() + [ev("shuffle_started", 10), ev("shuffle_completed", 11, deck="red", card_count=52)])
    assert "red" not in state.decks and state.pending_acks()[0].rule == "000(b)(1)"
    state, _ = run(opened() + [ev("shuffle_started", 10), ev("shuffle_completed", 11, deck="red", card_count=52)],
                   profile("nj").rules)
    assert "red" not in state.decks and state.pending_acks()[0].rule == "001 11.17(i)"
    state, refused = run(opened() + [ev("shuffle_started", 10), ev("shuffle_completed", 11, deck="red", card_count=53)])
    assert refused is None and state.rounds_since_count == 0


def test_voided_seats_are_kept_for_the_round():
    # 000(n)(4): the player voids the exposed hand; cleared at the next round
    base = opened() + a_round("red", 10)[:5]
    state, _ = run(base + [ev("player_card_exposed", 15, seat=2, option="void")])
    assert state.voided_seats == (2,)
    state, _ = run(base + [ev("player_card_exposed", 15, seat=2, option="void")] + a_round("red", 10)[5:]
                   + a_round("red", 20)[:3])
    assert state.voided_seats == ()


def banked_round(rules_name="casino", manual_shuffle=False):
    # round 1 house-banked; in round 2 seats 1 and 2 pass the bank and seat 3 accepts (000(m)(3))
    return opened() + a_played_round(10, manual_shuffle=manual_shuffle) + [
        ev("shuffle_started", 20), ev("shuffle_completed", 21, deck="red", manual=manual_shuffle),
        ev("bank_declared", 22, mode="player", seat=3, declined=[1, 2])]


def test_dealer_wager_against_the_bank():
    # 000(m)(7); 003 PLAYER BANK 7: up to 10% more, or prepaid commission, not both
    rules = profile("casino").rules
    state, refused = run(banked_round() + [ev("dealer_wager_placed", 23, cents=2200, last_wager=2000)], rules)
    assert refused is None and state.dealer_wager == 2200
    _, refused = run(banked_round() + [ev("dealer_wager_placed", 23, cents=2201, last_wager=2000)], rules)
    assert "more than $22.00" in refused[2]
    _, refused = run(banked_round() + [ev("dealer_wager_placed", 23, cents=2100, last_wager=2000,
                                          prepaid_commission=True)], rules)
    assert "not both" in refused[2]
    _, refused = run(banked_round() + [ev("dealer_wager_placed", 23, cents=2100, last_wager=2000)],
                     profile("section6").rules)
    assert "more than $20.00" in refused[2]


def test_player_banker_option_when_the_dealer_exposes_three_cards():
    # 003 EXPOSED CARDS 3: three or more exposed, the player-banker may call the hand dead;
    # 4: if the player-banker exposes its own cards, the hand plays
    rules = profile("casino").rules
    events = banked_round() + [ev("no_more_bets", 23, method="hand", wagers=WAGERS), ev("dealt", 24, remaining=4)]
    _, refused = run(events + [ev("bank_cards_exposed_by_dealer", 25, count=2, option="void")], rules)
    assert "three or more" in refused[2]
    state, refused = run(events + [ev("bank_cards_exposed_by_dealer", 25, count=3, option="void")], rules)
    assert refused is None and state.voided_seats == (3,)
    state, refused = run(events + [ev("bank_cards_exposed_by_dealer", 25, count=4, option="void", seat=5)], rules)
    assert refused is None and state.voided_seats == (5,)
    state, _ = run(events + [ev("bank_exposed_own_cards", 25)], rules)
    assert not state.void and state.irregularities[-1].rule == "003 EXPOSED CARDS 4"


def test_three_four_stub_is_not_a_four_card_check():
    # 001 11.17(h): with four hands dealt 25 cards remain; the stub count checks them
    state, refused = run(opened() + [ev("shuffle_started", 10), ev("shuffle_completed", 11, deck="red"),
                                      ev("no_more_bets", 12, method="three-four", wagers=WAGERS),
                                      ev("dealt", 13, remaining=25, hand_sizes=[7] * 4)], profile("nj").rules)
    assert refused is None and not state.void and state.state == "setting"


def test_hand_deal_runs_stacks_then_position_then_delivery():
    # 000(i)(4)-(6)
    base = opened() + [ev("shuffle_started", 10), ev("shuffle_completed", 11, deck="red"),
                       ev("no_more_bets", 12, method="hand", wagers=WAGERS)]
    assert "dealt and checked first" in run(base + [ev("position_determined", 13, method="rng", value=1,
                                                       position=0)])[1][2]
    assert "determine the starting position" in run(base + [ev("dealt", 13, remaining=4),
                                                             ev("dealt", 14, remaining=4)])[1][2]


def test_a_void_round_reshuffles_the_same_deck():
    # 000(n)(5): reshuffle the same cards; the two-deck alternation is for rounds played
    events = opened("red") + opened("blue", 5, players=()) + a_round("red", 10)[:4] + [ev("dealer_card_exposed", 14),
                                                                           ev("acknowledged", 15, "floor supervisor",
                                                                              "bob", ref=1)]
    state, refused = run(events + [ev("shuffle_started", 16), ev("shuffle_completed", 17, deck="red")])
    assert refused is None and state.deck_in_play == "red"


def test_the_other_deck_is_shuffled_during_the_round_and_dealt_next():
    # 000(b)(2)(iii)-(iv), 001 11.2(b)3-4: one deck is shuffled while the other is dealt, and
    # each is used for every other round
    events = opened("red") + opened("blue", 5, players=()) + a_round("red", 10)[:5]
    during = [ev("shuffle_started", 14, deck="blue"), ev("shuffle_completed", 14, deck="blue", card_count=53)]
    state, refused = run(events + during)
    assert refused is None and state.state == "setting" and state.ready_deck == "blue"
    state, refused = run(events + during + a_round("red", 10)[5:])
    assert refused is None and state.state == "betting" and state.deck_in_play == "blue"
    assert state.ready_deck is None and state.last_deck_dealt == "red"
    # the next round is dealt from blue without waiting for a shuffle
    state, refused = run(events + during + a_round("red", 10)[5:] + a_round("blue", 20)[2:])
    assert refused is None and state.rounds_played == 2
    # the deck in play cannot be shuffled in the middle of its round
    _, refused = run(events + [ev("shuffle_started", 14, deck="red")])
    assert "a round is in progress; only the other deck may be shuffled meanwhile" in refused[2]


def test_a_wrong_count_of_the_other_deck_removes_it_and_the_round_goes_on():
    # 001 11.17(i): the deck is removed; the round dealt from the other deck is not affected (a section6
    # table cites its own 000(b)(1))
    events = opened("red") + opened("blue", 5, players=()) + a_round("red", 10)[:5]
    state, refused = run(events + [ev("shuffle_started", 14, deck="blue"),
                                   ev("shuffle_completed", 14, deck="blue", card_count=52)])
    assert refused is None and "blue" not in state.decks and not state.void and state.state == "setting"
    assert state.irregularities[-1].rule == "000(b)(1)" and state.ready_deck is None
    state, _ = run(events + [ev("shuffle_started", 14, deck="blue"),
                             ev("shuffle_completed", 14, deck="blue", card_count=52)] + a_round("red", 10)[5:])
    assert state.state == "round_complete" and state.deck_in_play is None   # no deck ready: shuffle first


def test_no_player_bank_in_the_first_round_after_the_table_reopens():
    # 000(m)(2): the start of the game is the first round after the opening shuffle
    rules = profile("casino").rules
    events = banked_round()[:-1] + [ev("table_closed", 22), ev("deck_removed", 23, deck="red")] + opened(
        "green", start=30) + [ev("shuffle_started", 40), ev("shuffle_completed", 41, deck="green"),
        ev("bank_declared", 42, mode="player", seat=3)]
    _, refused = run(events, rules)
    assert "start of the game" in refused[2]


def test_the_starting_position_must_match_the_count():
    # 000(k)(2)(iii)(B): a total of 14 is the sixth betting position; a wrong count is refused
    # and the cards delivered there are the wrong_dice_total irregularity (000(n)(3))
    base = opened() + a_round("red", 10)[:3]
    refused = run(base + [ev("position_determined", 13, method="dice", value=14, position=5)])[1]
    assert "dice 14 gives seat 6 (000(k)(2)(ii)), not seat 5" in refused[2]
    assert "three dice total 3 to 18" in run(base + [ev("position_determined", 13, method="dice", value=2,
                                                          position=1)])[1][2]
    # 000(k)(4): the button starts at the dealer and moves clockwise after each round played
    assert run(base + [ev("position_determined", 13, method="button", position=0)])[1] is None
    two = opened() + a_round("red", 10) + a_round("red", 20)[:3]
    assert "gives seat 6" in run(two + [ev("position_determined", 23, method="button", position=0)])[1][2]
    # the position must be one of the table's
    assert "position is 0 (dealer) or a seat" in run(base + [ev("position_determined", 13, method="rng", value=1,
                                                                position=9)])[1][2]


def test_dice_must_be_at_the_table_and_within_24_hours():
    # 000(d)(1)(ii): dice leave the table within 24 hours
    no_dice = opened(players=()) + [ev("player_seated", 5, seat=k) for k in WAGERS] + a_round("red", 10)
    assert "no dice at the table" in run(no_dice)[1][2]
    day = 24 * 60
    seated = [ev("player_seated", day - 15, seat=k) for k in WAGERS]
    late = [ev("dice_placed", 0)] + opened(start=day - 20, players=()) + seated + a_round("red", day)
    assert "dice were due to leave the table" in run(late)[1][2]
    in_time = [ev("dice_placed", 0)] + opened(start=day - 20, players=()) + seated + a_round("red", day - 10)
    assert run(in_time)[1] is None


def test_an_overdue_deck_is_not_dealt():
    # 000(e)(5): from the hand within four hours of opening
    late = opened() + [ev("dice_placed", 200)] + a_played_round(4 * 60 + 1)
    assert "deck 'red' was due for change" in run(late)[1][2]


def test_stacks_not_dealt_in_order_reshuffle():
    # 000(n)(12), 001 11.11(l): only when dealing from the hand
    base = opened() + [ev("shuffle_started", 10), ev("shuffle_completed", 11, deck="red"),
                       ev("no_more_bets", 12, method="hand", wagers=WAGERS)]
    state, refused = run(base + [ev("stacks_not_dealt_in_order", 13)])
    assert refused is None and state.void and state.pending_acks()[0].rule == "000(n)(12)"   # section6: 000 alone
    assert run(base + [ev("stacks_not_dealt_in_order", 13)], profile("nj").rules)[0].pending_acks()[0].rule == \
        "001 11.11(l)"
    shoe = opened() + a_round("red", 10)[:3] + [ev("stacks_not_dealt_in_order", 13)]
    assert "only when the stacks are dealt from the hand" in run(shoe)[1][2]


def test_seats_and_wagers():
    assert "seat 6 is not occupied" in run(opened() + a_round("red", 10)[:2] + [
        ev("no_more_bets", 12, method="hand", wagers=[6])])[1][2]
    assert "list the seats with a wager" in run(opened() + a_round("red", 10)[:2] + [
        ev("no_more_bets", 12, method="hand")])[1][2]
    assert "seat 3 is already occupied" in run(opened() + [ev("player_seated", 5, seat=3)])[1][2]
    assert "a seat is one of 1, 2, 3, 4, 5, 6" in run(opened() + [ev("player_seated", 5, seat=7)])[1][2]
    state, refused = run(opened() + [ev("player_left", 5, seat=3)])
    assert refused is None and state.seated == (1, 2, 4, 5) and state.first_player == 1
    # 002 has seven seats around the player-dealer
    assert run(opened(players=()) + [ev("player_seated", 5, seat=7)], profile("face-up-ca").rules)[1] is None


def test_the_initial_bank_offer_returns_to_the_dealer():
    # 000(m)(3): seats 1..6 in rounds 2..7, then the dealer's turn in round 8
    events = opened()
    for k in range(7):
        events += a_played_round(10 + 10 * k)
    events += [ev("shuffle_started", 90), ev("shuffle_completed", 91, deck="red")]
    assert "come round to the dealer" in run(events + [ev("bank_declared", 92, mode="player", seat=1)])[1][2]


def test_a_void_round_is_played_again_and_moves_no_offer():
    # a void round's cards are reshuffled and the round is played again (000(n)(5)), so the
    # start of the game (000(m)(2)) is still the next round
    events = opened() + a_round("red", 10)[:4] + [ev("dealer_card_exposed", 14),
                                                  ev("acknowledged", 15, "floor supervisor", "bob", ref=1)]
    state, _ = run(events)
    assert state.rounds_played == 0 and state.round == 1
    refused = run(events + [ev("shuffle_started", 16), ev("shuffle_completed", 17, deck="red"),
                            ev("bank_declared", 18, mode="player", seat=1)])[1]
    assert "start of the game" in refused[2]


def test_the_documented_example_replays():
    # docs/table-events.md: a manual-shoe round, then a player bank cut by the bank (000(f)(4)(ii))
    # and counted from the bank (000(m)(8)(iii)): 8 is the bank
    path = Path(__file__).parents[2] / "docs" / "events" / "section6-two-rounds.jsonl"
    events = [Event.from_json(json.loads(line)) for line in path.read_text().splitlines()]
    state, refused = run(events)
    assert refused is None
    assert (state.state, state.rounds_played, state.last_bank, state.starting_position) == ("round_complete", 2,
                                                                                            (2,), 2)


# -- the progressive controller's link (issue 6) ---------------------------------------------
def betting(t=10, deck="red"):
    return opened() + [ev("shuffle_started", t), ev("shuffle_completed", t + 1, deck=deck)]


def link(minutes, online):
    return ev("progressive_link", minutes, "device", "PRG-1", online=online)


def test_progressive_wagers_are_closed_while_the_controller_is_offline():
    # 000(q)(2), (3)(i), (5): the controller locks out, lights the acceptors and moves the meter;
    # with its link down a progressive wager can be neither taken nor verified
    nmb = ev("no_more_bets", 13, method="automated-shoe", wagers=WAGERS, progressive=[5, 2])
    state, refused = run(betting() + [link(12, False), nmb])
    assert refused[2] == ("no_more_bets: progressive wagers are closed while the progressive controller is offline "
                          "(000(q)(2), (3)(i), (5)); seats 2, 5 have one")
    assert state.state == "betting" and not state.progressive_online
    # the Pai Gow Poker wagers go on without the progressive
    state, refused = run(betting() + [link(12, False), ev("no_more_bets", 13, method="automated-shoe",
                                                          wagers=WAGERS, progressive=[])])
    assert refused is None and state.round_progressive == ()
    # back online: the wagers are taken and the round remembers them for its settlement
    state, refused = run(betting() + [link(12, False), link(12, True), nmb])
    assert refused is None and state.round_progressive == (2, 5) and state.progressive_online
    assert state.as_json()["progressive"] == {"online": True, "seats": [2, 5]}


def test_progressive_link_in_every_state_and_a_new_round_forgets_the_last_seats():
    events = ([link(0, False)] + opened() + [link(5, True)] + a_round("red", 10)[:2]
              + [ev("no_more_bets", 12, method="manual-shoe", wagers=WAGERS, progressive=[1]), link(12, False)]
              + a_round("red", 10)[3:] + [link(18, True)] + a_round("red", 20)[:3])
    s = TableState()
    for i, e in enumerate(events):
        s = apply(s, e, RULES)
        assert run(events[:i + 1])[0] == s   # replay rebuilds every step
    assert s.state == "no_more_bets" and s.round_progressive == () and s.progressive_online
    assert "'online' is true or false" in run([ev("progressive_link", 0, "device", online="yes")])[1][2]


def test_progressive_seats_are_seated_wagering_and_the_profiles():
    # 000(q)(1): offered to a player who has placed a Pai Gow Poker wager, where the casino offers it
    base = betting()
    assert "seat 6 is not occupied" in run(base + [ev("no_more_bets", 12, method="hand", wagers=WAGERS,
                                                      progressive=[6])])[1][2]
    assert "seat 3 has a progressive wager but no Pai Gow Poker wager (000(q)(1))" in run(base + [
        ev("no_more_bets", 12, method="hand", wagers=[1, 2], progressive=[1, 3])])[1][2]
    assert "listed twice" in run(base + [ev("no_more_bets", 12, method="hand", wagers=WAGERS,
                                            progressive=[1, 1])])[1][2]
    # the casino's 003 has no paragraph on the progressive wager: its regulation's (issue 33)
    assert "offers no progressive payout wager (003 has no paragraph on this; 000(q)(1))" in run(base + [
        ev("no_more_bets", 12, method="hand", wagers=WAGERS, progressive=[1])], profile("casino").rules)[1][2]
    state, refused = run(base + [ev("no_more_bets", 12, method="hand", wagers=WAGERS, progressive=[4])],
                         profile("nj").rules)
    assert refused is None and state.round_progressive == (4,)


# -- device irregularities in the states a device reports them --------------------------------
def dispensing(t=10):
    # 000(j)(2)-(4): an automated shoe dispenses its stacks after the starting position is known
    return betting(t) + [ev("no_more_bets", t + 2, method="automated-shoe", wagers=WAGERS),
                         ev("position_determined", t + 3, method="rng", value=3, position=2)]


def test_a_shoe_jam_while_dispensing_voids_the_round():
    # 000(n)(14): the round is void and the cards are reshuffled with those dealt
    state, refused = run(dispensing() + [ev("shoe_jam", 14, "device", "SHOE-1", code=7, text="jam")])
    assert refused is None and state.void and state.state == "round_complete"
    assert state.pending_acks()[0].rule == "000(n)(14)"


def test_a_shoe_fault_before_the_deal_reshuffles_and_after_the_round_is_refused():
    # 000(h)(1), (j)(2)(i): the shuffled deck is in the shoe while the players bet; a jam or more
    # than one card face up then means the cards are reshuffled (000(n)(6), (14)), no round to void
    for kind, data in (("shoe_jam", {"code": 7}), ("cards_face_up_in_shoe", {"count": 2})):
        state, refused = run(betting() + [ev(kind, 12, "device", "SHOE-1", **data)])
        assert refused is None and state.state == "shuffling" and not state.void
        assert "removed from the shoe and reshuffled" in state.irregularities[-1].consequence
        assert "no round in progress" in run(opened() + a_round("red", 10) + [ev(kind, 18, "device")])[1][2]
    # one card face up goes to the discard rack whenever it is found (000(n)(6))
    state, refused = run(betting() + [ev("card_face_up_in_shoe", 12, "device")])
    assert refused is None and state.state == "betting"


def test_a_shuffler_jam_reshuffles_while_shuffling_and_voids_a_round_it_deals():
    # 000(n)(13): the cards are reshuffled
    state, refused = run(opened() + [ev("shuffle_started", 10), ev("shuffler_jam", 11, "device", code=21,
                                                                   deck="red")])
    assert refused is None and state.state == "shuffling" and state.pending_acks()[0].kind == "shuffler_jam"
    # a hand-forming shuffler dealing the deck in play: the round cannot go on with those cards
    state, _ = run(dispensing() + [ev("shuffler_jam", 14, "device", deck="red")])
    assert state.void and state.state == "round_complete"


def two_deck_round(rules_name):
    # 000(b)(2)(iii): one deck is shuffled while the other is dealt
    events = opened("blue", players=()) + opened("red", 5) + dispensing()[len(opened()):]
    return run(events + [ev("shuffler_jam", 14, "device", "SHF-1", code=21, deck="blue")], profile(rules_name).rules)


def test_a_jam_of_the_deck_being_shuffled_reshuffles_it_and_play_goes_on():
    # 000(n)(13) reshuffles the cards in the device; the round in play has the other deck
    state, refused = two_deck_round("section6")
    assert refused is None and not state.void and state.state == "starting_position"
    assert state.irregularities[-1].rule == "000(n)(13); 000(b)(2)(iii)"
    assert "deck 'blue' in the shuffler is reshuffled" in state.irregularities[-1].consequence
    # 003 GENERAL RULES 5: "Malfunction of the shuffle machine voids all hands"
    state, refused = two_deck_round("casino")
    # the casino's own paragraph first, then its regulation's (issue 33)
    assert refused is None and state.void and state.irregularities[-1].rule == "003 GENERAL RULES 5; 000(n)(13)"
