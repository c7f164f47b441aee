"""The decisions desk: what a supervisor decides and what the people at the table record.

An alarm acknowledged with its reason (with the engine's ``acknowledged`` of the irregularity it
stands for, 000(n)); an approval request approved or denied (a denial of a round's request sends
the round back, the rounds desk); a procedure event recorded at a table, as the procedures allow
it (docs/table-events.md); a shift report logged as printed, or as failed, with its number; a
note about the log itself.
"""

from __future__ import annotations

from app.engine import words
from app.engine.procedure import Event, Refused as EngineRefused, apply
from app.engine.roles import APPROVER_LEVEL, AT_THE_TABLE, PEOPLE, SUPERVISORS, a_or_an
from app.store import approvals, rows, settled_rounds
from app.store.approvals import DECISIONS, ApprovalError, Approvals
from app.store.log import StoreStopped
from app.store.users import Session

from ..changes import Changes, changes
from ..errors import LogStopped, NotPermitted, Refused


class Decisions:
    def __init__(self, ws):
        self.ws = ws
        self._approvals = Approvals(ws.log)

    def acknowledge_alarm(self, alarm_id: int, reason: str, signer: tuple[str, str] | None = None) -> Changes:
        """A floor supervisor or pit manager acknowledges an alarm, saying why; logged with who and
        when (``alarm_acknowledged``), together with the engine's ``acknowledged`` of the
        irregularity it stands for. ``Refused``: no such alarm, already acknowledged, no reason.
        ``signer``: the (name, PIN) typed, as ``decide`` takes it: another supervisor's
        counter-signs this one acknowledgement (both rows name them), the session untouched."""
        with self.ws.lock:
            s, now = self.ws.require(SUPERVISORS, "acknowledge an alarm")
            second = self.ws.people.countersigner(s, signer, SUPERVISORS, "acknowledge an alarm")
            records, table = self.ws.book.acknowledgement(alarm_id, s.name, s.role, reason, now, self.ws.state_of)
            return (self.ws.write(rows.countersigned(records, second))
                    | changes(tables=[table] if table else [], alarms=[alarm_id]))

    def decide(self, request: int, decision: str, reason: str = "", signer: tuple[str, str] | None = None) -> Changes:
        """Approve (``approved``) or deny (``denied``) a pending request as the signed-in floor
        supervisor or pit manager (a pit manager's request needs a pit manager). A denial needs a
        reason; an approval without one records the rule it was approved under. A request is
        decided once: a second decision is ``Refused``.

        ``signer``: the (name, PIN) typed with the decision. The signed-in person's own: their PIN
        confirmed. Another person's: a counter-signature, that person's PIN checked as a sign-in
        checks it (a wrong one logged and counted toward the lockout), their role authorising this
        one decision; the row names them and their role, and the session stays the signed-in
        person's. ``SignInRefused``: the PIN refused, nothing decided."""
        with self.ws.lock:
            s, now = self.ws.require(SUPERVISORS, "approve or deny a request")
            if decision not in DECISIONS:
                raise Refused(f"a decision is 'approved' or 'denied', got {decision!r}")
            req = approvals.request_row(self.ws.log, request)
            if req is None:
                raise Refused(f"no approval request {request}")
            if req["status"] != "pending":
                raise Refused(f"request {request} ({words.kind(req['kind'])}) was already {req['status']} by "
                              f"{req['decided_by']} at {words.when(req['decided'])}")
            reason = (reason or "").strip()
            if not reason and decision == "denied":
                raise Refused(f"a denial records its reason: say why request {request} is denied")
            second = self.ws.people.confirm(*signer) if signer is not None else None
            if second is not None and second.name == s.name:
                second = None                   # their own PIN, confirmed
            if second is not None and second.role not in APPROVER_LEVEL:
                raise NotPermitted(f"{second.name} is {a_or_an(second.role)}: a counter-signature is a floor "
                                   "supervisor's or a pit manager's")
            signers = [s] + ([second] if second is not None else [])
            if max(APPROVER_LEVEL[x.role] for x in signers) < APPROVER_LEVEL[req["role_needed"]]:
                raise NotPermitted(f"request {request} ({words.kind(req['kind'])}) needs "
                                   f"{a_or_an(req['role_needed'])}; "
                                   + " and ".join(f"{x.name} is {a_or_an(x.role)}" for x in signers)
                                   + ("" if second else f": {a_or_an(req['role_needed'])} counter-signs it with "
                                      "their name and PIN"))
            reason = reason or f"approved under {req['rule']}"
            try:
                self._approvals.decide(Session(s.name, s.role), request, decision, reason, now,
                                       Session(second.name, second.role) if second else None)
            except ApprovalError as e:
                raise Refused(str(e)) from None
            except StoreStopped as e:
                raise LogStopped(str(e)) from None
            changed = self.ws.journal.changes() | changes(approvals=[request],
                                                          tables=[req["table_id"]] if req["table_id"] else [])
            settlement = settled_rounds.settlement_of_request(self.ws.log, request)
            if settlement is not None:
                changed |= changes(rounds=[req["table_id"]])
                if decision == "denied":
                    self.ws.rounds.denied(request, settlement)
            return changed

    def record(self, table: str, type_: str, data: dict | None = None) -> Changes:
        """Record a procedure event at ``table`` as the signed-in dealer, floor supervisor or pit
        manager (docs/table-events.md: ``record("T1", "player_seated", {"seat": 3})``). The
        procedures decide: ``Refused`` with their reason, nothing written. An irregularity that
        needs a supervisor raises its alarm in the same append."""
        with self.ws.lock:
            s, now = self.ws.require(AT_THE_TABLE, "record a table event")
            self.ws.check_table(table)
            if type_ == "acknowledged":
                raise Refused("an irregularity is acknowledged through its alarm (acknowledge_alarm), which records "
                              "the reason")
            state, rules = self.ws.state_of(table)
            # the table's events keep their order: an event is never before the last one logged
            # (devices stamp their arrival on other threads, as app/workstation/pit.py allows for)
            event = Event(type_, max(now, state.last_time or now), s.name, s.role, dict(data or {}))
            try:
                new = apply(state, event, rules)
            except EngineRefused as e:
                raise Refused(f"table {table}: {words.refusal(str(e))}") from None
            # a table closed ends the ratings of those still at it (its seats are empty: issue 36)
            ended = [rows.rating_ended(event.time, s.name, s.role, table, r.rating)
                     for r in self.ws.ratings.open_at(table)] if type_ == "table_closed" else []
            return self.ws.write([rows.procedure_event(table, event),
                                  *self.ws.book.irregularity_alarms(table, new, now), *ended]) | changes(tables=[table])

    def log_note(self, text: str) -> Changes:
        """A note in the log, by whoever is signed in, about the log itself (``note`` {text}): a
        simulated shift says so there (app/simulate/shift.py). ``Refused``: a note with nothing in it."""
        with self.ws.lock:
            s, now = self.ws.require(PEOPLE, "write a note in the log")
            try:
                row = rows.note(now, s.name, s.role, text)
            except rows.RowError as e:
                raise Refused(str(e)) from None
            return self.ws.write([row])

    def number_report(self, report):
        """Give ``report`` the number it will be logged with, COPY if a report of its shift printed
        before said the same (``copy_of``), and the signed-in supervisor who prints it, before it is
        made: it is logged as printed only once it is made (``log_report_printed(..., number=...)``,
        issue 26)."""
        from ..shift_figures import number_report
        with self.ws.lock:
            s, now = self.ws.require(SUPERVISORS, "print a shift report")
            return number_report(self.ws.log.path, report, s.name, now)

    def log_report_printed(self, report, where: str, number: int | None = None) -> Changes:
        """The signed-in supervisor prints ``report``: it is logged with its own number, COPY if
        a report of its shift printed before said the same (the report gets both). Refused without
        a sign-in. With ``number`` (the report made with what ``number_report`` gave it): ``NumberTaken`` if another
        workstation logged that number meanwhile, Refused if another person signed in meanwhile."""
        from ..shift_figures import log_printed
        with self.ws.lock:
            s, now = self.ws.require(SUPERVISORS, "print a shift report")
            if number is not None and s.name != report.printed_by:
                raise Refused(f"report No. {number} was made for {report.printed_by}; {s.name} is signed in now")
            try:
                log_printed(self.ws.log, report, where, s.name, s.role, now, number=number)
            except StoreStopped as e:
                raise LogStopped(str(e)) from None
            return self.ws.journal.changes()

    def log_report_failed(self, report, where: str, reason: str) -> Changes:
        """A numbered report that did not reach its paper or file: the gap in the numbers explained."""
        from ..shift_figures import log_failed
        with self.ws.lock:
            s, now = self.ws.require(SUPERVISORS, "print a shift report")
            log_failed(self.ws.log, report, where, s.name, s.role, now, reason)
            return self.ws.journal.changes()
