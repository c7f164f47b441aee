"""The pit's money on the shift report (issue 34, docs/inventory.md): a table's shift opened,
settled, filled, credited, closed and dropped, reported by ``pitdesk report shift --json`` with
the figures the store's ShiftMoney has and the casino's win formula; a table never opened reported
with zeros and nothing counted; the fill and credit slips listed with a void and its reason; the
money part of the report's digest (a COPY says the same money); the PDF's section in words."""

import json
import subprocess
from dataclasses import replace
from datetime import date

import pytest

from app.engine.inventory import ShiftMoney, win_over_drop
from app.store import trays
from app.workstation.shift_figures import as_json, content_digest, read_shift_report
from tests.support.shift_report import pitdesk
from tests.support.workstation import CASHIER, COUNT_1, COUNT_2, DEALER, FLOOR, SECURITY, open_ws
from tests.support.money import approved, opened, settle_example

DAY = date(2026, 11, 21)       # the workstation's clock: 14:00, the day shift


def play_money(ws, short: int = 10_000) -> ShiftMoney:
    """section6's shift played through its money at ``ws``: opened, a round settled, a buy-in,
    a fill and a credit signed at both ends, a fill voided, closed ``short`` cents short of the
    tray expected, dropped; its money as the store says."""
    opened(ws)
    settle_example(ws)
    ws.inventory.buy_in("section6", 50_000, seat=2, player="P. Chan")
    fill = approved(ws, "fill", "20 x $25", "the $25s run low")
    ws.people.sign_in(*CASHIER)
    ws.inventory.sign("fill", fill, "cage", signers=[SECURITY])
    ws.people.sign_in(*DEALER)
    ws.inventory.sign("fill", fill, "table", signers=[FLOOR])
    credit = approved(ws, "credit", "10 x $100", "the tray holds too much")
    ws.people.sign_in(*DEALER)
    ws.inventory.sign("credit", credit, "table", signers=[FLOOR])
    ws.people.sign_in(*CASHIER)
    ws.inventory.sign("credit", credit, "cage", signers=[SECURITY])
    ws.people.sign_in(*DEALER)
    ws.inventory.request("section6", "fill", "4 x $100", "the $100s run low")
    ws.people.sign_in(*FLOOR)
    ws.inventory.void("fill", fill + 1, "asked twice")
    opener = trays.open_shift(ws.log, "section6")
    expected = trays.shift_money(ws.log, opener).expected
    ws.people.sign_in(*DEALER)
    # the closer short of the tray expected: a difference to reconcile
    ws.inventory.close_tray("section6", counted(ws.config.chips.denominations, expected - short), signer=FLOOR)
    ws.people.sign_in(*COUNT_1)
    ws.inventory.drop("section6", "5 x $100", signers=[COUNT_2])
    return trays.shift_money(ws.log, opener)


@pytest.fixture(scope="module")
def shift(tmp_path_factory):
    """One table's shift played through its money (the workstation closed after), and what the
    store says its money is."""
    from tests.support.workstation import Clock
    tmp = tmp_path_factory.mktemp("money")
    mp = pytest.MonkeyPatch()
    ws = open_ws(tmp, mp, Clock())
    try:
        money = play_money(ws)
    finally:
        ws.close()
        mp.undo()
    yield tmp / "pit.db", money


def counted(denominations, cents: int) -> dict[int, int]:
    """``cents`` as the fewest chips, largest first."""
    out = {}
    for d in sorted(denominations, reverse=True):
        out[d], cents = divmod(cents, d)
    assert cents == 0
    return out


def report_json(db) -> dict:
    p = pitdesk("report", "shift", "--db", str(db), "--date", f"{DAY}", "--shift", "day", "--json")
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_the_json_states_each_tables_money_and_the_pits_sum(shift):
    db, money = shift
    out = report_json(db)
    (t,) = [x for x in out["tables"] if x["table"] == "section6"]
    m = t["money"]
    assert money.closer is not None and money.drop == 50_000
    assert m == {**money.as_json(), "shifts": 1}
    assert (m["opener"], m["fills"], m["credits"], m["drop"]) == (360_000, 50_000, 100_000, 50_000)
    assert m["win"] == m["drop"] + m["closer"] + m["credits"] - m["opener"] - m["fills"]
    assert m["difference"] == m["win"] - m["rounds_house_net"] - m["to_meter"] == -10_000
    assert m["tray_difference"] == -10_000 and m["drop_difference"] == 0
    # a table never opened in the shift: zeros, nothing counted, adding nothing to the pit
    quiet = [x["money"] for x in out["tables"] if x["table"] != "section6"]
    assert quiet and all(q["shifts"] == 0 and q["opener"] == 0 and q["fills"] == 0 and q["closer"] is None
                         and q["drop"] is None and q["win"] is None and q["difference"] is None for q in quiet)
    assert out["pit"]["money"] == m
    for k in ("opener", "fills", "credits", "closer", "drop", "win", "rounds_house_net", "difference"):
        assert isinstance(out["pit"]["money"][k], int)


def test_the_slips_are_listed_with_the_void_and_its_reason(shift):
    db, _ = shift
    out = report_json(db)
    (t,) = [x for x in out["tables"] if x["table"] == "section6"]
    listed = [(s["kind"], s["number"], s["cents"], s["status"]) for s in t["tray_slips"]]
    assert listed == [("fill", 1, 50_000, "complete"), ("fill", 2, 40_000, "VOID"), ("credit", 1, 100_000, "complete")]
    (void,) = [s for s in t["tray_slips"] if s["status"] == "VOID"]
    assert void["void_reason"] == "asked twice" and void["count"] == {"10000": 4}
    fill = t["tray_slips"][0]
    assert fill["cage_signers"] == [["demo-cashier", "cashier"], ["demo-security", "security"]]
    assert [n for n, _ in fill["table_signers"]] == ["demo-dealer", "demo-floor"]
    assert out["pit"]["tray_slips"] == 3 and out["pit"]["void_tray_slips"] == 1
    assert out["pit"]["unused_numbers"] == {"fill": [], "credit": []}


def test_the_money_is_part_of_what_the_report_says(shift, qapp):
    """A report whose money differs in one cent has another digest: it is never a COPY of one
    printed before."""
    db, _ = shift
    r = read_shift_report(db, DAY, "day")
    before = content_digest(r)
    t = r.section("section6")
    t.money = replace(t.money, drop=t.money.drop + 1)
    assert content_digest(r) != before


def test_the_pdf_states_the_money_and_reconciles_it_in_words(shift, qapp, tmp_path):
    from app.reports.shift_report import write_pdf
    from tests.support.shift_report import pdf_text
    db, money = shift
    r = read_shift_report(db, DAY, "day")
    path, _ = write_pdf(r, tmp_path / "r.pdf", dpi=100)
    text = " ".join(pdf_text(path).split())
    assert "The pit's money" in text
    assert "$3,600.00" in text and win_over_drop(money.win, money.drop) in text
    assert "table section6" in text and "the tray short $100.00" in text
    assert "Fill and credit slips" in text and "asked twice" in text
    assert "none: the numbers run unbroken" in text
    assert "demo-cashier" in text and "(security)" in text and "(cashier)" in text


def page_text(path, page: int) -> str:
    p = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-layout", str(path), "-"],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return " ".join(p.stdout.split())


def slip_row(db, kind, number) -> dict:
    import sqlite3
    conn = sqlite3.connect(db)
    try:
        return trays.slip(conn, kind, number)
    finally:
        conn.close()


def test_a_slip_on_paper_two_copies_with_who_signed(shift, qapp, tmp_path):
    from app.reports.tray_slip import write_slip_pdf
    db, _ = shift
    path = write_slip_pdf(slip_row(db, "fill", 1), tmp_path / "fill.pdf", casino="Demo Casino",
                          rule="000 has no paragraph on this: the house's procedure")
    subprocess.run(["pdftoppm", "-png", "-r", "40", str(path), str(tmp_path / "fill")], check=True, timeout=120)
    assert sorted(p.name for p in tmp_path.glob("fill-*.png")) == ["fill-1.png", "fill-2.png"]
    for page, copy in ((1, "ORIGINAL — for the drop box"), (2, "DUPLICATE — for the cage")):
        text = page_text(path, page)
        assert copy in text and "FILL SLIP" in text and "No. 000001" in text and "Demo Casino" in text
        assert "section6" in text and "2026-11-21 14:00:00" in text and "the $25s run low" in text
        assert "$25.00 × 20 $500.00" in text and "Total $500.00" in text
        # the cage signs a fill first, then the table; each line named with who signed it
        assert text.index("At the cage: Cashier demo-cashier (cashier)") < \
            text.index("At the cage: Security demo-security (security)") < \
            text.index("At the table: Dealer demo-dealer (dealer)") < \
            text.index("At the table: Floor supervisor demo-floor (floor supervisor)")
        assert "VOID" not in text
    assert "ORIGINAL" not in page_text(path, 2)


def test_a_void_slip_says_void_and_why_and_signs_nothing(shift, qapp, tmp_path):
    from app.reports.tray_slip import write_slip_pdf
    db, _ = shift
    path = write_slip_pdf(slip_row(db, "fill", 2), tmp_path / "void.pdf")
    for page in (1, 2):
        text = page_text(path, page)
        assert "VOID" in text and "by demo-floor: asked twice" in text and "$100.00 × 4 $400.00" in text
        assert "demo-cashier" not in text and "demo-dealer (dealer)" not in text


def test_a_credit_is_signed_at_the_table_first(shift, qapp, tmp_path):
    from app.reports.tray_slip import signature_lines, write_slip_pdf
    db, _ = shift
    row = slip_row(db, "credit", 1)
    assert [(end, who) for end, who, _ in signature_lines(row)] == [
        ("At the table", "Dealer"), ("At the table", "Floor supervisor"), ("At the cage", "Cashier"),
        ("At the cage", "Security")]
    text = page_text(write_slip_pdf(row, tmp_path / "credit.pdf"), 1)
    assert "CREDIT SLIP" in text and "Total $1,000.00" in text and "the tray holds too much" in text
    with pytest.raises(ValueError, match="a fill or credit slip, got kind 'payout'"):
        write_slip_pdf({**row, "kind": "payout"}, tmp_path / "x.pdf")
    assert not (tmp_path / "x.pdf").exists()


def test_a_number_missing_between_the_shifts_slips_is_named(shift, qapp, tmp_path):
    """A slip the report cannot account for (here: the void fill left out of what it read) is a
    number unused between the first and the last, named on paper and in the JSON."""
    from app.reports.shift_report import write_pdf
    from tests.support.shift_report import pdf_text
    db, _ = shift
    r = read_shift_report(db, DAY, "day")
    t = r.section("section6")
    t.tray_slips = [s for s in t.tray_slips if not (s["kind"] == "fill" and s["number"] == 2)] + \
        [{**t.tray_slips[0], "number": 3}]
    assert as_json(r)["pit"]["unused_numbers"] == {"fill": [2], "credit": []}
    path, _ = write_pdf(r, tmp_path / "r.pdf", dpi=100)
    text = " ".join(pdf_text(path).split())
    assert "Numbers unused between the shift's first and last slip: fills 000002" in text
    assert "none: the numbers run unbroken" not in text
