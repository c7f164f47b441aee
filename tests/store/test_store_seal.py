"""Nothing that decides goes unsealed (issue 26): the read models derived from the chain and
compared by ``audit verify``, and verify away from the workstation (another install's key, or
none), on a simulated shift's real SQLite file and the real command."""

from __future__ import annotations

import secrets
import shutil

import pytest

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
