"""The reads desk: what the views show, as frozen values with every rule applied
(app/workstation/readouts.py): every table's tile, the alarms, the approvals queue, one table in
detail and its history, the progressive controllers, the hold of a period, a shift's report.

Reads hold the workstation's lock (one moment, never half a pump), except the hold and the shift
report, which read the log on a read-only connection of their own and may run on any thread.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from datetime import datetime

from app.store import approvals as approval_store

from .. import detail
from ..progressive_readout import ControllerReadout, readouts
from ..readouts import AlarmInfo, ApprovalInfo, HistoryPage, TableDetail, Tile
from ..money_readout import floor_trays, tray_info
from ..tiles import tile


class Reads:
    def __init__(self, ws):
        self.ws = ws

    def tiles(self, now: datetime | None = None, tables: Iterable[str] | None = None) -> tuple[Tile, ...]:
        """Every table's tile, in the configuration's order, its clocks read at ``now``; only those
        of ``tables`` if given (what a pump changed: the others are as last read)."""
        ws = self.ws
        now = now or ws.clock()
        with ws.reading():
            alarms = ws.book.open_counts()
            pending = approval_store.pending_counts(ws.log)
            links = ws.pit.links()
            states = ws.states()
            if tables is not None:
                wanted = set(tables)
                states = {t: s for t, s in states.items() if t in wanted}
            watches = ws.live.clocks.all(states, now)
            money = floor_trays(ws.log, states)
            paces = ws.pace.paces({t: len(state.seated) for t, (state, _) in states.items()}, now)
        meters = ws.journal.meters
        waits = ws.rounds.waiting(states)
        return tuple(replace(tile(ws.setup(t), ws.positions[t], state, rules, watches[t], links, meters.get(t),
                                  alarms.get(t, 0), pending.get(t, 0), now), waits=waits.get(t, ""),
                             tray=money.get(t), pace=paces.get(t))
                     for t, (state, rules) in states.items())

    def tile(self, table: str, now: datetime | None = None) -> Tile:
        self.ws.check_table(table)
        return self.tiles(now, [table])[0]

    def alarms(self, open_only: bool = True, table: str | None = None) -> tuple[AlarmInfo, ...]:
        """Alarms, newest first: only those waiting for acknowledgement unless ``open_only`` is
        False; of one table if given."""
        with self.ws.reading():
            return self.ws.book.list(open_only, table)

    def approvals(self, pending_only: bool = True, table: str | None = None) -> tuple[ApprovalInfo, ...]:
        """Approval requests, oldest first (the queue): pending only unless ``pending_only`` is False."""
        with self.ws.reading():
            rows = approval_store.listing(self.ws.log, pending_only, table)
        return tuple(ApprovalInfo(r["request"], r["kind"], r["table_id"], r["seat"], r["cents"], r["role_needed"],
                                  r["reason"], r["rule"], datetime.fromisoformat(r["requested"]), r["status"],
                                  r["decided_by"], r["decided_role"], r["decision_reason"],
                                  datetime.fromisoformat(r["decided"]) if r["decided"] else None,
                                  r.get("countersigned_by"), r.get("countersigned_role")) for r in rows)

    def progressive(self, since: datetime | None = None, after: int | Mapping[str, int] = 0,
                    record_from: datetime | None = None, now: datetime | None = None,
                    limit: int | None = None) -> tuple[ControllerReadout, ...]:
        """Every progressive controller (app/workstation/progressive_readout.py): link, lock-out,
        lights against the round's wagers, the meter and its readings logged after seq ``after``
        (or ``after[serial]``) at or after ``since``, at most ``limit`` a controller (a view passes
        each controller's ``last_seq`` next time, and reads again at once while ``more``), the hits
        in the order reported, and the meter's record at each shift's start and end and at every
        reset from ``record_from`` (default: the shift before the one ``now`` is in) to ``now``."""
        ws = self.ws
        now = now or ws.clock()
        record_from = record_from or ws.shifts.shifts_back(now, 1).start
        with ws.reading():
            return readouts(ws.log, ws.meter_book, ws.config.tables, ws.pit.rules, ws.pit.states(), ws.pit.links(),
                            ws.pit.heard, now, since, after, record_from, limit, ws.shifts)

    def table_detail(self, table: str, now: datetime | None = None,
                     history_limit: int = detail.HISTORY_PAGE) -> TableDetail:
        """The table view: positions and who sits there, this round's starting position and deal
        order, the bank and who is offered it next, the decks (colour, count, clock), this round's
        irregularities, and the first page of the table's history (``history`` pages on)."""
        ws = self.ws
        ws.check_table(table)
        now = now or ws.clock()
        with ws.reading():   # one moment of the table: the tile, its state and its log rows
            t = self.tile(table, now)
            state, rules = ws.state_of(table)
            heard = ws.pit.heard[table]
            return TableDetail(t, rules.title, detail.positions(state, rules, detail.players(ws.log, table, state)),
                               state.starting_position, detail.deal_order(state, rules), rules.procedures.delivery,
                               detail.bank(state, rules), detail.decks(t, state, heard.colours, heard.counts),
                               detail.irregularities(ws.log, table, state),
                               detail.history(ws.log, table, None, history_limit),
                               tray_info(ws.log, table, rules, ws.config.chips),
                               ws.pace.shift_hours(table, ws.shifts.shift_of(now).start, now))

    def tray(self, table: str):
        """``table``'s tray in full (app/workstation/money_readout.py ``TrayInfo``): what a money
        dialog offers (the fills and credits to sign or void) when the table page is not shown."""
        ws = self.ws
        ws.check_table(table)
        with ws.reading():
            _, rules = ws.state_of(table)
            return tray_info(ws.log, table, rules, ws.config.chips)

    def tray_slip(self, kind: str, number: int) -> tuple[dict, str]:
        """A fill or credit slip as it is put on paper (app/reports/tray_slip.py): its ``tray_slips``
        row and the citation at its foot, its table's own (the profile's ``tray_slip``; '' for a
        table no longer on the floor). ``Refused`` naming a slip that does not exist."""
        from app.store import trays
        from ..errors import Refused
        if kind not in ("fill", "credit"):
            raise Refused(f"a slip is a fill or a credit, not {kind!r}")
        ws = self.ws
        with ws.reading():
            row = trays.slip(ws.log, kind, number)
            if row is None:
                raise Refused(f"no {kind} slip {number}")
            rule = ws.state_of(row["table_id"])[1].cite("tray_slip") if row["table_id"] in ws.tables() else ""
        return row, rule

    def history(self, table: str, before: int | None = None, limit: int = detail.HISTORY_PAGE) -> HistoryPage:
        """The table's log rows, newest first, ``limit`` at a time (keyset paging on ``before``)."""
        self.ws.check_table(table)
        with self.ws.reading():
            return detail.history(self.ws.log, table, before, limit)

    def hold(self, start: datetime | None = None, end: datetime | None = None, table: str | None = None):
        """The hold per table and wager type and for the pit (app/workstation/hold.py), over
        ``start <= time < end``. It reads the log on a read-only connection of its own, so it may
        run on any thread, away from the one that pumps the links (a shift takes a moment)."""
        from ..hold import read_hold   # the theoretical figures load the analysis only when asked
        return read_hold(self.ws.log.path, start, end, table)

    def protection(self, start: datetime, end: datetime) -> dict:
        """``pitdesk protect --json``'s figures over ``[start, end)`` (app/workstation/protection.py),
        the log checked first as the hold's is: every check, the notices, ``verified``. On a
        read-only connection of its own, so it may run on any thread."""
        from ..protection import as_json, read_checks
        checks, verified = read_checks(self.ws.log.path, start, end, self.ws.shifts)
        return {**as_json(checks, start, end), "verified": verified.as_json() if verified else None}

    def shift_report(self, day, name: str):
        """The report of shift ``name`` starting on ``day`` (app/workstation/shift_figures.py), over
        the floor's tables and the configuration's shifts, not yet numbered. Read on a read-only
        connection of its own, so it may run on any thread (a shift takes a moment)."""
        from ..shift_figures import read_shift_report
        return read_shift_report(self.ws.log.path, day, name, self.ws.shifts, list(self.ws.tables()), self.ws.clock())
