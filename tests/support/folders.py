"""A folder nobody can write in, for the length of a ``with``: its mode bits for a user, the
immutable attribute for root (root writes through mode bits; as tests/store/test_store_log.py's
``read_only``). Yields how, or None where neither can be done here."""

from __future__ import annotations

import os
import shutil
import subprocess
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def unwritable_folder(folder: Path):
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            yield "chmod 555"
        finally:
            folder.chmod(0o755)
        return
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(folder)], capture_output=True).returncode != 0:
        yield None
        return
    try:
        yield "chattr +i"
    finally:
        subprocess.run([chattr, "-i", str(folder)], check=True)
