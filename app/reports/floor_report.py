"""The floor's shift report on paper (issue 28, ``pitdesk report shift --pg URL --out F.pdf`` or
``--print P``): the floor's own pages (the pits side by side, their money, the floor's sum by
wager type, its banking and its hold against theory, every table under its workstation, each
workstation's chain head and its own reports of the shift printed), every page numbered and
footed with the floor report's number. Each pit's own pages (its slips, alarms, approvals, decks
and dice, irregularities) are its own workstation's report: the floor report reads sums, not
logs (issue 35, finding 5), and names them.

The figures are the workstation's (app/workstation/floor_report.py): the floor's are added from
every pit's tables, so they are the pits' sum to the cent; this module only lays them out."""

from __future__ import annotations

from html import escape

from app.engine import words
from app.engine.inventory import win_over_drop
from app.engine.words import money
from app.workstation.floor_report import FloorPit, FloorReport
from app.workstation.shift_figures import banking_of

from .shift_report import (IMAGE_DPI, _PAD, _banking, _cents, _chart_ref, _e, _table, _wagers, banners, draw_parts,
                           new_document, page_layout, page_marks, pct, pdf_of, set_html, theory)


def floor_title(floor: FloorReport) -> str:
    return f"Floor shift report — {floor.shift.label} ({floor.shift.hours})"


def floor_foot(floor: FloorReport) -> str:
    """Each page's foot: which floor report it is a page of."""
    number = f"floor report No. {floor.number}" if floor.number is not None else "floor report not numbered (preview)"
    interim = f"INTERIM to {floor.made:%H:%M} · " if floor.interim else ""
    copy = f"COPY of No. {floor.copy_of} · " if floor.copy else ""
    unverified = "NOT VERIFIED · " if floor.not_verified else ""
    return f"{unverified}{interim}{copy}pitdesk {number} · {floor.shift.label} · the floor"


def _counts(floor: FloorReport) -> str:
    """The floor's counts, two a line."""
    counts = [("Rounds played", floor.rounds), ("Settlements sent back by a denial",
                                                 sum(t.sent_back for t in floor.tables)),
              ("Payout slips", floor.count("slips")), ("of them void", floor.count("void_slips")),
              ("Alarms", floor.count("alarms")), ("Approval requests", floor.count("approvals")),
              ("Aggregate-limit applications", floor.count("aggregate_limits")),
              ("Progressive hits", floor.count("hits"))]
    cells = [f"<td class='dim'>{escape(k)}</td><td class='n' nowrap><b>{v:,}</b></td>" for k, v in counts]
    half = (len(cells) + 1) // 2
    return f"<table cellpadding='{_PAD[0] // 2}'>" + "".join(
        f"<tr>{a}<td width='24'></td>{b}</tr>" for a, b in zip(cells[:half], cells[half:] + [""])) + "</table>"


def own_reports_text(p: FloorPit) -> str:
    """A pit's own reports of the shift as a person reads them: the last printed, and how many."""
    if not p.own_reports:
        return "none printed yet"
    last = p.own_reports[-1]
    head = str(last.get("head") or "")
    current = " (to this head)" if p.head and head == p.head_text else ""
    more = f"; {len(p.own_reports)} printed" if len(p.own_reports) > 1 else ""
    return (f"No. {last['number']} printed {words.when(last['printed']) or '—'} by {last['by']}"
            f"{' (COPY)' if last.get('copy_of') else ''}{current}{more}")


def build_floor(floor: FloorReport, server: str, width: int, dpi: int = IMAGE_DPI) -> object:
    """The floor's pages: ``floor`` numbered (or a preview), read from the server ``server``."""
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
                 ("Read from", f"the casino's server {server}, the sums it keeps as rows arrive"),
                 ("Workstations", f"{len(floor.pits)} with events in the shift ({floor.events:,} events)"
                                  + (f"; {len(floor.quiet)} with none: {', '.join(floor.quiet)}" if floor.quiet else ""))):
        h.append(f"<tr><td class='dim'>{escape(k)}</td><td><b>{escape(v)}</b></td></tr>")
    h.append("</table>")

    h.append("<h2>The pits</h2>")
    rows = [[f"<b>{_e(p.label)}</b>", f"{len(p.tables):,}", f"{p.rounds:,}", f"{sum(t.sent_back for t in p.tables):,}",
             money(p.total.wagered), money(p.total.house_net), pct(p.total.actual_hold), theory(p.total.theoretical)]
            for p in floor.pits]
    rows.append(["<b>Floor</b>", f"<b>{len(floor.tables):,}</b>", f"<b>{floor.rounds:,}</b>",
                 f"<b>{sum(t.sent_back for t in floor.tables):,}</b>", f"<b>{money(floor.total.wagered)}</b>",
                 f"<b>{money(floor.total.house_net)}</b>", f"<b>{pct(floor.total.actual_hold)}</b>",
                 f"<b>{theory(floor.total.theoretical)}</b>"])
    h.append(_table(["Workstation", "Tables", "Rounds", "Sent back", "Wagered", "House net", "Actual hold",
                     "Theoretical"], rows, {1, 2, 3, 4, 5, 6}, wrap={7}, wrap_first=True))

    h.append(pits_money(floor))

    h.append("<h2>The floor</h2>")
    h.append(_counts(floor))
    h.append("<h3>Wagers, wins and losses by wager type, every pit's summed (cents as dollars)</h3>")
    h.append(_wagers(floor.lines, floor.total))
    h.append("<h3>Banking</h3>" + _banking(banking_of(floor.tables)))

    h.append("<h3>Tables</h3>")
    h.append(_table(["Workstation", "Table", "Profiles", "Rounds", "Wagered", "House net", "Actual hold", "Win",
                     "Slips", "Alarms", "Approvals"],
                    [[_e(p.short), f"<b>{_e(t.table)}</b>", _e(", ".join(t.profiles)), f"{t.rounds:,}",
                      money(t.total.wagered), money(t.total.house_net), pct(t.total.actual_hold), _cents(t.money.win),
                      f"{t.counts['slips']:,}", f"{t.counts['alarms']:,}", f"{t.counts['approvals']:,}"]
                     for p in floor.pits for t in p.tables], set(range(3, 11)), pt=6.4, pad=2, wrap_first=True))

    h.append("<h3>Each workstation's chain head at the shift's end</h3>")
    h.append(_table(["Workstation", "Events in the shift", "Chain head (sequence number and hash)"],
                    [[_e(p.label), f"{p.events:,}", f"<span class='head'>{_e(p.head_text)}</span>"] for p in floor.pits],
                    {1}, wrap_first=True))
    h.append("<h3>Each pit's own report of the shift</h3>")
    h.append(_table(["Workstation", "Its own shift report, as its workstation logged it printed"],
                    [[_e(p.label), _e(own_reports_text(p))] for p in floor.pits], wrap_first=True))
    h.append("<p class='dim'>Void rounds, irregularities and deck and dice changes against their deadlines are the "
             "engine's verdicts over every row of a table: each pit's own report of the shift states them, with its "
             "slips, alarms and approvals one by one (<span class='head'>pitdesk report shift</span> at its "
             "workstation). <span class='head'>pitdesk floor verify --pg URL</span> checks every chain the server "
             "holds; <span class='head'>pitdesk audit verify --head SEQ:HASH</span> at a workstation checks its own "
             "log still ends at its head or goes on from it.</p>")
    # the chart on a page of its own, at the end: never a heading left alone at the foot of a page
    h.append("<h3 style='page-break-before: always'>Actual against theoretical hold, the floor</h3>"
             + _chart_ref(doc, "floor", floor.lines, int(width * 0.8), dpi))
    return set_html(doc, h)


def pits_money(floor: FloorReport) -> str:
    """The pits' money (issue 34): each workstation's pit as its own report states it, then the
    floor's, added from every pit's tables as a pit's are."""
    rows = []
    for name, m in [(f"<b>{_e(p.short)}</b>", p.money) for p in floor.pits] + [("<b>Floor</b>", floor.money)]:
        rows.append([name, f"{m.shifts:,}", money(m.opener), money(m.fills), money(m.credits), _cents(m.closer),
                     _cents(m.drop), _cents(m.win), win_over_drop(m.win, m.drop), money(m.rounds_house_net),
                     _cents(m.difference)])
    return "<h3>The pits' money</h3>" + _table(
        ["Workstation", "Table shifts", "Opener", "Fills", "Credits", "Closer", "Drop", "Win", "Win/drop",
         "Rounds' house net", "Difference"], rows, set(range(1, 11)), pt=6.0, pad=2) + \
        "<p class='dim'>A pit's table shifts opened in the shift, added; \u201cnot counted\u201d: a closer or drop " \
        "not yet counted, or no table opened. Each pit's own report states its tables' slips one by one.</p>"


def render_floor(floor: FloorReport, server: str, device) -> int:
    """The floor's pages on ``device`` (a QPdfWriter or QPrinter whose page layout is set); the
    number of pages."""
    return draw_parts(device, lambda width: [(build_floor(floor, server, width), floor_foot(floor), page_marks(floor))])


def floor_pdf_bytes(floor: FloorReport, server: str, paper: str = "letter") -> tuple[bytes, int]:
    """The floor's report as a PDF's bytes, drawn in memory; (bytes, pages)."""
    return pdf_of(floor_title(floor) + (" (COPY)" if floor.copy else ""),
                  lambda writer: render_floor(floor, server, writer), paper)


def print_floor(floor: FloorReport, server: str, printer, paper: str = "letter") -> int:
    """The floor's report on ``printer`` (a QPrinter): the same pages as its PDF."""
    printer.setPageLayout(page_layout(paper))
    printer.setDocName(floor_title(floor) + (" (COPY)" if floor.copy else ""))
    return render_floor(floor, server, printer)
