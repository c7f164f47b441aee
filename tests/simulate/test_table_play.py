"""The demo floor's dealers (app/simulate/table_play.py) over simulated devices on real sockets,
the workstation pumped as the window pumps it: hours of rounds at the demo's tables, and the log
tells one story (tests/support/demo_floor.py ``disagreements``)."""

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from app.simulate.table_play import Pace
from tests.support.demo_floor import disagreements, play_demo, settled_tables, supervise


def settlements(ws) -> int:
    return ws.log.query("SELECT count(*) AS n FROM events WHERE type = 'settlement'")[0]["n"]


def test_every_table_of_the_demo_deals_reads_and_settles_and_the_log_agrees_with_the_hands_dealt(
        tmp_path, monkeypatch):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    ws = play_demo(tmp_path / "demo.db", Pace(rounds_per_hour=1800, faults_per_shift=0), 3,
                   lambda ws: len(settled_tables(ws)) == 7 and settlements(ws) >= 25, 60)
    try:
        assert settled_tables(ws) == {t.id for t in ws.config.tables}
        compared = []
        assert disagreements(ws, compared) == []
        # every shuffler table's settled hands were held against its reads
        assert {t for t, _, _ in compared} == {"T1", "T2", "T3", "T4", "T5", "T6"}
        # the round numbers advance one by one at each table (000(g))
        for t in ws.config.tables:
            rounds = [r["n"] for r in ws.log.query(
                "SELECT json_extract(body, '$.data.round') AS n FROM events WHERE type = 'settlement' AND "
                "table_id = ? ORDER BY seq", (t.id,))]
            assert rounds == list(range(1, len(rounds) + 1)), (t.id, rounds)
        # a calm floor: no alarm, no device fault
        assert ws.log.query("SELECT count(*) AS n FROM events WHERE type IN ('alarm_raised', 'device_fault')")[0]["n"] == 0
    finally:
        ws.close()


def test_the_pace_is_checked():
    with pytest.raises(ValueError, match="rounds_per_hour must be more than 0"):
        Pace(rounds_per_hour=0)
    with pytest.raises(ValueError, match="faults_per_shift cannot be negative"):
        Pace(faults_per_shift=-1)
    # a few faults a shift: at 30 rounds an hour, 3 in 240 rounds
    assert Pace().fault_chance == 3 / 240
    assert Pace(busy=True).fault_chance == 0.5


@pytest.mark.slow
@settings(max_examples=3, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(seed=st.integers(0, 10**6), busy=st.booleans())
def test_over_simulated_hours_every_settlement_slip_and_request_agrees_with_the_hands_dealt(
        tmp_path_factory, seed, busy):
    """Hours of the demo's rounds (3600 an hour at each table for two minutes: four hours at the
    demo's pace), calm or in a storm of faults."""
    tmp = tmp_path_factory.mktemp("floor")
    with pytest.MonkeyPatch.context() as mp:   # a fixture's monkeypatch would last across examples
        mp.setenv("PITDESK_HOME", str(tmp / "home"))
        play_and_check(tmp, seed, busy)


def play_and_check(tmp, seed: int, busy: bool) -> None:
    # in a storm the supervisor acknowledges what stops a table (a misread waits for a person)
    ws = play_demo(tmp / "demo.db", Pace(rounds_per_hour=3600, busy=busy), seed, supervise if busy else
                   (lambda ws: False), 120)
    try:
        compared = []
        assert disagreements(ws, compared) == []
        assert len(compared) > (40 if busy else 100)
    finally:
        ws.close()


@pytest.mark.parametrize("seconds", [15, pytest.param(60, marks=pytest.mark.slow)])
def test_in_a_storm_of_faults_the_dealers_never_do_what_the_procedures_refuse(tmp_path, monkeypatch, seconds):
    """``--busy``: a fault in most rounds (jams, misreads, shoe jams, links lost); the tables wait
    for the supervisor where a fault needs one, and nothing the dealers make a device say is
    refused by the procedures (a jammed shuffle is not started twice, 000(n)(13)). A short storm
    in the main suite, a long one in ``make test-slow``."""
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    ws = play_demo(tmp_path / "demo.db", Pace(rounds_per_hour=1800, busy=True), 11, lambda ws: False, seconds)
    try:
        faults = {r["code"]: r["n"] for r in ws.log.query(
            "SELECT json_extract(body, '$.data.code') AS code, count(*) AS n FROM events WHERE type = 'device_fault' "
            "GROUP BY 1")}
        assert faults, "a storm brings faults"
        assert "refused" not in faults, faults
        assert disagreements(ws) == []
    finally:
        ws.close()


def test_the_trays_marks_are_checked():
    assert Pace().tray_marks == (8, 12)
    for bad in ((12, 8), (0, 10), (8.5, 12)):
        with pytest.raises(ValueError, match="tray_marks are whole tenths"):
            Pace(tray_marks=bad)
