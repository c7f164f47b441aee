"""The live pit plays as one story (issue 25), in the real window: a round is being typed into the
round panel while T1's card-reading shuffler (a simulated device over loopback TCP, driven: it says
only what the test makes it say, as a dealer's button would) deals and reads hands.

- A deal read while a round is being typed never touches it: the round's cards, set and wagers
  stay as typed, the new deal waits (the panel says so once) and comes up when that round is
  settled (000(b)(2)(iii), (v)).
- Where the shuffler's reading disagrees with the cards typed, the position shows both; "Use
  reading" and "Keep typed" ask why and log ``reading_chosen``, by mouse and by keyboard.
- The panel's messages have one fixed place and height: the commands and the positions do not move
  when a long list of what blocks Settle comes or goes.
"""

from __future__ import annotations

import json
from pathlib import Path

import shiboken6

from app.engine.cards import cards_str, full_deck
from app.qt import QApplication, QPoint, Qt
from app.views.round.round_dialogs import ChooseReadingDialog
from tests.support.round_panel import (activate, count, idle, make_round_pit, settle_from_panel, sign_in, start_round,
                                       type_field, type_round, typed)
from tests.support.views import DEALER, WAIT_MS, close_window, gone

ROOT = Path(__file__).resolve().parents[2]
DRIVEN = {"driven": True}
# round 1 as the dealer deals it (docs/rounds/section6-house.json)
DEALT_1 = {0: "Kc Qh Jd Tc 8c 6d 3c".split(), 1: "As Ks Qs Js Ts 9h 9d".split(), 2: "7s 7d 7h 7c 2s 2d Kh".split()}
# round 2: seven hands of seven from another deck, dealt while round 1 is still being typed
DECK = cards_str(full_deck())
DEALT_2 = {p: DECK[p * 7:p * 7 + 7] for p in range(7)}
# round 1's procedures as the table plays them, and the start of round 2 (000(g): it begins at No more bets)
PLAY = [("shuffle_started", {}), ("shuffle_completed", {"deck": "red", "manual": False, "card_count": 53}),
        ("player_seated", {"seat": 1}), ("no_more_bets", {"method": "automated-shoe", "wagers": [1]}),
        ("position_determined", {"method": "rng", "value": 3, "position": 2}), ("dealt", {"remaining": 4}),
        ("hands_set", {}), ("revealed", {}), ("settled", {}), ("shuffle_started", {}),
        ("shuffle_completed", {"deck": "blue", "manual": False, "card_count": 53}),
        ("no_more_bets", {"method": "automated-shoe", "wagers": [1]})]


def say_deal(p, hands: dict[int, list[str]], deck: str) -> None:
    """The shuffler dispenses seven hands and reads each, over its socket."""
    p.shuffler.say("hands_dispensed", deck=deck, hands=7, cards_per_hand=7)
    for position in range(7):
        p.shuffler.say("hand_read", deck=deck, position=position, cards=list(hands[position]))


def typed_view(panel, positions) -> dict:
    """What the panel shows of the positions a person typed."""
    out = {}
    for pos in positions:
        r = panel.rows[pos]
        out[pos] = (r.cards.text(), r.high.text() if r.high else None, r.low.text() if r.low else None,
                    r.wagers["base"].text() if r.wagers else None, r.info.source)
    return out


def typed_draft(ws, table: str):
    """What the workstation holds of what was typed (the procedures' offers of the bank move on with
    the table's play; who banks and the amounts are the round's)."""
    d = ws.rounds.draft(table)
    b = d.banking
    return d.round, [(p.cards, p.source, p.entered) for p in d.positions], d.seats, (b.mode, b.seat, b.amounts)


def test_a_deal_read_while_a_round_is_typed_waits_and_comes_up_once_the_round_is_settled(
        themed, tmp_path, qtbot, monkeypatch, no_threads_left):
    p = make_round_pit(tmp_path, qtbot, monkeypatch, shuffler=True, sim=DRIVEN)
    try:
        w, ws = p.window, p.ws
        panel = start_round(qtbot, w, "T1", DEALER)
        assert panel.draft.round == 1
        # round 1 being typed: the dealer's cards, seat 1's cards with the house way and a wager, and
        # seat 2's first three cards (the rest still to come)
        type_field(qtbot, panel.rows[0].cards, "kc qh jd 10c 8c 6d 3c")
        type_field(qtbot, panel.rows[1].cards, "as ks qs js 10s 9h 9d")
        type_field(qtbot, panel.rows[1].wagers["base"], "20")
        idle(qtbot, w)
        qtbot.mouseClick(panel.rows[1].house, Qt.MouseButton.LeftButton)
        type_field(qtbot, panel.rows[2].cards, "7s 7d 7h")
        idle(qtbot, w)
        assert panel.rows[1].high.text() and panel.rows[1].status.text().startswith("● PLAYS")
        shown, held = typed_view(panel, (0, 1, 2)), typed_draft(ws, "T1")
        assert not panel.waiting.isVisible()

        # the table plays on: round 1 done in the procedures, round 2's wagers closed
        for type_, data in PLAY:
            w.bridge.act(lambda ws, t=type_, d=data: ws.decisions.record("T1", t, d))
        idle(qtbot, w)
        assert ws.reads.tile("T1").round_now == 2
        # the shuffler deals round 2 and reads its seven hands
        say_deal(p, DEALT_2, "blue")
        qtbot.waitUntil(panel.waiting.isVisible, timeout=WAIT_MS)
        idle(qtbot, w)
        assert panel.waiting.text() == (
            "▲ A NEW DEAL WAITS: the shuffler SHF-T1 dealt the hands of deck blue for round 2: they wait until "
            "round 1 is settled or discarded, and are not put over it (000(b)(2)(iii), (v))")
        assert panel.waiting.property("level") == "amber"
        # said once: one line of the panel's messages, nowhere else in the panel
        assert sum("DEAL WAITS" in t for t in panel.messages.texts()) == 1
        assert "DEAL WAITS" not in panel.badge.text() and panel.badge.text().startswith("● ROUND 1")
        # round 1 untouched: what the panel shows and what the workstation holds
        assert typed_view(panel, (0, 1, 2)) == shown
        assert typed_draft(ws, "T1") == held
        assert all(r.info.source != "shuffler" for r in panel.rows.values())
        qtbot.waitUntil(lambda: count(ws, "type = 'alarm_raised' AND json_extract(body, '$.data.kind') = "
                                          "'deal_before_settlement'") == 1, timeout=WAIT_MS)

        # round 1 settled as typed; then round 2 comes up with the shuffler's hands
        r = settle_from_panel(qtbot, w)
        assert r.round == 1 and r.round_file["dealer"]["cards"] == " ".join(DEALT_1[0])
        assert [s["cards"] for s in r.round_file["seats"]] == [" ".join(DEALT_1[1])]

        def dealt():
            d = panel.draft
            return d is not None and d.round == 2 and all(
                r.info is not None and r.info.source == "shuffler" and list(r.info.cards) == DEALT_2[pos]
                for pos, r in panel.rows.items())
        qtbot.waitUntil(dealt, timeout=WAIT_MS)
        idle(qtbot, w)
        assert not panel.waiting.isVisible() and not any("DEAL WAITS" in t for t in panel.messages.texts())
        panel.tabs.setCurrentWidget(panel.entry)
        for pos, row in panel.rows.items():
            assert row.cards.isReadOnly() and row.cards.text() == " ".join(DEALT_2[pos])
        # the deal has no wager yet: being entered, and not ready to settle (issue 27, 5)
        assert panel.badge.text() == "○ ROUND 2: BEING ENTERED · NO SEAT IN THE ROUND YET"
        # nothing more was logged of the waiting
        assert count(ws, "type = 'alarm_raised' AND json_extract(body, '$.data.kind') = 'deal_before_settlement'") == 1
    finally:
        close_window(p.window, p.ws)


def chosen_rows(ws) -> list[dict]:
    return [{"actor": r["actor"], **json.loads(r["body"])["data"]} for r in ws.log.query(
        "SELECT actor, body FROM events WHERE type = 'reading_chosen' ORDER BY seq")]


def test_use_reading_and_keep_typed_ask_why_log_the_choice_and_show_the_cards_chosen(
        themed, tmp_path, qtbot, monkeypatch, no_threads_left):
    p = make_round_pit(tmp_path, qtbot, monkeypatch, shuffler=True, sim=DRIVEN)
    try:
        w, ws = p.window, p.ws
        panel = start_round(qtbot, w, "T1", DEALER)
        wrong_1, wrong_2 = "2c 3c 4c 5c 6c 8c 9c", "2h 3h 4h 5h 6h 8h 9h"
        type_field(qtbot, panel.rows[1].cards, wrong_1)
        type_field(qtbot, panel.rows[2].cards, wrong_2)
        type_field(qtbot, panel.rows[3].cards, typed(" ".join(DEALT_2[3])))
        idle(qtbot, w)
        # the shuffler deals round 1 and reads it: where it disagrees with what was typed, both are shown
        deal = {pos: DEALT_2[pos] for pos in range(7)}
        say_deal(p, deal, "red")
        qtbot.waitUntil(lambda: panel.rows[1].reading_line.isVisible() and panel.rows[2].reading_line.isVisible(),
                        timeout=WAIT_MS)
        idle(qtbot, w)
        row1, row2, row3 = panel.rows[1], panel.rows[2], panel.rows[3]
        assert row1.cards.text() == wrong_1 and not row1.cards.isReadOnly()
        assert row1.reading.text() == f"▲ READ: {' '.join(DEALT_2[1])}   by SHF-T1, not as typed"
        assert row1.reading.property("level") == "amber" and row1.cards.property("disputed")
        assert row2.cards.text() == wrong_2 and row2.reading.text().startswith(f"▲ READ: {' '.join(DEALT_2[2])} ")
        assert not row3.reading_line.isVisible() and row3.info.source == "typed"     # it agrees: nothing beside it
        assert panel.rows[0].info.source == "shuffler"                               # nothing typed there
        assert "choose one, saying why" in panel.problems.text()
        assert not w.actions_by_name["settle"].isEnabled()

        # Use reading, by mouse: an empty reason is refused in the dialog, nothing logged
        qtbot.mouseClick(row1.use_reading, Qt.MouseButton.LeftButton)
        d = panel.dialog
        assert isinstance(d, ChooseReadingDialog) and d.ok.text() == "Use reading"
        assert d.reason.hasFocus() or d.focusWidget() is d.reason
        qtbot.keyClicks(d.reason, "   ")
        qtbot.mouseClick(d.ok, Qt.MouseButton.LeftButton)
        assert d.error.isVisible() and d.error.text() == ("Say why: choosing between the typed cards and the "
                                                          "shuffler's reading records its reason.")
        assert chosen_rows(ws) == []
        d.reason.clear()
        qtbot.keyClicks(d.reason, "the player's cards checked face up: the reader is right")
        qtbot.keyClick(d.reason, Qt.Key.Key_Return)          # Enter accepts
        qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
        qtbot.waitUntil(lambda: not row1.reading_line.isVisible(), timeout=WAIT_MS)
        idle(qtbot, w)
        (first,) = chosen_rows(ws)
        assert first == {"actor": DEALER.name, "position": 1, "use": "reading", "cards": DEALT_2[1],
                         "set_aside": wrong_1.split(), "deal": first["deal"], "serial": "SHF-T1", "round": 1,
                         "reason": "the player's cards checked face up: the reader is right"}
        assert row1.cards.text() == " ".join(DEALT_2[1]) and row1.cards.isReadOnly()
        assert not row1.cards.property("disputed")
        assert row1.source.text().startswith("READ BY THE SHUFFLER SHF-T1") and "corrected by demo-dealer" in \
            row1.source.text()
        assert "Seat 1: the shuffler's reading plays" in panel.message.text()

        # Keep typed, by keyboard: Tab from the cards to the choice; Esc cancels; Enter presses and accepts
        activate(qtbot, w)
        row2.cards.setFocus()
        qtbot.keyClick(row2.cards, Qt.Key.Key_Tab)
        assert row2.use_reading.hasFocus(), QApplication.focusWidget()
        qtbot.keyClick(row2.use_reading, Qt.Key.Key_Tab)
        assert row2.keep_typed.hasFocus()
        qtbot.keyClick(row2.keep_typed, Qt.Key.Key_Return)
        d = panel.dialog
        assert isinstance(d, ChooseReadingDialog) and d.ok.text() == "Keep typed"
        qtbot.keyClick(d.reason, Qt.Key.Key_Escape)           # Esc: nothing chosen, nothing logged
        qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
        assert len(chosen_rows(ws)) == 1 and row2.reading_line.isVisible()
        row2.keep_typed.setFocus()
        qtbot.keyClick(row2.keep_typed, Qt.Key.Key_Return)
        d = panel.dialog
        assert isinstance(d, ChooseReadingDialog) and shiboken6.isValid(d)
        qtbot.keyClicks(d.reason, "seat 2's cards counted by hand: typed as dealt")
        qtbot.keyClick(d.reason, Qt.Key.Key_Return)
        qtbot.waitUntil(lambda: gone(d), timeout=WAIT_MS)
        qtbot.waitUntil(lambda: not row2.reading_line.isVisible(), timeout=WAIT_MS)
        idle(qtbot, w)
        second = chosen_rows(ws)[1]
        assert (second["position"], second["use"], second["cards"], second["set_aside"], second["reason"]) == \
            (2, "typed", wrong_2.split(), DEALT_2[2], "seat 2's cards counted by hand: typed as dealt")
        assert row2.cards.text() == wrong_2 and not row2.cards.isReadOnly() and row2.info.source == "typed"
        assert not row2.cards.property("disputed")
        assert "choose one" not in panel.problems.text()
    finally:
        close_window(p.window, p.ws)


def test_the_panels_messages_have_a_fixed_place_the_commands_and_positions_never_move(rpit, qtbot):
    w, ws = rpit.window, rpit.ws
    panel = w.round_panel
    sign_in(qtbot, w, DEALER)
    type_round(qtbot, w, "section6", json.loads((ROOT / "docs" / "rounds" / "section6-house.json").read_text()))
    idle(qtbot, w)

    def where() -> tuple[int, int, int, int]:
        panel.scroll.verticalScrollBar().setValue(0)
        at = lambda x: x.mapTo(panel, QPoint(0, 0)).y()     # noqa: E731
        return at(panel.buttons["settle"]), at(panel.rows[0]), at(panel.tabs), panel.messages.height()

    # nothing to say: the area says so, dimly, in its place
    assert panel.draft.problems == () and panel.messages.texts() == [] and panel.messages.quiet.isVisible()
    quiet = where()
    # a long list of what blocks Settle, and a refusal in the message line
    for seat in (3, 4, 5, 6):
        type_field(qtbot, panel.rows[seat].wagers["base"], "10")
    idle(qtbot, w)
    panel.settle()
    qtbot.waitUntil(panel.message.isVisible, timeout=WAIT_MS)
    idle(qtbot, w)
    problems = panel.draft.problems
    assert [f"seat {s}: no cards" for s in (3, 4, 5, 6)] == list(problems)
    assert panel.badge.text() == "■ ROUND 1: SETTLE BLOCKED" and "cannot be settled yet" in panel.message.text()
    assert not panel.messages.quiet.isVisible()
    assert where() == quiet
    # more lines than the area holds: it scrolls inside itself, and its tooltip holds every one
    assert panel.messages.verticalScrollBar().maximum() > 0
    assert all(p in panel.messages.toolTip() for p in problems) and panel.message.text() in panel.messages.toolTip()
    # gone again: still nothing moves
    for seat in (3, 4, 5, 6):
        type_field(qtbot, panel.rows[seat].wagers["base"], "")
    idle(qtbot, w)
    assert panel.draft.problems == () and not panel.message.isVisible() and panel.messages.quiet.isVisible()
    assert where() == quiet


def test_a_card_at_three_positions_is_one_line_in_the_panel_naming_all_three(rpit, qtbot):
    from tests.views.test_gui_rounds import deal
    w, ws = rpit.window, rpit.ws
    panel = w.round_panel
    sign_in(qtbot, w, DEALER)
    start_round(qtbot, w, "M1")
    # the shuffler reads the Kc for the dealer, seat 2 and seat 5 (000(b)(1): one deck, each card once)
    deal(ws, "SHF-M1", {0: "Kc Qh Jd Tc 8c 6d 3c".split(), 2: "Kc 7d 7h 7c 2s 2d Kh".split(),
                        5: "Kc As Ad Ah 5s 5d 5h".split()})
    qtbot.waitUntil(lambda: panel.draft is not None and "Kc is at" in panel.problems.text(), timeout=WAIT_MS)
    idle(qtbot, w)
    lines = panel.problems.text().split("\n")
    assert [x for x in lines if "Kc" in x] == [
        "■ Kc is at dealer, seat 2 and seat 5 (000(b)(1): one deck, each card once): the shuffler SHF-M1 misread the "
        "hand: correct the misread card"]
    # the rows say nothing more of it: the card is one problem, said once
    assert not any("000(b)(1)" in r.status.text() + r.reason.text() for r in panel.rows.values())
    assert sum("Kc is at" in t for t in panel.messages.texts()) == 1
    assert panel.badge.text() == "■ ROUND 1: SETTLE BLOCKED" and not w.actions_by_name["settle"].isEnabled()
