"""``pitdesk gui`` as a real process: a bad configuration refused before any window, the demo
floor opened, pictured and closed cleanly, its log continued by a second run."""

from __future__ import annotations

import sqlite3
import json
import subprocess
from pathlib import Path

import pytest

from app.simulate.demo import DEMO_USERS
from app.qt import QImage
from tests.support.gui_process import PITDESK, env, gui


@pytest.fixture(autouse=True)
def _threads(no_threads_left):
    yield


def demo_db(tmp_path: Path) -> Path:
    # the data folder (PITDESK_HOME, as tests/support/gui_process.py sets it), beside the install key
    return tmp_path / "home" / "demo.db"


def count(db: Path, sql: str) -> int:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute(sql).fetchone()[0]
    finally:
        conn.close()


def test_a_bad_configuration_is_refused_naming_key_and_line_before_any_window(tmp_path):
    cfg = tmp_path / "pit.toml"
    cfg.write_text('[[tables]]\nid = "T1"\nprofile = "section6"\n\n[[tables]]\nid = "T2"\nprofile = "vegas"\n')
    r = gui(tmp_path, "--config", str(cfg), "--db", str(tmp_path / "pit.db"))
    assert r.returncode == 2
    assert "line 7" in r.stderr and "tables[2].profile" in r.stderr and "vegas" in r.stderr
    assert "Traceback" not in r.stderr and "propagateSizeHints" not in r.stderr   # no window was made
    assert not (tmp_path / "pit.db").exists()


@pytest.mark.parametrize("args, words", [
    (["--demo", "--view", "tables"], "--view"),
    (["--demo", "--size", "big"], "--size"),
    (["--demo", "--screenshot", "shot.jpg"], "--screenshot"),
    (["--demo", "--view", "table:T99", "--quit-after", "0"], "no table 'T99'"),
])
def test_bad_options_exit_2_naming_the_option(tmp_path, args, words):
    r = gui(tmp_path, *args)
    assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr


def test_the_demo_closes_cleanly_and_a_second_run_continues_the_same_log(tmp_path):
    r = gui(tmp_path, "--demo", "--quit-after", "3")
    assert r.returncode == 0, r.stderr
    assert "Traceback" not in r.stderr and "Fatal" not in r.stderr
    db = demo_db(tmp_path)
    first = count(db, "SELECT max(seq) FROM events")
    assert count(db, "SELECT count(*) FROM events WHERE type = 'user_added'") == len(DEMO_USERS)
    # the links were closed by us: no outage was logged for shutting down
    assert count(db, "SELECT count(*) FROM alarms WHERE kind LIKE '%offline'") == 0
    r = gui(tmp_path, "--demo", "--quit-after", "2")
    assert r.returncode == 0, r.stderr
    assert count(db, "SELECT max(seq) FROM events") > first
    assert count(db, "SELECT count(*) FROM events WHERE type = 'user_added'") == len(DEMO_USERS)   # the same people
    assert count(db, "SELECT count(*) FROM events WHERE type = 'deck_received' AND table_id = 'T1'") == 2
    verify = subprocess.run([PITDESK, "audit", "verify", "--db", str(db)], env=env(tmp_path), capture_output=True,
                            text=True, timeout=120)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    # README: where the demo's log is, and how to check it without knowing where
    demo = subprocess.run([PITDESK, "audit", "verify", "--demo"], env=env(tmp_path), capture_output=True, text=True,
                          timeout=120)
    assert demo.returncode == 0, demo.stderr
    assert json.loads(demo.stdout)["head"] == json.loads(verify.stdout)["head"]
    plain = subprocess.run([PITDESK, "audit", "verify"], env=env(tmp_path), capture_output=True, text=True,
                           timeout=120)
    assert plain.returncode == 2
    assert f"no audit database at {tmp_path / 'home' / 'pitdesk.db'}" in plain.stderr
    assert "pitdesk audit verify --demo" in plain.stderr and str(db) in plain.stderr


def test_a_screenshot_of_a_view_at_the_size_asked(tmp_path):
    shot = tmp_path / "shots" / "table-T1.png"
    r = gui(tmp_path, "--demo", "--screenshot", str(shot), "--after", "2", "--view", "table:T1",
            "--size", "1366x768")
    assert r.returncode == 0, r.stderr
    image = QImage(str(shot))
    assert not image.isNull() and (image.width(), image.height()) == (1366, 768)
    # a picture run leaves the supervisor's remembered window alone
    assert not (tmp_path / "config" / "pitdesk" / "workstation.conf").exists()
