"""Player ratings from the rounds themselves (issue 36, docs/ratings.md).

A pit rates a player by hand today: an average bet guessed every half hour and one flat house
edge. Here a rating is a rated player's stays at a table (sit down, move seat, stand up, as
logged), and its figures are the sums of the rounds the table settled while they sat there, of
their own wagers (the seat's, or a named bettor's on that circle, 003):

- ``rounds``: the counted rounds with a wager of theirs;
- ``minutes``: the time they sat, to the minute;
- ``wagered``: their stakes (not a collection fee's, whose stake is the wager it is charged on,
  nor a bank's or a player-dealer's own result: app/store/pace_rows.py ``NOT_WAGERED``), in all
  and per wager type; ``average_wager``: wagered over rounds;
- ``actual``: what they lost at the table (the sum of their results' net, sign turned: positive
  when the player lost), collection fees included;
- ``theoretical``: the sum over their wagers of the wager times its house edge in the table's
  profile (app/workstation/theoretical.py: the pay tables' exact edges, the posted collection
  fee, the base game's estimate with its 95% interval); a wager the house takes no action on
  (a wager against a player-dealer, 002 TYPE OF GAME) adds nothing, one not priced (against a
  player bank) is counted in ``unpriced``.

A supervisor's correction (the card, the name, the start or the end) is logged with why, and the
figures follow from the rounds again. Money is integer cents; the theoretical is rounded half up
to the cent from its exact fraction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from pathlib import Path

from app.analysis.estimate import Z95
from app.store import rating_rows
from app.store.pace_rows import NOT_WAGERED
from app.store.reading import read_db

from .hold import wager_type
from .theoretical import NOT_PRICED, Expectation, expectation


@dataclass(frozen=True)
class Stay:
    """One seat a rated player held: from ``start`` to ``end`` (None: still there)."""
    seat: int
    start: datetime
    end: datetime | None


@dataclass
class Rating:
    rating: int                     # its rating_started row's seq
    table: str
    card: str
    name: str
    bettor: str                     # "" the seat's own player; a bettor's name on that circle (003)
    stays: list[Stay]
    corrections: list[dict] = field(default_factory=list)
    rounds: int = 0
    wagered: int = 0
    by_wager: dict[str, int] = field(default_factory=dict)
    actual: int = 0
    expected: Expectation = field(default_factory=Expectation)
    unpriced: int = 0
    round_seqs: list[int] = field(default_factory=list)
    # per wager type the house banks against the player: [the house's net, its expectation, stakes]
    # (game protection per rated player, app/workstation/protection.py ``player_checks``)
    house: dict[str, list] = field(default_factory=dict)

    @property
    def started(self) -> datetime:
        return self.stays[0].start

    @property
    def ended(self) -> datetime | None:
        return self.stays[-1].end

    @property
    def seat(self) -> int:
        return self.stays[-1].seat

    @property
    def open(self) -> bool:
        return self.ended is None

    def minutes(self, now: datetime, start: datetime | None = None, end: datetime | None = None) -> int:
        """The minutes sat, to the minute (rounded half up), up to ``now`` while still seated;
        only those within ``[start, end)`` if given (a shift's)."""
        seconds = 0.0
        for s in self.stays:
            a, b = max(s.start, start or s.start), min(s.end or now, end or now, now)
            seconds += max(0.0, (b - a).total_seconds())
        return int(seconds // 60 + (1 if seconds % 60 >= 30 else 0))

    @property
    def average_wager(self) -> int:
        return average(self.wagered, self.rounds)

    def theoretical(self) -> tuple[int, tuple[int, int] | None]:
        """The theoretical win in cents (rounded half up) and, where the base game's estimate is
        in it, its 95% interval in whole cents (widened outwards)."""
        return theoretical_cents(self.expected)

    def as_json(self, now: datetime, start: datetime | None = None, end: datetime | None = None) -> dict:
        theo, band = self.theoretical()
        return {"rating": self.rating, "player": self.card, "name": self.name, "bettor": self.bettor or None,
                "table": self.table, "seat": self.seat, "started": _iso(self.started),
                "ended": _iso(self.ended) if self.ended else None, "rounds": self.rounds,
                "minutes": self.minutes(now, start, end), "wagered": self.wagered,
                "average_wager": self.average_wager,
                "actual": self.actual, "theoretical": theo,
                "theoretical_interval_95": list(band) if band else None, "unpriced": self.unpriced,
                "by_wager": dict(sorted(self.by_wager.items())),
                "corrections": self.corrections}


def theoretical_cents(e: Expectation) -> tuple[int, tuple[int, int] | None]:
    """``e``'s expected value in cents, rounded half up, and its 95% interval in whole cents
    (widened outwards) where the base game's estimate is in it (None: exact)."""
    value, var = e.value_and_variance()
    cents = math.floor(value + Fraction(1, 2))
    if not e.estimated:
        return cents, None
    half = Z95 * math.isqrt(math.ceil(var))
    return cents, (math.floor(value - half), math.ceil(value + half))


def average(cents: int, rounds: int) -> int:
    """``cents`` over ``rounds``, rounded half up (0 with no round)."""
    return (cents * 2 + rounds) // (2 * rounds) if rounds else 0


@dataclass
class Player:
    """One player's ratings of a period added (``by_player``): the issue's ``ratings`` keys."""
    player: str                     # the card
    name: str
    sessions: int = 0
    tables: list[str] = field(default_factory=list)
    rounds: int = 0
    minutes: int = 0
    wagered: int = 0
    actual: int = 0
    expected: Expectation = field(default_factory=Expectation)
    unpriced: int = 0

    def as_json(self) -> dict:
        theo, band = theoretical_cents(self.expected)
        return {"player": self.player, "name": self.name, "sessions": self.sessions, "tables": self.tables,
                "rounds": self.rounds, "minutes": self.minutes, "wagered": self.wagered,
                "average_wager": average(self.wagered, self.rounds), "actual": self.actual, "theoretical": theo,
                "theoretical_interval_95": list(band) if band else None, "unpriced": self.unpriced}


def by_player(found: list[Rating], now: datetime, start: datetime | None = None,
              end: datetime | None = None) -> list[Player]:
    """The ratings added per player's card (their minutes within ``[start, end)``), by card."""
    out: dict[str, Player] = {}
    for r in found:
        p = out.setdefault(r.card, Player(r.card, r.name))
        p.name = r.name or p.name
        p.sessions += 1
        if r.table not in p.tables:
            p.tables.append(r.table)
        p.rounds += r.rounds
        p.minutes += r.minutes(now, start, end)
        p.wagered += r.wagered
        p.actual += r.actual
        p.expected += r.expected
        p.unpriced += r.unpriced
    return [out[c] for c in sorted(out)]


# the wagers whose result the house's net mirrors (the house banks them and pays their win itself):
# not a toke bet (its win is the dealer's, 003 GENERAL RULES 6), the progressive (the meter's), a
# fee (taken before play) or a bank's
MIRRORED = frozenset({"base", "fortune", "insurance", "three_card", "seven_card", "ace_high", "additional"})


def _iso(t: datetime) -> str:
    return t.isoformat(timespec="seconds")


def _wager(name: str) -> str:
    """A logged wager's type as the hold names it (``additional 3`` is ``additional``)."""
    if name.startswith("additional"):
        return "additional"
    if name.startswith("envy"):
        return "envy"
    return name


# -- the ratings from their rows -------------------------------------------------------------------
def ratings_of(events: list[dict]) -> dict[int, Rating]:
    """Every rating the rows make (app/store/rating_rows.py ``rating_events``), by its number."""
    out: dict[int, Rating] = {}
    for e in events:
        d, at = e["data"], datetime.fromisoformat(e["time"])
        if e["type"] == "rating_started":
            out[e["seq"]] = Rating(e["seq"], e["table_id"], d["card"], d.get("name", ""), d.get("bettor", ""),
                                   [Stay(d["seat"], at, None)])
            continue
        r = out.get(d.get("rating"))
        if r is None:
            continue                 # refused when written; a row of another period's rating
        if e["type"] == "rating_moved" and r.open:
            r.stays[-1] = Stay(r.stays[-1].seat, r.stays[-1].start, at)
            r.stays.append(Stay(d["seat"], at, None))
        elif e["type"] == "rating_ended" and r.open:
            r.stays[-1] = Stay(r.stays[-1].seat, r.stays[-1].start, at)
        elif e["type"] == "rating_corrected":
            _correct(r, d)
            r.corrections.append({"time": e["time"], "by": e["actor"], "role": e["role"], "field": d["field"],
                                  "was": d["was"], "now": d["now"], "why": d["why"]})
    return out


def _correct(r: Rating, d: dict) -> None:
    f, now = d["field"], d["now"]
    if f == "card":
        r.card = now
    elif f == "name":
        r.name = now
    elif f == "started":
        first = r.stays[0]
        r.stays[0] = Stay(first.seat, datetime.fromisoformat(now), first.end)
    elif f == "ended":
        last = r.stays[-1]
        r.stays[-1] = Stay(last.seat, last.start, datetime.fromisoformat(now) if now else None)


def stay_at(r: Rating, when: datetime) -> Stay | None:
    for s in r.stays:
        if s.start <= when and (s.end is None or when < s.end):
            return s
    return None


def add_rounds(ratings: list[Rating], rounds: list[dict]) -> None:
    """Each round (app/store/rating_rows.py ``rounds``) into the ratings sitting at its table
    when it was settled: the results of their seat, or of their name as a bettor on it."""
    by_table: dict[str, list[Rating]] = {}
    for r in ratings:
        by_table.setdefault(r.table, []).append(r)
    for rd in rounds:
        at = datetime.fromisoformat(rd["time"])
        for r in by_table.get(rd["table_id"], ()):
            stay = stay_at(r, at)
            if stay is None:
                continue
            mine = [x for x in rd["results"] if x.get("seat") == stay.seat and (x.get("bettor") or "") == r.bettor
                    and x.get("outcome") != "returned"]
            if not mine:
                continue
            r.rounds += 1
            r.round_seqs.append(rd["seq"])
            for x in mine:
                r.actual -= x.get("net", 0)
                w = _wager(x["wager"])
                if x["wager"] not in NOT_WAGERED and x["stake"]:      # envy is paid on no stake (000(r))
                    r.wagered += x["stake"]
                    r.by_wager[w] = r.by_wager.get(w, 0) + x["stake"]
                kind = wager_type(w, rd["banking"])
                if kind is None:
                    continue             # nobody's action of the house's (002 TYPE OF GAME)
                priced = expectation(rd["profile"], kind, x["stake"], 1) if kind not in NOT_PRICED else None
                if priced is None:
                    r.unpriced += x["stake"]
                else:
                    r.expected += priced
                    if kind in MIRRORED:
                        h = r.house.setdefault(kind, [0, Expectation(), 0])
                        h[0] -= x.get("net", 0)
                        h[1] += priced
                        h[2] += x["stake"]


def ratings(conn, start: datetime | None, end: datetime | None, table: str | None = None) -> list[Rating]:
    """The ratings with a stay in ``[start, end)`` (of ``table`` if given), oldest first, with
    the rounds of that period."""
    s = start.isoformat() if start else None
    e = end.isoformat() if end else None
    found = ratings_of(rating_rows.rating_events(conn, e))
    chosen = [r for r in found.values() if (table is None or r.table == table)
              and (start is None or any(x.end is None or x.end > start for x in r.stays))]
    if chosen:
        add_rounds(chosen, rating_rows.rounds(conn, s, e, table))
    return chosen


def read_ratings(db: Path | str, start: datetime | None, end: datetime | None, table: str | None = None,
                 verify: bool = True):
    """``ratings`` read-only from the database at ``db`` (app/store/reading.py); with ``verify``
    the log is checked first and read in the snapshot checked, as the hold and the shift report
    are (app/store/figures_check.py): (ratings, what the check found, or None unverified)."""
    from app.store.figures_check import checked
    from app.store.reading import log_meta

    def work(conn, _access):
        log_meta(conn, Path(db))
        return ratings(conn, start, end, table)

    if not verify:
        return read_db(Path(db), work)[0], None
    verified, found = checked(db, work)
    return found, verified


# the CSV export's columns (``pitdesk ratings --csv``, the Ratings view's export), money in cents
RATING_CSV = ("rating", "player", "name", "bettor", "table", "seat", "started", "ended", "rounds", "minutes",
              "wagered", "average_wager", "actual", "theoretical", "unpriced")
PLAYER_CSV = ("player", "name", "sessions", "tables", "rounds", "minutes", "wagered", "average_wager", "actual",
              "theoretical", "unpriced")


def csv_text(lines: list[dict], keys: tuple[str, ...], first: str = "") -> str:
    """``lines`` (each a sitting's or a player's ``as_json``) as CSV, ``keys`` its columns: a list
    joined by '; ', None empty; ``first``: a line before the heading (NOT VERIFIED)."""
    import csv
    import io
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    if first:
        w.writerow([first])
    w.writerow(keys)
    for line in lines:
        w.writerow(["; ".join(v) if isinstance(v, list) else "" if v is None else str(v)
                    for v in (line[k] for k in keys)])
    return buf.getvalue()
