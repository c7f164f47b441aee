"""One progressive controller's meter against time: a pyqtgraph plot kept fast over a shift.

The readings are kept in numpy arrays that grow by doubling (a reading appended is a copy of one
value, not of the series). The curve draws only what is in view (``setClipToView``) and two
points per pixel column (``setDownsampling(auto=True, method="peak")``: the lowest and highest
reading of each column, so every rise and fall of the meter is still seen), so eight hours of
readings at 10 a second (288,000 points) redraw in a few milliseconds (bench/progressive_bench.py). Hits and resets are marked with
their own symbols; the colour of a hit is where it stands (amber pending, green paid, red
denied), its shape always a star, a reset always a diamond.

Times are seconds on the log's own clock (the local time read as if it were UTC, as the readout
gives them: ``clock_seconds``), shown by pyqtgraph's ``DateAxisItem`` with no offset, so the axis
says the times the log says, with no daylight-saving jump; the meter is drawn in dollars, a
picture of the cents the readout holds.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import numpy as np

from app.workstation.progressive_readout import clock_seconds

from . import theme
from app.qt import pyqtgraph
from .theme import AMBER, NONE, OK, RED
from .widgets import dark_plot

HIT_COLOUR = {"PENDING": AMBER, "PAID": OK, "DENIED": RED}
_AXIS = None


def _dollar_axis(pg):
    """An axis that labels the meter in whole dollars ($12,345)."""
    global _AXIS
    if _AXIS is None:
        class DollarAxis(pg.AxisItem):
            def tickStrings(self, values, scale, spacing):
                return [f"${v:,.0f}" if spacing >= 1 else f"${v:,.2f}" for v in values]
        _AXIS = DollarAxis
    return _AXIS


class MeterChart:
    """``widget`` is the plot; ``extend`` appends readings, ``set_marks`` the hits and resets,
    ``redraw`` hands what changed to pyqtgraph (once per timer tick, never per reading)."""

    def __init__(self, name: str = "meter_chart"):
        pg = pyqtgraph()
        self.pg = pg
        self.widget = dark_plot(pg, name, tick_scale=0.85, tick_pen=theme.TEXT_DIM, grid=(True, True),
                                axisItems={"bottom": pg.DateAxisItem(orientation="bottom", utcOffset=0),
                                           "left": _dollar_axis(pg)(orientation="left")})
        plot = self.widget.getPlotItem()
        # the major ticks only: a chart a few lines tall (1366x768) keeps its labels apart
        plot.getAxis("left").setStyle(maxTickLevel=0, textFillLimits=[(0, 0.5)])
        # the meter's axis fits the readings in view (the last hour's), not the whole shift's
        plot.getViewBox().setAutoVisible(y=True)
        self.curve = plot.plot(pen=pg.mkPen(theme.TEXT, width=2))
        self.curve.setClipToView(True)
        self.curve.setDownsampling(auto=True, method="peak")
        # one bin of readings per pixel column (pyqtgraph's default is five): "peak" keeps each bin's
        # lowest and highest reading, so nothing the eye could see is lost and a paint draws a fifth
        # of the segments (bench/progressive_bench.py)
        self.curve.opts["autoDownsampleFactor"] = 1.0
        self.hits = pg.ScatterPlotItem(symbol="star", size=theme.base_pt() * 1.8, pxMode=True)
        self.resets = pg.ScatterPlotItem(symbol="d", size=theme.base_pt() * 1.3, pxMode=True,
                                         brush=pg.mkBrush(theme.FOCUS), pen=pg.mkPen(theme.TEXT, width=1))
        plot.addItem(self.hits)
        plot.addItem(self.resets)
        self.x = np.empty(1024, dtype=np.float64)
        self.y = np.empty(1024, dtype=np.float64)
        self.n = 0
        self._dirty = False

    # -- data -----------------------------------------------------------------------------------
    def clear(self) -> None:
        self.n = 0
        self._dirty = True

    def extend(self, seconds, cents) -> None:
        """Append readings: their times as seconds on the log's clock, and cents; in the log's order."""
        if len(seconds):
            self.extend_arrays(np.asarray(seconds, dtype=np.float64), np.asarray(cents, dtype=np.float64) / 100)

    def extend_arrays(self, x: np.ndarray, dollars: np.ndarray) -> None:
        """Append readings already as seconds and dollars."""
        need = self.n + len(x)
        if need > len(self.x):
            size = max(need, 2 * len(self.x))
            self.x = np.resize(self.x, size)
            self.y = np.resize(self.y, size)
        self.x[self.n:need] = x
        self.y[self.n:need] = dollars
        self.n = need
        self._dirty = True

    def set_marks(self, hits, resets) -> None:
        """``hits``: (time, cents, state); ``resets``: (time, cents)."""
        pg = self.pg
        self.hits.setData([{"pos": (clock_seconds(t), c / 100), "brush": pg.mkBrush(theme.COLOUR[HIT_COLOUR.get(s, NONE)]),
                            "pen": pg.mkPen(theme.TEXT, width=1), "data": s} for t, c, s in hits])
        self.resets.setData([clock_seconds(t) for t, _ in resets], [c / 100 for _, c in resets])

    def redraw(self) -> bool:
        """Give the curve the readings if any came since the last time; whether it had to."""
        if not self._dirty:
            return False
        self._dirty = False
        self.curve.setData(self.x[:self.n], self.y[:self.n])
        return True

    def span(self, start: datetime | None, end: datetime | None, last: timedelta | None = None) -> None:
        """Show the time from ``start`` to ``end`` (the shift so far), or only its ``last`` hour(s):
        a meter's recent movement is what a supervisor reads, not squeezed against the edge."""
        if start is None or end is None or end <= start:
            return
        if last is not None:
            start = max(start, end - last)
        self.widget.getPlotItem().setXRange(clock_seconds(start), clock_seconds(end), padding=0.02)
