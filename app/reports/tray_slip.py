"""A fill or credit slip on paper (issue 34, docs/inventory.md): one slip, two copies, one page
each, drawn by one function for a PDF (QPdfWriter) and a printer (QPrinter), so the file kept and
the paper signed cannot differ. The ORIGINAL goes in the table's drop box, the DUPLICATE to the
cage.

Each copy says what the log holds of the slip (its ``tray_slips`` row, app/store/tray_models.py)
and nothing more: the casino's slip number and kind, the table, when it was requested, the chips
by value and their total, the reason, who asked and who approved it, and a line for each of the
four who sign it (a fill: the cashier and security at the cage, then the dealer and a floor
supervisor at the table; a credit: the same four, the table first), each filled with the name
that signed so far. A void slip keeps its number and says VOID across the page, with why and by
whom: it is never used again.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

from app.engine.money import dollars
from app.engine.words import when
from app.store.trays import count_of, signers_of
from app.qt import QBuffer, QFont, QIODevice, QPainter, QPdfWriter, QPen, QPointF

from .slip import GREY, INK, VOID_RED, _Pen, page_layout, slip_number, stamp_void
from .whole_file import write_whole

COPIES = (("ORIGINAL", "for the drop box"), ("DUPLICATE", "for the cage"))
# who signs at each end, in the order they sign (the desk's AT_TABLE_SIGNERS and the cage's pair)
ENDS = {"cage": ("At the cage", (("cashier", "Cashier"), ("security", "Security"))),
        "table": ("At the table", (("dealer", "Dealer"), (None, "Floor supervisor")))}
ORDER = {"fill": ("cage", "table"), "credit": ("table", "cage")}


class _Letters(_Pen):
    """The payout slip's pen with letters as letters ("fl" never one glyph): the words read out of
    the PDF (an auditor's search, pdftotext) say "fill" and "floor supervisor" as written."""

    def font(self, pt: float, bold: bool = False, mono: bool = False) -> QFont:
        f = super().font(pt, bold, mono)
        for tag in ("liga", "clig"):
            f.setFeature(QFont.Tag(tag), 0)
        self.p.setFont(f)
        return f


def _count(row: dict) -> dict[int, int]:
    """The slip's chips by value, from its row as the store reads it (text) or the report's JSON (a dict)."""
    c = row.get("count")
    if isinstance(c, dict):
        return {int(v): n for v, n in c.items()}
    return count_of(row)


def _signers(value) -> list[tuple[str, str]]:
    if isinstance(value, list):
        return [tuple(x) for x in value]
    return signers_of(value)


def signature_lines(row: dict) -> list[tuple[str, str, str]]:
    """(end, who signs, the name that signed or "") in the order the slip is signed: a role's line
    takes the signer logged with that role; the supervisor's line the table's other signer."""
    out = []
    for end in ORDER[row["kind"]]:
        words, roles = ENDS[end]
        signed = _signers(row.get(f"{end}_signers"))
        used: set[int] = set()
        for role, label in roles:
            found = next((i for i, (_, r) in enumerate(signed) if i not in used and (r == role or (
                role is None and r != "dealer"))), None)
            name = ""
            if found is not None:
                used.add(found)
                name = f"{signed[found][0]} ({signed[found][1]}), {when(row.get(f'{end}_signed'))}"
            out.append((words, label, name))
    return out


def lines(row: dict) -> list[tuple[str, str]]:
    """(label, value) rows of a copy, in the order printed."""
    out = [("Table", row.get("table_id") or "—"), ("Requested", when(row.get("requested")) or "—"),
           ("Requested by", row.get("requested_by") or "—"), ("Reason", row.get("reason") or "—"),
           ("Approved by", (f"{row['approved_by']}, {when(row.get('approved'))}" if row.get("approved_by") else
                            "not approved"))]
    if row.get("status") == "VOID":
        out.append(("VOID", f"{when(row.get('voided'))} by {row.get('voided_by') or '—'}: {row.get('void_reason') or ''}"))
    else:
        out.append(("Status", row.get("status") or "—"))
    return out


def render(row: dict, device, casino: str = "", rule: str = "", printed: datetime | None = None) -> int:
    """Draw the slip ``row`` (a ``tray_slips`` row) on ``device`` (a QPdfWriter or QPrinter whose
    page layout is set): the ORIGINAL, then the DUPLICATE on the next page. The pages drawn."""
    painter = QPainter()
    if not painter.begin(device):
        raise OSError("the slip could not be drawn: the printer or the file did not open")
    try:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        for k, copy in enumerate(COPIES):
            if k:
                device.newPage()
            _draw(painter, device, row, copy, casino, rule, printed)
    finally:
        painter.end()
    return len(COPIES)


def title(row: dict) -> str:
    return (f"{row['kind'].capitalize()} slip {slip_number(row['number'])}"
            + (" (VOID)" if row.get("status") == "VOID" else ""))


def _draw(painter: QPainter, device, row: dict, copy: tuple[str, str], casino: str, rule: str,
          printed: datetime | None) -> None:
    pen = _Letters(painter, device)
    width_mm = pen.width / pen.px_mm
    void = row.get("status") == "VOID"
    pen.text(0, f"{row['kind'].upper()} SLIP", 24, bold=True, advance=False)
    pen.text(0, f"No. {slip_number(row['number'])}", 26, bold=True, right=True)
    pen.text(0, f"{copy[0]} — {copy[1]}", 14, bold=True)
    pen.text(0, (f"{casino} · " if casino else "") + "Pai Gow Poker · table inventory container", 10, colour=GREY)
    pen.gap(2)
    pen.rule(0.8)
    pen.gap(3)
    label_w = 38.0
    for label, value in lines(row):
        colour = VOID_RED if label == "VOID" else INK
        h = pen.text(0, label, 12, colour=GREY if label != "VOID" else VOID_RED, width_mm=label_w, advance=False)
        used = pen.text(label_w, value, 13, bold=True, colour=colour, width_mm=width_mm - label_w, advance=False)
        pen.y += max(h, used) + pen.mm(1.2)
    pen.gap(2)
    pen.text(0, "Chips by value", 12, bold=True)
    pen.gap(1)
    chips = sorted(((v, n) for v, n in _count(row).items() if n), reverse=True)
    for value, n in chips:
        pen.text(0, dollars(value), 12, width_mm=30, right=True, advance=False)
        pen.text(35, f"× {n:,}", 12, width_mm=30, advance=False)
        pen.text(70, dollars(value * n), 12, width_mm=40, right=True)
    pen.rule(0.3)
    pen.gap(1)
    pen.text(0, "Total", 14, bold=True, width_mm=30, advance=False)
    pen.text(70, dollars(row["cents"]), 14, bold=True, width_mm=40, right=True)
    pen.gap(6)
    pen.rule()
    pen.gap(4)
    pen.text(0, "Signatures, in the order the slip is signed", 12, bold=True)
    pen.gap(4)
    for end, label, name in signature_lines(row):
        painter.setPen(QPen(INK, pen.mm(0.3)))
        painter.drawLine(QPointF(pen.mm(60), pen.y + pen.mm(6)), QPointF(pen.width, pen.y + pen.mm(6)))
        pen.text(0, f"{end}: {label}", 11, colour=GREY, width_mm=58, advance=False)
        pen.text(62, name, 11, bold=True, width_mm=width_mm - 62)
        pen.gap(7)
    pen.y = max(pen.y, device.height() - pen.mm(14))
    if rule:
        pen.text(0, rule, 8, colour=GREY)
    foot = f"{row['kind']} slip {slip_number(row['number'])} · {copy[0]} · audit log row {row.get('seq')}"
    if printed is not None:
        foot += f" · printed {printed:%Y-%m-%d %H:%M:%S}"
    pen.text(0, foot, 9, colour=GREY)
    if void:
        stamp_void(painter, pen, device)


def slip_pdf_bytes(row: dict, casino: str = "", rule: str = "", printed: datetime | None = None,
                   dpi: int = 300) -> bytes:
    """The slip's two copies as the bytes of a PDF, drawn in memory."""
    if row.get("kind") not in ORDER:
        raise ValueError(f"a fill or credit slip, got kind {row.get('kind')!r}")
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buf)
    writer.setResolution(dpi)
    writer.setPageLayout(page_layout())
    writer.setTitle(title(row))
    writer.setCreator("pitdesk")
    try:
        render(row, writer, casino, rule, printed)
    finally:
        del writer   # the PDF is complete once the writer is gone
    data = bytes(buf.data())
    buf.close()
    return data


def write_slip_pdf(row: dict, path: Path | str, casino: str = "", rule: str = "",
                   printed: datetime | None = None) -> Path:
    """The slip ``row`` (``trays.slip(conn, kind, number)``, or an entry of the shift report's
    ``tray_slips``) as a two-page PDF at ``path``, ORIGINAL then DUPLICATE, written whole
    (app/reports/whole_file.py): OSError, with nothing left, if it cannot be."""
    return write_whole(path, slip_pdf_bytes(row, casino, rule, printed))


def print_tray_slip(row: dict, printer, casino: str = "", rule: str = "", printed: datetime | None = None) -> int:
    """The slip on ``printer`` (a QPrinter the print dialog set up), the same pages as the PDF."""
    printer.setPageLayout(page_layout())
    printer.setDocName(title(row))
    return render(row, printer, casino, rule, printed)


__all__ = ["write_slip_pdf", "slip_pdf_bytes", "print_tray_slip", "render", "signature_lines", "lines", "COPIES"]
