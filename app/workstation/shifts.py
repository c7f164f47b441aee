"""The pit's shifts: the one place their boundaries are decided.

No rule text fixes them; they are a setting of the workstation's configuration (``[[shifts]]``,
docs/workstation-config.md), read into a ``ShiftPlan`` here and nowhere else. The default is
three eight-hour shifts in local time, as the log's times are: grave 00:00-08:00, day
08:00-16:00 and swing 16:00-24:00. Each shift ends where the next begins, the last where the
first begins the next day. A shift is named by its name and the date it starts on
("swing 2026-11-23"); a shift that starts before midnight and runs past it belongs to the day it
starts on.

The module's functions (``shift_of``, ``shifts_between``, ``shifts_back``) use the default plan;
a workstation uses its configuration's (``Workstation.shifts``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

from app.engine.words import day


@dataclass(frozen=True, order=True)
class Shift:
    start: datetime
    end: datetime
    name: str

    @property
    def label(self) -> str:
        return f"{self.name} {self.start:%Y-%m-%d}"

    @property
    def words(self) -> str:
        """The shift as the window names it: ``swing shift, Sat 21 Nov, 16:00–24:00`` (its
        ``label`` is the paper's and the command line's name for it)."""
        return f"{self.name} shift, {day(self.start)}, {self.hours}"

    @property
    def hours(self) -> str:
        end = "24:00" if self.end.time() == time(0) and self.end.date() > self.start.date() else f"{self.end:%H:%M}"
        return f"{self.start:%H:%M}–{end}"


class ShiftError(ValueError):
    """A shift plan or a shift asked for that does not exist; the message names the fault."""


@dataclass(frozen=True)
class ShiftPlan:
    """The shifts of a day: (name, start) in order of their start within the day."""

    starts: tuple[tuple[str, time], ...]

    def __post_init__(self):
        if not self.starts:
            raise ShiftError("at least one shift is needed")
        names = [n for n, _ in self.starts]
        for n in names:
            if names.count(n) > 1:
                raise ShiftError(f"two shifts are named {n!r}")
        times = [t for _, t in self.starts]
        for (a, ta), (b, tb) in zip(self.starts, self.starts[1:]):
            if tb <= ta:
                raise ShiftError(f"shift {b!r} starts at {tb:%H:%M}, not after {a!r} at {ta:%H:%M}: list the "
                                 "shifts in the order they start in the day")
        if len(set(times)) != len(times):
            raise ShiftError("two shifts start at the same time")

    def names(self) -> list[str]:
        return [n for n, _ in self.starts]

    def of_day(self, day: date) -> list[Shift]:
        """The shifts that start on ``day``, in order."""
        starts = [(name, datetime.combine(day, t)) for name, t in self.starts]
        ends = [s for _, s in starts[1:]] + [datetime.combine(day + timedelta(days=1), self.starts[0][1])]
        return [Shift(start, end, name) for (name, start), end in zip(starts, ends)]

    def shift_of(self, when: datetime) -> Shift:
        """The shift ``when`` falls in (a boundary belongs to the shift it starts)."""
        for day in (when.date() - timedelta(days=1), when.date()):
            for s in self.of_day(day):
                if s.start <= when < s.end:
                    return s
        raise AssertionError(f"no shift holds {when}")   # the shifts cover the day; never reached

    def shifts_between(self, start: datetime, end: datetime) -> Iterator[Shift]:
        """The shifts that overlap ``[start, end)``, in order."""
        s = self.shift_of(start)
        while s.start < end:
            yield s
            s = self.shift_of(s.end)

    def shifts_back(self, now: datetime, count: int) -> Shift:
        """The shift ``count`` shifts before the one ``now`` is in (0: that one)."""
        s = self.shift_of(now)
        for _ in range(count):
            s = self.shift_of(s.start - timedelta(microseconds=1))
        return s

    def shift_named(self, name: str, day: date) -> Shift:
        """Shift ``name`` that starts on ``day``; ShiftError naming the shifts there are."""
        for s in self.of_day(day):
            if s.name == name:
                return s
        raise ShiftError(f"unknown shift {name!r}; the shifts are {', '.join(self.names())}")


DEFAULT = ShiftPlan((("grave", time(0)), ("day", time(8)), ("swing", time(16))))
SHIFTS = tuple((n, t.hour) for n, t in DEFAULT.starts)   # the default, as (name, hour)


def shift_of(when: datetime) -> Shift:
    return DEFAULT.shift_of(when)


def shifts_between(start: datetime, end: datetime) -> Iterator[Shift]:
    return DEFAULT.shifts_between(start, end)


def shifts_back(now: datetime, count: int) -> Shift:
    return DEFAULT.shifts_back(now, count)


__all__ = ["Shift", "ShiftPlan", "ShiftError", "DEFAULT", "shift_of", "shifts_between", "shifts_back"]
