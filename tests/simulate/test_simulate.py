"""``pitdesk simulate shift``: a whole shift through the workstation into a real audit database; its
rows verify and replay, the same seed gives the same rows, and a shift with planted hands
(``--plant``) says so in its log where one without them does not."""

import json
import sqlite3
import subprocess
import sys
from datetime import datetime
from pathlib import Path

import pytest

from app.cli import main
from app.engine.procedure import IRREGULARITIES, Event, Refused, TableState, apply
from app.rules.resources import names, profile
from app.simulate import ShiftError, run_shift
from app.store.approvals import KINDS
from app.store.read_models import PROCEDURE_EVENTS

PITDESK = str(Path(sys.executable).with_name("pitdesk"))
START = datetime(2026, 11, 21, 14, 0)


def rows(db: Path, sql: str, params: tuple = ()) -> list[tuple]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(sql, params).fetchall()
    finally:
        conn.close()


def one(db: Path, sql: str) -> int:
    return rows(db, sql)[0][0]


def bodies(db: Path) -> list[dict]:
    return [json.loads(b) for (b,) in rows(db, "SELECT body FROM events ORDER BY seq")]


def check_against_db(summary: dict, db: Path) -> None:
    """Every count in the summary is what the database holds."""
    seq, h = rows(db, "SELECT seq, hash FROM events ORDER BY seq DESC LIMIT 1")[0]
    assert summary["head"] == f"{seq}:{h}"
    assert summary["events"] == seq == one(db, "SELECT count(*) FROM events")
    assert summary["settlements"] == summary["rounds"] == one(db, "SELECT count(*) FROM settlements")
    assert summary["rounds"] == one(db, "SELECT count(*) FROM rounds WHERE status = 'settled'")
    assert summary["rounds"] == summary["tables"] * summary["rounds_per_table"]
    assert summary["void_rounds"] == one(db, "SELECT count(*) FROM rounds WHERE status = 'void'")
    assert one(db, "SELECT count(*) FROM rounds WHERE status = 'in progress'") == 0
    assert summary["approvals_requested"] == one(db, "SELECT count(*) FROM approvals")
    assert summary["approvals_decided"] == one(db, "SELECT count(*) FROM approvals WHERE status != 'pending'")
    assert summary["approvals_decided"] == summary["approvals_requested"]  # nothing is left pending
    assert summary["approval_kinds"] == [k for (k,) in rows(db, "SELECT DISTINCT kind FROM approvals ORDER BY kind")]
    assert summary["slips"] == one(db, "SELECT count(*) FROM slips")
    assert summary["slips_void"] == one(db, "SELECT count(*) FROM slips WHERE status = 'VOID'")
    assert summary["w2g_slips"] == one(db, "SELECT count(*) FROM slips WHERE w2g IS NOT NULL")
    assert summary["irregularities"] == one(db, "SELECT count(*) FROM irregularities")
    assert summary["irregularity_kinds"] == [k for (k,) in rows(db, "SELECT DISTINCT kind FROM irregularities "
                                                                     "ORDER BY kind")]
    assert one(db, "SELECT count(*) FROM irregularities WHERE needs_ack AND acknowledged_by IS NULL") == 0
    assert summary["decks_received"] == one(db, "SELECT count(*) FROM events WHERE type = 'deck_received'")
    assert summary["decks_removed"] == one(db, "SELECT count(*) FROM decks WHERE status = 'removed'")
    assert summary["decks_removed"] == summary["decks_received"]  # every table is closed and cleared
    assert summary["decks_changed"] <= summary["decks_removed"]
    assert summary["dice_placed"] == one(db, "SELECT count(*) FROM events WHERE type = 'dice_placed'")
    assert summary["dice_changed"] == one(db, "SELECT count(*) FROM dice WHERE removed IS NOT NULL")
    assert summary["alarms"] == one(db, "SELECT count(*) FROM alarms")
    # every alarm dealt with in the shift, but a walked chip's: left open for surveillance (issue 34)
    assert one(db, "SELECT count(*) FROM alarms WHERE acknowledged_by IS NULL AND kind NOT IN ('tray_difference', "
                   "'win_difference')") == 0
    assert one(db, "SELECT count(*) FROM alarms WHERE kind IN ('tray_difference', 'win_difference')") == (
        2 if summary.get("walked") else 0)
    assert summary["device_faults"] == one(db, "SELECT count(*) FROM device_faults")
    assert summary["meter_readings"] == one(db, "SELECT count(*) FROM meter_readings")
    assert summary["users"] == one(db, "SELECT count(*) FROM users")
    configured = {b["data"]["profile"] for b in bodies(db) if b["type"] == "table_configured"}
    assert summary["profiles"] == sorted(configured)


def replay_tables(db: Path) -> dict[str, TableState]:
    """Replay each table's logged events through the engine afresh: none may be refused (the
    store's read models silently skip a refused event, so this is the real check)."""
    states: dict[str, TableState] = {}
    rules = {}
    last: dict[str, str] = {}
    for b in bodies(db):
        table = b["table"]
        if table is not None:
            assert b["time"] >= last.get(table, ""), f"time goes backwards at row {b['seq']}"
            last[table] = b["time"]
        if b["type"] == "table_configured":
            rules[table] = profile(b["data"]["profile"]).rules
            states.setdefault(table, TableState())
        elif b["type"] in PROCEDURE_EVENTS and table is not None:
            event = Event(b["type"], datetime.fromisoformat(b["time"]), b["actor"], b["role"], b["data"])
            try:
                states[table] = apply(states[table], event, rules[table])
            except Refused as e:  # pragma: no cover - the failure message
                pytest.fail(f"row {b['seq']} ({table}, {b['type']}): {e}")
    return states


def notes(db: Path) -> list[tuple[int, str]]:
    return [(seq, json.loads(b)["data"]["text"]) for seq, b in rows(db, "SELECT seq, body FROM events WHERE type = "
                                                                       "'note' ORDER BY seq")]


def simulate_cli(db: Path, env: dict, *args: str) -> dict:
    p = subprocess.run([PITDESK, "simulate", "shift", "--db", str(db), "--start", "2026-11-21 14:00", *args],
                       capture_output=True, text=True, env=env)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def verify(db: Path, env: dict, head: str) -> dict:
    v = subprocess.run([PITDESK, "audit", "verify", "--db", str(db), "--head", head],
                       capture_output=True, text=True, env=env)
    assert v.returncode == 0, v.stdout + v.stderr
    return json.loads(v.stdout)


def test_cli_shift_matches_the_database_and_verifies(tmp_path):
    db = tmp_path / "shift.db"
    env = {"PITDESK_HOME": str(tmp_path / "home"), "PATH": ""}
    # six tables: one a rule profile
    summary = simulate_cli(db, env, "--tables", "6", "--rounds", "20", "--seed", "1")
    assert (summary["tables"], summary["rounds_per_table"], summary["seed"]) == (6, 20, 1)
    assert summary["start"] == "2026-11-21T14:00:00" and summary["elapsed_seconds"] > 0
    check_against_db(summary, db)
    assert summary["profiles"] == names("rules")
    # nothing planted, and the log says so once, near its start, by the administrator
    assert summary["plants"] == 0
    [(seq, text)] = notes(db)
    assert seq < 30 and "nothing planted" in text and "plant" not in text.replace("nothing planted", "")
    # each approval decided by the role it needs; none the application would not have asked for
    assert set(summary["approval_kinds"]) <= set(KINDS)
    for kind, need, by in rows(db, "SELECT kind, role_needed, decided_role FROM approvals"):
        assert by in ("floor supervisor", "pit manager") and not (need == "pit manager" and by != need), kind
    # every alarm acknowledged with a reason, by a supervisor
    for who, why in rows(db, "SELECT json_extract(body, '$.actor'), json_extract(body, '$.data.reason') "
                             "FROM events WHERE type = 'alarm_acknowledged'"):
        assert who.startswith(("floor-", "pit-")) and why, (who, why)
    # every deal method the profiles use (seed 1: the nj table deals three and four)
    methods = {b["data"]["method"] for b in bodies(db) if b["type"] == "no_more_bets"}
    assert methods == {"manual-shoe", "hand", "automated-shoe", "three-four"}
    # the chain verifies, with the head the simulator reported
    assert verify(db, env, summary["head"])["rows"] == summary["events"]
    # every logged table event replays through the engine; every table ends closed
    states = replay_tables(db)
    assert sorted(states) == [f"T{i}" for i in range(1, 7)] and {s.state for s in states.values()} == {"closed"}
    # the pace: rounds 1.5 to 3 minutes apart at the median, in simulated time
    for table in states:
        times = [datetime.fromisoformat(t) for (t,) in rows(
            db, "SELECT time FROM events WHERE table_id = ? AND type = 'settled' ORDER BY seq", (table,))]
        gaps = sorted((b - a).total_seconds() / 60 for a, b in zip(times, times[1:]) if (b - a).total_seconds() < 600)
        assert 1.5 <= gaps[len(gaps) // 2] <= 3.0, (table, gaps)


def test_a_planted_shift_says_so_in_its_log(tmp_path):
    db = tmp_path / "planted.db"
    env = {"PITDESK_HOME": str(tmp_path / "home"), "PATH": ""}
    summary = simulate_cli(db, env, "--tables", "6", "--rounds", "30", "--seed", "2", "--plant")
    check_against_db(summary, db)
    assert summary["plants"] >= 6
    [(seq, text)] = notes(db)
    assert seq < 30 and "planted hands (--plant)" in text and "hold means nothing" in text
    # what the planted hands are for: the approvals and the W-2G slips of big wins in a short shift
    assert {"payoff_threshold", "aggregate_limit", "progressive_meter_payout"} <= set(summary["approval_kinds"])
    assert set(summary["approval_kinds"]) <= set(KINDS)
    assert summary["w2g_slips"] >= 1 and summary["slips_void"] >= 1
    assert verify(db, env, summary["head"])["rows"] == summary["events"]
    assert {s.state for s in replay_tables(db).values()} == {"closed"}
    # and a $100 chip walked off one tray (issue 34): its closer short, its alarms naming table and amount
    walked = summary["walked"]
    assert walked["cents"] == 10_000
    alarms = rows(db, "SELECT kind, table_id, message FROM alarms WHERE kind IN ('tray_difference', "
                      "'win_difference') ORDER BY seq")
    assert [(k, t) for k, t, _ in alarms] == [("tray_difference", walked["table"]), ("win_difference", walked["table"])]
    assert all("$100.00" in m for _, _, m in alarms)


def test_every_profile_banking_mode_and_side_bet_is_settled(tmp_path, home):
    db = tmp_path / "shift.db"
    summary = run_shift(db, 6, 30, START, seed=3)
    check_against_db(summary, db)
    seen_modes, seen_bets = set(), set()
    for prof, banking, text in rows(db, "SELECT profile, banking, settlement FROM settlements"):
        seen_modes.add((prof, banking))
        for r in json.loads(text)["results"]:
            seen_bets.add((prof, r["wager"].split(" ")[0]))
    for name in names("rules"):
        rules = profile(name).rules
        assert {(name, m) for m in rules.banking_modes} <= seen_modes, name
        assert {(name, b) for b in rules.side_bets} <= seen_bets, name
    # every position method
    positions = {b["data"]["method"] for b in bodies(db) if b["type"] == "position_determined"}
    assert positions == {"dice", "rng", "button", "two-dice", "action"}


def test_the_same_seed_gives_the_same_shift(tmp_path, home, monkeypatch):
    a = run_shift(tmp_path / "a.db", 2, 12, START, seed=11)
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "other-home"))  # another install, another key
    b = run_shift(tmp_path / "b.db", 2, 12, START, seed=11)
    assert bodies(tmp_path / "a.db") == bodies(tmp_path / "b.db")
    assert a["head"] == b["head"]
    strip = ("db", "elapsed_seconds")
    assert {k: v for k, v in a.items() if k not in strip} == {k: v for k, v in b.items() if k not in strip}
    c = run_shift(tmp_path / "c.db", 2, 12, START, seed=12)
    assert bodies(tmp_path / "c.db") != bodies(tmp_path / "a.db") and c["head"] != a["head"]


def test_start_sets_the_clock(tmp_path, home):
    s = run_shift(tmp_path / "a.db", 1, 3, datetime(2027, 2, 3, 22, 30), seed=1)
    times = [t for (t,) in rows(tmp_path / "a.db", "SELECT time FROM events ORDER BY seq")]
    assert times[0] == "2027-02-03T22:30:00" and times == sorted(times)
    assert s["end"] == times[-1] and s["rounds"] == 3


@pytest.mark.parametrize("args,message", [
    (["--tables", "0", "--rounds", "5"], "--tables: at least one table, got 0"),
    (["--tables", "2", "--rounds", "-1"], "--rounds: at least one round per table, got -1"),
    (["--tables", "2", "--rounds", "5", "--start", "21/11/2026 14:00"],
     "--start: expected a time like 2026-11-21 14:00 (YYYY-MM-DD HH:MM), got '21/11/2026 14:00'"),
    (["--tables", "2", "--rounds", "5", "--start", "2026-11-21"], "--start: expected"),
    (["--tables", "two", "--rounds", "5"], "argument --tables: invalid int value: 'two'"),
    (["--tables", "1", "--rounds", "5", "--irregularity-rate", "1.5"],
     "--irregularity-rate: a probability from 0 to 1, got 1.5"),
])
def test_bad_arguments_exit_2_naming_the_fault(tmp_path, home, capsys, args, message):
    db = tmp_path / "x.db"
    try:
        code = main(["simulate", "shift", "--db", str(db), *args])
    except SystemExit as e:  # argparse's own usage errors
        code = e.code
    out, err = capsys.readouterr()
    assert code == 2 and message in err, err
    assert out == "" and not db.exists()


def test_a_database_with_events_is_refused(tmp_path, home):
    db = tmp_path / "a.db"
    run_shift(db, 1, 1, START, seed=1)
    before = one(db, "SELECT count(*) FROM events")
    with pytest.raises(ShiftError, match=r"already holds \d+ events; simulate a shift into a new database"):
        run_shift(db, 1, 1, START, seed=1)
    p = subprocess.run([PITDESK, "simulate", "shift", "--tables", "1", "--rounds", "1", "--db", str(db)],
                       capture_output=True, text=True, env={"PITDESK_HOME": str(home), "PATH": ""})
    assert p.returncode == 2 and "already holds" in p.stderr
    assert one(db, "SELECT count(*) FROM events") == before


@pytest.mark.slow
def test_a_long_shift_shows_every_irregularity_and_verifies(tmp_path, home):
    db = tmp_path / "long.db"
    # irregularities in half the rounds: every kind the engine knows turns up, through the workstation
    # (seed 4: since the money plays in the shift (issue 34), seed 3 no longer draws a bank cover ruling)
    summary = run_shift(db, 6, 150, START, seed=4, irregularity_rate=0.5)
    check_against_db(summary, db)
    assert set(IRREGULARITIES) <= set(summary["irregularity_kinds"])
    assert {"misdeal", "deck_count_wrong", "bank_cover_ruling"} <= set(summary["irregularity_kinds"])
    # with no planted hand: a reset of the meter after a controller's restart, a progressive hit
    # paid off the meter and a payoff over the threshold, at their true odds
    assert {"meter_reset", "payoff_threshold", "progressive_meter_payout"} <= set(summary["approval_kinds"])
    assert summary["device_faults"] > 0
    states = replay_tables(db)
    assert {s.state for s in states.values()} == {"closed"}
    from app.store import audit, paths
    assert audit.verify_db(db, paths.install_key(create=False)).ok
