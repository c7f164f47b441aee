"""A deck or the dice LATE on the shift report by the one rule the tiles' clocks use (issue 33,
finding 3a): the engine's ``overdue`` (app/engine/deadlines.py), asked at the moment the report
speaks for. Decks received at 11:59 and due at 15:59 (000(e)(5): four hours from the hand), in an
interim report of the day shift (08:00-16:00) made at 12:10, are on time, as the floor shows
them green; a deck received at 07:00, due at 11:00 and still at the table at 12:10 is LATE, and
so is one changed at 11:30. Real audit logs, written through the workstation's desks."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from app.workstation.clocks import OK, RED
from app.workstation.shift_figures import as_json
from tests.support.workstation import DEALER, FLOOR, open_by_hand, open_ws

FLOOR_TOML = "".join(f'[[tables]]\nid = "{t}"\nprofile = "section6"\n' for t in ("T3", "T7", "T9"))
DAY = date(2026, 11, 21)


class Clock:
    def __init__(self, t: datetime):
        self.t = t

    def __call__(self) -> datetime:
        return self.t


def _deck(report, table: str, deck: str) -> dict:
    return next(d for d in report.section(table).decks if d["deck"] == deck)


def test_a_deck_due_at_1559_is_not_late_in_a_report_made_at_1210_and_an_overdue_one_is(tmp_path, monkeypatch):
    clock = Clock(datetime(2026, 11, 21, 7, 0))
    ws = open_ws(tmp_path, monkeypatch, clock, FLOOR_TOML)
    try:
        open_by_hand(ws, "T9", ("green",))              # 07:00, due 11:00, never changed
        open_by_hand(ws, "T7", ("gold",))               # 07:00, due 11:00, changed at 11:30
        clock.t = datetime(2026, 11, 21, 11, 30)
        ws.people.sign_in(*FLOOR)
        ws.decisions.record("T7", "deck_removed", {"deck": "gold"})
        clock.t = datetime(2026, 11, 21, 11, 59)
        open_by_hand(ws, "T3", ("red", "blue"))         # 11:59, due 15:59
        ws.people.sign_in(*DEALER)
        ws.decisions.record("T7", "deck_received", {"deck": "red"})
        clock.t = datetime(2026, 11, 21, 12, 10)

        report = ws.reads.shift_report(DAY, "day")
        assert report.interim and report.made == clock.t
        tiles = {t.table: t for t in ws.reads.tiles(clock.t)}
        for table, deck in (("T3", "red"), ("T3", "blue"), ("T7", "red")):
            d = _deck(report, table, deck)
            assert d["received"].startswith("2026-11-21T11:59") and d["due"].startswith("2026-11-21T15:59")
            assert d["changed"] is None and d["late"] is False, d
            shown = next(c for c in tiles[table].decks if c.deck == deck)
            assert shown.level == OK and not shown.overdue          # the floor's green "OK"
        late = _deck(report, "T9", "green")
        assert late["due"].startswith("2026-11-21T11:00") and late["late"] is True
        assert next(c for c in tiles["T9"].decks if c.deck == "green").level == RED
        changed = _deck(report, "T7", "gold")
        assert changed["changed"].startswith("2026-11-21T11:30") and changed["late"] is True
        assert report.section("T3").late == 0 and report.section("T7").late == 1
        assert as_json(report)["pit"]["late_changes"] == 2       # T9's green and T7's gold, nothing else

        # at the shift's end the decks due at 15:59 and still at their tables are late (16:00 > 15:59)
        clock.t = datetime(2026, 11, 21, 16, 0) + timedelta(minutes=5)
        final = ws.reads.shift_report(DAY, "day")
        assert not final.interim
        assert all(_deck(final, t, d)["late"] for t, d in (("T3", "red"), ("T3", "blue"), ("T7", "red")))
    finally:
        ws.close()
