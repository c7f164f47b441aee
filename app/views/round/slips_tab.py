"""The round panel's Slips tab: the table's payout slips in number order, the slip selected, and
that slip put on paper (a one-page PDF, a printer).

The book is the workstation's (``SlipInfo``, app/workstation/readouts.py), given to the tab by the
panel; the page is drawn once for the PDF and the printer (app/reports/slip.py). The buttons are
the window's own slip commands, so that the menu, the shortcut and the button are one command.
"""

from __future__ import annotations

from app.engine.roles import PEOPLE, SUPERVISORS
from app.reports import slip as slip_report

from app.qt import QAction, QFileDialog, QHBoxLayout, QPrintDialog, QPrinter, QVBoxLayout, QWidget
from .round_models import SlipModel
from ..theme import LEVEL_MARK, OK, RED
from ..widgets import allow, command_button, label, record_view, save_dialog

COMMANDS = ("print_slip", "save_slip", "void_slip", "reissue_slip")


class SlipsTab(QWidget):
    """The payout slips of the panel's table. ``panel``: the round panel it is a tab of (its
    clock, its message line, its dialogs); ``actions``: the window's slip commands, as buttons."""

    def __init__(self, panel, actions: dict[str, QAction]):
        super().__init__()
        self.panel = panel
        self.slips: tuple = ()
        self.select_later: int | None = None          # a slip to select once the book is read back
        self.print_dialog: QPrintDialog | None = None
        self.printer: QPrinter | None = None
        self.model = SlipModel(self)
        self.view = record_view(self.model, "slips")
        bar = QHBoxLayout()
        for name in COMMANDS:
            a = actions.get(name)
            if a is not None:
                bar.addWidget(command_button(a, name))
        bar.addStretch(1)
        box = QVBoxLayout(self)
        box.addWidget(label("Payout slips of this table, in number order. A void slip keeps its number; it is "
                            "never used again.", 1.0, wrap=True))
        box.addWidget(self.view, 1)
        box.addLayout(bar)

    # -- the book ----------------------------------------------------------------------------------
    def clear(self) -> None:
        """Another table: no slip yet."""
        self.slips = ()
        self.select_later = None
        self.model.set_records([])

    def show_book(self, slips) -> None:
        self.slips = slips
        self.model.set_records(slips)
        if self.select_later is not None and self.select(self.select_later):
            self.select_later = None

    def selected(self):
        """The slip selected, else the newest (None: no slip)."""
        rows = self.view.selectionModel().selectedRows() if self.view.selectionModel() else []
        if rows:
            return self.model.record(rows[0].row())
        return self.slips[-1] if self.slips else None

    def select(self, number: int) -> bool:
        row = self.model.row_of(number)
        if row is None:
            return False
        self.view.selectRow(row)
        self.panel.enable_commands()
        return True

    def enable(self, a: dict[str, QAction]) -> None:
        """The slip commands, for the slip selected and who is signed in; each disabled says why."""
        slip = self.selected()
        none = "" if slip is not None else "No slip selected (Slips tab)"
        paper = self.panel.why_not(PEOPLE, "put a payout slip on paper") or none
        supervisor = self.panel.why_not(SUPERVISORS, "void a payout slip or issue it again") or none
        states = {
            "print_slip": paper, "save_slip": paper,
            "void_slip": supervisor or ("It is void already" if slip.status == "VOID" else ""),
            # the book says which void slips were issued again (SlipInfo.replaces)
            "reissue_slip": supervisor or ("Only a void slip is issued again" if slip.status != "VOID" else "")
            or ("Issued again already" if any(s.replaces == slip.number for s in self.slips) else ""),
        }
        for name, why in states.items():
            if name in a:
                allow(a[name], why)

    # -- on paper ----------------------------------------------------------------------------------
    def save_pdf(self, path: str | None = None) -> QFileDialog | None:
        """The selected slip (else the newest) as a one-page PDF: at ``path``, or where a person
        chooses in the file dialog returned (opened, not run)."""
        slip = self.selected()
        if slip is None:
            return None
        if path is None:
            d = save_dialog(self.panel, f"Save payout slip {slip.number:06d} as PDF", "save_slip_dialog", "PDF", "pdf",
                            f"slip-{slip.number:06d}.pdf")
            d.fileSelected.connect(lambda p, s=slip: self._write_pdf(s, p))
            self.panel.open_dialog(d)
            return d
        self._write_pdf(slip, path)
        return None

    def _write_pdf(self, slip, path: str) -> None:
        self._on_paper(slip, lambda now: slip_report.write_pdf(slip, path, now), "saved", f"saved as {path}")

    def _on_paper(self, slip, draw, verb: str, done: str) -> None:
        """``draw(now)`` puts the slip on paper (the PDF, the printer); the message line says how it went."""
        try:
            draw(self.panel.bridge.clock())
        except OSError as e:
            self.panel.tell(f"{LEVEL_MARK[RED]} the slip was not {verb}: {e}", RED)
            return
        self.panel.tell(f"{LEVEL_MARK[OK]} Payout slip {slip.number:06d} {done}.", OK)

    def print_slip(self) -> QPrintDialog | None:
        """The selected slip (else the newest) to a printer chosen in the print dialog (opened, not
        run: the window keeps pumping); the page is the PDF's (app/reports/slip.py)."""
        slip = self.selected()
        if slip is None:
            return None
        self.printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        d = QPrintDialog(self.printer, self.panel)
        d.setObjectName("print_slip_dialog")
        d.setWindowTitle(f"Print payout slip {slip.number:06d}")
        printer = self.printer
        # QPrintDialog's accepted also carries the printer: take it from here, not from the signal
        d.accepted.connect(lambda *_: self._print(slip, printer))
        self.print_dialog = d
        d.finished.connect(lambda _=None, d=d: self._print_closed(d))
        self.panel.open_dialog(d)
        return d

    def _print_closed(self, d) -> None:
        if d is self.print_dialog:
            self.print_dialog = None

    def _print(self, slip, printer: QPrinter) -> None:
        self._on_paper(slip, lambda now: slip_report.print_slip(slip, printer, now), "printed",
                       f"sent to {printer.printerName() or printer.outputFileName() or 'the printer'}")
