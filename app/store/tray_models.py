"""The pit's money in the read models (issue 34, docs/inventory.md): each table's openers and
closers (``trays``), its fill and credit slips (``tray_slips``), buy-ins, drops, and each
settlement's flow through the tray (``tray_rounds``), folded from the log by the projector
(app/store/read_models.py) like every read model. A row names its table's shift by the seq of the
opener it ran from (``opener``): the shift open when the row was logged.
"""

from __future__ import annotations

import json
import sqlite3

from app.engine.inventory import house_net, to_meter, tray_change

# a slip's state as its signatures come (docs/inventory.md, "Fills and credits"): a fill is signed at
# the cage before the table (its chips reach the tray there), a credit at the table before the cage
STATUS_AFTER = {("fill", "cage"): "signed at the cage", ("fill", "table"): "complete",
                ("credit", "table"): "signed at the table", ("credit", "cage"): "complete"}


def open_shift(conn: sqlite3.Connection, table: str | None) -> int | None:
    """The seq of ``table``'s opener whose shift is open (no closer yet), or None."""
    if table is None:
        return None
    row = conn.execute("SELECT seq FROM trays WHERE table_id = ? AND kind = 'opener' AND closer IS NULL "
                       "ORDER BY seq DESC LIMIT 1", (table,)).fetchone()
    return row[0] if row else None


def _json(value) -> str:
    return json.dumps(value, sort_keys=True)


class TrayProjections:
    """The projector's handlers of the money's rows (mixed into ``Projector``)."""

    def _tray_opener(self, conn, seq, time, table, actor, role, data):
        conn.execute("INSERT INTO trays (seq, table_id, kind, time, cents, count, signed_by, opener, last_closer, "
                     "last_closer_cents) VALUES (?, ?, 'opener', ?, ?, ?, ?, ?, ?, ?)",
                     (seq, table, time, data["cents"], _json(data["count"]), _json(data["signed_by"]), seq,
                      data.get("last_closer"), data.get("last_closer_cents")))

    def _tray_closer(self, conn, seq, time, table, actor, role, data):
        opener = data.get("opener")
        conn.execute("INSERT INTO trays (seq, table_id, kind, time, cents, count, signed_by, opener, expected) "
                     "VALUES (?, ?, 'closer', ?, ?, ?, ?, ?, ?)",
                     (seq, table, time, data["cents"], _json(data["count"]), _json(data["signed_by"]), opener,
                      data.get("expected")))
        conn.execute("UPDATE trays SET closer = ? WHERE seq = ?", (seq, opener))

    def _tray_slip_requested(self, conn, seq, time, table, actor, role, data):
        conn.execute("INSERT INTO tray_slips (kind, number, seq, table_id, opener, cents, count, reason, requested, "
                     "requested_by, status) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'requested')",
                     (data["kind"], data["number"], seq, table, open_shift(conn, table), data["cents"],
                      _json(data["count"]), data["reason"], time, actor))

    def slip_requested(self, conn, seq, data) -> None:
        """An approval request for a fill or a credit (``Projector._approval_requested``)."""
        slip = data.get("slip")
        if slip:
            conn.execute("UPDATE tray_slips SET request = ? WHERE kind = ? AND number = ?",
                         (seq, slip["kind"], slip["number"]))

    def slip_decided(self, conn, time, actor, role, data) -> None:
        """A decision of a fill's or a credit's request (``Projector._approval_decided``): approved,
        the slip goes to the cage; denied, it is void with the denial's reason."""
        if data["decision"] == "approved":
            conn.execute("UPDATE tray_slips SET status = 'approved', approved = ?, approved_by = ?, approved_role = ? "
                         "WHERE request = ? AND status = 'requested'", (time, actor, role, data["request"]))
        else:
            conn.execute("UPDATE tray_slips SET status = 'VOID', voided = ?, voided_by = ?, void_reason = ? "
                         "WHERE request = ? AND status != 'VOID'", (time, actor, f"denied: {data['reason']}",
                                                                   data["request"]))

    def _tray_slip_signed(self, conn, seq, time, table, actor, role, data):
        kind, end = data["kind"], data["at"]
        # the tray moves when a fill's chips reach the table or a credit's leave it
        conn.execute(f"UPDATE tray_slips SET status = ?, {end}_signed = ?, {end}_signers = ?"
                     + (", tray_moved = ?" if end == "table" else "") + " WHERE kind = ? AND number = ?",
                     (STATUS_AFTER[(kind, end)], time, _json(data["signed_by"]),
                      *((time,) if end == "table" else ()), kind, data["number"]))

    def _tray_slip_voided(self, conn, seq, time, table, actor, role, data):
        conn.execute("UPDATE tray_slips SET status = 'VOID', voided = ?, voided_by = ?, void_reason = ? "
                     "WHERE kind = ? AND number = ?", (time, actor, data["reason"], data["kind"], data["number"]))

    def _buy_in(self, conn, seq, time, table, actor, role, data):
        conn.execute("INSERT INTO buy_ins VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     (seq, table, open_shift(conn, table), time, data.get("seat"), data["cents"], data.get("player"),
                      actor))

    def _drop_counted(self, conn, seq, time, table, actor, role, data):
        conn.execute("INSERT INTO drops VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                     (seq, table, data["opener"], time, data["cents"], _json(data["count"]),
                      _json(data["signed_by"]), data.get("source")))

    def tray_round(self, conn, seq, table, data) -> None:
        """A settlement's flow through the tray (``Projector._settlement``); the settlement a
        denial sent back (``replaces``) no longer counts: its round was settled again here."""
        ledger = data["settlement"]["ledger"]
        conn.execute("INSERT INTO tray_rounds VALUES (?, ?, ?, ?, ?, ?, NULL)",
                     (seq, table, open_shift(conn, table), tray_change(ledger), house_net(ledger), to_meter(ledger)))
        if data.get("replaces") is not None:
            conn.execute("UPDATE tray_rounds SET replaced = ? WHERE seq = ?", (seq, data["replaces"]))
