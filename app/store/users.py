"""People: users with roles, PINs kept out of the log and keyed with the install key, sign-in
with lockout.

Every change and every sign-in attempt is an event in the audit log. What a sign-in decides by
(the user's role, whether the account is locked, how many wrong PINs in a row, which PIN) is
taken from those events themselves, each checked against its hash and seal (``account``), never
from the ``users`` read model, which a plain ``UPDATE`` could change (issue 26); the read model
is for lists, and ``audit verify`` compares it with the log.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from app.engine.names import name_fault
from app.engine.roles import ADMINISTRATOR, PEOPLE as ROLES
from app.engine.words import day_time

from . import chain, credentials, rows
from .log import AuditLog
from .reading import log_meta, read_db
from .schema import USER_EVENTS_WHERE, USER_NAME

MAX_FAILURES = 5
LOCKOUT = timedelta(minutes=15)
KDF = credentials.KDF


class UserError(ValueError):
    """A user command that cannot be done; the message says why."""


class SignInError(UserError):
    pass


@dataclass(frozen=True)
class Session:
    """A signed-in person: who and in which role."""

    name: str
    role: str


def check_pin(pin: str) -> None:
    try:
        credentials.check_pin(pin)
    except ValueError as e:
        raise UserError(str(e)) from None


class ChainError(UserError):
    """A user's event read for a sign-in does not match its hash or seal: the log was changed."""


def fold(account: dict | None, seq: int, time: str, type_: str, actor: str, data: dict) -> dict | None:
    """One user event folded into the account it is about, as the ``users`` read model folds it
    (app/store/read_models.py): the same fields, from the chain."""
    if type_ == "user_added":
        return {"name": data["name"], "role": data["role"], "salt": data.get("salt"), "pin_hash": data.get("pin_hash"),
                "kdf": data.get("kdf"), "failures": 0, "locked_until": None, "locked_by": None, "created": time,
                "credential": data.get("credential")}
    if account is None:
        return None
    a = dict(account)
    if type_ == "role_changed":
        a["role"] = data["role"]
    elif type_ == "pin_changed":
        a.update(salt=data.get("salt"), pin_hash=data.get("pin_hash"), kdf=data.get("kdf"),
                 credential=data.get("credential"), failures=0)
    elif type_ == "sign_in":
        if a["locked_by"] is None:
            a.update(failures=0, locked_until=None)
    elif type_ == "sign_in_failed":
        a.update(failures=data["failures"], locked_until=data.get("locked_until"))
    elif type_ == "user_locked":
        a.update(locked_by=actor, locked_until=data.get("until"))
    elif type_ == "user_unlocked":
        a.update(locked_by=None, locked_until=None, failures=0)
    return a


def account(log: AuditLog, name: str) -> dict | None:
    """The user ``name`` as the log's own events give it (None if never added): every event
    about the user (read through an index of them by name), each checked against its hash and
    its seal with the install key, so that neither the read model nor an event's body can be
    changed to sign someone in with another role or past a lockout."""
    found = log.rows(f"SELECT seq, time, type, actor, body, prev_hash, hash, hmac FROM events "
                     f"WHERE {USER_NAME} = ? AND {USER_EVENTS_WHERE} ORDER BY seq", (name,))
    a = None
    for seq, time, type_, actor, body, prev, h, mac in found:
        if chain.link(prev, body) != h or not chain.seal_ok(log.key, h, mac):
            raise ChainError(f"row {seq} of the audit log ({type_} of {name}) does not match its seal: the log was "
                             "changed ('pitdesk audit verify' names the first bad row); nobody signs in on it")
        b = json.loads(body)
        if (b["seq"], b["time"], b["type"], b["actor"]) != (seq, time, type_, actor) or b["data"].get("name") != name:
            raise ChainError(f"row {seq} of the audit log ({type_}) differs from its sealed body; nobody signs in on it")
        a = fold(a, seq, time, type_, actor, b["data"])
    return a


def administrators(log: AuditLog) -> list[str]:
    """The unlocked administrators as the log's own events give them (``account``: each checked
    against its hash and seal), never as the ``users`` read model says (issue 26). The names are
    those any event ever made an administrator; a body edited to add or hide one fails its seal
    (``ChainError``) or counts one fewer, so the answer errs only towards refusing."""
    named = log.rows(f"SELECT DISTINCT {USER_NAME} FROM events WHERE {USER_EVENTS_WHERE} "
                     "AND type IN ('user_added', 'role_changed') AND json_extract(body, '$.data.role') = ?",
                     (ADMINISTRATOR,))
    found = []
    for (name,) in named:
        a = account(log, name)
        if a is not None and a["role"] == ADMINISTRATOR and a["locked_by"] is None:
            found.append(name)
    return found


def _check_name(name: str) -> None:
    if not isinstance(name, str) or not name.strip() or len(name) > 64 or name != name.strip():
        raise UserError(f"a user name is 1 to 64 characters without leading or trailing spaces, got {name!r}")
    fault = name_fault(name, 64)     # a bell, an escape, a right-to-left mark: never a name (issue 35, 9)
    if fault:
        raise UserError(f"the user name {name!r} {fault}")


_LISTED = ("name", "role", "created", "failures", "locked_until", "locked_by")


def _listed(r: dict) -> dict:
    # never the salt or the PIN hash; a PIN logged before issue 26 is in the sealed log: re-set it
    return {**{k: r[k] for k in _LISTED}, "pin": "keyed" if r.get("credential") else "in the log: re-set it"}


def list_users(db: Path) -> list[dict]:
    """``pitdesk users list``: read only, so a database that is not there is not created."""
    def work(conn, acc):
        log_meta(conn, db)
        cur = conn.execute("SELECT * FROM users ORDER BY name")
        cols = [c[0] for c in cur.description]
        return [_listed(dict(zip(cols, row))) for row in cur]

    return read_db(db, work)[0]


class Users:
    def __init__(self, log: AuditLog, salt: Callable[[int], bytes] = secrets.token_bytes):
        """``salt(n)`` gives n random bytes for each new PIN hash; a simulation passes a seeded
        generator so its shift replays byte for byte (app/simulate)."""
        self.log = log
        self._salt = salt

    def get(self, name: str) -> dict | None:
        """The user as the log's events give it (``account``), not as the read model holds it."""
        return account(self.log, name)

    def list(self) -> list[dict]:
        return [_listed(r) for r in self.log.query("SELECT * FROM users ORDER BY name")]

    def _credential(self, name: str, pin: str) -> tuple[dict, Callable]:
        """The event's part of a new PIN (its credential's id, no PIN material) and the
        ``prepare`` that keeps the keyed hash in ``pins`` (app/store/credentials.py)."""
        check_pin(pin)
        credential, prepare = credentials.make(self.log.key, name, pin, self._salt)
        return {"credential": credential}, prepare

    def create_administrator(self, name: str, pin: str, now: datetime) -> None:
        """First run: the first user, an administrator; refused once any user exists."""
        _check_name(name)
        if anyone(self.log):
            raise UserError("users already exist; an administrator adds users with 'pitdesk users add'")
        self._write(rows.first_administrator(now, name, *self._credential(name, pin)))

    def add(self, by: Session, name: str, role: str, pin: str, now: datetime) -> None:
        self._admin(by, "add users")
        _check_name(name)
        if role not in ROLES:
            raise UserError(f"role must be one of {', '.join(ROLES)}, got {role!r}")
        if self.get(name):
            raise UserError(f"user {name!r} already exists")
        self._write(rows.user_added(now, by.name, by.role, name, role, *self._credential(name, pin)))

    def change_pin(self, by: Session, name: str, pin: str, now: datetime) -> None:
        if by.name != name:
            self._admin(by, "change another user's PIN")
        if not self.get(name):
            raise UserError(f"no user {name!r}")
        self._write(rows.pin_changed(now, by.name, by.role, name, *self._credential(name, pin)))

    def lock(self, by: Session, name: str, now: datetime) -> None:
        self._admin(by, "lock users")
        if not self.get(name):
            raise UserError(f"no user {name!r}")
        self._write(rows.user_locked(now, by.name, by.role, name))

    def unlock(self, by: Session, name: str, now: datetime) -> None:
        self._admin(by, "unlock users")
        if not self.get(name):
            raise UserError(f"no user {name!r}")
        self._write(rows.user_unlocked(now, by.name, by.role, name))

    def set_role(self, by: Session, name: str, role: str, now: datetime) -> None:
        """An administrator gives a user another role: ``role_changed`` {name, role, was}. The
        next sign-in is in the new role. Refused when it would leave no unlocked administrator
        (none could then add, unlock or change anyone again), counted from the chain
        (``administrators``); an account locked only for wrong PINs unlocks by itself and still
        counts."""
        self._admin(by, "set roles")
        if role not in ROLES:
            raise UserError(f"role must be one of {', '.join(ROLES)}, got {role!r}")
        user = self.get(name)
        if not user:
            raise UserError(f"no user {name!r}")
        if user["role"] == role:
            raise UserError(f"{name}'s role is already {role}")
        # from the chain, not the read model: a users table edited to show a second
        # administrator does not let the last one step down (issue 26)
        if user["role"] == ADMINISTRATOR and not [a for a in administrators(self.log) if a != name]:
            raise UserError(f"{name} is the last unlocked administrator: as a {role}, nobody could add, unlock or "
                            "change users again; make another administrator first (or unlock one)")
        self._write(rows.role_changed(now, by.name, by.role, name, role, user["role"]))

    def _write(self, record) -> None:
        self.log.append_many([record])

    @staticmethod
    def _admin(by: Session, what: str) -> None:
        if by.role != ADMINISTRATOR:
            raise UserError(f"only an administrator may {what}; {by.name} is a {by.role}")

    def sign_in(self, name: str, pin: str, now: datetime, station: str | tuple[str, ...] | None = None) -> Session:
        """The session, or SignInError naming why; every attempt is logged. Five failures in a
        row lock the account for fifteen minutes. ``station``: signed in at that table's station
        (or a tuple: at the stations of those tables, one row), not at the workstation."""
        user = self._checked(name, pin, now)
        self._write(rows.sign_in(now, name, user["role"], station))
        return Session(name, user["role"])

    def confirm(self, name: str, pin: str, now: datetime) -> Session:
        """``name``'s PIN checked as a sign-in checks it (a failure logged and counted toward the
        lockout, a locked account refused), for a counter-signature: nobody is signed in by it, and
        nothing is logged when it is right (the row it signs names who, app/store/approvals.py)."""
        return Session(name, self._checked(name, pin, now)["role"])

    def _checked(self, name: str, pin: str, now: datetime) -> dict:
        user = self.get(name)
        if user is None:
            self._write(rows.sign_in_failed(now, name, "unknown", "unknown user", 0, known=False))
            raise SignInError(f"no user {name!r}")
        if user["locked_by"]:
            self._write(rows.sign_in_failed(now, name, user["role"], "locked", user["failures"], user["locked_until"]))
            raise SignInError(f"{name} is locked by {user['locked_by']}; an administrator must unlock")
        if user["locked_until"] and now < datetime.fromisoformat(user["locked_until"]):
            self._write(rows.sign_in_failed(now, name, user["role"], "locked", user["failures"], user["locked_until"]))
            raise SignInError(f"{name} is locked until {day_time(datetime.fromisoformat(user['locked_until']))} after "
                              f"{MAX_FAILURES} wrong PINs")
        tampered = credentials.record_fault(self.log.key, self.log.rows, user)
        if tampered:
            # not the person's wrong PIN: never counted towards a lockout (issue 35, finding 9)
            self._write(rows.sign_in_failed(now, name, user["role"], "PIN record changed", user["failures"],
                                            user["locked_until"]))
            raise SignInError(f"{tampered} ('pitdesk audit verify' names it): an administrator sets a new PIN "
                              f"for {name}")
        good = credentials.matches(self.log.key, self.log.rows, user, pin)
        if not good:
            failures = (0 if user["locked_until"] else user["failures"]) + 1
            until = (now + LOCKOUT).isoformat() if failures >= MAX_FAILURES else None
            self._write(rows.sign_in_failed(now, name, user["role"], "wrong PIN", failures if not until else 0,
                                            until))
            if until:
                raise SignInError(f"wrong PIN; {name} is locked until {day_time(now + LOCKOUT)} ({MAX_FAILURES} "
                                  "failures)")
            raise SignInError(f"wrong PIN ({failures} of {MAX_FAILURES} before a {LOCKOUT.seconds // 60}-minute "
                              "lockout)")
        return user


def anyone(log: AuditLog) -> bool:
    """Whether any user exists (a new database has none until its first administrator): from the
    log's events, which no DELETE removes, not the ``users`` read model (issue 26)."""
    return bool(log.query("SELECT 1 FROM events WHERE type = 'user_added' LIMIT 1"))
