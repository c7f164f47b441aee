"""Issue 35, finding 1 on the casino's server: a floor report or ``hold --pg`` is made only from
chains that pass the server's check (``pitdesk floor verify``, app/store/pg/floor_check.py). The
check's verdict says the first workstation that fails, its row and the kind; with ``--unverified``
the report is made all the same, marked NOT VERIFIED on every page and recorded as such in
pitdesk.floor_reports (migration 6: ``verified`` and ``finding``)."""

from __future__ import annotations

from dataclasses import dataclass

import psycopg

from app.store.verify import Finding

from .floor_check import verify_floor


@dataclass(frozen=True)
class ServerVerified:
    """What the server's check of every chain found: ``finding`` None when all passed."""

    workstation: str | None          # the first workstation whose chain fails (in id order)
    finding: Finding | None
    workstations: int
    # each chain's (workstation, head seq, head hash, the row its walk began after), to remember
    # once the figures' own check has passed too (app/store/pg/chain_marks.py)
    walked: tuple = ()

    @property
    def ok(self) -> bool:
        return self.finding is None

    def words(self) -> str:
        if self.finding is None:
            return f"every chain the server holds passed its check ({self.workstations} workstations)"
        if self.finding.kind == "read model":   # the sums the server keeps (app/store/pg/floor_money.py)
            return f"workstation {self.workstation}'s money read models on the server: {self.finding}"
        return f"workstation {self.workstation}'s chain on the server: {self.finding}"

    def as_json(self) -> dict:
        f = self.finding
        return {"ok": self.ok, "workstations": self.workstations,
                "finding": None if f is None else {"workstation": self.workstation, "seq": f.seq, "kind": f.kind,
                                                   "detail": f.detail}}


def check_server(url: str, incremental: bool = False) -> ServerVerified:
    """The server's check of every chain it holds (the seals are not checked: their keys never go
    to the server); the first that fails. ``incremental``: each chain from the row the last check
    that passed remembers (app/store/pg/chain_marks.py)."""
    held = verify_floor(url, incremental=incremental)
    bad = next((h for h in held if not h.ok), None)
    return ServerVerified(bad.workstation if bad else None, bad.finding if bad else None, len(held),
                          tuple((h.workstation, h.head[0], h.head[1], h.since) for h in held))


_V5 = """
ALTER TABLE pitdesk.floor_reports ADD COLUMN verified boolean NOT NULL DEFAULT true,
                                  ADD COLUMN finding text;
COMMENT ON COLUMN pitdesk.floor_reports.verified IS
    'false: made with --unverified from chains that failed the server''s check, printed NOT VERIFIED';
COMMENT ON COLUMN pitdesk.floor_reports.finding IS 'what the server''s check found (workstation, row, kind)';
"""


def migrate_v6(conn: psycopg.Connection) -> None:
    """Issue 35, finding 1: each floor report recorded as verified or not, with what the check
    found. Those recorded before were made without the check: they stay ``verified`` (the default)."""
    conn.execute(_V5)
