"""``pitdesk protect`` (issue 36, game protection; docs/protection.md): each table's result per shift
and wager type against its exact odds, in sigmas. A calm simulated shift is quiet; the same shift
with rare hands planted (``simulate shift --plant``, a cold deck's top awards) is found where they
were dealt."""

from __future__ import annotations

import math
from datetime import datetime
from fractions import Fraction

import pytest

from tests.support.casino import pitdesk
from tests.support.simulated_shift import simulate

START = datetime(2026, 11, 21, 16, 0)      # the swing shift
PERIOD = ("--from", "2026-11-21 16:00", "--to", "2026-11-22 00:00")


@pytest.fixture(scope="module")
def shifts(tmp_path_factory):
    out = {}
    for name, plant in (("calm", False), ("planted", True)):
        d = tmp_path_factory.mktemp(name)
        simulate(d / "log.db", d / "home", 3, 40, START, 31, plant=plant)
        out[name] = d
    return out


def _protect(d, *more: str) -> tuple[int, dict | None, str]:
    return pitdesk("protect", "--db", str(d / "log.db"), *PERIOD, *more, home=d / "home")


def test_a_calm_shift_is_quiet_and_each_check_is_the_holds_figures_in_sigmas(shifts):
    d = shifts["calm"]
    rc, out, err = _protect(d, "--json")
    assert rc == 0, err
    assert out["notices"] == [] and out["threshold"] == 3.0 and out["verified"]["ok"] is True
    rc, hold, err = pitdesk("hold", "--db", str(d / "log.db"), *PERIOD, "--json", home=d / "home")
    assert rc == 0, err
    lines = {(t["table"], w): ln for t in hold["tables"] for w, ln in t["wagers"].items()}
    assert {c["wager"] for c in out["checks"]} >= {"base", "fortune"}
    for c in out["checks"]:
        ln = lines[(c["table"], c["wager"])]
        assert (c["wagered"], c["actual"], c["shift"]) == (ln["wagered"], ln["house_net"], "swing 2026-11-21")
        expected = Fraction(c["expected_exact"])
        assert abs(c["expected"] - expected) <= Fraction(1, 2)
        assert c["sigma"] > 0 and c["z"] == pytest.approx(float(c["actual"] - expected) / c["sigma"], rel=1e-3, abs=1e-3)
    assert "progressive" not in {c["wager"] for c in out["checks"]} and "progressive" in out["not_checked"]


def test_planted_top_awards_are_where_to_look(shifts):
    rc, out, err = _protect(shifts["planted"], "--json")
    assert rc == 0, err
    sigmas = [n for n in out["notices"] if n["scope"] == "table"]
    found = {(n["table"], n["wager"]) for n in sigmas}
    assert ("T1", "fortune") in found, out["notices"]
    assert all(n["z"] <= -3 for n in sigmas)       # the house paid far more than its odds say
    rc, text, err = pitdesk("protect", "--db", str(shifts["planted"] / "log.db"), *PERIOD,
                            home=shifts["planted"] / "home")
    assert rc == 0, err
    first = text.splitlines()[0]
    assert first == f"Where to look, |z| >= 3 or top awards as rare: {len(out['notices'])}"
    assert any(line.startswith("T1 ") and " fortune " in line for line in text.splitlines()[1:2 + len(found)])


def test_top_awards_dealt_more_often_than_their_odds_allow_are_found_even_on_the_progressive(shifts):
    """A cold deck's jackpot (Sam's Town, 1999): the progressive's awards are the meter's, not a
    house net to put in sigmas, so its top awards are counted against their Poisson expectation."""
    rc, out, err = _protect(shifts["planted"], "--json")
    assert rc == 0, err
    awards = {(a["table"], a["wager"]): a for a in out["top_awards"]}
    hit = awards[("T3", "progressive")]
    assert hit["hits"] >= 1 and hit["notice"] and hit["tail"] <= 0.00135
    assert hit in out["notices"] and hit["lines"] and hit["wagers"] > 0
    for a in out["top_awards"]:
        if a["hits"] == 0:
            assert a["tail"] == 1.0 and not a["notice"]
        else:   # P(N >= 1) = 1 - exp(-expected) and more hits are rarer still
            assert a["tail"] <= (1 - math.exp(-a["expected"])) * (1 + 1e-3)     # expected: 6 decimals
    rc, calm, err = _protect(shifts["calm"], "--json")
    assert rc == 0 and calm["top_awards"] and not any(a["notice"] for a in calm["top_awards"]), err


def test_the_threshold_is_the_persons_to_set(shifts):
    rc, loose, err = _protect(shifts["calm"], "--json", "--threshold", "1")
    assert rc == 0, err
    assert loose["threshold"] == 1.0
    assert [n for n in loose["checks"] if abs(n["z"]) >= 1] == [n for n in loose["notices"] if n["scope"] == "table"]
    assert [n for n in loose["players"] if abs(n["z"]) >= 1] == [n for n in loose["notices"] if n["scope"] == "player"]
    assert loose["notices"] != []


@pytest.mark.parametrize("args,words", [
    (("--threshold", "0"), "--threshold 0.0: give |z| above 0"),
    (("--threshold", "nan"), "--threshold nan: give |z| above 0"),
    (("--to", "2026-11-21 15:00"), "--from must be before --to"),
])
def test_bad_input_exits_2_naming_the_fault(shifts, args, words):
    d = shifts["calm"]
    rc, out, err = pitdesk("protect", "--db", str(d / "log.db"), "--from", "2026-11-21 16:00", *args, "--json",
                           home=d / "home")
    assert rc == 2 and words in err and len(err.strip().splitlines()) == 1, err


def test_a_missing_log_exits_2(tmp_path):
    rc, out, err = pitdesk("protect", "--db", str(tmp_path / "none.db"), *PERIOD)
    assert rc == 2 and "none.db" in err and not (tmp_path / "none.db").exists()


def test_each_rated_players_wagers_the_house_banks_are_checked_from_their_own_results(shifts):
    """Issue 36, "each rated player's sessions": the house's net on a player's wagers of one type is
    what their results at their seats lost, counted here from the settlements and the rating rows."""
    import json
    import sqlite3
    d = shifts["calm"]
    rc, out, err = _protect(d, "--json")
    assert rc == 0, err
    players = out["players"]
    assert players and {p["wager"] for p in players} >= {"base"}
    conn = sqlite3.connect(d / "log.db")
    try:
        stays = {}        # card -> [(table, seat, start, end)]
        starts = {}
        for seq, t, typ, table, body in conn.execute("SELECT seq, time, type, table_id, body FROM events WHERE type "
                                                     "IN ('rating_started', 'rating_ended') ORDER BY seq"):
            data = json.loads(body)["data"]
            if typ == "rating_started":
                starts[seq] = [data["card"], table, data["seat"], t, "9999"]
            else:
                starts[data["rating"]][4] = t
        for card, table, seat, a, b in starts.values():
            stays.setdefault(card, []).append((table, seat, a, b))
        # the settlements the hold counts (one a denial sent back moved no money)
        from app.store.hold_lines import COUNTED
        settled = conn.execute(COUNTED + "SELECT s.table_id, s.time, s.settlement FROM counted c JOIN settlements s "
                               "ON s.seq = c.seq", {"start": "0", "end": "9", "table": None}).fetchall()
    finally:
        conn.close()
    for p in players:
        lost = 0
        for table, seat, a, b in stays[p["player"]]:
            for t, when, body in settled:
                s = json.loads(body)
                # the house banks the side wagers but in 002; the base wager only in a round it banks
                banked = s["banking"] == "house" if p["wager"] == "base" else s["banking"] != "player-dealer"
                if t == table and a <= when < b and banked:
                    lost += sum(-r["net"] for r in s["results"] if r["seat"] == seat
                                and not r.get("bettor") and r["wager"].split(" ")[0] == p["wager"])
        assert p["actual"] == lost, p
        assert p["sigma"] > 0 and (p["notice"] is (abs(p["z"]) >= 3))


def test_each_tables_win_to_drop_is_the_counted_win_against_its_own_95_percent_band(shifts):
    """Issue 36, the Maryland rule (COMAR 36.05.03.25): a period's win-to-drop per table from the
    pit's money, against the band its own rounds' odds give."""
    d = shifts["calm"]
    rc, out, err = _protect(d, "--json")
    assert rc == 0, err
    rc, report, err = pitdesk("report", "shift", "--db", str(d / "log.db"), "--date", "2026-11-21", "--shift",
                              "swing", "--json", home=d / "home")
    assert rc == 0, err
    money = {t["table"]: t["money"] for t in report["tables"] if t["money"]["shifts"]}
    assert {c["table"] for c in out["win_to_drop"]} == {t for t, m in money.items() if m["drop"]}
    for c in out["win_to_drop"]:
        m = money[c["table"]]
        assert (c["win"], c["drop"], c["shifts"]) == (m["win"], m["drop"], m["shifts"])
        lo, hi = c["band_95"]
        eps = 1e-6              # the band is printed to six decimals
        assert lo - eps <= c["expected_win"] / c["drop"] <= hi + eps
        assert hi - lo == pytest.approx(2 * 1.96 * c["sigma"] / c["drop"], abs=2 * eps)
        assert c["notice"] is (not lo - eps <= c["win"] / c["drop"] <= hi + eps)
