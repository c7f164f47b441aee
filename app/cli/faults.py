"""Start-up faults written down: ``<data folder>/logs/pitdesk.log`` (app/store/paths.py ``data_dir``).

A workstation started from the desktop menu has no terminal: what stopped it must be somewhere a
technician finds it afterwards, with the time, the command and the traceback, and never only on a
stderr nobody reads (README, "When it does not start"). If the data folder cannot be written (the
fault may be that very folder), the log goes to the system's temporary folder instead.
"""

from __future__ import annotations

import os
import sys
import tempfile
import traceback
from datetime import datetime
from pathlib import Path

LOG_NAME = "pitdesk.log"
KEEP_BYTES = 1_000_000      # the log is cut to its last half when it grows past this


def log_file() -> Path:
    from app.store.paths import data_dir
    return data_dir() / "logs" / LOG_NAME


def record(kind: str, message: str, error: BaseException | None = None) -> Path:
    """Append one fault to the log; returns the file written."""
    lines = [f"{datetime.now().astimezone():%Y-%m-%d %H:%M:%S %z} pitdesk start-up fault ({kind}): {message}",
             f"  command: {' '.join([Path(sys.argv[0]).name, *sys.argv[1:]])}",
             f"  executable: {sys.executable} (frozen: {bool(getattr(sys, 'frozen', False))}), pid {os.getpid()}"]
    if error is not None:
        tb = "".join(traceback.format_exception(type(error), error, error.__traceback__)).rstrip()
        lines += ["  " + line for line in tb.splitlines()]
    text = "\n".join(lines) + "\n"
    for path in (_safe(log_file), lambda: Path(tempfile.gettempdir()) / f"pitdesk-{os.getuid()}" / LOG_NAME):
        try:
            target = path()
            if target is None:
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            _trim(target)
            with open(target, "a", encoding="utf-8") as f:
                f.write(text)
            return target
        except OSError:
            continue
    return Path(os.devnull)


def _safe(fn):
    def call():
        try:
            return fn()
        except Exception:   # a data folder that cannot even be named: the fallback takes it
            return None
    return call


def _trim(path: Path) -> None:
    try:
        if path.stat().st_size <= KEEP_BYTES:
            return
    except FileNotFoundError:
        return
    data = path.read_bytes()[-KEEP_BYTES // 2:]
    cut = data.find(b"\n")
    path.write_bytes(data[cut + 1:] if cut >= 0 else data)
