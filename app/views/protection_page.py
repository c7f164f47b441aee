"""The protection view (issue 36, docs/protection.md): where to look, from the exact odds.

Over this shift, the last shift, today or yesterday: every check ``pitdesk protect`` makes (each
table's wager types per shift in sigmas, the top awards against their Poisson count, each rated
player's wagers the house banks, each table's win-to-drop against its 95% band), the notices first
and marked "▲ WHERE TO LOOK" in amber with the word, never as an accusation. The figures are the
workstation's (``Reads.protection``), read on the logs' lane when the view is shown, when the
period changes and, while shown, after a round was settled, at most once every ``REFRESH_MS``.
"""

from __future__ import annotations

from . import theme
from app.workstation.hold import LABELS

from .hold_view import period_of
from .records import Column, RecordModel
from app.qt import QComboBox, QHBoxLayout, QTimer, QVBoxLayout, QWidget
from .theme import AMBER, LEVEL_MARK, NONE, RED, money
from .widgets import label, record_view

REFRESH_MS = 5000
PERIODS = (("shift", "This shift"), ("last_shift", "Last shift"), ("today", "Today"), ("yesterday", "Yesterday"))
SCOPE_WORDS = {"table": "table, in sigmas", "top_awards": "top awards", "player": "rated player",
               "win_to_drop": "win-to-drop"}


def who(r: dict) -> str:
    if r["scope"] == "player":
        return f"{r['player']}" + (f" ({r['name']})" if r.get("name") else "")
    return r["table"]


def figure(r: dict) -> str:
    """What was found, in words and money."""
    if r["scope"] == "top_awards":
        return f"{r['hits']} hit(s) in {r['wagers']:,} wagers, {r['expected']:.3f} expected"
    if r["scope"] == "win_to_drop":
        lo, hi = r["band_95"]
        return f"{r['win_to_drop']:.1%} of {money(r['drop'])}; band {lo:.1%} to {hi:.1%}"
    return f"house net {money(r['actual'])}, expected {money(r['expected'])}, sigma {money(r['sigma'])}"


def measure(r: dict) -> str:
    if r["scope"] == "top_awards":
        return f"p = {r['tail']:.2g}"
    return "—" if r.get("z") is None else f"z {r['z']:+.2f}"


class ProtectionModel(RecordModel):
    columns = (
        Column("", lambda r: f"{LEVEL_MARK[AMBER]} WHERE TO LOOK" if r["notice"] else f"{LEVEL_MARK[NONE]} in line",
               sort=lambda r: 0 if r["notice"] else 1, level=lambda r: AMBER if r["notice"] else NONE, bold=True),
        Column("Check", lambda r: SCOPE_WORDS[r["scope"]]),
        Column("Table or player", who, bold=True),
        Column("Shift", lambda r: r.get("shift", "the period")),
        Column("Wager", lambda r: LABELS.get(r["wager"], r["wager"]) if "wager" in r else "all"),
        Column("Measure", measure, sort=lambda r: -abs(r["z"]) if r.get("z") is not None else 0, numeric=True,
               bold=True),
        Column("Found", figure, stretch=True),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda r: (r["scope"], r.get("table"), r.get("player"), r.get("shift"), r.get("wager")),
                         parent=parent)


def rows_of(data: dict) -> list[dict]:
    """Every check, the notices first, each kind in its order."""
    rows = data["checks"] + data["top_awards"] + data["players"] + data["win_to_drop"]
    return sorted(rows, key=lambda r: not r["notice"])


class ProtectionPage(QWidget):
    def __init__(self, bridge, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("protection")
        self.bridge = bridge
        self.data: dict | None = None
        self.stale = True
        self.reading = False
        self.reads = 0
        self.timer = QTimer(self)
        self.timer.setObjectName("protection refresh")
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.refresh)
        self.title = label("Game protection", 1.8, True, "title")
        self.kind = QComboBox()
        self.kind.setObjectName("period")
        self.kind.setFont(theme.font(1.1))
        for key, text in PERIODS:
            self.kind.addItem(text, key)
        self.kind.currentIndexChanged.connect(self._changed)
        self.words = label("", 1.2, True, "words", wrap=True)
        self.status = label("", 1.1, False, "status")
        top = QHBoxLayout()
        top.addWidget(self.title)
        top.addSpacing(16)
        top.addWidget(self.kind)
        top.addWidget(self.words, 1)
        top.addWidget(self.status)
        self.note = label("A notice says where to look, not who did what: about 1 check in 370 of a calm pit reaches "
                          "|z| 3 by chance (docs/protection.md).", 1.0, False, "note", wrap=True)
        theme.set_dim(self.note)
        self.model = ProtectionModel(self)
        self.view = record_view(self.model, "protection_checks")
        self.view.setFont(theme.font(1.1))
        self.model.set_font_scale(1.1)
        box = QVBoxLayout(self)
        box.setContentsMargins(12, 8, 12, 8)
        box.addLayout(top)
        box.addWidget(self.note)
        box.addWidget(self.view, 1)

    def activate(self, on: bool) -> None:
        if on and not self.timer.isActive():
            self.stale = True
            self.timer.start()
            self.refresh()
            self.view.setFocus()
        elif not on:
            self.timer.stop()

    def on_update(self, u) -> None:
        c = u.changes
        if u.first or c.rounds or c.approvals:
            self.stale = True

    def _changed(self) -> None:
        self.stale = True
        self.refresh()

    def choose(self, kind: str) -> None:
        self.kind.setCurrentIndex(self.kind.findData(kind))

    def refresh(self) -> None:
        if self.reading or not self.stale or not self.timer.isActive():
            return
        start, end, words = period_of(self.kind.currentData(), self.bridge.clock(), None, self.bridge.shifts)
        self.stale = False
        self.reading = True
        self.status.setText("reading…")
        theme.set_dim(self.status)
        self.bridge.read_aside(lambda ws: ws.reads.protection(start, end), lambda d: self._got(d, words),
                               self._failed)

    def _failed(self, error: BaseException) -> None:
        self.reading = False
        self.status.setText(f"{LEVEL_MARK[RED]} could not check: {error}")
        theme.set_level(self.status, RED)

    def _got(self, data: dict, words: str) -> None:
        self.reading = False
        self.data = data
        rows = rows_of(data)
        self.model.set_records(rows)
        n = len(data["notices"])
        verified = data.get("verified") or {}
        self.words.setText(f"{words} · {len(rows):,} checks · "
                           + (f"{LEVEL_MARK[AMBER]} {n} WHERE TO LOOK" if n else "nothing out of line")
                           + ("" if verified.get("ok", True) else "  ·  NOT VERIFIED"))
        theme.set_level(self.words, AMBER if n else NONE)
        self.status.setText("")
        theme.set_plain(self.status)
        self.reads += 1
        if self.stale:          # the period changed while this was read: read the new one now
            self.refresh()


__all__ = ["ProtectionPage", "ProtectionModel", "rows_of", "PERIODS"]
