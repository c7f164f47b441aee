"""Each table's pace and turnover (issue 36): the rounds and the wagers of the last hour for its
tile, and per clock hour through a shift for its table page and the shift report.

Everything comes from the log (app/store/pace_rows.py): the rounds the hold counts, their time
and their stakes. The tile's figures are kept per table and read again from the log only when
the journal says the table logged a settlement or a decision (one that sends a settlement back
changes what counts), so the floor's pump does not read the hour's rounds every time.

A table is off its usual pace when, having played through the whole last hour, it settled
fewer than three quarters or more than five quarters of its usual rounds an hour. Its usual pace
is the median of its full hours (an hour with rounds in the hours before and after it) over the
last seven days; with fewer than three such hours, the standard pace (Pai Gow Poker is dealt at
about 34 hands an hour: Wizard of Odds' table of hands per hour; 40 at most, Pilarski). The
words are shown, not an alarm: a slow table may just be a full one.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from statistics import median_low

from app.store import pace_rows

STANDARD_PACE = 34          # hands an hour (Wizard of Odds); the usual pace of a table without history
USUAL_DAYS = 7              # the history a table's usual pace is taken from
USUAL_HOURS = 3             # full hours needed before a table's own pace is its usual one
HOUR = timedelta(hours=1)
SLOW, FAST = "slow", "fast"


@dataclass(frozen=True)
class Pace:
    """A table's last hour, as its tile shows it."""
    rounds: int                 # rounds counted in the last hour
    wagered: int                # cents wagered on them
    seats: int                  # seats occupied now
    usual: int                  # the table's usual rounds an hour
    usual_own: bool             # True: from its own last seven days; False: the standard pace
    off: str = ""               # SLOW or FAST once it has played the whole hour, "" otherwise
    whole_hour: bool = False    # it has a round before the hour began: the hour is judged

    def words(self) -> str:
        """'34 ROUNDS/H' and, off its pace, how far: 'SLOW: 18 ROUNDS/H, USUALLY 34'."""
        if self.off:
            return f"{'⇣ SLOW' if self.off == SLOW else '⇡ FAST'}: {self.rounds} ROUNDS/H, USUALLY {self.usual}"
        return f"{self.rounds} ROUNDS/H"

    def usual_words(self) -> str:
        own = "its median over the last seven days" if self.usual_own else \
            "the standard pace (no three full hours of its own yet)"
        return f"usually {self.usual} rounds an hour: {own}"


@dataclass(frozen=True)
class PaceHour:
    """One clock hour of a table's shift."""
    table: str
    hour: datetime              # its start
    rounds: int
    wagered: int                # cents
    seat_rounds: int            # the rounds' seats with a wager, added

    @property
    def seats_tenths(self) -> int:
        """Seats in play an average round, in tenths (rounded half up)."""
        return (self.seat_rounds * 20 + self.rounds) // (2 * self.rounds) if self.rounds else 0

    @property
    def average_wager(self) -> int:
        """Cents wagered an average round (rounded half up)."""
        return (self.wagered * 2 + self.rounds) // (2 * self.rounds) if self.rounds else 0

    def as_json(self) -> dict:
        return {"table": self.table, "hour": self.hour.isoformat(timespec="minutes"), "rounds": self.rounds,
                "wagered": self.wagered, "seats": self.seats_tenths / 10, "average_wager": self.average_wager}


def judge(rounds: int, usual: int) -> str:
    """SLOW under three quarters of ``usual``, FAST over five quarters, else ''."""
    if rounds * 4 < usual * 3:
        return SLOW
    if rounds * 4 > usual * 5:
        return FAST
    return ""


def full_hours(hours: dict[str, int]) -> list[int]:
    """The rounds of each hour (``'YYYY-MM-DDTHH'`` -> rounds) whose hours before and after were
    played too: a table that opened or closed within an hour did not play all of it."""
    def key(h: str, d: int) -> str:
        return (datetime.fromisoformat(h + ":00") + d * HOUR).isoformat()[:13]
    return [n for h, n in hours.items() if key(h, -1) in hours and key(h, 1) in hours]


def usual_paces(rows: Iterable[dict]) -> dict[str, int]:
    """Per table with USUAL_HOURS full hours in ``rows`` (pace_rows.hours_played): their median."""
    by: dict[str, dict[str, int]] = {}
    for r in rows:
        by.setdefault(r["table_id"], {})[r["hour"]] = r["rounds"]
    out = {}
    for t, hours in by.items():
        full = full_hours(hours)
        if len(full) >= USUAL_HOURS:
            out[t] = median_low(full)
    return out


def hours(conn, start: datetime, end: datetime, table: str | None = None) -> list[PaceHour]:
    """Every table's (or ``table``'s) clock hours in ``[start, end)`` with a round counted."""
    return [PaceHour(r["table_id"], datetime.fromisoformat(r["hour"] + ":00"), r["rounds"], r["wagered"],
                     r["seat_rounds"] or 0)
            for r in pace_rows.hourly(conn, start.isoformat(), end.isoformat(), table)]


@dataclass(frozen=True)
class PitHour:
    """One clock hour of the pit: its tables' rounds and wagers added."""
    hour: datetime
    rounds: int
    wagered: int
    tables: int                 # tables with a round in the hour

    def as_json(self) -> dict:
        return {"hour": self.hour.isoformat(timespec="minutes"), "rounds": self.rounds, "wagered": self.wagered,
                "tables": self.tables}


def pit_hours(sections) -> list[PitHour]:
    """The hours of ``sections`` (each with ``pace``, a list of PaceHour), added per hour."""
    by: dict[datetime, list[int]] = {}
    for t in sections:
        for h in t.pace:
            x = by.setdefault(h.hour, [0, 0, 0])
            x[0] += h.rounds
            x[1] += h.wagered
            x[2] += 1
    return [PitHour(h, *by[h]) for h in sorted(by)]


class PaceBook:
    """The floor's tables' last two hours of rounds, kept from the log; fed the journal's rows."""

    def __init__(self, log):
        self.log = log
        self._lock = threading.Lock()
        self._rounds: dict[str, list[tuple[datetime, int]]] = {}    # table -> (time, wagered), oldest first
        self._stale: set[str] | None = None                         # None: every table
        self._usual: dict[str, int] = {}
        self._usual_hour: str | None = None
        self._versions: dict[str, int] = {}                          # table -> settlements and decisions folded
        self._hours: dict[str, tuple[tuple, tuple[PaceHour, ...]]] = {}    # table -> (key, its shift's hours)

    def fold(self, rows) -> tuple[str, ...]:
        """The journal's rows: a table that logged a settlement or a decision is read again."""
        changed = {r.table for r in rows if r.table and r.type in ("settlement", "approval_decided")}
        if changed:
            with self._lock:
                if self._stale is not None:
                    self._stale |= changed
                for t in changed:
                    self._versions[t] = self._versions.get(t, 0) + 1
        return ()

    def shift_hours(self, table: str, start: datetime, now: datetime) -> tuple[PaceHour, ...]:
        """``table``'s clock hours from ``start`` (its shift's) to ``now``, read again only when it
        logged a settlement or a decision since, or the hour turned."""
        key = (start, now.isoformat()[:13], self._versions.get(table, 0))
        kept = self._hours.get(table)
        if kept is None or kept[0] != key:
            kept = (key, tuple(self.log.read(lambda conn: hours(conn, start, now + HOUR, table))))
            self._hours[table] = kept
        return kept[1]

    def paces(self, tables: dict[str, int], now: datetime) -> dict[str, Pace]:
        """Each of ``tables`` (table -> its seats occupied now) with its pace at ``now``."""
        self._refresh(list(tables), now)
        out = {}
        since, before = now - HOUR, now - 2 * HOUR
        for t, seats in tables.items():
            kept = self._rounds.get(t, ())
            last = [(w, n) for w, n in kept if since < w <= now]
            usual = self._usual.get(t)
            whole = any(before < w <= since for w, _ in kept)
            rounds = len(last)
            out[t] = Pace(rounds, sum(n for _, n in last), seats, usual or STANDARD_PACE, usual is not None,
                          judge(rounds, usual or STANDARD_PACE) if whole else "", whole)
        return out

    def _refresh(self, tables: list[str], now: datetime) -> None:
        hour = now.isoformat()[:13]
        with self._lock:
            stale = set(tables) if self._stale is None else self._stale & set(tables)
            if self._stale is None:
                self._stale = set()
            self._stale -= stale
        start = (now - 2 * HOUR).isoformat()
        if stale:
            got: dict[str, list[tuple[datetime, int]]] = {t: [] for t in stale}
            one = next(iter(stale)) if len(stale) == 1 else None
            rows = [r for r in self.log.read(lambda conn: pace_rows.rounds(conn, start, None, one))
                    if r["table_id"] in stale]
            for r in rows:
                got[r["table_id"]].append((datetime.fromisoformat(r["time"]), r["wagered"]))
            self._rounds.update(got)
        if hour != self._usual_hour:
            self._usual_hour = hour
            since = (now - USUAL_DAYS * 24 * HOUR).isoformat()[:13]
            self._usual = usual_paces(self.log.read(lambda conn: pace_rows.hours_played(conn, since, hour)))
        # the rounds older than two hours are no longer looked at
        for t in tables:
            kept = self._rounds.get(t)
            if kept and kept[0][0] <= now - 2 * HOUR:
                self._rounds[t] = [x for x in kept if x[0] > now - 2 * HOUR]
