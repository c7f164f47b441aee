"""The shift report's tests (tests/cli/test_shift_report.py, the Reports view's
tests/views/test_gui_reports.py, the real printer's tests/cli/test_print.py): the swing shift
simulated for them (tests/conftest.py's ``made`` and ``shift``), ``pitdesk`` run as a process,
the events read straight from the log, a PDF's text as pdftotext reads it, money as printed."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import unicodedata
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PITDESK = str(Path(sys.executable).with_name("pitdesk"))
START = datetime(2026, 11, 21, 16, 0)        # the swing shift, 16:00-24:00
DAY, SHIFT = "2026-11-21", "swing"


def money(cents: int) -> str:
    sign = "-" if cents < 0 else ""
    return f"{sign}${abs(cents) // 100:,}.{abs(cents) % 100:02d}"


def pitdesk(*args, stdin: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run([PITDESK, *args], capture_output=True, text=True, cwd=ROOT, timeout=300, input=stdin,
                          env=env)


def events(db: Path) -> list[dict]:
    conn = sqlite3.connect(db)
    try:
        return [json.loads(b) for (b,) in conn.execute("SELECT body FROM events ORDER BY seq")]
    finally:
        conn.close()


def pdf_text(path: Path) -> str:
    p = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return unicodedata.normalize("NFKC", p.stdout)     # the PDF's ligatures (ﬂ) as letters
