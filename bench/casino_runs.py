"""What the casino's benchmarks share (bench/floor_report_bench.py, bench/floor_sums_bench.py): a
``pitdesk`` command timed in a process of its own, this tree's or another's (a worktree of a
parent commit, run with PYTHONPATH and the same venv), and the Markdown table they print."""

from __future__ import annotations

import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the venv's pitdesk (a worktree without a venv of its own runs the shared one, with PYTHONPATH)
PITDESK = str(ROOT / ".venv" / "bin" / "pitdesk") if (ROOT / ".venv").exists() else \
    str(Path(sys.executable).parent / "pitdesk")


def run(*args: str, tree: Path | None = None) -> tuple[float, dict]:
    """``pitdesk ARGS`` timed (time.perf_counter around the process) and its JSON; ``tree``: the
    code of that tree instead of this one's."""
    env, cmd = dict(os.environ), [PITDESK, *args]
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
        cmd = [sys.executable, "-m", "app.cli", *args]
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=7200, env=env, cwd=tree or ROOT)
    dt = time.perf_counter() - t
    if p.returncode != 0:
        raise SystemExit(f"pitdesk {' '.join(args)}: exit {p.returncode}: {p.stderr.strip()}")
    return dt, json.loads(p.stdout)


def print_table(rows: list[tuple], bins: Path, headers: tuple[str, ...] = ("benchmark", "what", "time"),
                more: str = "") -> None:
    """The machine, then ``rows`` as a Markdown table (the last column right-aligned)."""
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, PostgreSQL {bins.parent.name}{more}")
    print("| " + " | ".join(headers) + " |\n|" + "---|" * (len(headers) - 1) + "---:|")
    for r in rows:
        print("| " + " | ".join(r) + " |")


@contextmanager
def casino(prefix: str):
    """A real PostgreSQL server for the run (tests/support/pg.py), its roles and one migrated
    database, and a folder: (the server's bin folder, the folder, the server, the database's
    name); both removed after. Exits 2 where no server is installed."""
    from tests.support.pg import Server, bin_dir
    bins = bin_dir()
    if bins is None:
        print("no PostgreSQL server installed (installer/postgres.sh)", file=sys.stderr)
        raise SystemExit(2)
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    server = Server(bins)
    try:
        server.start()
        server.roles()
        yield bins, folder, server, server.casino()
    finally:
        server.remove()
        shutil.rmtree(folder, ignore_errors=True)
