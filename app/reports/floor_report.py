"""The floor's shift report on paper (issue 28, ``pitdesk report shift --pg URL --out F.pdf`` or
``--print P``): the floor's own pages first (the pits side by side, the floor's sum by wager
type, its banking and its hold against theory, each workstation's chain head), then each pit's
report as its own workstation prints it, every page numbered through the whole and footed with
the floor report's number.

The figures are the workstation's (app/workstation/floor_report.py): the floor's are added from
every pit's tables, so they are the pits' sum to the cent; this module only lays them out."""

from __future__ import annotations

from html import escape

from app.engine.words import money
from app.workstation.floor_report import pit_label
from app.workstation.shift_figures import ShiftReport, pit_banking

from app.engine.inventory import win_over_drop

from .shift_report import (IMAGE_DPI, _PAD, _banking, _cents, _chart_ref, _e, _table, _wagers, banners, build, counts_table,
                           draw_parts, new_document, page_layout, page_marks, pct, pdf_of, set_html, theory)


def floor_title(floor: ShiftReport) -> str:
    return f"Floor shift report — {floor.shift.label} ({floor.shift.hours})"


def floor_foot(floor: ShiftReport, part: str = "the floor") -> str:
    """Each page's foot: which floor report it is a page of, and whose pages these are."""
    number = f"floor report No. {floor.number}" if floor.number is not None else "floor report not numbered (preview)"
    interim = f"INTERIM to {floor.made:%H:%M} · " if floor.interim else ""
    copy = f"COPY of No. {floor.copy_of} · " if floor.copy else ""
    unverified = "NOT VERIFIED · " if getattr(floor, "not_verified", False) else ""
    return f"{unverified}{interim}{copy}pitdesk {number} · {floor.shift.label} · {part}"


def pit_foot(floor: ShiftReport, r: ShiftReport) -> str:
    head = f"{r.head[0]}:{r.head[1][:16]}…" if r.head else "none"
    return floor_foot(floor, f"workstation {pit_label(r)} · chain head {head}")


def build_floor(floor: ShiftReport, reports: list[ShiftReport], quiet: list[str], server: str, width: int,
                dpi: int = IMAGE_DPI) -> object:
    """The floor's own pages: ``floor`` is the floor's figures (``floor_figures``), numbered;
    ``reports`` each pit's; ``quiet`` the workstations with nothing in the shift."""
    doc = new_document()
    h = [f"<h1>{escape(floor_title(floor))}</h1>"] + banners(floor, "floor report")
    printed = f"{floor.printed_at:%Y-%m-%d %H:%M:%S}" if floor.printed_at else "not printed (preview)"
    number = f"{floor.number} (numbered by the casino's server)" if floor.number is not None else \
        "— (preview, not numbered)"
    h.append(f"<table cellpadding='{_PAD[0] // 2}'>")
    for k, v in (("Floor report No.", number),
                 ("Printed", f"{printed} by {floor.printed_by or '—'}"),
                 ("Shift", f"{floor.shift.label}: {floor.shift.start:%Y-%m-%d %H:%M} to "
                           f"{floor.shift.end:%Y-%m-%d %H:%M}"),
                 ("Read from", f"the casino's server {server}"),
                 ("Workstations", f"{len(reports)} with events in the shift ({floor.events:,} events)"
                                  + (f"; {len(quiet)} with none: {', '.join(quiet)}" if quiet else ""))):
        h.append(f"<tr><td class='dim'>{escape(k)}</td><td><b>{escape(v)}</b></td></tr>")
    h.append("</table>")

    h.append("<h2>The pits</h2>")
    rows = [[f"<b>{_e(pit_label(r))}</b>", f"{len(r.tables):,}", f"{r.rounds:,}", f"{r.void_rounds:,}",
             money(r.pit_total.wagered), money(r.pit_total.house_net), pct(r.pit_total.actual_hold),
             theory(r.pit_total.theoretical)] for r in reports]
    rows.append(["<b>Floor</b>", f"<b>{len(floor.tables):,}</b>", f"<b>{floor.rounds:,}</b>",
                 f"<b>{floor.void_rounds:,}</b>", f"<b>{money(floor.pit_total.wagered)}</b>",
                 f"<b>{money(floor.pit_total.house_net)}</b>", f"<b>{pct(floor.pit_total.actual_hold)}</b>",
                 f"<b>{theory(floor.pit_total.theoretical)}</b>"])
    h.append(_table(["Workstation", "Tables", "Rounds", "Void", "Wagered", "House net", "Actual hold", "Theoretical"],
                    rows, {1, 2, 3, 4, 5, 6}, wrap={7}, wrap_first=True))

    h.append(pits_money(floor, reports))

    h.append("<h2>The floor</h2>")
    h.append(counts_table(floor))
    h.append("<h3>Wagers, wins and losses by wager type, every pit's summed (cents as dollars)</h3>")
    h.append(_wagers(floor.pit_lines, floor.pit_total))
    h.append("<h3>Banking</h3>" + _banking(pit_banking(floor)))
    # the chart starts the floor's second page, never a heading left alone at the foot of the first
    h.append("<h3 style='page-break-before: always'>Actual against theoretical hold, the floor</h3>"
             + _chart_ref(doc, "floor", floor.pit_lines, int(width * 0.8), dpi))

    h.append("<h3>Tables</h3>")
    h.append(_table(["Workstation", "Table", "Profiles", "Rounds", "Wagered", "House net", "Actual hold"],
                    [[_e(pit_label(r)), f"<b>{_e(t.table)}</b>", _e(", ".join(t.profiles)), f"{t.rounds:,}",
                      money(t.total.wagered), money(t.total.house_net), pct(t.total.actual_hold)]
                     for r in reports for t in r.tables], {3, 4, 5, 6}, wrap_first=True))

    h.append("<h3>Each workstation's chain head at the shift's end</h3>")
    h.append(_table(["Workstation", "Events in the shift", "Chain head (sequence number and hash)"],
                    [[_e(pit_label(r)), f"{r.events:,}", f"<span class='head'>{_e(r.head_text)}</span>"] for r in reports],
                    {1}, wrap_first=True))
    h.append("<p class='dim'>Each pit's pages follow, as its own workstation prints them. <span class='head'>pitdesk "
             "floor verify --pg URL</span> checks every chain the server holds; <span class='head'>pitdesk audit "
             "verify --head SEQ:HASH</span> at a workstation checks its own log still ends at its head or goes on "
             "from it.</p>")
    return set_html(doc, h)


def pits_money(floor: ShiftReport, reports: list[ShiftReport]) -> str:
    """The pits' money (issue 34): each workstation's pit as its own report states it
    (``ShiftReport.money``), then the floor's, added from every pit's tables as a pit's are."""
    rows = []
    for name, m in [(f"<b>{_e(pit_label(r))}</b>", r.money) for r in reports] + [("<b>Floor</b>", floor.money)]:
        rows.append([name, f"{m.shifts:,}", money(m.opener), money(m.fills), money(m.credits), _cents(m.closer),
                     _cents(m.drop), _cents(m.win), win_over_drop(m.win, m.drop), money(m.rounds_house_net),
                     _cents(m.difference)])
    return "<h3>The pits' money</h3>" + _table(
        ["Workstation", "Table shifts", "Opener", "Fills", "Credits", "Closer", "Drop", "Win", "Win/drop",
         "Rounds' house net", "Difference"], rows, set(range(1, 11)), pt=6.0, pad=2, wrap_first=True) + \
        "<p class='dim'>A pit's table shifts opened in the shift, added; \u201cnot counted\u201d: a closer or drop " \
        "not yet counted, or no table opened. Each pit's own pages state its tables and slips.</p>"


def render_floor(floor: ShiftReport, reports: list[ShiftReport], quiet: list[str], server: str, device) -> int:
    """The floor's pages, then each pit's, on ``device`` (a QPdfWriter or QPrinter whose page
    layout is set); the number of pages."""
    return draw_parts(device, lambda width: [(build_floor(floor, reports, quiet, server, width), floor_foot(floor),
                                              page_marks(floor))]
                      + [(build(r, width, IMAGE_DPI, True, part_of=floor), pit_foot(floor, r), page_marks(floor))
                         for r in reports])


def floor_pdf_bytes(floor: ShiftReport, reports: list[ShiftReport], quiet: list[str], server: str,
                    paper: str = "letter") -> tuple[bytes, int]:
    """The floor's report as a PDF's bytes, drawn in memory; (bytes, pages)."""
    return pdf_of(floor_title(floor) + (" (COPY)" if floor.copy else ""),
                  lambda writer: render_floor(floor, reports, quiet, server, writer), paper)


def print_floor(floor: ShiftReport, reports: list[ShiftReport], quiet: list[str], server: str, printer,
                paper: str = "letter") -> int:
    """The floor's report on ``printer`` (a QPrinter): the same pages as its PDF."""
    printer.setPageLayout(page_layout(paper))
    printer.setDocName(floor_title(floor) + (" (COPY)" if floor.copy else ""))
    return render_floor(floor, reports, quiet, server, printer)
