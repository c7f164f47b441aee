"""The hold view (issue 15, "Hold") in the real window over a simulated shift: the figures on
screen are ``pitdesk hold --json``'s (the command run as a person runs it), the chart's bars are
its holds, the models pass the model tester, the periods are the shifts and days, a bad period is
said in words, and a round settled while the view is shown reaches it without a reset."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from app.simulate.shift import SIM_PIN
from app.views.hold_models import PIT, HoldLinesModel, HoldTablesModel, table_rows
from app.views.hold_view import REFRESH_MS, period_of
from app.qt import QSettings
from app.views.theme import money
from app.workstation.config import TableSetup, WorkstationConfig
from app.workstation.hold import LABELS, read_hold
from app.workstation.workstation import Workstation
from tests.support.simulated_shift import Shift
from tests.support.views import Clock, close_window, open_window

ROOT = Path(__file__).resolve().parents[2]
PITDESK = str(Path(sys.executable).with_name("pitdesk"))
WAIT_MS = 20_000


@pytest.fixture(scope="module")
def shift(logs_shift) -> Shift:
    return logs_shift


@pytest.fixture
def window(themed, shift, tmp_path, qtbot, monkeypatch, no_threads_left):
    own = shift.copy(tmp_path / "log")
    monkeypatch.setenv("PITDESK_HOME", str(own.home))
    end = datetime.fromisoformat(own.one("SELECT max(time) FROM events")) + timedelta(minutes=5)
    clock = Clock(end)
    config = WorkstationConfig(tuple(TableSetup(t, p) for t, p in own.tables()), source="the hold test")
    ws = Workstation(config, own.db, clock=clock)
    w = open_window(qtbot, ws, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), "hold test")
    w.own, w.ws = own, ws
    yield w
    close_window(w, ws)


def whole(own: Shift) -> tuple[datetime, datetime]:
    first = datetime.fromisoformat(own.one("SELECT min(time) FROM events"))
    last = datetime.fromisoformat(own.one("SELECT max(time) FROM events"))
    return first.replace(second=0, microsecond=0), last + timedelta(minutes=1)


def shown(qtbot, w, kind="chosen", start=None, end=None):
    page = w.hold_page
    if w.view != "hold":
        w.show_view("hold")
        qtbot.waitUntil(lambda: page.reads >= 1, timeout=WAIT_MS)
    n = page.reads
    page.choose(kind, start, end)
    qtbot.waitUntil(lambda: page.reads > n and not page.reading, timeout=WAIT_MS)
    return page


def command(db: Path, start: datetime, end: datetime) -> dict:
    p = subprocess.run([PITDESK, "hold", "--db", str(db), "--from", f"{start:%Y-%m-%d %H:%M}", "--to",
                        f"{end:%Y-%m-%d %H:%M}", "--json"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def cell(model, row: int, title: str) -> str:
    col = [c.title for c in model.columns].index(title)
    return model.index(row, col).data()


def pct(x: float | None) -> str:
    return "—" if x is None else f"{x * 100:.2f}%"


def shows(text: str, x: float | None) -> bool:
    """``text`` (a percentage and what follows it) shows ``x``: the command's figure is rounded to
    five places, the screen's from the exact one, so within the last place shown (0.024349... shows
    2.43%, the command's 0.02435 would show 2.44%)."""
    if x is None:
        return text.startswith(pct(None))
    return abs(float(text.split("%")[0]) - x * 100) <= 0.0051


def test_the_figures_on_screen_are_the_commands(qtbot, window):
    start, end = whole(window.own)
    page = shown(qtbot, window, "chosen", start, end)
    out = command(window.own.db, start, end)
    assert out["rounds"] > 100 and page.report.rounds == out["rounds"]
    tables = page.tables
    shown_tables = [cell(tables, r, "Table") for r in range(tables.rowCount())]
    assert shown_tables == ["The pit"] + [t for t, _ in window.own.tables()]
    rows = {"The pit": (out["rounds"], out["pit"]["total"])} | \
        {t["table"]: (t["rounds"], t["total"]) for t in out["tables"]}
    for r, name in enumerate(shown_tables):
        rounds, total = rows[name]
        assert cell(tables, r, "Rounds") == f"{rounds:,}"
        assert cell(tables, r, "Wagered") == money(total["wagered"])
        assert cell(tables, r, "House net") == money(total["house_net"])
        assert shows(cell(tables, r, "Actual hold"), total["actual_hold"])
        assert shows(cell(tables, r, "Theoretical hold"), total["theoretical_hold"])
    # the pit's wager types, then each table's, as the lines list shows them when chosen
    for name, wagers in [(PIT, out["pit"]["wagers"])] + [(t["table"], t["wagers"]) for t in out["tables"]]:
        page.choose_table(name)
        qtbot.waitUntil(lambda name=name: page.chosen_table == name, timeout=WAIT_MS)
        lines = page.lines
        assert [cell(lines, r, "Wager") for r in range(lines.rowCount())] == [LABELS[w] for w in wagers]
        for r, (w, d) in enumerate(wagers.items()):
            assert cell(lines, r, "Wagered") == money(d["wagered"])
            assert cell(lines, r, "House won") == money(d["house_won"])
            assert cell(lines, r, "House lost") == money(d["house_lost"])
            assert cell(lines, r, "Commission") == money(d["commission"])
            assert cell(lines, r, "Fees") == money(d["collection_fees"])
            assert cell(lines, r, "To meter") == money(d["to_meter"])
            assert cell(lines, r, "House net") == money(d["house_net"])
            assert shows(cell(lines, r, "Actual"), d["actual_hold"])
            assert shows(cell(lines, r, "Theoretical"), d["theoretical_hold"])
            estimate = d.get("theoretical", {}).get("basis") == "estimate"
            assert ("est." in cell(lines, r, "Theoretical")) == estimate, w
        # the chart: a row per wager type with money wagered, the actual and theoretical holds
        bars = page.chart.bars
        assert [b[0] for b in bars] == [w for w, d in wagers.items() if d["wagered"] > 0]
        for wager, actual, theory in bars:
            d = wagers[wager]
            assert actual == pytest.approx(d["actual_hold"], abs=5e-7)
            assert (theory is None) == (d["theoretical_hold"] is None)
            if theory is not None:
                assert theory == pytest.approx(d["theoretical_hold"], abs=5e-7)


def test_the_models_pass_the_model_tester(qtmodeltester, shift):
    report = read_hold(shift.db)
    tables, lines = HoldTablesModel(), HoldLinesModel()
    tables.set_records(table_rows(report, ["T9"] + [t for t, _ in shift.tables()]))
    lines.set_records(report.pit)
    qtmodeltester.check(tables, force_py=True)
    qtmodeltester.check(lines, force_py=True)
    # a table of the floor with no round in the period has its row of zeros
    assert tables.record(1).table == "T9" and tables.record(1).rounds == 0 and tables.record(1).total.wagered == 0


def test_the_periods_are_the_shifts_and_the_days():
    now = datetime(2026, 11, 21, 17, 30)
    assert period_of("shift", now)[:2] == (datetime(2026, 11, 21, 16), datetime(2026, 11, 22, 0))
    assert period_of("last_shift", now)[:2] == (datetime(2026, 11, 21, 8), datetime(2026, 11, 21, 16))
    assert period_of("last_shift", datetime(2026, 11, 21, 3))[:2] == (datetime(2026, 11, 20, 16),
                                                                       datetime(2026, 11, 21, 0))
    assert period_of("today", now)[:2] == (datetime(2026, 11, 21), datetime(2026, 11, 22))
    assert period_of("yesterday", now)[:2] == (datetime(2026, 11, 20), datetime(2026, 11, 21))
    assert period_of("shift", now)[2] == "swing shift, Sat 21 Nov, 16:00–24:00"      # as the tiles word a day
    assert period_of("today", now)[2] == "today, Sat 21 Nov"
    with pytest.raises(ValueError, match="no period 'week'"):
        period_of("week", now)


def test_a_period_ending_before_it_starts_is_said_and_nothing_read(qtbot, window):
    start, end = whole(window.own)
    page = shown(qtbot, window, "chosen", start, end)
    reads = page.reads
    page.start_edit.setDateTime(end)
    page.end_edit.setDateTime(start)
    qtbot.waitUntil(lambda: "not before its end" in page.status.text(), timeout=WAIT_MS)
    assert page.reads == reads and page.status.property("level") == "red"


def test_this_shift_counts_only_its_rounds(qtbot, window):
    page = shown(qtbot, window, "shift")
    now = window.bridge.clock()
    start, end, _ = period_of("shift", now)
    count = window.own.one("SELECT count(*) FROM settlements WHERE time >= ? AND time < ?",
                           (start.isoformat(), end.isoformat()))
    assert page.report.rounds <= count and page.report.rounds == command(window.own.db, start, end)["rounds"]
    assert page.start_edit.isHidden() and period_of("shift", now)[2] in page.words.text()


def test_a_round_settled_while_shown_reaches_the_view_without_a_reset(qtbot, window):
    table = next(t for t, p in window.own.tables() if p == "nj")
    round_file = json.loads((ROOT / "docs/rounds/nj-house.json").read_text())
    start, end = whole(window.own)
    page = shown(qtbot, window, "chosen", start, end + timedelta(hours=2))
    before = page.report.table_hold(table)
    resets = []
    page.tables.modelReset.connect(lambda: resets.append(1))
    page.lines.modelReset.connect(lambda: resets.append(1))
    reads = page.reads
    window.bridge.act(lambda w: (w.people.sign_in("floor-1", SIM_PIN), w.rounds.load(table, round_file))[-1])
    window.bridge.act(lambda w: w.rounds.settle(table).changes)
    qtbot.waitUntil(lambda: page.reads > reads and page.report.table_hold(table).rounds == before.rounds + 1,
                    timeout=WAIT_MS + 2 * REFRESH_MS)
    after = page.report.table_hold(table)
    assert after.total.wagered > before.total.wagered
    row = page.tables.row_of(table)
    assert cell(page.tables, row, "Rounds") == f"{before.rounds + 1:,}"
    assert not resets
