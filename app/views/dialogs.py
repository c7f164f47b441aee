"""The dialogs a person signs, acknowledges, decides and administers through.

Each dialog sends its work down the bridge (app/views/bridge.py) and stays open until the
workstation answers: a refusal (a wrong PIN, a dealer acknowledging, a request already decided)
is shown in the dialog as the workstation worded it, the PIN field is cleared, and the person can
try again; success closes it. The workstation decides every rule; a dialog only refuses to send
an empty field it needs (a name, a PIN, the reason of a denial).
"""

from __future__ import annotations

from app.store.users import ROLES

from . import theme
from .pit_models import UserModel
from app.qt import (QComboBox, QDialog, QDialogButtonBox, QFormLayout, QHBoxLayout, QLabel, QLineEdit, QPlainTextEdit,
                 QPushButton, Qt, QVBoxLayout, QWidget)
from .widgets import record_view, seat_text, when, words


def _error_label() -> QLabel:
    lb = QLabel()
    lb.setObjectName("error")
    lb.setWordWrap(True)
    lb.setTextFormat(Qt.TextFormat.PlainText)
    lb.setFont(theme.font(1.05, bold=True))
    theme.set_level(lb, theme.RED)
    lb.hide()
    return lb


def _pin_edit() -> QLineEdit:
    pin = QLineEdit()
    pin.setObjectName("pin")
    pin.setEchoMode(QLineEdit.EchoMode.Password)
    pin.setMaxLength(12)
    pin.setInputMethodHints(Qt.InputMethodHint.ImhDigitsOnly | Qt.InputMethodHint.ImhSensitiveData)
    return pin


class WorkDialog(QDialog):
    """A dialog whose OK sends work down the bridge and waits for the answer."""

    def __init__(self, bridge, title: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.bridge = bridge
        self.setWindowTitle(title)
        self.setModal(True)
        # wide enough that a wrapped message (the alarm's, the request's reason) reads in a few lines
        self.setMinimumWidth(int(theme.base_pt() * 48))
        self.error = _error_label()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.submit)
        self.buttons.rejected.connect(self.reject)
        self.ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.busy = False
        self.result_value = None

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.show()
        self.adjustSize()        # grow for the message rather than squeeze the wrapped lines above it

    def showEvent(self, event) -> None:
        self.adjustSize()
        super().showEvent(event)

    def submit(self) -> None:
        if self.busy:
            return
        problem = self.check()
        if problem:
            self.show_error(problem)
            return
        self.busy = True
        self.ok.setEnabled(False)
        self.error.hide()
        # the fields are read here, on the GUI thread; the lane gets plain values only
        self.bridge.act(self.action(), self._done, self._failed)

    def check(self) -> str:
        """What is missing before anything is sent ('' when nothing)."""
        return ""

    def action(self):
        """The work, as a function of the workstation, with the fields' values bound in."""
        raise NotImplementedError

    def _done(self, result) -> None:
        self.busy = False
        self.ok.setEnabled(True)
        self.result_value = result
        self.accept()

    def _failed(self, error: BaseException) -> None:
        self.busy = False
        self.ok.setEnabled(True)
        self.show_error(str(error) or type(error).__name__)
        self.refused(error)

    def refused(self, error: BaseException) -> None:
        """After a refusal (the PIN is cleared, the cursor put back)."""


class IdentityFields:
    """Name and PIN. ``pin_optional``: an empty PIN acts as whoever is signed in under that
    name; a PIN signs the name in first (over whoever was signed in)."""

    def __init__(self, form: QFormLayout, session, pin_optional: bool):
        self.name = QLineEdit()
        self.name.setObjectName("name")
        self.name.setMaxLength(64)
        self.pin = _pin_edit()
        self.session = session
        self.pin_optional = pin_optional and session is not None
        if session is not None:
            self.name.setText(session.name)
        form.addRow("&Name", self.name)
        form.addRow("&PIN", self.pin)
        if self.pin_optional:
            hint = QLabel(f"Signed in: {session.name} ({session.role}). Leave the PIN empty to act as "
                          f"{session.name}; another name needs its PIN.")
            hint.setWordWrap(True)
            theme.set_dim(hint)
            form.addRow("", hint)

    def check(self) -> str:
        name = self.name.text().strip()
        if not name:
            return "Type your name."
        if not self.pin.text() and not (self.pin_optional and name == self.session.name):
            return f"Type {name}'s PIN."
        return ""

    def then(self, act):
        """The work ``act(ws)``, after signing in if a PIN was typed (values read now, on the
        GUI thread; the function returned runs on the lane)."""
        name, pin = self.name.text().strip(), self.pin.text()

        def work(ws):
            if not pin:
                return act(ws)
            first = ws.sign_in(name, pin)
            return act(ws) | first
        return work

    def focus(self) -> None:
        (self.pin if self.name.text() else self.name).setFocus()


def _summary(lines: list[tuple[str, str]]) -> QWidget:
    box = QWidget()
    form = QFormLayout(box)
    form.setContentsMargins(0, 0, 0, 0)
    for k, v in lines:
        if v:
            value = QLabel(v)
            value.setWordWrap(True)
            value.setTextFormat(Qt.TextFormat.PlainText)
            value.setFont(theme.font(1.05, bold=True))
            form.addRow(k, value)
    return box


# -- sign-in ------------------------------------------------------------------------------------
class PinDialog(WorkDialog):
    """A dialog whose work is done by a person who gives a name and PIN (``self.identity``).

    ``lay_out`` lays one out as the others are: what it is about (a summary), the name and PIN,
    the dialog's own fields (added to the form it returns), the error line, the buttons. A dialog
    that records why (``add_reason``) refuses to send without a reason while ``reason_needed``
    says what to type."""

    reason: QLineEdit | QPlainTextEdit | None = None
    reason_needed = ""      # said when the reason is empty and one is needed; "" when none is

    @property
    def name(self) -> QLineEdit:
        return self.identity.name

    @property
    def pin(self) -> QLineEdit:
        return self.identity.pin

    def lay_out(self, rows: list[tuple[str, str]], session, ok: str, *, pin_optional: bool = True,
                extra: tuple[QWidget, ...] = ()) -> QFormLayout:
        """The summary of ``rows``, ``extra`` widgets under it, the name and PIN (``pin_optional``:
        an empty PIN acts as whoever is signed in), the error line and the buttons, OK saying
        ``ok``; the cursor where a person types first. Returns the form, for the dialog's fields."""
        form = QFormLayout()
        self.identity = IdentityFields(form, session, pin_optional=pin_optional)
        box = QVBoxLayout(self)
        box.addWidget(_summary(rows))
        for w in extra:
            box.addWidget(w)
        box.addLayout(form)
        box.addWidget(self.error)
        box.addWidget(self.buttons)
        self.ok.setText(ok)
        self.identity.focus()
        return form

    def add_reason(self, form: QFormLayout, placeholder: str, label: str = "&Why", lines: int = 1) -> None:
        """The reason field (``reason``) under the name and PIN; ``lines`` over 1: several lines."""
        if lines > 1:
            self.reason = QPlainTextEdit()
            self.reason.setTabChangesFocus(True)
            self.reason.setFixedHeight(int(theme.font().pointSizeF() * 2 * lines))
        else:
            self.reason = QLineEdit()
        self.reason.setObjectName("reason")
        self.reason.setPlaceholderText(placeholder)
        form.addRow(label, self.reason)

    def why(self) -> str:
        r = self.reason
        if r is None:
            return ""
        return (r.toPlainText() if isinstance(r, QPlainTextEdit) else r.text()).strip()

    def check(self) -> str:
        problem = self.identity.check()
        if not problem and self.reason_needed and not self.why():
            problem = self.reason_needed
        return problem

    def refused(self, error) -> None:
        self.pin.clear()
        self.identity.focus()


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
        return lambda ws: ws.sign_in(name, pin)

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
        self.pin = _pin_edit()
        self.pin2 = _pin_edit()
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
        return lambda ws: ws.create_administrator(name, pin) | ws.sign_in(name, pin)


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
        return self.identity.then(lambda ws: ws.acknowledge_alarm(alarm, reason))


# -- approving or denying a request ---------------------------------------------------------------
class DecideDialog(PinDialog):
    """Approve or deny one request: always a PIN (the supervisor signs for the money), and a
    reason for a denial."""

    def __init__(self, bridge, request, decision: str, session=None, parent: QWidget | None = None):
        verb = "Approve" if decision == "approved" else "Deny"
        super().__init__(bridge, f"{verb} request {request.request}", parent)
        self.request, self.decision = request, decision
        form = self.lay_out([("Request", f"{request.request}: {words(request.kind)}"),
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
        return self.identity.then(lambda ws: ws.decide(request, decision, reason))


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
        who = QLabel(f"Signed in: {session.name} ({session.role})" if session else "Nobody is signed in: an "
                     "administrator signs in (File > Sign in) to add users, set roles, lock and unlock accounts.")
        who.setWordWrap(True)
        theme.set_dim(who)
        self.who = who

        self.name = QLineEdit()
        self.name.setObjectName("new_name")
        self.role = QComboBox()
        self.role.setObjectName("new_role")
        self.role.addItems(list(ROLES))
        self.pin = _pin_edit()
        self.pin.setObjectName("new_pin")
        self.pin2 = _pin_edit()
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
        self.error = _error_label()
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

        self.bridge.act(lambda ws: ws.add_user(name, role, pin), done, lambda e: self._say(error=str(e)))

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
        self.bridge.act(lambda ws: ws.set_role(name, role), lambda _: self._say(ok=f"{name}'s role is now {role}."),
                        lambda e: self._say(error=str(e)))

    def _on_selected(self, method: str) -> None:
        user = self.selected()
        if user is None:
            return self._say(error="Select a user in the list first.")
        verb = "locked" if method == "lock_user" else "unlocked"
        self.bridge.act(lambda ws: getattr(ws, method)(user.name), lambda _: self._say(ok=f"{user.name} {verb}."),
                        lambda e: self._say(error=str(e)))
