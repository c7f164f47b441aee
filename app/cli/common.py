"""What the command groups share: the bad-input exit, reading a file and its JSON, the audit
database a command names and the PINs it reads."""

from __future__ import annotations

import getpass
import json
import sys
from pathlib import Path

EXIT_BAD_INPUT = 2
EXIT_NOT_VERIFIED = 1   # a figure asked of a log that fails its check (issue 35, finding 1)


class InputError(ValueError):
    """Bad input a command was given; ``pitdesk: error: ...`` and exit 2 (app/cli/main.py)."""


# the years a floor's log can hold: a date beyond them (9999-12-31) would overflow a shift's or a
# period's end and is no log's anyway (issue 26)
FIRST_YEAR, LAST_YEAR = 2000, 2100


def in_years(flag: str, text: str, when):
    """``when`` (a date or a datetime, read from ``text`` given as ``flag``), or InputError if
    it is outside ``FIRST_YEAR``..``LAST_YEAR``."""
    if not FIRST_YEAR <= when.year <= LAST_YEAR:
        raise InputError(f"{flag} {text!r} is outside the years {FIRST_YEAR}-{LAST_YEAR}")
    return when


# a round file is a few kilobytes, an events file of a long day a few hundred: anything larger
# is not one (``pitdesk settle /dev/zero`` would otherwise read until memory runs out)
READ_LIMIT = 1_000_000   # bytes


def _read_text(path: str, what: str, limit: int = READ_LIMIT) -> str:
    """The file at ``path`` as UTF-8 text, read as bytes up to ``limit``: a larger file, binary or
    not UTF-8 is refused naming the fault (InputError, exit 2), never a traceback."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise InputError(f"cannot read {what} {path}: {e.strerror or e}") from None
    if len(data) > limit:
        raise InputError(f"{what} {path} is larger than {limit:,} bytes; it is not one")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InputError(f"{what} {path} is not UTF-8 text (byte {e.start}: {e.reason})") from None
    if "\x00" in text:
        raise InputError(f"{what} {path} is binary, not text (a NUL byte at {text.index(chr(0))})")
    return text


def _json(text: str, where: str):
    """One JSON document; a bad one, or one nested too deeply to read, is the file's fault."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{where}: not valid JSON: {e}") from None
    except RecursionError:
        raise InputError(f"{where}: the JSON is nested too deeply to read") from None


def _db(args) -> Path:
    """``--db``, else the audit database in the user data directory."""
    from app.store import paths
    return Path(args.db) if args.db else paths.default_db()


def _pin(args, prompt: str) -> str:
    # getpass on a pipe falls back to echoing stdin with a GetPassWarning on stderr, or reads the
    # controlling terminal instead of the pipe the script wrote the PIN to; a pipe is read here
    if args.pin_stdin or not sys.stdin.isatty():
        from app.store.limited import PIN_CHARS, read_line
        line = read_line(sys.stdin, PIN_CHARS, "a PIN on stdin")   # TooLarge, NotText: ValueErrors
        if not line:
            raise ValueError("expected a PIN on stdin and got end of input")
        return line.rstrip("\r\n")
    return getpass.getpass(prompt)


def refuse_unverified(what: str, verified) -> int:
    """A figure not given: the log it would be read from fails its check (app/store/figures_check.py).
    One line naming the row and the kind; exit 1."""
    print(f"pitdesk: error: {what} is not made from a log that fails its check: {verified.words()} "
          "(pitdesk audit verify names it; --unverified gives it marked NOT VERIFIED)", file=sys.stderr)
    return EXIT_NOT_VERIFIED


def refuse_floor(what: str, verified) -> int:
    """A floor figure not given: a chain the casino's server holds, or the sums it keeps, fail the
    server's check (app/store/pg/floor_verdict.py, floor_money.py). One line naming the
    workstation, the row and the kind; exit 1."""
    print(f"pitdesk: error: {what} is not made from what fails the server's check: {verified.words()} "
          "(pitdesk floor verify --pg URL names it; --unverified gives it marked NOT VERIFIED)", file=sys.stderr)
    return EXIT_NOT_VERIFIED
