"""The floor: each table's procedures and settlements, through the engine, into the log.

Data flows one way: an event (from a device or a person) goes to the engine, which accepts or
refuses it; only an accepted event is logged, and the table's state changes only after the
log has acknowledged it. Settlements are logged whole, and each approval the engine asks for
becomes an approval request.
"""

from __future__ import annotations

from datetime import datetime

from app.engine.procedure import Event, TableState, apply
from app.engine.settle import Settlement

from . import rows
from .approvals import Approvals
from .log import AuditLog
from .read_models import _profile


class FloorError(ValueError):
    pass


class Floor:
    def __init__(self, log: AuditLog):
        self.log = log
        self.approvals = Approvals(log)

    def tables(self) -> dict[str, str]:
        return {r["table_id"]: r["profile"] for r in self.log.query("SELECT * FROM tables ORDER BY table_id")}

    def state(self, table: str) -> TableState:
        return self.states((table,))[table]

    def states(self, tables) -> dict[str, TableState]:
        """The engine state of each of ``tables``, from one look at the log (each look catches
        up with rows another process appended, under the writer's lock)."""
        projector = self.log.projector
        missing = [t for t in tables if t not in projector.profiles]
        if missing:
            raise FloorError(f"no table {missing[0]!r}; configure it first")
        return {t: projector.states[t] for t in tables}

    def configure(self, table: str, profile: str, now: datetime, actor: str, role: str) -> int:
        _profile(profile)  # a bad profile name fails here, naming it, before anything is logged
        if table in self.log.projector.profiles and self.state(table).state != "closed":
            raise FloorError(f"table {table} is open; close it before changing its rule profile")
        return self.log.append_many([rows.table_configured(now, actor, role, table, profile)])[0]

    def record(self, table: str, event: Event) -> int:
        """Log ``event`` for ``table`` if the procedures allow it (else ``Refused``, nothing logged)."""
        rules = self.log.projector.profiles.get(table)
        if rules is None:
            raise FloorError(f"no table {table!r}; configure it first")
        apply(self.state(table), event, rules)  # refuses before anything is written
        return self.log.append_many([rows.procedure_event(table, event)])[0]

    def settle(self, table: str, round_no: int, settlement: Settlement, now: datetime, actor: str,
               role: str, round_file: dict | None = None, replaces: int | None = None,
               merged: dict[int, int] | None = None) -> list[int]:
        """Log the settlement and one approval request per approval it needs, atomically: the
        requests are the rows right after the settlement's, in the order of its approvals.
        ``round_file`` is what was settled (docs/round-format.md), kept beside the settlement;
        ``replaces`` the seq of a settlement of the same round that a denial sent back; ``merged``
        the requests already logged for some of its approvals (app/store/rows.py ``settlement``)."""
        return self.log.append_many(rows.settlement(now, actor, role, table, round_no, settlement, round_file,
                                                    replaces, merged))
