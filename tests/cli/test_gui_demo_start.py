"""``pitdesk gui --demo`` paints the floor first, and only then do the demo's dealer and floor
supervisor sign in, once each, at the stations of every table (issue 33: fourteen PIN hashes and
the rank tables built twice came before the first paint, and the sign-ins log showed demo-floor
SIGNED IN once for each of the seven tables). A real process (tests/support/first_paint.py) on a
new log and then on the same log again; what the log held at the first paint is read from its
file. Nothing is timed."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.first_paint import MARK
from tests.support.gui_process import env

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def _threads(no_threads_left):
    yield


def start(tmp_path: Path, db: Path) -> dict:
    r = subprocess.run([sys.executable, "-m", "tests.support.first_paint", str(db), "--quit-after", "90"],
                       cwd=ROOT, env=env(tmp_path), capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr
    line = next((x for x in r.stdout.splitlines() if x.startswith(MARK)), None)
    assert line is not None, r.stdout + r.stderr
    out = json.loads(line[len(MARK):])
    assert out["paint"] is not None, "the floor's tiles were never painted"
    return out["paint"]


STATION_PEOPLE = ["demo-cashier", "demo-count-1", "demo-dealer", "demo-floor"]


def signed_in(db: Path) -> list[tuple[int, str]]:
    """The sign-ins log (the ``sign_ins`` read model the logs view shows): each SIGNED IN row."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return [tuple(r) for r in conn.execute("SELECT seq, name FROM sign_ins WHERE event = 'sign_in' ORDER BY seq")]
    finally:
        conn.close()


def test_the_floor_is_painted_before_the_demo_people_sign_in_once_each_at_every_start(tmp_path):
    db = tmp_path / "home" / "demo.db"          # the demo's log in the data folder (PITDESK_HOME)
    first = start(tmp_path, db)
    # a new log: the demo administrator signed in to add the people, before the floor was up;
    # nobody else had
    assert [name for _, name, _ in first["sign_ins"]] == ["demo-admin"]
    after = [name for seq, name in signed_in(db) if seq > first["last_seq"]]
    # the table's people and, for the money (issue 34), the cage and the count room
    assert sorted(after) == STATION_PEOPLE

    logged = signed_in(db)
    second = start(tmp_path, db)
    # the same log again: nobody signed in before the floor was painted
    assert [tuple(r[:2]) for r in second["sign_ins"]] == [tuple(r) for r in logged]
    again = [name for seq, name in signed_in(db) if seq > second["last_seq"]]
    assert sorted(again) == STATION_PEOPLE
    # and they signed in at the stations of all seven tables, one row each
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT actor, json_extract(body, '$.data.stations') FROM events WHERE type = 'sign_in' "
                            "AND seq > ? ORDER BY seq", (second["last_seq"],)).fetchall()
    finally:
        conn.close()
    assert {(actor, tuple(json.loads(stations))) for actor, stations in rows} == \
        {(p, ("T1", "T2", "T3", "T4", "T5", "T6", "T7")) for p in STATION_PEOPLE}
