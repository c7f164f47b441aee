"""The Players menu and the Ratings view pressed in the real window (issue 36): a floor supervisor
rates a player at M1 (Ctrl+Shift+N), opens the Ratings (Ctrl+Shift+A), moves the player (Ctrl+Shift+M),
sees the round they played counted, corrects the name with why (Ctrl+Alt+C), stands them up
(Ctrl+Shift+U) and exports the shift's ratings as CSV (Ctrl+Alt+E); each step as the workstation
has it, and a command that cannot act says why."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from app.qt import QFileDialog, Qt
from app.views.rating_dialogs import CorrectDialog, MoveDialog, RateDialog, StandUpDialog
from tests.support.round_panel import activate, idle, sign_in
from tests.support.views import FLOOR, WAIT_MS, gone
from tests.views.test_gui_commands import disabled_saying, in_documents, press

ROUND = Path(__file__).resolve().parents[2] / "docs" / "rounds" / "section6-house.json"


def opened(qtbot, w, name, cls):
    press(qtbot, w, name)
    qtbot.waitUntil(lambda: isinstance(w.dialog, cls) and w.dialog.isVisible(), timeout=WAIT_MS)
    return w.dialog


def enter(qtbot, w, d):
    """OK pressed as a person presses it: the dialog closes once the workstation took it."""
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
    idle(qtbot, w)
    activate(qtbot, w)


def listed(qtbot, w, test, scope=None):
    page = w.ratings_page
    if scope is not None:
        page.choose(scope=scope)
    page.again()
    qtbot.waitUntil(lambda: page.listing is not None and not page.reading and test(page.listing), timeout=WAIT_MS)
    return page.listing


@pytest.mark.commands("ratings", "rate_player", "move_player", "stand_up", "correct_rating", "export_ratings")
def test_a_player_rated_moved_corrected_stood_up_and_exported(rpit, qtbot, tmp_path):
    w, ws = rpit.window, rpit.ws
    assert disabled_saying(w, "rate_player", "Sign in (F9) first")
    sign_in(qtbot, w, FLOOR)
    w.show_view("table:M1")

    d = opened(qtbot, w, "rate_player", RateDialog)
    assert d.tables.currentText() == "M1"                     # the table shown
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)        # no card yet: said, nothing sent
    assert "card" in d.error.text() and d.isVisible()
    d.seat.setCurrentIndex(d.seat.findData(2))
    qtbot.keyClicks(d.card, "PC-104217")
    qtbot.keyClicks(d.name, "Ann Lee")
    enter(qtbot, w, d)
    (r,) = ws.ratings.open_ratings("M1")
    assert (r.card, r.name, r.seat) == ("PC-104217", "Ann Lee", 2) and 2 in ws.state_of("M1")[0].seated
    rpit.clock.advance(minutes=2)

    press(qtbot, w, "ratings")
    assert w.view == "ratings"
    listed(qtbot, w, lambda x: len(x["sittings"]) == 1)
    page = w.ratings_page
    assert page.sittings.rowCount() == 1 and page.sittings.index(0, 1).data() == "PC-104217"
    # nothing chosen: the commands on a sitting say why
    assert disabled_saying(w, "move_player", "Choose a sitting in the Ratings view")
    page.sittings_view.selectRow(0)
    qtbot.waitUntil(lambda: w.actions_by_name["move_player"].isEnabled(), timeout=WAIT_MS)

    d = opened(qtbot, w, "move_player", MoveDialog)
    d.seat.setCurrentIndex(d.seat.findData(1))
    enter(qtbot, w, d)
    assert ws.ratings.open_ratings()[0].seat == 1
    rpit.clock.advance(minutes=2)

    # a round at M1 (its progressive wagers left out: M1 has no controller)
    round_ = json.loads(ROUND.read_text())
    round_.pop("progressive_meter", None)
    for s in round_["seats"]:
        s["wagers"].pop("progressive", None)
    done = []
    w.bridge.act(lambda ws_: (ws_.rounds.load("M1", round_), ws_.rounds.settle("M1"))[1], done.append)
    qtbot.waitUntil(lambda: bool(done), timeout=WAIT_MS)
    rpit.clock.advance(minutes=2)
    listing = listed(qtbot, w, lambda x: x["sittings"][0]["rounds"] == 1)
    (seat1,) = [s for s in round_["seats"] if s["seat"] == 1]
    stakes = sum(seat1["wagers"].values()) + sum(seat1.get("additional", {}).values())
    assert listing["sittings"][0]["wagered"] == stakes == 3000        # $20 base, $5 Fortune, $5 additional
    page.sittings_view.selectRow(0)
    qtbot.waitUntil(lambda: w.actions_by_name["correct_rating"].isEnabled(), timeout=WAIT_MS)

    d = opened(qtbot, w, "correct_rating", CorrectDialog)
    d.field.setCurrentIndex(d.field.findData("name"))
    assert d.value.text() == "Ann Lee"
    d.value.clear()
    qtbot.keyClicks(d.value, "Ann B. Lee")
    qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)        # no reason: said, nothing sent
    assert "Say why" in d.error.text()
    qtbot.keyClicks(d.why, "spelled as on the card")
    enter(qtbot, w, d)
    listing = listed(qtbot, w, lambda x: x["sittings"][0]["name"] == "Ann B. Lee")
    assert listing["sittings"][0]["corrections"][0]["why"] == "spelled as on the card"

    page.sittings_view.selectRow(0)
    qtbot.waitUntil(lambda: w.actions_by_name["stand_up"].isEnabled(), timeout=WAIT_MS)
    d = opened(qtbot, w, "stand_up", StandUpDialog)
    enter(qtbot, w, d)
    assert not ws.ratings.open_ratings() and 1 not in ws.state_of("M1")[0].seated
    listed(qtbot, w, lambda x: not x["sittings"])                       # seated now: nobody
    listing = listed(qtbot, w, lambda x: len(x["sittings"]) == 1, scope="shift")
    assert listing["sittings"][0]["ended"] is not None

    press(qtbot, w, "export_ratings")
    d = page.findChild(QFileDialog, "export_ratings_dialog")
    assert d is not None and d.isVisible() and in_documents(d)          # never the source tree
    out = tmp_path / "ratings.csv"
    d.selectFile(str(out))
    d.accept()
    qtbot.waitUntil(lambda: getattr(page, "exported", None) == (str(out), 1), timeout=WAIT_MS)
    (row,) = list(csv.DictReader(out.open()))
    assert (row["player"], row["name"], row["rounds"], row["wagered"]) == ("PC-104217", "Ann B. Lee", "1", str(stakes))
