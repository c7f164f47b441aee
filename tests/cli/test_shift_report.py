"""The shift report (issue 16): a simulated swing shift (``pitdesk simulate shift``) reported as
JSON, as a PDF and through QPrinter; its figures checked against sums the test makes straight
from the logged events (never through app/store); the PDF's text (pdftotext) against the JSON;
the report numbered and logged, a reprint saying COPY; the chain head printed equal to ``pitdesk
audit verify``'s, and a rewritten history making verify fail and the reprinted head differ; bad
input exits 2 naming the fault with nothing logged; the Reports view in the real window."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter, defaultdict
from datetime import date, datetime
from pathlib import Path

import pytest

from app.store import chain
from tests.support.shift_report import DAY, SHIFT, events, money, pdf_text, pitdesk


def report_json(db: Path) -> dict:
    p = pitdesk("report", "shift", "--db", str(db), "--date", DAY, "--shift", SHIFT, "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


# -- the figures against the log itself --------------------------------------------------------------
def test_the_figures_are_sums_of_the_logged_events(shift):
    out = report_json(shift)
    evs = events(shift)
    denied = {e["seq"] for e in evs if e["type"] == "approval_decided" and e["data"].get("decision") == "denied"}
    settled = []
    for e in evs:
        if e["type"] == "settlement":
            n = len(e["data"]["settlement"]["approvals"])
            mine = {r for r in range(e["seq"] + 1, e["seq"] + n + 1)}
            requests = {x["data"].get("request") for x in evs if x["seq"] in denied}
            if not mine & requests:
                settled.append(e)
    assert out["pit"]["rounds"] == len(settled) == sum(t["rounds"] for t in out["tables"])
    by_table = Counter(e["table"] for e in settled)
    house = defaultdict(int)
    banking = defaultdict(lambda: [0, 0])
    for e in settled:
        s = e["data"]["settlement"]
        house[e["table"]] += s["net_by_party"].get("house", 0)
        banking[s["banking"]][0] += 1
        banking[s["banking"]][1] += s["net_by_party"].get("house", 0)
    for t in out["tables"]:
        assert t["rounds"] == by_table[t["table"]]
        assert t["total"]["house_net"] == house[t["table"]]
        assert sum(w["house_net"] for w in t["wagers"].values()) == t["total"]["house_net"]
    assert {b: [v["rounds"], v["house_net"]] for b, v in out["pit"]["banking"].items()} == \
        {b: v for b, v in banking.items()}
    # the pit is the sum of its tables, in integer cents
    for k in ("wagered", "house_net"):
        assert out["pit"]["total"][k] == sum(t["total"][k] for t in out["tables"])
        assert isinstance(out["pit"]["total"][k], int)
    for w, line in out["pit"]["wagers"].items():
        assert line["wagered"] == sum(t["wagers"].get(w, {}).get("wagered", 0) for t in out["tables"])
    # the lists: counted from the events of the shift
    kinds = Counter(e["type"] for e in evs)
    assert out["pit"]["slips"] == kinds["slip_issued"] == sum(len(t["slips"]) for t in out["tables"])
    assert out["pit"]["void_slips"] == kinds["slip_voided"]
    assert out["pit"]["approvals"] == kinds["approval_requested"]
    assert out["pit"]["alarms"] == kinds["alarm_raised"]
    slips = [s["number"] for t in out["tables"] for s in t["slips"]]
    for t in out["tables"]:
        assert [s["number"] for s in t["slips"]] == sorted(s["number"] for s in t["slips"])
    assert sorted(slips) == sorted(e["data"]["number"] for e in evs if e["type"] == "slip_issued")
    # every deck received in the shift is listed, changed in it or in use at its end (a deck also
    # leaves the table by an irregularity: at least the decks removed were changed)
    decks = [d for t in out["tables"] for d in t["decks"]]
    assert len(decks) == kinds["deck_received"]
    assert sum(1 for d in decks if d["changed"]) >= kinds["deck_removed"]
    for d in decks:
        assert d["late"] == (d["changed"] > d["due"] if d["changed"] else d["due"] < out["to"])
    assert len([d for t in out["tables"] for d in t["dice"]]) == kinds["dice_placed"]
    void_rounds = sum(1 for e in evs if e["type"] == "round_voided")
    assert out["pit"]["void_rounds"] == void_rounds or void_rounds == 0
    # the chain head: the last event of the shift (here, of the log)
    assert out["chain_head"] == {"seq": evs[-1]["seq"], "hash": sqlite3.connect(shift).execute(
        "SELECT hash FROM events ORDER BY seq DESC LIMIT 1").fetchone()[0]}
    assert out["number"] is None and out["events"] == len(evs)


# -- the PDF and its number ------------------------------------------------------------------------
def test_the_pdf_says_what_the_json_says_and_a_reprint_says_copy(shift, tmp_path):
    out = report_json(shift)
    p = pitdesk("report", "shift", "--db", str(shift), "--date", DAY, "--shift", SHIFT, "--out",
                str(tmp_path / "r.pdf"), "--paper", "a4")
    assert p.returncode == 0, p.stderr
    issued = json.loads(p.stdout)
    assert issued["number"] == 1 and issued["copy"] is False and issued["pages"] >= 4
    text = pdf_text(tmp_path / "r.pdf")
    flat = " ".join(text.split())
    assert f"Shift report — swing {DAY} (16:00–24:00)" in flat
    assert "pitdesk shift report No. 1" in flat and "COPY" not in flat
    head = f"{out['chain_head']['seq']}:{out['chain_head']['hash']}"
    assert head in flat
    assert f"page 1 of {issued['pages']}" in flat
    # the pit's figures and each table's
    assert money(out["pit"]["total"]["wagered"]) in flat and money(out["pit"]["total"]["house_net"]) in flat
    for t in out["tables"]:
        assert f"Table {t['table']}" in flat
        assert f"Rounds played {t['rounds']:,}" in flat
        assert money(t["total"]["wagered"]) in flat and money(t["total"]["house_net"]) in flat
        for w in t["wagers"].values():
            assert money(w["wagered"]) in flat and money(w["house_net"]) in flat
        for s in t["slips"]:
            assert f"{s['number']:06d}" in flat
    # the report is logged with its number; the same report printed again is a COPY of No. 1, numbered next
    p = pitdesk("report", "shift", "--db", str(shift), "--date", DAY, "--shift", SHIFT, "--out",
                str(tmp_path / "again.pdf"))
    assert p.returncode == 0, p.stderr
    again = json.loads(p.stdout)
    assert again["number"] == 2 and again["copy"] is True and again["copy_of"] == 1
    flat2 = " ".join(pdf_text(tmp_path / "again.pdf").split())
    assert "COPY — a reprint of report No. 1" in flat2 and "COPY of No. 1 · pitdesk shift report No. 2" in flat2
    logged = [e for e in events(shift) if e["type"] == "report_printed"]
    assert [(e["data"]["number"], e["data"]["copy_of"], e["data"]["head"]) for e in logged] == \
        [(1, None, head), (2, 1, head)]
    assert logged[0]["data"]["digest"] == logged[1]["data"]["digest"]


def _logged_in_the_shift(db: Path, when: datetime) -> None:
    """A supervisor signs in at the shift's workstation at ``when``, inside the shift: one event
    more in the shift, and a new chain head at its end."""
    from app.simulate.shift import SIM_PIN
    from app.workstation.config import TableSetup, WorkstationConfig
    from app.workstation.workstation import Workstation
    configured = {e["table"]: e["data"]["profile"] for e in events(db) if e["type"] == "table_configured"}
    config = WorkstationConfig(tuple(TableSetup(t, p) for t, p in sorted(configured.items())), source="the test")
    ws = Workstation(config, db, clock=lambda: when)
    try:
        ws.people.sign_in("floor-1", SIM_PIN)
    finally:
        ws.close()


def test_a_report_that_says_more_than_the_last_is_an_original_and_only_the_same_again_a_copy(shift, tmp_path):
    """Issue 33 (3b): COPY is decided by what a report says (the digest of its figures, rows and
    chain head, logged with each printed report), not by its shift having been printed before."""
    def issue(name: str) -> tuple[dict, str]:
        p = pitdesk("report", "shift", "--db", str(shift), "--date", DAY, "--shift", SHIFT, "--out",
                    str(tmp_path / name))
        assert p.returncode == 0, p.stderr
        return json.loads(p.stdout), " ".join(pdf_text(tmp_path / name).split())

    first, text1 = issue("1.pdf")
    assert (first["number"], first["copy"], first["copy_of"]) == (1, False, None) and "COPY" not in text1
    before = report_json(shift)
    _logged_in_the_shift(shift, datetime(2026, 11, 21, 23, 59, 30))
    after = report_json(shift)
    assert after["events"] == before["events"] + 1 and after["chain_head"] != before["chain_head"]
    second, text2 = issue("2.pdf")          # its shift printed before, but it says more: an original
    assert (second["number"], second["copy"], second["copy_of"]) == (2, False, None)
    assert "COPY" not in text2 and "pitdesk shift report No. 2" in text2
    assert second["chain_head"] == f"{after['chain_head']['seq']}:{after['chain_head']['hash']}"
    third, text3 = issue("3.pdf")           # the same as No. 2: a COPY of it, numbered next
    assert (third["number"], third["copy"], third["copy_of"]) == (3, True, 2)
    assert "COPY — a reprint of report No. 2" in text3 and "COPY of No. 2 · pitdesk shift report No. 3" in text3
    logged = [e["data"] for e in events(shift) if e["type"] == "report_printed"]
    assert [(d["number"], d["copy"], d["copy_of"]) for d in logged] == [(1, False, None), (2, False, None), (3, True, 2)]
    assert logged[0]["digest"] != logged[1]["digest"] == logged[2]["digest"]


def test_qprinter_prints_the_same_pages_as_the_pdf(shift, tmp_path, qapp):
    from app.reports.shift_report import print_report, write_pdf
    from app.qt import QPrinter
    from app.workstation.shift_figures import read_shift_report
    r = read_shift_report(shift, date.fromisoformat(DAY), SHIFT)
    r.number = 5
    _, pages = write_pdf(r, tmp_path / "out.pdf", "letter")
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "printed.pdf"))
    assert print_report(r, printer, "letter") == pages
    assert pdf_text(tmp_path / "printed.pdf").split() == pdf_text(tmp_path / "out.pdf").split()


# -- the chain head against audit verify ------------------------------------------------------------
def test_the_head_printed_is_audit_verifys_and_a_rewritten_history_shows(shift, tmp_path):
    v = pitdesk("audit", "verify", "--db", str(shift))
    assert v.returncode == 0, v.stdout + v.stderr
    verified = json.loads(v.stdout)["head"]
    out = report_json(shift)
    assert out["chain_head"] == verified
    head = f"{verified['seq']}:{verified['hash']}"
    # printed (logged), the log goes on from the head printed: verify with it still passes
    p = pitdesk("report", "shift", "--db", str(shift), "--date", DAY, "--shift", SHIFT, "--out", str(tmp_path / "a.pdf"))
    assert p.returncode == 0 and json.loads(p.stdout)["chain_head"] == head
    assert pitdesk("audit", "verify", "--db", str(shift), "--head", head).returncode == 0
    # someone edits one settlement of the shift and rewrites the chain after it
    conn = sqlite3.connect(shift)
    conn.execute("DROP TRIGGER events_no_update")
    rows = conn.execute("SELECT seq, body, prev_hash FROM events ORDER BY seq").fetchall()
    target = next(seq for seq, body, _ in rows if json.loads(body)["type"] == "settlement")
    prev = None
    for seq, body, prev_hash in rows:
        if seq < target:
            continue
        b = json.loads(body)
        if seq == target:
            b["data"]["settlement"]["net_by_party"]["house"] += 100
        text = chain.body(b["seq"], b["time"], b["table"], b["type"], b["actor"], b["role"], b["data"])
        prev = prev_hash if prev is None else prev
        h = chain.link(prev, text)
        conn.execute("UPDATE events SET body = ?, prev_hash = ?, hash = ? WHERE seq = ?", (text, prev, h, seq))
        prev = h
    conn.commit()
    conn.close()
    bad = pitdesk("audit", "verify", "--db", str(shift))
    assert bad.returncode == 1, bad.stdout
    assert json.loads(bad.stdout)["first_bad"]["seq"] == target
    # the report is not made from it (issue 35, finding 1): the row and the kind are named
    refused = pitdesk("report", "shift", "--db", str(shift), "--date", DAY, "--shift", SHIFT, "--json")
    assert refused.returncode == 1 and refused.stdout == ""
    assert f"row {target}: forged" in refused.stderr, refused.stderr
    # asked for anyway, it says so, and its head is not the one printed before
    p = pitdesk("report", "shift", "--db", str(shift), "--date", DAY, "--shift", SHIFT, "--json", "--unverified")
    assert p.returncode == 0, p.stderr
    again = json.loads(p.stdout)
    assert again["verified"]["ok"] is False and again["verified"]["finding"]["seq"] == target
    assert f"{again['chain_head']['seq']}:{again['chain_head']['hash']}" != head


# -- bad input -------------------------------------------------------------------------------------
@pytest.mark.parametrize("args, words", [
    (("--date", DAY, "--shift", "night", "--json"), ["unknown shift 'night'", "grave, day, swing"]),
    (("--date", "2026-11-25", "--shift", "day", "--out", "{tmp}/x.pdf"),
     ["no events in the day 2026-11-25 shift (08:00–16:00)"]),
    (("--date", "21/11/2026", "--shift", SHIFT, "--json"), ["--date '21/11/2026' is not a date"]),
    (("--date", DAY, "--shift", SHIFT, "--print", "no-such-printer"), ["--print: no printer named 'no-such-printer'"]),
])
def test_bad_input_exits_2_naming_the_fault_and_logs_nothing(shift, tmp_path, args, words):
    before = len(events(shift))
    p = pitdesk("report", "shift", "--db", str(shift), *[a.replace("{tmp}", str(tmp_path)) for a in args])
    assert p.returncode == 2, p.stdout + p.stderr
    for w in words:
        assert w in p.stderr
    assert p.stdout == ""
    assert len(events(shift)) == before


def test_a_missing_database_is_named_and_not_made(tmp_path):
    p = pitdesk("report", "shift", "--db", str(tmp_path / "none.db"), "--date", DAY, "--shift", SHIFT, "--out",
                str(tmp_path / "r.pdf"))
    assert p.returncode == 2 and "no audit database at" in p.stderr
    assert not (tmp_path / "none.db").exists() and not (tmp_path / "r.pdf").exists()


def test_a_configurations_shifts_name_the_report(shift, tmp_path):
    cfg = tmp_path / "c.toml"
    cfg.write_text('[[tables]]\nid = "T1"\nprofile = "casino"\n[[shifts]]\nname = "early"\nstart = "06:00"\n'
                   '[[shifts]]\nname = "late"\nstart = "18:00"\n')
    p = pitdesk("report", "shift", "--db", str(shift), "--config", str(cfg), "--date", DAY, "--shift", "early",
                "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert (out["from"], out["to"]) == (f"{DAY}T06:00:00", f"{DAY}T18:00:00")
    p = pitdesk("report", "shift", "--db", str(shift), "--config", str(cfg), "--date", DAY, "--shift", SHIFT, "--json")
    assert p.returncode == 2 and "unknown shift 'swing'; the shifts are early, late" in p.stderr


def test_a_report_printed_as_a_user_says_who(shift, tmp_path):
    p = pitdesk("report", "shift", "--db", str(shift), "--date", DAY, "--shift", SHIFT, "--out", str(tmp_path / "r.pdf"),
                "--as", "floor-1", stdin="2468\n")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["printed_by"] == "floor-1"
    e = [e for e in events(shift) if e["type"] == "report_printed"][-1]
    assert (e["actor"], e["role"]) == ("floor-1", "floor supervisor")
    bad = pitdesk("report", "shift", "--db", str(shift), "--date", DAY, "--shift", SHIFT, "--out",
                  str(tmp_path / "s.pdf"), "--as", "floor-1", stdin="1111\n")
    assert bad.returncode == 2 and "--as floor-1" in bad.stderr and not (tmp_path / "s.pdf").exists()
    assert len([e for e in events(shift) if e["type"] == "report_printed"]) == 1


def test_nothing_logged_in_the_shift_is_left_out_of_the_pit(shift, tmp_path):
    """A table taken off the floor (not in the configuration) and a row of no table (a pit-wide
    alarm) still have their sections, so the pit's sums hold every row of the shift."""
    from app.store.log import AuditLog
    with AuditLog(shift) as log:
        log.append("alarm_raised", datetime(2026, 11, 21, 23, 0), "workstation", "system", None,
                   {"kind": "link_lost", "message": "the pit's network switch stopped answering"})
    cfg = tmp_path / "c.toml"
    cfg.write_text('[[tables]]\nid = "T2"\nprofile = "nj"\n')
    p = pitdesk("report", "shift", "--db", str(shift), "--config", str(cfg), "--date", DAY, "--shift", SHIFT, "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    names = [t["table"] for t in out["tables"]]
    assert names[0] == "T2" and set(names) == {"T1", "T2", "T3", "(no table)"}
    kinds = Counter(e["type"] for e in events(shift))
    assert out["pit"]["alarms"] == kinds["alarm_raised"] == sum(len(t["alarms"]) for t in out["tables"])
    assert [a["message"] for a in out["tables"][names.index("(no table)")]["alarms"]] == \
        ["the pit's network switch stopped answering"]
    assert out["pit"]["rounds"] == sum(1 for e in events(shift) if e["type"] == "settlement")


@pytest.mark.parametrize("paper", ["letter", "a4"])
def test_every_table_of_the_report_fits_the_page_with_figures_into_the_millions(shift, qapp, paper):
    """Issue 27, item 3: the Theoretical column was cut at the page's edge; figures are never cut."""
    from app.qt import QSizeF
    from app.reports.shift_report import LAYOUT_DPI, build, page_layout
    from app.workstation.shift_figures import read_shift_report
    r = read_shift_report(shift, date.fromisoformat(DAY), SHIFT)
    big = ("wagered", "house_won", "house_lost", "commission", "collection_fees", "to_meter")
    for line in r.pit_lines + [ln for t in r.tables for ln in t.lines]:
        for k in big:     # -$12,345,678.90 is the widest a pit's figure gets
            setattr(line, k, -1_234_567_890 if k == "house_lost" else getattr(line, k) + 1_234_567_890)
    for t in [r, *r.tables]:
        total = r.pit_total if t is r else t.total
        total.wagered += 1_234_567_890
        total.house_net -= 2_469_135_780
    body = page_layout(paper).paintRectPixels(LAYOUT_DPI)
    doc = build(r, body.width(), dpi=LAYOUT_DPI)
    doc.setPageSize(QSizeF(body.width(), body.height()))
    assert "$12,345,678.90" in doc.toPlainText()
    # a table of the page's full width is one unit wider than it (its border): within the margin
    assert doc.idealWidth() <= body.width() + 1.5, f"{paper}: the widest line is {doc.idealWidth():.0f} of " \
                                                  f"{body.width()} units"


def test_a_report_of_a_shift_still_running_says_interim_on_every_page(shift, qapp, tmp_path):
    """Issue 27, item 8: a report made before its shift's end is the shift so far, and says so."""
    from app.reports.shift_report import pdf_bytes
    from app.workstation.shift_figures import as_json, read_shift_report
    done = read_shift_report(shift, date.fromisoformat(DAY), SHIFT)
    assert done.interim is False and as_json(done)["interim"] is False
    made = done.shift.start.replace(hour=21, minute=30)
    r = read_shift_report(shift, date.fromisoformat(DAY), SHIFT, made=made)
    assert r.interim is True and as_json(r)["interim"] is True
    data, pages = pdf_bytes(r, dpi=72)
    (tmp_path / "interim.pdf").write_bytes(data)
    text = pdf_text(tmp_path / "interim.pdf")
    per_page = text.split("\f")[:pages]
    assert len(per_page) == pages >= 2
    assert all("INTERIM to 21:30" in " ".join(p.split()) for p in per_page)
    assert "INTERIM — the shift is still running: its figures to 21:30, not its end (00:00)" in " ".join(text.split())
    assert "INTERIM" not in pdf_text_of(done, tmp_path)


def pdf_text_of(r, tmp_path) -> str:
    from app.reports.shift_report import pdf_bytes
    (tmp_path / "done.pdf").write_bytes(pdf_bytes(r, dpi=72)[0])
    return pdf_text(tmp_path / "done.pdf")
