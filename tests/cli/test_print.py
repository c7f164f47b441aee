"""Printing the shift report on a real printer (issue 16): a CUPS server with the cups-pdf virtual
printer ``pitdesk-pdf`` (``make test-print`` installs and starts them: installer/cups-pdf-printer.sh).
``pitdesk report shift --print pitdesk-pdf`` sends the report through CUPS; the PDF cups-pdf writes
says, word for word, what the same report numbered the same says in the file ``--out`` would
write. Marked ``print``: the main suite prints through QPrinter to a PDF file instead
(tests/cli/test_shift_report.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
import time
from collections import Counter
from datetime import date, datetime
from pathlib import Path

import pytest

from tests.support.shift_report import DAY, SHIFT, events, pdf_text, pitdesk

pytestmark = pytest.mark.print
PRINTER = "pitdesk-pdf"
OUT = Path.home() / "PDF"       # cups-pdf's "Out ${HOME}/PDF" (/etc/cups/cups-pdf.conf)


def test_the_printer_is_there():
    p = subprocess.run(["lpstat", "-p", PRINTER], capture_output=True, text=True, timeout=30)
    assert p.returncode == 0 and "enabled" in p.stdout, p.stdout + p.stderr


def test_a_report_printed_through_cups_says_what_its_pdf_says(shift, tmp_path, qapp):
    from app.reports.shift_report import write_pdf
    from app.workstation.shift_figures import read_shift_report
    before = set(OUT.glob("*.pdf")) if OUT.exists() else set()
    p = pitdesk("report", "shift", "--db", str(shift), "--date", DAY, "--shift", SHIFT, "--print", PRINTER,
                "--paper", "a4")
    assert p.returncode == 0, p.stderr
    issued = json.loads(p.stdout)
    assert issued["number"] == 1 and issued["where"] == f"printer {PRINTER}"
    deadline = time.monotonic() + 120
    new: list[Path] = []
    while time.monotonic() < deadline:
        new = [f for f in (set(OUT.glob("*.pdf")) if OUT.exists() else set()) - before if f.stat().st_size > 0]
        if new and subprocess.run(["lpstat", "-o", PRINTER], capture_output=True, text=True).stdout.strip() == "":
            break
        time.sleep(0.5)
    assert len(new) == 1, f"cups-pdf wrote {new} into {OUT}"
    time.sleep(1)      # the backend closes its file after the queue empties
    printed = pdf_text(new[0])
    # the same report, numbered and printed as the log says it was, written by --out's function
    e = [e for e in events(shift) if e["type"] == "report_printed"][-1]
    r = read_shift_report(shift, date.fromisoformat(DAY), SHIFT)
    r.number, r.copy_of, r.printed_by, r.printed_at = e["data"]["number"], e["data"].get("copy_of"), e["actor"], \
        datetime.fromisoformat(e["time"])
    _, pages = write_pdf(r, tmp_path / "same.pdf", "a4")
    assert issued["pages"] == pages
    # the same words, each as many times (CUPS's PostScript leaves the text in its own order on the
    # page). What is compared is the text seen: a table row cut by a page's foot is drawn on both
    # pages and clipped, and the PDF keeps the clipped line's letters too, unseen; the printer's
    # PostScript does not. pdftocairo (the renderer the queue uses) gives the file's seen text.
    subprocess.run(["pdftocairo", "-pdf", str(tmp_path / "same.pdf"), str(tmp_path / "seen.pdf")], check=True,
                   timeout=120)
    assert Counter(printed.split()) == Counter(pdf_text(tmp_path / "seen.pdf").split())
    assert "pitdesk shift report No. 1" in " ".join(printed.split())
    shutil.copy(new[0], tmp_path / "printed.pdf")
    new[0].unlink()
