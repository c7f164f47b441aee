"""People: users with roles, PINs kept only as salted scrypt hashes, sign-in with lockout.

Every change and every sign-in attempt is an event in the audit log, and the ``users`` read
model is rebuilt from those events, so an account's history is as tamper-evident as the rest.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from app.engine.roles import ADMINISTRATOR, PEOPLE as ROLES

from . import rows
from .log import AuditLog
from .reading import log_meta, read_db

MAX_FAILURES = 5
LOCKOUT = timedelta(minutes=15)
# scrypt: memory-hard; n=2**14, r=8 takes 16 MiB and about 40 ms per PIN on this machine
KDF = {"name": "scrypt", "n": 2 ** 14, "r": 8, "p": 1}


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
    if not isinstance(pin, str) or not pin.isdigit() or not 4 <= len(pin) <= 12 or not pin.isascii():
        raise UserError("a PIN is 4 to 12 digits")


def hash_pin(pin: str, salt: bytes, kdf: dict = KDF) -> str:
    return hashlib.scrypt(pin.encode(), salt=salt, n=kdf["n"], r=kdf["r"], p=kdf["p"], maxmem=64 * 2 ** 20,
                          dklen=32).hex()


def _kdf_text(kdf: dict) -> str:
    return f"{kdf['name']}:n={kdf['n']},r={kdf['r']},p={kdf['p']}"


def _kdf_parse(text: str) -> dict:
    name, params = text.split(":", 1)
    return {"name": name, **{k: int(v) for k, v in (x.split("=") for x in params.split(","))}}


def _check_name(name: str) -> None:
    if not isinstance(name, str) or not name.strip() or len(name) > 64 or name != name.strip():
        raise UserError(f"a user name is 1 to 64 characters without leading or trailing spaces, got {name!r}")


_LISTED = ("name", "role", "created", "failures", "locked_until", "locked_by")


def _listed(r: dict) -> dict:
    return {k: r[k] for k in _LISTED}  # never the salt or the PIN hash


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
        rows = self.log.query("SELECT * FROM users WHERE name = ?", (name,))
        return rows[0] if rows else None

    def list(self) -> list[dict]:
        return [_listed(r) for r in self.log.query("SELECT * FROM users ORDER BY name")]

    def _credential(self, pin: str) -> dict:
        check_pin(pin)
        salt = self._salt(16)
        return {"salt": salt.hex(), "pin_hash": hash_pin(pin, salt), "kdf": _kdf_text(KDF)}

    def create_administrator(self, name: str, pin: str, now: datetime) -> None:
        """First run: the first user, an administrator; refused once any user exists."""
        _check_name(name)
        if self.log.query("SELECT 1 FROM users LIMIT 1"):
            raise UserError("users already exist; an administrator adds users with 'pitdesk users add'")
        self._write(rows.first_administrator(now, name, self._credential(pin)))

    def add(self, by: Session, name: str, role: str, pin: str, now: datetime) -> None:
        self._admin(by, "add users")
        _check_name(name)
        if role not in ROLES:
            raise UserError(f"role must be one of {', '.join(ROLES)}, got {role!r}")
        if self.get(name):
            raise UserError(f"user {name!r} already exists")
        self._write(rows.user_added(now, by.name, by.role, name, role, self._credential(pin)))

    def change_pin(self, by: Session, name: str, pin: str, now: datetime) -> None:
        if by.name != name:
            self._admin(by, "change another user's PIN")
        if not self.get(name):
            raise UserError(f"no user {name!r}")
        self._write(rows.pin_changed(now, by.name, by.role, name, self._credential(pin)))

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
        (none could then add, unlock or change anyone again); an account locked only for wrong
        PINs unlocks by itself and still counts."""
        self._admin(by, "set roles")
        if role not in ROLES:
            raise UserError(f"role must be one of {', '.join(ROLES)}, got {role!r}")
        user = self.get(name)
        if not user:
            raise UserError(f"no user {name!r}")
        if user["role"] == role:
            raise UserError(f"{name}'s role is already {role}")
        if user["role"] == ADMINISTRATOR and not self.log.query(
                "SELECT 1 FROM users WHERE role = 'administrator' AND locked_by IS NULL AND name != ? LIMIT 1",
                (name,)):
            raise UserError(f"{name} is the last unlocked administrator: as a {role}, nobody could add, unlock or "
                            "change users again; make another administrator first (or unlock one)")
        self._write(rows.role_changed(now, by.name, by.role, name, role, user["role"]))

    def _write(self, record) -> None:
        self.log.append_many([record])

    @staticmethod
    def _admin(by: Session, what: str) -> None:
        if by.role != ADMINISTRATOR:
            raise UserError(f"only an administrator may {what}; {by.name} is a {by.role}")

    def sign_in(self, name: str, pin: str, now: datetime, station: str | None = None) -> Session:
        """The session, or SignInError naming why; every attempt is logged. Five failures in a
        row lock the account for fifteen minutes. ``station``: signed in at that table's station,
        not at the workstation."""
        user = self.get(name)
        if user is None:
            self._write(rows.sign_in_failed(now, name, "unknown", "unknown user", 0, known=False))
            raise SignInError(f"no user {name!r}")
        if user["locked_by"]:
            self._write(rows.sign_in_failed(now, name, user["role"], "locked", user["failures"], user["locked_until"]))
            raise SignInError(f"{name} is locked by {user['locked_by']}; an administrator must unlock")
        if user["locked_until"] and now < datetime.fromisoformat(user["locked_until"]):
            self._write(rows.sign_in_failed(now, name, user["role"], "locked", user["failures"], user["locked_until"]))
            raise SignInError(f"{name} is locked until {user['locked_until']} after {MAX_FAILURES} wrong PINs")
        good = isinstance(pin, str) and hmac.compare_digest(
            hash_pin(pin, bytes.fromhex(user["salt"]), _kdf_parse(user["kdf"])), user["pin_hash"])
        if not good:
            failures = (0 if user["locked_until"] else user["failures"]) + 1
            until = (now + LOCKOUT).isoformat() if failures >= MAX_FAILURES else None
            self._write(rows.sign_in_failed(now, name, user["role"], "wrong PIN", failures if not until else 0,
                                            until))
            if until:
                raise SignInError(f"wrong PIN; {name} is locked until {until} ({MAX_FAILURES} failures)")
            raise SignInError(f"wrong PIN ({failures} of {MAX_FAILURES} before a {LOCKOUT.seconds // 60}-minute "
                              "lockout)")
        self._write(rows.sign_in(now, name, user["role"], station))
        return Session(name, user["role"])


def anyone(log: AuditLog) -> bool:
    """Whether any user exists (a new database has none until its first administrator)."""
    return bool(log.query("SELECT 1 FROM users LIMIT 1"))
