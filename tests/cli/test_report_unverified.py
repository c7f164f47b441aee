"""Nothing printed from a record that fails its check (issue 35, finding 1): a figure changed in a
read model (``UPDATE hold_house SET won = won + 5000000``) leaves the chain whole, so only
deriving the read models again finds it. ``pitdesk hold`` and ``pitdesk report shift`` check the
log first and refuse (exit 1 naming the row, the kind, the table and both values), print nothing
and log nothing; ``--unverified`` gives the report with NOT VERIFIED across every page and logs
it so. Real ``pitdesk`` processes on a copy of a simulated shift's log (tests/conftest.py
``shift``), the PDF read page by page with pdftotext."""

from __future__ import annotations

import json
import sqlite3

from tests.support.money import pdf_pages
from tests.support.shift_report import DAY, SHIFT, events, pitdesk

REPORT = ("report", "shift", "--date", DAY, "--shift", SHIFT)


def edit_a_figure(db) -> tuple[int, str]:
    """Five hundred thousand dollars more won by the house on one settlement's line, in the read
    model only (the chain untouched): the row and the wager edited."""
    conn = sqlite3.connect(db)
    with conn:
        seq, wager = conn.execute("SELECT seq, wager FROM hold_house ORDER BY seq DESC LIMIT 1").fetchone()
        conn.execute("UPDATE hold_house SET won = won + 5000000 WHERE seq = ? AND wager = ?", (seq, wager))
    conn.close()
    return seq, wager


def printed(db) -> list[dict]:
    return [e for e in events(db) if e["type"] in ("report_printed", "report_failed")]


def test_a_log_that_passes_gives_its_figures_saying_so(shift):
    p = pitdesk("hold", "--db", str(shift), "--json")
    assert p.returncode == 0, p.stderr
    v = json.loads(p.stdout)["verified"]
    assert v["ok"] is True and v["finding"] is None and v["seals"] == "checked"
    assert v["through"] == max(e["seq"] for e in events(shift))
    p = pitdesk(*REPORT, "--db", str(shift), "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["verified"]["ok"] is True


def test_an_edited_figure_is_refused_naming_the_row_and_kind_and_nothing_is_printed_or_logged(shift, tmp_path):
    seq, wager = edit_a_figure(shift)
    before = printed(shift)
    for args in (("hold", "--db", str(shift), "--json"), ("hold", "--db", str(shift)),
                 (*REPORT, "--db", str(shift), "--json"), (*REPORT, "--db", str(shift), "--out", str(tmp_path / "r.pdf"))):
        p = pitdesk(*args)
        assert p.returncode == 1, (args, p.stdout, p.stderr)
        assert p.stdout == "", args
        assert f"row {seq}: read model: table hold_house, key seq={seq}, wager={wager!r}" in p.stderr, p.stderr
        assert "reads" in p.stderr and "the log gives" in p.stderr
    assert not (tmp_path / "r.pdf").exists()
    assert printed(shift) == before


def test_asked_anyway_it_says_not_verified_on_every_page_and_is_logged_so(shift, tmp_path):
    seq, _ = edit_a_figure(shift)
    p = pitdesk("hold", "--db", str(shift), "--json", "--unverified")
    assert p.returncode == 0, p.stderr
    v = json.loads(p.stdout)["verified"]
    assert v["ok"] is False and v["finding"]["seq"] == seq and v["finding"]["kind"] == "read model"
    assert v["finding"]["where"]["table"] == "hold_house"

    out = tmp_path / "r.pdf"
    p = pitdesk(*REPORT, "--db", str(shift), "--out", str(out), "--unverified")
    assert p.returncode == 0, p.stderr
    said = json.loads(p.stdout)
    assert said["verified"]["ok"] is False and said["verified"]["finding"]["seq"] == seq
    pages = pdf_pages(out, range(1, said["pages"] + 1))
    assert len(pages) == said["pages"] >= 2
    for n, text in enumerate(pages, 1):
        assert "NOT VERIFIED" in text, f"page {n} is not marked: {text[:200]}"
    assert f"row {seq}: read model" in pages[0]
    logged = printed(shift)[-1]
    assert logged["type"] == "report_printed" and logged["data"]["number"] == said["number"]
    assert logged["data"]["verified"] is False and logged["data"]["finding"]["seq"] == seq

    # the same report printed again is a COPY of the NOT VERIFIED one, never of a verified one
    again = pitdesk(*REPORT, "--db", str(shift), "--out", str(tmp_path / "r2.pdf"), "--unverified")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["copy_of"] == said["number"]
