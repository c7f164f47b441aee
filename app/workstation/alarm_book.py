"""Alarms: what is raised, what clears by itself, and what an acknowledgement writes.

Alarms come from three places, all as ``alarm_raised`` rows in the audit log (their seq is the
alarm's id):

- the devices, through the mapping (app/devices/mapping.py): a miscount, a door open, a link
  offline, a progressive hit ...;
- the clocks: a deck or the dice past their deadline (``deck_overdue``, ``dice_overdue``; 000(e)(5),
  003 NEW CARDS IN PLAY 1, 000(d)(1)(ii)), logged once per deck or set of dice;
- the procedures: an irregularity that needs a supervisor's acknowledgement before the next
  round (``irregularity``, 000(n); the engine refuses no_more_bets meanwhile). When a device alarm
  of the same kind already reports it (the shuffler's ``deck_count_wrong``), no second alarm is
  raised, and acknowledging the device alarm acknowledges the irregularity too.

An alarm whose condition goes away by itself gets an ``alarm_cleared`` row (the link back online,
the door closed, the overdue deck removed, new dice placed) and still waits for a supervisor's
acknowledgement: an ``alarm_acknowledged`` row with who, when and why, written in the same
transaction as the engine's ``acknowledged`` event of the irregularity it stands for.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from app.engine import words
from app.engine.procedure import IRREGULARITIES, Event, Refused as EngineRefused, TableState, apply
from app.engine.profile import RuleProfile
from app.engine.roles import SYSTEM
from app.store import alarm_log, rows
from app.store.log import AuditLog, Logged, Record
from app.store.rows import RowError

from .clocks import Watch
from .errors import Refused
from .readouts import AlarmInfo

# the irregularity kinds the engine records besides IRREGULARITIES (a wrong count, a misdeal)
ENGINE_KINDS = frozenset(IRREGULARITIES) | {"deck_count_wrong", "misdeal"}


@dataclass
class _Alarm:
    """What the book keeps of an alarm that is open or may still clear by itself."""
    id: int
    table: str | None
    kind: str
    data: dict
    acknowledged: bool = False
    cleared: bool = False

    @property
    def clears(self) -> bool:
        return self.kind.endswith(("_offline", "_door_open")) or self.kind in ("deck_overdue", "dice_overdue", "shipping_lag")

    @property
    def live(self) -> bool:
        return not self.acknowledged or (self.clears and not self.cleared)


class AlarmBook:
    """The open alarms in memory, kept current from the rows the log hands the workstation
    (``fold``), to decide what it raises and clears by itself without a query per pump."""

    def __init__(self, log: AuditLog):
        self.log = log
        self.alarms: dict[int, _Alarm] = {}            # open, or may still clear
        self.overdue: set[tuple] = set()               # (table, "deck", deck, received) / (table, "dice", placed)
        self.pending: list[_Alarm] = []                # raised in rows not yet written
        self.load()

    # -- keeping up with the log -----------------------------------------------------------
    def load(self) -> None:
        """Every alarm row of the log (at start, or again after a failed append)."""
        self.alarms, self.overdue, self.pending = {}, set(), []
        self.fold(alarm_log.every_row(self.log))

    def forget_pending(self) -> None:
        """The rows that raised the pending alarms were not written (the log stopped)."""
        self.pending = []

    def fold(self, logged: list[Logged]) -> None:
        """Fold logged rows (any type, in order) into the book."""
        for r in logged:
            if r.type not in alarm_log.ALARM_ROWS:
                continue
            data = r.data
            if r.type == "alarm_raised":
                a = _Alarm(r.seq, r.table, data["kind"], data)
                self.alarms[a.id] = a
                key = _overdue_key(r.table, data)
                if key:
                    self.overdue.add(key)
            else:
                a = self.alarms.get(data.get("alarm"))
                if a is None:
                    continue
                if r.type == "alarm_acknowledged":
                    a.acknowledged = True
                else:
                    a.cleared = True
            if not a.live:
                del self.alarms[a.id]
        self.pending = []   # written now, and folded in above

    # -- what the workstation writes by itself --------------------------------------------------
    def automatic(self, now: datetime, tables: dict[str, tuple[TableState, RuleProfile]],
                  links: dict[str, str], doors: dict[str, bool], watches: dict[str, Watch]) -> list[Record]:
        """Rows for the state as it stands: overdue decks and dice (once each), alarms for
        irregularities no alarm reports yet, and clearings. ``links`` is serial -> link state,
        ``doors`` serial -> its door open as last reported; ``watches`` the tables' clocks now
        (app/workstation/clocks.py, ``ClockWatch``)."""
        out: list[Record] = []
        for table, (state, rules) in tables.items():
            out += self._overdue(table, watches[table], now)
            out += self.irregularity_alarms(table, state, now)
        for a in list(self.alarms.values()):
            if a.cleared or not a.clears:
                continue
            how = self._cleared_how(a, tables, links, doors)
            if how:
                a.cleared = True   # written with this batch (load() works it out again if the append fails)
                out.append(rows.alarm_cleared(now, a.table, a.id, a.kind, how, a.data.get("serial") or SYSTEM))
        return out

    def _overdue(self, table: str, watch: Watch, now: datetime) -> list[Record]:
        out = []
        for c in watch.overdue_decks:
            key = (table, "deck", c.deck, c.received.isoformat())
            if key not in self.overdue:
                self.overdue.add(key)
                out.append(rows.alarm_raised(
                    now, table, "deck_overdue", f"deck {c.deck!r} was due for change at {c.due:%Y-%m-%d %H:%M} "
                    f"({c.rule}); no round starts with it until it is replaced", c.rule, deck=c.deck,
                    received=c.received.isoformat(), due=c.due.isoformat()))
        dice = watch.overdue_dice
        if dice is not None:
            key = (table, "dice", dice.placed.isoformat())
            if key not in self.overdue:
                self.overdue.add(key)
                out.append(rows.alarm_raised(
                    now, table, "dice_overdue", f"the dice were due to leave the table at {dice.due:%Y-%m-%d %H:%M} "
                    f"({dice.rule}); no position is counted with them until new dice are placed", dice.rule,
                    placed=dice.placed.isoformat(), due=dice.due.isoformat()))
        return out

    def irregularity_alarms(self, table: str, state: TableState, now: datetime) -> list[Record]:
        """An alarm for each irregularity waiting for a supervisor that no alarm reports yet."""
        out = []
        for irr in state.pending_acks():
            covered = any(a.table == table and ((a.kind == "irregularity" and a.data.get("ref") == irr.ref)
                                                or (a.kind == irr.kind and not a.acknowledged))
                          for a in [*self.alarms.values(), *self.pending])
            if covered:
                continue
            what = irr.kind.replace("_", " ")
            row = rows.alarm_raised(now, table, "irregularity", f"irregularity {irr.ref}, {what}: {irr.consequence}; "
                                    "a supervisor acknowledges it before the next round", irr.rule,
                                    irregularity=irr.kind, ref=irr.ref)
            # held until the row is observed, so that the same pass does not raise it twice
            self.pending.append(_Alarm(0, table, "irregularity", row.data))
            out.append(row)
        return out

    def _cleared_how(self, a: _Alarm, tables, links, doors) -> str:
        serial = a.data.get("serial") or ""
        if a.kind.endswith("_offline") and serial and links.get(serial) == "online":
            return f"the {a.kind.removesuffix('_offline')} is back online"
        if a.kind.endswith("_door_open") and serial and doors.get(serial) is False:
            return "the door was closed"
        state = tables.get(a.table, (None,))[0]
        if state is None:
            return ""
        if a.kind == "deck_overdue":
            deck = state.decks.get(a.data.get("deck"))
            if deck is None or deck.received.isoformat() != a.data.get("received"):
                return f"deck {a.data.get('deck')!r} was removed from the table"
        if a.kind == "dice_overdue":
            if state.dice_placed is not None and state.dice_placed.isoformat() != a.data.get("placed"):
                return "new dice were placed"
        return ""

    # -- acknowledging ---------------------------------------------------------------------
    def acknowledgement(self, alarm_id: int, name: str, role: str, reason: str, now: datetime,
                        state_of) -> tuple[list[Record], str | None]:
        """The rows that acknowledge ``alarm_id`` (and the irregularities it stands for) and its
        table; ``Refused`` naming why not. ``state_of(table)`` gives (state, rules)."""
        a = alarm_log.alarm(self.log, alarm_id)
        if a is None:
            raise Refused(f"no alarm {alarm_id}")
        if a["acknowledged_by"]:
            why = alarm_log.acknowledged_why(self.log, alarm_id)
            said = f": {why}" if why else ""
            raise Refused(f"alarm {alarm_id} ({words.kind(a['kind'])}) was already acknowledged by "
                          f"{a['acknowledged_by']} at {words.when(a['acknowledged'])}{said}")
        table, data = a["table_id"], a["data"]
        try:
            records = [rows.alarm_acknowledged(now, name, role, table, alarm_id, a["kind"], reason)]
        except RowError as e:
            raise Refused(str(e)) from None
        if table is not None:
            state, rules = state_of(table)
            for ref in self.stands_for(a["kind"], data, state):
                row = rows.acknowledged(max(now, state.last_time or now), name, role, table, ref)
                try:
                    state = apply(state, Event(row.type, row.time, row.actor, row.role, row.data), rules)
                except EngineRefused as e:
                    raise Refused(f"alarm {alarm_id}: {words.refusal(str(e))}") from None
                records.append(row)
        return records, table

    @staticmethod
    def stands_for(kind: str, data: dict, state: TableState) -> list[int]:
        """The refs of the pending irregularities an alarm stands for: its own, or those of the
        same kind a device alarm reports."""
        pending = state.pending_acks()
        if kind == "irregularity":
            return [i.ref for i in pending if i.ref == data.get("ref")]
        if kind in ENGINE_KINDS:
            return [i.ref for i in pending if i.kind == kind]
        return []

    # -- reading -------------------------------------------------------------------------------
    def list(self, open_only: bool = True, table: str | None = None) -> tuple[AlarmInfo, ...]:
        out = []
        for r in alarm_log.listing(self.log, open_only, table):
            data, ack, clr = r["data"], r["ack"], r["cleared"]
            out.append(AlarmInfo(
                r["seq"], r["table_id"], r["kind"], r["message"], data.get("rule", ""), data.get("serial", ""),
                datetime.fromisoformat(r["raised"]), datetime.fromisoformat(clr["time"]) if clr else None,
                clr["how"] if clr else "", datetime.fromisoformat(r["acknowledged"]) if r["acknowledged"] else None,
                r["acknowledged_by"], ack["role"] if ack else None, ack["reason"] if ack else None,
                data.get("ref"), r["countersigned_by"], r["countersigned_role"]))
        return tuple(out)

    def open_counts(self) -> dict[str | None, int]:
        return alarm_log.open_counts(self.log)


def _overdue_key(table: str | None, data: dict) -> tuple | None:
    if data.get("kind") == "deck_overdue":
        return (table, "deck", data.get("deck"), data.get("received"))
    if data.get("kind") == "dice_overdue":
        return (table, "dice", data.get("placed"))
    return None
