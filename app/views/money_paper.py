"""The Money menu's paper and files (issue 34, docs/inventory.md): a fill or credit slip put on
paper, and the count room's file imported.

**A slip on paper** (Money > Print a fill or credit slip…): a small dialog asks which slip (fill
or credit and its number, the table's latest offered), then Save as PDF (the file dialog the
payout slip's is) or Print (the print dialog). The slip's row and its table's citation are read
on the workstation's lane (``ws.reads.tray_slip``); its two copies are drawn and the file written
whole, or the printer fed, on the logs' lane (app/reports/tray_slip.py): never on the GUI thread.
The status bar says how it went.

**The count room's file** (Money > Import the count room's file…): a file dialog; the file read
and checked on the lane (app/workstation/count_room.py); then a dialog that lists each table's
drop as the file gives it and asks for the second of the count team's name and PIN, as the drop
dialog does; then ``ws.inventory.drops`` writes every table's drop or none. A fault of the file,
or a table the desk refuses, is shown in that dialog naming the file's line.
"""

from __future__ import annotations

from pathlib import Path

from app.engine.money import dollars
from app.reports.slip import slip_number
from app.reports.tray_slip import print_tray_slip, write_slip_pdf
from app.workstation.count_room import CountRoomError, read as read_count_room
from app.workstation.errors import FieldsRefused

from . import theme
from app.qt import (QComboBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QLabel, QPrintDialog, QPrinter,
                    QPushButton, QSpinBox, QVBoxLayout, QWidget)
from .money_dialogs import MoneyDialog
from .theme import LEVEL_MARK, OK, RED
from .widgets import documents_folder, save_dialog


class SlipChoiceDialog(QDialog):
    """Which fill or credit slip to put on paper, and how: ``how`` is "pdf" or "print" once chosen."""

    def __init__(self, table: str | None, slips, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("tray_slip_choice")
        self.setWindowTitle("Print a fill or credit slip")
        self.how: str | None = None
        self.kind = QComboBox()
        self.kind.setObjectName("kind")
        self.kind.addItems(["fill", "credit"])
        self.number = QSpinBox()
        self.number.setObjectName("number")
        self.number.setRange(1, 999_999)
        latest = slips[-1] if slips else None
        if latest is not None:
            self.kind.setCurrentText(latest.kind)
            self.number.setValue(latest.number)
        note = QLabel(f"The latest of {table}: {latest.kind} slip {slip_number(latest.number)} ({latest.status})."
                      if latest is not None else f"No fill or credit at {table} this shift: type the slip's number."
                      if table else "Type the slip's kind and number.")
        note.setObjectName("latest")
        note.setWordWrap(True)
        theme.set_dim(note)
        form = QFormLayout()
        form.addRow("&Slip", self.kind)
        form.addRow("&Number", self.number)
        form.addRow("", note)
        form.addRow("", QLabel("Two copies: the ORIGINAL for the drop box, the DUPLICATE for the cage."))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.save = QPushButton("Save as &PDF…")
        self.save.setObjectName("save_pdf")
        self.print = QPushButton("P&rint…")
        self.print.setObjectName("print")
        buttons.addButton(self.save, QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.addButton(self.print, QDialogButtonBox.ButtonRole.AcceptRole)
        self.save.clicked.connect(lambda: self._chosen("pdf"))
        self.print.clicked.connect(lambda: self._chosen("print"))
        buttons.rejected.connect(self.reject)
        self.save.setDefault(True)
        box = QVBoxLayout(self)
        box.addLayout(form)
        box.addWidget(buttons)
        self.number.setFocus()

    def chosen(self) -> tuple[str, int]:
        return self.kind.currentText(), self.number.value()

    def _chosen(self, how: str) -> None:
        self.how = how
        self.accept()


class SlipPaper:
    """A fill or credit slip on paper from the window ``window`` (its bridge, its status bar)."""

    def __init__(self, window):
        self.window = window
        self.printer: QPrinter | None = None
        self.done = 0             # slips put on paper (tests wait on it)

    def choose(self, table: str | None, info) -> SlipChoiceDialog:
        w = self.window
        d = SlipChoiceDialog(table, info.slips if info is not None else (), w)
        d.accepted.connect(lambda: self._then(d.how, *d.chosen()))
        return w._open(d)

    def _then(self, how: str | None, kind: str, number: int) -> None:
        # the chooser is closing: the next dialog once it has gone (the window has one at a time)
        from app.qt import QTimer
        QTimer.singleShot(0, self.window, lambda: self.save(kind, number) if how == "pdf" else
                          self.print(kind, number))

    def save(self, kind: str, number: int, path: str | None = None) -> QFileDialog | None:
        """The slip as a PDF at ``path``, or where a person chooses in the file dialog returned."""
        if path is None:
            w = self.window
            d = save_dialog(w, f"Save {kind} slip {slip_number(number)} as PDF", "save_tray_slip_dialog", "PDF",
                            "pdf", f"{kind}-slip-{slip_number(number)}.pdf")
            d.fileSelected.connect(lambda p: self.save(kind, number, p))
            return w._open(d)
        self._on_paper(kind, number, lambda row, rule, now: write_slip_pdf(row, path, rule=rule, printed=now),
                       "saved", f"saved as {path}")
        return None

    def print(self, kind: str, number: int) -> QPrintDialog:
        """The slip to a printer chosen in the print dialog (opened, not run)."""
        w = self.window
        self.printer = printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        d = QPrintDialog(printer, w)
        d.setObjectName("print_tray_slip_dialog")
        d.setWindowTitle(f"Print {kind} slip {slip_number(number)}")
        d.accepted.connect(lambda *_: self._print(kind, number, printer))
        return w._open(d)

    def _print(self, kind: str, number: int, printer: QPrinter) -> None:
        if printer.outputFileName():        # a printer that prints to a file: the PDF, written whole
            self.save(kind, number, printer.outputFileName())
            return
        self._on_paper(kind, number, lambda row, rule, now: print_tray_slip(row, printer, rule=rule, printed=now),
                       "printed", f"sent to {printer.printerName() or 'the printer'}")

    def _on_paper(self, kind: str, number: int, draw, verb: str, done: str) -> None:
        """The slip read on the workstation's lane, ``draw(row, rule, now)`` on the logs' lane."""
        w, b = self.window, self.window.bridge
        what = f"{kind.capitalize()} slip {slip_number(number)}"

        def failed(e: BaseException) -> None:
            w.statusBar().showMessage(f"{LEVEL_MARK[RED]} {what} was not {verb}: {getattr(e, 'strerror', None) or e}",
                                      15000)

        def drawn(_=None) -> None:
            self.done += 1
            w.statusBar().showMessage(f"{LEVEL_MARK[OK]} {what} {done} (ORIGINAL and DUPLICATE).", 15000)

        def read(got) -> None:
            row, rule = got
            now = b.clock()
            b.read_aside(lambda ws: draw(row, rule, now), drawn, failed)

        b.read(lambda ws: ws.reads.tray_slip(kind, number), read, failed)


class CountRoomDialog(MoneyDialog):
    """The count room's file as read: each table's drop by the file, or the file's fault; signed by
    the one signed in and the second of the count team."""

    def __init__(self, bridge, path: str, room, fault: str, session, parent: QWidget | None = None):
        rows = [("File", path)]
        if room is not None:
            for table, counts in room.counts.items():
                notes = ", ".join(f"{n} x {dollars(v)}" for v, n in sorted(counts.items(), reverse=True) if n)
                rows.append((f"Table {table}", f"{dollars(room.cents(table))}  ({notes or 'no notes'}), line "
                                               f"{room.lines[table]}"))
        super().__init__(bridge, "Import the count room's file", "", rows, "Sign the drops", session, parent)
        self.setObjectName("count_room_dialog")
        self.room, self.path = room, path
        self.second = self.add_signer("Second of the count team")
        if fault:
            self.show_error(fault)
            self.ok.setEnabled(False)        # a file refused is corrected and imported again
        self.second.name.setFocus()

    def check(self) -> str:
        if self.room is None:
            return self.error.text()
        return super().check() or ("" if self.second.value() else
                                   "Type the second counter's name and PIN: two of the count team sign.")

    def action(self):
        room, signers, source = self.room, self.signed(), Path(self.path).name

        def drops(ws):
            try:
                return ws.inventory.drops(room.drops(), signers=signers, source=source)
            except FieldsRefused as e:
                raise room.refusal(e) from None
        return drops


def import_count_room(window, path: str | None = None) -> QDialog | None:
    """Money > Import the count room's file: the file dialog (``path``: the file chosen), the file
    read and checked on the lane, then the dialog that signs its drops."""
    w = window
    if path is None:
        d = QFileDialog(w, "Import the count room's file")
        d.setObjectName("count_room_file_dialog")
        d.setAcceptMode(QFileDialog.AcceptMode.AcceptOpen)
        d.setFileMode(QFileDialog.FileMode.ExistingFile)
        d.setNameFilters(["The count room's file (*.csv)", "Any file (*)"])
        d.setDirectory(documents_folder())
        d.fileSelected.connect(lambda p: import_count_room(w, p))
        return w._open(d)

    def opened(room=None, fault: str = "") -> None:
        if w._closed:
            return
        if isinstance(w.dialog, QFileDialog):      # the file dialog closing: the next once it has gone
            from app.qt import QTimer
            QTimer.singleShot(0, w, lambda: opened(room, fault))
            return
        if w.dialog is not None:
            w.statusBar().showMessage(f"The count room's file {Path(path).name} was read; close the dialog open "
                                      "and import it again.", 15000)
            return
        d = CountRoomDialog(w.bridge, path, room, fault, w.session, w)
        d.accepted.connect(lambda: w.statusBar().showMessage(
            f"{LEVEL_MARK[OK]} The count room's file {Path(path).name}: {len(room.counts)} drop"
            f"{'' if len(room.counts) == 1 else 's'} counted.", 10000))
        w._open(d)

    def failed(e: BaseException) -> None:
        if isinstance(e, CountRoomError):
            opened(None, str(e))
        else:
            w.statusBar().showMessage(f"{LEVEL_MARK[RED]} the count room's file {path}: {e}", 15000)

    w.bridge.read(lambda ws: read_count_room(path, ws.tables(), ws.config.currency.denominations), opened, failed)
    return None


__all__ = ["SlipChoiceDialog", "SlipPaper", "CountRoomDialog", "import_count_room"]
