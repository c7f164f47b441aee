"""The ratings desk: a rated player sits down, moves seat and stands up; a supervisor corrects a
rating and says why (issue 36, docs/ratings.md; the figures: app/workstation/ratings.py).

A rated player at an empty seat sits down there in the same append (``player_seated``, as the
procedures allow it, 000(f)(4)(i)); one who stands up leaves it (``player_left``), and a move is
both. A bettor on another player's circle (003 PLAYERS WAGERING ON ANOTHER PLAYER'S HAND) is
rated by the name the round file gives them, and takes no seat. One card is rated at one place at
a time, and a seat has one rated player of its own.
"""

from __future__ import annotations

from datetime import datetime

from app.engine import words
from app.engine.players import table_seats
from app.engine.procedure import Event, Refused as EngineRefused, apply
from app.engine.roles import AT_THE_TABLE, SUPERVISORS
from app.store import rating_rows, rows

from ..changes import Changes, changes
from ..errors import Refused
from ..ratings import Rating, ratings_of


class Ratings:
    def __init__(self, ws):
        self.ws = ws

    def _all(self) -> dict[int, Rating]:
        return ratings_of(self.ws.log.read(rating_rows.rating_events))

    def open_ratings(self, table: str | None = None) -> list[Rating]:
        """The ratings still open (at ``table`` if given), oldest first, without their rounds."""
        with self.ws.reading():
            return self.open_at(table)

    def open_at(self, table: str | None) -> list[Rating]:
        """``open_ratings`` for a caller that holds the workstation already."""
        return [r for r in self._all().values() if r.open and (table is None or r.table == table)]

    def _rating(self, rating: int) -> Rating:
        r = self._all().get(rating)
        if r is None:
            raise Refused(f"no rating {rating}")
        return r

    def _seat_event(self, table: str, type_: str, seat: int, s, now: datetime, state, rules, **more):
        """``player_seated`` or ``player_left`` as the procedures take it; the state after it."""
        event = Event(type_, max(now, state.last_time or now), s.name, s.role, {"seat": seat, **more})
        try:
            return rows.procedure_event(table, event), apply(state, event, rules)
        except EngineRefused as e:
            raise Refused(f"table {table}: {words.refusal(str(e))}") from None

    def sit_down(self, table: str, seat: int, card: str, name: str = "", bettor: str = "") -> Changes:
        """Rate the player with ``card`` at ``seat`` from now (as ``bettor`` on its circle, 003)."""
        with self.ws.lock:
            s, now = self.ws.require(AT_THE_TABLE, "rate a player")
            self.ws.check_table(table)
            state, rules = self.ws.state_of(table)
            if seat not in table_seats(rules):
                raise Refused(f"table {table}: a seat is one of {', '.join(map(str, table_seats(rules)))}, "
                              f"got {seat!r}")
            fault = rows.card_fault(card)
            if fault:
                raise Refused(fault)
            for r in self._all().values():
                if r.open and r.card == card:
                    raise Refused(f"card {card} is rated at {r.table} seat {r.seat} already (rating {r.rating}): "
                                  "stand them up there first")
                if r.open and r.table == table and r.seat == seat and r.bettor == (bettor or "").strip():
                    who = f"bettor {r.bettor}" if r.bettor else "a rated player"
                    raise Refused(f"table {table} seat {seat} has {who} already: card {r.card} (rating {r.rating})")
            records = []
            if bettor and bettor.strip():
                if rules.bettors_per_circle <= 1:
                    raise Refused(f"table {table}: its rules ({rules.rule_text}) have no bettors on another player's "
                                  "circle; rate the player at a seat of their own")
                if seat not in state.seated:
                    raise Refused(f"table {table}: a bettor wagers on a seated player's circle (003 PLAYERS "
                                  f"WAGERING ON ANOTHER PLAYER'S HAND); seat {seat} is empty")
            elif seat not in state.seated:
                row, _ = self._seat_event(table, "player_seated", seat, s, now, state, rules,
                                          player=(name or "").strip() or card)
                records.append(row)
            try:
                records.append(rows.rating_started(now, s.name, s.role, table, seat, card, name, bettor))
            except rows.RowError as e:
                raise Refused(str(e)) from None
            return self.ws.write(records) | changes(tables=[table])

    def stand_up(self, rating: int) -> Changes:
        """The rated player leaves: the rating ends now, and their seat is free (a bettor's stays)."""
        with self.ws.lock:
            s, now = self.ws.require(AT_THE_TABLE, "end a rating")
            r = self._rating(rating)
            if not r.open:
                raise Refused(f"rating {rating} (card {r.card}) ended at {r.ended:%H:%M:%S} already")
            records = []
            if not r.bettor:
                state, rules = self.ws.state_of(r.table)
                if r.seat in state.seated:
                    row, _ = self._seat_event(r.table, "player_left", r.seat, s, now, state, rules)
                    records.append(row)
            records.append(rows.rating_ended(now, s.name, s.role, r.table, rating))
            return self.ws.write(records) | changes(tables=[r.table])

    def move(self, rating: int, seat: int) -> Changes:
        """The rated player moves to ``seat`` at the same table; the rating goes on."""
        with self.ws.lock:
            s, now = self.ws.require(AT_THE_TABLE, "move a rated player")
            r = self._rating(rating)
            if not r.open:
                raise Refused(f"rating {rating} (card {r.card}) has ended: rate the player again at the new seat")
            state, rules = self.ws.state_of(r.table)
            if seat not in table_seats(rules):
                raise Refused(f"table {r.table}: a seat is one of {', '.join(map(str, table_seats(rules)))}, "
                              f"got {seat!r}")
            if seat == r.seat:
                raise Refused(f"rating {rating} (card {r.card}) is at seat {seat} already")
            for other in self._all().values():
                if other.open and other.table == r.table and other.seat == seat and other.bettor == r.bettor:
                    raise Refused(f"table {r.table} seat {seat} has a rated player already: card {other.card} "
                                  f"(rating {other.rating})")
            records = []
            if r.bettor:
                if seat not in state.seated:
                    raise Refused(f"table {r.table}: a bettor wagers on a seated player's circle; seat {seat} is empty")
            else:
                if seat in state.seated:
                    raise Refused(f"table {r.table}: seat {seat} is occupied")
                if r.seat in state.seated:
                    row, state = self._seat_event(r.table, "player_left", r.seat, s, now, state, rules)
                    records.append(row)
                row, _ = self._seat_event(r.table, "player_seated", seat, s, now, state, rules,
                                          player=r.name or r.card)
                records.append(row)
            try:
                records.append(rows.rating_moved(now, s.name, s.role, r.table, rating, seat))
            except rows.RowError as e:
                raise Refused(str(e)) from None
            return self.ws.write(records) | changes(tables=[r.table])

    def correct(self, rating: int, field: str, value, why: str) -> Changes:
        """A supervisor corrects ``rating``'s card, name, start or end (``value``: the card or name
        as text, a time as a ``datetime``), and says why; logged with what it was."""
        with self.ws.lock:
            s, now = self.ws.require(SUPERVISORS, "correct a rating")
            r = self._rating(rating)
            was = {"card": r.card, "name": r.name, "started": r.started.isoformat(timespec="seconds"),
                   "ended": r.ended.isoformat(timespec="seconds") if r.ended else None}.get(field)
            if field in ("started", "ended"):
                if not isinstance(value, datetime):
                    raise Refused(f"a rating's {field} is a time, got {value!r}")
                if value > now:
                    raise Refused(f"a rating's {field} cannot be after now ({now:%Y-%m-%d %H:%M:%S})")
                if field == "started" and value >= (r.stays[0].end or now):
                    raise Refused(f"rating {rating} started at seat {r.stays[0].seat}, which it left or holds "
                                  f"until {(r.stays[0].end or now):%H:%M:%S}: a start must be before that")
                if field == "ended":
                    if r.open:
                        raise Refused(f"rating {rating} is still open: stand the player up to end it")
                    if value <= r.stays[-1].start:
                        raise Refused(f"rating {rating} sat at seat {r.seat} from {r.stays[-1].start:%H:%M:%S}: "
                                      "an end must be after that")
                value = value.isoformat(timespec="seconds")
            elif field == "card":
                for other in self._all().values():
                    if other.open and other.card == value and other.rating != rating:
                        raise Refused(f"card {value} is rated at {other.table} seat {other.seat} (rating "
                                      f"{other.rating})")
            try:
                row = rows.rating_corrected(now, s.name, s.role, r.table, rating, field, was, value, why)
            except rows.RowError as e:
                raise Refused(str(e)) from None
            return self.ws.write([row]) | changes(tables=[r.table])

    def listing(self, scope: str, table: str | None = None, now: datetime | None = None) -> dict:
        """What the Ratings view shows (a read): ``scope`` ``seated`` (the ratings open now, each
        over its whole sitting), ``shift`` or ``last_shift`` (the ratings of that shift, their
        figures within it); each sitting (``Rating.as_json``) and each player (their sittings
        added, ``Player.as_json``), and the period in words."""
        from ..ratings import by_player, ratings
        now = now or self.ws.clock()
        with self.ws.reading():
            if scope == "seated":
                open_ = self.open_at(table)
                start = min((r.started for r in open_), default=now)
                found = [r for r in self.ws.log.read(lambda conn: ratings(conn, start, None, table)) if r.open]
                period, end, words = (None, None), None, "seated now"
            elif scope in ("shift", "last_shift"):
                shift = self.ws.shifts.shift_of(now) if scope == "shift" else self.ws.shifts.shifts_back(now, 1)
                start, end = shift.start, shift.end
                found = self.ws.log.read(lambda conn: ratings(conn, start, end, table))
                period, words = (start, end), shift.words
            else:
                raise Refused(f"ratings are listed seated now, this shift or the last shift; not {scope!r}")
        return {"scope": scope, "words": words,
                "sittings": [r.as_json(now, *period) for r in found],
                "players": [p.as_json() for p in by_player(found, now, *period)]}

    def ratings(self, start: datetime | None, end: datetime | None, table: str | None = None) -> list[Rating]:
        """The ratings with a stay in ``[start, end)`` and the rounds of that period (a read)."""
        from ..ratings import ratings
        with self.ws.reading():
            return self.ws.log.read(lambda conn: ratings(conn, start, end, table))
