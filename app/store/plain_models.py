"""The read models whose every row is a plain function of one event, in SQL (issue 26).

``audit verify`` compares these with the log straight from the events table, in SQLite's own
code, rather than folding a million rows through the projector in Python: each column is the
expression below over an event row ``e`` (its columns, checked against the sealed body by the
chain walk, and ``json_extract`` of its body). Each expression says what the projector does
(app/store/read_models.py, app/store/logrows.py); tests/store/test_store_derive.py holds them
to the projector's rows on a real shift's log, so the two cannot drift apart unnoticed.

The read models with a state (a table's decks, dice, rounds and irregularities; the users;
alarms, slips and approvals changed by later events; a settlement's JSON text) are still
folded through the projector (app/store/derive.py).
"""

from __future__ import annotations

from dataclasses import dataclass


def _j(path: str) -> str:
    return f"json_extract(e.body, '$.{path}')"


def _get(path: str, default: str) -> str:
    """``data.get(key, default)``: the default only for a key that is not there (null stays null)."""
    return f"CASE WHEN json_type(e.body, '$.{path}') IS NULL THEN {default} ELSE {_j(path)} END"


def _or(path: str, other: str) -> str:
    """``data.get(key) or other`` for a text field: null, missing and '' give ``other``."""
    return f"COALESCE(NULLIF({_j(path)}, ''), {other})"


@dataclass(frozen=True)
class Source:
    """The events that make rows of a read model: their types, what more they must be, and each
    column's expression."""

    types: tuple[str, ...]
    where: str
    columns: dict[str, str]


_LINK = "CASE WHEN {code} IN ('offline', 'link', 'gap') THEN 'link' ELSE 'fault' END"  # logrows.LINK_CODES
_OFFLINE = "substr(" + _j("data.kind") + ", -8) = '_offline'"
_ONLINE = (f"CASE WHEN {_j('data.online')} THEN 'progressive wagers open again: every controller of the table "
           "is online' ELSE 'progressive wagers closed: a controller of the table is offline' END")
_SIGN_INS = ("sign_in", "sign_in_failed", "signed_out", "user_locked", "user_unlocked")  # logrows.SIGN_INS
_NAME = _or("data.name", "e.actor")
_BY_ADMIN = "e.type IN ('user_locked', 'user_unlocked')"  # by an administrator, about another user

PLAIN: dict[str, tuple[Source, ...]] = {
    # Projector._meter_reading
    "meter_readings": (Source(("meter_reading",), "", {
        "seq": "e.seq", "table_id": "e.table_id", "time": "e.time", "cents": _j("data.cents"),
        "source": _get("data.source", "e.actor")}),),
    # Projector._device_fault
    "device_faults": (Source(("device_fault",), "", {
        "seq": "e.seq", "table_id": "e.table_id", "device": _j("data.device"), "code": _j("data.code"),
        "message": _get("data.message", "''"), "time": "e.time"}),),
    # logrows.project: a device fault; a device's link back (its offline alarm cleared); a table's
    # progressive wagers closed and opened with their controllers
    "device_log": (
        Source(("device_fault",), "", {
            "seq": "e.seq", "time": "e.time", "table_id": "e.table_id", "device": _get("data.device", "''"),
            "serial": _or("data.serial", "e.actor"), "kind": _LINK.format(code=_get("data.code", "''")),
            "code": _get("data.code", "''"), "message": _get("data.message", "''")}),
        Source(("alarm_cleared",), _OFFLINE, {
            "seq": "e.seq", "time": "e.time", "table_id": "e.table_id",
            "device": f"substr({_j('data.kind')}, 1, length({_j('data.kind')}) - 8)", "serial": "e.actor",
            "kind": "'link'", "code": "'online'", "message": _get("data.how", "''")}),
        Source(("progressive_link",), "e.table_id IS NOT NULL", {
            "seq": "e.seq", "time": "e.time", "table_id": "e.table_id", "device": "'progressive'",
            "serial": "e.actor", "kind": "'link'",
            "code": f"CASE WHEN {_j('data.online')} THEN 'online' ELSE 'offline' END", "message": _ONLINE}),
    ),
    # logrows.project: who signed in, failed to, was locked out or locked and unlocked, signed out
    "sign_ins": (Source(_SIGN_INS, "", {
        "seq": "e.seq", "time": "e.time", "name": _NAME,
        "role": f"CASE WHEN NOT {_BY_ADMIN} OR e.actor IS {_NAME} THEN e.role END", "event": "e.type",
        "reason": _or("data.reason", "CASE e.type WHEN 'user_locked' THEN 'locked by an administrator' ELSE '' END"),
        "failures": _j("data.failures"), "locked_until": _or("data.locked_until", _j("data.until")),
        "by_name": f"CASE WHEN {_BY_ADMIN} THEN e.actor ELSE {_NAME} END"}),),
}


def types(table: str) -> list[str]:
    return [t for s in PLAIN[table] for t in s.types]


def columns(table: str) -> list[str]:
    return list(PLAIN[table][0].columns)


def where(table: str) -> str:
    """The condition on ``e`` for the events that make the table's rows (beside their types)."""
    if all(not s.where for s in PLAIN[table]):
        return "1"
    return " OR ".join(f"(e.type IN ({_names(s.types)})" + (f" AND {s.where})" if s.where else ")")
                       for s in PLAIN[table])


def expressions(table: str) -> list[str]:
    """Each column's expression over ``e`` (by the event's type where the sources differ)."""
    out = []
    for col in columns(table):
        exprs = [(s.types, s.columns[col]) for s in PLAIN[table]]
        if len({x for _, x in exprs}) == 1:
            out.append(exprs[0][1])
        else:
            out.append("CASE " + " ".join(f"WHEN e.type IN ({_names(t)}) THEN {x}" for t, x in exprs) + " END")
    return out


def _names(types: tuple[str, ...] | list[str]) -> str:
    return ", ".join(f"'{t}'" for t in types)


def select(table: str) -> str:
    """The table's rows derived from the log, in the order of its columns, by seq."""
    return (f"SELECT {', '.join(expressions(table))} FROM main.events e "
            f"WHERE e.type IN ({_names(types(table))}) AND ({where(table)}) ORDER BY e.seq")
