"""Read models: tables the screens and reports query, derived from the event log only.

``Projector.project`` folds one logged event into them inside the writer's transaction, and
``rebuild`` empties them and folds the whole log again, so they can always be thrown away. The
table procedures are not re-implemented here: each table's engine state is replayed with
``app.engine.procedure.apply`` and the rows are written from it.
"""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime

from app.engine.deadlines import deck_deadline, dice_deadline
from app.engine.procedure import IRREGULARITIES, TRANSITIONS, Event, Refused, TableState, apply, round_logged
from app.engine.profile import RuleProfile

from . import logrows
from .tray_models import TrayProjections
from .schema import (HOLD_HOUSE_INSERT, HOLD_HOUSE_SELECT, HOLD_STAKES_INSERT, HOLD_STAKES_SELECT, REPROJECT,
                     READ_MODELS)

# one settlement's hold rows, from its JSON given as a parameter (app/store/schema.py, migration 4)
_ONE = {"seq": ":seq", "source": "", "settlement": ":settlement", "group": ""}
_HOLD_HOUSE = HOLD_HOUSE_INSERT + HOLD_HOUSE_SELECT.format(**_ONE)
_HOLD_STAKES = HOLD_STAKES_INSERT + HOLD_STAKES_SELECT.format(**_ONE)

PROCEDURE_EVENTS = frozenset(TRANSITIONS) | frozenset(IRREGULARITIES)
# the rows that move a table's engine state: its configuration, its procedures, and a settlement
# (the round's number used up, app/engine/procedure.py ``round_logged``)
STATEFUL = PROCEDURE_EVENTS | {"table_configured", "settlement"}


def _profile(name: str) -> RuleProfile:
    from app.rules.resources import profile  # resources read files; loaded once per profile name
    return profile(name).rules


class Projector(TrayProjections):
    def __init__(self) -> None:
        self.states: dict[str, TableState] = {}
        self.profiles: dict[str, RuleProfile] = {}

    def project(self, conn: sqlite3.Connection, seq: int, time: str, table: str | None, type_: str, actor: str,
                role: str, data: dict) -> None:
        self.fold(conn, seq, time, table, type_, actor, role, data)
        logrows.project(conn, seq, time, table, type_, actor, role, data)

    def fold(self, conn: sqlite3.Connection | None, seq: int, time: str, table: str | None, type_: str, actor: str,
             role: str, data: dict) -> None:
        """The event into every read model but the logs' own (app/store/logrows.py)."""
        handler = getattr(self, "_" + type_, None)
        if handler is not None:
            handler(conn, seq, time, table, actor, role, data)
        elif type_ in PROCEDURE_EVENTS and table is not None:
            self._procedure(conn, seq, time, table, type_, actor, role, data)

    # -- tables and their procedures ---------------------------------------------------------
    def _table_configured(self, conn, seq, time, table, actor, role, data):
        self.profiles[table] = _profile(data["profile"])
        self.states.setdefault(table, TableState())
        conn.execute("INSERT OR REPLACE INTO tables VALUES (?, ?, ?)", (table, data["profile"], seq))

    def _procedure(self, conn, seq, time, table, type_, actor, role, data):
        rules = self.profiles.get(table)
        if rules is None:
            return
        old = self.states.get(table, TableState())
        event = Event(type_, datetime.fromisoformat(time), actor, role, data)
        try:
            new = apply(old, event, rules)
        except Refused:
            return  # the floor refuses before logging; a refused event in a log changes nothing
        self.states[table] = new
        if conn is None:  # restoring the engine states only
            return
        for deck in new.decks.values():
            # an upsert, not a replace: the row keeps its rowid, which the logs view pages by
            due, rule = deck_deadline(deck, rules, new.dealing_method or "hand")
            received = deck.id not in old.decks
            conn.execute("INSERT INTO decks (table_id, deck, received, inspected, verified_by, in_play_since, due, "
                         "status, seq, received_by, rule) VALUES (?, ?, ?, ?, ?, ?, ?, 'in use', ?, ?, ?) "
                         "ON CONFLICT (table_id, deck, received) DO UPDATE SET inspected = excluded.inspected, "
                         "verified_by = excluded.verified_by, in_play_since = excluded.in_play_since, "
                         "due = excluded.due, rule = excluded.rule",
                         (table, deck.id, deck.received.isoformat(), int(deck.inspected), deck.verified_by,
                          deck.in_play_since.isoformat() if deck.in_play_since else None, due.isoformat(), seq,
                          actor if received else None, rule))
            if type_ == "deck_inspected" and data.get("deck") == deck.id:
                conn.execute("UPDATE decks SET inspected_by = ? WHERE table_id = ? AND deck = ? AND received = ?",
                             (actor, table, deck.id, deck.received.isoformat()))
        for gone in set(old.decks) - set(new.decks):
            d = old.decks[gone]
            conn.execute("UPDATE decks SET changed = ?, changed_by = ?, status = 'removed' WHERE table_id = ? AND "
                         "deck = ? AND received = ?", (time, actor, table, gone, d.received.isoformat()))
        if type_ == "dice_placed":
            conn.execute("UPDATE dice SET removed = ?, changed_by = ? WHERE table_id = ? AND removed IS NULL",
                         (time, actor, table))
            due, rule = dice_deadline(datetime.fromisoformat(time), rules)
            conn.execute("INSERT OR REPLACE INTO dice (table_id, placed, due, removed, seq, placed_by, rule) "
                         "VALUES (?, ?, ?, NULL, ?, ?, ?)", (table, time, due.isoformat(), seq, actor, rule))
        if type_ == "no_more_bets":
            conn.execute("INSERT OR REPLACE INTO rounds VALUES (?, ?, ?, NULL, 'in progress', ?, NULL, NULL)",
                         (table, new.round, time, new.dealing_method))
        if type_ == "bank_declared":
            conn.execute("UPDATE rounds SET bank_mode = ?, bank = ? WHERE table_id = ? AND round = ?",
                         (new.bank_mode, json.dumps(list(new.bank)), table, new.round + 1))
        if old.state != "round_complete" and new.state == "round_complete" and new.round:
            conn.execute("UPDATE rounds SET ended = ?, status = ?, bank_mode = ?, bank = ? WHERE table_id = ? "
                         "AND round = ?", (time, "void" if new.void else "settled", old.bank_mode,
                                           json.dumps(list(old.bank)) if old.bank else None, table, new.round))
        for irr in new.irregularities[len(old.irregularities):]:
            conn.execute("INSERT OR REPLACE INTO irregularities (table_id, ref, round, kind, time, consequence, rule, "
                         "needs_ack, acknowledged_by, seq, reported_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                         (table, irr.ref, new.round, irr.kind, irr.time.isoformat(), irr.consequence, irr.rule,
                          int(irr.needs_ack), irr.acknowledged_by, seq, actor))
        if type_ == "acknowledged":
            conn.execute("UPDATE irregularities SET acknowledged_by = ?, acknowledged = ?, countersigned_by = ?, "
                         "countersigned_role = ? WHERE table_id = ? AND ref = ?",
                         (actor, time, data.get("countersigned_by"), data.get("countersigned_role"), table,
                          data.get("ref")))

    # -- money --------------------------------------------------------------------------------
    def _settlement(self, conn, seq, time, table, actor, role, data):
        self._round_logged(table, data)
        s = data["settlement"]
        text = json.dumps(s, sort_keys=True)
        conn.execute("INSERT INTO settlements VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                     (seq, table, data.get("round"), time, s["profile"], s["banking"],
                      s["net_by_party"].get("house", 0), len(s["approvals"]), text))
        conn.execute(_HOLD_HOUSE, {"seq": seq, "settlement": text})
        conn.execute(_HOLD_STAKES, {"seq": seq, "settlement": text})
        self.tray_round(conn, seq, table, data)

    def _round_logged(self, table, data):
        if table in self.states:
            self.states[table] = round_logged(self.states[table], data.get("round"))

    def _meter_reading(self, conn, seq, time, table, actor, role, data):
        conn.execute("INSERT INTO meter_readings VALUES (?, ?, ?, ?, ?)",
                     (seq, table, time, data["cents"], data.get("source", actor)))

    def _slip_issued(self, conn, seq, time, table, actor, role, data):
        conn.execute("INSERT INTO slips (number, seq, table_id, seat, wager, wager_cents, win_cents, time, issued_by, "
                     "status, w2g, issue_countersigned_by, issue_countersigned_role) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'ISSUED', ?, ?, ?)",
                     (data["number"], seq, table, data.get("seat"), data["wager"], data["wager_cents"],
                      data["win_cents"], time, actor,
                      # as the log's body holds it (sorted keys), so that a rebuild gives the same text
                      json.dumps(data["w2g"], sort_keys=True) if data.get("w2g") else None,
                      data.get("countersigned_by"), data.get("countersigned_role")))

    def _slip_voided(self, conn, seq, time, table, actor, role, data):
        conn.execute("UPDATE slips SET status = 'VOID', void_reason = ?, voided_by = ?, voided = ?, "
                     "void_countersigned_by = ?, void_countersigned_role = ? WHERE number = ?",
                     (data["reason"], actor, time, data.get("countersigned_by"), data.get("countersigned_role"),
                      data["number"]))

    # -- approvals, alarms, devices -----------------------------------------------------------
    def _approval_requested(self, conn, seq, time, table, actor, role, data):
        conn.execute("INSERT INTO approvals (request, kind, table_id, seat, cents, role_needed, reason, rule, requested, "
                     "status, requested_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending', ?)",
                     (seq, data["kind"], table, data.get("seat"), data.get("cents"), data["role_needed"],
                      data["reason"], data["rule"], time, actor))
        self.slip_requested(conn, seq, data)

    def _approval_decided(self, conn, seq, time, table, actor, role, data):
        conn.execute("UPDATE approvals SET status = ?, decided_by = ?, decided_role = ?, decision_reason = ?, "
                     "decided = ?, countersigned_by = ?, countersigned_role = ? WHERE request = ?",
                     (data["decision"], actor, role, data["reason"], time, data.get("countersigned_by"),
                      data.get("countersigned_role"), data["request"]))
        self.slip_decided(conn, time, actor, role, data)

    def _alarm_raised(self, conn, seq, time, table, actor, role, data):
        conn.execute("INSERT INTO alarms (seq, table_id, kind, message, raised, rule, serial) "
                     "VALUES (?, ?, ?, ?, ?, ?, ?)",
                     (seq, table, data["kind"], data["message"], time, data.get("rule") or None,
                      data.get("serial") or None))

    def _alarm_acknowledged(self, conn, seq, time, table, actor, role, data):
        conn.execute("UPDATE alarms SET acknowledged_by = ?, acknowledged = ?, acknowledged_role = ?, "
                     "acknowledged_reason = ?, countersigned_by = ?, countersigned_role = ? WHERE seq = ?",
                     (actor, time, role, data.get("reason"), data.get("countersigned_by"),
                      data.get("countersigned_role"), data["alarm"]))

    def _alarm_cleared(self, conn, seq, time, table, actor, role, data):
        conn.execute("UPDATE alarms SET cleared = ?, cleared_how = ? WHERE seq = ?", (time, data.get("how"),
                                                                                      data["alarm"]))

    def _device_fault(self, conn, seq, time, table, actor, role, data):
        conn.execute("INSERT INTO device_faults (seq, table_id, device, code, message, time) "
                     "VALUES (?, ?, ?, ?, ?, ?)", (seq, table, data["device"], data["code"], data.get("message", ""),
                                                   time))

    # -- people -------------------------------------------------------------------------------
    # a user's PIN: since issue 26 the event names a ``credential`` kept in ``pins``, keyed with
    # the install key; older events carry the salt and hash themselves (app/store/credentials.py)
    def _user_added(self, conn, seq, time, table, actor, role, data):
        conn.execute("INSERT INTO users (name, role, salt, pin_hash, kdf, failures, locked_until, locked_by, created, "
                     "credential) VALUES (?, ?, ?, ?, ?, 0, NULL, NULL, ?, ?)",
                     (data["name"], data["role"], data.get("salt"), data.get("pin_hash"), data.get("kdf"), time,
                      data.get("credential")))

    def _role_changed(self, conn, seq, time, table, actor, role, data):
        conn.execute("UPDATE users SET role = ? WHERE name = ?", (data["role"], data["name"]))

    def _pin_changed(self, conn, seq, time, table, actor, role, data):
        conn.execute("UPDATE users SET salt = ?, pin_hash = ?, kdf = ?, credential = ?, failures = 0 WHERE name = ?",
                     (data.get("salt"), data.get("pin_hash"), data.get("kdf"), data.get("credential"), data["name"]))

    def _sign_in(self, conn, seq, time, table, actor, role, data):
        conn.execute("UPDATE users SET failures = 0, locked_until = NULL WHERE name = ? AND locked_by IS NULL",
                     (actor,))

    def _sign_in_failed(self, conn, seq, time, table, actor, role, data):
        conn.execute("UPDATE users SET failures = ?, locked_until = ? WHERE name = ?",
                     (data["failures"], data.get("locked_until"), data["name"]))

    def _user_locked(self, conn, seq, time, table, actor, role, data):
        conn.execute("UPDATE users SET locked_by = ?, locked_until = ? WHERE name = ?",
                     (actor, data.get("until"), data["name"]))

    def _user_unlocked(self, conn, seq, time, table, actor, role, data):
        conn.execute("UPDATE users SET locked_by = NULL, locked_until = NULL, failures = 0 WHERE name = ?",
                     (data["name"],))


def restore(conn: sqlite3.Connection) -> Projector:
    """The tables' engine states from the log, without touching the read models."""
    return catch_up(Projector(), conn, 0)


def catch_up(p: Projector, conn: sqlite3.Connection, after: int, upto: int | None = None) -> Projector:
    """Fold the rows after ``after`` (up to ``upto``) into ``p``'s engine states only: rows
    another process appended, whose read-model rows that process already wrote in its own
    transaction. ``upto`` keeps rows appended meanwhile for the next catch-up, not this one."""
    types = sorted(STATEFUL)
    sql = (f"SELECT body FROM events WHERE seq > ? AND seq <= ? AND type IN ({','.join('?' * len(types))}) "
           "ORDER BY seq")
    for (body,) in conn.execute(sql, (after, upto if upto is not None else 2 ** 62, *types)):
        b = json.loads(body)
        if b["type"] == "table_configured":
            p.profiles[b["table"]] = _profile(b["data"]["profile"])
            p.states.setdefault(b["table"], TableState())
        elif b["type"] == "settlement":
            p._round_logged(b["table"], b["data"])
        else:
            p._procedure(None, b["seq"], b["time"], b["table"], b["type"], b["actor"], b["role"], b["data"])
    return p


def project_all(conn: sqlite3.Connection) -> Projector:
    """Empty the read models and fold the whole log into them again, inside the caller's
    transaction (``rebuild``, or a migration that added read-model columns)."""
    p = Projector()
    for name in READ_MODELS:
        conn.execute(f"DELETE FROM {name}")
    for seq, body in conn.execute("SELECT seq, body FROM events ORDER BY seq"):
        b = json.loads(body)
        p.project(conn, seq, b["time"], b["table"], b["type"], b["actor"], b["role"], b["data"])
    return p


def rebuild(conn: sqlite3.Connection) -> Projector:
    """Empty the read models and fold the whole log into them again, in one transaction."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        p = project_all(conn)
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return p


def reproject(conn: sqlite3.Connection) -> None:
    """After the migrations: a step that added read-model columns left a note in meta; the read
    models are projected again from the log and the note removed, in one
    transaction, so that a process stopped half way projects them again at its next start."""
    if not conn.execute("SELECT 1 FROM meta WHERE key = ?", (REPROJECT,)).fetchone():
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        if conn.execute("SELECT 1 FROM meta WHERE key = ?", (REPROJECT,)).fetchone():
            project_all(conn)
            conn.execute("DELETE FROM meta WHERE key = ?", (REPROJECT,))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
