"""Where a key stands in a TOML text: its line, for error messages that name key AND line.

``tomllib`` gives a line for a syntax error but none for a value that parses and is wrong (an
unknown rule profile), so the configuration is scanned here once more for the line of each key.
A path is a tuple of keys and 0-based array indices, as the parsed document is walked:
``("tables", 1, "devices", 0, "class")``. ``[[tables]]`` headers, ``[tables.limits]`` sub-tables,
dotted keys and inline tables (``position = {row = 1}``) are followed; a key inside a multi-line
array or an inline table is found at the line of the nearest key that holds it.
"""

from __future__ import annotations

import re

Path = tuple[str | int, ...]

_HEADER = re.compile(r"^\s*(\[\[?)\s*(.+?)\s*(\]\]?)\s*(#.*)?$")
_BARE = r"[A-Za-z0-9_-]+"
_QUOTED = r'"(?:[^"\\]|\\.)*"|\'[^\']*\''
_KEY = re.compile(rf"^\s*((?:{_BARE}|{_QUOTED})(?:\s*\.\s*(?:{_BARE}|{_QUOTED}))*)\s*=")


def _split(dotted: str) -> list[str]:
    """``a."b.c".d`` -> ["a", "b.c", "d"]."""
    parts = re.findall(rf"{_BARE}|{_QUOTED}", dotted)
    return [p[1:-1] if p[:1] in "\"'" else p for p in parts]


def _depth_change(line: str) -> int:
    """Brackets and braces opened minus closed on ``line``, outside strings and comments."""
    depth, quote, i = 0, "", 0
    while i < len(line):
        c = line[i]
        if quote:
            if c == "\\" and quote == '"':
                i += 1
            elif c == quote:
                quote = ""
        elif c in "\"'":
            quote = c
        elif c == "#":
            break
        elif c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
        i += 1
    return depth


class Lines:
    """The line (1-based) of every key, header and array-of-tables element of a TOML text."""

    def __init__(self, text: str):
        self.at: dict[Path, int] = {}
        arrays: dict[Path, int] = {}      # array-of-tables path -> the index of its last element
        table: Path = ()
        depth = 0
        for n, line in enumerate(text.splitlines(), start=1):
            if depth > 0:                 # inside a multi-line array or inline table
                depth += _depth_change(line)
                continue
            head = _HEADER.match(line)
            if head and not _KEY.match(line):
                parts = _split(head.group(2))
                path: Path = ()
                for p in parts[:-1]:
                    path += (p,)
                    if path in arrays:    # [tables.limits]: the last [[tables]] element's limits
                        path += (arrays[path],)
                path += (parts[-1],)
                if head.group(1) == "[[":
                    arrays[path] = arrays.get(path, -1) + 1
                    self.at.setdefault(path, n)
                    path += (arrays[path],)
                self.at.setdefault(path, n)
                table = path
                continue
            key = _KEY.match(line)
            if key:
                path = table + tuple(_split(key.group(1)))
                for k in range(len(table) + 1, len(path) + 1):   # a.b = 1 also defines a
                    self.at.setdefault(path[:k], n)
                depth = _depth_change(line[key.end():])

    def line(self, path: Path) -> int | None:
        """The line of ``path``, or of the nearest key or header that holds it; None if none does."""
        for k in range(len(path), 0, -1):
            if path[:k] in self.at:
                return self.at[path[:k]]
        return None


def show(path: Path) -> str:
    """``("tables", 1, "devices", 0, "class")`` -> ``tables[2].devices[1].class``: indices as a
    person counts the ``[[tables]]`` of the file, from 1."""
    out = ""
    for p in path:
        out += f"[{p + 1}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out
