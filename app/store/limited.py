"""Every input read with a limit (issue 35, finding 8): a key file, a configuration, an export's
lines, a PIN or a batch line on stdin. ``/dev/zero``, ``/dev/urandom`` or a file far larger than
any of its kind is refused naming the file, the limit and what it is, after reading at most the
limit and one byte more, never until memory runs out."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import IO

KEY_BYTES = 4_096            # an install key is 64 hex digits and a newline
CONFIG_BYTES = 1_000_000     # a workstation's configuration: a few kilobytes for 40 tables
LINE_CHARS = 1_000_000       # an export line or a batch line: a row's body is a few kilobytes
PIN_CHARS = 256


def private_file(path: Path | str) -> Path:
    """``path`` made anew, empty, readable and writable by its owner alone (0600): a log, a backup
    (it holds the PINs' keyed hashes) or an export is nobody else's to read (issue 35, finding 9).
    SQLite opens an empty file as a new database, and gives its journal the database's mode."""
    Path(path).unlink(missing_ok=True)
    os.close(os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    return Path(path)


class TooLarge(ValueError):
    """An input longer than its kind's limit; the message names it, the limit and what it is."""


def kind_of(path: Path | str) -> str:
    """What ``path`` is when it is not a regular file ("a character device", "a FIFO"), else ""."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return ""
    for test, words in ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                        (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"), (stat.S_ISDIR, "a folder")):
        if test(mode):
            return words
    return ""


def read_bytes(path: Path | str, limit: int, what: str) -> bytes:
    """The file at ``path``, at most ``limit`` bytes; TooLarge naming it past that (OSError as
    ever for a file that cannot be opened)."""
    with open(path, "rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        kind = kind_of(path)
        raise TooLarge(f"{path}: {what} is at most {limit:,} bytes and this goes on past that"
                       + (f" (it is {kind}, not a file)" if kind else ""))
    return data


class NotText(ValueError):
    """An input that is binary: a NUL, or bytes that are not UTF-8 (stdin decodes them as lone
    surrogates under the C locale)."""


def read_line(stream: IO[str], limit: int, what: str) -> str:
    """One line of ``stream`` (its newline kept; "" at the end), at most ``limit`` characters;
    TooLarge past that, NotText for a line that is not text."""
    try:
        line = stream.readline(limit + 1)
    except UnicodeDecodeError:
        raise NotText(f"{what} is not UTF-8 text: binary input?") from None
    if len(line) > limit and not line.endswith("\n"):
        raise TooLarge(f"{what} is at most {limit:,} characters and this one goes on past that")
    if "\x00" in line or any("\ud800" <= c <= "\udfff" for c in line):
        raise NotText(f"{what} is not UTF-8 text: binary input?")
    return line
