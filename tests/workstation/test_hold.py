"""The hold: actual against theoretical, per table and wager type and for the pit.

The figures of a simulated shift are checked against sums the test makes itself from the
logged events (json over the ``events`` rows, never through app/store/hold_lines.py); the money is
conserved; the theoretical hold of every pay table equals docs/analysis.md; the base game's
estimate says it is one and gives its interval; ``pitdesk hold`` prints the same figures and
refuses bad input with exit 2, naming the fault, without writing anything.
"""

from __future__ import annotations

import json
import re
import sqlite3
import subprocess
import sys
from collections import defaultdict
from datetime import datetime
from fractions import Fraction
from pathlib import Path

import pytest

from app.analysis import estimate
from app.rules.resources import names, paytable, profile
from app.workstation import theoretical
from app.workstation.hold import HoldError, as_json, read_hold
from tests.support.simulated_shift import simulate

ROOT = Path(__file__).resolve().parents[2]
PITDESK = str(Path(sys.executable).with_name("pitdesk"))
START = datetime(2026, 11, 21, 14, 0)
KEYS = ("wagered", "house_net", "actual_hold", "theoretical_hold")


@pytest.fixture(scope="module")
def shift(tmp_path_factory):
    """A simulated shift: four tables, 60 rounds each (every profile and banking mode)."""
    d = tmp_path_factory.mktemp("hold")
    simulate(d / "shift.db", d / "home", 4, 60, START, 5)
    return d / "shift.db"


# -- the test's own sums, straight from the events -------------------------------------------------
def settlements(db: Path) -> list[dict]:
    """Every settlement event not sent back by a denial of one of its own requests (the rows
    right after it, docs/workstation.md "Rounds")."""
    con = sqlite3.connect(db)
    try:
        events = [json.loads(b) for (b,) in con.execute("SELECT body FROM events ORDER BY seq")]
    finally:
        con.close()
    denied = {e["data"]["request"] for e in events
              if e["type"] == "approval_decided" and e["data"]["decision"] == "denied"}
    out = []
    for e in events:
        if e["type"] != "settlement":
            continue
        n = len(e["data"]["settlement"]["approvals"])
        if not any(e["seq"] + k in denied for k in range(1, n + 1)):
            out.append(e)
    return out


def kind(wager: str, banking: str) -> str | None:
    """docs/hold.md's wager types, written out again here."""
    w = "additional" if wager.startswith("additional ") else "envy" if wager.startswith("envy") else wager
    if banking == "player-dealer":
        return "collection_fee" if w == "collection fee" else None
    if banking in ("player", "co-bank") and w in ("base", "bank"):
        return "bank"
    return {"dealer wager": "dealer_wager", "collection fee": "collection_fee"}.get(w, w)


def sums(db: Path, start: str | None = None, end: str | None = None) -> dict:
    """{table: {wager type: {wagered, house_won, house_lost, commission, collection_fees, to_meter}}}."""
    out: dict = defaultdict(lambda: defaultdict(lambda: defaultdict(int)))
    for e in settlements(db):
        if (start and e["time"] < start) or (end and e["time"] >= end):
            continue
        s, t = e["data"]["settlement"], e["table"]
        for r in s["results"]:
            w = kind(r["wager"], s["banking"])
            if w is not None and r["outcome"] != "returned" and r["wager"] != "bank":
                out[t][w]["wagered"] += r["stake"]
        for m in s["ledger"]:
            if "house" not in (m["from"], m["to"]):
                continue
            w = kind(m["wager"], s["banking"])
            line = out[t][w]
            if m["to"] == "meter":
                line["to_meter"] += m["cents"]
            elif m["from"] == "house":
                line["house_lost"] += m["cents"]
            elif m["reason"].startswith(("commission", "vigorish")):
                line["commission"] += m["cents"]
            elif m["wager"] == "collection fee":
                line["collection_fees"] += m["cents"]
            else:
                line["house_won"] += m["cents"]
    return out


def net(line: dict) -> int:
    return line["house_won"] + line["commission"] + line["collection_fees"] - line["house_lost"] - line["to_meter"]


def test_the_hold_of_a_shift_equals_the_sums_of_its_logged_settlements(shift):
    data = as_json(read_hold(shift))
    mine = sums(shift)
    assert {t["table"] for t in data["tables"]} == set(mine) == {"T1", "T2", "T3", "T4"}
    assert data["rounds"] == len(settlements(shift))
    for t in data["tables"]:
        expected = mine[t["table"]]
        assert set(t["wagers"]) == set(expected), t["table"]
        for w, d in t["wagers"].items():
            e = expected[w]
            for k in ("wagered", "house_won", "house_lost", "commission", "collection_fees", "to_meter"):
                assert d[k] == e[k], (t["table"], w, k)
            assert d["house_net"] == net(e)
            if e["wagered"]:
                assert d["actual_hold"] == round(net(e) / e["wagered"], 6)
            else:
                assert d["actual_hold"] is None   # envy: nothing wagered
        assert t["total"]["house_net"] == sum(net(e) for e in expected.values())
        assert t["total"]["wagered"] == sum(e["wagered"] for e in expected.values())
    # the pit is the sum of the tables
    for w, d in data["pit"]["wagers"].items():
        assert d["wagered"] == sum(mine[t][w]["wagered"] for t in mine if w in mine[t])
        assert d["house_net"] == sum(net(mine[t][w]) for t in mine if w in mine[t])
    assert data["pit"]["total"]["house_net"] == sum(t["total"]["house_net"] for t in data["tables"])
    # the simulated shift shows the wager types of every banking mode
    assert {"base", "bank", "dealer_wager", "collection_fee", "fortune", "envy", "progressive",
            "additional"} <= set(data["pit"]["wagers"])


def test_money_is_conserved_the_house_nets_what_the_others_lost(shift):
    # per table: the house's net equals minus the net of every other party of the ledger
    # (seats and their bettors, the tokes, the meter, the center), round by round summed
    others: dict = defaultdict(int)
    for e in settlements(shift):
        s = e["data"]["settlement"]
        assert sum(s["net_by_party"].values()) == 0
        others[e["table"]] += sum(v for p, v in s["net_by_party"].items() if p != "house")
    data = as_json(read_hold(shift))
    for t in data["tables"]:
        assert t["total"]["house_net"] == -others[t["table"]]
        assert sum(d["house_net"] for d in t["wagers"].values()) == t["total"]["house_net"]


def test_a_period_counts_the_rounds_settled_in_it(shift):
    times = sorted(e["time"] for e in settlements(shift))
    start, end = times[len(times) // 3], times[2 * len(times) // 3]
    report = read_hold(shift, datetime.fromisoformat(start), datetime.fromisoformat(end), "T2")
    mine = sums(shift, start, end)["T2"]
    inside = [e for e in settlements(shift) if e["table"] == "T2" and start <= e["time"] < end]
    assert report.rounds == len(inside) > 0
    (t,) = report.tables
    assert {ln.wager: (ln.wagered, ln.house_net) for ln in t.lines} == {
        w: (e["wagered"], net(e)) for w, e in mine.items()}


# -- the theoretical hold ---------------------------------------------------------------------------
def doc_edges() -> dict[str, Fraction]:
    """docs/analysis.md's table: pay table -> house edge as printed (percent, 4 decimals)."""
    out = {}
    for m in re.finditer(r"^\| ([a-z0-9-]+) \| [^|]+ \| (\d+\.\d{4})% \|$", (ROOT / "docs" / "analysis.md").read_text(),
                         re.M):
        out[m.group(1)] = Fraction(m.group(2))
    return out


def pct4(x: Fraction) -> Fraction:
    return Fraction(round(100 * x, 4)).limit_denominator(10_000)


def test_every_pay_tables_theoretical_hold_is_docs_analysis_figure():
    docs = doc_edges()
    priced = [n for n in names("paytables") if paytable(n).kind != "envy"]
    assert sorted(docs) == sorted(priced)
    for name in priced:
        assert pct4(theoretical.paytable_edge(name)) == docs[name], name
        # 001 11.3(f)2.ii: the A-K royal match prices the same (docs/analysis.md's extra row)
        if paytable(name).kind == "fortune":
            assert pct4(theoretical.paytable_edge(name, "ace-king")) == docs[name]


@pytest.mark.parametrize("name", names("rules"))
def test_each_profiles_side_wagers_hold_their_pay_tables_figure(name):
    # the hold's figure for one wager of a whole dollar at the profile's tables is the pay table's
    docs = doc_edges()
    rules = profile(name).rules
    seen = 0
    for wager in ("fortune", "insurance", "three_card", "seven_card", "ace_high"):
        if wager in rules.paytables:
            for stake in (100, 500, 2500):
                e = theoretical.expectation(name, wager, stake, 3)
                th = theoretical.theoretical(e, 3 * stake)
                assert th.basis == "exact" and pct4(th.hold) == docs[rules.paytables[wager].name], (wager, stake)
                seen += 1
    for key, stake in (("progressive_1", 100), ("progressive_5", 500)):
        if key in rules.paytables:
            th = theoretical.theoretical(theoretical.expectation(name, "progressive", stake, 2), 2 * stake)
            assert pct4(th.hold) == docs[rules.paytables[key].name]
            seen += 1
    assert seen or name == "sd"   # sd offers no side wager


def test_the_shifts_side_wagers_hold_docs_figures(shift):
    # every table's Fortune at the shift's profiles: every Fortune table of 000 and 003 is 7.7656%
    docs = doc_edges()
    data = as_json(read_hold(shift))
    fortunes = [t["wagers"]["fortune"] for t in data["tables"] if "fortune" in t["wagers"]]
    assert fortunes
    for d in fortunes:
        assert d["theoretical"]["basis"] == "exact"
        assert pct4(Fraction(d["theoretical"]["exact"])) == docs["fortune-003"] == docs["fortune-000"]


def test_the_toke_bets_cap_lowers_what_the_house_pays():
    # 003 GENERAL RULES 6: a toke bet pays at most $500, so a large toke bet holds more than Fortune
    small = theoretical.theoretical(theoretical.expectation("casino", "fortune_toke", 500, 1), 500).hold
    large = theoretical.theoretical(theoretical.expectation("casino", "fortune_toke", 10_000, 1), 10_000).hold
    fortune = theoretical.paytable_edge("fortune-003")
    assert small > fortune and large > small


def test_additional_wagers_hold_one_number_in_seven():
    # 000(p)(2)(vi): 11 to 2 on $2 pays $11 exactly: the house keeps 6/7 of 2 and pays 1/7 of 11
    rules = profile("nj").rules
    assert rules.additional_odds == (11, 2)
    th = theoretical.theoretical(theoretical.expectation("nj", "additional", 200, 1), 200)
    assert th.hold == Fraction(6 * 200 - 1100, 7 * 200) and th.basis == "exact"


def test_the_base_game_is_an_estimate_with_its_interval(shift):
    data = as_json(read_hold(shift))
    base = [t["wagers"]["base"] for t in data["tables"] if "base" in t["wagers"]]
    assert base
    for d in base:
        th = d["theoretical"]
        assert th["basis"] == "estimate" and "estimate" in th["note"]
        lo, hi = th["interval_95"]
        assert lo < d["theoretical_hold"] < hi and hi - lo < 0.01
    # a total holding the base game is an estimate too
    assert data["pit"]["total"]["theoretical"]["basis"] == "estimate"
    # the readable table says so beside the figure
    p = subprocess.run([PITDESK, "hold", "--db", str(shift)], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert re.search(r"base .* -?\d+\.\d{3}% est\. \(-?\d+\.\d{3}% to -?\d+\.\d{3}%\)", p.stdout)


def test_the_shipped_estimate_keeps_the_symmetries_of_the_game():
    # the same deals for every group; every ordered pair of hands is played both ways, so where
    # a tie pushes (004(7)) a win of one side is a loss of the other; where a copy is the
    # banker's, copies turn pushes into losses and never touch the player's wins
    sd = theoretical.base_counts("casino/second/push")
    casino = theoretical.base_counts("casino/second/banker")
    assert sd.wins == sd.losses and sd.deals == casino.deals >= 100_000
    assert casino.wins == sd.wins and casino.losses > sd.losses
    assert casino.wins + casino.losses + casino.pushes == casino.pairs
    assert estimate.groups() == {"casino/second/banker": ("casino", "nj", "section6", "section6-even"),
                                 "casino/second/push": ("sd",), "face-up/lowest/banker": ("face-up-ca",)}


def test_the_estimate_is_seeded_the_same_whatever_the_workers():
    one = estimate.simulate("casino/second/banker", ("casino",), 2_100, 9, workers=1)
    two = estimate.simulate("casino/second/banker", ("casino",), 2_100, 9, workers=2)
    assert one == two and one.deals == 2_100
    assert estimate.simulate("casino/second/banker", ("casino",), 2_100, 10) != one


def test_a_missing_group_is_simulated_once_and_kept_in_the_users_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path))
    shipped = json.loads(theoretical.BASE_GAME.read_text())
    small = dict(shipped, deals=2_000, groups={g: dict(d, deals=2_000) for g, d in shipped["groups"].items()
                                              if g != "casino/second/push"})
    fake = tmp_path / "base-game.json"
    fake.write_text(json.dumps(small))
    monkeypatch.setattr(theoretical, "BASE_GAME", fake)
    monkeypatch.setattr(theoretical, "_loaded", {})
    counts = theoretical.base_counts("casino/second/push")
    assert counts.deals == 2_000 and counts.seed == shipped["seed"]
    kept = json.loads((tmp_path / "analysis" / "base-game.json").read_text())
    assert estimate.BaseCounts.from_json(kept["groups"]["casino/second/push"]) == counts
    assert counts == estimate.simulate("casino/second/push", ("sd",), 2_000, shipped["seed"])


@pytest.mark.slow
def test_the_shipped_files_are_what_the_analysis_computes():
    from app.analysis import enumeration as analysis
    data = analysis.enumerate_all(workers=2)
    shipped = json.loads(theoretical.ENUMERATION.read_text())
    for k in ("total_hands", "counts", "progressive", "three_card", "ace_high_joint"):
        assert data[k] == shipped[k], k
    base = json.loads(theoretical.BASE_GAME.read_text())
    again = estimate.estimate_all(base["deals"], base["seed"], workers=2)
    assert again["groups"] == base["groups"]


# -- pitdesk hold --------------------------------------------------------------------------------------
def pitdesk(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([PITDESK, "hold", *args], capture_output=True, text=True, env=env)


def test_the_command_prints_the_same_figures_with_the_keys_asked_for(shift):
    p = pitdesk("--db", str(shift), "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    # the check says where it derived from: the first row, or a derivation a check before kept
    # (which depends on what ran before on this shift, so it is left out of the comparison)
    again = {"db": str(shift), **as_json(read_hold(shift))}
    assert out["verified"]["ok"] and again["verified"]["ok"]
    assert {k: v for k, v in out.items() if k != "verified"} == {k: v for k, v in again.items() if k != "verified"}
    for t in out["tables"]:
        for w, d in t["wagers"].items():
            assert all(k in d for k in KEYS), (t["table"], w)
            assert isinstance(d["wagered"], int) and isinstance(d["house_net"], int)
    for d in out["pit"]["wagers"].values():
        assert all(k in d for k in KEYS)
    assert all(k in out["pit"]["total"] for k in KEYS)
    # one table and a period
    p = pitdesk("--db", str(shift), "--json", "--table", "T3", "--from", "2026-11-21 14:00", "--to", "2026-11-21T16:30")
    one = json.loads(p.stdout)
    assert [t["table"] for t in one["tables"]] == ["T3"]
    assert one["from"] == "2026-11-21T14:00:00" and one["to"] == "2026-11-21T16:30:00"
    assert one["tables"][0]["rounds"] == sum(1 for e in settlements(shift)
                                             if e["table"] == "T3" and e["time"] < "2026-11-21T16:30:00")


@pytest.mark.parametrize("args, words", [
    (("--db", "{missing}"), ["no audit database at", "missing.db"]),
    (("--db", "{db}", "--from", "last tuesday"), ["--from", "'last tuesday'", "not a date and time"]),
    (("--db", "{db}", "--to", "2026-13-01"), ["--to", "'2026-13-01'", "not a date and time"]),
    (("--db", "{db}", "--from", "2026-11-21 18:00", "--to", "2026-11-21 14:00"),
     ["2026-11-21T18:00:00", "not before its end 2026-11-21T14:00:00"]),
    (("--db", "{db}", "--table", "T9"), ["no table 'T9'", "T1, T2, T3, T4"]),
    (("--db", "{junk}"), ["cannot be read as a pitdesk audit database"]),
])
def test_bad_input_exits_2_naming_the_fault(shift, tmp_path, args, words):
    junk = tmp_path / "junk.db"
    junk.write_text("not a database\n")
    subs = {"{missing}": str(tmp_path / "missing.db"), "{db}": str(shift), "{junk}": str(junk)}
    p = pitdesk(*(subs.get(a, a) for a in args))
    assert p.returncode == 2 and p.stdout == ""
    for w in words:
        assert w in p.stderr, p.stderr
    assert not (tmp_path / "missing.db").exists()


def test_the_command_writes_nothing_and_reads_a_log_on_read_only_media(shift, tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    copy = ro / "shift.db"
    copy.write_bytes(shift.read_bytes())
    before = copy.stat().st_mtime_ns
    ro.chmod(0o555)
    copy.chmod(0o444)
    try:
        p = pitdesk("--db", str(copy), "--json")
        assert p.returncode == 0, p.stderr
        assert sorted(x.name for x in ro.iterdir()) == ["shift.db"]
        assert copy.stat().st_mtime_ns == before
        assert json.loads(p.stdout)["rounds"] == len(settlements(shift))
    finally:
        ro.chmod(0o755)


def test_a_bad_period_is_refused_before_reading():
    with pytest.raises(HoldError, match="not before its end"):
        read_hold(Path("/nonexistent.db"), datetime(2026, 1, 2), datetime(2026, 1, 1))


# -- a round sent back by a denial ---------------------------------------------------------------
def test_a_round_sent_back_by_a_denial_is_not_counted_and_its_settlement_again_is(tmp_path, monkeypatch):
    from tests.support.workstation import Clock, open_ws, sent_back_and_settled_again
    ws = open_ws(tmp_path, monkeypatch, Clock())
    try:
        first, again = sent_back_and_settled_again(ws)
        report = ws.reads.hold(table="section6")
    finally:
        ws.close()
    (t,) = report.tables
    assert (t.rounds, t.sent_back) == (1, 1)
    # counted once: the round settled again, not also the settlement sent back
    assert t.total.house_net == again.net_by_party["house"] and first.net_by_party["house"] != 0
    mine = sums(tmp_path / "pit.db")["section6"]
    assert {ln.wager: ln.house_net for ln in t.lines} == {w: net(e) for w, e in mine.items()}


# -- migration 4: the hold's read models (issue 16) -----------------------------------------------
def _as_before_migration_4(db: Path) -> None:
    conn = sqlite3.connect(db)
    conn.execute("DROP TABLE hold_house")
    conn.execute("DROP TABLE hold_stakes")
    conn.execute("DROP INDEX settlements_by_time")
    conn.execute("DELETE FROM _migrations WHERE version = 4")
    conn.commit()
    conn.close()


def _hold_rows(db: Path) -> dict:
    conn = sqlite3.connect(db)
    try:
        return {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr) for t in ("hold_house", "hold_stakes")}
    finally:
        conn.close()


def test_a_log_made_before_migration_4_reads_the_same_hold_and_gets_the_rows_a_new_log_has(shift, tmp_path,
                                                                                             monkeypatch):
    from app.store.log import AuditLog
    from app.store.read_models import rebuild
    from app.store.schema import MIGRATIONS
    monkeypatch.setenv("PITDESK_HOME", str(shift.parent / "home"))
    live = _hold_rows(shift)
    assert live["hold_house"] and live["hold_stakes"]
    old = tmp_path / "old.db"
    old.write_bytes(shift.read_bytes())
    _as_before_migration_4(old)
    # read as it lies (reading never migrates): the figures from the settlements' JSON, the same
    assert as_json(read_hold(old)) == as_json(read_hold(shift))
    assert "hold_house" not in {n for (n,) in sqlite3.connect(old).execute("SELECT name FROM sqlite_master")}
    # opened by a workstation: migrated, its rows filled from its settlements as the projector writes them
    with AuditLog(old) as log:
        assert log.query("SELECT max(version) AS v FROM _migrations")[0]["v"] == MIGRATIONS[-1][0]
        assert log.query("SELECT count(*) AS n FROM _migrations WHERE version = 4")[0]["n"] == 1
    assert _hold_rows(old) == live
    with AuditLog(old) as log:
        with log._lock:
            rebuild(log._conn)
    assert _hold_rows(old) == live
    assert as_json(read_hold(old)) == as_json(read_hold(shift))
