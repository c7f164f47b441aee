"""A shift report is logged as printed only once it is made (issue 26, finding 3): ``pitdesk report
shift --out`` to a folder, or into a folder that does not exist, is refused before anything is
written; a report stopped while it is made (SIGTERM, a disk that fills) logs ``report_failed``
with why, never ``report_printed``, and leaves no file and no ``.part``. Each run is the real
command in a process on the swing shift of tests/conftest.py."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.support import mounts
from tests.support.shift_report import DAY, PITDESK, ROOT, SHIFT, events, pitdesk


def reports(db: Path) -> list[tuple[str, int]]:
    return [(e["type"], e["data"]["number"]) for e in events(db) if e["type"] in ("report_printed", "report_failed")]


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


def test_a_folder_or_a_missing_folder_is_refused_before_anything_is_written(shift, tmp_path):
    before = len(events(shift))
    out = tmp_path / "reports"
    out.mkdir()
    for target, words in ((out, f"--out {out}: is a folder, not a file"),
                          (tmp_path / "nowhere" / "r.pdf",
                           f"--out {tmp_path / 'nowhere' / 'r.pdf'}: the folder {tmp_path / 'nowhere'} does not exist")):
        p = pitdesk("report", "shift", "--db", str(shift), "--date", DAY, "--shift", SHIFT, "--out", str(target))
        assert p.returncode == 2, p.stdout + p.stderr
        assert p.stderr.strip().splitlines() == [f"pitdesk: error: {words}"]
        assert p.stdout == ""
    assert len(events(shift)) == before
    assert list(out.iterdir()) == [] and leftovers(tmp_path) == [] and not (tmp_path / "nowhere").exists()


def _run(shift: Path, pdf: Path, after: float) -> tuple[int, float]:
    """The report to ``pdf``, SIGTERM ``after`` seconds in (or never, if None); (exit, seconds)."""
    t0 = time.monotonic()
    p = subprocess.Popen([PITDESK, "report", "shift", "--db", str(shift), "--date", DAY, "--shift", SHIFT,
                          "--out", str(pdf)], cwd=ROOT, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if after is not None:
        try:
            p.wait(after)
        except subprocess.TimeoutExpired:
            p.send_signal(signal.SIGTERM)
    p.wait(120)
    return p.returncode, time.monotonic() - t0


def test_sigterm_while_the_report_is_made_logs_it_failed_and_leaves_no_file(shift, tmp_path):
    """The delay is searched for: too early and the process dies before it has a number (nothing
    logged); too late and the report is made and logged. Every run, whatever its timing, must log
    report_printed only with the whole file in place, and report_failed with no file at all."""
    rc, took = _run(shift, tmp_path / "whole.pdf", None)
    assert rc == 0 and (tmp_path / "whole.pdf").read_bytes().startswith(b"%PDF")
    low, high, failed = 0.0, took, None
    for attempt in range(8):
        pdf = tmp_path / f"r{attempt}.pdf"
        before = reports(shift)
        rc, _ = _run(shift, pdf, (low + high) / 2)
        new = reports(shift)[len(before):]
        assert leftovers(tmp_path) == []
        if [t for t, _ in new] == ["report_printed"]:   # made and logged before the signal came
            # (a signal that lands as the process ends, its handler gone, kills it: the report stands)
            assert rc in (0, 128 + signal.SIGTERM, -signal.SIGTERM) and pdf.read_bytes().startswith(b"%PDF")
            high = (low + high) / 2
        elif rc == -signal.SIGTERM:             # killed before the report was begun: nothing to log
            assert new == [] and not pdf.exists()
            low = (low + high) / 2
        else:
            assert rc == 128 + signal.SIGTERM, rc
            assert [t for t, _ in new] == ["report_failed"] and not pdf.exists()
            failed = [e for e in events(shift) if e["type"] == "report_failed"][-1]
            break
    assert failed is not None, "no SIGTERM landed while the report was being made"
    assert "SIGTERM" in failed["data"]["reason"]
    # the failed number is not given again: the next report is one more
    p = pitdesk("report", "shift", "--db", str(shift), "--date", DAY, "--shift", SHIFT, "--json")
    assert p.returncode == 0
    rc, _ = _run(shift, tmp_path / "after.pdf", None)
    assert rc == 0 and reports(shift)[-1] == ("report_printed", failed["data"]["number"] + 1)


@pytest.mark.skipif(not mounts.available(), reason="needs root and unshare -m to mount a small tmpfs")
def test_a_disk_that_fills_while_the_file_is_written_logs_it_failed(shift, tmp_path):
    """The PDF (~700 KB) written to a folder that holds 64 KB: the write fails part-way (ENOSPC)."""
    folder = tmp_path / "full"
    pdf = folder / "r.pdf"
    p = mounts.run_on_mount(folder, [PITDESK, "report", "shift", "--db", str(shift), "--date", DAY, "--shift",
                                     SHIFT, "--out", str(pdf), "--paper", "a4"], size="64k",
                            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert p.returncode == 2, p.stdout + p.stderr
    assert "No space left on device" in p.stderr and "(logged as failed)" in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr
    assert [t for t, _ in reports(shift)] == ["report_failed"]
    assert "No space left on device" in [e for e in events(shift) if e["type"] == "report_failed"][0]["data"]["reason"]
    assert list(folder.iterdir()) == []     # the mount went with the process; nothing was written beneath it


@pytest.mark.skipif(not mounts.available(), reason="needs root and unshare -m to mount a read-only tmpfs")
def test_a_read_only_folder_is_refused_before_anything_is_written(shift, tmp_path):
    folder = tmp_path / "ro"
    p = mounts.run_on_mount(folder, [PITDESK, "report", "shift", "--db", str(shift), "--date", DAY, "--shift",
                                     SHIFT, "--out", str(folder / "r.pdf")], read_only=True,
                            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert p.returncode == 2, p.stdout + p.stderr
    assert p.stderr.strip() == f"pitdesk: error: --out {folder / 'r.pdf'}: the folder {folder} is read-only"
    assert reports(shift) == []
