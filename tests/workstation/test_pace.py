"""Each table's pace and turnover (issue 36, app/workstation/pace.py): the rounds and wagers of
the last hour on its tile, per clock hour through the shift, and when it is off its usual pace.

The hours are checked against what the settlements say, counted here straight from their JSON
(stakes and seats), and against the hold's own count of the rounds."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections import Counter
from datetime import datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.store import hold_lines
from app.workstation import pace
from app.workstation.pace import FAST, SLOW, STANDARD_PACE, PaceHour, full_hours, judge, usual_paces
from tests.support.money import settle_example
from tests.support.workstation import open_ws


# -- the rules of the words ---------------------------------------------------------------------
def test_slow_under_three_quarters_and_fast_over_five_quarters_of_the_usual_pace():
    # 34 an hour: 25.5 and 42.5 are the edges; exactly on an edge is not off
    assert [judge(n, 34) for n in (25, 26, 34, 42, 43)] == [SLOW, "", "", "", FAST]
    assert judge(30, 40) == "" and judge(29, 40) == SLOW and judge(50, 40) == "" and judge(51, 40) == FAST


def test_only_full_hours_make_the_usual_pace_and_three_are_needed():
    # an hour opened or closed within (no round the hour before or after) is not full
    hours = {"2026-11-20T06": 5, "2026-11-20T07": 30, "2026-11-20T08": 32, "2026-11-20T09": 12}
    assert sorted(full_hours(hours)) == [30, 32]
    rows = [{"table_id": "T1", "hour": h, "rounds": n} for h, n in hours.items()]
    assert usual_paces(rows) == {}                       # two full hours: the standard pace is used
    rows.append({"table_id": "T1", "hour": "2026-11-20T10", "rounds": 20})
    assert usual_paces(rows) == {"T1": 30}               # 30, 32, 12: the median (low)
    # a day's last hour and the next day's first are neighbours
    across = {"2026-11-20T23": 30, "2026-11-21T00": 31, "2026-11-21T01": 29}
    assert full_hours(across) == [31]


@given(st.integers(1, 400), st.integers(0, 2800), st.integers(0, 10_000_000))
def test_an_hours_averages_are_rounded_half_up_in_whole_cents_and_tenths(rounds, seat_rounds, wagered):
    h = PaceHour("T1", datetime(2026, 11, 20, 6), rounds, wagered, seat_rounds)
    # the exact fraction against its rounding: never more than half a unit off, ties upwards
    assert abs(h.average_wager * rounds - wagered) * 2 <= rounds
    assert (h.average_wager * rounds - wagered) * 2 != -rounds
    assert abs(h.seats_tenths * rounds - seat_rounds * 10) * 2 <= rounds


# -- the hours of a simulated shift -------------------------------------------------------------
def _settlements(conn, table=None):
    """(table, time, stakes, seats) of every settlement the hold counts, from its JSON."""
    counted = {r["table_id"]: r["rounds"] for r in hold_lines.rounds(conn, None, None)}
    rows = conn.execute("SELECT seq, table_id, time, settlement FROM settlements ORDER BY seq").fetchall()
    sent_back = {seq for (seq,) in conn.execute(hold_lines.COUNTED + "SELECT s.seq FROM settlements s WHERE "
                                                "s.seq NOT IN (SELECT seq FROM counted)",
                                                {"start": "0", "end": "9", "table": None})}
    out = []
    for seq, t, time, body in rows:
        if seq in sent_back or (table and t != table):
            continue
        results = [r for r in json.loads(body)["results"] if r.get("outcome") != "returned"]
        # a player's wagers: not a fee charged on one, a bank's own result or the dealer's wager
        wagers = [r for r in results if r["wager"] not in ("collection fee", "bank", "player-dealer", "dealer wager")]
        out.append((t, time, sum(r["stake"] for r in wagers), len({r["seat"] for r in results if r["seat"]})))
    assert Counter(t for t, *_ in out) == Counter({t: n for t, n in counted.items() if n and (not table or t == table)})
    return out


def test_the_shifts_hours_add_up_to_its_rounds_stakes_and_seats(made):
    conn = sqlite3.connect(made / "shift.db")
    try:
        got = pace.hours(conn, datetime(2026, 11, 1), datetime(2026, 12, 1))
        want: dict[tuple[str, str], list[int]] = {}
        for t, time, stakes, seats in _settlements(conn):
            w = want.setdefault((t, time[:13]), [0, 0, 0])
            w[0] += 1
            w[1] += stakes
            w[2] += seats
    finally:
        conn.close()
    assert {(h.table, h.hour.isoformat()[:13]): [h.rounds, h.wagered, h.seat_rounds] for h in got} == want
    assert len({h.table for h in got}) == 3 and all(h.rounds for h in got)


# -- the tile's last hour, read again when the journal says ------------------------------------
def test_a_tiles_last_hour_on_a_simulated_shift_as_the_clock_moves(made, tmp_path, monkeypatch):
    from tests.support.simulated_shift import Shift
    from tests.support.views import shift_workstation
    shutil.copy(made / "shift.db", tmp_path / "log.db")
    shutil.copytree(made / "home", tmp_path / "home")
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    own = Shift(tmp_path / "log.db", tmp_path / "home", {})
    ws, clock = shift_workstation(own, "the pace test")
    try:
        conn = sqlite3.connect(own.db)
        rounds = _settlements(conn)
        conn.close()
        clock.set(max(datetime.fromisoformat(w) for _, w, *_ in rounds) + timedelta(minutes=5))
        seen = []
        for minutes in (0, 25, 50):
            clock.advance(minutes=minutes)
            now = clock()
            since = now - timedelta(hours=1)
            seen.append(sum(t.pace.rounds for t in ws.reads.tiles()))
            for tile in ws.reads.tiles():
                mine = [(w, s) for t, w, s, _ in rounds if t == tile.table and since < datetime.fromisoformat(w) <= now]
                assert (tile.pace.rounds, tile.pace.wagered) == (len(mine), sum(s for _, s in mine)), minutes
                state, _ = ws.state_of(tile.table)
                assert tile.pace.seats == len(state.seated)
                # 40 rounds a table in a few hours: no three full hours yet, the standard pace is usual
                assert tile.pace.usual == STANDARD_PACE and not tile.pace.usual_own
        assert seen[0] > seen[1] > seen[2], seen          # the rounds leave the hour as the clock moves
    finally:
        ws.close()


@pytest.fixture
def ws(tmp_path, monkeypatch, clock):
    w = open_ws(tmp_path, monkeypatch, clock)
    yield w
    w.close()


def test_a_settlement_reaches_the_tile_and_an_hour_later_the_table_is_judged_slow(ws, clock):
    assert ws.reads.tile("section6").pace.rounds == 0
    settle_example(ws)
    ws.live.pump()                       # the journal hands the settlement to the pace book
    p = ws.reads.tile("section6").pace
    assert (p.rounds, p.whole_hour, p.off) == (1, False, "")     # not played a whole hour: not judged
    stakes = ws.log.query("SELECT SUM(stake * count) AS s FROM hold_stakes")[0]["s"]
    assert p.wagered == stakes > 0
    # the table page's hours: the one hour with its round
    (h,) = ws.reads.table_detail("section6").pace_hours
    assert (h.table, h.hour, h.rounds, h.wagered) == ("section6", clock.t.replace(minute=0), 1, stakes)
    assert ws.reads.tile("nj").pace.rounds == 0          # another table: its own hour
    clock.advance(minutes=61)
    p = ws.reads.tile("section6").pace
    assert (p.rounds, p.wagered, p.whole_hour, p.off) == (0, 0, True, SLOW)
    clock.advance(minutes=61)            # two hours on: nothing left to judge the hour by
    assert ws.reads.tile("section6").pace.whole_hour is False


# -- the shift report ---------------------------------------------------------------------------
def test_the_shift_reports_hours_are_its_rounds_and_the_pdf_lists_them(made, qapp):
    from app.reports.shift_report import build
    from app.workstation.shift_figures import as_json, shift_report
    from app.workstation.shifts import DEFAULT
    from tests.support.shift_report import DAY, SHIFT, money
    shift = DEFAULT.shift_named(SHIFT, datetime.fromisoformat(DAY).date())
    conn = sqlite3.connect(made / "shift.db")
    try:
        report = shift_report(conn, shift, made=shift.end)
        rounds = _settlements(conn)
    finally:
        conn.close()
    out = as_json(report)
    for t in out["tables"]:
        mine = [x for x in rounds if x[0] == t["table"]]
        assert sum(h["rounds"] for h in t["pace"]) == t["rounds"] == len(mine)
        assert sum(h["wagered"] for h in t["pace"]) == sum(s for _, _, s, _ in mine)
        assert set(t["pace"][0]) == {"hour", "rounds", "wagered", "seats", "average_wager"}
    # the pit's hours: its tables' added, hour by hour
    assert sum(h["rounds"] for h in out["pace"]) == out["pit"]["rounds"]
    for h in out["pace"]:
        here = [p for t in out["tables"] for p in t["pace"] if p["hour"] == h["hour"]]
        assert (h["rounds"], h["wagered"], h["tables"]) == (sum(p["rounds"] for p in here),
                                                           sum(p["wagered"] for p in here), len(here))
    text = build(report, 700, 72).toPlainText()
    assert text.count("Pace and turnover by hour") == 1 + len(out["tables"])      # the pit's, then each table's
    total = sum(h["wagered"] for h in out["pace"])
    assert money(total) in text
