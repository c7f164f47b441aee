"""The dialogs a person signs in, acknowledges an alarm, decides a request and administers the
users through.

Each is a ``WorkDialog`` (app/views/work_dialog.py): it sends its work down the bridge and stays
open until the workstation answers; a refusal (a wrong PIN, a dealer acknowledging, a request
already decided) is shown as the workstation worded it and the person can try again; success
closes it. The workstation decides every rule; a dialog only refuses to send an empty field it
needs (a name, a PIN, the reason of a denial).
"""

from __future__ import annotations

from app.engine.roles import ADMINISTRATOR, PEOPLE as ROLES

from . import theme
from .pit_models import REQUEST_WORDS, UserModel
from app.qt import (QComboBox, QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPushButton,
                    QVBoxLayout, QWidget)
from .widgets import record_view, seat_text, when, words
from .work_dialog import IdentityFields, PinDialog, WorkDialog, error_label, pin_edit


# -- sign-in ------------------------------------------------------------------------------------
class SignInDialog(PinDialog):
    def __init__(self, bridge, session=None, parent: QWidget | None = None):
        super().__init__(bridge, "Sign in", parent)
        form = QFormLayout()
        self.identity = IdentityFields(form, None, pin_optional=False)
        if session is not None:
            note = QLabel(f"{session.name} ({session.role}) is signed in; signing in replaces them.")
            note.setWordWrap(True)
            theme.set_dim(note)
            form.addRow("", note)
        box = QVBoxLayout(self)
        box.addLayout(form)
        box.addWidget(self.error)
        box.addWidget(self.buttons)
        self.identity.focus()

    def action(self):
        name, pin = self.identity.name.text().strip(), self.identity.pin.text()
        return lambda ws: ws.people.sign_in(name, pin)

    def refused(self, error) -> None:
        self.pin.clear()
        self.pin.setFocus()


class FirstAdministratorDialog(WorkDialog):
    """A new database has no users: the first is an administrator (app/store/users.py)."""

    def __init__(self, bridge, parent: QWidget | None = None):
        super().__init__(bridge, "First administrator", parent)
        form = QFormLayout()
        intro = QLabel("This audit log has no users yet. The first user is an administrator, who then adds the "
                       "dealers, floor supervisors and pit managers (File > Users).")
        intro.setWordWrap(True)
        self.name = QLineEdit()
        self.name.setObjectName("name")
        self.pin = pin_edit()
        self.pin2 = pin_edit()
        self.pin2.setObjectName("pin2")
        form.addRow("&Name", self.name)
        form.addRow("&PIN", self.pin)
        form.addRow("PIN &again", self.pin2)
        box = QVBoxLayout(self)
        box.addWidget(intro)
        box.addLayout(form)
        box.addWidget(self.error)
        box.addWidget(self.buttons)

    def check(self) -> str:
        if not self.name.text().strip():
            return "Type a name."
        if self.pin.text() != self.pin2.text():
            return "The two PINs differ."
        return ""

    def action(self):
        name, pin = self.name.text().strip(), self.pin.text()
        return lambda ws: ws.people.create_administrator(name, pin) | ws.people.sign_in(name, pin)


# -- acknowledging an alarm ---------------------------------------------------------------------
class AcknowledgeDialog(PinDialog):
    reason_needed = "Say why the alarm is dealt with: an acknowledgement records its reason."

    def __init__(self, bridge, alarm, session=None, parent: QWidget | None = None):
        super().__init__(bridge, f"Acknowledge alarm {alarm.id}", parent)
        self.alarm = alarm
        cleared = f"{when(alarm.cleared)}: {alarm.cleared_how} (still waits for acknowledgement)" \
            if alarm.cleared else ""
        form = self.lay_out([("Alarm", f"{words(alarm.kind)} at {alarm.table or 'no table'}"),
                             ("", alarm.message), ("Rule", alarm.rule), ("Device", alarm.serial),
                             ("Raised", when(alarm.raised)), ("Cleared by itself", cleared)], session, "Acknowledge")
        self.add_reason(form, "What was done about it: e.g. deck removed and replaced, technician called", lines=3)

    def action(self):
        alarm, reason = self.alarm.id, self.why()
        return self.identity.then(lambda ws, signer: ws.decisions.acknowledge_alarm(alarm, reason, signer))


# -- approving or denying a request ---------------------------------------------------------------
class DecideDialog(PinDialog):
    """Approve or deny one request: always a PIN (the supervisor signs for the money), and a
    reason for a denial. Another person's name and PIN counter-sign this one decision: the row
    names them, and whoever is signed in stays signed in (``Decisions.decide``'s ``signer``)."""

    def __init__(self, bridge, request, decision: str, session=None, parent: QWidget | None = None):
        verb = "Approve" if decision == "approved" else "Deny"
        super().__init__(bridge, f"{verb} request {request.request}", parent)
        self.request, self.decision = request, decision
        form = self.lay_out([("Request", f"{request.request}: {REQUEST_WORDS.get(request.kind) or words(request.kind)}"),
                             ("Table", f"{request.table or '—'} {seat_text(request.seat)}"),
                             ("Amount", theme.money(request.cents) if request.cents is not None else ""),
                             ("Rule", request.rule), ("Needs", request.role_needed), ("Why", request.reason),
                             ("Requested", when(request.requested))], session, verb, pin_optional=False)
        self.add_reason(form, "required for a denial" if decision == "denied"
                        else f"optional: approved under {request.rule}", "&Reason")
        if decision == "denied":
            self.reason_needed = "Say why: a denial records its reason."

    def action(self):
        request, decision, reason = self.request.request, self.decision, self.why()
        return self.identity.then(lambda ws, signer: ws.decisions.decide(request, decision, reason, signer))


# -- the administrator's users dialog ----------------------------------------------------------------
class UsersDialog(QDialog):
    """Add users with a role and a PIN, set the selected user's role, lock and unlock accounts:
    the administrator signed in does it (the workstation refuses anyone else, and the refusal is
    shown here)."""

    def __init__(self, bridge, session=None, parent: QWidget | None = None):
        super().__init__(parent)
        self.bridge = bridge
        self.setWindowTitle("Users")
        self.model = UserModel(self)
        self.view = record_view(self.model, "users")
        # the list of users (names, roles, lock-outs) is an administrator's to see (issue 27, 10)
        self.admin = session is not None and session.role == ADMINISTRATOR
        who = QLabel(f"Signed in: {session.name} ({session.role})" + ("" if self.admin else ": only an administrator "
                     "sees and keeps the users.") if session else "Nobody is signed in: an "
                     "administrator signs in (File > Sign in) to add users, set roles, lock and unlock accounts.")
        who.setWordWrap(True)
        theme.set_dim(who)
        self.who = who

        self.name = QLineEdit()
        self.name.setObjectName("new_name")
        self.role = QComboBox()
        self.role.setObjectName("new_role")
        self.role.addItems(list(ROLES))
        self.pin = pin_edit()
        self.pin.setObjectName("new_pin")
        self.pin2 = pin_edit()
        self.pin2.setObjectName("new_pin2")
        self.add = QPushButton("&Add user")
        self.add.setObjectName("add")
        self.add.clicked.connect(self.add_user)
        self.lock = QPushButton("&Lock")
        self.lock.setObjectName("lock")
        self.lock.clicked.connect(lambda: self._on_selected("lock_user"))
        self.unlock = QPushButton("&Unlock")
        self.unlock.setObjectName("unlock")
        self.unlock.clicked.connect(lambda: self._on_selected("unlock_user"))
        # the selected user's role: the list's row picks whose, this box the new one
        self.new_role = QComboBox()
        self.new_role.setObjectName("set_role_to")
        self.new_role.addItems(list(ROLES))
        self.new_role.setAccessibleName("New role of the selected user")
        self.set_role = QPushButton("&Set role")
        self.set_role.setObjectName("set_role")
        self.set_role.clicked.connect(self.set_selected_role)
        self.error = error_label()
        self.message = QLabel()
        self.message.setObjectName("message")
        theme.set_level(self.message, theme.OK)

        form = QFormLayout()
        form.addRow("&Name", self.name)
        form.addRow("&Role", self.role)
        form.addRow("&PIN", self.pin)
        form.addRow("PIN a&gain", self.pin2)
        form.addRow("", self.add)
        actions = QHBoxLayout()
        actions.addWidget(self.lock)
        actions.addWidget(self.unlock)
        actions.addSpacing(int(theme.base_pt() * 2))
        role_label = QLabel("Ne&w role")
        role_label.setBuddy(self.new_role)
        actions.addWidget(role_label)
        actions.addWidget(self.new_role)
        actions.addWidget(self.set_role)
        actions.addStretch(1)
        close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        close.rejected.connect(self.reject)
        box = QVBoxLayout(self)
        box.addWidget(who)
        box.addWidget(self.view, 1)
        box.addLayout(actions)
        box.addLayout(form)
        box.addWidget(self.error)
        box.addWidget(self.message)
        box.addWidget(close)
        self.resize(900, 640)
        self.view.selectionModel().currentRowChanged.connect(self._show_role)
        self.view.setVisible(self.admin)
        if self.admin:
            bridge.changed.connect(self._changed)
            bridge.watch_users(True)
            self.finished.connect(lambda _: self._stop_watching())

    def _stop_watching(self) -> None:
        self.bridge.watch_users(False)
        try:
            self.bridge.changed.disconnect(self._changed)
        except (RuntimeError, TypeError):
            pass

    def _changed(self, update) -> None:
        if update.users is not None:
            self.model.set_records(update.users)

    def _say(self, ok: str = "", error: str = "") -> None:
        self.message.setText(ok)
        self.message.setVisible(bool(ok))
        self.error.setText(error)
        self.error.setVisible(bool(error))

    def add_user(self) -> None:
        name, role, pin = self.name.text().strip(), self.role.currentText(), self.pin.text()
        if not name:
            return self._say(error="Type the new user's name.")
        if pin != self.pin2.text():
            return self._say(error="The two PINs differ.")

        def done(_):
            self.name.clear()
            self.pin.clear()
            self.pin2.clear()
            self._say(ok=f"{name} added as {role}.")

        self.bridge.act(lambda ws: ws.people.add_user(name, role, pin), done, lambda e: self._say(error=str(e)))

    def selected(self):
        rows = self.view.selectionModel().selectedRows()
        return self.model.record(rows[0].row()) if rows else None

    def _show_role(self, current, _previous=None) -> None:
        # the box starts at the role the selected user has: the administrator picks the new one
        if current.isValid():
            self.new_role.setCurrentText(self.model.record(current.row()).role)

    def set_selected_role(self) -> None:
        user = self.selected()
        if user is None:
            return self._say(error="Select a user in the list first.")
        name, role = user.name, self.new_role.currentText()
        self.bridge.act(lambda ws: ws.people.set_role(name, role), lambda _: self._say(ok=f"{name}'s role is now {role}."),
                        lambda e: self._say(error=str(e)))

    def _on_selected(self, method: str) -> None:
        user = self.selected()
        if user is None:
            return self._say(error="Select a user in the list first.")
        verb = "locked" if method == "lock_user" else "unlocked"
        self.bridge.act(lambda ws: getattr(ws.people, method)(user.name), lambda _: self._say(ok=f"{user.name} {verb}."),
                        lambda e: self._say(error=str(e)))
