"""The window's record models: pytest-qt's model tester on each, and how live updates arrive
(row inserts, removals and one ranged dataChanged, a reset only when rows change places)."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest

from app.views import theme
from app.views.lists import WaitingProxy
from app.views.pit_models import (AlarmModel, ApprovalModel, DeckModel, HistoryModel, IrregularityModel, ShortcutModel,
                              UserModel)
from app.qt import QModelIndex, Qt
from app.views.records import LevelRole, RecordRole, SortRole
from app.workstation.clocks import DeckClock
from app.workstation.readouts import (AlarmInfo, ApprovalInfo, DeckInfo, HistoryPage, HistoryRow, IrregularityInfo,
                                      UserInfo)

T = datetime(2026, 11, 23, 21, 0, 0)


@pytest.fixture(autouse=True)
def _threads(no_threads_left):
    yield


def alarm(n: int, *, cleared=False, acknowledged=False, table="T1") -> AlarmInfo:
    return AlarmInfo(n, table, "deck_count_wrong", f"the shuffler counted 52 cards in deck 'red' ({n})",
                     "001 11.17(i); 000(b)(1)", "SHF-T1", T + timedelta(minutes=n),
                     T + timedelta(minutes=n, seconds=30) if cleared else None, "the link came back" if cleared else "",
                     T + timedelta(minutes=n + 1) if acknowledged else None, "fay" if acknowledged else None,
                     "floor supervisor" if acknowledged else None, "deck replaced" if acknowledged else None)


def approval(n: int, status="pending", cents=1_234_567) -> ApprovalInfo:
    return ApprovalInfo(n, "progressive_meter_payout", "T1", 3, cents, "pit manager", "natural royal and pair",
                        "000(q)(3)(iii)", T + timedelta(minutes=n), status,
                        "pam" if status != "pending" else None, "pit manager" if status != "pending" else None,
                        "checked the hand" if status != "pending" else None,
                        T + timedelta(minutes=n + 2) if status != "pending" else None)


def deck(name: str, level="ok", in_play=True, count=53) -> DeckInfo:
    due = T + timedelta(hours=4)
    clock = DeckClock(name, T, timedelta(hours=1), due, due - (T + timedelta(hours=1)), False, level, "000(e)(5)",
                      in_play, T if in_play else None)
    return DeckInfo(clock, name, count, not in_play)


def history(seqs) -> HistoryPage:
    return HistoryPage(tuple(HistoryRow(s, T + timedelta(seconds=s), "shuffle_completed", "SHF-T1", "device",
                                        {"deck": "red", "card_count": 53}) for s in seqs), None)


def user(name: str, locked_by=None, locked_until=None) -> UserInfo:
    return UserInfo(name, "dealer", T, 0 if locked_until is None else 5, locked_until, locked_by)


FILLED = [
    (AlarmModel, [alarm(3), alarm(2, cleared=True), alarm(1, acknowledged=True)]),
    (ApprovalModel, [approval(1), approval(2, "approved"), approval(3, "denied", None)]),
    (DeckModel, [deck("red"), deck("blue", "amber", in_play=False, count=None)]),
    (IrregularityModel, [IrregularityInfo(1, "deck_count_wrong", T, "the deck is removed", "001 11.17(i)", True, None),
                         IrregularityInfo(2, "card_face_up_in_shoe", T, "to the discard rack", "000(n)(6)", False,
                                          None)]),
    (UserModel, [user("ann"), user("bob", locked_by="admin"), user("cid", locked_until=T)]),
    (ShortcutModel, [("File", "Sign in", "F9", "sign in"), ("View", "Floor", "F2", "the floor")]),
]


@pytest.mark.parametrize("cls, rows", FILLED, ids=[c.__name__ for c, _ in FILLED])
def test_every_model_passes_the_model_tester_empty_filled_and_updated(qtmodeltester, cls, rows):
    model = cls()
    qtmodeltester.check(model)
    model.set_records(rows)
    qtmodeltester.check(model)
    model.set_records(rows[1:] + rows[:1])      # the same records in another order
    model.set_records(rows[:1])
    model.set_records([])
    qtmodeltester.check(model)


@pytest.mark.parametrize("cls, rows", FILLED[:2], ids=["alarms", "approvals"])
def test_the_waiting_proxy_passes_the_model_tester_and_hides_what_is_done(qtmodeltester, cls, rows):
    model = cls()
    waiting = (lambda a: a.open) if cls is AlarmModel else (lambda r: r.status == "pending")
    proxy = WaitingProxy(waiting)
    proxy.setSourceModel(model)
    model.set_records(rows)
    qtmodeltester.check(proxy)
    shown = [proxy.index(r, 0).data(RecordRole) for r in range(proxy.rowCount())]
    assert shown == [r for r in rows if waiting(r)]
    proxy.set_show_all(True)
    assert proxy.rowCount() == len(rows)
    proxy.sort(1, Qt.SortOrder.AscendingOrder)
    qtmodeltester.check(proxy)


def test_history_fetches_older_pages_as_row_inserts_at_the_bottom(qtmodeltester):
    asked = []

    def fetch(before, deliver):
        asked.append(before)
        deliver(HistoryPage(history(range(before - 1, max(before - 4, 0), -1)).rows, max(before - 3, 1)
                            if before > 4 else None))

    model = HistoryModel(fetch)
    model.set_page(HistoryPage(history([10, 9, 8]).rows, 8))
    assert model.canFetchMore()
    qtmodeltester.check(model)           # the tester fetches more, too
    seqs = [model.record(n).seq for n in range(model.rowCount())]
    assert seqs == sorted(seqs, reverse=True) and seqs[:3] == [10, 9, 8]
    assert asked and asked[0] == 8
    while model.canFetchMore():
        model.fetchMore(QModelIndex())
    got = [model.record(n).seq for n in range(model.rowCount())]
    assert got == list(range(10, 0, -1)), got
    # a new newest page that reaches what is shown keeps the older rows below it
    model.set_page(HistoryPage(history([12, 11, 10]).rows, 10))
    assert [model.record(n).seq for n in range(model.rowCount())] == list(range(12, 0, -1))
    # after a gap the older rows go, so that no row is missing between two shown
    model.set_page(HistoryPage(history([40, 39]).rows, 39))
    assert [model.record(n).seq for n in range(model.rowCount())] == [40, 39]
    assert model.canFetchMore()


def test_a_new_alarm_arrives_as_one_row_insert_on_top_and_a_change_as_one_ranged_data_change(qtbot):
    model = AlarmModel()
    model.set_records([alarm(2), alarm(1)])
    inserted, removed, changed, reset = [], [], [], []
    model.rowsInserted.connect(lambda parent, a, b: inserted.append((a, b)))
    model.rowsRemoved.connect(lambda parent, a, b: removed.append((a, b)))
    model.dataChanged.connect(lambda a, b, roles=(): changed.append((a.row(), b.row(), a.column(), b.column())))
    model.modelReset.connect(lambda: reset.append(True))

    model.set_records([alarm(3), alarm(2), alarm(1)])
    assert inserted == [(0, 0)] and not changed and not reset
    model.set_records([alarm(3), alarm(2, cleared=True), alarm(1, acknowledged=True)])
    assert changed == [(1, 2, 0, len(AlarmModel.columns) - 1)] and not reset
    model.set_records([alarm(3), alarm(1, acknowledged=True)])
    assert removed == [(1, 1)] and not reset
    model.set_records([alarm(1, acknowledged=True), alarm(3)])
    assert reset == [True]
    assert [model.record(n).id for n in range(2)] == [1, 3]


def test_words_stand_beside_every_colour(qapp):
    theme.apply(qapp)
    model = AlarmModel()
    model.set_records([alarm(3), alarm(2, cleared=True), alarm(1, acknowledged=True)])
    status = [(model.index(r, 0).data(), model.index(r, 0).data(LevelRole)) for r in range(3)]
    assert status == [("■ OPEN", "red"), ("▲ CLEARED BY ITSELF, NOT ACKNOWLEDGED", "amber"),
                      ("● ACKNOWLEDGED", "ok")]
    assert model.index(0, 0).data(Qt.ItemDataRole.ForegroundRole) == theme.COLOUR["red"]
    approvals = ApprovalModel()
    approvals.set_records([approval(1, cents=1_234_567)])
    amount = approvals.index(0, 4)
    assert amount.data() == "$12,345.67" and amount.data(SortRole) == 1_234_567
    assert amount.data(Qt.ItemDataRole.TextAlignmentRole) & int(Qt.AlignmentFlag.AlignRight)
    assert theme.clock_words("amber", timedelta(minutes=12), False) == "▲ DUE 0:12:00"
    assert theme.clock_words("red", timedelta(minutes=-3), True) == "■ OVERDUE +0:03:00"
    assert theme.link_words("progressive", "offline") == "■ PROGRESSIVE OFFLINE"
    assert theme.link_words("rng", "connecting") == "○ RNG CONNECTING"


def test_two_records_with_one_key_are_refused():
    with pytest.raises(ValueError, match="same key"):
        AlarmModel().set_records([alarm(1), alarm(1, cleared=True)])


def test_the_shortcuts_table_of_docs_views_md_is_the_windows_commands():
    from pathlib import Path

    from app.views.main_window import COMMANDS
    text = (Path(__file__).parents[2] / "docs" / "views.md").read_text()
    for c in COMMANDS:
        row = f"| {c.menu.replace('&', '')} | {c.text.replace('&', '').rstrip('…')} | {c.shortcut} | {c.what} |"
        assert row in text, f"docs/views.md lacks: {row}"


def test_the_qt_binding_keeps_its_references_to_none_and_true():
    """PySide6 6.12.0 on Python 3.11 takes a reference from None at every void call and from True
    at every emit, and the interpreter aborts ("none_dealloc") within minutes of a busy window;
    pyproject.toml pins 6.11.3, which does not. A process doing far more of both than None and
    True have references must end normally, having lost none."""
    import subprocess
    import sys
    code = ("import sys\n"
            "from app.qt import QObject, Signal\n"
            "class S(QObject):\n    said = Signal()\n"
            "s = S()\n"
            "n, t = sys.getrefcount(None), sys.getrefcount(True)\n"
            "for _ in range(300_000):\n    s.setObjectName('x')\n    s.said.emit()\n"
            "print(n - sys.getrefcount(None), t - sys.getrefcount(True))\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                       env={**__import__("os").environ, "QT_QPA_PLATFORM": "offscreen"})
    assert r.returncode == 0, r.stderr[-2000:]      # 6.12.0: "Fatal Python error: none_dealloc"
    lost_none, lost_true = (int(x) for x in r.stdout.split())
    assert abs(lost_none) < 100 and abs(lost_true) < 100, r.stdout


def test_an_alarms_message_keeps_a_line_of_words_and_a_bold_status_is_never_cut(themed, qtbot):
    """At a pit screen's width the alarms' Message (the stretch column: what the row is read for)
    keeps a line of 40 characters before the other columns are squeezed, and the bold Status keeps
    its longest word whole in the bold face it is drawn in (issue 33: the message was three words
    wide, each alarm nine lines tall, and "ACKNOWLEDGED" was cut to "ACKNOWLED…")."""
    from app.qt import QFontMetrics
    from app.views.widgets import STRETCH_CHARS, record_view

    model = AlarmModel()
    view = record_view(model, "alarms_list")
    qtbot.addWidget(view)
    view.resize(1340, 600)
    view.show()
    qtbot.waitExposed(view)
    long = ("the shoe is offline: nothing from the device for 10.0 s; next attempt in 0.5 s; deal another way "
            "only once the shoe is removed from the table")
    model.set_records([AlarmInfo(n, "T4", "shoe_offline", long, "000(n)(15)", "SHO-T4", T + timedelta(minutes=n),
                                 T + timedelta(minutes=n, seconds=2), "the shoe is back online",
                                 None, None, None, None) for n in range(3, 0, -1)])
    qtbot.waitUntil(lambda: bool(view.property("fitted")), timeout=5000)
    h = view.horizontalHeader()
    message = [c.title for c in AlarmModel.columns].index("Message")
    line = view.fontMetrics().horizontalAdvance("0" * STRETCH_CHARS)
    assert h.sectionSize(message) >= line, (h.sectionSize(message), line)
    bold = QFontMetrics(model.index(0, 0).data(Qt.ItemDataRole.FontRole))
    assert h.sectionSize(0) >= bold.horizontalAdvance("ACKNOWLEDGED"), (h.sectionSize(0),
                                                                       bold.horizontalAdvance("ACKNOWLEDGED"))
    # every column still shows in the list's width
    assert sum(h.sectionSize(n) for n in range(h.count()) if not h.isSectionHidden(n)) <= view.viewport().width() + 1
