"""Users, approvals, payout slips and the floor's read models (issue 5), on real SQLite files."""

import json
import re
import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from app.engine.procedure import Event, Refused
from app.engine.round import parse_round
from app.engine.settle import settle
from app.rules.resources import profile
from app.store.approvals import ApprovalError, Approvals
from app.store.floor import Floor, FloorError
from app.store.log import AuditLog
from app.store.read_models import rebuild
from app.store.slips import SlipError, Slips, needs_w2g
from app.store.users import Session, SignInError, UserError, Users

T0 = datetime(2026, 11, 21, 14, 0)
PITDESK = str(Path(sys.executable).with_name("pitdesk"))


@pytest.fixture
def people(log):
    users = Users(log)
    users.create_administrator("root", "1234", T0)
    admin = users.sign_in("root", "1234", T0)
    for name, role in (("dee", "dealer"), ("fay", "floor supervisor"), ("pat", "pit manager")):
        users.add(admin, name, role, "24681357", T0)
    return users, admin


def test_pins_are_stored_only_as_salted_scrypt_hashes(log, people):
    rows = log.query("SELECT * FROM pins")
    assert {r["name"] for r in rows} == {"root", "dee", "fay", "pat"}
    for r in rows:
        assert r["kdf"].startswith("scrypt:") and len(r["salt"]) == 32 and len(r["pin_hash"]) == 64
    # the same PIN gives different hashes (salted), and the PIN itself is in no event body
    hashes = [r["pin_hash"] for r in rows if r["name"] != "root"]
    assert len(set(hashes)) == 3
    # (eight digits: a four-digit PIN turns up by chance in a body's hex salt or hash)
    assert not any("24681357" in r["body"] for r in log.query("SELECT body FROM events"))


def test_first_run_creates_one_administrator_only(log, people):
    users, admin = people
    with pytest.raises(UserError, match="users already exist"):
        users.create_administrator("other", "1234", T0)
    with pytest.raises(UserError, match="only an administrator may add users"):
        users.add(users.sign_in("fay", "24681357", T0), "x", "dealer", "1111", T0)
    with pytest.raises(UserError, match="a PIN is 4 to 32 digits"):
        users.add(admin, "x", "dealer", "12a4", T0)
    with pytest.raises(UserError, match="role must be one of"):
        users.add(admin, "x", "croupier", "1111", T0)


def test_five_failures_lock_the_account_for_a_set_time(log, people):
    users, admin = people
    for k in range(1, 5):
        with pytest.raises(SignInError, match=f"wrong PIN \\({k} of 5"):
            users.sign_in("fay", "0000", T0 + timedelta(seconds=k))
    # the time in words, as the window shows a time of the shift (issue 33, 5), never ISO
    with pytest.raises(SignInError, match="wrong PIN; fay is locked until Sat 14:15:05 \\(5 failures\\)$"):
        users.sign_in("fay", "0000", T0 + timedelta(seconds=5))
    with pytest.raises(SignInError, match="fay is locked until Sat 14:15:05 after 5 wrong PINs"):  # even the right PIN
        users.sign_in("fay", "24681357", T0 + timedelta(minutes=10))
    assert users.sign_in("fay", "24681357", T0 + timedelta(minutes=16)).role == "floor supervisor"
    kinds = [r["type"] for r in log.query("SELECT type FROM events WHERE actor = 'fay' ORDER BY seq")]
    assert kinds == ["sign_in_failed"] * 6 + ["sign_in"]
    with pytest.raises(SignInError, match="no user 'nobody'"):
        users.sign_in("nobody", "1234", T0)
    assert log.query("SELECT type FROM events ORDER BY seq DESC LIMIT 1")[0]["type"] == "sign_in_failed"


def test_an_administrator_locks_and_unlocks(log, people):
    users, admin = people
    users.lock(admin, "dee", T0)
    with pytest.raises(SignInError, match="locked by root"):
        users.sign_in("dee", "24681357", T0 + timedelta(days=1))
    users.unlock(admin, "dee", T0)
    assert users.sign_in("dee", "24681357", T0).name == "dee"


def test_an_administrator_sets_a_role_and_the_next_sign_in_is_in_it(log, people):
    users, admin = people
    users.set_role(admin, "dee", "floor supervisor", T0 + timedelta(minutes=1))
    (row,) = log.query("SELECT actor, role, time, body FROM events WHERE type = 'role_changed'")
    assert (row["actor"], row["role"]) == ("root", "administrator")
    assert json.loads(row["body"])["data"] == {"name": "dee", "role": "floor supervisor", "was": "dealer"}
    assert users.get("dee")["role"] == "floor supervisor"
    assert users.sign_in("dee", "24681357", T0 + timedelta(minutes=2)) == Session("dee", "floor supervisor")
    # the sign-in is logged in the new role too
    assert log.query("SELECT role FROM events WHERE type = 'sign_in' AND actor = 'dee'") == [
        {"role": "floor supervisor"}]


def test_a_role_change_is_refused_naming_why_and_nothing_is_logged(log, people):
    users, admin = people
    fay = users.sign_in("fay", "24681357", T0)
    before = log.seq
    refusals = [
        (fay, "dee", "pit manager", "only an administrator may set roles; fay is a floor supervisor"),
        (admin, "nobody", "dealer", "no user 'nobody'"),
        (admin, "dee", "croupier", "role must be one of dealer, floor supervisor, pit manager, administrator, cashier, security, count team"),
        (admin, "dee", "dealer", "dee's role is already dealer"),
        (admin, "root", "pit manager", "root is the last unlocked administrator"),
    ]
    for by, name, role, why in refusals:
        with pytest.raises(UserError, match=re.escape(why)):
            users.set_role(by, name, role, T0)
    assert log.seq == before
    assert users.get("root")["role"] == "administrator" and users.get("dee")["role"] == "dealer"


def test_the_last_unlocked_administrator_keeps_the_role(log, people):
    users, root = people
    users.add(root, "ann", "administrator", "13572468", T0)
    users.lock(root, "ann", T0)
    # a locked administrator cannot sign in to unlock anyone: root is still the last one
    with pytest.raises(UserError, match="root is the last unlocked administrator"):
        users.set_role(root, "root", "pit manager", T0)
    users.unlock(root, "ann", T0)
    # a lockout for wrong PINs ends by itself: ann still counts
    for k in range(5):
        with pytest.raises(SignInError):
            users.sign_in("ann", "0000", T0 + timedelta(seconds=k))
    assert users.get("ann")["locked_until"]
    users.set_role(root, "root", "pit manager", T0 + timedelta(minutes=1))
    assert users.get("root")["role"] == "pit manager"
    ann = users.sign_in("ann", "13572468", T0 + timedelta(minutes=20))
    with pytest.raises(UserError, match="ann is the last unlocked administrator"):
        users.set_role(ann, "ann", "dealer", T0 + timedelta(minutes=20))
    # an administrator may be made of anyone, and then the other may step down
    users.set_role(ann, "pat", "administrator", T0 + timedelta(minutes=21))
    users.set_role(ann, "ann", "dealer", T0 + timedelta(minutes=22))
    assert [(u["name"], u["role"]) for u in users.list()] == [
        ("ann", "dealer"), ("dee", "dealer"), ("fay", "floor supervisor"), ("pat", "administrator"),
        ("root", "pit manager")]


def test_the_users_read_model_rebuilt_from_the_log_is_the_live_one(log, people):
    users, admin = people
    users.set_role(admin, "dee", "pit manager", T0)
    users.set_role(admin, "fay", "administrator", T0)
    users.set_role(admin, "dee", "floor supervisor", T0 + timedelta(minutes=1))
    users.lock(admin, "pat", T0)
    users.change_pin(admin, "fay", "97531", T0)
    with pytest.raises(SignInError):
        users.sign_in("dee", "0000", T0 + timedelta(minutes=2))
    live = log.query("SELECT * FROM users ORDER BY name")
    assert {u["name"]: u["role"] for u in live} == {"root": "administrator", "dee": "floor supervisor",
                                                    "fay": "administrator", "pat": "pit manager"}
    with log._lock:
        rebuild(log._conn)
    assert log.query("SELECT * FROM users ORDER BY name") == live


def test_approvals_by_role(log, people):
    users, admin = people
    appr = Approvals(log)
    fay, pat, dee = (users.sign_in(n, "24681357", T0) for n in ("fay", "pat", "dee"))
    req = appr.request("meter_reset", T0, "dee", "dealer", table="T1", cents=1_000_000, reason="hit on seat 3")
    with pytest.raises(ApprovalError, match="needs a pit manager; fay is a floor supervisor"):
        appr.decide(fay, req, "approved", "ok", T0)
    with pytest.raises(ApprovalError, match="a dealer can never approve"):
        appr.decide(dee, req, "approved", "ok", T0)
    with pytest.raises(ApprovalError, match="an administrator can never approve"):
        appr.decide(admin, req, "approved", "ok", T0)
    with pytest.raises(ApprovalError, match="records its reason"):
        appr.decide(pat, req, "approved", " ", T0)
    appr.decide(pat, req, "approved", "meter checked against the controller", T0 + timedelta(minutes=1))
    (row,) = log.query("SELECT * FROM approvals")
    assert (row["status"], row["decided_by"], row["decided_role"], row["rule"]) == (
        "approved", "pat", "pit manager", "000(q)(6)")
    with pytest.raises(ApprovalError, match="already approved by pat"):
        appr.decide(pat, req, "denied", "changed my mind", T0)
    # a floor supervisor may decide a floor-supervisor request, and a pit manager may too
    r2 = appr.request("recut", T0, "dee", "dealer", table="T1", reason="cut card at 9")
    appr.decide(fay, r2, "denied", "the cut was proper", T0)
    assert appr.pending() == []
    with pytest.raises(ApprovalError, match="unknown approval kind"):
        appr.request("free_drinks", T0, "dee", "dealer")


def test_slips_are_numbered_in_sequence_and_void_slips_stay(log):
    slips = Slips(log)
    numbers = [slips.issue(T0, "dee", "dealer", "T1", 2, "fortune", 500, 25_000 * k) for k in range(1, 4)]
    assert numbers == [1, 2, 3]
    slips.void(2, "wrong seat", T0, "fay", "floor supervisor")
    assert slips.issue(T0, "dee", "dealer", "T1", 3, "fortune", 500, 10_000) == 4  # 2 is never reused
    book = slips.book()
    assert [(s["number"], s["status"]) for s in book] == [(1, "ISSUED"), (2, "VOID"), (3, "ISSUED"), (4, "ISSUED")]
    assert book[1]["void_reason"] == "wrong seat" and book[1]["voided_by"] == "fay"
    with pytest.raises(SlipError, match="already VOID"):
        slips.void(2, "again", T0, "fay", "floor supervisor")


def test_w2g_data_on_a_table_game_win_of_600_and_300_times_the_wager(log):
    # $600 or more and at least 300 times the wager
    assert needs_w2g(60_000, 200) and not needs_w2g(59_999, 100) and not needs_w2g(60_000, 201)
    slips = Slips(log)
    with pytest.raises(SlipError, match="needs the W-2G data: missing name, address, tin, id_type, id_number"):
        slips.issue(T0, "dee", "dealer", "T1", 4, "fortune", 500, 400_000)
    payee = {"name": "Ada Lovelace", "address": "1 Main St", "tin": "123-45-6789", "id_type": "driver's licence",
             "id_number": "D123"}
    with pytest.raises(SlipError, match="SSN or EIN"):
        slips.issue(T0, "dee", "dealer", "T1", 4, "fortune", 500, 400_000, {**payee, "tin": "12"})
    n = slips.issue(T0, "dee", "dealer", "T1", 4, "fortune", 500, 400_000, payee)
    w2g = json.loads(slips.book()[n - 1]["w2g"])
    assert w2g["box1_gross_winnings_cents"] == 400_000 and w2g["payee_tin"] == "123-45-6789"
    assert w2g["box2_date_won"] == "2026-11-21"
    assert slips.book()[0]["number"] == 1  # the refused attempts used no number


def ev(kind, minutes, role="dealer", actor="ann", **data):
    return Event(kind, T0 + timedelta(minutes=minutes), actor, role, data)


def test_the_floor_logs_only_what_the_engine_accepts_and_rebuilds_the_read_models(log, tmp_path):
    floor = Floor(log)
    with pytest.raises(FloorError, match="no table 'T9'"):
        floor.record("T9", ev("deck_received", 0, deck="red"))
    with pytest.raises(Exception, match="nosuch"):
        floor.configure("T1", "nosuch", T0, "pat", "pit manager")
    floor.configure("T1", "section6", T0, "pat", "pit manager")
    events = [ev("deck_received", 0, deck="red"), ev("deck_inspected", 1, deck="red"),
              ev("deck_verified", 2, "floor supervisor", "bob", deck="red"), ev("deck_spread", 3, deck="red"),
              ev("deck_washed", 4, deck="red"), ev("dice_placed", 4),
              ev("player_seated", 4, "player", "p1", seat=1), ev("player_seated", 4, "player", "p2", seat=2),
              ev("shuffle_started", 5), ev("shuffle_completed", 6, deck="red"),
              ev("no_more_bets", 7, method="manual-shoe", wagers=[1, 2]),
              ev("position_determined", 8, method="dice", value=14, position=6),
              ev("dealt", 9, remaining=4), ev("dealer_card_exposed", 10)]
    for e in events:
        floor.record("T1", e)
    before = log.seq
    with pytest.raises(Refused, match="awaits a supervisor's acknowledgement"):
        floor.record("T1", ev("shuffle_started", 11))
        floor.record("T1", ev("shuffle_completed", 11, deck="red"))
        floor.record("T1", ev("no_more_bets", 11, method="manual-shoe", wagers=[1, 2]))
    before = log.seq
    with pytest.raises(Refused, match="not allowed while the table is betting"):
        floor.record("T1", ev("dealt", 11, remaining=4))
    assert log.seq == before  # nothing of a refused event is logged
    floor.record("T1", ev("acknowledged", 11, "floor supervisor", "bob", ref=1))
    assert log.query("SELECT kind, acknowledged_by, rule FROM irregularities") == [
        {"kind": "dealer_card_exposed", "acknowledged_by": "bob", "rule": "000(n)(5)"}]
    assert log.query("SELECT round, status FROM rounds") == [{"round": 1, "status": "void"}]
    deck = log.query("SELECT * FROM decks")[0]
    assert deck["verified_by"] == "bob" and deck["due"] == "2026-11-21T22:00:00"  # 8 h from a shoe
    assert log.query("SELECT due FROM dice")[0]["due"] == "2026-11-22T14:04:00"
    # a settlement with its approvals requested
    # docs/rounds/section6-house.json: a progressive hit off the meter (000(q)(3)(iii)) and its reset
    rnd = json.loads((Path(__file__).parents[2] / "docs" / "rounds" / "section6-house.json").read_text())
    prof = profile(rnd["profile"])
    settlement = settle(parse_round(rnd, prof.rules), prof.rules, prof.ranker(), prof.house())
    floor.settle("T1", 1, settlement, T0 + timedelta(minutes=12), "ann", "dealer")
    assert log.query("SELECT COUNT(*) AS n FROM settlements")[0]["n"] == 1
    assert [a["kind"] for a in log.query("SELECT kind FROM approvals")] == ["progressive_meter_payout"]
    assert log.query("SELECT cents, source FROM meter_readings") == [{"cents": 1_000_000, "source": "settlement"}]
    # the read models are thrown away and rebuilt from the log alone: the same rows
    tables = ("decks", "dice", "rounds", "irregularities", "settlements", "approvals", "tables")
    snapshot = {t: log.query(f"SELECT * FROM {t}") for t in tables}
    with log._lock:
        rebuild(log._conn)
    assert {t: log.query(f"SELECT * FROM {t}") for t in tables} == snapshot


def test_the_floor_state_survives_a_restart(tmp_path, monkeypatch):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    with AuditLog(tmp_path / "a.db") as lg:
        floor = Floor(lg)
        floor.configure("T1", "casino", T0, "pat", "pit manager")
        floor.record("T1", ev("deck_received", 0, deck="red"))
    with AuditLog(tmp_path / "a.db") as lg:
        state = Floor(lg).state("T1")
        assert state.state == "opening" and "red" in state.decks


def test_users_cli(tmp_path):
    env = {"PITDESK_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    db = str(tmp_path / "a.db")

    def run(*args, pins=""):
        return subprocess.run([PITDESK, "users", *args, "--db", db, "--pin-stdin"], input=pins, capture_output=True,
                              text=True, env=env)

    assert run("init", "root", pins="1234\n").returncode == 0
    p = run("init", "again", pins="1234\n")
    assert p.returncode == 2 and "users already exist" in p.stderr
    p = run("add", "fay", "--role", "floor supervisor", "--as", "root", pins="1234\n5678\n")
    assert p.returncode == 0 and json.loads(p.stdout)["by"] == "root"
    p = run("add", "gus", "--role", "dealer", "--as", "root", pins="9999\n5678\n")
    assert p.returncode == 2 and "wrong PIN (1 of 5" in p.stderr
    p = run("add", "gus", "--role", "dealer", "--as", "fay", pins="5678\n1111\n")
    assert p.returncode == 2 and "only an administrator may add users" in p.stderr
    assert run("lock", "fay", "--as", "root", pins="1234\n").returncode == 0
    listed = json.loads(run("list").stdout)
    assert [(u["name"], u["role"], u["locked_by"]) for u in listed] == [("fay", "floor supervisor", "root"),
                                                                         ("root", "administrator", None)]
    v = subprocess.run([PITDESK, "audit", "verify", "--db", db], capture_output=True, text=True, env=env)
    assert v.returncode == 0 and json.loads(v.stdout)["ok"]


def test_users_role_cli(tmp_path):
    env = {"PITDESK_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    db = str(tmp_path / "a.db")

    def run(*args, pins="", pin_stdin=True):
        return subprocess.run([PITDESK, "users", *args, "--db", db, *(["--pin-stdin"] if pin_stdin else [])],
                              input=pins, capture_output=True, text=True, env=env, timeout=60)

    p = run("role", "dee", "dealer", "--as", "root", pins="1234\n")
    assert p.returncode == 2 and "no audit database at" in p.stderr
    assert run("init", "root", pins="1234\n").returncode == 0
    assert run("add", "dee", "--role", "dealer", "--as", "root", pins="1234\n5678\n").returncode == 0
    # a PIN on a pipe is read without --pin-stdin too, as 'users add --as' reads it
    p = run("role", "dee", "floor supervisor", "--as", "root", pins="1234\n", pin_stdin=False)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == {"name": "dee", "role": "floor supervisor", "was": "dealer", "by": "root"}
    assert [(u["name"], u["role"]) for u in json.loads(run("list").stdout)] == [("dee", "floor supervisor"),
                                                                                ("root", "administrator")]
    refusals = [
        (("dee", "floor supervisor", "--as", "root"), "1234\n", "dee's role is already floor supervisor"),
        (("root", "dealer", "--as", "root"), "1234\n", "root is the last unlocked administrator"),
        (("dee", "pit manager", "--as", "dee"), "5678\n", "only an administrator may set roles; dee is a floor "
                                                          "supervisor"),
        (("nobody", "dealer", "--as", "root"), "1234\n", "no user 'nobody'"),
        (("dee", "dealer", "--as", "root"), "9999\n", "wrong PIN (1 of 5"),
        (("dee", "croupier", "--as", "root"), "1234\n", "invalid choice: 'croupier'"),
        (("dee", "dealer", "--as", "root"), "", "expected a PIN on stdin"),
    ]
    for args, pins, why in refusals:
        p = run("role", *args, pins=pins)
        assert p.returncode == 2 and why in p.stderr, (args, p.stderr)
        assert p.stdout == ""
    events = subprocess.run([PITDESK, "audit", "export", "--db", db, "--out", str(tmp_path / "x.jsonl")],
                            capture_output=True, text=True, env=env, timeout=60)
    assert events.returncode == 0, events.stderr
    rows = [json.loads(line) for line in (tmp_path / "x.jsonl").read_text().splitlines()]
    changes = [r for r in rows[1:] if r["type"] == "role_changed"]   # after the header line
    assert [(r["actor"], r["role"], r["data"]) for r in changes] == [
        ("root", "administrator", {"name": "dee", "role": "floor supervisor", "was": "dealer"})]


def test_users_role_cli_counts_the_administrators_from_the_chain(tmp_path):
    # issue 26: `sqlite3 a.db "update users set role='administrator' ..."` shows two administrators;
    # the one the log made is still the last, and may not step down
    env = {"PITDESK_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    db = tmp_path / "a.db"

    def run(*args, pins=""):
        return subprocess.run([PITDESK, "users", *args, "--db", str(db), "--pin-stdin"], input=pins,
                              capture_output=True, text=True, env=env, timeout=60)

    assert run("init", "root", pins="1234\n").returncode == 0
    assert run("add", "dee", "--role", "dealer", "--as", "root", pins="1234\n5678\n").returncode == 0
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE users SET role = 'administrator' WHERE name = 'dee'")
    conn.close()
    assert sorted(u["name"] for u in json.loads(run("list").stdout) if u["role"] == "administrator") == ["dee", "root"]
    p = run("role", "root", "dealer", "--as", "root", pins="1234\n")
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.strip().endswith("root is the last unlocked administrator: as a dealer, nobody could add, unlock "
                                     "or change users again; make another administrator first (or unlock one)")
    assert "Traceback" not in p.stderr
    # nor does an emptied users table make room for another "first" administrator
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("DELETE FROM users")
    conn.close()
    p = run("init", "eve", pins="1234\n")
    assert p.returncode == 2 and "users already exist" in p.stderr


def test_the_command_line_offers_the_stores_roles():
    from app.cli import users_command as users_cli
    from app.store.users import ROLES
    assert users_cli.ROLES == ROLES
