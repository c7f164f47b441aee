"""Reads of the pit's money from the read models (app/store/tray_models.py): a table's open shift,
its last closer, a shift's money (``ShiftMoney``), the fill and credit slips (issue 34,
docs/inventory.md). Every function takes a connection: the writer's, or a reader's."""

from __future__ import annotations

import json
from app.engine.inventory import ShiftMoney


__all__ = ["open_shift", "opener", "last_closer", "shift_money", "slip", "slips", "pending_slips", "shifts_opened",
           "drop_of", "count_of", "signers_of"]


def _rows(conn, sql: str, args=()) -> list[dict]:
    """``conn``: a connection, or the audit log (its ``query``, under its lock)."""
    if hasattr(conn, "query"):
        return conn.query(sql, tuple(args))
    cur = conn.execute(sql, args)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, r)) for r in cur.fetchall()]


def _one(conn, sql: str, args=()):
    """The first column of the first row."""
    found = _rows(conn, sql, args)
    return next(iter(found[0].values())) if found else None


def open_shift(conn, table: str) -> int | None:
    """The seq of ``table``'s opener whose shift is open (no closer yet), or None."""
    return _one(conn, "SELECT seq FROM trays WHERE table_id = ? AND kind = 'opener' AND closer IS NULL "
                "ORDER BY seq DESC LIMIT 1", (table,))


def count_of(row: dict) -> dict[int, int]:
    """A ``trays``/``drops``/``tray_slips`` row's count: value in cents -> chips."""
    return {int(v): n for v, n in json.loads(row["count"] or "{}").items()}


def signers_of(text: str | None) -> list[tuple[str, str]]:
    return [tuple(x) for x in json.loads(text)] if text else []


def opener(conn, seq: int) -> dict | None:
    found = _rows(conn, "SELECT * FROM trays WHERE seq = ? AND kind = 'opener'", (seq,))
    return found[0] if found else None


def last_closer(conn, table: str) -> dict | None:
    """``table``'s last closer (the tray as it was left), or None: never closed."""
    found = _rows(conn, "SELECT * FROM trays WHERE table_id = ? AND kind = 'closer' ORDER BY seq DESC LIMIT 1",
                  (table,))
    return found[0] if found else None


def drop_of(conn, opener_seq: int) -> dict | None:
    found = _rows(conn, "SELECT * FROM drops WHERE opener = ? ORDER BY seq LIMIT 1", (opener_seq,))
    return found[0] if found else None


def shift_money(conn, opener_seq: int, rounds: tuple[int, int, int, int] | None = None) -> ShiftMoney:
    """The money of the table's shift that began with opener ``opener_seq``, as logged so far:
    its closer and drop None until counted. ``rounds``: its rounds' (count, tray, house net, to
    the meter) summed elsewhere (the casino's server, app/store/pg/floor_trays.py), else read
    from ``tray_rounds``."""
    o = opener(conn, opener_seq)
    if o is None:
        raise KeyError(f"no opener {opener_seq}")
    fills, credits = (_one(conn, "SELECT IFNULL(SUM(cents), 0) FROM tray_slips WHERE opener = ? AND kind = ? AND "
                                 "tray_moved IS NOT NULL AND status != 'VOID'", (opener_seq, k))
                      for k in ("fill", "credit"))
    buy = _one(conn, "SELECT IFNULL(SUM(cents), 0) FROM buy_ins WHERE opener = ?", (opener_seq,))
    if rounds is not None:
        r = dict(zip(("n", "tray", "net", "meter"), rounds))
    else:
        r = _rows(conn, "SELECT COUNT(*) AS n, IFNULL(SUM(tray), 0) AS tray, IFNULL(SUM(house_net), 0) AS net, "
                  "IFNULL(SUM(to_meter), 0) AS meter FROM tray_rounds WHERE opener = ? AND replaced IS NULL",
                  (opener_seq,))[0]
    closer = _one(conn, "SELECT cents FROM trays WHERE seq = ?", (o["closer"],)) if o["closer"] else None
    drop = drop_of(conn, opener_seq)
    return ShiftMoney(o["cents"], fills, credits, buy, r["n"], r["tray"], r["net"], r["meter"], closer,
                      drop["cents"] if drop else None)


def shifts_opened(conn, start: str, end: str, tables: list[str] | None = None) -> list[dict]:
    """The openers logged from ``start`` to before ``end`` (ISO times), of ``tables`` if given,
    by table and time: the table shifts a report of that time states."""
    rows = _rows(conn, "SELECT * FROM trays WHERE kind = 'opener' AND time >= ? AND time < ? ORDER BY table_id, seq",
                 (start, end))
    return [r for r in rows if tables is None or r["table_id"] in tables]


def slip(conn, kind: str, number: int) -> dict | None:
    found = _rows(conn, "SELECT * FROM tray_slips WHERE kind = ? AND number = ?", (kind, number))
    return found[0] if found else None


def slips(conn, start: str | None = None, end: str | None = None,
          tables: list[str] | None = None) -> list[dict]:
    """The fill and credit slips requested from ``start`` to before ``end`` (all if not given),
    fills first, each kind in number order."""
    rows = _rows(conn, "SELECT * FROM tray_slips WHERE requested >= ? AND requested < ? ORDER BY kind DESC, number",
                 (start or "", end or "9999"))
    return [r for r in rows if tables is None or r["table_id"] in tables]


def pending_slips(conn) -> list[dict]:
    """The fills and credits not yet complete nor void, oldest first."""
    return _rows(conn, "SELECT * FROM tray_slips WHERE status NOT IN ('complete', 'VOID') ORDER BY seq")


def unused_numbers(numbers: list[int]) -> list[int]:
    """The numbers missing between the first and the last given (a slip a casino cannot account for)."""
    have = set(numbers)
    return [n for n in range(min(have), max(have) + 1) if n not in have] if have else []
