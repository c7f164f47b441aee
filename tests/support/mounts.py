"""A command run with a folder mounted as a small or read-only tmpfs, in a mount namespace of its own
(``unshare -m``: the mount is the command's alone and goes with it; nothing on the machine changes).
Root alone may mount; elsewhere ``available()`` is False and the tests that need it skip. (Root
writes through a folder's mode bits, so ``chmod`` cannot make a read-only location for it: a
read-only mount can.)"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

_SCRIPT = r'''
set -e
dir="$1"; size="$2"; mode="$3"; seed="$4"; shift 4
mount -t tmpfs -o "size=$size" tmpfs "$dir"
if [ -n "$seed" ]; then cp -a "$seed"/. "$dir"/; fi
if [ "$mode" = ro ]; then mount -o remount,ro "$dir"; fi
exec "$@"
'''


def available() -> bool:
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        return False
    p = subprocess.run(["unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=4k tmpfs /mnt"],
                       capture_output=True, timeout=30)
    return p.returncode == 0


def run_on_mount(folder: Path, argv: list[str], *, size: str = "1m", read_only: bool = False,
                 seed: Path | None = None, env: dict | None = None, timeout: float = 120,
                 stdin: str | None = None) -> subprocess.CompletedProcess:
    """``argv`` run with ``folder`` a fresh tmpfs of ``size`` (holding a copy of ``seed``'s files),
    read-only if asked."""
    folder.mkdir(parents=True, exist_ok=True)
    return subprocess.run(["unshare", "-m", "sh", "-c", _SCRIPT, "sh", str(folder), size,
                           "ro" if read_only else "rw", str(seed or ""), *argv],
                          capture_output=True, text=True, timeout=timeout, env=env, input=stdin)
