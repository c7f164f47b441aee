"""A table's station (app/workstation/desks/people.py, ``sign_in_at``, ``at``): the dealer at the
table signs in there with a PIN and acts in their own name and role, whoever is (or is not)
signed in at the workstation; and the random number a table's RNG shows counts its starting
position (000(k)(3)), as the demo floor's dealers rely on. Real SQLite files, no mocks."""

import json
import threading

import pytest

from app.devices.link import DeviceMessage
from app.devices.messages import decode_message, encode_message
from app.engine.position import rng
from app.workstation.errors import NotPermitted, Refused, SignInRefused, SignInRequired
from tests.support.workstation import DEALER, FLOOR, T0, open_by_hand, open_ws

RNG_FLOOR_TOML = """
[[tables]]
id = "T1"
profile = "section6"

[[tables.devices]]
class = "rng"
serial = "RNG-T1"
url = "socket://127.0.0.1:9"

[[tables]]
id = "T2"
profile = "nj"
"""


@pytest.fixture
def ws(tmp_path, monkeypatch, clock):
    w = open_ws(tmp_path, monkeypatch, clock, RNG_FLOOR_TOML)
    yield w
    w.close()


def rows_of(ws, type_):
    return [(r["actor"], r["role"], r["table_id"], json.loads(r["body"])["data"])
            for r in ws.log.query("SELECT actor, role, table_id, body FROM events WHERE type = ? ORDER BY seq",
                                  (type_,))]


def test_a_dealer_signed_in_at_a_tables_station_acts_there_while_nobody_is_signed_in_at_the_workstation(ws):
    open_by_hand(ws)
    ws.people.sign_out()
    station = ws.people.sign_in_at("T1", *DEALER)
    assert ws.people.session() is None
    with pytest.raises(SignInRequired):
        ws.decisions.record("T1", "shuffle_started", {"deck": "red"})
    with ws.people.at(station):
        ws.decisions.record("T1", "shuffle_started", {"deck": "red"})
    assert ws.state_of("T1")[0].state == "shuffling"
    # the row is the dealer's, and the sign-in names the station
    assert rows_of(ws, "shuffle_started")[-1][:3] == ("demo-dealer", "dealer", "T1")
    assert rows_of(ws, "sign_in")[-1] == ("demo-dealer", "dealer", "T1", {"name": "demo-dealer", "station": "T1"})
    # outside ``at`` nothing is done in the station's name
    with pytest.raises(SignInRequired):
        ws.decisions.record("T1", "shuffle_completed", {"deck": "red", "manual": True})


def test_a_station_is_its_persons_role_and_this_threads_only(ws):
    open_by_hand(ws)
    ws.people.sign_in(*FLOOR)           # the supervisor at the workstation
    station = ws.people.sign_in_at("T1", *DEALER)
    with ws.people.at(station):
        # a dealer may not verify a deck (000(e)(1): the floor supervisor verifies), nor add users
        with pytest.raises(Refused, match=r"the floor person verifies the inspection \(000\(e\)\(1\)\), not a dealer"):
            ws.decisions.record("T1", "deck_verified", {"deck": "red"})
        with pytest.raises(NotPermitted, match="demo-dealer is a dealer; to add users takes"):
            ws.people.add_user("someone", "dealer", "5555")
        seen = []
        other = threading.Thread(target=lambda: seen.append(ws.people.allowed(("floor supervisor",), "x")[0].name))
        other.start()
        other.join()
        assert seen == ["demo-floor"]   # another thread acts as whoever is at the workstation
    assert ws.people.session().name == "demo-floor"


def test_a_wrong_pin_at_a_station_is_refused_and_logged(ws):
    with pytest.raises(SignInRefused, match="wrong PIN"):
        ws.people.sign_in_at("T1", "demo-dealer", "0000")
    assert rows_of(ws, "sign_in_failed")[-1][0] == "demo-dealer"
    with pytest.raises(Exception, match="no table 'T9'"):
        ws.people.sign_in_at("T9", *DEALER)


def sign_ins(ws):
    """The sign-ins log as the logs view reads it (the ``sign_ins`` read model): name and event."""
    return [(r["name"], r["event"]) for r in ws.log.query("SELECT name, event FROM sign_ins ORDER BY seq")]


def test_one_sign_in_at_the_stations_of_every_table_checks_the_pin_once_and_logs_one_row(ws):
    """The demo floor's one dealer and one floor supervisor at every table (issue 33: the sign-ins
    log showed demo-floor SIGNED IN once for each table, seven times in two seconds)."""
    open_by_hand(ws, "T1")
    open_by_hand(ws, "T2")
    ws.people.sign_out()
    before = sign_ins(ws)
    stations = ws.people.sign_in_at_stations(("T1", "T2"), *DEALER)
    assert ws.people.session() is None                     # the workstation's session is not touched
    assert {t: (s.table, s.name, s.role) for t, s in stations.items()} == \
        {"T1": ("T1", "demo-dealer", "dealer"), "T2": ("T2", "demo-dealer", "dealer")}
    assert sign_ins(ws)[len(before):] == [("demo-dealer", "sign_in")]
    assert rows_of(ws, "sign_in")[-1] == ("demo-dealer", "dealer", None,
                                          {"name": "demo-dealer", "stations": ["T1", "T2"]})
    # each station acts at its own table, in the dealer's name and role
    for table, station in stations.items():
        with ws.people.at(station):
            ws.decisions.record(table, "shuffle_started", {"deck": "red"})
        assert rows_of(ws, "shuffle_started")[-1][:3] == ("demo-dealer", "dealer", table)
    # a wrong PIN is one failure, counted once toward the lockout; a table not on the floor is
    # refused before any PIN is checked, with nothing logged
    with pytest.raises(SignInRefused, match=r"wrong PIN \(1 of 5"):
        ws.people.sign_in_at_stations(("T1", "T2"), "demo-dealer", "0000")
    logged = len(sign_ins(ws))
    with pytest.raises(Refused, match="no table 'T9'"):
        ws.people.sign_in_at_stations(("T1", "T9"), *DEALER)
    assert len(sign_ins(ws)) == logged


def rng_says(ws, number, when=T0):
    message = decode_message(encode_message("rng_number", 1, number=number))
    ws.events.put(DeviceMessage("socket://127.0.0.1:9", "RNG-T1", "rng", message, when, 0.0))
    return ws.live.pump(when)


def test_the_number_the_rng_shows_counts_the_starting_position_when_the_table_waits_for_it(ws):
    """000(k)(3): counted counterclockwise from the dealer as one; a number shown at another time
    is a reading only."""
    open_by_hand(ws)
    ws.decisions.record("T1", "shuffle_started", {"deck": "red"})
    ws.decisions.record("T1", "shuffle_completed", {"deck": "red", "manual": False})
    ws.decisions.record("T1", "player_seated", {"seat": 2})
    rng_says(ws, 5)                    # betting: nothing to count yet
    assert ws.state_of("T1")[0].starting_position is None
    ws.decisions.record("T1", "no_more_bets", {"method": "automated-shoe", "wagers": [2]})
    rng_says(ws, 5)
    state = ws.state_of("T1")[0]
    assert state.starting_position == rng(5).position
    row = rows_of(ws, "position_determined")[-1]
    assert row[:3] == ("RNG-T1", "device", "T1")
    assert row[3] == {"method": "rng", "value": 5, "position": rng(5).position}
