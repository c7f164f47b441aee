"""The progressive readout of the workstation (app/workstation/progressive_readout.py) and the acceptor
check (app/workstation/acceptors.py), on a real audit database: the controller's messages go
into the workstation's link queue as its link would put them, and each figure is compared with
the log read here with SQL of its own."""

import json
from datetime import datetime, timedelta

import pytest

from app.devices.link import DeviceMessage
from app.devices.messages import decode_message, encode_message
from app.workstation import config
from app.simulate.demo import add_demo_users
from app.workstation.workstation import Workstation

T0 = datetime(2026, 11, 23, 15, 0)
FLOOR, PIT, DEALER = ("demo-floor", "2222"), ("demo-pit", "3333"), ("demo-dealer", "4444")
FLOOR_TOML = """\
[[tables]]
id = "T1"
profile = "section6"
devices = [{class = "progressive", serial = "PRG-T1", url = "socket://127.0.0.1:9"}]

[[tables]]
id = "T2"
profile = "nj"
devices = [{class = "progressive", serial = "PRG-T2", url = "socket://127.0.0.1:10"}]

[[tables]]
id = "T3"
profile = "casino"
"""


class Clock:
    def __init__(self):
        self.t = T0

    def __call__(self):
        return self.t

    def set(self, t):
        self.t = t


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def ws(tmp_path, monkeypatch, clock):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    w = Workstation(config.parse(FLOOR_TOML, "floor.toml"), tmp_path / "pit.db", clock=clock)
    add_demo_users(w)
    yield w
    w.close()


_seq = [0]


def say(ws, serial, name, **values):
    """The controller says ``name``: the link's DeviceMessage, stamped with the clock."""
    _seq[0] = (_seq[0] + 1) % 256
    m = decode_message(encode_message(name, _seq[0], **values))
    ws.events.put(DeviceMessage("socket://127.0.0.1:9", serial, m["device"], m, ws.clock(), 0.0))


def logged_readings(ws, table):
    """The controller's readings as the log holds them, read here without the readout's code."""
    out = []
    for r in ws.log.query("SELECT seq, time, body FROM events WHERE type = 'meter_reading' AND table_id = ? "
                          "ORDER BY seq", (table,)):
        d = json.loads(r["body"])["data"]
        if d["source"] in ("controller", "reset"):
            out.append((r["seq"], datetime.fromisoformat(r["time"]), d["cents"], d["source"]))
    return out


def of(readouts, serial):
    return next(r for r in readouts if r.serial == serial)


def test_every_controller_is_read_with_its_tables_and_its_meter_series_since_a_time(ws, clock):
    say(ws, "PRG-T1", "meter", cents=1_000_000)
    ws.live.pump()
    clock.set(T0 + timedelta(minutes=5))
    for cents in (1_000_021, 1_000_042, 1_000_063):
        say(ws, "PRG-T1", "meter", cents=cents)
        say(ws, "PRG-T1", "meter", cents=cents)      # a broadcast of the same value is not a reading
    ws.live.pump()
    got = ws.reads.progressive()
    assert [(r.serial, r.tables, r.profile, r.rule_text) for r in got] == \
        [("PRG-T1", ("T1",), "section6", "000"), ("PRG-T2", ("T2",), "nj", "001")]   # T3 has no progressive
    t1 = of(got, "PRG-T1")
    log = logged_readings(ws, "T1")
    assert list(zip(t1.series.seq, t1.series.cents)) == [(seq, cents) for seq, _, cents, _ in log] and len(log) == 4
    # the times on the log's own clock: seconds since 1970 of the local time as written
    assert [round(x, 3) for x in t1.series.seconds] == [(t - datetime(1970, 1, 1)).total_seconds()
                                                         for _, t, _, _ in log]
    assert (t1.meter, t1.meter_time) == (1_000_063, T0 + timedelta(minutes=5))
    assert t1.link == "connecting" and t1.locked is None and t1.lit is None and t1.reset_cents == 1_000_000
    # since a time: the readings from then, and the meter as it stood then
    later = ws.reads.progressive(since=T0 + timedelta(minutes=1))
    t1 = of(later, "PRG-T1")
    assert list(t1.series.cents) == [1_000_021, 1_000_042, 1_000_063]
    assert t1.start.cents == 1_000_000 and t1.start.seq == log[0][0]
    # after the last row read: only what came since
    say(ws, "PRG-T1", "meter", cents=1_000_084)
    ws.live.pump()
    t1 = of(ws.reads.progressive(since=T0 + timedelta(minutes=1), after=t1.last_seq), "PRG-T1")
    assert list(zip(t1.series.seq, t1.series.cents)) == [(logged_readings(ws, "T1")[-1][0], 1_000_084)]


def test_a_long_series_is_read_a_page_at_a_time_each_controller_from_its_own_last_row(ws, clock):
    for n in range(5):
        say(ws, "PRG-T1", "meter", cents=1_000_000 + 21 * n)
        say(ws, "PRG-T2", "meter", cents=2_000_000 + 21 * n)
    ws.live.pump()
    page = of(ws.reads.progressive(since=T0, limit=2), "PRG-T1")
    assert list(page.series.cents) == [1_000_000, 1_000_021] and page.more
    assert page.last_seq == page.series.seq[-1]
    rest = ws.reads.progressive(since=T0, after={"PRG-T1": page.last_seq}, limit=10)
    assert list(of(rest, "PRG-T1").series.cents) == [1_000_042, 1_000_063, 1_000_084]
    assert not of(rest, "PRG-T1").more
    # a controller not named in ``after`` is read from the start of ``since``
    assert list(of(rest, "PRG-T2").series.cents) == [2_000_000 + 21 * n for n in range(5)]


def enter_round(ws, table, hands, stake="1"):
    """The round being entered at ``table``: each seat of ``hands`` with a base and a progressive
    wager and its seven cards, as a dealer types them (the hand a controller's hit is checked
    against, app/workstation/hits.py)."""
    ws.people.sign_in(*DEALER)
    ws.rounds.start(table)
    for seat, cards in hands.items():
        ws.rounds.set_wagers(table, seat, {"base": "10", "progressive": stake})
        ws.rounds.set_cards(table, seat, cards)


NATURAL_ROYAL_AND_PAIR = "As Ks Qs Js Ts 2h 2d"
ROYAL_WITH_THE_JOKER = "Ah Kh Qh Jh Jk 3c 4d"


def test_hits_in_the_order_reported_pending_until_approved_with_the_profiles_payout_and_the_reset(ws, clock):
    enter_round(ws, "T2", {3: NATURAL_ROYAL_AND_PAIR, 5: ROYAL_WITH_THE_JOKER})
    say(ws, "PRG-T2", "meter", cents=1_234_567)
    say(ws, "PRG-T2", "hit_pending", seat=3, line="Natural Royal Flush and Pair", cents=1_234_567)
    ws.live.pump()
    clock.set(T0 + timedelta(seconds=30))
    say(ws, "PRG-T2", "reset", cents=1_000_000)
    say(ws, "PRG-T2", "meter", cents=1_000_021)
    say(ws, "PRG-T2", "hit_pending", seat=5, line="Royal Flush", cents=999)   # the pay table says $100.00
    ws.live.pump()
    first, second = of(ws.reads.progressive(), "PRG-T2").hits
    requests = ws.log.query("SELECT seq, body FROM events WHERE type = 'approval_requested' AND table_id = 'T2' "
                            "ORDER BY seq")
    assert [first.request, second.request] == [r["seq"] for r in requests
                                               if json.loads(r["body"])["data"]["kind"] == "progressive_meter_payout"]
    assert (first.order, second.order) == (1, 2) and first.order_rule == "001 11.14(c)"
    assert (first.seat, first.line, first.line_key, first.reported) == (3, "Natural Royal Flush and Pair",
                                                                        "natural_royal_and_pair", 1_234_567)
    assert first.state == "PENDING" and first.role_needed == "pit manager" and first.validate_rule == "001 11.14(c)3"
    # 001 11.14(d): 100 percent of the meter on either wager; (g) the meter as it stands; (f) the reset
    assert first.meter == 1_234_567 and first.agrees
    assert [(p.paytable, p.amount, p.pays, p.amount_rule, p.from_meter, p.meter_after, p.reset)
            for p in first.payouts] == [("progressive-1", 1_234_567, "100% of meter", "001 11.14(g)", True, 1_000_000,
                                         1_000_000),
                                        ("progressive-5", 1_234_567, "100% of meter", "001 11.14(g)", True, 1_000_000,
                                         1_000_000)]
    assert (first.reset.cents, first.reset.source, first.reset_rule) == (1_000_000, "reset", "001 11.14(f)")
    # the controller's figure disagrees with both pay tables' royal flush ($100.00, $500.00)
    assert second.agrees is False and [p.amount for p in second.payouts] == [10_000, 50_000]
    assert second.payout.paytable == "progressive-1" and second.reset is None and second.meter == 1_000_021

    ws.people.sign_in(*PIT)
    ws.decisions.decide(first.request, "approved")
    ws.decisions.decide(second.request, "denied", "the hand was a straight, not a royal flush")
    first, second = of(ws.reads.progressive(), "PRG-T2").hits
    assert (first.state, first.decided_by, first.decided_role) == ("PAID", "demo-pit", "pit manager")
    assert (second.state, second.decision_reason) == ("DENIED", "the hand was a straight, not a royal flush")
    # a hit decided before ``since`` is left out; a pending one never is
    assert of(ws.reads.progressive(since=T0 + timedelta(hours=1)), "PRG-T2").hits == ()


def test_the_meter_at_the_start_and_end_of_each_shift_and_every_reset(ws, clock):
    # the day shift ends at 16:00 and the swing shift starts then (app/workstation/shifts.py)
    for when, name, cents in ((T0, "meter", 1_500_000), (T0 + timedelta(minutes=30), "meter", 1_500_021),
                              (T0 + timedelta(minutes=90), "reset", 1_000_000),
                              (T0 + timedelta(minutes=95), "meter", 1_000_021),
                              (T0 + timedelta(minutes=100), "reset", 999_000)):
        clock.set(when)
        say(ws, "PRG-T1", name, cents=cents)
        ws.live.pump()
    now = T0 + timedelta(minutes=150)   # 17:30
    clock.set(now)
    rec = of(ws.reads.progressive(), "PRG-T1").record
    log = logged_readings(ws, "T1")
    rows = [(m.time, m.shift, m.what, m.cents, m.seq) for m in rec]
    day, swing = datetime(2026, 11, 23, 8), datetime(2026, 11, 23, 16)
    assert rows == [(day, "day 2026-11-23", "start of shift", None, None),
                    (swing, "day 2026-11-23", "end of shift", 1_500_021, log[1][0]),
                    (swing, "swing 2026-11-23", "start of shift", 1_500_021, log[1][0]),
                    (log[2][1], "swing 2026-11-23", "reset", 1_000_000, log[2][0]),
                    (log[4][1], "swing 2026-11-23", "reset", 999_000, log[4][0])]
    assert rec[0].note == "no reading of the controller yet"
    assert rec[3].note == "the profile's reset amount" and rec[3].rule == "000(q)(6)" and not rec[3].below_reset
    assert rec[4].below_reset and rec[4].note == "under the profile's reset amount of $10,000.00"
    # the auditor's record over a chosen period: the swing shift only
    only = of(ws.reads.progressive(record_from=swing, now=now), "PRG-T1").record
    assert [m.what for m in only] == ["start of shift", "reset", "reset"]


def open_round(ws, table, progressive_seats, lit):
    """A shuffled deck, three seated players, the controller lighting ``lit`` and locking out,
    and No more bets with the progressive wagers at ``progressive_seats``."""
    for deck in ("red", "blue"):
        ws.people.sign_in(*DEALER)
        for kind in ("deck_received", "deck_inspected"):
            ws.decisions.record(table, kind, {"deck": deck})
        ws.people.sign_in(*FLOOR)
        ws.decisions.record(table, "deck_verified", {"deck": deck})
        ws.people.sign_in(*DEALER)
        ws.decisions.record(table, "deck_spread", {"deck": deck})
        ws.decisions.record(table, "deck_washed", {"deck": deck})
    ws.decisions.record(table, "dice_placed")
    ws.decisions.record(table, "shuffle_started")
    ws.decisions.record(table, "shuffle_completed", {"deck": "red", "manual": False, "card_count": 53})
    for seat in (1, 2, 3):
        ws.decisions.record(table, "player_seated", {"seat": seat})
    say(ws, "PRG-T1", "acceptor_lights", lit=sum(1 << (s - 1) for s in lit))
    say(ws, "PRG-T1", "lockout", locked=True)
    ws.live.pump()
    ws.decisions.record(table, "no_more_bets", {"method": "automated-shoe", "wagers": [1, 2, 3],
                                      "progressive": list(progressive_seats)})


def test_a_light_without_a_wager_or_a_wager_without_a_light_raises_the_alarm_once(ws):
    open_round(ws, "T1", progressive_seats=(2, 3), lit=(1, 2))
    assert not [a for a in ws.reads.alarms() if a.kind == "acceptor_mismatch"]
    ws.live.pump()                      # the workstation looks at the state it holds, on its next pump
    (alarm,) = [a for a in ws.reads.alarms() if a.kind == "acceptor_mismatch"]
    assert alarm.table == "T1" and alarm.serial == "PRG-T1" and "000(q)(2)" in alarm.rule
    assert "acceptor light lit without a progressive wager at seat 1" in alarm.message
    assert "progressive wager without its acceptor light at seat 3" in alarm.message
    t1 = of(ws.reads.progressive(), "PRG-T1")
    assert (t1.locked, t1.lit, t1.round_wagers) == (True, (1, 2), (2, 3)) and not t1.acceptors.agrees
    ws.live.pump()
    ws.live.pump()
    assert len([a for a in ws.reads.alarms() if a.kind == "acceptor_mismatch"]) == 1   # once per round


def test_lights_that_match_the_wagers_raise_nothing(ws):
    open_round(ws, "T1", progressive_seats=(1, 3), lit=(1, 3))
    ws.live.pump()
    ws.live.pump()
    assert not [a for a in ws.reads.alarms() if a.kind == "acceptor_mismatch"]
    assert of(ws.reads.progressive(), "PRG-T1").acceptors.text == "2 lights for 2 progressive wagers"


def test_a_round_checked_before_a_restart_is_not_alarmed_again(tmp_path, monkeypatch, clock):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    cfg = config.parse(FLOOR_TOML, "floor.toml")
    with Workstation(cfg, tmp_path / "pit.db", clock=clock) as w:
        add_demo_users(w)
        open_round(w, "T1", progressive_seats=(2,), lit=(1,))
        w.live.pump()
        assert len([a for a in w.reads.alarms() if a.kind == "acceptor_mismatch"]) == 1
    with Workstation(cfg, tmp_path / "pit.db", clock=clock) as w:
        say(w, "PRG-T1", "acceptor_lights", lit=1)
        say(w, "PRG-T1", "lockout", locked=True)
        w.live.pump()
        w.live.pump()
        assert len([a for a in w.reads.alarms() if a.kind == "acceptor_mismatch"]) == 1


# -- a hit comes from a hand (app/workstation/hits.py) ---------------------------------------------
def kinds(ws, table, kind):
    return [a for a in ws.reads.approvals(pending_only=False, table=table) if a.kind == kind]


def test_a_hit_claimed_for_a_seat_without_a_progressive_wager_is_an_alarm_and_no_request(ws):
    # 000(q)(1)-(3): a hit is paid on a progressive wager; seat 6 made none this round
    enter_round(ws, "T2", {3: NATURAL_ROYAL_AND_PAIR})
    say(ws, "PRG-T2", "hit_pending", seat=6, line="Natural Royal Flush and Pair", cents=1_000_000)
    changed = ws.live.pump()
    assert kinds(ws, "T2", "progressive_meter_payout") == [] and not changed.approvals
    (alarm,) = [a for a in ws.reads.alarms(table="T2") if a.kind == "progressive_hit_refused"]
    # T2 is an nj table: it cites its own 001 11.14(c)3, not 000(q) (issue 33)
    assert "seat 6 has no progressive wager in round 1" in alarm.message and alarm.rule == "001 11.14(c)3"
    assert "progressive_hit" not in {a.kind for a in ws.reads.alarms(table="T2")}


def test_a_hit_the_hand_does_not_make_is_an_alarm_and_no_request(ws):
    enter_round(ws, "T2", {3: NATURAL_ROYAL_AND_PAIR})
    say(ws, "PRG-T2", "hit_pending", seat=3, line="Five Aces and Pair", cents=1_000_000)
    ws.live.pump()
    assert kinds(ws, "T2", "progressive_meter_payout") == []
    (alarm,) = [a for a in ws.reads.alarms(table="T2") if a.kind == "progressive_hit_refused"]
    assert "seat 3's hand (As Ks Qs Js Ts 2h 2d) makes " in alarm.message and \
        alarm.message.split(" makes ")[1].startswith(("natural royal and pair, not Five Aces and Pair",
                                                      "royal and pair, not Five Aces and Pair"))
    # the hand not known at all: no request either, the settlement pays what the hand makes
    say(ws, "PRG-T2", "hit_pending", seat=4, line="Royal Flush", cents=10_000)
    ws.rounds.set_wagers("T2", 4, {"base": "10", "progressive": "1"})
    ws.live.pump()
    assert kinds(ws, "T2", "progressive_meter_payout") == []


def test_an_approved_hit_is_one_request_paid_with_one_slip_and_the_reset_is_the_hits(ws, clock):
    say(ws, "PRG-T2", "meter", cents=1_234_567)
    enter_round(ws, "T2", {3: NATURAL_ROYAL_AND_PAIR})
    ws.rounds.set_cards("T2", 0, "3c 4c 5c 6c 8d 9d Tc")
    ws.rounds.set_hands("T2", 3, "As Ks Qs Js Ts", "2h 2d")
    say(ws, "PRG-T2", "hit_pending", seat=3, line="Natural Royal Flush and Pair", cents=1_234_567)
    ws.live.pump()
    (hit,) = kinds(ws, "T2", "progressive_meter_payout")
    assert hit.role_needed == "pit manager" and hit.status == "pending"
    # the round settled: its progressive payout is the controller's request, not a second one
    r = ws.rounds.settle("T2").result
    (approval,) = [a for a in r.approvals if a.kind == "progressive_meter_payout"]
    assert approval.request == hit.request and r.status == "pending"
    assert len(kinds(ws, "T2", "progressive_meter_payout")) == 1
    ws.people.sign_in(*PIT)
    changed = ws.decisions.decide(hit.request, "approved", "light and hand verified")
    assert changed.rounds == {"T2"} and ws.rounds.result(r.settlement).status == "ready"
    # released: the payout off the meter has its slip, with the W-2G data ($600 and 300 times $1)
    payee = {"name": "Pat Lee", "address": "1 Main Street, Reno NV", "tin": "123-45-6789",
             "id_type": "driver license", "id_number": "D1234567"}
    ws.rounds.release(r.settlement, {3: payee})
    (slip,) = ws.rounds.slip_book("T2")
    # paid as the settlement pays it: 100% of the meter as it stands, this round's wager in it
    # (000(q)(5), (7)); the request keeps what the controller claimed
    (paid,) = [p for p in r.payouts if p.wager == "progressive"]
    assert paid.cents == 1_234_567 + 21 and approval.cents == 1_234_567
    assert (slip.seat, slip.wager, slip.win_cents, slip.settlement) == (3, "progressive", paid.cents, r.settlement)
    assert slip.w2g is not None and slip.w2g["payee_name"] == "Pat Lee"
    # the controller resets the meter after the paid top award (000(q)(6)): the hit's, no request
    clock.set(T0 + timedelta(minutes=2))
    say(ws, "PRG-T2", "reset", cents=1_000_000)
    ws.live.pump()
    assert kinds(ws, "T2", "meter_reset") == []
    (reset,) = [json.loads(r["body"])["data"] for r in ws.log.query(
        "SELECT body FROM events WHERE type = 'meter_reading' AND json_extract(body, '$.data.source') = 'reset'")]
    assert reset["hit"] == hit.request and reset["cents"] == 1_000_000
    # a second reset follows no paid hit: a pit manager's request of its own (000(q)(6))
    say(ws, "PRG-T2", "reset", cents=1_000_000)
    ws.live.pump()
    assert len(kinds(ws, "T2", "meter_reset")) == 1
