"""An audit log written behind: appends are queued and committed ``limit`` at a time, for a
single writer that logs many rows quickly (the simulated shift, app/simulate).

``WriteBehind`` offers what the store's services need of an ``AuditLog`` (``append_many``,
``query``, ``projector``); an append answers at once with the sequence numbers its rows will get,
and a read commits what is queued first. The numbers are exact only while nobody else writes to
the log: a batch that lands elsewhere stops the writer.
"""

from __future__ import annotations

from collections.abc import Iterable

from .log import AuditLog, Record, StoreError


class WriteBehind:
    def __init__(self, log: AuditLog, limit: int = 500):
        self.log = log
        self.limit = limit
        self.pending: list[Record] = []

    def append_many(self, records: Iterable[Record]) -> list[int]:
        records = list(records)
        first = self.log.seq + len(self.pending) + 1
        self.pending.extend(records)
        if len(self.pending) >= self.limit:
            self.flush()
        return list(range(first, first + len(records)))

    def flush(self) -> None:
        if self.pending:
            batch, self.pending = self.pending, []
            expected = self.log.seq + 1
            seqs = self.log.append_many(batch)
            if seqs[0] != expected:  # pragma: no cover - another writer on the same log
                raise StoreError(f"the log gave row {seqs[0]}, expected {expected}: another writer?")

    def query(self, sql: str, params: tuple = ()) -> list[dict]:
        self.flush()
        return self.log.query(sql, params)

    def rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        self.flush()
        return self.log.rows(sql, params)

    @property
    def key(self) -> bytes:
        return self.log.key

    @property
    def projector(self):
        self.flush()
        return self.log.projector
