"""The table state machine: the procedures of the texts, replayed from events (issue 4)."""

import json
import re
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from app.engine.procedure import Event, Refused, TableState, apply, due, replay
from app.resources import profile

T0 = datetime(2026, 11, 21, 14, 0)
RULES = profile("section6").rules


def ev(kind, minutes, role="dealer", actor="ann", **data):
    return Event(kind, T0 + timedelta(minutes=minutes), actor, role, data)


def opened(deck="red", start=0):
    # 000(e)(1)-(3): received, sorted and inspected by the dealer, verified by the floor person,
    # spread for the first player, washed
    return [ev("deck_received", start, deck=deck), ev("deck_inspected", start + 1, deck=deck),
            ev("deck_verified", start + 2, "floor supervisor", "bob", deck=deck),
            ev("deck_spread", start + 3, deck=deck), ev("deck_washed", start + 4, deck=deck)]


def a_round(deck, t, method="manual-shoe"):
    return [ev("shuffle_started", t), ev("shuffle_completed", t + 1, deck=deck),
            ev("no_more_bets", t + 2, method=method),
            ev("position_determined", t + 3, method="dice", value=14, position=6),
            ev("dealt", t + 4, remaining=4), ev("hands_set", t + 5), ev("revealed", t + 6), ev("settled", t + 7)]


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
    (lambda: opened() + [ev("no_more_bets", 6, method="manual-shoe")], "not allowed while the table is opening"),
    (lambda: opened() + a_round("red", 10)[:3] + [ev("dealt", 14, remaining=4)], "determine the starting position"),
    (lambda: opened() + a_round("red", 10)[:2] + [ev("no_more_bets", 12, method="manual-shoe"),
                                                  ev("no_more_bets", 13, method="manual-shoe")],
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
                         ev("no_more_bets", 12, method="hand"), ev("dealt", 13, remaining=4),
                         ev("position_determined", 14, method="rng", value=3, position=2)]
    state, refused = run(events)
    assert refused is None and state.state == "setting"


def test_two_decks_alternate():
    # 000(b)(2)(iv): each deck used for every other round
    events = opened("red") + opened("blue", 5) + a_round("red", 10)
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
                         ev("no_more_bets", 12, method="hand"), ev("dealt", 13, remaining=4),
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
                       ev("no_more_bets", 12, method="hand")]
    state, _ = run(hand)
    (deck,) = due(state, RULES, T0 + timedelta(hours=4, minutes=12))
    assert deck["overdue"] and deck["rule"] == "000(e)(5): from the hand"
    state, _ = run(hand, profile("casino").rules)
    (deck,) = due(state, profile("casino").rules, T0)
    assert deck["rule"] == "003 NEW CARDS IN PLAY 1"


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
    # 000(f)(2)(ii), (3), (5)
    base = opened() + manual("red", 10)
    assert "cut before the deal" in run(base + [ev("no_more_bets", 12, method="hand")])[1][2]
    assert "at least 10 cards" in run(base + [ev("cut", 12, depth=9, by="seat 2")])[1][2]
    state, refused = run(base + [ev("cut", 12, depth=20, by="seat 2"), ev("no_more_bets", 13, method="hand")])
    assert refused is None and state.cut_by == "seat 2"


def test_recut_only_on_a_supervisors_order():
    # 000(f)(6)
    base = opened() + manual("red", 10) + [ev("cut", 12, depth=20, by="seat 2")]
    assert "already cut" in run(base + [ev("cut", 13, depth=15)])[1][2]
    assert "casino supervisor orders" in run(base + [ev("recut_ordered", 13)])[1][2]
    state, refused = run(base + [ev("recut_ordered", 13, "floor supervisor", "bob"), ev("cut", 14, depth=15, by="seat 3")])
    assert refused is None and state.cut_by == "seat 3"


def test_bank_never_at_the_start_nor_two_rounds_running():
    # 000(m)(2): not at the start of the game; (m)(3): never two consecutive rounds
    rules = profile("casino").rules
    first = opened() + [ev("shuffle_started", 10), ev("shuffle_completed", 11, deck="red"),
                        ev("bank_declared", 12, mode="player", seat=3)]
    assert "start of the game" in run(first, rules)[1][2]
    rnd = [ev("shuffle_started", 10), ev("shuffle_completed", 11, deck="red"), ev("no_more_bets", 12, method="hand"),
           ev("dealt", 13, remaining=4), ev("position_determined", 14, method="rng", value=1, position=0),
           ev("hands_set", 15), ev("revealed", 16), ev("settled", 17)]
    second = [ev("shuffle_started", 20), ev("shuffle_completed", 21, deck="red"),
              ev("bank_declared", 22, mode="player", seat=3), ev("no_more_bets", 23, method="hand"),
              ev("dealt", 24, remaining=4), ev("position_determined", 25, method="rng", value=1, position=3),
              ev("hands_set", 26), ev("revealed", 27), ev("settled", 28)]
    third = [ev("shuffle_started", 30), ev("shuffle_completed", 31, deck="red"),
             ev("bank_declared", 32, mode="player", seats=[4, 3])]
    state, refused = run(opened() + rnd + second + third, rules)
    assert "seat 3 banked the last round" in refused[2]
    # 003 PLAYER BANK 17: partners bank together as one player bank
    third[-1] = ev("bank_declared", 32, mode="player", seats=[4, 5])
    state, refused = run(opened() + rnd + second + third, rules)
    assert refused is None and state.bank == (4, 5)


def test_bank_modes_follow_the_profile():
    # 004(3): player banking is not permitted
    events = opened() + a_round("red", 10)[:2] + [ev("bank_declared", 12, mode="player", seat=3)]
    assert "mode must be one of" in run(events, profile("sd").rules)[1][2]


def nj_round(t):
    return [ev("shuffle_started", t), ev("shuffle_completed", t + 1, deck="red"),
            ev("no_more_bets", t + 2, method="three-four"), ev("dealt", t + 3, remaining=4, hand_sizes=[7] * 4),
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


def test_a_shuffler_that_counts_a_wrong_number_removes_the_deck():
    # 001 11.17(i): a counting shuffler replaces the stub count; a wrong count removes the deck
    state, _ = run(opened() + [ev("shuffle_started", 10), ev("shuffle_completed", 11, deck="red", card_count=52)])
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


def banked_round(rules_name="casino"):
    rnd = [ev("shuffle_started", 10), ev("shuffle_completed", 11, deck="red"), ev("no_more_bets", 12, method="hand"),
           ev("dealt", 13, remaining=4), ev("position_determined", 14, method="rng", value=1, position=0),
           ev("hands_set", 15), ev("revealed", 16), ev("settled", 17)]
    return opened() + rnd + [ev("shuffle_started", 20), ev("shuffle_completed", 21, deck="red"),
                             ev("bank_declared", 22, mode="player", seat=3)]


def test_dealer_wager_against_the_bank():
    # 000(m)(7); 003 PLAYER BANK 7: up to 10% more, or prepaid commission, not both
    rules = profile("casino").rules
    state, refused = run(banked_round() + [ev("dealer_wager_placed", 23, cents=2200, last_wager=2000)], rules)
    assert refused is None and state.dealer_wager == 2200
    _, refused = run(banked_round() + [ev("dealer_wager_placed", 23, cents=2201, last_wager=2000)], rules)
    assert "more than 2200" in refused[2]
    _, refused = run(banked_round() + [ev("dealer_wager_placed", 23, cents=2100, last_wager=2000,
                                          prepaid_commission=True)], rules)
    assert "not both" in refused[2]
    _, refused = run(banked_round() + [ev("dealer_wager_placed", 23, cents=2100, last_wager=2000)],
                     profile("section6").rules)
    assert "more than 2000" in refused[2]


def test_player_banker_option_when_the_dealer_exposes_three_cards():
    # 003 EXPOSED CARDS 3: three or more exposed, the player-banker may call the hand dead;
    # 4: if the player-banker exposes its own cards, the hand plays
    rules = profile("casino").rules
    events = banked_round() + [ev("no_more_bets", 23, method="hand"), ev("dealt", 24, remaining=4)]
    _, refused = run(events + [ev("bank_cards_exposed_by_dealer", 25, count=2, option="void")], rules)
    assert "three or more" in refused[2]
    state, refused = run(events + [ev("bank_cards_exposed_by_dealer", 25, count=3, option="void")], rules)
    assert refused is None and state.voided_seats == (3,)
    state, _ = run(events + [ev("bank_exposed_own_cards", 25)], rules)
    assert not state.void and state.irregularities[-1].rule == "003 EXPOSED CARDS 4"


def test_three_four_stub_is_not_a_four_card_check():
    # 001 11.17(h): with four hands dealt 25 cards remain; the stub count checks them
    state, refused = run(opened() + [ev("shuffle_started", 10), ev("shuffle_completed", 11, deck="red"),
                                      ev("no_more_bets", 12, method="three-four"),
                                      ev("dealt", 13, remaining=25, hand_sizes=[7] * 4)], profile("nj").rules)
    assert refused is None and not state.void and state.state == "setting"


def test_hand_deal_runs_stacks_then_position_then_delivery():
    # 000(i)(4)-(6)
    base = opened() + [ev("shuffle_started", 10), ev("shuffle_completed", 11, deck="red"),
                       ev("no_more_bets", 12, method="hand")]
    assert "dealt and checked first" in run(base + [ev("position_determined", 13, method="rng", value=1,
                                                       position=0)])[1][2]
    assert "determine the starting position" in run(base + [ev("dealt", 13, remaining=4),
                                                             ev("dealt", 14, remaining=4)])[1][2]


def test_a_void_round_reshuffles_the_same_deck():
    # 000(n)(5): reshuffle the same cards; the two-deck alternation is for rounds played
    events = opened("red") + opened("blue", 5) + a_round("red", 10)[:4] + [ev("dealer_card_exposed", 14),
                                                                           ev("acknowledged", 15, "floor supervisor",
                                                                              "bob", ref=1)]
    state, refused = run(events + [ev("shuffle_started", 16), ev("shuffle_completed", 17, deck="red")])
    assert refused is None and state.deck_in_play == "red"


def test_no_player_bank_in_the_first_round_after_the_table_reopens():
    # 000(m)(2): the start of the game is the first round after the opening shuffle
    rules = profile("casino").rules
    events = banked_round()[:-1] + [ev("table_closed", 22), ev("deck_removed", 23, deck="red")] + opened(
        "green", start=30) + [ev("shuffle_started", 40), ev("shuffle_completed", 41, deck="green"),
        ev("bank_declared", 42, mode="player", seat=3)]
    _, refused = run(events, rules)
    assert "start of the game" in refused[2]
