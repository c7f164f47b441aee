"""Nothing that decides goes unsealed (issue 26): the read models derived from the chain and
compared by ``audit verify``, and verify away from the workstation (another install's key, or
none), on a simulated shift's real SQLite file and the real command."""

from __future__ import annotations

import hashlib
import json
import secrets
import shutil
import stat
from datetime import datetime, timedelta

import pytest

from app.store.log import AuditLog
from app.store.users import SignInError, UserError, Users
from tests.support.store import attacker, cli, first_bad, verify_ok


@pytest.fixture
def shift_db(made, tmp_path):
    """A copy of the swing shift's log (tests/conftest.py ``made``) and its install's home."""
    shutil.copy(made / "shift.db", tmp_path / "shift.db")
    shutil.copytree(made / "home", tmp_path / "home")
    return tmp_path / "shift.db", tmp_path / "home"


# each edit as someone with sqlite3 would make it, and what verify must name: table, key, column
EDITS = {
    "settlement": ("UPDATE settlements SET house_net_cents = house_net_cents + 1000000 "
                   "WHERE seq = (SELECT min(seq) FROM settlements)", "settlements", "house_net_cents"),
    "hold": ("UPDATE hold_house SET won = won + 1000000 WHERE rowid = (SELECT min(rowid) FROM hold_house)",
             "hold_house", "won"),
    "role": ("UPDATE users SET role = 'pit manager' WHERE name = 'dealer-T1'", "users", "role"),
    "approval": ("UPDATE approvals SET status = 'approved', decided_by = 'dealer-T1' "
                 "WHERE request = (SELECT max(request) FROM approvals)", "approvals", "decided_by"),
    "slip": ("UPDATE slips SET win_cents = 1 WHERE number = 2", "slips", "win_cents"),
    "meter": ("UPDATE meter_readings SET cents = 5 WHERE seq = (SELECT min(seq) FROM meter_readings)",
              "meter_readings", "cents"),
    "lockout": ("UPDATE users SET locked_by = NULL, failures = 0, locked_until = NULL; "
                "UPDATE users SET failures = 4 WHERE name = 'admin'", "users", "failures"),
    "row gone": ("DELETE FROM settlements WHERE seq = (SELECT max(seq) FROM settlements)", "settlements", None),
    "row added": ("INSERT INTO meter_readings VALUES (999999, 'T1', '2026-11-21T20:00:00', 1, 'me')",
                  "meter_readings", None),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_a_read_model_edited_with_sqlite3_fails_verify_naming_table_key_and_values(shift_db, edit):
    db, home = shift_db
    sql, table, column = EDITS[edit]
    assert verify_ok(home, "--db", str(db))["read_models"] == "checked"
    with attacker(db) as conn:
        conn.executescript(sql)
    rc, out, err = cli(home, "audit", "verify", "--db", str(db))
    assert rc == 1, (out, err)
    bad = out["first_bad"]
    assert bad["kind"] == "read model" and bad["table"] == table, bad
    assert f"table {table}, key " in bad["detail"] and f"audit log does not verify: row {bad['seq']}" in err
    if column is not None:  # both values, the log's and the table's
        assert column in bad["log"] and column in bad["stored"] and bad["log"][column] != bad["stored"][column]
        assert f"{column} reads {bad['stored'][column]!r}, the log gives {bad['log'][column]!r}" in bad["detail"]


def test_verify_under_another_home_checks_the_chain_and_says_the_seals_were_not(shift_db, tmp_path):
    db, home = shift_db
    other = tmp_path / "auditor"
    other.mkdir()
    # no key at all on the auditor's machine
    res = verify_ok(other, "--db", str(db))
    assert res["seals"] == "not checked" and "no install key at" in res["seals_why"] and res["rows"] > 1000
    # another install's key: not "row 1: forged"
    (other / "install.key").write_text(secrets.token_hex(32) + "\n")
    res = verify_ok(other, "--db", str(db))
    assert res["seals"] == "not checked" and "sealed on another install" in res["seals_why"]
    # the workstation's key, received as a file
    res = verify_ok(other, "--db", str(db), "--key", str(home / "install.key"))
    assert res["seals"] == "checked" and "seals_why" not in res
    # a key named that did not seal it: forged
    assert first_bad(other, "--db", str(db), "--key", str(other / "install.key"))[:2] == (1, "forged")
    # the chain is still checked without the seals
    with attacker(db) as conn:
        conn.execute("UPDATE events SET actor = 'x' WHERE seq = 7")
    assert first_bad(other, "--db", str(db))[:2] == (7, "edited")


def test_a_key_file_that_is_not_a_key_is_a_usage_fault(shift_db, tmp_path):
    db, home = shift_db
    bad = tmp_path / "k"
    bad.write_text("not hex\n")
    for key in (bad, tmp_path / "none"):
        rc, out, err = cli(home, "audit", "verify", "--db", str(db), "--key", str(key))
        assert rc == 2 and out is None and str(key) in err and "Traceback" not in err


# -- people: roles and lockouts from the chain, PINs out of it ------------------------------------
T0 = datetime(2026, 11, 21, 14, 0)


@pytest.fixture
def staff(log):
    users = Users(log)
    users.create_administrator("root", "90817263", T0)
    admin = users.sign_in("root", "90817263", T0)
    users.add(admin, "dee", "dealer", "24681357", T0)
    return users, admin


def test_a_role_forged_in_the_users_table_does_not_sign_in(log, staff):
    users, _ = staff
    with attacker(log.path) as conn:
        conn.execute("UPDATE users SET role = 'pit manager' WHERE name = 'dee'")
    s = users.sign_in("dee", "24681357", T0 + timedelta(minutes=1))
    assert s.role == "dealer"
    last = log.query("SELECT role, body FROM events ORDER BY seq DESC LIMIT 1")[0]
    assert last["role"] == "dealer"  # the row the dealer writes is sealed with the chain's role


def test_a_lockout_cleared_in_the_users_table_still_holds(log, staff):
    users, admin = staff
    now = T0 + timedelta(minutes=1)
    for _ in range(5):
        with pytest.raises(SignInError):
            users.sign_in("dee", "11111111", now)
    with attacker(log.path) as conn:
        conn.execute("UPDATE users SET failures = 0, locked_until = NULL WHERE name = 'dee'")
    with pytest.raises(SignInError, match="locked until"):
        users.sign_in("dee", "24681357", now)
    users.lock(admin, "dee", now)
    with attacker(log.path) as conn:
        conn.execute("UPDATE users SET locked_by = NULL, locked_until = NULL WHERE name = 'dee'")
    with pytest.raises(SignInError, match="locked by root"):
        users.sign_in("dee", "24681357", now + timedelta(hours=1))


def test_a_user_event_edited_in_the_log_refuses_that_sign_in(log, staff):
    users, _ = staff
    with attacker(log.path) as conn:
        seq, body = conn.execute("SELECT seq, body FROM events WHERE type = 'user_added' AND actor = 'root'").fetchone()
        conn.execute("UPDATE events SET body = ? WHERE seq = ?", (body.replace('"dealer"', '"pit manager"'), seq))
    with pytest.raises(UserError, match=f"row {seq} of the audit log"):
        users.sign_in("dee", "24681357", T0)


def test_no_pin_material_in_the_sealed_user_events_and_the_hash_is_keyed(log, staff):
    users, admin = staff
    users.change_pin(admin, "dee", "1234567890123456789012345678901", T0)   # 31 digits: longer PINs
    for r in log.query("SELECT type, body FROM events WHERE type IN ('user_added', 'pin_changed')"):
        data = json.loads(r["body"])["data"]
        assert set(data) <= {"name", "role", "credential", "first_run"}, data
    pins = log.query("SELECT * FROM pins")
    assert {p["name"] for p in pins} == {"root", "dee"} and len(pins) == 3
    dee = log.query("SELECT p.* FROM pins p JOIN users u ON u.credential = p.credential WHERE u.name = 'dee'")[0]
    # a search of the copied database alone: scrypt of the right PIN is not the stored hash
    plain = hashlib.scrypt(b"1234567890123456789012345678901", salt=bytes.fromhex(dee["salt"]), n=2 ** 14, r=8,
                           p=1, maxmem=64 * 2 ** 20, dklen=32).hex()
    assert plain != dee["pin_hash"]
    assert users.sign_in("dee", "1234567890123456789012345678901", T0).role == "dealer"
    with pytest.raises(UserError, match="4 to 32 digits"):
        users.change_pin(admin, "dee", "1" * 33, T0)
    # a credential row moved to another user does not sign them in, and is said to be changed (issue 35)
    with attacker(log.path) as conn:
        root = conn.execute("SELECT credential FROM users WHERE name = 'root'").fetchone()[0]
        conn.execute("UPDATE pins SET salt = ?, pin_hash = ? WHERE credential = ?", (dee["salt"], dee["pin_hash"], root))
    with pytest.raises(SignInError, match="the PIN record of root .* was changed outside pitdesk"):
        users.sign_in("root", "1234567890123456789012345678901", T0)


def test_a_pin_logged_before_issue_26_still_signs_in_and_is_listed_to_re_set(log):
    """The migration: old user_added bodies keep their salt and hash (a sealed chain cannot
    lose them); the PIN signs in, and ``users list`` says it must be re-set."""
    salt = bytes(range(16))
    legacy = {"name": "old", "role": "administrator", "salt": salt.hex(), "kdf": "scrypt:n=16384,r=8,p=1",
              "pin_hash": hashlib.scrypt(b"86420864", salt=salt, n=2 ** 14, r=8, p=1, maxmem=64 * 2 ** 20,
                                         dklen=32).hex(), "first_run": True}
    log.append("user_added", T0, "pitdesk", "administrator", None, legacy)
    users = Users(log)
    s = users.sign_in("old", "86420864", T0)
    assert s.role == "administrator"
    assert users.list()[0]["pin"] == "in the log: re-set it"
    users.change_pin(s, "old", "97531975", T0)
    assert users.sign_in("old", "97531975", T0).role == "administrator"
    with pytest.raises(SignInError):
        users.sign_in("old", "86420864", T0)
    assert users.list()[0]["pin"] == "keyed"


def test_the_database_and_key_files_are_private(tmp_path, monkeypatch):
    """(The head files are not secret: sealed, they say only the last row's number and hash, and
    an auditor reading as another user checks against them, tests/store/test_store_readonly.py.)"""
    home = tmp_path / "home"
    monkeypatch.setenv("PITDESK_HOME", str(home))
    with AuditLog(tmp_path / "new.db") as lg:
        lg.append("note", T0, "dee", "dealer")
        made = [tmp_path / "new.db", tmp_path / "new.db-wal", tmp_path / "new.db-shm", home / "install.key"]
        for f in made:
            assert stat.S_IMODE(f.stat().st_mode) == 0o600, (f, oct(f.stat().st_mode))
