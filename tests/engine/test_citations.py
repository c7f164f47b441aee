"""Every table cites its own rule text (issue 33): the alarms, irregularities, procedures and
settlements of a table cite its profile's ``rule_text`` (and, for a house's procedures, the
``regulation`` they run under, after its own), and each paragraph cited is one its text has.

Before issue 33 a section6 table's shuffler miscount cited "001 11.17(i); 000(b)(1)", an nj table's
bank rotation 000(m)(3), a casino's shoe jam 000(n)(14) and a face-up-ca table's shuffler jam
"000(n)(13); 003 GENERAL RULES 5". The walk below drives each profile's devices through the
mapping, every irregularity through the engine, the deadlines, the bank's offers and random
rounds through the settlement, and reads every citation they produce."""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from app.devices.mapping import (DEVICE_CLASSES, Alarm, ApprovalRequest, DeviceFault, Reading, TableDevices)
from app.engine.citations import MATTERS, texts_named
from app.engine.deadlines import SHOE_METHODS, deck_deadline, dice_deadline
from app.engine.irregularities import IRREGULARITIES, irregularity
from app.engine.procedure import Refused, apply
from app.engine.round import RoundError, parse_round
from app.engine.rotation import bank_offers
from app.engine.settle import settle
from app.engine.table_state import IN_ROUND, STATES, Deck, Event, TableState
from app.rules.resources import RESOURCES, ResourceError, load_profile_file, names, profile
from tests.support.random_rounds import random_round
from tests.support.rule_texts import FOLDER, missing

PROFILES = names("rules")
T0 = datetime(2026, 11, 28, 12, 0)


def allowed(rules) -> set[str]:
    return {rules.rule_text} | ({rules.regulation} if rules.regulation else set())


def foreign(text: str, rules) -> list[str]:
    """The rule texts ``text`` names that are neither the profile's own nor its regulation."""
    return [t for t in texts_named(text) if t not in allowed(rules)]


def check_citation(rule: str, rules, where: str) -> list[str]:
    """A citation names only the profile's texts, its own first."""
    named = texts_named(rule)
    out = [f"{where}: {rule!r} cites {t}" for t in dict.fromkeys(foreign(rule, rules))]
    if named and named[0] != rules.rule_text:
        out.append(f"{where}: {rule!r} cites {named[0]} before its own {rules.rule_text}")
    return out


# -- the profiles' own tables -------------------------------------------------------------------
def own_citations(rules) -> dict[str, str]:
    out = {f"citations.{m}": c for m, c in rules.citations.items()}
    out.update({f"base.cite_{k}": c for k, c in rules.base_citations.items()})
    out.update({"base.cite_payout": rules.cite_payout, "banking.cite_cover": rules.bank.cite_cover,
                "banking.cite_co_bank_cover": rules.bank.cite_co_bank_cover,
                "banking.cite_first_round": rules.bank.cite_first_round})
    return {k: v for k, v in out.items() if v}


@pytest.mark.parametrize("name", PROFILES)
def test_every_matter_is_cited_from_the_profiles_own_text(name):
    rules = profile(name).rules
    assert set(rules.citations) == set(MATTERS)
    faults = [f for where, c in own_citations(rules).items() for f in check_citation(c, rules, where)]
    assert faults == []


@pytest.mark.skipif(not FOLDER.is_dir(), reason=f"the rule texts are not at {FOLDER} (PITDESK_RULE_TEXTS)")
@pytest.mark.parametrize("name", PROFILES)
def test_every_paragraph_cited_is_in_its_text(name):
    rules = profile(name).rules
    absent = {where: missing(c) for where, c in rules.citations.items() if missing(c)}
    assert absent == {}


def test_the_paragraph_check_finds_a_paragraph_that_is_not_there():
    assert missing("000(n)(13)") == [] and missing("000(n)(16)") == ["000 (n)(16)"]
    assert missing("001 11.11(m)") == [] and missing("001 11.11(p)") == ["001 11.11(p)"]
    assert missing("003 GENERAL RULES 5") == [] and missing("003 GENERAL RULES 13") == ["003 GENERAL RULES 13"]
    assert missing("004(5)") == [] and missing("004(14)") == ["004 (14)"]
    assert missing("002 COLLECTION PROCEDURES") == [] and missing("002 JAMS") == ["002 JAMS"]
    assert missing("002 has no paragraph on this: the house's procedure") == []


def test_the_house_procedures_name_their_regulation_and_cite_it_second():
    casino = profile("casino").rules
    assert (casino.rule_text, casino.regulation) == ("003", "000")
    assert casino.cite("shuffler_jam") == "003 GENERAL RULES 5; 000(n)(13)"
    assert casino.cite("shoe_jam") == "003 has no paragraph on this; 000(n)(14)"
    assert profile("face-up-ca").rules.cite("shuffler_jam") == "002 has no paragraph on this: the house's procedure"
    assert profile("nj").rules.cite("bank_rotation") == "001 11.10(c)"


# -- refused when a profile loads ---------------------------------------------------------------
def a_profile(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = (RESOURCES / "rules" / f"{name}.toml").read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / f"{name}.toml"
    path.write_text(text.replace(old, new), encoding="utf-8")
    return path


def test_a_citation_of_another_text_is_refused_naming_it(tmp_path):
    path = a_profile(tmp_path, "face-up-ca", 'shuffler_jam = "002 has no paragraph on this: the house\'s procedure"',
                     'shuffler_jam = "002 DEALING PROCEDURES & ROUND OF PLAY; 000(n)(13)"')
    with pytest.raises(ResourceError, match=r"citations\.shuffler_jam: .*cites 000, another text's law"):
        load_profile_file(path)
    path = a_profile(tmp_path, "nj", 'bank_rotation = "001 11.10(c)"', 'bank_rotation = "000(m)(3)"')
    with pytest.raises(ResourceError, match=r"citations\.bank_rotation: '000\(m\)\(3\)' does not begin with the "
                                            r"profile's own text 001"):
        load_profile_file(path)


def test_a_regulation_is_cited_after_the_house_procedures_and_no_other_text(tmp_path):
    path = a_profile(tmp_path, "casino", 'shuffler_jam = "003 GENERAL RULES 5; 000(n)(13)"',
                     'shuffler_jam = "000(n)(13); 003 GENERAL RULES 5"')
    with pytest.raises(ResourceError, match=r"citations\.shuffler_jam: .*its own first, then its regulation 000"):
        load_profile_file(path)
    path = a_profile(tmp_path, "casino", 'shuffler_jam = "003 GENERAL RULES 5; 000(n)(13)"',
                     'shuffler_jam = "003 GENERAL RULES 5; 001 11.11(m)"')
    with pytest.raises(ResourceError, match=r"cites 001, another text's law: a 003 table cites 003 or its regulation"):
        load_profile_file(path)
    path = a_profile(tmp_path, "casino", 'regulation = "000"\n', 'regulation = "003"\n')
    with pytest.raises(ResourceError, match=r"key 'regulation' value '003'"):
        load_profile_file(path)


def test_a_matter_left_out_is_refused(tmp_path):
    path = a_profile(tmp_path, "sd", 'shoe_jam = "004 has no paragraph on this: the house\'s procedure"\n', "")
    with pytest.raises(ResourceError, match=r"citations\.shoe_jam: missing"):
        load_profile_file(path)


# -- the walk: what each table shows, logs and prints ------------------------------------------
SERIALS = {"SHF-1": "shuffler", "SHOE-1": "shoe", "PRG-1": "progressive", "RNG-1": "rng"}
assert set(SERIALS.values()) == set(DEVICE_CLASSES)


def device_actions(rules) -> list:
    """Every alarm, fault, reading and request the mapping makes of one table's devices going
    wrong: a miscount, hands of the wrong size, misreads, decks alike, self-tests, an open door
    mid-shuffle, stacks of six and a bad four-card check, a meter that falls, a small increment, a
    light after the lock-out, a hit and a low reset, every device offline."""
    dev = TableDevices("T", rules, SERIALS)
    t = iter(T0 + timedelta(seconds=n) for n in range(1000))

    def say(serial, type_, **fields):
        return dev.on_message({"type": type_, "device": SERIALS[serial], **fields}, next(t), serial)

    out = []
    out += say("SHF-1", "shuffle_started", deck="red")
    out += say("SHF-1", "card_count", deck="red", count=52)
    out += say("SHF-1", "shuffle_completed", deck="red")
    out += say("SHF-1", "hands_dispensed", deck="red", hands=8, cards_per_hand=7)
    out += say("SHF-1", "hands_dispensed", deck="red", hands=7, cards_per_hand=6)
    one, two = dev.positions[1:3]
    out += say("SHF-1", "hand_read", deck="red", position=one, cards=["As", "As", "Kd"])
    out += say("SHF-1", "hand_read", deck="red", position=two, cards=["Kd", "Qh", "Jc", "Ts", "9d", "8h", "7c"])
    out += say("SHF-1", "deck_colour", deck="red", colour="red")
    out += say("SHF-1", "deck_colour", deck="blue", colour="Red")
    out += say("SHF-1", "shuffle_started", deck="blue")
    out += say("SHF-1", "door_open", open=True)
    out += say("SHF-1", "jam", code=3, text="jam")
    for serial in SERIALS:
        out += say(serial, "self_test", passed=False, code=9)
    for pos in dev.positions:
        out += say("SHOE-1", "stack_dispensed", position=pos, cards=6)
    out += say("SHOE-1", "cards_remaining", count=11)
    for pos in dev.positions:
        out += say("SHOE-1", "stack_dispensed", position=pos, cards=7)
    out += say("SHOE-1", "cards_remaining", count=3)
    out += say("SHOE-1", "card_face_up", count=1)
    out += say("SHOE-1", "shoe_jam", code=4, text="jam")
    out += say("PRG-1", "meter", cents=2_000_000)
    out += say("PRG-1", "meter", cents=1_500_000)
    out += say("PRG-1", "increment", seat=1, cents=5)
    out += say("PRG-1", "lockout", locked=True)
    out += say("PRG-1", "acceptor_lights", lit=0b1)
    out += say("PRG-1", "acceptor_lights", lit=0b11)
    out += say("PRG-1", "hit_pending", seat=1, line="Royal Flush", cents=500_000)
    out += say("PRG-1", "reset", cents=500_000)
    out += say("RNG-1", "rng_number", number=4)
    for serial, cls in SERIALS.items():
        out += dev.on_link(cls, serial, "offline", next(t), "port closed")
    return out


def device_texts(rules) -> list[tuple[str, str, bool]]:
    """(where, text, is a citation) of every action."""
    out = []
    for a in device_actions(rules):
        kind = type(a).__name__
        if isinstance(a, Alarm):
            out += [(f"Alarm {a.kind}.rule", a.rule, True), (f"Alarm {a.kind}.message", a.message, False)]
        elif isinstance(a, ApprovalRequest):
            out += [(f"ApprovalRequest {a.kind}.rule", a.rule, True), (f"{kind} {a.kind}.reason", a.reason, False)]
        elif isinstance(a, DeviceFault):
            out.append((f"DeviceFault {a.code}", a.message, False))
        elif isinstance(a, Reading):
            out.append((f"Reading {a.what}.note", a.note, False))
    return out


@pytest.mark.parametrize("name", PROFILES)
def test_every_device_alarm_and_reading_cites_the_tables_own_text(name):
    rules = profile(name).rules
    texts = device_texts(rules)
    kinds = {w.split(".")[0] for w, _, c in texts if c}
    # the walk reaches the alarms it means to: a miscount, wrong hands, decks alike, a stopped
    # shuffle, self-tests and offline devices, the four-card check, the meter's alarms and requests
    assert {"Alarm deck_count_wrong", "Alarm hands_dispensed_wrong", "Alarm deck_colours_alike",
            "Alarm shuffler_door_open", "Alarm shuffler_offline", "Alarm shoe_offline", "Alarm rng_offline",
            "Alarm progressive_offline", "Alarm stack_wrong_size", "Alarm four_card_check", "Alarm meter_fell",
            "Alarm meter_rate", "Alarm acceptor_after_lockout", "Alarm progressive_hit", "Alarm meter_reset_low",
            "ApprovalRequest progressive_meter_payout", "ApprovalRequest meter_reset"} <= kinds
    faults = []
    for where, text, is_citation in texts:
        faults += check_citation(text, rules, where) if is_citation else \
            [f"{where}: {text!r} cites {t}" for t in dict.fromkeys(foreign(text, rules))]
    assert faults == []


def irregularity_rules(rules) -> dict[str, str]:
    """Every irregularity kind the engine takes, through ``irregularity``, at a state that accepts
    it: kind -> the rule it records."""
    decks = {d: Deck(d, T0, washed=True) for d in ("red", "blue")}
    base = TableState(state="betting", decks=decks, deck_in_play="red", dealing_method="hand", bank=(1,),
                      bank_mode="player", seated=(1, 2, 3))
    out = {}
    for kind in IRREGULARITIES:
        for st in IN_ROUND + tuple(s for s in STATES if s not in IN_ROUND):
            event = Event(kind, T0, "dealer", "dealer", {"option": "void", "seat": 2, "count": 3})
            try:
                s = irregularity(replace(base, state=st), event, rules)
            except Refused:
                continue
            out[kind] = s.irregularities[-1].rule
            break
    # the shuffler's failure on the deck being shuffled while the other is dealt (000(b)(2)(iii))
    event = Event("shuffler_jam", T0, "SHF-1", "device", {"deck": "blue"})
    s = irregularity(replace(base, state="betting"), event, rules)
    out["shuffler_jam (the other deck)"] = s.irregularities[-1].rule
    return out


@pytest.mark.parametrize("name", PROFILES)
def test_every_irregularity_cites_the_tables_own_text(name):
    rules = profile(name).rules
    got = irregularity_rules(rules)
    assert set(IRREGULARITIES) <= set(got)
    assert [f for kind, rule in got.items() for f in check_citation(rule, rules, kind)] == []


@pytest.mark.parametrize("name", PROFILES)
def test_the_deadlines_and_the_banks_offers_cite_the_tables_own_text(name):
    rules = profile(name).rules
    deck = Deck("red", T0)
    rules_seen = {f"deck {m}": deck_deadline(deck, rules, m)[1] for m in (*SHOE_METHODS, "hand")}
    rules_seen["dice"] = dice_deadline(T0, rules)[1]
    offers = bank_offers(3, seated=[1, 2, 3, 5], last_bank=[5], wagered_last_unbanked=[1, 3, 5],
                         chips={1: 100, 3: 10**6}, cover_needed={1: 5_000, 3: 5_000}, rules=rules)
    rules_seen.update({f"bank offer {o.seat}": o.reason for o in offers})
    assert len(offers) == 4 and sum(o.eligible for o in offers) == 1
    faults = [f for where, text in rules_seen.items() for f in
              [f"{where}: {text!r} cites {t}" for t in dict.fromkeys(foreign(text, rules))]]
    assert faults == []


@pytest.mark.parametrize("name", PROFILES)
def test_every_settlement_citation_is_the_tables_own_text(name):
    prof = profile(name)
    rules, ranker, house = prof.rules, prof.ranker(), prof.house()
    seen, faults, settled = set(), [], 0
    for seed in range(60):
        for mode in rules.banking_modes:
            obj = random_round(seed * 7 + len(mode), name, mode)
            try:
                s = settle(parse_round(obj, rules), rules, ranker, house)
            except RoundError:
                continue
            settled += 1
            texts = [(f"result {r.wager}", r.rule) for r in s.results] + \
                [(f"movement {m.reason}", m.rule) for m in s.ledger] + \
                [(f"approval {a.kind}", a.rule) for a in s.approvals] + \
                [("limits", w.get("rule", "")) for w in s.limits]
            for where, rule in texts:
                if rule and (where, rule) not in seen:
                    seen.add((where, rule))
                    faults += check_citation(rule, rules, where)
            for note in s.notes:
                faults += [f"note {note!r} cites {t}" for t in dict.fromkeys(foreign(note, rules))]
    assert settled >= 60 and faults == []


def test_the_walk_finds_a_citation_of_another_text():
    # the checks above fail on what issue 33 found: a section6 table citing 001, a 002 table 003
    six, face_up = profile("section6").rules, profile("face-up-ca").rules
    assert check_citation("001 11.17(i); 000(b)(1)", six, "deck_count_wrong") != []
    assert check_citation("000(n)(13); 003 GENERAL RULES 5", face_up, "shuffler_jam") != []
    assert check_citation("000(n)(13); 003 GENERAL RULES 5", profile("casino").rules, "shuffler_jam") != []
    assert check_citation("003 GENERAL RULES 5; 000(n)(13)", profile("casino").rules, "shuffler_jam") == []
    assert foreign("the meter is at least $10,000.00 (000(q)(6))", six) == []


def refusals(rules) -> dict[str, str]:
    """What the procedures say refusing a person's event at the wrong moment: a third deck, a
    verification by the dealer, a shuffle of cards not opened, a cut of a shuffler's deck, a re-cut
    ordered by the dealer, a starting position with no dice, a deal before the starting position,
    a dealer's wager with no player bank."""
    decks = {"red": Deck("red", T0), "blue": Deck("blue", T0, True, "fay", True, True)}
    opened = TableState(state="opening", decks=decks, seated=(1, 2, 3), last_time=T0)
    betting = replace(opened, state="betting", deck_in_play="blue", manual_shuffle=False)
    tries = {
        "deck_received": (opened, Event("deck_received", T0, "d", "dealer", {"deck": "green"})),
        "deck_verified": (opened, Event("deck_verified", T0, "d", "dealer", {"deck": "red"})),
        "shuffle_started": (replace(opened, decks={"red": Deck("red", T0)}),
                            Event("shuffle_started", T0, "d", "dealer", {"deck": "red"})),
        "cut": (betting, Event("cut", T0, "d", "dealer", {"depth": 20, "by": 1})),
        "recut_ordered": (replace(betting, cut_by=1), Event("recut_ordered", T0, "d", "dealer", {})),
        "dealer_wager_placed": (betting, Event("dealer_wager_placed", T0, "d", "dealer",
                                               {"cents": 500, "last_wager": 500})),
        "position_determined": (replace(betting, state="no_more_bets", dealing_method="automated-shoe"),
                                Event("position_determined", T0, "d", "dealer",
                                      {"method": rules.procedures.starting_position[0], "value": 9, "position": 3})),
        "dealt": (replace(betting, state="no_more_bets", dealing_method="automated-shoe"),
                  Event("dealt", T0, "d", "dealer", {"remaining": 4, "hand_sizes": [7] * 7})),
    }
    out = {}
    for what, (state, event) in tries.items():
        try:
            apply(state, event, rules)
        except Refused as e:
            out[what] = str(e)
    return out


@pytest.mark.parametrize("name", PROFILES)
def test_the_procedures_refusals_cite_the_tables_own_text(name):
    rules = profile(name).rules
    said = refusals(rules)
    assert len(said) >= 6, said
    assert [f"{what}: {text!r} cites {t}" for what, text in said.items() for t in dict.fromkeys(foreign(text, rules))] \
        == []
