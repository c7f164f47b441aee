"""A payout slip on paper: one page drawn by one function, for a PDF (QPdfWriter) and for a printer
(QPrinter), so the file kept and the paper handed over cannot differ.

The slip says what app/store/slips.py logged and nothing more (``SlipInfo``, read back by the
workstation): its number, the table and seat, the wager and its amount, the win in dollars, when
and by whom it was issued, the round it pays, the void slip it replaces, and the W-2G data of a
win of $600 that is 300 times the wager (IRS Form W-2G, boxes 1, 2, 3, 5, 7, 10, 11 and 12 and the
winner). A void slip keeps its number and says VOID across the page, with why and by whom: it is
never reused (docs/workstation.md, "Payout slips").
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from app.engine.money import dollars
from app.qt import (QColor, QFont, QMarginsF, QPageLayout, QPageSize, QPainter, QPdfWriter, QPen, QPointF,
                          QRectF, Qt)

from . import fonts

MARGIN_MM = 16.0
INK = QColor("#000000")
GREY = QColor("#555555")
VOID_RED = QColor("#c00000")
WAGER_WORDS = {"base": "base wager", "fortune": "Fortune bonus", "fortune_toke": "Fortune toke bet",
               "insurance": "insurance", "three_card": "three-card bonus", "seven_card": "seven-card bonus",
               "ace_high": "Ace-High bonus", "progressive": "progressive"}


def slip_number(n: int) -> str:
    return f"{n:06d}"


def page_layout() -> QPageLayout:
    return QPageLayout(QPageSize(QPageSize.PageSizeId.Letter), QPageLayout.Orientation.Portrait,
                       QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM), QPageLayout.Unit.Millimeter)


def wager_words(wager: str) -> str:
    if wager.startswith("envy"):
        return "envy bonus"
    if wager.startswith("additional"):
        return f"additional wager on {wager.split()[-1]}" if " " in wager else "additional wager"
    return WAGER_WORDS.get(wager, wager.replace("_", " "))


def masked_tin(tin: str) -> str:
    """The taxpayer number with all but its last four digits hidden: the slip is handed across a
    table; the full number is in the log for the form."""
    digits = [c for c in str(tin) if c.isdigit()]
    return "•••-••-" + "".join(digits[-4:]) if len(digits) >= 4 else "•••"


def lines(slip) -> list[tuple[str, str]]:
    """(label, value) rows of the slip, in the order printed."""
    out = [("Table", slip.table or "—"), ("Seat", str(slip.seat) if slip.seat else "—"),
           ("Wager", f"{wager_words(slip.wager)}, {dollars(slip.wager_cents)}")]
    if slip.commission_cents is not None:
        # the win above is what the hand won; the commission comes out of it (000(l)(9); 001 11.9(j);
        # 003 COLLECTING 5% COMMISSION), in whole cents as the settlement logged it
        out += [("Commission taken", dollars(slip.commission_cents)),
                ("Paid after commission", dollars(slip.win_cents - slip.commission_cents))]
    out += [("Issued", f"{slip.time:%Y-%m-%d %H:%M:%S}"), ("Issued by", slip.issued_by)]
    if slip.settlement is not None:
        out.append(("Round", f"settlement {slip.settlement} in the audit log"))
    if slip.replaces is not None:
        out.append(("Replaces", f"void slip {slip_number(slip.replaces)}"))
    return out


def w2g_lines(w2g: dict) -> list[tuple[str, str]]:
    def cents(k):
        return dollars(w2g[k]) if isinstance(w2g.get(k), int) else "—"
    return [("1  Gross winnings", cents("box1_gross_winnings_cents")),
            ("2  Date won", str(w2g.get("box2_date_won", ""))),
            ("3  Type of wager", str(w2g.get("box3_type_of_wager", ""))),
            ("5  Transaction", str(w2g.get("box5_transaction", ""))),
            ("7  Winnings from identical wagers", cents("box7_identical_wagers_cents")),
            ("10 Window", str(w2g.get("box10_window", ""))),
            ("11 First ID", str(w2g.get("box11_first_id", ""))),
            ("12 Second ID", str(w2g.get("box12_second_id", "")) or "—"),
            ("Winner", str(w2g.get("payee_name", ""))),
            ("Address", str(w2g.get("payee_address", ""))),
            ("Taxpayer ID", masked_tin(w2g.get("payee_tin", "")))]


class _Pen:
    """Where the next line goes, in device pixels, with sizes given in millimetres and points."""

    def __init__(self, painter: QPainter, device):
        self.p = painter
        self.px_mm = device.logicalDpiY() / 25.4
        self.width = device.width()
        self.y = 0.0

    def mm(self, v: float) -> float:
        return v * self.px_mm

    def font(self, pt: float, bold: bool = False, mono: bool = False) -> QFont:
        f = fonts.mono(pt, bold) if mono else fonts.sans(pt, bold)
        self.p.setFont(f)
        return f

    def text(self, x_mm: float, text: str, pt: float, bold: bool = False, colour: QColor = INK,
             width_mm: float | None = None, right: bool = False, advance: bool = True) -> float:
        """One line of text at the current height; returns its height in pixels."""
        self.font(pt, bold)
        self.p.setPen(colour)
        h = self.p.fontMetrics().height()
        w = self.mm(width_mm) if width_mm is not None else self.width - self.mm(x_mm)
        flags = (Qt.AlignmentFlag.AlignRight if right else Qt.AlignmentFlag.AlignLeft) | Qt.AlignmentFlag.AlignTop
        rect = QRectF(self.mm(x_mm), self.y, w, h * 3)
        used = self.p.boundingRect(rect, int(flags | Qt.TextFlag.TextWordWrap), text)
        self.p.drawText(rect, int(flags | Qt.TextFlag.TextWordWrap), text)
        if advance:
            self.y += used.height()
        return used.height()

    def rule(self, thick: float = 0.4) -> None:
        self.p.setPen(QPen(INK, self.mm(thick)))
        self.p.drawLine(QPointF(0, self.y), QPointF(self.width, self.y))

    def gap(self, v_mm: float) -> None:
        self.y += self.mm(v_mm)


def render(slip, device, printed: datetime | None = None) -> None:
    """Draw ``slip`` (a ``SlipInfo``) on one page of ``device``: a QPdfWriter or a QPrinter whose
    page layout is set (``page_layout``); ``printed`` is said at the foot."""
    painter = QPainter()
    if not painter.begin(device):
        raise OSError("the slip could not be drawn: the printer or the file did not open")
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setRenderHint(QPainter.RenderHint.TextAntialiasing)
        _draw(painter, device, slip, printed)
    finally:
        painter.end()


def _draw(painter: QPainter, device, slip, printed: datetime | None) -> None:
    pen = _Pen(painter, device)
    width_mm = pen.width / pen.px_mm
    void = slip.status == "VOID"
    # the head: what it is and its number, the largest thing on the page but the win
    pen.text(0, "PAYOUT SLIP", 24, bold=True, advance=False)
    pen.text(0, f"No. {slip_number(slip.number)}", 26, bold=True, right=True)
    pen.text(0, "Pai Gow Poker · pitdesk pit supervisor's workstation", 10, colour=GREY)
    pen.gap(2)
    pen.rule(0.8)
    pen.gap(4)
    # the win, in dollars, large
    pen.text(0, "WIN", 12, bold=True, colour=GREY)
    pen.text(0, dollars(slip.win_cents), 40, bold=True)
    pen.gap(3)
    label_w = 38.0
    for label, value in lines(slip):
        h = pen.text(0, label, 13, colour=GREY, width_mm=label_w, advance=False)
        used = pen.text(label_w, value, 15, bold=True, width_mm=width_mm - label_w, advance=False)
        pen.y += max(h, used) + pen.mm(1.5)
    status = "VOID" if void else "ISSUED"
    pen.text(0, "Status", 13, colour=GREY, width_mm=label_w, advance=False)
    pen.text(label_w, status, 15, bold=True, colour=VOID_RED if void else INK)
    if void:
        pen.text(label_w, f"voided by {slip.voided_by or '—'}: {slip.void_reason or ''}", 12, colour=VOID_RED,
                 width_mm=width_mm - label_w)
    pen.gap(4)
    if slip.w2g:
        pen.rule()
        pen.gap(3)
        pen.text(0, "IRS FORM W-2G DATA (a win of $600.00 or more, at least 300 times the wager)", 12, bold=True)
        pen.gap(1.5)
        for label, value in w2g_lines(slip.w2g):
            pen.text(0, label, 11, colour=GREY, width_mm=70, advance=False)
            pen.text(70, value, 12, bold=True, width_mm=width_mm - 70)
            pen.gap(0.8)
        pen.gap(3)
    pen.rule()
    pen.gap(10)
    for who in ("Issued by (signature)", "Received by (signature)", "Witness (signature)"):
        painter.setPen(QPen(INK, pen.mm(0.3)))
        painter.drawLine(QPointF(pen.mm(55), pen.y + pen.mm(5)), QPointF(pen.width, pen.y + pen.mm(5)))
        pen.text(0, who, 11, colour=GREY)
        pen.gap(7)
    # the foot: where the slip is in the log
    pen.y = max(pen.y, device.height() - pen.mm(8))
    foot = f"slip {slip_number(slip.number)} · audit log row {slip.seq}"
    if printed is not None:
        foot += f" · printed {printed:%Y-%m-%d %H:%M:%S}"
    pen.text(0, foot, 9, colour=GREY)
    if void:
        stamp_void(painter, pen, device)


def stamp_void(painter, pen, device) -> None:
    """VOID across the page, never missed: a void slip pays nothing and its number is never reused
    (a payout slip's, a fill's or a credit's)."""
    painter.save()
    painter.translate(pen.width / 2, device.height() / 2)
    painter.rotate(-35)
    painter.setFont(fonts.sans(150, bold=True))
    c = QColor(VOID_RED)
    c.setAlpha(150)
    painter.setPen(QPen(c, pen.mm(1.2)))
    w = pen.width * 1.2
    painter.drawText(QRectF(-w / 2, -pen.mm(40), w, pen.mm(80)), int(Qt.AlignmentFlag.AlignCenter), "VOID")
    painter.restore()


def write_pdf(slip, path: Path | str, printed: datetime | None = None) -> Path:
    """The slip as a one-page PDF at ``path``."""
    path = Path(path)
    writer = QPdfWriter(str(path))
    writer.setResolution(300)
    writer.setPageLayout(page_layout())
    writer.setTitle(f"Payout slip {slip_number(slip.number)}" + (" (VOID)" if slip.status == "VOID" else ""))
    writer.setCreator("pitdesk")
    render(slip, writer, printed)
    del writer   # the file is complete once the writer is gone
    return path


def print_slip(slip, printer, printed: datetime | None = None) -> None:
    """The slip on ``printer`` (a QPrinter the print dialog set up), the same page as the PDF."""
    printer.setPageLayout(page_layout())
    printer.setDocName(f"Payout slip {slip_number(slip.number)}")
    render(slip, printer, printed)
