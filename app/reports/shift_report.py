"""The shift report on paper: one layout for the PDF (QPdfWriter), the printer (QPrinter) and the
preview (QPrintPreviewWidget), so the file kept and the paper signed cannot differ.

The pages are a QTextDocument (HTML: the figures as tables) laid out on the device's own
resolution and drawn a page at a time with a foot on every page: the report's number (or COPY),
the shift, the chain head and "page N of M". The charts (actual against theoretical hold per
wager type) are drawn with QPainter into images the document holds. Every figure is the
workstation's (app/workstation/shift_figures.py); nothing here computes one but the layout.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from app.engine import words
from app.engine.inventory import difference_words, tray_words, win_over_drop
from app.store.trays import signers_of
from app.workstation.hold import LABELS
from app.workstation.pace import pit_hours
from app.workstation.shift_figures import BANKING, BANKING_LABEL, NO_TABLE, ShiftReport, pit_banking

from app.qt import (QBuffer, QColor, QFont, QImage, QIODevice, QMarginsF, QPageLayout, QPageSize, QPainter,
                    QPdfWriter, QPen, QPointF, QRectF, QSizeF, Qt, QTextDocument, QUrl)

from . import fonts
from .whole_file import write_whole

MARGIN_MM = 14.0
PAPERS = {"a4": QPageSize.PageSizeId.A4, "letter": QPageSize.PageSizeId.Letter}
INK, GREY, LIGHT = QColor("#000000"), QColor("#555555"), QColor("#bbbbbb")
ACTUAL, THEORY = QColor("#1f4e8c"), QColor("#9a9a9a")
FOOT_PT = 8.0


def page_layout(paper: str = "letter") -> QPageLayout:
    if paper not in PAPERS:
        raise ValueError(f"paper {paper!r}: a4 or letter")
    return QPageLayout(QPageSize(PAPERS[paper]), QPageLayout.Orientation.Portrait,
                       QMarginsF(MARGIN_MM, MARGIN_MM, MARGIN_MM, MARGIN_MM), QPageLayout.Unit.Millimeter)


def no_ligatures(f: QFont) -> QFont:
    """Letters as letters: "fl" and "fi" kept apart, so that the text read out of the PDF (an
    auditor's search, pdftotext) and out of a printer's PostScript says the words as written."""
    for tag in ("liga", "clig"):
        f.setFeature(QFont.Tag(tag), 0)
    return f


# -- words -------------------------------------------------------------------------------------------
money = words.money


def pct(x) -> str:
    return "—" if x is None else f"{float(x) * 100:.2f}%"


def theory(th) -> str:
    if th is None:
        return "—"
    if th.basis == "estimate" and th.interval:
        return f"{pct(th.hold)} ±{(th.interval[1] - th.interval[0]) / 2 * 100:.2f} est."
    return pct(th.hold)


def _t(v) -> str:
    """A logged time as printed (to the second, no T)."""
    return words.when(v) or "—"


def _e(v) -> str:
    return escape("—" if v is None or v == "" else str(v))


def _by(row: dict, name: str = "decided_by", second: str = "countersigned", role: str = "decided_role") -> str:
    """Who decided a row, and who counter-signed it at their session (app/engine/words.py ``signed``)."""
    return words.signed(row.get(name), row.get(role), row.get(f"{second}_by"), row.get(f"{second}_role"))


def title(r: ShiftReport) -> str:
    return f"Shift report — {r.shift.label} ({r.shift.hours})"


def foot(r: ShiftReport) -> str:
    """Each page's foot: which report it is a page of (the head cut to 16 hex digits; whole on page 1)."""
    number = f"report No. {r.number}" if r.number is not None else "report not numbered (preview)"
    head = f"{r.head[0]}:{r.head[1][:16]}…" if r.head else "none"
    interim = f"INTERIM to {r.made:%H:%M} · " if r.interim else ""
    copy = f"COPY of No. {r.copy_of} · " if r.copy else ""
    unverified = "NOT VERIFIED · " if getattr(r, "not_verified", False) else ""
    return f"{unverified}{interim}{copy}pitdesk shift {number} · {r.shift.label} · chain head {head}"


def page_marks(r) -> tuple[str, ...]:
    """The words across every page of a report: NOT VERIFIED (read from a record that failed its
    check, printed only when asked: issue 35, finding 1) and COPY (a reprint)."""
    return (("NOT VERIFIED",) if getattr(r, "not_verified", False) else ()) + (("COPY",) if r.copy else ())


# -- the document ------------------------------------------------------------------------------------
_CSS = """
body { font-family: '@sans@'; font-size: 7.5pt; color: #000; }
h1 { font-size: 16pt; margin: 0 0 2pt 0; }
h2 { font-size: 12.5pt; margin: 12pt 0 4pt 0; }
h3 { font-size: 10pt; margin: 8pt 0 2pt 0; }
table { border-collapse: collapse; margin: 0 0 4pt 0; }
th { font-weight: bold; background: #e6e6e6; text-align: left; }
td { }
td.n { text-align: right; white-space: nowrap; }
th.n { text-align: right; }
td.f, th.f { white-space: nowrap; }
td.r { text-align: right; }
th.r { text-align: right; white-space: nowrap; }
.copy { font-size: 20pt; font-weight: bold; color: #a00000; }
.interim { font-size: 10pt; font-weight: bold; color: #a00000; margin: 1pt 0 2pt 0; }
.late { font-weight: bold; color: #a00000; }
.dim { color: #555555; }
.head { font-family: '@mono@'; font-size: 8pt; }
""".replace("@sans@", fonts.SANS).replace("@mono@", fonts.MONO)     # the shipped faces (fonts.py)


_PAD = [3]     # a cell's padding in layout units (96 an inch): about 0.8 mm


def _table(head: list[str], rows: list[list[str]], numeric: set[int] = frozenset(), empty: str = "none",
           pt: float | None = None, pad: int | None = None, wrap: set[int] = frozenset(),
           wrap_first: bool = False) -> str:
    """An HTML table; ``numeric`` columns right-aligned and never broken, ``wrap`` right-aligned
    and broken where they must (a theoretical hold's interval), the first column never broken."""
    if not rows:
        # a table's bottom margin: a page break carries the last block's bottom margin over to the
        # next page, and each table's section must start at the same height whatever ends the one before
        return f"<p class='dim' style='margin-bottom: 4pt'>{escape(empty)}</p>"
    style = f" style='font-size: {pt}pt'" if pt else ""
    out = [f"<table cellspacing='0' cellpadding='{_PAD[0] if pad is None else pad}' width='100%'{style}><tr>"]
    def cls(i: int) -> str:
        return "n" if i in numeric else "r" if i in wrap else "f" if i == 0 and not wrap_first else ""
    out += [f"<th class='{cls(i)}'>{escape(h)}</th>" for i, h in enumerate(head)]
    out.append("</tr>")
    for row in rows:
        # a figure, and what a row is (its first cell), are never broken across lines
        out.append("<tr>" + "".join(f"<td class='{cls(i)}'>{c}</td>" for i, c in enumerate(row)) + "</tr>")
    out.append("</table>")
    return "".join(out)


def _wagers(lines, total) -> str:
    """Two tables, each within a page's width at letter and A4 with figures into the millions
    (issue 27): the money by wager type, then the hold against its theory."""
    label = [_e(LABELS.get(ln.wager, ln.wager)) for ln in lines]
    money_rows = [[name, money(ln.wagered), money(ln.house_won), money(ln.house_lost), money(ln.commission),
                   money(ln.collection_fees), money(ln.to_meter), f"<b>{money(ln.house_net)}</b>"]
                  for name, ln in zip(label, lines)]
    hold_rows = [[name, money(ln.wagered), f"<b>{money(ln.house_net)}</b>", pct(ln.actual_hold),
                  theory(ln.theoretical)] for name, ln in zip(label, lines)]
    if lines:
        money_rows.append(["<b>Total</b>", f"<b>{money(total.wagered)}</b>", "", "", "", "", "",
                           f"<b>{money(total.house_net)}</b>"])
        hold_rows.append(["<b>Total</b>", f"<b>{money(total.wagered)}</b>", f"<b>{money(total.house_net)}</b>",
                          f"<b>{pct(total.actual_hold)}</b>", f"<b>{theory(total.theoretical)}</b>"])
    # the wager's name wraps (the first column is otherwise never broken): the figures have the width
    return _table(["Wager", "Wagered", "House won", "House lost", "Commission", "Fees", "To meter", "House net"],
                  money_rows, set(range(1, 8)), "no wagers settled", pt=6.2, pad=2, wrap_first=True) + \
        ("" if not lines else _table(["Wager", "Wagered", "House net", "Actual hold", "Theoretical"], hold_rows,
                                     {1, 2, 3}, pt=6.4, pad=1, wrap={4}))


def _banking(banking: dict) -> str:
    rows = [[_e(BANKING_LABEL[b]), f"{banking[b]['rounds']:,}", money(banking[b]["house_net"])]
            for b in BANKING if b in banking]
    return _table(["Banked by", "Rounds", "House net"], rows, {1, 2}, "no rounds settled")


def _chart_ref(doc: QTextDocument, name: str, lines, width: int, dpi: int) -> str:
    """A chart ``width`` layout units wide, drawn at ``dpi`` into an image the document holds:
    the picture keeps its own pixels (sharp on paper) and is shown at its size in layout units."""
    drawn = [ln for ln in lines if ln.wagered > 0]
    if not drawn:
        return ""
    k = dpi / LAYOUT_DPI
    height = int(LAYOUT_DPI * (0.17 * len(drawn) + 0.4))
    image = hold_chart(drawn, int(width * k), int(height * k), dpi)
    doc.addResource(QTextDocument.ResourceType.ImageResource, QUrl(f"chart:{name}"), image)
    return f"<p><img src='chart:{name}' width='{width}' height='{height}'></p>"


def new_document() -> QTextDocument:
    """An empty document in the report's style and font."""
    doc = QTextDocument()
    doc.setDefaultStyleSheet(_CSS)
    f = fonts.sans(7.5)
    no_ligatures(f)
    doc.setDefaultFont(f)
    return doc


def banners(r: ShiftReport, what: str = "report") -> list[str]:
    """NOT VERIFIED, INTERIM and COPY under a report's title, when they are so."""
    h = []
    if getattr(r, "not_verified", False):
        # printed only when a person asked for it: what the check found, in its own words
        h.append(f"<p class='copy'>NOT VERIFIED — the record failed its check: {escape(r.verified.words())}</p>")
    if r.interim:
        h.append(f"<p class='interim'>INTERIM — the shift is still running: its figures to {r.made:%H:%M}, "
                 f"not its end ({r.shift.end:%H:%M})</p>")
    if r.copy:
        # the same content as the report first printed with it: a reprint of that number (its own
        # number is this printing's, in the foot and the table below)
        h.append(f"<p class='copy'>COPY — a reprint of {what} No. {r.copy_of}</p>")
    return h


def set_html(doc: QTextDocument, parts: list[str]) -> QTextDocument:
    # a heading stands apart from the table above it (Qt's rich text drops a heading's top margin
    # after a table): a small empty line before each
    body = "".join(parts).replace("<h3>", "<p style='margin: 0; font-size: 3pt'>&#160;</p><h3>")
    doc.setHtml("<html><body>" + body + "</body></html>")
    return doc


def build(r: ShiftReport, width: int, dpi: int = 300, tables: bool | tuple[str, ...] = True) -> QTextDocument:
    """The report's document, as wide as the page's body (``width`` in layout units, 96 an
    inch); its charts drawn at ``dpi``. ``tables``: True, every table's page; False, the pit alone
    without a line or a page per table (a one-page summary); names, the pit and those tables'
    pages (a preview of part of it)."""
    doc = new_document()
    chart_w = int(width * 0.8)
    h = [f"<h1>{escape(title(r))}</h1>"]
    number = f"{r.number}" if r.number is not None else "— (preview, not numbered)"
    if r.copy:
        number += f", a reprint of No. {r.copy_of}"
    h += banners(r, "report")
    printed = f"{r.printed_at:%Y-%m-%d %H:%M:%S}" if r.printed_at else "not printed (preview)"
    h.append(f"<table cellpadding='{_PAD[0] // 2}'>")
    for k, v in (("Report No.", number),
                 ("Printed", f"{printed} by {r.printed_by or '—'}"),
                 ("Shift", f"{r.shift.label}: {r.shift.start:%Y-%m-%d %H:%M} to {r.shift.end:%Y-%m-%d %H:%M}"),
                 ("Audit log", f"{r.db_id} ({r.events:,} events in the shift)")):
        h.append(f"<tr><td class='dim'>{escape(k)}</td><td><b>{escape(v)}</b></td></tr>")
    h.append(f"<tr><td class='dim'>Chain head at the shift's end</td><td class='head'><b>{escape(r.head_text)}"
             "</b></td></tr></table>")
    h.append("<p class='dim'>The chain head is the last event logged before the shift's end (its sequence number "
             "and hash): <span class='head'>pitdesk audit verify --head SEQ:HASH</span> checks the log still ends "
             "there or goes on from it.</p>")
    h.append("<h2>The pit</h2>")
    h.append(counts_table(r))
    h.append("<h3>Wagers, wins and losses by wager type (cents as dollars)</h3>")
    h.append(_wagers(r.pit_lines, r.pit_total))
    h.append("<h3>Banking</h3>" + _banking(pit_banking(r)))
    # the chart starts the pit's second page, never a heading left alone at the foot of the first
    h.append("<h3 style='page-break-before: always'>Actual against theoretical hold</h3>"
             + _chart_ref(doc, "pit", r.pit_lines, chart_w, dpi))
    if tables:
        h.append("<h3>Tables</h3>")
        h.append(_table(["Table", "Profiles", "Rounds", "Void", "Wagered", "House net", "Actual hold", "Theoretical",
                         "Late changes"],
                        [[f"<b>{_e(t.table)}</b>", _e(", ".join(t.profiles)), f"{t.rounds:,}", f"{t.void_rounds:,}",
                          money(t.total.wagered), money(t.total.house_net), pct(t.total.actual_hold),
                          theory(t.total.theoretical), f"{t.late}"] for t in r.tables], {2, 3, 4, 5, 6, 7, 8}))
    # the pit's pace and its rated players: the pit's own pages, in every part of the report
    h.append(pace_section(r))
    h.append(ratings_section(r))
    h.append(money_section(r))
    for t in r.tables:
        if tables is True or (not isinstance(tables, bool) and t.table in tables):
            h.append(_section(doc, r, t, chart_w, dpi))
    return set_html(doc, h)


def pace_section(r: ShiftReport) -> str:
    """Each table's rounds and wagers per clock hour of the shift, and the pit's (issue 36): a
    table well under or over the others' pace stands out in its row."""
    pit = pit_hours(r.tables)
    if not pit:
        return "<h3>Pace and turnover by hour</h3><p class='dim'>no round settled in the shift</p>"
    hours = [h.hour for h in pit]
    rows = [t for t in r.tables if t.pace]

    def matrix(value, total) -> list[list[str]]:
        out = []
        for t in rows:
            by = {p.hour: p for p in t.pace}
            out.append([f"<b>{_e(t.table)}</b>"] + [value(by[h]) if h in by else "" for h in hours]
                       + [f"<b>{total(t.pace)}</b>"])
        out.append(["<b>Pit</b>"] + [f"<b>{value(p)}</b>" for p in pit] + [f"<b>{total(pit)}</b>"])
        return out

    head = ["Table"] + [f"{h:%H:%M}" for h in hours] + ["Shift"]
    numeric = set(range(1, len(head)))
    return ("<h3>Pace and turnover by hour</h3><p class='dim'>Rounds settled and counted (a settlement sent back "
            "by a denial is not), and what the players wagered on them, per clock hour: every wager, those "
            "against a player bank or a player-dealer too, where the hold's Wagered is the house's action "
            "only.</p>"
            + _table(head, matrix(lambda p: f"{p.rounds:,}", lambda ps: f"{sum(p.rounds for p in ps):,}"),
                     numeric, pt=6.4, pad=2)
            + "<p></p>"
            + _table(head, matrix(lambda p: money(p.wagered), lambda ps: money(sum(p.wagered for p in ps))),
                     numeric, pt=5.6, pad=1))


def ratings_section(r: ShiftReport) -> str:
    """The rated players of the shift (issue 36): each card's rounds, time, wagers, actual and
    theoretical win, from the rounds they sat in."""
    h = ["<h3>Player ratings</h3>"]
    if not r.ratings:
        return h[0] + "<p class='dim'>no rated player in the shift</p>"
    h.append("<p class='dim'>From the rounds each rated player sat in: actual = what the player lost (positive) "
             "or won (negative); theoretical = each wager times its house edge in the table's rules (the base "
             "game's an estimate, its 95% interval beside it).</p>")
    rows = []
    for p in r.ratings:
        j = p.as_json()
        band = j["theoretical_interval_95"]
        rows.append([f"<b>{_e(p.player)}</b>", _e(p.name), _e(", ".join(p.tables)), f"{p.rounds:,}",
                     f"{j['minutes']:,}", money(p.wagered), money(j["average_wager"]), money(p.actual),
                     f"<b>{money(j['theoretical'])}</b>" + (f" ({money(band[0])} to {money(band[1])})" if band else "")])
    h.append(_table(["Player", "Name", "Tables", "Rounds", "Minutes", "Wagered", "Average", "Actual", "Theoretical"],
                    rows, {3, 4, 5, 6, 7}, pt=6.4, pad=2, wrap={8}))
    return "".join(h)


def _cents(v) -> str:
    """An amount of the money, or "not counted" (a closer or drop not yet counted, and the win)."""
    return "<span class='dim'>not counted</span>" if v is None else money(v)


def money_section(r: ShiftReport) -> str:
    """The pit's money (issue 34, docs/inventory.md): per table, the shifts opened in the report's
    shift added; the pit's total; each difference in words; the fill and credit slips and the
    numbers unused between them. Every figure is the store's (ShiftMoney), none computed here
    but win over drop (inventory.win_over_drop: integer arithmetic)."""
    if not any(t.money.shifts for t in r.tables) and not r.tray_slips:
        return ("<h2>The pit's money</h2><p class='dim'>No table's tray was opened in this shift, and no fill or "
                "credit was asked for: nothing to reconcile.</p>")
    h = ["<h2>The pit's money</h2>",
         "<p class='dim'>Win = drop + closer + credits − opener − fills; its difference = the win less the rounds' "
         "house net and what they left in the tray for the meter. A table's shifts opened in this shift, added; "
         "\u201cnot counted\u201d: no closer or drop yet, or no opener in the shift.</p>"]
    rows = []
    opened = [t for t in r.tables if t.money.shifts]
    for name, m in [(f"<b>{_e(t.table)}</b>", t.money) for t in opened] + [("<b>Pit</b>", r.money)]:
        rows.append([name, money(m.opener), money(m.fills), money(m.credits), _cents(m.closer), _cents(m.drop),
                     _cents(m.win), win_over_drop(m.win, m.drop), money(m.rounds_house_net), _cents(m.difference)])
    if not opened:
        rows = []
    h.append(_table(["Table", "Opener", "Fills", "Credits", "Closer", "Drop", "Win", "Win/drop", "Rounds' house net",
                     "Difference"], rows, set(range(1, 10)), "no table opened in the shift", pt=6.4, pad=2))
    quiet = [t.table for t in r.tables if not t.money.shifts and t.table != NO_TABLE]
    if quiet and opened:
        h.append(f"<p class='dim'>Not opened in the shift: {_e(', '.join(quiet))}</p>")
    said = []
    for t in opened:
        m = t.money
        if m.difference:
            said.append(difference_words(t.table, r.shift.label, m, None))
        elif m.difference is None and m.tray_difference:
            said.append(tray_words(t.table, r.shift.label, m, None))
    h.append("<h3>Reconciliation</h3>")
    h.append("".join(f"<p>{escape(w)}</p>" for w in said) if said else
             "<p class='dim'>every table counted reconciles with its rounds to the cent</p>")
    h.append("<h3>Fill and credit slips (in number order)</h3>")
    h.append(_table(["Slip", "Table", "Requested", "Amount", "Reason", "Approved by", "At the cage", "At the table",
                     "Status"],
                    [[f"{s['kind']} {s['number']:06d}", _e(s["table_id"]), _t(s["requested"]), money(s["cents"]),
                      _e(s["reason"]), _e(s["approved_by"]), _e(_names(s["cage_signers"])),
                      _e(_names(s["table_signers"])),
                      (f"<span class='late'>VOID</span> {_t(s['voided'])} by {_e(s['voided_by'])}: "
                       f"{_e(s['void_reason'])}") if s["status"] == "VOID" else _e(s["status"])]
                     for s in r.tray_slips], {3}, "no fill or credit in the shift", pt=6.4, pad=2))
    unused = r.unused_numbers
    gaps = "; ".join(f"{k}s {', '.join(f'{n:06d}' for n in unused[k])}" for k in unused if unused[k])
    h.append(f"<p>Numbers unused between the shift's first and last slip: "
             f"<b>{escape(gaps or 'none: the numbers run unbroken')}</b></p>")
    return "".join(h)


def _names(signers: str | None) -> str | None:
    """Who signed a slip at one end, as logged (name and role)."""
    return ", ".join(f"{n} ({role})" for n, role in signers_of(signers)) or None


def counts_table(r: ShiftReport) -> str:
    """The pit's (or the floor's) counts, two a line: the pit's page holds its figures, its
    banking and its chart on one sheet."""
    void_slips = sum(1 for t in r.tables for s in t.slips if s["status"] == "VOID")
    counts = [("Rounds played", r.rounds), ("Void rounds", r.void_rounds),
              ("Settlements sent back by a denial", sum(t.sent_back for t in r.tables)),
              ("Payout slips", sum(len(t.slips) for t in r.tables)), ("of them void", void_slips),
              ("Late deck and dice changes", sum(t.late for t in r.tables)),
              ("Irregularities", sum(len(t.irregularities) for t in r.tables)),
              ("Alarms", sum(len(t.alarms) for t in r.tables)), ("Approval requests", sum(len(t.approvals) for t in r.tables)),
              ("Aggregate-limit applications", sum(len(t.aggregate_limits) for t in r.tables))]
    cells = [f"<td class='dim'>{escape(k)}</td><td class='n' nowrap><b>{v:,}</b></td>" for k, v in counts]
    half = (len(cells) + 1) // 2
    return f"<table cellpadding='{_PAD[0] // 2}'>" + "".join(
        f"<tr>{a}<td width='24'></td>{b}</tr>" for a, b in zip(cells[:half], cells[half:] + [""])) + "</table>"


def _section(doc, r: ShiftReport, t, chart_w: int, dpi: int) -> str:
    name = ("Logged without a table" if t.table == NO_TABLE else
            f"Table {escape(t.table)} — {escape(', '.join(t.profiles) or 'no round settled')}")
    h = [f"<h2 style='page-break-before: always'>{name}</h2>"]
    h.append(f"<p>Rounds played <b>{t.rounds:,}</b> · void rounds <b>{t.void_rounds:,}</b> · settlements sent back "
             f"<b>{t.sent_back:,}</b></p>")
    h.append("<h3>Wagers, wins and losses by wager type</h3>" + _wagers(t.lines, t.total))
    h.append("<h3>Banking</h3>" + _banking({b["banking"]: b for b in t.banking}))
    h.append("<h3>Pace and turnover by hour</h3>")
    h.append(_table(["Hour", "Rounds", "Wagered", "Average round", "Seats in play"],
                    [[f"{p.hour:%H:%M}", f"{p.rounds:,}", money(p.wagered), money(p.average_wager),
                      f"{p.seats_tenths // 10}.{p.seats_tenths % 10}"] for p in t.pace], {1, 2, 3, 4},
                    "no round settled"))
    chart = _chart_ref(doc, t.table, t.lines, chart_w, dpi)
    if chart:
        h.append("<h3>Actual against theoretical hold</h3>" + chart)
    h.append("<h3>Aggregate-limit applications</h3>")
    h.append(_table(["Requested", "Seat", "Amount", "Reason", "Rule", "Decision", "By"],
                    [[_t(a["requested"]), _e(a["seat"]), money(a["cents"]), _e(a["reason"]), _e(a["rule"]),
                      _e(a["status"]), _e(a["decided_by"])] for a in t.aggregate_limits], {1, 2}))
    h.append("<h3>Progressive meter</h3>")
    m = t.meter
    if m is None:
        h.append("<p class='dim'>no progressive meter at this table</p>")
    else:
        start = "not read" if m["start_time"] is None else \
            f"read {_t(m['start_time'])}" if m.get("start_before_shift", True) else \
            f"first read {_t(m['start_time'])}: no reading before the shift"
        end = "not read" if m["end_time"] is None else f"read {_t(m['end_time'])}"
        h.append(f"<p>At the start <b>{money(m['start_cents'])}</b> <span class='dim'>({escape(start)})</span> · "
                 f"{'so far' if r.interim else 'at the end'} <b>{money(m['end_cents'])}</b> "
                 f"<span class='dim'>({escape(end)})</span></p>")
        events = [(hit["requested"], "hit", f"seat {hit['seat']}: {money(hit['cents'])} — {hit['status']}"
                   + (f" by {_by(hit)}" if hit["decided_by"] else "")) for hit in t.hits]
        events += [(z["time"], "reset", f"meter reset to {money(z['cents'])}") for z in m["resets"]]
        events.sort(key=lambda x: x[0])
        h.append(_table(["Time", "What", ""], [[_t(a), _e(b), _e(c)] for a, b, c in events], empty="no hit, no reset"))
    h.append("<h3>Payout slips (in number order)</h3>")
    h.append(_table(["No.", "Issued", "Seat", "Wager", "Win", "By", "Status"],
                    [[f"{s['number']:06d}", _t(s["time"]), _e(s["seat"]), _e(s["wager"]), money(s["win_cents"]),
                      _e(_by(s, "issued_by", "issue_countersigned")),
                      (f"<span class='late'>VOID</span> {_t(s['voided'])} by "
                       f"{_e(_by(s, 'voided_by', 'void_countersigned'))}: "
                       f"{_e(s['void_reason'])}") if s["status"] == "VOID" else "issued"] for s in t.slips], {4}))
    h.append("<h3>Deck changes against their due times</h3>")
    h.append(_table(["Deck", "Received", "Changed", "By", "Due", "", "Rule"],
                    [[_e(d["deck"]), _t(d["received"]), _t(d["changed"]) if d["changed"] else "in use",
                      _e(d["changed_by"]), _t(d["due"]),
                      "<span class='late'>LATE</span>" if d["late"] else "on time", _e(d["rule"])] for d in t.decks]))
    h.append("<h3>Dice changes against their due times</h3>")
    h.append(_table(["Placed", "Changed", "By", "Due", "", "Rule"],
                    [[_t(d["placed"]), _t(d["removed"]) if d["removed"] else "in use", _e(d["changed_by"]),
                      _t(d["due"]), "<span class='late'>LATE</span>" if d["late"] else "on time", _e(d["rule"])]
                     for d in t.dice]))
    h.append("<h3>Irregularities</h3>")
    h.append(_table(["Time", "Round", "What", "Consequence", "Rule", "Acknowledged by"],
                    [[_t(i["time"]), _e(i["round"]), _e(i["kind"].replace("_", " ")), _e(i["consequence"]),
                      _e(i["rule"]), _e(_by(i, "acknowledged_by"))] for i in t.irregularities]))
    h.append("<h3>Alarms and who acknowledged them</h3>")
    h.append(_table(["Raised", "Alarm", "Cleared", "Acknowledged by", "When", "Why"],
                    [[_t(a["raised"]), _e(a["message"] or a["kind"]), _t(a["cleared"]) if a["cleared"] else "",
                      _e(_by(a, "acknowledged_by", role="acknowledged_role")) if a["acknowledged_by"]
                      else "<span class='late'>NOT ACKNOWLEDGED</span>",
                      _t(a["acknowledged"]), _e(a["acknowledged_reason"])] for a in t.alarms]))
    h.append("<h3>Approvals and who gave them</h3>")
    h.append(_table(["Requested", "What", "Seat", "Amount", "Asked by", "Decision", "By", "Reason"],
                    [[_t(a["requested"]), _e(a["kind"].replace("_", " ")), _e(a["seat"]), money(a["cents"]),
                      _e(a["requested_by"]), _e(a["status"]),
                      _e(_by(a) or None),
                      _e(a["decision_reason"])] for a in t.approvals], {2, 3}))
    return "".join(h)


# -- the chart ---------------------------------------------------------------------------------------
def hold_chart(lines, width: int, height: int, dpi: int) -> QImage:
    """Actual (dark) against theoretical (grey) hold per wager type, a row each, figures at the
    bars' ends; a bar beyond 60 points past the theoretical figures is cut and says so."""
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.setDotsPerMeterX(int(dpi / 0.0254))
    image.setDotsPerMeterY(int(dpi / 0.0254))
    image.fill(QColor("#ffffff"))
    p = QPainter(image)
    p.setRenderHint(QPainter.RenderHint.Antialiasing)
    p.setFont(fonts.sans(7.5))
    label_w = int(width * 0.18)
    text_w = int(width * 0.12)
    plot_x, plot_w = label_w + text_w, width - label_w - 2 * text_w
    actual = [float(ln.actual_hold) for ln in lines if ln.actual_hold is not None]
    theo = [float(ln.theoretical.hold) for ln in lines if ln.theoretical is not None]
    top, bottom = max(theo + [0.0]) + 0.6, min(theo + [0.0]) - 0.6
    hi, lo = min(max(actual + theo + [0.05]), top), max(min(actual + theo + [0.0]), bottom)

    def x_of(v: float) -> float:
        return plot_x + (max(min(v, hi), lo) - lo) / (hi - lo) * plot_w

    row = (height - dpi * 0.3) / len(lines)
    zero = x_of(0.0)
    p.setPen(QPen(LIGHT, max(1, dpi // 150)))
    p.drawLine(int(zero), 0, int(zero), int(row * len(lines)))
    for i, ln in enumerate(lines):
        y = i * row
        p.setPen(INK)
        p.drawText(QRectF(0, y, label_w - 6, row), int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter),
                   LABELS.get(ln.wager, ln.wager))
        for k, (v, colour) in enumerate(((float(ln.actual_hold) if ln.actual_hold is not None else None, ACTUAL),
                                         (float(ln.theoretical.hold) if ln.theoretical else None, THEORY))):
            if v is None:
                continue
            bar_y, bar_h = y + row * (0.1 + 0.42 * k), row * 0.38
            x0, x1 = sorted((zero, x_of(v)))
            p.fillRect(QRectF(x0, bar_y, max(x1 - x0, 1), bar_h), colour)
            cut = x_of(v) != plot_x + (v - lo) / (hi - lo) * plot_w
            words = pct(v) + (" (bar cut)" if cut else "")
            p.setPen(colour.darker(130))
            if v >= 0 and p.fontMetrics().horizontalAdvance(words) > width - x1 - 6:
                # no room past the bar's end (a bar cut at the chart's edge): the words inside it, white
                p.setPen(QColor("#ffffff"))
                p.drawText(QRectF(x0, bar_y - row * 0.1, x1 - x0 - 4, bar_h + row * 0.2),
                           int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), words)
            elif v >= 0:
                p.drawText(QRectF(x1 + 4, bar_y - row * 0.1, text_w * 2, bar_h + row * 0.2),
                           int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), words)
            elif x0 - text_w * 2 - 4 >= label_w:
                p.drawText(QRectF(x0 - text_w * 2 - 4, bar_y - row * 0.1, text_w * 2, bar_h + row * 0.2),
                           int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter), words)
            else:   # no room left of the bar (a bar cut at the axis): the figure inside it, in white
                p.setPen(QColor("#ffffff"))
                p.drawText(QRectF(x0 + 4, bar_y - row * 0.1, text_w * 2, bar_h + row * 0.2),
                           int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter), words)
    # the key
    y = row * len(lines) + dpi * 0.08
    for k, (colour, words) in enumerate(((ACTUAL, "actual hold"),
                                         (THEORY, "theoretical hold (est.: an estimate, ± its 95% interval)"))):
        x = plot_x + k * plot_w * 0.3
        p.fillRect(QRectF(x, y + dpi * 0.03, dpi * 0.1, dpi * 0.1), colour)
        p.setPen(INK)
        p.drawText(QRectF(x + dpi * 0.14, y, plot_w, dpi * 0.16), int(Qt.AlignmentFlag.AlignVCenter), words)
    p.end()
    return image


# -- drawing the pages -------------------------------------------------------------------------------
LAYOUT_DPI = 96      # the document is laid out in these units whatever the device: the same lines and pages
IMAGE_DPI = 300      # a chart's own pixels: sharp on paper


def render(r: ShiftReport, device, tables: bool | tuple[str, ...] = True) -> int:
    """Draw the report on ``device`` (a QPdfWriter or QPrinter whose page layout is set): the pages
    of its document, a foot on each. The number of pages drawn."""
    return draw_parts(device, lambda width: [(build(r, width, IMAGE_DPI, tables), foot(r), page_marks(r))])


def draw_parts(device, make) -> int:
    """Draw documents one after another on ``device``: ``make(width)`` gives them, each as
    (document, its pages' foot, the words across its pages: ``page_marks``), laid out ``width`` layout units wide. Each
    begins on a new page; the pages are numbered through all of them. The documents are laid out
    in ``LAYOUT_DPI`` units and the painter scaled to the device, so a PDF, a printer of any
    resolution and the preview break the lines and the pages in the same places. The number of
    pages drawn."""
    dpi = device.resolution()
    scale = dpi / LAYOUT_DPI
    body = device.pageLayout().paintRectPixels(dpi)
    width, height = body.width() / scale, body.height() / scale
    foot_h = LAYOUT_DPI * FOOT_PT / 72 * 2.2
    page_h = height - foot_h
    parts = make(int(width))
    for doc, _, _ in parts:
        doc.setPageSize(QSizeF(width, page_h))
    pages = sum(doc.pageCount() for doc, _, _ in parts)
    painter = QPainter()
    if not painter.begin(device):
        raise OSError("the report could not be drawn: the printer or the file did not open")
    try:
        painter.scale(scale, scale)
        # the painter is scaled to layout units: its own fonts are sized in them (points would be
        # taken at the device's resolution and scaled again)
        f = fonts.sans(FOOT_PT)
        f.setPixelSize(round(FOOT_PT * LAYOUT_DPI / 72))
        k = 0
        for doc, words_at_foot, marks in parts:
            for n in range(doc.pageCount()):
                if k:
                    device.newPage()
                painter.save()
                painter.translate(0, -n * page_h)
                doc.drawContents(painter, QRectF(0, n * page_h, width, page_h))
                painter.restore()
                k += 1
                _foot(painter, f, words_at_foot, f"page {k} of {pages}", width, page_h, foot_h)
                for i, mark in enumerate(marks):
                    _page_mark(painter, width, page_h, mark, i - (len(marks) - 1) / 2)
    finally:
        painter.end()
    return pages


def _foot(painter: QPainter, f: QFont, words_at_foot: str, page: str, width: float, page_h: float,
          foot_h: float) -> None:
    painter.setFont(f)
    painter.setPen(GREY)
    painter.drawLine(QPointF(0, page_h + foot_h / 4), QPointF(width, page_h + foot_h / 4))
    fm = painter.fontMetrics()
    # the foot's words never run under the page number: the chain head's hash is cut first
    left = fm.elidedText(words_at_foot, Qt.TextElideMode.ElideRight, int(width - fm.horizontalAdvance(page) - 12))
    painter.drawText(QRectF(0, page_h + foot_h / 3, width, foot_h),
                     int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop), left)
    painter.drawText(QRectF(0, page_h + foot_h / 3, width, foot_h),
                     int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop), page)


def _page_mark(painter: QPainter, width: float, page_h: float, mark: str, offset: float = 0) -> None:
    """``mark`` (COPY, NOT VERIFIED) across a page; ``offset``: in marks' heights from the middle,
    when there are two."""
    painter.save()
    painter.translate(width / 2, page_h / 2 + offset * 2.2 * LAYOUT_DPI)
    painter.rotate(-35)
    size = 110 if len(mark) <= 5 else 64     # NOT VERIFIED fits the page's width
    big = fonts.sans(size, bold=True)
    big.setPixelSize(round(size * LAYOUT_DPI / 72))
    painter.setFont(big)
    c = QColor("#a00000")
    c.setAlpha(60)
    painter.setPen(c)
    w = width * 1.2
    painter.drawText(QRectF(-w / 2, -LAYOUT_DPI, w, 2 * LAYOUT_DPI), int(Qt.AlignmentFlag.AlignCenter), mark)
    painter.restore()


def pdf_bytes(r: ShiftReport, paper: str = "letter", dpi: int = 300, tables: bool = True) -> tuple[bytes, int]:
    """The report as the bytes of a PDF, drawn in memory (nothing on disk yet); (bytes, pages)."""
    return pdf_of(title(r) + "".join(f" ({m})" for m in page_marks(r)), lambda writer: render(r, writer, tables),
                  paper, dpi)


def pdf_of(name: str, draw, paper: str = "letter", dpi: int = 300) -> tuple[bytes, int]:
    """A PDF titled ``name`` that ``draw(writer)`` draws (the pages it returns), in memory."""
    buf = QBuffer()
    buf.open(QIODevice.OpenModeFlag.WriteOnly)
    writer = QPdfWriter(buf)
    writer.setResolution(dpi)
    writer.setPageLayout(page_layout(paper))
    writer.setTitle(name)
    writer.setCreator("pitdesk")
    try:
        pages = draw(writer)
    finally:
        del writer   # the PDF is complete once the writer is gone
    data = bytes(buf.data())
    buf.close()
    return data, pages


def write_pdf(r: ShiftReport, path: Path | str, paper: str = "letter", dpi: int = 300,
              tables: bool = True) -> tuple[Path, int]:
    """The report as a PDF at ``path``, drawn in memory, then written beside, fsynced and moved into
    place whole (app/reports/whole_file.py); (path, pages). OSError, with nothing left, if not."""
    data, pages = pdf_bytes(r, paper, dpi, tables)
    return write_whole(path, data), pages


def print_report(r: ShiftReport, printer, paper: str = "letter", tables: bool | tuple[str, ...] = True) -> int:
    """The report on ``printer`` (a QPrinter), the same pages as the PDF (``tables``: as ``build``)."""
    printer.setPageLayout(page_layout(paper))
    printer.setDocName(title(r) + (" (COPY)" if r.copy else ""))
    return render(r, printer, tables)


__all__ = ["render", "draw_parts", "pdf_bytes", "pdf_of", "write_pdf", "print_report", "page_layout", "build", "hold_chart", "PAPERS", "foot", "title",
           "page_marks"]
