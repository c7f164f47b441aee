"""Rounds at the workstation without a window (app/workstation/round_draft.py, roundlog.py, the Rounds
section of app/workstation/workstation.py; docs/workstation.md, "Rounds"): a round typed as a
person types it or read by a card-reading shuffler, settled exactly as ``pitdesk settle`` settles
the same round file, logged through the floor, approved, released with its payout slips, and read
back from the log. Real SQLite files, time passed in, no mocks."""

import io
import itertools
import json
from contextlib import redirect_stdout
from datetime import timedelta
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from app.cli.main import main as pitdesk
from app.devices.link import DeviceMessage
from app.devices.messages import decode_message, encode_message
from app.engine.cards import cards_str, full_deck
from app.engine.money import dollars
from app.engine.round import RoundError, parse_round
from app.engine.settle import settle
from app.rules.resources import profile
from app.store.slips import Slips
from app.workstation.errors import FieldsRefused, NotPermitted, Refused, SignInRequired
from tests.support.random_rounds import random_round
from tests.support.workstation import (ADMIN, DEALER, FLOOR, PIT, PROFILES, ROUNDS_FLOOR_TOML, T0, Clock, open_by_hand,
                                       open_ws)

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "rounds").glob("*.json"))


@pytest.fixture
def ws(tmp_path, monkeypatch, clock):
    w = open_ws(tmp_path, monkeypatch, clock)
    yield w
    w.close()


def count(ws) -> int:
    return ws.log.query("SELECT count(*) AS n FROM events")[0]["n"]


def pitdesk_settle(path: Path) -> dict:
    """What ``pitdesk settle FILE`` prints, run in this process."""
    out = io.StringIO()
    with redirect_stdout(out):
        assert pitdesk(["settle", str(path)]) == 0
    return json.loads(out.getvalue())


def engine(obj: dict) -> dict:
    """The round file through exactly parse_round and settle, as ``pitdesk settle`` does."""
    prof = profile(obj["profile"])
    return settle(parse_round(obj, prof.rules), prof.rules, prof.ranker(), prof.house()).as_json()


def type_round(ws, table: str, obj: dict) -> None:
    """A round file typed into the round panel as a person types it: amounts as dollars
    ("$1,234.50"), cards in lower case with 10 for ten, the sets, the banking."""
    if ws.rounds.draft(table) is not None:
        ws.rounds.discard(table)
    ws.rounds.start(table)
    b = obj["banking"]
    amounts = {k: dollars(b[k]) for k in ("chips", "last_wager", "dealer_wager", "wager", "dealer_prepaid_commission")
               if k in b}
    ws.rounds.set_banking(table, b["mode"], b.get("seat"), action_seat=b.get("action_seat"),
                   cover_ruling=b.get("cover_ruling", False), **amounts)

    def typed(cards: str) -> str:
        return cards.lower().replace("t", "10").replace("j10", "jk")   # "Ts" -> "10s", "Jk" stays a joker

    if "dealer" in obj:
        ws.rounds.set_cards(table, 0, typed(obj["dealer"]["cards"]))
    for s in obj["seats"]:
        n = s["seat"]
        ws.rounds.set_cards(table, n, typed(s["cards"]))
        if "high" in s:
            ws.rounds.set_hands(table, n, typed(s["high"]), typed(s["low"]))
        if "player" in s:
            ws.rounds.set_player(table, n, s["player"])
        texts = {k: dollars(v) for k, v in s.get("wagers", {}).items()}
        texts.update({f"additional {k}": dollars(v) for k, v in s.get("additional", {}).items()})
        if texts:
            ws.rounds.set_wagers(table, n, texts)
        if s.get("prepaid_commission"):
            ws.rounds.set_prepaid_commission(table, n, dollars(s["prepaid_commission"]))
        if s.get("surrender"):
            ws.rounds.set_surrender(table, n)
        if s.get("bettors"):
            ws.rounds.set_bettors(table, n, [(x["name"], dollars(x["base"])) for x in s["bettors"]])
    ws.rounds.set_round_info(table, dollars(obj["progressive_meter"]) if "progressive_meter" in obj else None,
                      obj.get("rng_number"))


def logged_settlement(ws, seq: int) -> dict:
    return json.loads(ws.log.query("SELECT body FROM events WHERE seq = ?", (seq,))[0]["body"])["data"]


# -- every example, typed and loaded, equals pitdesk settle ------------------------------------------
@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_typed_at_the_workstation_settles_as_pitdesk_settle(ws, path):
    obj = json.loads(path.read_text())
    table = obj["profile"]
    ws.people.sign_in(*DEALER)
    type_round(ws, table, obj)
    assert ws.rounds.draft(table).problems == ()
    before = count(ws)
    out = ws.rounds.settle(table)
    want = pitdesk_settle(path)
    r = out.result
    # the same settlement to the cent: as returned, and as logged
    assert r.logged == want
    assert logged_settlement(ws, r.settlement)["settlement"] == want
    assert engine(r.round_file) == want
    assert sum(r.net_by_party.values()) == 0 and r.net_by_party == want["net_by_party"]
    assert [(x.frm, x.to, x.cents, x.rule) for x in r.ledger] == \
        [(m["from"], m["to"], m["cents"], m["rule"]) for m in want["ledger"]]
    assert all(x.rule for x in r.ledger)
    # one append: the settlement, its approval requests, the meter
    assert count(ws) == before + 1 + len(want["approvals"]) + (want["progressive_meter"]["after"] is not None)
    assert [a.kind for a in r.approvals] == [a["kind"] for a in want["approvals"]]
    assert r.status == ("pending" if want["approvals"] else "ready")
    assert out.changes.rounds == {table} and r.settlement in out.changes.seqs
    assert ws.rounds.draft(table) is None   # settled: nothing is being entered


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_loaded_from_its_file_settles_as_pitdesk_settle(ws, path):
    obj = json.loads(path.read_text())
    ws.people.sign_in(*DEALER)
    ws.rounds.load(obj["profile"], obj)
    r = ws.rounds.settle(obj["profile"]).result
    assert r.logged == pitdesk_settle(path)
    assert r.round_file == {**obj, "seats": [{"wagers": {}, **s} for s in obj["seats"]]}


def test_net_by_party_adds_to_zero_and_typed_equals_the_engine_for_random_rounds(tmp_path, monkeypatch):
    w = open_ws(tmp_path, monkeypatch, Clock())
    w.people.sign_in(*FLOOR)

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(st.integers(min_value=0, max_value=10**6), st.sampled_from(PROFILES))
    def check(seed, name):
        obj = random_round(seed, name)
        try:
            want = engine(obj)
        except RoundError as e:
            type_round(w, name, obj)
            with pytest.raises(Refused, match=str(e).split(":")[0]):
                w.rounds.settle(name)
            return
        type_round(w, name, obj)
        r = w.rounds.settle(name).result
        assert r.logged == want
        assert sum(r.net_by_party.values()) == 0

    try:
        check()
    finally:
        w.close()


# -- refusals name the fault and write nothing ---------------------------------------------------
def test_a_card_used_twice_is_refused_at_once_naming_both_positions(ws):
    ws.people.sign_in(*DEALER)
    ws.rounds.start("casino")
    ws.rounds.set_cards("casino", 1, "ks kd ah jc 8d 6s 4c")
    before = count(ws)
    # 003 GENERAL PROCEDURES 17 (then its regulation's 000(b)(1)): one deck of 53 cards, each card once
    with pytest.raises(Refused, match=r"table casino: Kd is already at seat 1; seat 2 cannot have it too "
                                      r"\(003 GENERAL PROCEDURES 17; 000\(b\)\(1\): one deck"):
        ws.rounds.set_cards("casino", 2, "qc kd qh qs kh 5c 2h")
    with pytest.raises(Refused, match="Ks is already at seat 1; dealer cannot have it too"):
        ws.rounds.set_cards("casino", 0, "KS 9d 7h 5h 4s 3h 2d")
    with pytest.raises(Refused, match="seat 3: duplicate card '7H' \\(already given as '7h'\\)"):
        ws.rounds.set_cards("casino", 3, "7h 7H 2c 3c 4c 5c 6c")
    assert count(ws) == before
    d = ws.rounds.draft("casino")
    assert [p.cards for p in d.positions if p.cards] == [("Ks", "Kd", "Ah", "Jc", "8d", "6s", "4c")]


def test_an_over_limit_wager_gives_its_reason_per_field_and_takes_nothing(ws):
    ws.people.sign_in(*DEALER)
    ws.rounds.start("casino")
    ws.rounds.set_wagers("casino", 1, {"base": "25"})
    before = count(ws)
    # 003 Minimum and Maximum Wagers on the Bonus: $1 - $100; the casino default base maximum $5,000
    with pytest.raises(FieldsRefused) as e:
        ws.rounds.set_wagers("casino", 1, {"base": "$10,000", "fortune": "150", "insurance": "5"})
    assert e.value.fields == {
        "base": "seat 1: base wager $10,000.00 is over the table maximum $5,000.00 (profile casino)",
        "fortune": "seat 1: Fortune bonus wager $150.00 is over the table maximum $100.00 (profile casino; "
                   "003 Minimum and Maximum Wagers on the Bonus)",
        "insurance": "profile 'casino' does not offer the insurance wager"}
    with pytest.raises(FieldsRefused, match="an amount has at most two decimals") as e:
        ws.rounds.set_wagers("casino", 1, {"base": "25.005"})
    assert set(e.value.fields) == {"base"}
    # 000(q)(1): the progressive wager is $1 or $5
    with pytest.raises(FieldsRefused, match=r"the progressive wager is \$1.00 or \$5.00 \(000\(q\)\(1\)"):
        ws.rounds.set_wagers("section6", 1, {"progressive": "3"})
    assert count(ws) == before
    assert ws.rounds.draft("casino").seats[0].wagers == {"base": 2500}    # as it was
    # as typed, without taking it: the reason beside the field
    check = ws.rounds.check_wager("casino", 1, "base", "$5,000.01")
    assert (check.cents, check.reason) == (500_001, "seat 1: base wager $5,000.01 is over the table maximum "
                                                    "$5,000.00 (profile casino)")
    assert ws.rounds.check_wager("casino", 1, "base", "4.99").reason.endswith("under the table minimum $5.00 (profile casino)")
    assert ws.rounds.check_wager("casino", 1, "fortune", "12.50").reason is None


def test_a_tables_configured_limits_hold_its_rounds(tmp_path, monkeypatch, clock):
    text = '[[tables]]\nid = "T9"\nprofile = "casino"\n\n[tables.limits]\nbase = { min = 1000, max = 100000 }\n'
    w = open_ws(tmp_path, monkeypatch, clock, text)
    try:
        w.people.sign_in(*DEALER)
        with pytest.raises(FieldsRefused, match=r"over the table maximum \$1,000.00 \(table configuration\)"):
            w.rounds.set_wagers("T9", 1, {"base": "1,000.01"})
        assert w.rounds.check_wager("T9", 1, "base", "5").reason == \
            "seat 1: base wager $5.00 is under the table minimum $10.00 (table configuration)"
    finally:
        w.close()


def test_a_seat_the_procedures_do_not_let_bank_is_refused_with_their_reason(ws):
    table = "T1"
    open_by_hand(ws, table)
    ws.decisions.record(table, "shuffle_started")
    ws.decisions.record(table, "shuffle_completed", {"deck": "red", "manual": False, "card_count": 53})
    for seat in (1, 2, 3):
        ws.decisions.record(table, "player_seated", {"seat": seat})
    before = count(ws)
    # 000(m)(2): no player banks at the start of the game
    with pytest.raises(Refused, match=r"table T1: seat 1 may not be the player this round: a player may not be "
                                      r"the bank at the start of the game \(000\(m\)\(2\)\)"):
        ws.rounds.set_banking(table, "player", 1, chips="500", last_wager="20", dealer_wager="0")
    assert count(ws) == before
    # one house round where seats 1 and 2 wager
    ws.decisions.record(table, "no_more_bets", {"method": "automated-shoe", "wagers": [1, 2]})
    ws.decisions.record(table, "position_determined", {"method": "rng", "value": 3, "position": 2})
    ws.decisions.record(table, "dealt", {"remaining": 4})
    for t in ("hands_set", "revealed", "settled"):
        ws.decisions.record(table, t)
    ws.decisions.record(table, "shuffle_started")
    ws.decisions.record(table, "shuffle_completed", {"deck": "blue", "manual": False, "card_count": 53})
    ws.rounds.start(table)
    d = ws.rounds.draft(table)
    # the procedures' offers, in rotation order (000(m)(3)), each with its rule
    assert [(o.seat, o.eligible) for o in d.banking.offers] == [(1, True), (2, True), (3, False)]
    before = count(ws)
    # 000(m)(4)(i): only a player who wagered against the dealer in the last unbanked round
    with pytest.raises(Refused, match=r"seat 3 may not be the co-bank this round: seat 3 did not wager against the "
                                      r"dealer in the last unbanked round \(000\(m\)\(4\)\(i\)"):
        ws.rounds.set_banking(table, "co-bank", 3, chips="500", last_wager="20")
    with pytest.raises(FieldsRefused, match="banking: profile 'section6' allows house, player, co-bank, not "
                                            "'player-dealer'"):
        ws.rounds.set_banking(table, "player-dealer", 1)
    assert count(ws) == before
    assert ws.rounds.draft(table).banking.mode == "house"
    ws.rounds.set_banking(table, "player", 1, chips="500", last_wager="20", dealer_wager="0")
    assert (ws.rounds.draft(table).banking.mode, ws.rounds.draft(table).banking.seat) == ("player", 1)


def test_a_supervisors_cover_ruling_is_the_supervisors_where_the_profile_has_it(ws):
    ws.people.sign_in(*DEALER)
    # 003 PLAYER BANK 3: the floor supervisor decides a doubtful cover
    with pytest.raises(NotPermitted, match="the cover ruling takes a floor supervisor or a pit manager"):
        ws.rounds.set_banking("casino", "player", 3, chips="100", last_wager="20", dealer_wager="0", cover_ruling=True)
    with pytest.raises(Refused, match="profile 'section6' has no supervisor's ruling"):
        ws.rounds.set_banking("section6", "player", 3, chips="100", last_wager="20", dealer_wager="0", cover_ruling=True)
    ws.people.sign_in(*FLOOR)
    ws.rounds.set_banking("casino", "player", 3, chips="100", last_wager="20", dealer_wager="0", cover_ruling=True)
    assert ws.rounds.draft("casino").banking.cover_ruling


def test_a_round_the_engine_refuses_is_not_settled_and_says_why(ws):
    obj = json.loads((ROOT / "docs" / "rounds" / "casino-player.json").read_text())
    ws.people.sign_in(*DEALER)
    type_round(ws, "casino", obj)
    ws.rounds.set_banking("casino", "player", 3, chips="29.99", last_wager="20", dealer_wager="22")
    before = count(ws)
    # 003 PLAYER BANK 3: the bank's chips cover the wagers, else the supervisor rules
    with pytest.raises(Refused, match=r"table casino: banking.chips: the bank has \$29.99 but must cover"):
        ws.rounds.settle("casino")
    assert count(ws) == before and ws.rounds.draft("casino") is not None   # still being entered
    ws.people.sign_in(*ADMIN)
    with pytest.raises(NotPermitted, match="demo-admin is an administrator; to settle a round takes a dealer"):
        ws.rounds.settle("casino")
    ws.people.sign_out()
    with pytest.raises(SignInRequired):
        ws.rounds.set_wagers("casino", 1, {"base": "5"})
    assert count(ws) == before + 2   # the sign-in and the sign-out only


# -- the sets ---------------------------------------------------------------------------------
def test_the_dealers_hand_plays_the_house_way_with_its_rule_and_a_foul_shows_its_consequence(ws):
    ws.people.sign_in(*DEALER)
    ws.rounds.start("section6")
    ws.rounds.set_cards("section6", 0, "kc qh jd 10c 8c 6d 3c")
    ws.rounds.set_cards("section6", 1, "2s 3h 4d 5c 7s 8h 9d")
    ws.rounds.set_wagers("section6", 1, {"base": "10"})
    d = ws.rounds.draft("section6")
    dealer = d.positions[0]
    assert dealer.plays.set_by == "house way" and dealer.plays.rule and dealer.foul is None
    assert dealer.plays.high == ("Kc", "Tc", "8c", "6d", "3c") and dealer.plays.low == ("Qh", "Jd")
    # 003 GENERAL PROCEDURES 8: the house way is what the dealer recommends to a player who asks
    hw = ws.rounds.house_way("section6", 1)
    assert (hw.set_by, len(hw.high), len(hw.low)) == ("house way", 5, 2) and hw.rule
    # 000(l)(6)(iii): a low hand that outranks the high hand loses
    ws.rounds.set_hands("section6", 1, "2s 3h 4d 5c 7s", "9d 8h")
    seat = ws.rounds.draft("section6").positions[1]
    assert seat.foul == "foul: the low hand outranks the high hand; the hand loses (000(l)(6)(iii))"
    with pytest.raises(Refused, match="the high and low hands must be the seven cards dealt"):
        ws.rounds.set_hands("section6", 1, "2s 3h 4d 5c 7s", "9d 9s")
    ws.rounds.use_house_way("section6", 1)
    seat = ws.rounds.draft("section6").positions[1]
    assert seat.foul is None and (seat.entered.high, seat.entered.low) == (hw.high, hw.low)
    r = ws.rounds.settle("section6").result
    assert r.results[0].outcome in ("win", "lose", "push")


def test_a_foul_is_reset_where_the_profile_resets_it(ws):
    ws.people.sign_in(*DEALER)
    ws.rounds.start("sd")
    ws.rounds.set_cards("sd", 1, "kc kh jd 8s 6h 4c 2d")
    ws.rounds.set_hands("sd", 1, "jd 8s 6h 4c 2d", "kc kh")
    # 004(5): a foul hand is reset by the dealer according to the house rules
    seat = ws.rounds.draft("sd").positions[1]
    assert seat.foul == "foul: the low hand outranks the high hand; the dealer resets it by the house way (004(5))"
    assert seat.plays == seat.house_way


# -- a card-reading shuffler ------------------------------------------------------------------------
FRAMES = itertools.count(1)


def shuffler(ws, name, when=T0, **values):
    """A shuffler's frame, decoded as its link decodes it, through the live pit."""
    message = decode_message(encode_message(name, next(FRAMES), **values))
    ws.events.put(DeviceMessage("socket://127.0.0.1:9", "SHF-T1", "shuffler", message, when, 0.0))
    return ws.live.pump(when)


def deal(ws, given, deck="red", when=T0, spare=()):
    """A deal of seven hands (000(j)(1)): the shuffler dispenses them, then reads each position's,
    ``given`` where given (a misread too), else seven cards of the deck no other hand holds and
    not ``spare`` (cards a test puts in a hand later); what the last read changed."""
    used = {c for cards in given.values() for c in cards} | set(spare)
    rest = [c for c in cards_str(full_deck()) if c not in used]
    shuffler(ws, "hands_dispensed", when, deck=deck, hands=7, cards_per_hand=7)
    changed = None
    for position in range(7):
        cards = given.get(position) or [rest.pop() for _ in range(7)]
        changed = shuffler(ws, "hand_read", when, deck=deck, position=position, cards=list(cards))
    return changed


def test_hands_read_by_the_shuffler_fill_the_round_and_settle_as_the_same_cards_typed(ws):
    path = ROOT / "docs" / "rounds" / "section6-house.json"
    obj = json.loads(path.read_text())
    changed = deal(ws, {0: obj["dealer"]["cards"].split()} | {s["seat"]: s["cards"].split() for s in obj["seats"]})
    assert changed.rounds == {"T1"}
    d = ws.rounds.draft("T1")
    assert [(p.position, p.source, p.serial) for p in d.positions if p.cards] == \
        [(n, "shuffler", "SHF-T1") for n in range(7)]
    ws.people.sign_in(*DEALER)
    with pytest.raises(Refused, match="seat 1's cards were read by the shuffler SHF-T1; a correction of a read card "
                                      "records who and why"):
        ws.rounds.set_cards("T1", 1, "2c 3c 4c 5c 6c 7c 8c")
    for s in obj["seats"]:
        ws.rounds.set_hands("T1", s["seat"], s["high"], s["low"])
        ws.rounds.set_wagers("T1", s["seat"], {k: dollars(v) for k, v in s["wagers"].items()} |
                      {f"additional {k}": dollars(v) for k, v in s["additional"].items()})
    ws.rounds.set_round_info("T1", dollars(obj["progressive_meter"]), obj["rng_number"])
    assert ws.rounds.settle("T1").result.logged == pitdesk_settle(path)


def test_a_misread_blocks_settlement_until_a_person_corrects_it_with_a_reason(ws):
    ws.people.sign_in(*DEALER)
    ws.rounds.start("T1")
    ws.rounds.set_wagers("T1", 1, {"base": "20"})
    # a short hand (000(j)(1)) and a card read for two positions (000(b)(1))
    deal(ws, {0: "Kc Qh Jd Tc 8c 6d 3c".split(), 1: "As Ks Qs Js Ts 9h".split(), 2: "Kc 7d 7h 7c 2s 2d Kh".split()},
         spare=("9d", "Ac"))
    assert ws.log.query("SELECT count(*) AS n FROM events WHERE type = 'device_fault' AND "
                        "json_extract(body, '$.data.code') = 'misread'")[0]["n"] == 2
    problems = ws.rounds.draft("T1").problems
    assert "seat 1: the shuffler SHF-T1 misread the hand: 6 cards read, not seven; a hand of another size voids all " \
           "hands (000(j)(1); 000(n)(8)): a person checks the cards" in problems
    # a card at two positions: one line naming both (not one a position)
    assert [p for p in problems if p.startswith("Kc ")] == [
        "Kc is at both dealer and seat 2 (000(b)(1): one deck, each card once): the shuffler SHF-T1 misread the "
        "hand: correct the misread card"]
    before = count(ws)
    with pytest.raises(Refused, match=r"table T1: round 1 cannot be settled yet: .*seat 1: the shuffler SHF-T1 "
                                      r"misread the hand"):
        ws.rounds.settle("T1")
    with pytest.raises(Refused, match="a correction of a card the shuffler read records why"):
        ws.rounds.correct_cards("T1", 1, "As Ks Qs Js Ts 9h 9d", " ")
    with pytest.raises(Refused, match="Kh is already at seat 2; seat 1 cannot have it too"):
        ws.rounds.correct_cards("T1", 1, "As Ks Qs Js Ts 9h Kh", "the reader missed the 9d")
    with pytest.raises(Refused, match="seat 1: expected 7 cards, got 6"):
        ws.rounds.correct_cards("T1", 1, "As Ks Qs Js Ts 9h", "short")
    assert count(ws) == before
    changed = ws.rounds.correct_cards("T1", 1, "as ks qs js 10s 9h 9d", "the reader missed the 9d: counted by hand")
    row = ws.log.query("SELECT actor, role, body FROM events WHERE type = 'hand_corrected'")
    assert len(row) == 1 and changed.seqs and changed.rounds == {"T1"}
    data = json.loads(row[0]["body"])["data"]
    assert (row[0]["actor"], row[0]["role"]) == ("demo-dealer", "dealer")
    assert data == {"position": 1, "was": ["As", "Ks", "Qs", "Js", "Ts", "9h"],
                    "cards": ["As", "Ks", "Qs", "Js", "Ts", "9h", "9d"],
                    "reason": "the reader missed the 9d: counted by hand", "deck": "red", "serial": "SHF-T1",
                    "round": 1}
    ws.rounds.correct_cards("T1", 2, "Ac 7d 7h 7c 2s 2d Kh", "the reader took the Ac for the Kc")
    d = ws.rounds.draft("T1")
    assert d.problems == () and d.positions[1].corrected_by == ("demo-dealer",)
    ws.rounds.set_hands("T1", 1, "As Ks Qs Js Ts", "9h 9d")
    assert ws.rounds.settle("T1").result.status == "ready"


def test_a_restart_keeps_the_cards_read_in_the_round_in_progress(tmp_path, monkeypatch, clock):
    w = open_ws(tmp_path, monkeypatch, clock)
    try:
        open_by_hand(w, "T1")
        w.decisions.record("T1", "shuffle_started")
        w.decisions.record("T1", "shuffle_completed", {"deck": "red", "manual": False, "card_count": 53})
        w.decisions.record("T1", "player_seated", {"seat": 1})
        w.decisions.record("T1", "no_more_bets", {"method": "automated-shoe", "wagers": [1]})
        deal(w, {1: "As Ks Qs Js Ts 9h".split()}, spare=("9d",))
        w.rounds.correct_cards("T1", 1, "As Ks Qs Js Ts 9h 9d", "counted by hand")
    finally:
        w.close()
    w = open_ws(tmp_path, monkeypatch, clock)
    try:
        p = w.rounds.draft("T1").positions[1]
        assert p.cards == ("As", "Ks", "Qs", "Js", "Ts", "9h", "9d") and p.problem is None
    finally:
        w.close()


# -- approvals, release, slips ------------------------------------------------------------------------
SLIPS_TOML = ROUNDS_FLOOR_TOML.replace('[[tables]]\nid = "section6"', '[workstation]\nslip_cents = 50000\n\n'
                                '[[tables]]\nid = "section6"', 1)
PAYEE = {"name": "Pat Lee", "address": "1 Main Street, Reno NV", "tin": "123-45-6789", "id_type": "driver license",
         "id_number": "D1234567"}


def test_a_round_needing_approval_is_pending_until_approved_then_released_with_numbered_slips(
        tmp_path, monkeypatch, clock):
    w = open_ws(tmp_path, monkeypatch, clock, SLIPS_TOML)
    try:
        path = ROOT / "docs" / "rounds" / "section6-house.json"
        # slip 1 exists: the round's slips come next in sequence
        assert Slips(w.log).issue(T0, "demo-floor", "floor supervisor", "section6", 4, "base", 1000, 60000) == 1
        w.people.sign_in(*DEALER)
        w.rounds.load("section6", json.loads(path.read_text()))
        r = w.rounds.settle("section6").result
        (req,) = r.approvals
        # 000(q)(3)(iii): 100% of the meter is a pit manager's to approve
        assert (r.status, req.kind, req.role_needed, req.status) == \
            ("pending", "progressive_meter_payout", "pit manager", "pending")
        assert r.status_text.startswith(f"waiting for approval: request {req.request} (progressive meter payout")
        slips = {(p.seat, p.wager): p for p in r.payouts if p.slip_reason}
        assert set(slips) == {(1, "progressive"), (1, "fortune")}
        assert slips[1, "progressive"].w2g and "000(q)(3)(iii)" in slips[1, "progressive"].slip_reason
        assert slips[1, "fortune"].slip_reason == "a payoff of $500.00 or more (the workstation's configuration)"
        before = count(w)
        with pytest.raises(Refused, match=f"its payouts wait: waiting for approval: request {req.request}"):
            w.rounds.release(r.settlement)
        w.people.sign_in(*FLOOR)
        with pytest.raises(NotPermitted, match="needs a pit manager; demo-floor is a floor supervisor"):
            w.decisions.decide(req.request, "approved")
        w.people.sign_in(*PIT)
        assert w.decisions.decide(req.request, "approved", "meter checked").rounds == {"section6"}
        assert w.rounds.result(r.settlement).status == "ready"
        w.people.sign_in(*DEALER)
        with pytest.raises(NotPermitted, match=r"demo-dealer is a dealer; payouts with a payout slip \(seat 1, 1: "):
            w.rounds.release(r.settlement)
        w.people.sign_in(*FLOOR)
        with pytest.raises(Refused, match="needs the W-2G data: missing name, address, tin, id_type, id_number"):
            w.rounds.release(r.settlement)
        assert count(w) == before + 5   # the sign-ins (four) and the decision; nothing of the release
        out = w.rounds.release(r.settlement, {1: PAYEE})
        done = out.result
        assert done.status == "released" and done.released_by == "demo-floor"
        assert {(p.seat, p.wager): p.slip for p in done.payouts if p.slip} == {(1, "fortune"): 2,
                                                                                (1, "progressive"): 3}
        book = w.rounds.slip_book("section6")
        assert [(s.number, s.wager, s.win_cents, s.settlement) for s in book] == \
            [(1, "base", 60000, None), (2, "fortune", 75000, r.settlement), (3, "progressive", 1234656, r.settlement)]
        assert book[2].w2g["payee_name"] == "Pat Lee" and book[1].w2g is None
        paid = w.log.query("SELECT body FROM events WHERE type = 'payout' ORDER BY seq")
        assert len(paid) == len(done.payouts) == 7   # every win of the round, each its own row
        with pytest.raises(Refused, match="was already released by demo-floor"):
            w.rounds.release(r.settlement)
        # a misprinted slip: VOID, never reused; issued again with the next number
        w.people.sign_in(*DEALER)
        with pytest.raises(NotPermitted, match="to void a payout slip takes a floor supervisor"):
            w.rounds.void_slip(2, "wrong seat")
        w.people.sign_in(*FLOOR)
        with pytest.raises(Refused, match="a void slip records its reason"):
            w.rounds.void_slip(2, " ")
        with pytest.raises(Refused, match="slip 2 is ISSUED; only a void slip is issued again"):
            w.rounds.reissue_slip(2)
        w.rounds.void_slip(2, "printed with the wrong seat")
        with pytest.raises(Refused, match="slip 2 is already VOID"):
            w.rounds.void_slip(2, "again")
        w.rounds.reissue_slip(2)
        with pytest.raises(Refused, match="void slip 2 was already issued again as slip 4"):
            w.rounds.reissue_slip(2)
        book = w.rounds.slip_book()
        assert [(s.number, s.status) for s in book] == [(1, "ISSUED"), (2, "VOID"), (3, "ISSUED"), (4, "ISSUED")]
        assert (book[3].replaces, book[3].settlement, book[3].win_cents) == (2, r.settlement, 75000)
        assert book[1].void_reason == "printed with the wrong seat" and book[1].voided_by == "demo-floor"
    finally:
        w.close()


def test_a_denial_sends_the_round_back_with_the_reason(ws):
    path = ROOT / "docs" / "rounds" / "section6-house.json"
    ws.people.sign_in(*DEALER)
    ws.rounds.load("section6", json.loads(path.read_text()))
    first = ws.rounds.settle("section6").result
    (req,) = first.approvals
    ws.people.sign_in(*PIT)
    changed = ws.decisions.decide(req.request, "denied", "the meter on the controller reads less: recheck the hand")
    assert changed.rounds == {"section6"}
    back = ws.rounds.result(first.settlement)
    assert back.status == "denied" and back.status_text == (
        f"sent back: request {req.request} (progressive meter payout) denied by demo-pit: the meter on the "
        "controller reads less: recheck the hand")
    d = ws.rounds.draft("section6")
    assert d.replaces == first.settlement and d.returned == (
        f"request {req.request} (progressive meter payout) denied by demo-pit: the meter on the controller reads "
        "less: recheck the hand")
    ws.people.sign_in(*DEALER)
    with pytest.raises(Refused, match="its payouts wait: sent back"):
        ws.rounds.release(first.settlement)
    # corrected and settled again: a new settlement that names the one it replaces
    ws.rounds.set_round_info("section6", "12,300.00")
    again = ws.rounds.settle("section6").result
    assert again.replaces == first.settlement and again.status == "pending"
    assert again.logged["progressive_meter"]["before"] == 1_230_000
    assert ws.rounds.result(first.settlement).status_text.endswith(f"settled again as {again.settlement}")
    with pytest.raises(Refused, match=f"was settled again as {again.settlement}"):
        ws.rounds.reopen(first.settlement)
    # history: newest first, each as it stands; one round read back exactly as logged
    hist = ws.rounds.settled("section6")
    assert [(h.settlement, h.status) for h in hist] == [(again.settlement, "pending"), (first.settlement, "denied")]
    assert ws.rounds.result(first.settlement).logged == logged_settlement(ws, first.settlement)["settlement"]
    assert ws.rounds.settled("section6", before=again.settlement)[0].settlement == first.settlement


def test_a_denial_while_another_round_is_entered_waits_to_be_reopened(ws):
    path = ROOT / "docs" / "rounds" / "section6-house.json"
    ws.people.sign_in(*DEALER)
    ws.rounds.load("section6", json.loads(path.read_text()))
    first = ws.rounds.settle("section6").result
    ws.rounds.set_wagers("section6", 1, {"base": "10"})   # the next round is being entered
    ws.people.sign_in(*PIT)
    ws.decisions.decide(first.approvals[0].request, "denied", "recount")
    assert ws.rounds.draft("section6").replaces is None   # the round in progress is kept
    ws.people.sign_in(*DEALER)
    # the next round: the first was settled, and its number is used up (000(g))
    with pytest.raises(Refused, match="round 2 is being entered; settle it or discard it first"):
        ws.rounds.reopen(first.settlement)
    ws.rounds.discard("section6")
    ws.rounds.reopen(first.settlement)
    d = ws.rounds.draft("section6")
    # it says why it came back in the words a denial that sends a round back at once uses
    assert d.replaces == first.settlement and d.returned == (
        f"request {first.approvals[0].request} (progressive meter payout) denied by demo-pit: recount")
    with pytest.raises(Refused, match="no settled round 99999"):
        ws.rounds.result(99999)


def test_a_payoff_at_the_profiles_threshold_waits_for_a_floor_supervisor_and_gets_a_slip(ws):
    obj = json.loads((ROOT / "docs" / "rounds" / "casino-house.json").read_text())
    obj["seats"][0]["wagers"]["base"] = 30_000
    ws.people.sign_in(*DEALER)
    type_round(ws, "casino", obj)
    r = ws.rounds.settle("casino").result
    # 003 Clearing the Layout 1a: the supervisor is notified of payoffs of $250.00 or more
    (req,) = r.approvals
    assert (req.kind, req.seat, req.cents, req.role_needed) == ("payoff_threshold", 1, 30_000, "floor supervisor")
    pays = {(p.seat, p.bettor, p.wager): p for p in r.payouts}
    assert pays[1, None, "base"].slip_reason == "a payoff of $250.00 or more (003 Clearing the Layout 1a)"
    assert pays[1, "ann", "base"].to == "seat 1/ann" and pays[1, "ann", "base"].slip_reason is None
    # 003 GENERAL RULES 6: a winning toke bet goes to the dealers, with no slip
    assert (pays[2, None, "fortune_toke"].to, pays[2, None, "fortune_toke"].slip_reason) == ("tokes", None)
    ws.people.sign_in(*FLOOR)
    ws.decisions.decide(req.request, "approved")
    done = ws.rounds.release(r.settlement).result
    assert done.status == "released"
    assert [(s.number, s.seat, s.wager, s.win_cents) for s in ws.rounds.slip_book()] == [(1, 1, "base", 30_000)]
    # the slip says the commission taken of the win, as the settlement took it (issue 27, 10)
    (slip,) = ws.rounds.slip_book()
    (line,) = [x for x in r.results if (x.seat, x.bettor, x.wager) == (1, None, "base")]
    assert slip.commission_cents == line.commission == pays[1, None, "base"].commission == 1_500
    from app.reports.slip import lines
    shown = dict(lines(slip))
    assert (shown["Commission taken"], shown["Paid after commission"]) == ("$15.00", "$285.00")
    paid = [json.loads(x["body"])["data"] for x in ws.log.query("SELECT body FROM events WHERE type = 'payout' "
                                                                 "ORDER BY seq")]
    assert [(p["to"], p["wager"], p["cents"], p["slip"]) for p in paid] == [
        (p.to, p.wager, p.cents, 1 if p.slip_reason else None) for p in r.payouts]


def test_the_round_a_table_is_on_is_the_round_a_round_entered_now_is_for(ws):
    """The table's header and floor tile (``Tile.round_now``) and the round panel (the round being
    entered, then its settlement) name the same round in every state of the procedures: a round
    begins at No more bets (000(g)), so while the next one is wagered on it is that one."""
    table = "T1"
    seen = []

    def look():
        t = ws.reads.tile(table)
        ws.rounds.start(table)
        entered = ws.rounds.draft(table).round
        ws.rounds.discard(table)
        seen.append((t.state, t.round, t.round_now, entered))

    open_by_hand(ws, table)
    look()
    steps = [("shuffle_started", {}), ("shuffle_completed", {"deck": "red", "manual": False, "card_count": 53}),
             ("player_seated", {"seat": 1}), ("no_more_bets", {"method": "automated-shoe", "wagers": [1]}),
             ("position_determined", {"method": "rng", "value": 3, "position": 2}), ("dealt", {"remaining": 4}),
             ("hands_set", {}), ("revealed", {}), ("settled", {}), ("shuffle_started", {}),
             ("shuffle_completed", {"deck": "blue", "manual": False, "card_count": 53})]
    for type_, data in steps:
        ws.decisions.record(table, type_, data)
        look()
    # the header and the round entered agree everywhere
    assert all(now == entered for _, _, now, entered in seen), seen
    # round 1 from the opening to its end; once the next round's wagers are taken, round 2
    assert [now for *_, now, _ in seen] == [1] * 10 + [2, 2]
    assert [(s, r) for s, r, *_ in seen[-3:]] == [("round_complete", 1), ("shuffling", 1), ("betting", 1)]
    # a round settled now is round 2, as the header says; then the table is on round 3
    ws.rounds.load(table, json.loads((ROOT / "docs" / "rounds" / "section6-house.json").read_text()))
    assert ws.reads.tile(table).round_now == 2
    assert ws.rounds.settle(table).result.round == 2
    assert ws.reads.tile(table).round_now == 3


def test_a_round_still_settling_is_the_round_its_tile_shows(ws):
    """Issue 33, 5: the round's settlement is logged while its procedures still run (settling: its
    payouts being decided and released): the tile and the header still say that round, not the
    next; once the procedures record it settled, the next."""
    table = "T1"
    open_by_hand(ws, table)
    for type_, data in [("shuffle_started", {}),
                        ("shuffle_completed", {"deck": "red", "manual": False, "card_count": 53}),
                        ("player_seated", {"seat": 1}), ("no_more_bets", {"method": "automated-shoe", "wagers": [1]}),
                        ("position_determined", {"method": "rng", "value": 3, "position": 2}),
                        ("dealt", {"remaining": 4}), ("hands_set", {}), ("revealed", {})]:
        ws.decisions.record(table, type_, data)
    ws.rounds.load(table, json.loads((ROOT / "docs" / "rounds" / "section6-house.json").read_text()))
    assert ws.rounds.settle(table).result.round == 1
    t = ws.reads.tile(table)
    assert (t.state, t.round_now) == ("settling", 1)
    ws.decisions.record(table, "settled", {})
    assert ws.reads.tile(table).round_now == 2


def test_the_round_number_advances_with_every_round_settled_and_a_restart_continues_it(tmp_path, monkeypatch, clock):
    """000(g): a round begins at No more bets; settled, its number is used up, so the next round
    is one more, also at a table whose procedures are not recorded (rounds entered by hand): the
    header, the round entered, its settlement and the Rounds tab say the same number, and a
    restart continues it from the log."""
    obj = json.loads((ROOT / "docs" / "rounds" / "sd-house.json").read_text())
    w = open_ws(tmp_path, monkeypatch, clock)
    w.people.sign_in(*DEALER)
    settled = []
    for n in range(1, 21):
        assert w.reads.tile("sd").round_now == n
        w.rounds.load("sd", obj)
        assert w.rounds.draft("sd").round == n
        r = w.rounds.settle("sd").result
        settled.append(r.round)
        clock.advance(minutes=1)
    assert settled == list(range(1, 21))
    assert [s.round for s in w.rounds.settled("sd", limit=50)] == list(range(20, 0, -1))
    assert w.reads.tile("sd").round_now == 21
    w.close()
    again = open_ws(tmp_path, monkeypatch, clock)
    try:
        again.people.sign_in(*DEALER)
        assert again.reads.tile("sd").round_now == 21
        again.rounds.start("sd")
        assert again.rounds.draft("sd").round == 21
    finally:
        again.close()


# -- a deal is a round -----------------------------------------------------------------------------
SECTION6 = json.loads((ROOT / "docs" / "rounds" / "section6-house.json").read_text())
HANDS = {0: SECTION6["dealer"]["cards"].split()} | {s["seat"]: s["cards"].split() for s in SECTION6["seats"]}


def alarms_of(ws, kind):
    return [a for a in ws.reads.alarms(open_only=False) if a.kind == kind]


def test_a_deal_is_shown_when_every_hand_is_read_never_half_read(ws):
    # 000(j)(1): seven hands of seven; the round shows the deal when the last hand is read
    shuffler(ws, "hands_dispensed", deck="red", hands=7, cards_per_hand=7)
    for position in range(6):
        changed = shuffler(ws, "hand_read", deck="red", position=position,
                           cards=HANDS.get(position) or cards_str(full_deck()[position * 7 + 20:position * 7 + 27]))
        assert ws.rounds.draft("T1") is None and not changed.rounds
    rest = [c for c in cards_str(full_deck()) if c not in {x for h in HANDS.values() for x in h}]
    changed = shuffler(ws, "hand_read", deck="red", position=6, cards=rest[-7:])
    assert changed.rounds == {"T1"}
    d = ws.rounds.draft("T1")
    assert d.round == 1 and [p.source for p in d.positions] == ["shuffler"] * 7


def test_a_second_deal_never_replaces_the_round_being_entered_it_waits_and_is_logged_once(ws):
    ws.people.sign_in(*DEALER)
    deal(ws, HANDS)
    ws.rounds.set_wagers("T1", 1, {"base": "25"})           # a person enters the round
    first = ws.rounds.draft("T1")
    # the shuffler deals again (another deal for the same round): it waits, the round is kept
    other = {0: HANDS[2], 1: HANDS[0], 2: HANDS[1]}
    deal(ws, other, deck="blue", when=T0 + timedelta(seconds=30))
    ws.live.pump(T0 + timedelta(seconds=31))                 # the pump writes the note it waited for
    d = ws.rounds.draft("T1")
    assert [p.cards for p in d.positions] == [p.cards for p in first.positions]
    assert first.waiting is None and d.waiting == (
        "the shuffler SHF-T1 dealt the hands of deck blue for round 1: they wait until round 1 is settled or "
        "discarded, and are not put over it (000(b)(2)(iii), (v))")
    (waiting,) = alarms_of(ws, "deal_before_settlement")
    assert waiting.rule == "000(b)(2)(iii), (v)" and "they wait until round 1 is settled or discarded" in \
        waiting.message
    for position, cards in other.items():                          # its hands read again: logged once
        shuffler(ws, "hand_read", T0 + timedelta(seconds=40), deck="blue", position=position, cards=cards)
    ws.live.pump(T0 + timedelta(seconds=41))
    assert len(alarms_of(ws, "deal_before_settlement")) == 1
    # a third deal over the same round being entered supersedes the waiting one (its cards are
    # gone) and is not logged again: one alarm a round, however often a shuffler deals over it
    third = {0: HANDS[1], 1: HANDS[2], 2: HANDS[0]}
    deal(ws, third, deck="red", when=T0 + timedelta(seconds=50))
    ws.live.pump(T0 + timedelta(seconds=51))
    assert len(alarms_of(ws, "deal_before_settlement")) == 1
    assert [p.cards for p in ws.rounds.draft("T1").positions] == [p.cards for p in first.positions]
    # the round discarded, the waiting deal comes in for the round the table is on
    ws.rounds.discard("T1")
    d = ws.rounds.draft("T1")
    assert d.round == 1 and d.positions[0].cards == tuple(HANDS[1]) and d.positions[0].source == "shuffler"
    assert d.waiting is None


def test_a_deal_for_a_round_already_settled_is_the_logs_alone(ws):
    ws.people.sign_in(*DEALER)
    deal(ws, HANDS)
    for s in SECTION6["seats"]:
        ws.rounds.set_hands("T1", s["seat"], s["high"], s["low"])
        ws.rounds.set_wagers("T1", s["seat"], {k: dollars(v) for k, v in s["wagers"].items()})
    ws.rounds.set_round_info("T1", dollars(SECTION6["progressive_meter"]), SECTION6["rng_number"])
    deal(ws, {0: HANDS[1], 1: HANDS[2], 2: HANDS[0]}, deck="blue", when=T0 + timedelta(seconds=30))
    assert ws.rounds.settle("T1").result.round == 1
    # the second deal was for round 1, settled now: it is not put into round 2
    assert ws.rounds.draft("T1") is None and ws.reads.tile("T1").round_now == 2
    assert ws.log.query("SELECT count(*) AS n FROM events WHERE type = 'hand_read'")[0]["n"] == 14


def test_typed_cards_stay_a_reading_that_disagrees_is_shown_beside_them_and_a_person_chooses(ws):
    ws.people.sign_in(*DEALER)
    ws.rounds.start("T1")
    ws.rounds.set_cards("T1", 1, " ".join(HANDS[1]))          # typed as dealt
    ws.rounds.set_cards("T1", 2, "2c 3c 4c 5c 6c 7c 8c")       # typed wrong
    deal(ws, HANDS, spare=("2c", "3c", "4c", "5c", "6c", "7c", "8c"))
    d = ws.rounds.draft("T1")
    seat1, seat2 = d.positions[1], d.positions[2]
    assert (seat1.source, seat1.reading) == ("typed", None)      # the reading agrees: nothing beside it
    assert seat2.cards == ("2c", "3c", "4c", "5c", "6c", "7c", "8c") and seat2.reading == tuple(HANDS[2])
    assert (seat2.source, seat2.reading_serial, seat1.reading_serial) == ("typed", "SHF-T1", "")
    assert d.positions[0].source == "shuffler"                   # nothing typed there: the reading
    assert any(p.startswith("seat 2: the shuffler SHF-T1 read") and "choose one" in p for p in d.problems)
    with pytest.raises(Refused, match="records why"):
        ws.rounds.choose_reading("T1", 2, "reading", " ")
    with pytest.raises(Refused, match="seat 1: no reading disagrees"):
        ws.rounds.choose_reading("T1", 1, "reading", "why not")
    changed = ws.rounds.choose_reading("T1", 2, "reading", "the player's cards, checked face up: the reader is right")
    assert changed.rounds == {"T1"}
    (row,) = ws.log.query("SELECT actor, role, body FROM events WHERE type = 'reading_chosen'")
    assert json.loads(row["body"])["data"] == {
        "position": 2, "use": "reading", "cards": HANDS[2], "set_aside": ["2c", "3c", "4c", "5c", "6c", "7c", "8c"],
        "reason": "the player's cards, checked face up: the reader is right", "deal": row and json.loads(
            row["body"])["data"]["deal"], "serial": "SHF-T1", "round": 1}
    p = ws.rounds.draft("T1").positions[2]
    assert p.cards == tuple(HANDS[2]) and p.reading is None and p.corrected_by == ("demo-dealer",)
    assert p.reading_serial == "" and p.source == "shuffler"
    assert not any("choose one" in x for x in ws.rounds.draft("T1").problems)
