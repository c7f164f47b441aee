"""The count room's file (issue 34, docs/inventory.md): the drop boxes of several tables counted at
once, as the count room writes them, read by the command line (``pitdesk inventory drop --csv``)
and the window (Money > Import the count room's file) alike.

A header ``table,denomination,count`` and one line per table and note value (``T1,$100,12``).
Every line is checked before anything is written: a table not on the floor, a note value not in
``[chips] currency``, a count that is not a whole number, a table and value given twice. The
first fault refuses the whole file, naming its line (``CountRoomError``); the desk then checks
each table's shift (closed, its drop not counted yet) and writes all the tables' drops in one
append or none (``InventoryDesk.drops``), its refusal named by the line of the table it names
(``CountRoomFile.refusal``).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from app.engine.chips import MOST_CHIPS
from app.engine.money import MoneyError, dollars, parse_dollars

from .errors import FieldsRefused, Refused

HEADER = ("table", "denomination", "count")
READ_LIMIT = 1_000_000      # bytes: a count room's file is a few hundred lines
_NOTE = re.compile(r"\$?\s*\d[\d,]*(\.\d{1,2})?")


class CountRoomError(Refused):
    """The file refused: ``str(e)`` names the file, the line and the fault; ``line`` the line (None:
    the file as a whole). Nothing is written."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class CountRoomFile:
    """A file checked line by line: each table's notes by value, in the file's order, and the line
    each table is first named on."""
    name: str                               # the file as the messages name it
    lines: dict[str, int]
    counts: dict[str, dict[int, int]]

    def drops(self) -> list[tuple[str, dict[int, int]]]:
        """What ``InventoryDesk.drops`` takes."""
        return list(self.counts.items())

    def cents(self, table: str) -> int:
        return sum(v * n for v, n in self.counts[table].items())

    def refusal(self, e: FieldsRefused) -> CountRoomError:
        """The desk's refusal of a table as the file's line that names it."""
        (table, why), = e.fields.items()
        n = self.lines.get(table)
        return CountRoomError(f"{self.name}:{n}: {why}; nothing written", n)


def parse(text: str, tables: Iterable[str], currency: Iterable[int], name: str = "<count room file>") -> CountRoomFile:
    """The count room's file in ``text`` checked against the floor's ``tables`` and the drop box's
    note values ``currency`` (cents); ``name`` is the file named in messages. ``CountRoomError``
    at the first fault, naming its line."""
    tables = list(tables)
    currency = tuple(currency)
    reader = csv.reader(text.splitlines())
    header = None
    first: dict[str, int] = {}
    counts: dict[str, dict[int, int]] = {}
    seen: dict[tuple[str, int], int] = {}

    def bad(n: int, why: str) -> CountRoomError:
        return CountRoomError(f"{name}:{n}: {why}", n)

    try:
        for fields in reader:
            n = reader.line_num
            if not any(f.strip() for f in fields):
                continue
            fields = [f.strip() for f in fields]
            if header is None:
                if tuple(f.lower() for f in fields) != HEADER:
                    raise bad(n, f"the first line is the header 'table,denomination,count', got {','.join(fields)!r}")
                header = fields
                continue
            if len(fields) != 3:
                raise bad(n, f"a line is table,denomination,count (3 fields), got {len(fields)}")
            table, note, count = fields
            if table not in tables:
                raise bad(n, f"no table {table!r} on this floor (tables: {', '.join(tables)})")
            try:
                if not _NOTE.fullmatch(note):
                    raise MoneyError(f"{note!r} is not a note's value")
                value = parse_dollars(note)
            except MoneyError as e:
                raise bad(n, str(e)) from None
            if value not in currency:
                raise bad(n, f"no {dollars(value)} note in [chips] currency ({', '.join(dollars(v) for v in currency)})")
            if not re.fullmatch(r"\d+", count) or int(count) > MOST_CHIPS:
                raise bad(n, f"the count of {dollars(value)} notes is a whole number from 0 to {MOST_CHIPS}, got "
                             f"{count!r}")
            if (table, value) in seen:
                raise bad(n, f"table {table}'s {dollars(value)} notes are counted twice (line {seen[table, value]} "
                             f"and line {n})")
            seen[table, value] = n
            first.setdefault(table, n)
            counts.setdefault(table, {})[value] = int(count)
    except csv.Error as e:
        raise CountRoomError(f"{name}:{reader.line_num}: not a CSV line: {e}", reader.line_num) from None
    if header is None:
        raise CountRoomError(f"{name}: empty; the first line is the header 'table,denomination,count'")
    if not counts:
        raise CountRoomError(f"{name}: no table's count after the header")
    return CountRoomFile(name, first, counts)


def read(path: str | Path, tables: Iterable[str], currency: Iterable[int]) -> CountRoomFile:
    """The file at ``path`` read (UTF-8 text, at most ``READ_LIMIT`` bytes) and parsed; a file that
    cannot be read, or is not text, is refused naming the fault (``CountRoomError``)."""
    path = str(path)
    try:
        with open(path, "rb") as f:
            data = f.read(READ_LIMIT + 1)
    except OSError as e:
        raise CountRoomError(f"cannot read the count room file {path}: {e.strerror or e}") from None
    if len(data) > READ_LIMIT:
        raise CountRoomError(f"the count room file {path} is larger than {READ_LIMIT:,} bytes; it is not one")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise CountRoomError(f"the count room file {path} is not UTF-8 text (byte {e.start}: {e.reason})") from None
    if "\x00" in text:
        raise CountRoomError(f"the count room file {path} is binary, not text")
    return parse(text, tables, currency, path)


__all__ = ["CountRoomError", "CountRoomFile", "HEADER", "parse", "read"]
