"""The live floor's pump redraws only what changed (issue 33, finding 1): a pump in which one
table's devices spoke reads and redraws that table's tile, not every tile of the floor; the
tiles' clocks are read again, every tile, once a second. In the real window over the real
workstation and simulated devices (tests/support/views.py); the workstation's clock stands still
unless the test moves it, so the once-a-second read comes only when the test says."""

from app.workstation.desks.rounds import Rounds
from app.views.tile import TileWidget
from tests.support.views import WAIT_MS, wait_online


def test_a_pump_reads_and_redraws_only_the_tiles_of_the_tables_that_changed(pit, qtbot, monkeypatch):
    w, ws = pit.window, pit.ws
    wait_online(qtbot, pit, "T1", ("shuffler", "progressive"))
    # T1's devices keep speaking (a shuffle, hands, the meter); T7 has none and nobody touches it
    updates, shown, waits_of = [], [], []
    show_tile, waiting = TileWidget.show_tile, Rounds.waiting
    monkeypatch.setattr(TileWidget, "show_tile", lambda self, t: shown.append(t.table) or show_tile(self, t))
    monkeypatch.setattr(Rounds, "waiting",
                        lambda self, tables=None: waits_of.append(None if tables is None else set(tables))
                        or (waiting(self) if tables is None else waiting(self, tables)))
    w.bridge.changed.connect(updates.append)
    qtbot.waitUntil(lambda: len([u for u in updates if u.tiles]) >= 5, timeout=WAIT_MS)
    with_tiles = [u for u in updates if u.tiles]
    assert all({t.table for t in u.tiles} == {"T1"} for u in with_tiles), [
        [t.table for t in u.tiles] for u in with_tiles]
    assert set(shown) == {"T1"}
    # the rounds being entered were looked at for T1 alone (a misread waiting for a person)
    assert waits_of and all(x == {"T1"} for x in waits_of)
    # the floor keeps every table: T7's tile stays as it was first read
    assert set(w.tiles) == {"T1", "T7"} and w.floor.tiles["T7"].tile == w.tiles["T7"]

    # a second later every tile is read again, for its clocks
    updates.clear()
    pit.clock.advance(seconds=1)
    qtbot.waitUntil(lambda: any(u.tiles and {t.table for t in u.tiles} == {"T1", "T7"} for u in updates),
                    timeout=WAIT_MS)
