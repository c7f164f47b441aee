"""The round panel's floor and a person at the round panel (tests/views/test_gui_rounds.py,
test_gui_round_decisions.py, test_gui_round_shuffler.py).

The floor has a table per profile named after it (``section6``, ``nj``, ``face-up-ca``, ``casino``,
``sd``), closed in the log, and ``M1``, a section6 table opened as the demo opens it, whose
shuffler's frames the test hands the workstation itself; with ``shuffler``, also ``T1``, a
section6 table whose card-reading shuffler is a simulated device over loopback TCP. The fixture
``rpit`` (tests/views/conftest.py) is this floor in the real window.
"""

from __future__ import annotations

import io
import json
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path

from app.cli.main import main as pitdesk
from app.engine.money import dollars
from app.engine.procedure import apply
from app.qt import QSettings, Qt
from app.simulate.demo import add_demo_users
from app.simulate.opening import DEMO_DEALER, DEMO_FLOOR, opening_events
from app.simulate.sim_device import SimDevice
from app.store.log import Record
from app.views.main_window import MainWindow
from app.workstation.config import DeviceSetup, TableSetup, WorkstationConfig
from app.workstation.workstation import Workstation
from tests.support.views import QUICK, WAIT_MS, Clock, open_window

PROFILES = ("section6", "nj", "face-up-ca", "casino", "sd", "section6-even")
PAYEE = {"name": "Pat Lee", "address": "1 Main Street, Reno NV", "tin": "123-45-6789", "id_type": "driver license",
         "id_number": "D1234567"}


@dataclass
class RoundPit:
    window: MainWindow
    ws: Workstation
    clock: Clock
    shuffler: object | None       # the served simulated shuffler of T1, or None


def floor_config(shuffler_url: str | None, slip_cents: int | None = None) -> WorkstationConfig:
    """A table per profile, closed in the log and with no devices; T1 (section6) with a shuffler;
    M1 (section6) with a shuffler whose frames the test hands the workstation itself."""
    tables = [TableSetup(p, p, (), 1, n + 1) for n, p in enumerate(PROFILES)]
    if shuffler_url is not None:
        tables.append(TableSetup("T1", "section6", (DeviceSetup("shuffler", "SHF-T1", shuffler_url),), 2, 1))
    tables.append(TableSetup("M1", "section6", (DeviceSetup("shuffler", "SHF-M1", "socket://127.0.0.1:9"),), 2, 2))
    return WorkstationConfig(tuple(tables), source="the rounds test floor", slip_cents=slip_cents)


def open_tables(ws: Workstation, tables: tuple[str, ...]) -> None:
    """``tables`` opened as the demo dealer and floor supervisor open them (000(e)), in one append."""
    records = []
    for t in tables:
        state, rules = ws.floor.state(t), ws.pit.rules[t]
        for event in opening_events(ws.clock, DEMO_DEALER, DEMO_FLOOR, ("red", "blue")):
            state = apply(state, event, rules)
            records.append(Record(event.type, event.time, event.actor, event.role, t, event.data))
    ws.log.append_many(records)


def make_round_pit(tmp_path, qtbot, monkeypatch, *, shuffler: bool = False, slip_cents: int | None = None,
                   sim: dict | None = None, size: tuple[int, int] = (1600, 1000)) -> RoundPit:
    """The rounds floor in the real window; ``shuffler``: T1's simulated shuffler served over TCP
    (``sim``: its SimDevice options instead of the quick, faultless ones)."""
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    clock = Clock()
    served = None
    if shuffler:
        options = {"faults": (), "seed": 7, "pace": 0.1, "fault_rate": 0.0} | (sim or {})
        served = SimDevice("shuffler", "SHF-T1", **options).serve_tcp("127.0.0.1", 0)
    try:
        ws = Workstation(floor_config(served.url if served else None, slip_cents), tmp_path / "audit.db", clock=clock,
                         policy=QUICK, install_serial="pitdesk-test", on_close=[served.stop] if served else [])
    except BaseException:
        if served:
            served.stop()
        raise
    try:
        add_demo_users(ws)
        open_tables(ws, ("M1",) + (("T1",) if shuffler else ()))
        ws.start()
    except BaseException:
        ws.close()
        raise
    window = open_window(qtbot, ws, QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat), "rounds", size)
    return RoundPit(window, ws, clock, served)


# -- helpers: a person at the window ------------------------------------------------------------
def sign_in(qtbot, w: MainWindow, who) -> None:
    d = w.sign_in()
    qtbot.keyClicks(d.name, who.name)
    qtbot.keyClicks(d.pin, who.pin)
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: w.session is not None and w.session.name == who.name, timeout=WAIT_MS)


def idle(qtbot, w: MainWindow) -> None:
    """Everything sent down the bridge has been answered (and the panel read back)."""
    qtbot.waitUntil(lambda: w.bridge.lane.pending == 0 and not w.round_panel._reading, timeout=WAIT_MS)


def activate(qtbot, w: MainWindow) -> None:
    """The window has the keyboard again (a dialog closed): its shortcuts work."""
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow, timeout=WAIT_MS)


def open_round_panel(qtbot, w: MainWindow, table: str) -> None:
    w.show_view(f"table:{table}")
    activate(qtbot, w)
    qtbot.keyClick(w, Qt.Key.Key_F10)
    assert w.table_page.tabs.currentWidget() is w.round_panel


def start_round(qtbot, w: MainWindow, table: str, who=None):
    """``who`` (if given) signs in; the table's round panel is opened and New round (Ctrl+N)
    pressed; the panel, once it shows the round's rows."""
    panel = w.round_panel
    if who is not None:
        sign_in(qtbot, w, who)
    open_round_panel(qtbot, w, table)
    qtbot.keyClick(w, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: panel.draft is not None and panel.table == table and bool(panel.rows), timeout=WAIT_MS)
    return panel


def typed(cards: str) -> str:
    """Cards as a person types them: lower case, ten as 10, the joker jk."""
    return cards.lower().replace("t", "10").replace("j10", "jk")


def type_field(qtbot, edit, text: str) -> None:
    edit.setFocus()
    edit.selectAll()
    if edit.text():
        qtbot.keyClick(edit, Qt.Key.Key_Delete)
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key.Key_Return)


def type_round(qtbot, w: MainWindow, table: str, obj: dict) -> None:
    """A round file typed into the round panel as a person types it: the banking chosen and its
    amounts typed in dollars, each position's cards in lower case, the sets, the wagers."""
    panel = start_round(qtbot, w, table)
    b = obj["banking"]
    bank = panel.bank
    if b["mode"] != "house":
        bank.mode.setCurrentIndex(bank.mode.findData(b["mode"]))
        bank.seat.setCurrentIndex(bank.seat.findData(b["seat"]))
        for k in ("chips", "last_wager", "dealer_wager", "wager", "dealer_prepaid_commission"):
            if k in b:
                bank.amounts[k].clear()
                qtbot.keyClicks(bank.amounts[k], dollars(b[k]))
        if "action_seat" in b:
            bank.action_seat.setCurrentIndex(bank.action_seat.findData(b["action_seat"]))
        qtbot.mouseClick(bank.set_bank, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: (panel.draft.banking.mode, panel.draft.banking.seat) == (b["mode"], b["seat"]),
                        timeout=WAIT_MS)
    hands = ([(0, obj["dealer"])] if "dealer" in obj else []) + [(s["seat"], s) for s in obj["seats"]]
    for pos, hand in hands:
        row = panel.rows[pos]
        type_field(qtbot, row.cards, typed(hand["cards"]))
        if "high" in hand:
            type_field(qtbot, row.high, typed(hand["high"]))
            type_field(qtbot, row.low, typed(hand["low"]))
        if pos == 0:
            continue
        if "player" in hand:
            type_field(qtbot, row.player, hand["player"])
        for k, v in hand.get("wagers", {}).items():
            type_field(qtbot, row.wagers[k], dollars(v))
        for k, v in hand.get("additional", {}).items():
            type_field(qtbot, row.wagers[f"additional {k}"], dollars(v))
        if hand.get("prepaid_commission"):
            type_field(qtbot, row.prepaid, dollars(hand["prepaid_commission"]))
        if hand.get("surrender"):
            row.surrender.setFocus()
            qtbot.keyClick(row.surrender, Qt.Key.Key_Space)
        if hand.get("bettors"):
            type_field(qtbot, row.bettors, ", ".join(f"{x['name']} {dollars(x['base'])}" for x in hand["bettors"]))
    if "progressive_meter" in obj:
        type_field(qtbot, panel.meter, dollars(obj["progressive_meter"]))
    if "rng_number" in obj:
        panel.rng.setCurrentIndex(panel.rng.findData(obj["rng_number"]))
    idle(qtbot, w)
    refused = {p: r.reasons for p, r in panel.rows.items() if r.reasons}
    assert not refused, refused
    assert not panel.message.isVisible(), panel.message.text()


def pitdesk_settle(path: Path) -> dict:
    """What ``pitdesk settle FILE`` prints: the engine's settlement of the file."""
    out = io.StringIO()
    with redirect_stdout(out):
        assert pitdesk(["settle", str(path)]) == 0
    return json.loads(out.getvalue())


def logged(ws, seq: int) -> dict:
    return json.loads(ws.log.query("SELECT body FROM events WHERE seq = ?", (seq,))[0]["body"])["data"]


def count(ws, where: str = "1", params: tuple = ()) -> int:
    return ws.log.query(f"SELECT count(*) AS n FROM events WHERE {where}", params)[0]["n"]


def settle_from_panel(qtbot, w: MainWindow):
    panel = w.round_panel
    idle(qtbot, w)
    assert w.actions_by_name["settle"].isEnabled(), panel.problems.text()
    before = panel.result
    activate(qtbot, w)
    qtbot.keyClick(panel.tabs, Qt.Key.Key_F11)
    qtbot.waitUntil(lambda: (panel.result is not None and panel.result is not before) or panel.message.isVisible(),
                    timeout=WAIT_MS)
    assert panel.result is not before, panel.message.text()
    return panel.result
