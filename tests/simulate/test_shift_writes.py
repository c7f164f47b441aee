"""A simulated shift writes no row by hand: every row it logs is written by the workstation's own
code (app/workstation), as a person's action or the pump's, so a row the application would
refuse cannot be simulated (issue 25, "The demo floor is a believable pit")."""

from __future__ import annotations

import ast
import inspect
import sys
from datetime import datetime
from pathlib import Path

import pytest

from app.simulate import random_rounds, round_play, shift, staff, table_day
from app.simulate.shift import run_shift
from app.store.log import AuditLog

ROOT = Path(__file__).resolve().parents[2]
START = datetime(2026, 11, 21, 14, 0)
SIMULATOR = (shift, table_day, round_play, random_rounds, staff)
# what writes a row without the workstation: the rows' builders and the store's own writers
WRITERS = {"app.store.rows", "app.store.floor", "app.store.approvals", "app.store.slips", "app.store.users",
           "app.store.meters", "app.store.chain"}
LOG_WRITES = {"append", "append_many", "write", "submit", "_queued"}


def hand_written(source: str) -> list[str]:
    """What in ``source`` writes rows by hand: an import of a row builder or a store writer, a
    ``Record`` made, or a log's write called (``<...>log.append(...)`` and its kin)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = {a.name for a in node.names}
            if node.module in WRITERS or any(f"{node.module}.{n}" in WRITERS for n in names):
                found.append(f"line {node.lineno}: from {node.module} import {', '.join(sorted(names))}")
            if node.module == "app.store.log" and "Record" in names:
                found.append(f"line {node.lineno}: imports Record")
        elif isinstance(node, ast.Import):
            found += [f"line {node.lineno}: import {a.name}" for a in node.names if a.name in WRITERS]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in LOG_WRITES:
            receiver = ast.unparse(node.func.value)
            if receiver.split(".")[-1].endswith("log"):
                found.append(f"line {node.lineno}: {receiver}.{node.func.attr}(...)")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Record":
            found.append(f"line {node.lineno}: Record(...)")
    return found


def test_the_check_finds_a_hand_written_row():
    # the check can fail: the simulator as it was (rows built by hand and appended to the log)
    assert hand_written("from app.store import rows\nlog.append_many([rows.note(t, 'a', 'r', 'x')])\n") == [
        "line 1: from app.store import rows", "line 2: log.append_many(...)"]
    assert hand_written("from app.store.log import AuditLog, Record\n") == ["line 1: imports Record"]
    assert hand_written("self.shift.desk.ws.log.append('alarm_acknowledged', t, 'fs', 'floor supervisor')\n") == [
        "line 1: self.shift.desk.ws.log.append(...)"]
    assert hand_written("import app.store.rows\nx = Record('note', t, 'a', 'r', None, {})\n") == [
        "line 1: import app.store.rows", "line 2: Record(...)"]
    assert hand_written("seats.append(3)\nself.ws.decisions.record('T1', 'cut', {})\n") == []


@pytest.mark.parametrize("module", SIMULATOR, ids=lambda m: m.__name__)
def test_the_simulator_builds_no_row_and_writes_no_log(module):
    assert hand_written(inspect.getsource(module)) == []


def test_every_row_of_a_simulated_shift_is_written_by_the_workstation(tmp_path, home, monkeypatch):
    """Each write reaching the log comes from app/workstation: the first frame above the store is
    the workstation's, never the simulator's."""
    writers: list[str] = []
    queued = AuditLog._queued
    store = str(ROOT / "app" / "store")

    def spy(self, records):
        records = list(records)
        frame = sys._getframe(1)
        while frame is not None and frame.f_code.co_filename.startswith(store):
            frame = frame.f_back
        where = Path(frame.f_code.co_filename).resolve().relative_to(ROOT).parts[:2] if frame else ()
        writers.extend(["/".join(where)] * len(records))
        return queued(self, records)

    monkeypatch.setattr(AuditLog, "_queued", spy)
    summary = run_shift(tmp_path / "a.db", 2, 8, START, seed=5, plant=True)
    assert len(writers) == summary["events"]
    assert set(writers) == {"app/workstation"}, sorted(set(writers))
