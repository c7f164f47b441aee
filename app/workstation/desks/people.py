"""The people desk: who is signed in, the idle sign-out, and the users an administrator keeps.

One person at a time at the workstation: a new sign-in replaces the session (the floor
supervisor who walks over to approve a payout signs in over the dealer). A table's station (the
dealer's keypad at the table) is not the workstation: a person signs in there with their PIN
(``sign_in_at``) and what they do ``at`` that station is theirs, in their role, whoever is signed in
at the workstation (the demo floor's dealers, app/simulate/table_play.py). The session ends at ``sign_out``, or when nothing was
done for the configured idle time (five minutes unless configured); the window calls ``touch``
on every key or click. Who may do what is the roles' (app/engine/roles.py); every sign-in,
wrong PIN, lock-out and change of a user is logged (docs/audit.md, "People").
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from datetime import datetime

from app.engine.roles import ADMINISTRATION, ADMINISTRATOR, PEOPLE, a_or_an, roles_text
from app.store import rows, users as user_store
from app.store.log import StoreStopped
from app.store.users import Session, SignInError, UserError, Users

from ..changes import NOTHING, Changes, changes
from ..errors import LogStopped, NotPermitted, Refused, SignInRefused, SignInRequired
from ..readouts import SessionInfo, UserInfo
from ..signed_in import SignedIn


@dataclass(frozen=True)
class Station:
    """Who signed in at a table's station (``People.sign_in_at``), and since when."""

    table: str
    name: str
    role: str
    since: datetime


class People:
    def __init__(self, ws, salt: Callable[[int], bytes] | None = None):
        self.ws = ws
        self._users = Users(ws.log) if salt is None else Users(ws.log, salt=salt)
        self._session: SignedIn | None = None
        self._here = threading.local()   # the station acting on this thread (``at``)

    @property
    def idle(self):
        return self.ws.config.idle

    # -- the session ---------------------------------------------------------------------------
    def sign_in(self, name: str, pin: str) -> Changes:
        """Sign ``name`` in with ``pin``, replacing whoever was signed in. ``SignInRefused`` for an
        unknown name, a wrong PIN (counted: five in a row lock the account for 15 minutes) or a
        locked account; the attempt is logged either way (the next pump says so)."""
        with self.ws.lock:
            self.ws.writable()
            now = self.ws.clock()
            try:
                s = self._users.sign_in(name, pin, now)
            except SignInError as e:
                raise SignInRefused(str(e)) from None
            except StoreStopped as e:
                raise LogStopped(str(e)) from None
            self._session = SignedIn(s.name, s.role, now, now)
            return self.ws.journal.changes() | changes(session=True)

    def sign_out(self, reason: str = "signed out") -> Changes:
        """End the session (logged as ``signed_out``); ``NOTHING`` when nobody is signed in."""
        with self.ws.lock:
            if self._session is None:
                return NOTHING
            return self._end(self.ws.clock(), reason)

    def touch(self, now: datetime | None = None) -> Changes:
        """Activity (a key, a click): the idle time starts again. Nothing is logged."""
        with self.ws.lock:
            now = now or self.ws.clock()
            if self._session is not None and not self._session.expired(now, self.idle):
                self._session = self._session.touched(now)
            return NOTHING

    def expire_idle(self, now: datetime | None = None) -> Changes:
        """Sign out a session idle for the configured time (logged at the moment it ran out)."""
        with self.ws.lock:
            now = now or self.ws.clock()
            s = self._session
            if s is None or not s.expired(now, self.idle):
                return NOTHING
            return self._end(s.ends(self.idle), f"idle for {_minutes(self.idle)}")

    def session(self, now: datetime | None = None) -> SessionInfo | None:
        """Who is signed in, or None (also once the idle time has run out)."""
        s = self._session
        now = now or self.ws.clock()
        if s is None or s.expired(now, self.idle):
            return None
        return s.info(self.idle)

    def confirm(self, name: str, pin: str) -> Session:
        """``name``'s PIN checked as a sign-in checks it, for a counter-signature (app/store/users.py,
        ``Users.confirm``): a wrong PIN logged and counted, a locked account refused
        (``SignInRefused``); the session is not touched. Called under the workstation's lock."""
        self.ws.writable()
        try:
            return self._users.confirm(name, pin, self.ws.clock())
        except SignInError as e:
            raise SignInRefused(f"{name}: {e}" if not str(e).startswith(("no user", name)) else str(e)) from None
        except StoreStopped as e:
            raise LogStopped(str(e)) from None

    def countersigner(self, s: SignedIn, signer: tuple[str, str] | None, roles: tuple[str, ...],
                      what: str) -> tuple[str, str] | None:
        """The (name, role) of the second person whose name and PIN (``signer``) authorise one
        decision at ``s``'s session, or None: no signer, or ``s``'s own name (with a PIN: theirs confirmed). Their PIN
        is checked as a sign-in checks it (``confirm``: a wrong one logged and counted toward the
        lockout); ``NotPermitted`` when their role may not ``what``. Nobody signs in by it."""
        if signer is None:
            return None
        name, pin = signer
        if name == s.name and not pin:
            return None                     # the signed-in person acts, as signed in
        second = self.confirm(name, pin)
        if second.name == s.name:
            return None                     # their own PIN, confirmed
        if second.role not in roles:
            raise NotPermitted(f"{second.name} is {a_or_an(second.role)}; to {what} takes {roles_text(roles)} "
                               "(a counter-signature too)")
        return second.name, second.role

    # -- a table's station ------------------------------------------------------------------------
    def sign_in_at(self, table: str, name: str, pin: str) -> Station:
        """``name`` signs in with ``pin`` at ``table``'s station (logged, as every sign-in, with the
        station); the workstation's session is not touched. ``SignInRefused`` as ``sign_in``."""
        return self.sign_in_at_stations((table,), name, pin)[table]

    def sign_in_at_stations(self, tables: tuple[str, ...], name: str, pin: str) -> dict[str, Station]:
        """``name`` signs in once with ``pin`` at the stations of all of ``tables`` (the demo floor's
        one dealer and one floor supervisor at every table): one PIN check and one ``sign_in`` row
        naming every station (``stations``; a single table's row names its table, as
        ``sign_in_at``'s). The workstation's session is not touched. ``SignInRefused`` as ``sign_in``."""
        tables = tuple(tables)
        if not tables:
            raise Refused("a sign-in at a table's station names at least one table")
        with self.ws.lock:
            self.ws.writable()
            for table in tables:
                self.ws.check_table(table)
            now = self.ws.clock()
            try:
                s = self._users.sign_in(name, pin, now, station=tables)
            except SignInError as e:
                raise SignInRefused(str(e)) from None
            except StoreStopped as e:
                raise LogStopped(str(e)) from None
            return {table: Station(table, s.name, s.role, now) for table in tables}

    @contextmanager
    def at(self, station: Station) -> Iterator[None]:
        """What this thread does inside is done at ``station``: by its person, in their role."""
        before = getattr(self._here, "station", None)
        self._here.station = station
        try:
            yield
        finally:
            self._here.station = before

    def allowed(self, roles: tuple[str, ...], what: str) -> tuple[SignedIn, datetime]:
        """The signed-in session if its role may do ``what``, and now; the session touched (the
        workstation's ``require``). At a table's station (``at``): its person, in their role."""
        now = self.ws.clock()
        station = getattr(self._here, "station", None)
        if station is not None:
            if station.role not in roles:
                raise NotPermitted(f"{station.name} is {a_or_an(station.role)}; to {what} takes {roles_text(roles)}")
            return SignedIn(station.name, station.role, station.since, now), now
        s = self._session
        if s is None:
            raise SignInRequired(f"nobody is signed in; sign in with a PIN to {what}")
        if s.expired(now, self.idle):
            self._end(s.ends(self.idle), f"idle for {_minutes(self.idle)}")
            raise SignInRequired(f"{s.name}'s session ended after {_minutes(self.idle)} without activity; sign in "
                                 f"again to {what}")
        if s.role not in roles:
            raise NotPermitted(f"{s.name} is {a_or_an(s.role)}; to {what} takes {roles_text(roles)}")
        self._session = s.touched(now)
        return self._session, now

    def _end(self, at: datetime, reason: str) -> Changes:
        # nobody stays signed in, even when the log can no longer say so (LogStopped)
        s, self._session = self._session, None
        return self.ws.write([rows.signed_out(at, s.name, s.role, reason)]) | changes(session=True)

    # -- the users -----------------------------------------------------------------------------
    def needs_first_administrator(self) -> bool:
        """True on a new database: nobody can sign in until ``create_administrator``."""
        with self.ws.reading():
            return not user_store.anyone(self.ws.log)

    def create_administrator(self, name: str, pin: str) -> Changes:
        """First run only: the first user, an administrator (``Refused`` once any user exists)."""
        with self.ws.lock:
            self.ws.writable()
            return self._change(lambda now: self._users.create_administrator(name, pin, now), name)

    def add_user(self, name: str, role: str, pin: str) -> Changes:
        """An administrator adds a dealer, floor supervisor, pit manager or administrator."""
        with self.ws.lock:
            s, _ = self.ws.require(ADMINISTRATION, "add users")
            return self._change(lambda now: self._users.add(Session(s.name, s.role), name, role, pin, now), name)

    def change_pin(self, name: str, pin: str) -> Changes:
        """A user changes their own PIN; an administrator anyone's."""
        with self.ws.lock:
            s, _ = self.ws.require(PEOPLE, "change a PIN")
            if s.name != name and s.role != ADMINISTRATOR:
                raise NotPermitted(f"{s.name} may change only their own PIN; an administrator changes {name}'s")
            return self._change(lambda now: self._users.change_pin(Session(s.name, s.role), name, pin, now), name)

    def set_role(self, name: str, role: str) -> Changes:
        """An administrator gives a user another role (``role_changed``); their next sign-in is in
        it. ``Refused``: an unknown user or role, the role they have, or the last unlocked
        administrator's (app/store/users.py). An administrator who steps down stays signed in
        in the new role, and may then do only what it may."""
        with self.ws.lock:
            s, _ = self.ws.require(ADMINISTRATION, "set roles")
            changed = self._change(lambda now: self._users.set_role(Session(s.name, s.role), name, role, now), name)
            if name == s.name:
                self._session = replace(self._session, role=role)
                changed |= changes(session=True)
            return changed

    def lock_user(self, name: str) -> Changes:
        """An administrator locks an account until it is unlocked."""
        with self.ws.lock:
            s, _ = self.ws.require(ADMINISTRATION, "lock users")
            if name == s.name:
                raise Refused(f"{name} cannot lock their own account")
            return self._change(lambda now: self._users.lock(Session(s.name, s.role), name, now), name)

    def unlock_user(self, name: str) -> Changes:
        """An administrator unlocks an account (an administrator's lock, or the 15-minute lockout)."""
        with self.ws.lock:
            s, _ = self.ws.require(ADMINISTRATION, "unlock users")
            return self._change(lambda now: self._users.unlock(Session(s.name, s.role), name, now), name)

    def users(self) -> tuple[UserInfo, ...]:
        """Everyone who may sign in, by name: role, wrong PINs in a row, locks. Never a PIN hash."""
        with self.ws.reading():
            listed = self._users.list()
        return tuple(UserInfo(r["name"], r["role"], datetime.fromisoformat(r["created"]), r["failures"],
                              datetime.fromisoformat(r["locked_until"]) if r["locked_until"] else None,
                              r["locked_by"]) for r in listed)

    def _change(self, do: Callable[[datetime], None], name: str) -> Changes:
        try:
            do(self.ws.clock())
        except UserError as e:
            raise Refused(str(e)) from None
        except StoreStopped as e:
            raise LogStopped(str(e)) from None
        return self.ws.journal.changes() | changes(users=[name])


def _minutes(idle) -> str:
    m = idle.total_seconds() / 60
    return f"{m:g} minute{'s' if m != 1 else ''}"
