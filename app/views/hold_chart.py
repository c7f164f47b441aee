"""Actual against theoretical hold per wager type: a pyqtgraph bar chart.

A row per wager type, named on the left as the lists name it (a dozen names read side by side
only at a slant): the actual hold (blue) above the theoretical (grey; an estimate carries its
95% interval as an error bar), from zero. Each bar has its figure written above it, so the chart reads without
the axis. A wager type with nothing wagered (envy is not a wager) has no bars.

A hold far outside the others (a progressive's inventory after a hit paid from it: -900%) would
flatten every other bar, so the axis stops at ``CLIP`` either side of the theoretical figures
and a bar that runs past it is cut there (✂), its figure still written in full.
"""

from __future__ import annotations

import numpy as np

from app.workstation.hold import LABELS

from . import theme
from app.qt import QColor, QFontMetrics, pyqtgraph
from .widgets import dark_plot

ACTUAL = QColor("#6cb6ff")
THEORETICAL = QColor("#a4abb8")
CLIP = 0.6          # the axis shows at most 60 points beyond the largest theoretical hold


def _pct(x: float) -> str:
    return f"{x * 100:.2f}%"


LEGEND = (f'<span style="color:{ACTUAL.name()}">■</span> actual hold &nbsp; '
          f'<span style="color:{THEORETICAL.name()}">■</span> theoretical hold (an estimate with its 95% interval) '
          f'&nbsp; ✂ cut at the axis')


class HoldChart:
    """``widget`` is the plot; ``show(lines)`` draws the lines' bars (HoldLine, in order)."""

    def __init__(self, name: str = "hold_chart"):
        pg = pyqtgraph()
        self.pg = pg
        self.widget = dark_plot(pg, name, tick_scale=0.9, tick_pen=theme.TEXT, grid=(True, False))
        plot = self.widget.getPlotItem()
        plot.getAxis("bottom").setLabel("hold", units="%", color=theme.TEXT_DIM.name())
        plot.getAxis("bottom").enableAutoSIPrefix(False)
        self.actual = pg.BarGraphItem(x=[], height=[], width=0.38, brush=pg.mkBrush(ACTUAL), pen=pg.mkPen(None))
        self.theory = pg.BarGraphItem(x=[], height=[], width=0.38, brush=pg.mkBrush(THEORETICAL),
                                      pen=pg.mkPen(None))
        self.errors = pg.ErrorBarItem(x=np.zeros(0), y=np.zeros(0), width=np.zeros(0), beam=0.25, pen=pg.mkPen(theme.TEXT, width=2))
        self.zero = pg.InfiniteLine(pos=0, angle=90, pen=pg.mkPen(theme.TEXT_DIM, width=1))
        for item in (self.zero, self.actual, self.theory, self.errors):
            plot.addItem(item)
        self.labels: list = []
        self.bars: list[tuple[str, float | None, float | None]] = []   # (wager, actual, theoretical) drawn
        self.cut: list[str] = []        # the wager types whose actual bar is cut at the axis
        self.lines: list = []
        self.both = True                # both figures written (room enough), or the actual only
        plot.getViewBox().sigResized.connect(self._resized)

    def _resized(self, *_):
        if self.lines and self._room() != self.both:
            self.show(self.lines)

    def _room(self) -> bool:
        row_px = self.widget.height() / max(len([ln for ln in self.lines if ln.wagered > 0]), 4)
        return row_px >= 2.6 * QFontMetrics(theme.font(0.85, bold=True)).height()

    def show(self, lines) -> None:
        """One row per wager type with money wagered, top to bottom in the lines' order: the
        actual bar above the theoretical, each with its figure at its end."""
        pg = self.pg
        self.lines = list(lines)
        plot = self.widget.getPlotItem()
        for item in self.labels:
            plot.removeItem(item)
        self.labels = []
        drawn = [ln for ln in lines if ln.wagered > 0]
        self.bars = [(ln.wager, float(ln.actual_hold) if ln.actual_hold is not None else None,
                      float(ln.theoretical.hold) if ln.theoretical is not None else None) for ln in drawn]
        theory = [t for _, _, t in self.bars if t is not None]
        actual = [a for _, a, _ in self.bars if a is not None]
        top = max(theory + [0.0]) + CLIP
        bottom = min(theory + [0.0]) - CLIP
        hi = min(max(actual + theory + [0.05]), top)
        lo = max(min(actual + theory + [0.0]), bottom)
        span = max(hi - lo, 0.05)

        def cut(v: float) -> float:
            return max(min(v, hi), lo)
        self.cut = [w for w, a, _ in self.bars if a is not None and cut(a) != a]
        n = len(self.bars)
        ys = [n - 1 - i for i in range(n)]        # the first wager type at the top
        a_y = [y + 0.2 for y, (_, a, _) in zip(ys, self.bars) if a is not None]
        a_w = [cut(a) * 100 for _, a, _ in self.bars if a is not None]
        t_y = [y - 0.2 for y, (_, _, t) in zip(ys, self.bars) if t is not None]
        t_w = [t * 100 for _, _, t in self.bars if t is not None]
        self.actual.setOpts(x0=0, y=a_y, width=a_w, height=0.38)
        self.theory.setOpts(x0=0, y=t_y, width=t_w, height=0.38)
        ex, ey, ew = [], [], []
        for y, ln in zip(ys, drawn):
            th = ln.theoretical
            if th is not None and th.interval is not None:
                low, high = th.interval
                ex.append((low + high) / 2 * 100)
                ey.append(y - 0.2)
                ew.append((high - low) * 100)
        self.errors.setData(x=np.array(ex), y=np.array(ey), width=np.array(ew), beam=0.25)
        font = theme.font(0.85, bold=True)
        # where a row is too short for two figures (a dozen wager types at 1366x768), only the
        # actual hold is written; the theoretical is in the list beside the chart
        both = self.both = self._room()
        for y, (_, a, t) in zip(ys, self.bars):
            for dy, v, colour in ((0.2, a, ACTUAL), (-0.2, t, THEORETICAL)):
                if v is None or (colour is THEORETICAL and not both):
                    continue
                shown = cut(v)
                label = pg.TextItem(_pct(v) + ("" if shown == v else " ✂"), color=colour,
                                    anchor=(0.0, 0.5) if shown >= 0 else (1.0, 0.5))
                label.setFont(font)
                label.setPos(shown * 100, y + dy)
                plot.addItem(label)
                self.labels.append(label)
        plot.getAxis("left").setTicks([[(y, LABELS.get(w, w)) for y, (w, _, _) in zip(ys, self.bars)], []])
        # the first wager type at the top; a bar no thicker than a quarter of the plot (room left below)
        plot.setYRange(min(-0.7, n - 4.3), n - 0.3, padding=0)
        plot.setXRange(lo * 100 - span * 22, hi * 100 + span * 22, padding=0)

__all__ = ["HoldChart", "CLIP"]
