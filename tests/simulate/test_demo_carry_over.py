"""The demo floor on a log kept from before its tables changed profile.

T1 and T5 played ``section6`` (000(l)(9) as written, 2 to 1) until issue 25 and play
``section6-even`` now (docs/rule-settings.md e.). The workstation refuses a table whose profile
differs from the log's (app/workstation/pit.py), so the demo carries a kept log over as a pit
changes a table's game: the floor supervisor closes the table, its decks are removed, it is
configured again with its new profile and opened again, each step logged through the procedures,
and the log still verifies (``pitdesk audit verify``).
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from app.devices.session import Policy
from app.engine.procedure import Event
from app.simulate.demo import DEMO_TABLES, PREFIX, carry_over, demo_config, open_demo
from app.simulate.opening import open_table
from app.store.floor import Floor
from app.store.log import AuditLog
from app.workstation.errors import ConfigError
from app.workstation.workstation import Workstation

PITDESK = str(Path(sys.executable).with_name("pitdesk"))
QUICK = Policy(degraded_after_s=1.0, offline_after_s=2.5, backoff_first_s=0.1, backoff_max_s=0.5)
CHANGED = ("T1", "T5")
# the demo floor as it was before issue 25
OLD_TABLES = tuple((t, "section6" if t in CHANGED else p, pos, classes) for t, p, pos, classes in DEMO_TABLES)


def bodies(db: Path, table: str) -> list[dict]:
    conn = sqlite3.connect(db)
    try:
        return [json.loads(b) for (b,) in conn.execute("SELECT body FROM events WHERE table_id = ? ORDER BY seq",
                                                        (table,))]
    finally:
        conn.close()


def verify(db: Path) -> dict:
    p = subprocess.run([PITDESK, "audit", "verify", "--db", str(db)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    return json.loads(p.stdout)


def test_the_demo_tables_play_section6_with_the_base_wager_paid_1_to_1():
    assert {t: p for t, p, _, _ in DEMO_TABLES if t in CHANGED} == {"T1": "section6-even", "T5": "section6-even"}
    assert "section6" not in {p for _, p, _, _ in DEMO_TABLES}


def test_the_demo_opens_on_a_log_made_with_the_old_profiles(tmp_path, home):
    db = tmp_path / "demo.db"
    ws, _ = open_demo(db, tables=OLD_TABLES, faults=(), fault_rate=0, seed=3, policy=QUICK)
    ws.close()
    # as before: the workstation refuses a table whose profile differs from the log's
    urls = {f"{PREFIX[c]}-{t}": f"demo://{PREFIX[c]}-{t}" for t, _, _, classes in DEMO_TABLES for c in classes}
    with pytest.raises(ConfigError, match="table T1 is configured with profile 'section6' in this log, not "
                                          "'section6-even'; close it and configure it again"):
        Workstation(demo_config(urls), db)
    before = {t: len(bodies(db, t)) for t, *_ in DEMO_TABLES}

    ws, _ = open_demo(db, faults=(), fault_rate=0, seed=3, policy=QUICK)
    try:
        assert {t: ws.pit.rules[t].name for t in CHANGED} == {"T1": "section6-even", "T5": "section6-even"}
        assert ws.floor.tables() == {t: p for t, p, _, _ in DEMO_TABLES}
    finally:
        ws.close()
    for t in CHANGED:
        new = bodies(db, t)[before[t]:]
        steps = [(b["type"], b["actor"], b["role"], b["data"]) for b in new]
        # the floor supervisor closes the table, the dealer removes both decks, it is configured again
        # as the configuration says, and the demo opens it again as it opens a table (000(e))
        assert steps[0] == ("table_closed", "demo-floor", "floor supervisor", {})
        assert sorted(s[3]["deck"] for s in steps[1:3]) == ["blue", "red"]
        assert {s[:3] for s in steps[1:3]} == {("deck_removed", "demo-dealer", "dealer")}
        assert steps[3] == ("table_configured", "pitdesk", "administrator", {"profile": "section6-even"})
        assert [s[0] for s in steps[4:]][:5] == ["deck_received", "deck_inspected", "deck_verified", "deck_spread",
                                                 "deck_washed"]
    # the other tables were left as they were: nothing closed, nothing configured again
    for t, *_ in DEMO_TABLES:
        if t not in CHANGED:
            assert not [b for b in bodies(db, t)[before[t]:] if b["type"] in ("table_closed", "table_configured")]
    assert verify(db)["ok"] is True
    # carried over once: the next run finds nothing to change
    rows = sum(len(bodies(db, t)) for t, *_ in DEMO_TABLES)
    assert carry_over(db) == DEMO_TABLES
    assert sum(len(bodies(db, t)) for t, *_ in DEMO_TABLES) == rows


def test_a_table_in_a_round_keeps_its_profile_until_a_later_run(tmp_path, home):
    # T5 is in a round (no_more_bets): 000 gives no way to close a table in the middle of one, so it
    # plays section6 this run; T1, configured and never opened, is only configured again
    t = [datetime(2026, 11, 21, 14, 0)]

    def clock():
        t[0] += timedelta(seconds=5)
        return t[0]
    db = tmp_path / "demo.db"
    with AuditLog(db) as log:
        floor = Floor(log)
        for table in CHANGED:
            floor.configure(table, "section6", clock(), "pitdesk", "administrator")
        open_table(floor, "T5", clock)
        for kind, actor, role, data in (("shuffle_started", "demo-dealer", "dealer", {"deck": "red"}),
                                        ("shuffle_completed", "demo-dealer", "dealer",
                                         {"deck": "red", "manual": False, "card_count": 53}),
                                        ("player_seated", "p1", "player", {"seat": 1}),
                                        ("no_more_bets", "demo-dealer", "dealer",
                                         {"method": "automated-shoe", "wagers": [1]})):
            floor.record("T5", Event(kind, clock(), actor, role, data))
        last = t[0]
    # a clock behind the log's last event: nothing is stamped before it
    tables = carry_over(db, clock=lambda: datetime(2026, 11, 21, 13, 0))
    assert {x: p for x, p, _, _ in tables if x in CHANGED} == {"T1": "section6-even", "T5": "section6"}
    (configured,) = [b for b in bodies(db, "T1") if b["type"] == "table_configured" and b["seq"] > 1]
    assert configured["data"] == {"profile": "section6-even"} and configured["time"] == last.isoformat()
    assert [b["type"] for b in bodies(db, "T1")] == ["table_configured", "table_configured"]
    assert bodies(db, "T5")[-1]["type"] == "no_more_bets"
    # the floor opens with T5 on the profile of its round
    urls = {f"{PREFIX[c]}-{x}": f"demo://{PREFIX[c]}-{x}" for x, _, _, classes in tables for c in classes}
    with Workstation(demo_config(urls, tables), db) as ws:
        assert (ws.pit.rules["T1"].name, ws.pit.rules["T5"].name) == ("section6-even", "section6")
    assert verify(db)["ok"] is True


def test_a_demo_controller_starts_where_the_kept_log_left_its_meter(tmp_path, home):
    """A real controller keeps its meter when the workstation restarts; the demo's did not (every
    run began at $10,000.00, and the log showed the meter falling with no hit or reset)."""
    from app.simulate.demo import DemoDevices, kept_meters
    from app.store import rows
    db = tmp_path / "demo.db"
    ws, _ = open_demo(db, faults=(), fault_rate=0, seed=3, policy=QUICK)
    ws.close()
    log = AuditLog(db)       # the controller's last reading before the workstation stopped
    try:
        log.append_many([rows.meter_reading(datetime.now(), "PRG-T1", "device", "T1", 1_004_321, "controller",
                                            "PRG-T1")])
    finally:
        log.close()
    kept = kept_meters(db)
    assert kept["T1"] == 1_004_321 and "T3" not in kept          # T3 has no progressive controller
    devices = DemoDevices(meters=kept)
    assert devices.devices["PRG-T1"]._class.broadcast() == ("meter", {"cents": 1_004_321})
    assert devices.devices["PRG-T2"]._class.broadcast() == ("meter", {"cents": kept.get("T2", 1_000_000)})
    assert kept_meters(tmp_path / "none.db") == {}


# -- issue 35, finding 6: nothing written before the log is held and has passed its check ------------
def rows(db: Path) -> int:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT count(*) FROM events").fetchone()[0]
    finally:
        conn.close()


def old_log(tmp_path) -> Path:
    db = tmp_path / "demo.db"
    ws, _ = open_demo(db, tables=OLD_TABLES, faults=(), fault_rate=0, seed=3, policy=QUICK)
    ws.close()
    return db


def test_a_log_another_window_holds_is_not_carried_over(tmp_path, home):
    db = old_log(tmp_path)
    before = rows(db)
    # another window's process holds the log (its holder lock, as a workstation takes it)
    other = subprocess.Popen([sys.executable, "-c", "import sys; from app.store.holder import Holder; "
                              f"h = Holder({str(db)!r}); print('held', flush=True); sys.stdin.read()"],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert other.stdout.readline().strip() == "held"
        assert carry_over(db) == DEMO_TABLES
        assert rows(db) == before, "the carry-over wrote to a log another window holds"
        with pytest.raises(Exception, match="in use by another workstation"):
            open_demo(db, faults=(), fault_rate=0, seed=3, policy=QUICK)
        assert rows(db) == before
    finally:
        other.communicate("", timeout=30)
    # the other window closed: carried over now
    assert carry_over(db) == DEMO_TABLES and rows(db) > before


def test_a_log_that_fails_its_check_is_not_carried_over(tmp_path, home):
    db = old_log(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER events_no_update")
    with conn:      # one row's actor changed in its body: its hash no longer matches
        seq, body = conn.execute("SELECT seq, body FROM events ORDER BY seq DESC LIMIT 1").fetchone()
        conn.execute("UPDATE events SET body = ? WHERE seq = ?", (body.replace('"actor":"', '"actor":"x', 1), seq))
    conn.close()
    before = rows(db)
    assert carry_over(db) == DEMO_TABLES
    assert rows(db) == before, "the carry-over wrote to a log that fails its check"
