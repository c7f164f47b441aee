"""Benchmark: the shift report of 30 tables and about 14,400 rounds (issue 16, "Speed"). Measured,
never asserted.

The log is bench/hold_bench.py's (``pitdesk simulate shift`` of 30 tables x 480 rounds, kept under
/tmp), opened once by the store so that it is at the current schema. The simulator plays a round
every 1.5 to 3 minutes, so 480 rounds a table take a day of simulated time, not eight hours: the
report is asked for a shift of the whole day (a configuration with one shift, ``all``, from
00:00), which holds 14,353 of the 14,400 rounds: the same work as 30 tables x 8 hours at a round a
minute.

Times (``time.perf_counter``, medians of ``--runs``):
- ``json_s``: ``pitdesk report shift --db --config --date --shift all --json`` as a person runs it
  (a new process: the interpreter's start included), to its last byte on stdout (goal <= 1 s);
- ``pdf_s``: the same with ``--out FILE.pdf`` (goal <= 5 s): read, numbered and logged, drawn;
- in the bench's own process: ``read_s`` (``read_shift_report``), ``digest_s`` (``content_digest``,
  what a printed report is logged with and COPY is decided by, issue 33), ``layout_s`` (the
  document built and laid out), ``pdf_render_s`` (``write_pdf``), and the pages;
- ``preview_ms``: the Reports view's QPrintPreviewWidget (1600x900, the screen's resolution) drawing
  the pit's pages, the pit's and one table's, and every page (on the GUI thread: what it holds).

Run: ``.venv/bin/python bench/report_bench.py [--runs 3] [--page1 docs/screenshots/report-page1.png]``;
it prints one JSON object. ``make bench`` runs it (``bench/run_all.py --no-report`` skips it).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import date
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

GOALS = {"report_json": "the --json figures of 30 tables x 8 hours (about 14,400 rounds) <= 1 s",
         "report_pdf": "the same shift to PDF <= 5 s"}
DAY = "2026-11-20"
PITDESK = str(Path(sys.executable).with_name("pitdesk"))


def setup(work: Path) -> tuple[Path, Path]:
    """A copy of the log at the current schema and a configuration of its tables with one shift."""
    from hold_bench import fixture

    from app.store.log import AuditLog
    db = work / "log.db"
    shutil.copy(fixture(), db)
    os.environ["PITDESK_HOME"] = str(work / "home")
    AuditLog(db).close()      # migrated once (the hold's read models), and its head recorded here
    conn = sqlite3.connect(db)
    tables = conn.execute("SELECT table_id, profile FROM tables").fetchall()
    conn.close()
    tables.sort(key=lambda t: (len(t[0]), t[0]))
    cfg = work / "one-shift.toml"
    cfg.write_text("".join(f'[[tables]]\nid = "{t}"\nprofile = "{p}"\n\n' for t, p in tables)
                   + '[[shifts]]\nname = "all"\nstart = "00:00"\n')
    return db, cfg


def timed(args: list[str]) -> float:
    t0 = time.perf_counter()
    p = subprocess.run(args, capture_output=True, text=True, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    t = time.perf_counter() - t0
    if p.returncode != 0:
        raise RuntimeError(f"{' '.join(args)}: {p.stderr}")
    return t


def bench(runs: int = 3, page1: Path | None = None) -> dict:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from app.reports.shift_report import build, write_pdf
    from app.qt import QApplication, QSizeF
    from app.workstation.config import load
    from app.workstation.shift_figures import content_digest, read_shift_report
    app = QApplication.instance() or QApplication([])  # noqa: F841
    work = Path(tempfile.mkdtemp(prefix="pitdesk-report-bench-"))
    try:
        db, cfg = setup(work)
        base = [PITDESK, "report", "shift", "--db", str(db), "--config", str(cfg), "--date", DAY, "--shift", "all"]
        json_s = [timed(base + ["--json"]) for _ in range(runs)]
        pdf_s = [timed(base + ["--out", str(work / f"r{n}.pdf")]) for n in range(runs)]
        plan = load(cfg).shifts
        read, digest, layout, render, pages = [], [], [], [], 0
        for n in range(runs):
            t0 = time.perf_counter()
            r = read_shift_report(db, date.fromisoformat(DAY), "all", plan)
            read.append(time.perf_counter() - t0)
            td = time.perf_counter()
            content_digest(r)
            digest.append(time.perf_counter() - td)
            t1 = time.perf_counter()
            doc = build(r, 700)
            doc.setPageSize(QSizeF(700, 900))
            doc.pageCount()
            t2 = time.perf_counter()
            _, pages = write_pdf(r, work / f"own{n}.pdf", "letter")
            t3 = time.perf_counter()
            layout.append(t2 - t1)
            render.append(t3 - t2)
        preview = preview_ms(r, runs)
        rounds = r.rounds
        size_mb = (work / "r0.pdf").stat().st_size / 1e6
        if page1 is not None:
            page1.parent.mkdir(parents=True, exist_ok=True)
            stem = page1.with_suffix("")
            subprocess.run(["pdftoppm", "-r", "100", "-png", "-singlefile", "-f", "1", "-l", "1", str(work / "r0.pdf"),
                            str(stem)], check=True)
        return {"rounds": rounds, "tables": len(r.tables), "pages": pages, "pdf_mb": round(size_mb, 1), "runs": runs,
                "json_s": round(statistics.median(json_s), 3), "json_s_all": [round(x, 3) for x in json_s],
                "pdf_s": round(statistics.median(pdf_s), 3), "pdf_s_all": [round(x, 3) for x in pdf_s],
                "read_s": round(statistics.median(read), 3), "digest_s": round(statistics.median(digest), 3),
                "layout_s": round(statistics.median(layout), 3),
                "pdf_render_s": round(statistics.median(render), 3), "preview_ms": preview,
                "load": [round(x, 2) for x in os.getloadavg()]}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def preview_ms(r, runs: int) -> dict:
    """The preview's paint of part of the report and of all of it, medians in ms, and its pages."""
    from app.reports import shift_report as paper
    from app.qt import QApplication, QPrinter, QPrintPreviewWidget
    app = QApplication.instance()
    printer = QPrinter(QPrinter.PrinterMode.ScreenResolution)
    printer.setPageLayout(paper.page_layout("letter"))
    w = QPrintPreviewWidget(printer)
    w.resize(1600, 900)
    w.show()
    out = {}
    for name, part in (("pit", ()), ("pit_and_T1", ("T1",)), ("every_page", True)):
        w.paintRequested.connect(lambda p, part=part: paper.print_report(r, p, "letter", part))
        times = []
        for _ in range(runs):
            t0 = time.perf_counter()
            w.updatePreview()
            app.processEvents()
            times.append((time.perf_counter() - t0) * 1000)
        w.paintRequested.disconnect()
        out[name] = {"ms": round(statistics.median(times)), "pages": w.pageCount()}
    w.close()
    w.deleteLater()
    return out


def rows_for_run_all(result: dict) -> list[tuple[str, str, str, str]]:
    n = f"{result['rounds']:,} rounds, {result['tables']} tables"
    return [("report_json", n, f"{result['json_s']} s", "goal 1 s: " + ("met" if result["json_s"] <= 1 else "missed")),
            ("report_pdf", n + f", {result['pages']} pages", f"{result['pdf_s']} s",
             "goal 5 s: " + ("met" if result["pdf_s"] <= 5 else "missed"))]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--page1", type=Path, metavar="PNG", help="also keep the first page as a picture")
    args = ap.parse_args()
    print(json.dumps(bench(args.runs, args.page1), indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
