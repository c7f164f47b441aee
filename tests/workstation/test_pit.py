"""The live pit: device events through the procedures into a real audit database (app/workstation/pit.py)."""

from datetime import datetime, timedelta

import pytest

from app.devices.link import DeviceMessage, LinkLog, LinkState
from app.devices.messages import decode_message, encode_message
from app.engine.procedure import Event, Refused
from app.workstation.pit import Pit, TableConfig
from app.store import audit, paths

T0 = datetime(2026, 11, 21, 14, 0)
DEVICES = {"SHF-1": "shuffler", "PRG-1": "progressive", "RNG-1": "rng"}


class Clock:
    def __init__(self):
        self.t = T0

    def __call__(self, seconds=1):
        self.t += timedelta(seconds=seconds)
        return self.t


def msg(serial, name, clock, seq=[0], **values):  # noqa: B006 - a running SEQ across the test
    seq[0] = (seq[0] + 1) % 256
    m = decode_message(encode_message(name, seq[0], **values))
    return DeviceMessage(f"socket://127.0.0.1:1/{serial}", serial, m["device"], m, clock(), 0.0)


def link(serial, device, new, clock, old="online"):
    return LinkState(f"socket://127.0.0.1:1/{serial}", serial, device, old, new, "test", clock())


def opened_table(pit, clock, table="T1"):
    """000(e)(1)-(4): two decks received, inspected, verified by the floor, spread and washed; the
    players sit down."""
    for deck in ("red", "blue"):
        for kind, role in (("deck_received", "dealer"), ("deck_inspected", "dealer"),
                           ("deck_verified", "floor supervisor"), ("deck_spread", "dealer"),
                           ("deck_washed", "dealer")):
            pit.floor.record(table, Event(kind, clock(), "dee", role, {"deck": deck}))
    pit.floor.record(table, Event("dice_placed", clock(), "dee", "dealer", {}))
    for seat in (1, 2, 3):
        pit.floor.record(table, Event("player_seated", clock(), f"p{seat}", "player", {"seat": seat}))


def rows(log, sql, params=()):
    return log.query(sql, params)


def test_a_shuffle_with_a_wrong_count_removes_the_deck_and_raises_an_alarm(log):
    # 001 11.17(i), 000(b)(1): a shuffler that counts other than 53 cards: the deck is removed
    clock = Clock()
    pit = Pit(log, [TableConfig("T1", "section6", DEVICES)], clock=clock)
    opened_table(pit, clock)
    pit.handle([msg("SHF-1", "shuffle_started", clock, deck="red"),
                msg("SHF-1", "card_count", clock, deck="red", count=53),
                msg("SHF-1", "shuffle_completed", clock, deck="red")])
    assert pit.floor.state("T1").deck_in_play == "red" and pit.floor.state("T1").state == "betting"
    pit.handle([msg("SHF-1", "shuffle_started", clock, deck="blue"),
                msg("SHF-1", "card_count", clock, deck="blue", count=52),
                msg("SHF-1", "shuffle_completed", clock, deck="blue")])
    state = pit.floor.state("T1")
    # a section6 table cites its own 000(b)(1), not 001 11.17(i) (issue 33)
    assert "blue" not in state.decks and state.irregularities[-1].rule == "000(b)(1)"
    assert [r["status"] for r in rows(log, "SELECT status FROM decks WHERE deck = 'blue'")] == ["removed"]
    alarms = rows(log, "SELECT kind, message FROM alarms")
    assert [a["kind"] for a in alarms] == ["deck_count_wrong"] and "52 cards" in alarms[0]["message"]
    events = rows(log, "SELECT actor, role FROM events WHERE type = 'shuffle_completed'")
    assert {(e["actor"], e["role"]) for e in events} == {("SHF-1", "device")}
    assert pit.heard["T1"].alarms == 1


def test_a_meter_hit_asks_for_approval_and_readings_are_logged_when_they_change(log):
    # 000(q)(3)(iii): a supervisor validates a payout from the progressive meter
    clock = Clock()
    pit = Pit(log, [TableConfig("T1", "section6", DEVICES)], clock=clock)
    pit.handle([msg("PRG-1", "meter", clock, cents=2_500_000), msg("PRG-1", "meter", clock, cents=2_500_000),
                msg("PRG-1", "meter", clock, cents=2_500_300)])
    assert [r["cents"] for r in rows(log, "SELECT cents FROM meter_readings ORDER BY seq")] == [2_500_000, 2_500_300]
    pit.handle([msg("PRG-1", "hit_pending", clock, seat=3, line="royal flush", cents=250_030)])
    req = rows(log, "SELECT kind, seat, cents, status, rule FROM approvals")
    assert [(r["kind"], r["seat"], r["cents"], r["status"]) for r in req] == [
        ("progressive_meter_payout", 3, 250_030, "pending")]
    assert "000(q)(3)" in req[0]["rule"]
    assert pit.heard["T1"].meter == 2_500_300


def test_the_controller_offline_closes_progressive_wagers_until_it_is_back(log):
    # 000(q): the controller locks out, lights the acceptors and moves the meter
    clock = Clock()
    pit = Pit(log, [TableConfig("T1", "section6", DEVICES)], clock=clock)
    opened_table(pit, clock)
    pit.handle([msg("SHF-1", "shuffle_started", clock, deck="red"),
                msg("SHF-1", "card_count", clock, deck="red", count=53),
                msg("SHF-1", "shuffle_completed", clock, deck="red"),
                link("PRG-1", "progressive", "online", clock, old="connecting"),
                link("PRG-1", "progressive", "offline", clock)])
    assert pit.floor.state("T1").progressive_online is False
    nmb = Event("no_more_bets", clock(), "dee", "dealer", {"method": "manual-shoe", "wagers": [1, 2],
                                                           "progressive": [2]})
    with pytest.raises(Refused, match="progressive wagers are closed while the progressive controller is offline"):
        pit.floor.record("T1", nmb)
    assert [a["kind"] for a in rows(log, "SELECT kind FROM alarms")] == ["progressive_offline"]
    pit.handle([link("PRG-1", "progressive", "online", clock, old="connecting")])
    assert pit.floor.state("T1").progressive_online is True
    pit.floor.record("T1", Event("no_more_bets", clock(), "dee", "dealer", {"method": "manual-shoe",
                                                                             "wagers": [1, 2], "progressive": [2]}))
    assert pit.floor.state("T1").round_progressive == (2,)


def test_what_the_procedures_refuse_is_logged_as_a_device_fault_and_nothing_else(log):
    clock = Clock()
    pit = Pit(log, [TableConfig("T1", "section6", DEVICES)], clock=clock)
    # the table is not open: a shuffle is refused by the procedures (000(e))
    pit.handle([msg("SHF-1", "shuffle_started", clock, deck="red")])
    faults = rows(log, "SELECT device, code, message FROM device_faults")
    assert [(f["device"], f["code"]) for f in faults] == [("shuffler", "refused")]
    assert faults[0]["message"].startswith("shuffle started: not allowed while the table is closed (allowed in: "
                                           "opening, round complete, betting, no more bets")
    assert rows(log, "SELECT count(*) AS n FROM events WHERE type = 'shuffle_started'")[0]["n"] == 0
    assert pit.heard["T1"].refused == 1


def test_an_unknown_device_is_logged_once_and_a_link_log_is_kept(log):
    clock = Clock()
    pit = Pit(log, [TableConfig("T1", "section6", DEVICES)], clock=clock)
    pit.handle([msg("XXX-9", "rng_number", clock, number=3), msg("XXX-9", "rng_number", clock, number=4),
                LinkLog("socket://10.0.0.9:4001", "socket://10.0.0.9:4001: cannot open the port: refused", clock())])
    faults = rows(log, "SELECT code, message FROM device_faults ORDER BY seq")
    assert [f["code"] for f in faults] == ["not_configured", "link"]
    assert "'XXX-9'" in faults[0]["message"] and "cannot open the port" in faults[1]["message"]


def test_a_restart_picks_up_the_tables_and_the_log_verifies(log, tmp_path):
    clock = Clock()
    pit = Pit(log, [TableConfig("T1", "section6", DEVICES)], clock=clock)
    opened_table(pit, clock)
    pit.handle([msg("SHF-1", "shuffle_started", clock, deck="red")])
    again = Pit(log, [TableConfig("T1", "section6", DEVICES)], clock=clock)
    assert again.floor.state("T1").state == "shuffling"
    assert rows(log, "SELECT count(*) AS n FROM events WHERE type = 'table_configured'")[0]["n"] == 1
    with pytest.raises(ValueError, match="configured with profile 'section6' in this log, not 'nj'"):
        Pit(log, [TableConfig("T1", "nj", DEVICES)], clock=clock)
    with pytest.raises(ValueError, match="device SHF-1 is configured at tables T1 and T2"):
        Pit(log, [TableConfig("T1", "section6", DEVICES), TableConfig("T2", "section6", {"SHF-1": "shuffler"})])
    assert audit.verify_db(log.path, paths.install_key(create=False)).ok


def test_the_screen_changes_only_after_the_log_has_acknowledged(log):
    # the log first, then the screen (app/store/floor.py): a batch the log refuses leaves every
    # table's view as the log holds it
    from app.store.log import StoreStopped

    clock = Clock()
    pit = Pit(log, [TableConfig("T1", "section6", DEVICES)], clock=clock)
    opened_table(pit, clock)
    pit.handle([msg("PRG-1", "meter", clock, cents=2_500_000)])
    before = pit.heard["T1"]
    log.close()   # from here on every append is refused, as on a full disk
    with pytest.raises(StoreStopped):
        pit.handle([msg("SHF-1", "shuffle_started", clock, deck="red"),
                    msg("SHF-1", "card_count", clock, deck="red", count=52),
                    msg("PRG-1", "meter", clock, cents=2_600_000),
                    link("RNG-1", "rng", "offline", clock)])
    after = pit.heard["T1"]
    assert after is before
    assert (after.meter, after.alarms, after.links, after.counts) == (2_500_000, 0, {}, {})
    assert pit.floor.state("T1").state == "opening"


def test_a_batch_moves_the_view_to_the_state_the_log_holds(log):
    clock = Clock()
    pit = Pit(log, [TableConfig("T1", "section6", DEVICES)], clock=clock)
    opened_table(pit, clock)
    pit.handle([])   # picks up what the dealer and the floor logged
    old, was = pit.heard["T1"], pit.floor.state("T1")
    pit.handle([msg("SHF-1", "shuffle_started", clock, deck="red"), link("SHF-1", "shuffler", "online", clock)])
    view = pit.heard["T1"]
    assert view is not old and was.state == "opening" and old.links == {}
    assert pit.states()["T1"] == pit.floor.state("T1") and pit.floor.state("T1").state == "shuffling"
    assert view.links == {"SHF-1": "online"} and view.last_event == "shuffle_started"


def test_a_link_log_line_is_logged_against_the_table_of_the_device_on_that_port(log):
    clock = Clock()
    pit = Pit(log, [TableConfig("T1", "section6", DEVICES)], clock=clock)
    url = "socket://127.0.0.1:1/SHF-1"
    pit.handle([link("SHF-1", "shuffler", "online", clock, old="connecting"),
                LinkLog(url, f"{url}: 2 bad frame(s) refused (CRC, escape or length)", clock())])
    faults = rows(log, "SELECT table_id, code, message FROM device_faults")
    assert [(f["table_id"], f["code"]) for f in faults] == [("T1", "link")]
    assert pit.heard["T1"].faults == 1


def test_a_gap_in_what_a_device_sent_is_logged_as_its_fault_at_its_table(log):
    # docs/devices.md "In order, once each": a frame the device gave up is never a silent skip
    from app.devices.link import LinkGap

    clock = Clock()
    pit = Pit(log, [TableConfig("T1", "section6", DEVICES)], clock=clock)
    url = "socket://127.0.0.1:1/SHF-1"
    pit.handle([LinkGap(url, "SHF-1: frames 7-8 were given up by the device", clock(), "SHF-1", "shuffler", 7, 2,
                        "given up")])
    faults = rows(log, "SELECT table_id, device, code, message FROM device_faults")
    assert [(f["table_id"], f["device"], f["code"]) for f in faults] == [("T1", "shuffler", "gap")]
    body = rows(log, "SELECT body FROM events WHERE type = 'device_fault'")[0]["body"]
    assert '"first_seq":7' in body and '"count":2' in body
    assert pit.heard["T1"].faults == 1


def test_rows_of_the_callers_go_first_in_the_same_append(log):
    from app.store.log import Record

    clock = Clock()
    pit = Pit(log, [TableConfig("T1", "section6", DEVICES)], clock=clock)
    mine = Record("alarm_raised", clock(), "pitdesk", "device", "T1", {"kind": "dice_overdue", "message": "m"})
    seqs = [r.seq for r in pit.handle([msg("XXX-9", "rng_number", clock, number=3)], before=[mine])]
    types = [r["type"] for r in rows(log, "SELECT type FROM events WHERE seq >= ? ORDER BY seq", (seqs[0],))]
    assert types == ["alarm_raised", "device_fault"] and len(seqs) == 2


def test_a_shufflers_hand_reads_are_logged_as_hand_read_rows_and_a_misread_as_its_fault(log):
    # 000(j)(1), (4): seven hands of seven; 000(b)(1): one deck, each card once. Each read is a
    # hand_read row {position, deck, cards, serial} for the round's cards; a misread is logged as
    # read, with a device fault beside it, and the procedures do not move
    import json

    clock = Clock()
    pit = Pit(log, [TableConfig("T1", "section6", DEVICES)], clock=clock)
    opened_table(pit, clock)
    pit.handle([])
    before = pit.floor.state("T1")
    dispensed = msg("SHF-1", "hands_dispensed", clock, deck="red", hands=7, cards_per_hand=7)
    deal = {"deal": f"red {dispensed.time.isoformat(timespec='milliseconds')}", "hands": 7,
            "round": before.round_at_hand()}   # one hand of a deal of seven, for the round the table is on
    pit.handle([dispensed,
                msg("SHF-1", "hand_read", clock, deck="red", position=0,
                    cards=["As", "Kd", "7h", "7c", "2s", "Jk", "10d"]),
                msg("SHF-1", "hand_read", clock, deck="red", position=4,
                    cards=["2h", "3h", "3h", "5h", "6h", "7d"])])
    got = [(r["table_id"], r["actor"], r["role"], json.loads(r["body"])["data"])
           for r in rows(log, "SELECT table_id, actor, role, body FROM events WHERE type = 'hand_read' ORDER BY seq")]
    assert got == [
        ("T1", "SHF-1", "device", {"position": 0, "deck": "red", "serial": "SHF-1",
                                   "cards": ["As", "Kd", "7h", "7c", "2s", "Jk", "Td"], **deal}),
        ("T1", "SHF-1", "device", {"position": 4, "deck": "red", "serial": "SHF-1",
                                   "cards": ["2h", "3h", "3h", "5h", "6h", "7d"], **deal})]
    faults = rows(log, "SELECT table_id, device, code, message FROM device_faults")
    assert [(f["table_id"], f["device"], f["code"]) for f in faults] == [("T1", "shuffler", "misread")]
    assert "6 cards, not seven" in faults[0]["message"] and "3h read twice" in faults[0]["message"]
    view = pit.heard["T1"]
    assert (view.faults, view.alarms, view.meter, view.refused) == (1, 0, None, 0)
    assert pit.floor.state("T1") == before
    assert audit.verify_db(log.path, paths.install_key(create=False)).ok


def test_a_batch_copies_only_what_the_pit_heard_at_the_tables_its_events_name(log):
    # issue 33: a pump copied every table's Heard for the few tables its events named
    clock = Clock()
    pit = Pit(log, [TableConfig("T1", "section6", DEVICES),
                    TableConfig("T2", "section6", {"SHF-2": "shuffler", "PRG-2": "progressive", "RNG-2": "rng"})],
              clock=clock)
    before = dict(pit.heard)
    batch = pit.take([msg("PRG-1", "meter", clock, cents=2_500_000)])
    heard = dict(batch.heard.items())                       # as the batch holds them
    assert heard["T2"] is before["T2"]                      # untouched: the pit's own, not a copy
    assert heard["T1"] is not before["T1"] and heard["T1"].meter == 2_500_000
    assert before["T1"].meter is None                       # the pit's own stays as it was until the commit
    pit.commit(batch)
    assert pit.heard["T1"].meter == 2_500_000 and pit.heard["T2"] is before["T2"]
    assert type(pit.heard) is dict
