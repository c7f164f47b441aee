"""A PIN's record copied from another user (issue 35, finding 9): the ``pins`` row keeps only
keyed hashes, so a row whose salt and hash were copied from another user's passes nothing, but it
used to make ``audit verify`` pass and lock the real user out, wrong PIN after wrong PIN. Now
the event that set the PIN seals its row: ``audit verify`` names the user whose record was
changed, and a sign-in against it is refused as such, never counted towards a lockout. A real
log through the people's own code (tests/support/workstation.py), ``pitdesk audit verify`` run
as a process."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess

import pytest

from tests.support.store import PITDESK
from tests.support.workstation import Clock, open_ws


def users_row(db, name: str) -> tuple:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT failures, locked_until FROM users WHERE name = ?", (name,)).fetchone()
    finally:
        conn.close()


def test_a_pin_record_copied_from_another_user_is_found_and_does_not_lock_the_user_out(tmp_path, monkeypatch):
    db = tmp_path / "pit.db"
    open_ws(tmp_path, monkeypatch, Clock()).close()
    victim, other = "demo-dealer", "demo-floor"
    conn = sqlite3.connect(db)
    with conn:
        salt, digest = conn.execute("SELECT salt, pin_hash FROM pins WHERE name = ?", (other,)).fetchone()
        conn.execute("UPDATE pins SET salt = ?, pin_hash = ? WHERE name = ?", (salt, digest, victim))
    conn.close()
    p = subprocess.run([PITDESK, "audit", "verify", "--db", str(db)], capture_output=True, text=True, timeout=120,
                       env={**os.environ, "PITDESK_HOME": str(tmp_path / "home")})
    assert p.returncode == 1, p.stdout + p.stderr
    bad = json.loads(p.stdout)["first_bad"]
    assert bad["kind"] == "pin record" and f"the PIN record of {victim}" in bad["detail"]

    ws = open_ws(tmp_path, monkeypatch, Clock())
    try:
        for _ in range(7):      # more than the five wrong PINs of a lockout
            with pytest.raises(Exception, match=f"the PIN record of {victim} .* was changed outside pitdesk"):
                ws.people.sign_in(victim, "4444")
        assert users_row(db, victim) == (0, None)
        ws.people.sign_in(other, "2222")        # the other user's own record is untouched
    finally:
        ws.close()
