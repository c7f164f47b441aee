"""A simulated shift for the logs' tests (``pitdesk simulate shift --plant`` through ``run_shift``: rare
hands planted, so that approvals, W-2G slips and a voided slip turn up in a short shift), made once
per test session, and what the tests count straight from its events table, never through the logs'
own code (app/store/logbook.py)."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from app.simulate import run_shift

START = datetime(2026, 11, 21, 14, 0)
SHIFT = {"tables": 4, "rounds": 70, "seed": 7, "plant": True}


@dataclass(frozen=True)
class Shift:
    db: Path
    home: Path
    summary: dict

    def copy(self, folder: Path) -> "Shift":
        """A copy of the log and its install key (its own head file) for a test that writes."""
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copy(self.db, folder / "log.db")
        shutil.copytree(self.home, folder / "home")
        return Shift(folder / "log.db", folder / "home", self.summary)

    def sql(self, sql: str, params: tuple | dict = ()) -> list[tuple]:
        conn = sqlite3.connect(f"file:{self.db}?mode=ro", uri=True)
        try:
            return conn.execute(sql, params).fetchall()
        finally:
            conn.close()

    def one(self, sql: str, params: tuple | dict = ()):
        return self.sql(sql, params)[0][0]

    def tables(self) -> list[tuple[str, str]]:
        """(table, profile) as the shift last configured them, from its table_configured events."""
        last = {}
        for t, body in self.sql("SELECT table_id, body FROM events WHERE type = 'table_configured' ORDER BY seq"):
            last[t] = json.loads(body)["data"]["profile"]
        return sorted(last.items())


def simulate(db: Path, home: Path, tables: int, rounds: int, start: datetime, seed: int, plant: bool = False) -> dict:
    """``pitdesk simulate shift`` into ``db``, its install key in ``home`` (PITDESK_HOME as it was after);
    ``plant``: ``--plant``."""
    old = os.environ.get("PITDESK_HOME")
    os.environ["PITDESK_HOME"] = str(home)
    try:
        return run_shift(db, tables, rounds, start, seed, plant=plant)
    finally:
        if old is None:
            os.environ.pop("PITDESK_HOME", None)
        else:
            os.environ["PITDESK_HOME"] = old


def make_shift(folder: Path) -> Shift:
    summary = simulate(folder / "log.db", folder / "home", SHIFT["tables"], SHIFT["rounds"], START, SHIFT["seed"],
                       SHIFT["plant"])
    return Shift(folder / "log.db", folder / "home", summary)


# -- counted from the events table alone -------------------------------------------------------
# the events that make each tab's rows (the device log: faults, links back online, progressive
# wagers closed and opened with their controllers)
TAB_EVENTS = {
    "decks": "type = 'deck_received'",
    "dice": "type = 'dice_placed'",
    "approvals": "type = 'approval_requested'",
    "alarms": "type = 'alarm_raised'",
    "devices": ("(type = 'device_fault' OR type = 'progressive_link' OR (type = 'alarm_cleared' "
                "AND json_extract(body, '$.data.kind') LIKE '%\\_offline' ESCAPE '\\'))"),
    "slips": "type = 'slip_issued'",
    "sign_ins": "type IN ('sign_in', 'sign_in_failed', 'signed_out', 'user_locked', 'user_unlocked')",
    "events": "1",
}


def expected(shift: Shift, tab: str, table: str | None = None, since: str | None = None,
             before: str | None = None, extra: str = "", params: dict | None = None) -> list[int]:
    """The seqs of the events behind ``tab``'s rows in the window, straight from the events table."""
    where = [TAB_EVENTS[tab]]
    p = dict(params or {})
    if table is not None:
        where.append("table_id = :table")
        p["table"] = table
    if since is not None:
        where.append("time >= :since")
        p["since"] = since
    if before is not None:
        where.append("time < :before")
        p["before"] = before
    if extra:
        where.append(extra)
    return [r[0] for r in shift.sql(f"SELECT seq FROM events WHERE {' AND '.join(where)} ORDER BY seq", p)]
