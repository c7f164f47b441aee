"""A file written whole and durably, or not at all: the bytes go to a temporary file beside the
target (same folder, so the rename is atomic), are flushed and fsynced, renamed into place, and
the folder fsynced so the rename itself survives a power cut. Anything that stops it (a full
disk, a signal turned into an exception) removes the temporary file: no ``.part`` is left.

A report is logged as printed only once this has returned (issue 26, app/cli/report_command.py).
"""

from __future__ import annotations

import os
from pathlib import Path


def write_whole(path: Path | str, data: bytes) -> Path:
    """``data`` at ``path``, durably; OSError (naming the cause) with nothing left behind."""
    path = Path(path)
    part = path.with_name(f".{path.name}.{os.getpid()}.part")
    fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        try:
            view = memoryview(data)
            while view:
                n = os.write(fd, view)
                view = view[n:]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(part, path)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    _sync_folder(path.parent)
    return path


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return      # a folder that cannot be opened for sync (some platforms): the rename stands
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


__all__ = ["write_whole"]
