"""The Reports view: a shift's report previewed, printed and saved as PDF (docs/reports.md).

Choose the day and the shift (the workstation's shifts); the report is read on the bridge's logs
lane (``Workstation.shift_report``: the read models only, on a connection of its own) and shown
in a QPrintPreviewWidget, drawn by the same function as the PDF and the paper
(app/reports/shift_report.py). The preview is not numbered; it shows the pit's page with one
table's, or every page, as chosen (a hundred pages hold the GUI thread a second or two to draw;
the paper and the PDF always have every page). Print (a printer chosen in the print
dialog) and Save as PDF make the report as ``pitdesk report shift --out/--print`` does (issue 26):
numbered first (``number_report``: a signed-in supervisor; COPY of No. N when report N of the
shift said the same), drawn with that number, and logged as printed (``report_printed``) only once it is made:
the PDF written aside, flushed and renamed into place on the workstation's lane
(app/reports/whole_file.py), or the pages taken by the printer. A path that cannot take a file
(a folder, a missing or read-only folder) is refused before anything is drawn or written; that,
and any write that fails, is logged as ``report_failed`` with why, and said in red.

The preview does not go stale (issue 33): while the page is shown its timer reads the report
again every ``REFRESH_MS`` on the logs' lane when the log has grown since (the bridge's updates)
or the report is interim (its figures are "to" the moment it was read). Print and Save read the
report again when pressed, on the lane, and print those figures: what is printed is what the log
records (its digest and head), never an older preview. After a print or save the page shows the
report numbered as printed ("report No. N"), until the log says more. A preview of every page of
several tables is not redrawn by itself (a second or more on the GUI thread for a big pit): the
status says the log says more, and Show redraws it.
"""

from __future__ import annotations

import os
from datetime import date

from app.reports import shift_report as paper
from app.reports.whole_file import unwritable, write_then_log
from app.workstation.shift_figures import NumberTaken, ReportError, content_digest

from . import theme
from app.qt import (QComboBox, QDate, QDateEdit, QDialog, QHBoxLayout, QLabel, QMessageBox, QPrintDialog, QPrinter,
                 QPrintPreviewWidget, QPushButton, QSizePolicy, Qt, QTimer, QVBoxLayout, QWidget)
from .theme import AMBER, LEVEL_MARK, OK, RED
from .widgets import save_dialog, say


REFRESH_MS = 30_000     # the preview read again, while shown, when the log grew or the shift still runs


class NotMade(Exception):
    """A numbered report that was not made, logged as failed; the message says why."""


class ReportsPage(QWidget):
    def __init__(self, bridge, session=lambda: None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("reports")
        self.bridge = bridge
        self.session = session
        self.report = None              # the report shown (numbered once printed or saved, until the log says more)
        self.digest = None              # what the report shown says (``content_digest``)
        self.issued = None              # the last report printed or saved (numbered)
        self.issued_digest = None
        self.reading = False
        self.refreshing = False         # the shown report being read again (the timer)
        self.issuing = False            # a report being read, numbered, made and logged
        self.stale = False              # the log has grown since the report shown was read
        self.reads = 0                  # reports read (tests wait on it)
        self.refreshes = 0              # reports read again by the timer (tests wait on it)
        self.issues = 0                 # reports printed or saved (tests wait on it)
        self.timer = QTimer(self)
        self.timer.setObjectName("report refresh")
        self.timer.setInterval(REFRESH_MS)
        self.timer.timeout.connect(self.refresh)
        self.dialog = None
        self._shown = False
        self.why_not_issue = ""         # why the person signed in cannot print or save ('' when they can)

        title = QLabel("Shift report")
        title.setObjectName("title")
        title.setFont(theme.font(1.8, bold=True))
        self.day = QDateEdit()
        self.day.setObjectName("report_date")
        self.day.setDisplayFormat("yyyy-MM-dd")
        self.day.setCalendarPopup(True)
        self.shift = QComboBox()
        self.shift.setObjectName("report_shift")
        self.paper = QComboBox()
        self.paper.setObjectName("report_paper")
        self.paper.addItem("US Letter", "letter")
        self.paper.addItem("A4", "a4")
        # what the preview draws: the pit's page and one table's, or every page (a shift of 30
        # tables is a hundred pages, a second or two of drawing on the GUI thread); the paper and
        # the PDF always hold every page
        self.part = QComboBox()
        self.part.setObjectName("report_part")
        self.part.setToolTip("the pages the preview shows; Print and Save as PDF give every page")
        self.part.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.part.setMinimumContentsLength(11)      # "The pit and T12": the table names do not widen the window
        self.show_button = QPushButton("&Show")
        self.show_button.setObjectName("report_show")
        self.show_button.setToolTip("read the report of the day and shift chosen")
        self.print_button = QPushButton("&Print…")
        self.print_button.setObjectName("report_print")
        self.save_button = QPushButton("Save as P&DF…")
        self.save_button.setObjectName("report_save")
        self.status = QLabel()
        self.status.setObjectName("report_status")
        self.status.setFont(theme.font(1.1, bold=True))
        self.status.setWordWrap(True)
        for w in (self.day, self.shift, self.paper, self.part, self.show_button, self.print_button, self.save_button):
            w.setFont(theme.font(1.1))
        # three rows, so that a 760-pixel window holds them: what it is and what to do with it, which
        # shift, where the report stands
        top = QHBoxLayout()
        top.addWidget(title)
        top.addStretch(1)
        part_label = QLabel("Pre&view")
        part_label.setFont(theme.font(1.1))
        part_label.setBuddy(self.part)
        top.addWidget(part_label)
        top.addWidget(self.part)
        top.addWidget(self.print_button)
        top.addWidget(self.save_button)
        bar = QHBoxLayout()
        for text, w in (("&Date", self.day), ("S&hift", self.shift), ("P&aper", self.paper)):
            lb = QLabel(text)
            lb.setFont(theme.font(1.1))
            lb.setBuddy(w)
            bar.addWidget(lb)
            bar.addWidget(w)
        bar.addWidget(self.show_button)
        bar.addStretch(1)
        self.status.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

        # the preview draws at the screen's resolution: the same layout in fewer pixels
        self.preview_printer = QPrinter(QPrinter.PrinterMode.ScreenResolution)
        self.preview_printer.setPageLayout(paper.page_layout("letter"))
        self.preview = QPrintPreviewWidget(self.preview_printer, self)
        self.preview.setObjectName("report_preview")
        self.preview.paintRequested.connect(self._paint)
        self.preview.setZoomMode(QPrintPreviewWidget.ZoomMode.FitToWidth)

        box = QVBoxLayout(self)
        box.setContentsMargins(12, 8, 12, 8)
        box.addLayout(top)
        box.addLayout(bar)
        box.addWidget(self.status)
        box.addWidget(self.preview, 1)

        self.show_button.clicked.connect(self.load)
        self.print_button.clicked.connect(self.print_report)
        self.save_button.clicked.connect(lambda: self.save_pdf())
        self.paper.currentIndexChanged.connect(self._paper_changed)
        self.part.currentIndexChanged.connect(lambda _=None: self.preview.updatePreview())
        self._enable()

    # -- choosing and reading ---------------------------------------------------------------------
    def activate(self, on: bool) -> None:
        """Shown for the first time: the shifts of the workstation, and the shift being worked.
        Shown again: the report read again if the log grew or the shift runs. The timer runs only
        while the page is shown."""
        if not on:
            self.timer.stop()
            return
        if not self.timer.isActive():
            self.timer.start()
            if self._shown:
                self.refresh()
        if not self._shown:
            self._shown = True
            plan = self.bridge.shifts
            self.shift.addItems(plan.names())
            now = self.bridge.clock()
            current, last = plan.shift_of(now), plan.shifts_back(now, 1)
            # the shift being worked (an interim report); a shift with nothing logged yet (its first
            # minutes) gives way to the last that ended, and the status says so
            self.choose(current.start.date(), current.name)
            self.reading = True
            say(self.status, f"reading the {current.label} shift…")

            def read(ws):
                try:
                    return _read(ws, current.start.date(), current.name), None
                except ReportError:
                    return _read(ws, last.start.date(), last.name), current
            self.bridge.read_aside(read, self._opened, self._failed)
            self._enable()

    def on_update(self, u) -> None:
        """The bridge's update: rows were written past the report shown's chain head, so it may say
        less than the log (an update of rows the report already read, delivered after it was read,
        does not count: the report was not stale)."""
        if self.report is not None and not self.report.interim:
            return      # a shift that had ended when it was read: a row written since is after its end
        read_to = self.report.head[0] if self.report is not None and self.report.head else 0
        if u.changes.seqs and max(u.changes.seqs) > read_to:
            self.stale = True

    def refresh(self) -> None:
        """The timer: the report shown read again, off the GUI thread, when the log has grown
        since it was read or its shift still runs (an interim report's figures are to a moment)."""
        if self.report is None or self.reading or self.refreshing or self.issuing or not self.timer.isActive():
            return
        if not (self.stale or self.report.interim):
            return
        day, name = self.report.shift.start.date(), self.report.shift.name
        self.refreshing, self.stale = True, False
        self.bridge.read_aside(lambda ws: _read(ws, day, name), self._refreshed, self._refresh_failed)

    def _refreshed(self, got) -> None:
        self.refreshing = False
        report, digest = got
        shown = self.report
        if self.reading or self.issuing or shown is None or shown.shift != report.shift:
            return      # another shift chosen, or a report being made, meanwhile: that one is shown
        self.refreshes += 1
        if digest == self.digest:
            return
        if self.preview_tables() is True and len(report.tables) > 1:
            # every page of several tables takes a second or more to draw on the GUI thread: not
            # redrawn by itself, said instead (Show draws it; Print and Save read the log anew anyway)
            say(self.status, f"{LEVEL_MARK[AMBER]} the log says more than the preview of every page (figures to "
                             f"{shown.made:%H:%M:%S}; read again at {report.made:%H:%M:%S}): press Show to redraw "
                             "it · Print and Save give the figures of the moment they are pressed", AMBER)
            self.stale = True
            return
        self._got((report, digest))

    def _refresh_failed(self, error: BaseException) -> None:
        self.refreshing = False
        if not self.reading and not self.issuing:
            self._failed(error)

    def _opened(self, got) -> None:
        (report, digest), empty = got
        if empty is not None:
            self.choose(report.shift.start.date(), report.shift.name)
        self._got((report, digest))
        if empty is not None:
            say(self.status, f"{self.status.text()} · nothing is logged in the {empty.label} shift yet",
                RED if report.not_verified else OK)

    def choose(self, day: date, shift: str, load: bool = False) -> None:
        self.day.setDate(QDate(day.year, day.month, day.day))
        i = self.shift.findText(shift)
        if i < 0:
            raise ValueError(f"unknown shift {shift!r}; the shifts are {', '.join(self.bridge.shifts.names())}")
        self.shift.setCurrentIndex(i)
        if load:
            self.load()

    def chosen(self) -> tuple[date, str]:
        return self.day.date().toPython(), self.shift.currentText()

    def load(self) -> None:
        if self.reading:
            return
        day, name = self.chosen()
        self.reading = True
        say(self.status, f"reading the {name} {day:%Y-%m-%d} shift…")
        self.stale = False
        self.bridge.read_aside(lambda ws: _read(ws, day, name), self._got, self._failed)
        self._enable()

    def _got(self, got) -> None:
        report, digest = got
        self.reading = False
        if not report.interim:
            self.stale = False      # its shift had ended: nothing written since is in it
        self.report, self.digest = report, digest
        if digest == self.issued_digest and self.issued is not None:
            self.report = self.issued        # what was printed, and nothing since: shown with its number
        if self.report.not_verified:
            # the record fails its check: said first, in red; Print and Save ask before they mark it so
            say(self.status, f"{LEVEL_MARK[RED]} NOT VERIFIED: the log fails its check: {report.verified.words()} · "
                             "Print and Save ask before they print it marked NOT VERIFIED · "
                             + self._words(self.report).split(" ", 1)[1], RED)
        else:
            say(self.status, self._words(self.report), OK)
        self.reads += 1
        self._parts(report)
        self.preview.updatePreview()
        self._enable()

    def _words(self, report) -> str:
        """The status line of the report shown: its shift, rounds and head, how far its figures
        go, and its number (or that it has none yet, and the last one printed of its shift)."""
        t = sum(1 for s in report.tables if s.rounds)
        interim = (f" · INTERIM: the shift runs to {report.shift.end:%H:%M}, its figures are to {report.made:%H:%M:%S}"
                   if report.interim else "")
        if report.number is not None:
            number = (f"report No. {report.number}{f' (COPY of No. {report.copy_of})' if report.copy else ''}, "
                      f"printed by {report.printed_by}")
        else:
            number = "not numbered until printed or saved"
            last = self.issued
            if last is not None and last.shift == report.shift:
                number += f" (the last printed, No. {last.number} at {last.printed_at:%H:%M:%S}, has other figures)"
        return (f"{LEVEL_MARK[OK]} {report.shift.label} shift ({report.shift.hours}): {report.rounds:,} rounds at "
                f"{t} tables{interim} · chain head {report.head_text[:24]}… · {number}")

    def _failed(self, error: BaseException) -> None:
        self.reading = False
        self.report = self.digest = None
        say(self.status, f"{LEVEL_MARK[RED]} {error}", RED)
        self.preview.updatePreview()
        self._enable()

    def _parts(self, report) -> None:
        """The preview's choices: the pit alone, the pit and one table, every page."""
        keep = self.part.currentData()
        self.part.blockSignals(True)
        self.part.clear()
        self.part.addItem("The pit", ())
        for t in report.tables:
            self.part.addItem(f"The pit and {t.table}", (t.table,))
        self.part.addItem(f"Every page ({len(report.tables)} tables)", True)
        i = self.part.findData(keep) if keep is not None else 0
        self.part.setCurrentIndex(i if i >= 0 else 0)
        self.part.blockSignals(False)

    def preview_tables(self):
        """What the preview draws (``build``'s ``tables``)."""
        data = self.part.currentData()
        return True if data is True else tuple(data or ())

    def _paper_changed(self) -> None:
        self.preview_printer.setPageLayout(paper.page_layout(self.paper.currentData()))
        self.preview.updatePreview()

    def _paint(self, printer) -> None:
        if self.report is not None:
            paper.print_report(self.report, printer, self.paper.currentData(), self.preview_tables())

    def allow_issue(self, why_not: str) -> None:
        """Who is signed in may print or save a report ('') or not, saying why (the window's
        ``_enable``: nobody signed in, or a role that may not)."""
        self.why_not_issue = why_not
        self._enable()

    def _enable(self) -> None:
        why = self.why_not_issue or ("Reading the report…" if self.reading else "") \
            or ("Making the report…" if self.issuing else "") \
            or ("" if self.report is not None else "No report shown: choose a day and a shift and press Show")
        for button, tip in ((self.print_button, "print the report shown, numbered and logged"),
                            (self.save_button, "save the report shown as a PDF, numbered and logged")):
            button.setEnabled(not why)
            button.setToolTip(f"{why} · {tip}" if why else tip)
        self.show_button.setEnabled(not self.reading)

    # -- printing and saving ------------------------------------------------------------------------
    def print_report(self) -> QPrintDialog | None:
        """The report shown, to a printer chosen in the print dialog (opened, not run: the window
        keeps pumping); numbered and logged when the dialog is accepted."""
        if not self._ready():
            return None
        printer = QPrinter(QPrinter.PrinterMode.HighResolution)
        printer.setPageLayout(paper.page_layout(self.paper.currentData()))
        d = QPrintDialog(printer, self)
        d.setObjectName("print_report_dialog")
        d.setWindowTitle(f"Print the {self.report.shift.label} shift report")
        d.accepted.connect(lambda *_: self.print_to(printer))
        self._open(d)
        return d

    def print_to(self, printer: QPrinter) -> None:
        """The report on ``printer``; a printer that prints to a file is a PDF saved there (written
        aside and moved into place whole, as Save as PDF)."""
        if printer.outputFileName():
            self.save_pdf(printer.outputFileName())
            return
        self._issue(f"printer {printer.printerName()}", printer=printer)

    def save_pdf(self, path: str | None = None) -> None:
        """The report shown as a PDF: at ``path``, or where a person chooses in a file dialog."""
        if not self._ready():
            return
        if path is None:
            d = save_dialog(self, "Save the shift report as PDF", "save_report_dialog", "PDF", "pdf",
                            f"shift-{self.report.shift.start:%Y-%m-%d}-{self.report.shift.name}.pdf")
            d.fileSelected.connect(lambda p: self.save_pdf(p))
            self._open(d)
            return
        self._issue(f"file {os.path.abspath(path)}", path=path)

    def _ready(self) -> bool:
        if self.report is None:
            say(self.status, f"{LEVEL_MARK[AMBER]} Choose a day and a shift and press Show first.", AMBER)
            return False
        if self.session() is None:
            say(self.status, f"{LEVEL_MARK[AMBER]} Sign in (F9) to print or save a report: it is logged with its "
                             "number and who printed it.", AMBER)
            return False
        return True

    def _issue(self, where: str, path: str | None = None, printer: QPrinter | None = None, tries: int = 3) -> None:
        """As ``pitdesk report shift --out/--print`` (app/cli/report_command.py): the report read
        again on the logs' lane (the figures of the moment Print or Save was pressed, not the
        preview's), numbered on the lane (a path that cannot take a file is logged as failed there,
        before anything is drawn), drawn here, then on the lane written aside, flushed, renamed
        into place and only then logged as printed, with the digest of what it says; made again
        with the next number if another workstation took this one. The page then shows it, numbered."""
        day, shift = self.report.shift.start.date(), self.report.shift.name
        name = self.paper.currentData()
        self.issuing = True
        self._enable()

        def numbered(ws, report):
            ws.decisions.number_report(report)
            why = unwritable(path) if path is not None else None
            if why:
                self._not_made(ws, report, where, f"{path}: {why}")     # raises NotMade
            return report

        def read(got) -> None:
            report, digest = got
            if report.not_verified:     # issue 35, finding 1: only when a person says so, and marked
                self._confirm_unverified(report, lambda: number(report, digest), lambda: cancelled(report))
                return
            number(report, digest)

        def number(report, digest) -> None:
            self.bridge.act(lambda ws: numbered(ws, report), lambda _r: draw(report, digest),
                            lambda e: not_made(e, report))

        def cancelled(report) -> None:
            self.issuing = False
            self._enable()
            say(self.status, f"{LEVEL_MARK[RED]} not printed: the log fails its check: {report.verified.words()} "
                             "(pitdesk audit verify names it)", RED)

        def draw(report, digest) -> None:
            def fails(e):
                not_made(e, report)
            try:
                if path is not None:
                    data, _pages = paper.pdf_bytes(report, name)
                else:
                    paper.print_report(report, printer, name)   # the printer took it: printed
            except OSError as e:
                why = e.strerror or str(e)
                self.bridge.act(lambda ws: self._not_made(ws, report, where, why), None, fails)
                return
            if path is not None:
                self.bridge.act(lambda ws: self._made(ws, report, where, path, data),
                                lambda _c: issued(report, digest), fails)
            else:
                self.bridge.act(lambda ws: ws.decisions.log_report_printed(report, where, number=report.number),
                                lambda _c: issued(report, digest), fails)

        def issued(report, digest) -> None:
            self.issuing = False
            self.issued, self.issued_digest = report, digest
            self.report, self.digest = report, digest      # shown as printed, with its number
            self.issues += 1
            copy = f" (COPY of No. {report.copy_of})" if report.copy else ""
            say(self.status, f"{LEVEL_MARK[OK]} report No. {report.number}{copy} of the {report.shift.label} shift: "
                             f"{where}, by {report.printed_by}", OK)
            self._parts(report)
            self.preview.updatePreview()
            self._enable()

        def not_made(e: BaseException, report=None) -> None:
            self.issuing = False
            self._enable()
            if isinstance(e, NumberTaken) and tries > 1:
                self._issue(where, path, printer, tries - 1)
            elif isinstance(e, NumberTaken):
                say(self.status, f"{LEVEL_MARK[RED]} other workstations kept taking the report's number; try again", RED)
            elif isinstance(e, NotMade) and report is not None:
                say(self.status, f"{LEVEL_MARK[RED]} report No. {report.number} was not made: {e} (logged as failed)",
                    RED)
            else:
                say(self.status, f"{LEVEL_MARK[RED]} {e}", RED)

        self.bridge.read_aside(lambda ws: _read(ws, day, shift), read, not_made)

    def _confirm_unverified(self, report, yes, no) -> QMessageBox:
        """Asked before a report read from a record that fails its check is printed: NOT VERIFIED
        across every page, and logged so (``report_printed`` with ``verified: false``)."""
        box = QMessageBox(QMessageBox.Icon.Warning, "The log fails its check",
                          f"The {report.shift.label} shift's figures are read from a log that fails its check:\n\n"
                          f"{report.verified.words()}\n\nPrint it anyway, marked NOT VERIFIED on every page and "
                          "logged as such?", QMessageBox.StandardButton.NoButton, self)
        box.setObjectName("not_verified_dialog")
        go = box.addButton("Print NOT VERIFIED", QMessageBox.ButtonRole.AcceptRole)
        go.setObjectName("print_not_verified")
        stop = box.addButton("Do not print", QMessageBox.ButtonRole.RejectRole)
        stop.setObjectName("do_not_print")
        box.setDefaultButton(stop)          # Enter does not print it: a person chooses to
        box.setEscapeButton(stop)
        box.finished.connect(lambda _r: yes() if box.clickedButton() is go else no())
        self._open(box)
        return box

    @staticmethod
    def _made(ws, report, where: str, path: str, data: bytes):
        """On the lane: the PDF written whole, then logged as printed; a write that fails is logged
        as failed (``NotMade``), a file not logged is removed (app/reports/whole_file.py)."""
        try:
            return write_then_log(path, data, lambda: ws.decisions.log_report_printed(report, where,
                                                                                      number=report.number))
        except OSError as e:
            ReportsPage._not_made(ws, report, where, f"{path}: {e.strerror or e}")     # raises NotMade

    @staticmethod
    def _not_made(ws, report, where: str, why: str):
        """On the lane: the numbered report logged as failed, with why (the gap in the numbers explained)."""
        ws.decisions.log_report_failed(report, where, why)
        raise NotMade(why)

    def _open(self, d) -> None:
        self.dialog = d
        d.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        d.finished.connect(lambda _=None, d=d: setattr(self, "dialog", None) if self.dialog is d else None)
        QDialog.open(d)     # QPrintDialog's and QMessageBox's own open() want a slot


def _read(ws, day: date, name: str):
    """On a lane: the report of shift ``name`` of ``day`` as the log has it now, and its digest."""
    report = ws.reads.shift_report(day, name)
    return report, content_digest(report)


__all__ = ["ReportsPage"]
