"""The pit's shifts: the one place their boundaries are decided.

Three eight-hour shifts in local time, as the log's times are: grave 00:00-08:00, day
08:00-16:00 and swing 16:00-24:00. No rule text fixes them; a later issue makes them a setting
of the configuration, which will be read here and nowhere else. A shift is named by its name and
the date it starts on ("swing 2026-11-23").
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta

# (name, starting hour); each shift ends where the next begins, the last at midnight
SHIFTS: tuple[tuple[str, int], ...] = (("grave", 0), ("day", 8), ("swing", 16))


@dataclass(frozen=True, order=True)
class Shift:
    start: datetime
    end: datetime
    name: str

    @property
    def label(self) -> str:
        return f"{self.name} {self.start:%Y-%m-%d}"


def _of_day(day: date) -> list[Shift]:
    starts = [(name, datetime.combine(day, time(hour))) for name, hour in SHIFTS]
    ends = [s for _, s in starts[1:]] + [datetime.combine(day + timedelta(days=1), time(SHIFTS[0][1]))]
    return [Shift(start, end, name) for (name, start), end in zip(starts, ends)]


def shift_of(when: datetime) -> Shift:
    """The shift ``when`` falls in (a boundary belongs to the shift it starts)."""
    for day in (when.date() - timedelta(days=1), when.date()):
        for s in _of_day(day):
            if s.start <= when < s.end:
                return s
    raise AssertionError(f"no shift holds {when}")   # the shifts cover the day; never reached


def shifts_between(start: datetime, end: datetime) -> Iterator[Shift]:
    """The shifts that overlap ``[start, end)``, in order."""
    s = shift_of(start)
    while s.start < end:
        yield s
        s = shift_of(s.end)


def shifts_back(now: datetime, count: int) -> Shift:
    """The shift ``count`` shifts before the one ``now`` is in (0: that one)."""
    s = shift_of(now)
    for _ in range(count):
        s = shift_of(s.start - timedelta(microseconds=1))
    return s
