"""Player ratings (issue 36, app/workstation/ratings.py, docs/ratings.md): a rated player sits
down, moves and stands up through the workstation; their figures are the sums of the rounds they
sat in, counted here from the settlements' own results; a correction is logged with why; every
bad input is refused naming the fault with nothing written; and, over a simulated shift, any
way of rating its seats adds up to the table's own figures (a property test)."""

from __future__ import annotations

import json
import math
import re
import sqlite3
from datetime import datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.store import hold_lines
from app.workstation.errors import NotPermitted, Refused
from app.workstation.ratings import add_rounds, ratings_of
from app.workstation.theoretical import expectation
from tests.support.workstation import DEALER, FLOOR, open_by_hand, open_ws

ROUNDS = Path(__file__).resolve().parents[2] / "docs" / "rounds"


@pytest.fixture
def ws(tmp_path, monkeypatch, clock):
    w = open_ws(tmp_path, monkeypatch, clock)
    for table in ("casino", "nj"):
        open_by_hand(w, table)
    w.people.sign_in(*DEALER)
    yield w
    w.close()


def settle(ws, name="casino-house.json", table="casino"):
    """The example round ``name`` settled at ``table``; its settlement as logged."""
    ws.rounds.load(table, json.loads((ROUNDS / name).read_text()))
    seq = ws.rounds.settle(table).result.settlement
    return json.loads(ws.log.query("SELECT settlement FROM settlements WHERE seq = ?", (seq,))[0]["settlement"])


def events(ws) -> int:
    return ws.log.query("SELECT COUNT(*) AS n FROM events")[0]["n"]


def test_a_rated_player_and_a_bettor_on_the_circle_are_rated_from_their_own_results(ws, clock):
    ws.ratings.sit_down("casino", 1, "PC-1001", "Ann Lee")
    ws.ratings.sit_down("casino", 1, "PC-2002", bettor="ann")      # 003: a bettor on seat 1's circle
    state, _ = ws.state_of("casino")
    assert 1 in state.seated                                         # sat down with the rating
    clock.advance(minutes=3)
    s = settle(ws)
    clock.advance(minutes=2)
    seat, bettor = sorted(ws.ratings.ratings(None, None, "casino"), key=lambda r: r.rating)
    own = [r for r in s["results"] if r["seat"] == 1 and not r.get("bettor")]
    theirs = [r for r in s["results"] if r.get("bettor") == "ann"]
    assert own and theirs
    for rating, results in ((seat, own), (bettor, theirs)):
        assert rating.rounds == 1
        assert rating.wagered == sum(r["stake"] for r in results)
        assert rating.actual == -sum(r["net"] for r in results)
        staked = [r for r in results if r["stake"]]           # envy of seat N: paid on no stake
        assert rating.by_wager == {w: sum(r["stake"] for r in staked if r["wager"] == w)
                                   for w in {r["wager"] for r in staked}}
        assert rating.minutes(clock()) == 5
    # the Fortune wager's theoretical is exact: its stake times the pay table's edge
    fortune = [r for r in own if r["wager"] == "fortune"][0]["stake"]
    base = sum(r["stake"] for r in own if r["wager"] == "base")
    exact = expectation("casino", "fortune", fortune, 1).expected_value()
    theo, band = seat.theoretical()
    estimate = expectation("casino", "base", base, 1).value_and_variance()[0]
    assert theo == math.floor(exact + estimate + Fraction(1, 2))
    assert band[0] <= theo <= band[1]                                # the base game's estimate has its band
    j = seat.as_json(clock())
    assert {k: j[k] for k in ("player", "name", "rounds", "minutes", "wagered", "average_wager")} == \
        {"player": "PC-1001", "name": "Ann Lee", "rounds": 1, "minutes": 5, "wagered": seat.wagered,
         "average_wager": seat.wagered}


def test_moving_seat_and_standing_up_follow_the_player(ws, clock):
    ws.ratings.sit_down("casino", 2, "PC-1001")
    (r,) = ws.ratings.open_ratings("casino")
    clock.advance(minutes=1)
    ws.ratings.move(r.rating, 4)
    state, _ = ws.state_of("casino")
    assert 4 in state.seated and 2 not in state.seated
    clock.advance(minutes=1)
    s = settle(ws)                       # seat 4 wagers $20 in this round, seat 2 $10 and a Fortune
    clock.advance(minutes=1)
    ws.ratings.stand_up(r.rating)
    assert 4 not in ws.state_of("casino")[0].seated and not ws.ratings.open_ratings()
    (done,) = ws.ratings.ratings(None, None)
    assert [(x.seat, x.end is not None) for x in done.stays] == [(2, True), (4, True)]
    assert done.wagered == sum(x["stake"] for x in s["results"] if x["seat"] == 4) and done.rounds == 1
    assert done.minutes(clock() + timedelta(hours=1)) == 3          # an ended rating's time stands
    types = [x["type"] for x in ws.log.query("SELECT type FROM events WHERE type LIKE 'player_%' OR type LIKE "
                                            "'rating_%' ORDER BY seq")]
    assert types == ["player_seated", "rating_started", "player_left", "player_seated", "rating_moved",
                     "player_left", "rating_ended"]


def test_a_supervisors_correction_is_logged_with_why_and_the_figures_follow(ws, clock):
    ws.ratings.sit_down("casino", 2, "PC-1O01")           # the letter O typed for a zero
    (r,) = ws.ratings.open_ratings()
    clock.advance(minutes=5)
    ws.people.sign_in(*DEALER)
    with pytest.raises(NotPermitted):
        ws.ratings.correct(r.rating, "card", "PC-1001", "a letter O for a zero")    # a dealer may not
    ws.people.sign_in(*FLOOR)
    with pytest.raises(Refused, match="says why"):
        ws.ratings.correct(r.rating, "card", "PC-1001", "  ")
    ws.ratings.correct(r.rating, "card", "PC-1001", "a letter O typed for a zero")
    ws.ratings.correct(r.rating, "started", clock() - timedelta(minutes=15), "sat down before the card was read")
    (now,) = ws.ratings.open_ratings()
    assert now.card == "PC-1001" and now.minutes(clock()) == 15
    assert [(c["field"], c["was"], c["by"], c["why"]) for c in now.corrections] == [
        ("card", "PC-1O01", "demo-floor", "a letter O typed for a zero"),
        ("started", (clock() - timedelta(minutes=5)).isoformat(timespec="seconds"), "demo-floor",
         "sat down before the card was read")]


BAD = [
    (lambda ws: ws.ratings.sit_down("casino", 2, "PC 1001"), "card number is 1 to 24 letters"),
    (lambda ws: ws.ratings.sit_down("casino", 9, "PC-1001"), "a seat is one of 1, 2, 3, 4, 5, 6, got 9"),
    (lambda ws: ws.ratings.sit_down("nope", 2, "PC-1001"), "no table 'nope'"),
    (lambda ws: ws.ratings.sit_down("casino", 5, "PC-1001", "Ann\x1b[2J"), "U+001B"),
    (lambda ws: ws.ratings.sit_down("nj", 2, "PC-7", bettor="bo"), "no bettors on another player's circle"),
    (lambda ws: ws.ratings.sit_down("casino", 3, "PC-7", bettor="bo"), "seat 3 is empty"),
    (lambda ws: ws.ratings.sit_down("casino", 5, "PC-1"), "card PC-1 is rated at casino seat 2 already"),
    (lambda ws: ws.ratings.sit_down("casino", 2, "PC-2"), "seat 2 has a rated player already"),
    (lambda ws: ws.ratings.stand_up(999), "no rating 999"),
    (lambda ws: ws.ratings.move(ws.ratings.open_ratings()[0].rating, 2), "is at seat 2 already"),
]


def test_bad_input_is_refused_naming_the_fault_and_nothing_is_written(ws):
    ws.ratings.sit_down("casino", 2, "PC-1")
    n = events(ws)
    for call, words in BAD:
        with pytest.raises(Refused, match=re.escape(words)):
            call(ws)
        assert events(ws) == n, words


# -- over a simulated shift: any way of rating its seats adds up to the table ---------------------
def _counted(conn, table):
    """The table's settlements the hold counts, straight from the events and the approvals."""
    seqs = {r[0] for r in conn.execute(hold_lines.COUNTED + "SELECT seq FROM counted",
                                       {"start": "0", "end": "9", "table": table})}
    rows = conn.execute("SELECT seq, time, body FROM events WHERE type = 'settlement' AND table_id = ? ORDER BY seq",
                        (table,)).fetchall()
    return [(seq, datetime.fromisoformat(t), json.loads(b)["data"]["settlement"]) for seq, t, b in rows if seq in seqs]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_ratings_are_the_sums_of_their_rounds_however_the_seats_are_rated(made, data):
    conn = sqlite3.connect(f"file:{made / 'shift.db'}?mode=ro", uri=True)
    try:
        table = data.draw(st.sampled_from(["T1", "T2", "T3"]))
        counted = _counted(conn, table)
        first, last = counted[0][1], counted[-1][1]
        span = int((last - first).total_seconds()) + 2
        # every seat rated through the whole shift, cut into ratings at random moments (a player
        # standing up and the next sitting down), some of them moving seat and back
        events, seq = [], 1
        for seat in range(1, 8):
            cuts = sorted(set(data.draw(st.lists(st.integers(1, span - 1), max_size=4))))
            edges = [first - timedelta(seconds=1)] + [first + timedelta(seconds=c) for c in cuts] + \
                [last + timedelta(seconds=1)]
            for a, b in zip(edges, edges[1:]):
                events.append({"seq": seq, "time": a.isoformat(), "table_id": table, "type": "rating_started",
                               "actor": "t", "role": "dealer", "data": {"card": f"C{seq}", "seat": seat}})
                events.append({"seq": seq + 1, "time": b.isoformat(), "table_id": table, "type": "rating_ended",
                               "actor": "t", "role": "dealer", "data": {"rating": seq}})
                seq += 2
        events.sort(key=lambda e: (e["time"], e["seq"]))
        found = list(ratings_of(events).values())
        from app.store import rating_rows
        add_rounds(found, rating_rows.rounds(conn, None, None, table))
    finally:
        conn.close()
    # each rating: the rounds settled while it sat, with a wager of its seat in them
    for r in found:
        (stay,) = r.stays
        mine = [(q, s) for q, t, s in counted if stay.start <= t < stay.end
                and any(x["seat"] == stay.seat and not x.get("bettor") for x in s["results"])]
        assert r.round_seqs == [q for q, _ in mine]
    # all of them: every seat's party net (a bettor on a circle, 'seat 6/ann', is a party of their own) and
    # stake, to the cent, from the settlement's own sums
    players = sum(v for _, _, s in counted for k, v in s["net_by_party"].items()
                  if k.startswith("seat ") and "/" not in k)      # 'seat 6/ann': a bettor on seat 6
    assert sum(r.actual for r in found) == -players
    stakes = sum(x["stake"] for _, _, s in counted for x in s["results"] if not x.get("bettor")
                 and x["seat"] and x.get("outcome") != "returned"
                 and x["wager"] not in ("collection fee", "bank", "player-dealer", "dealer wager"))
    assert sum(r.wagered for r in found) == stakes
