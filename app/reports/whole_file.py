"""A file written whole and durably, or not at all: the bytes go to a temporary file beside the
target (same folder, so the rename is atomic), are flushed and fsynced, renamed into place, and
the folder fsynced so the rename itself survives a power cut. Anything that stops it (a full
disk, a signal turned into an exception) removes the temporary file: no ``.part`` is left.

A report is logged as printed only once this has returned (issue 26, app/cli/report_command.py).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


def unwritable(path: Path | str) -> str | None:
    """Why ``path`` cannot take a file (a folder; a folder that is missing, not a folder or
    read-only), or None. Asked before anything is drawn or written (issue 26)."""
    path = Path(path)
    if path.is_dir():
        return "is a folder, not a file"
    folder = path.resolve().parent
    if not folder.exists():
        return f"the folder {folder} does not exist"
    if not folder.is_dir():
        return f"{folder} is not a folder"
    if not os.access(folder, os.W_OK):
        return f"the folder {folder} is read-only"
    return None


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


def write_then_log(path: Path | str, data: bytes, logged: Callable[[], T]) -> T:
    """``data`` written whole at ``path``, then ``logged()`` (the report logged as printed): a file
    made but not logged is removed, so no report exists that the log does not know (issue 26)."""
    write_whole(path, data)
    try:
        return logged()
    except BaseException:
        Path(path).unlink(missing_ok=True)
        raise


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


__all__ = ["unwritable", "write_then_log", "write_whole"]
