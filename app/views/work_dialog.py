"""The base of every dialog a person sends work through: ``WorkDialog`` (OK sends the work down
the bridge and the dialog waits for the answer), ``IdentityFields`` (a name and a PIN) and
``PinDialog`` (a dialog a person signs with a name and PIN, laid out as every other: what it is
about, the name and PIN, its own fields, a reason where one is recorded).

A refusal is shown in the dialog as the workstation worded it, the PIN is cleared, and the person
can try again; success closes the dialog. A dialog only refuses to send an empty field it needs.
"""

from __future__ import annotations

from . import theme
from app.qt import (QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QPlainTextEdit, Qt, QVBoxLayout,
                    QWidget)


def error_label() -> QLabel:
    lb = QLabel()
    lb.setObjectName("error")
    lb.setWordWrap(True)
    lb.setTextFormat(Qt.TextFormat.PlainText)
    lb.setFont(theme.font(1.05, bold=True))
    theme.set_level(lb, theme.RED)
    lb.hide()
    return lb


def pin_edit() -> QLineEdit:
    pin = QLineEdit()
    pin.setObjectName("pin")
    pin.setEchoMode(QLineEdit.EchoMode.Password)
    pin.setMaxLength(32)
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
        self.error = error_label()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.submit)
        self.buttons.rejected.connect(self.reject)
        self.ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.busy = False
        self.result_value = None

    def show_error(self, text: str) -> None:
        self.error.setText(text)
        self.error.show()
        self._fit()              # grow for the message rather than squeeze the wrapped lines above it

    def showEvent(self, event) -> None:
        self._fit()
        super().showEvent(event)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._tall_enough()

    def _fit(self) -> None:
        self.adjustSize()
        self._tall_enough()

    def _tall_enough(self) -> None:
        """As tall as the wrapped lines need at the width the dialog has (``adjustSize`` wraps them
        at another width and, at 1366x768, drew an alarm's message over the line under it)."""
        lay = self.layout()
        if lay is None or not lay.hasHeightForWidth():
            return
        need = lay.totalHeightForWidth(self.width())
        if self.minimumHeight() != need:
            self.setMinimumHeight(need)
        if self.height() < need:
            self.resize(self.width(), need)

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
    name. Another person's name and PIN counter-sign this one decision (issue 27): their PIN is
    checked as a sign-in's, the rows name them, and whoever is signed in stays signed in (the
    workstation's ``signer``, app/workstation/desks/people.py ``countersigner``). Nobody signed in:
    the workstation asks for a sign-in first (docs/views.md)."""

    def __init__(self, form: QFormLayout, session, pin_optional: bool):
        self.name = QLineEdit()
        self.name.setObjectName("name")
        self.name.setMaxLength(64)
        self.pin = pin_edit()
        self.session = session
        self.pin_optional = pin_optional and session is not None
        if session is not None:
            self.name.setText(session.name)
        form.addRow("&Name", self.name)
        form.addRow("&PIN", self.pin)
        if session is not None:
            others = (f"Leave the PIN empty to act as {session.name}; another" if self.pin_optional
                      else "Another")
            hint = QLabel(f"Signed in: {session.name} ({session.role}). {others} person's name and PIN "
                          f"counter-sign this one decision, and {session.name} stays signed in.")
            hint.setObjectName("countersign_note")
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

    def signer(self) -> tuple[str, str]:
        """The name and PIN typed (read now, on the GUI thread), as the workstation takes them."""
        return self.name.text().strip(), self.pin.text()

    def then(self, act):
        """The work ``act(ws, signer)``: ``signer`` the name and PIN typed, bound now (the function
        returned runs on the lane)."""
        signer = self.signer()
        return lambda ws: act(ws, signer)

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
        # typed in the order it is read: the PIN, why, then the button (the reason is made after
        # the buttons, and Qt's focus chain follows the order widgets are made)
        QWidget.setTabOrder(self.pin, self.reason)
        QWidget.setTabOrder(self.reason, self.ok)
        QWidget.setTabOrder(self.ok, self.buttons.button(QDialogButtonBox.StandardButton.Cancel))

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
