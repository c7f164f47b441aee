"""The rule texts of /work/shared/rules read for their paragraphs: does a citation's paragraph
exist in the text it names? (tests/engine/test_citations.py). Each text marks its paragraphs its
own way: 000 a marker alone on a line ("(n)", "(13)"); 001 a section "19:47-11.11" with "(m)" and
"1." at a line's start; 002 a heading; 003 a heading with its numbered items ("5. ..."); 004 a
numbered paragraph ("(5)")."""

from __future__ import annotations

import os
import re
from pathlib import Path

FOLDER = Path(os.environ.get("PITDESK_RULE_TEXTS", "/work/shared/rules"))


def text_lines(text: str) -> list[str] | None:
    found = sorted(FOLDER.glob(f"{text}_*.txt")) if FOLDER.is_dir() else []
    return [line.strip() for line in found[0].read_text(encoding="utf-8").splitlines()] if found else None


def _chain(s: str) -> list[str]:
    return re.findall(r"\(([^()]+)\)", s)


def _000(lines: list[str], para: str) -> bool:
    """"(n)(13)", "(q)(2), (3)(i), (5)", "(m)(12),(13)": each chain found in order after its
    letter's section begins (the letters found in order, a, b, c, ...)."""
    first, *more = [p.strip() for p in para.split(",")]
    head = _chain(first)
    chains = [head] + [head[:1] + _chain(m) for m in more]
    letters, at = {}, 0
    for i, line in enumerate(lines):
        want = chr(ord("a") + len(letters))
        # (i), (v) and (x) are also the numerals under a paragraph: a section's letter has its title
        # and then its (1)
        if line == f"({want})" and (want not in "ivx" or lines[i + 2:i + 3] == ["(1)"]):
            letters[want] = i
    for chain in chains:
        top = chain[0]
        if top not in letters:
            return False
        nxt = chr(ord(top) + 1)
        end = letters.get(nxt, len(lines))
        at = letters[top]
        for marker in chain[1:]:
            at = next((j for j in range(at + 1, end) if lines[j] == f"({marker})"), None)
            if at is None:
                return False
    return True


def _001(lines: list[str], para: str) -> bool:
    """"11.11(m)", "11.9(g)3", "11.14(e), (f)", "11.8C(b)": the section, its lettered paragraph, the
    numbered one within it."""
    m = re.fullmatch(r"(11\.\d+[A-Z]?)\(([a-z])\)(\d*)((?:, \([a-z]\))*)", para)
    if not m:
        return False
    section, letter, number, more = m.groups()
    starts = [i for i, line in enumerate(lines) if line.startswith(f"19:47-{section} ")]
    if not starts:
        return False
    start = starts[-1]   # the section itself, after the table of contents
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("19:47-11.")), len(lines))
    for ltr in [letter] + re.findall(r"\(([a-z])\)", more):
        at = next((i for i in range(start, end) if lines[i].startswith(f"({ltr}) ")), None)
        if at is None:
            return False
        if number and ltr == letter:
            stop = next((i for i in range(at + 1, end) if re.match(r"\([a-z]\) ", lines[i])), end)
            if not any(lines[i].startswith(f"{number}. ") for i in range(at + 1, stop)):
                return False
    return True


def _heading(lines: list[str], para: str) -> tuple[int, list[str]] | None:
    """The heading ``para`` begins with (the longest that is a line of the text), and the numbers
    after it."""
    words = para.split(" ")
    for n in range(len(words), 0, -1):
        head, rest = " ".join(words[:n]), " ".join(words[n:])
        at = next((i for i, line in enumerate(lines) if line.rstrip(":") == head), None)
        if at is not None and re.fullmatch(r"(\d+(, \d+)*)?", rest):
            return at, re.findall(r"\d+", rest)
    return None


def _003(lines: list[str], para: str) -> bool:
    found = _heading(lines, para)
    if found is None:
        return False
    at, numbers = found
    # the items run to the next heading: a line in capitals that does not end with a colon
    end = next((i for i in range(at + 1, len(lines)) if re.fullmatch(r"[A-Z][A-Z &'/,-]{3,}", lines[i])), len(lines))
    return all(any(lines[i].startswith(f"{n}. ") for i in range(at + 1, end)) for n in numbers)


def _004(lines: list[str], para: str) -> bool:
    return all(any(line.startswith(f"({n})") for line in lines) for n in re.findall(r"\((\d+)\)", para)) \
        and bool(re.fullmatch(r"\(\d+\)(, \(\d+\))*", para))


def _002(lines: list[str], para: str) -> bool:
    found = _heading(lines, para)
    return found is not None and not found[1]


CHECKS = {"000": _000, "001": _001, "002": _002, "003": _003, "004": _004}


def pieces(citation: str) -> list[tuple[str, str]]:
    """A citation's (text, paragraph) pieces: "003 GENERAL RULES 5; 000(n)(13)" -> (003, GENERAL
    RULES 5), (000, (n)(13)); words saying a text has no paragraph give none."""
    out = []
    for part in citation.split("; "):
        if "has no paragraph on this" in part:
            continue
        m = re.fullmatch(r"(00\d) ?(.+)", part.strip())
        out.append((m.group(1), m.group(2)) if m else ("", part))
    return out


def missing(citation: str) -> list[str]:
    """The pieces of ``citation`` whose paragraph the text it names does not have."""
    out = []
    for text, para in pieces(citation):
        lines = text_lines(text) if text else None
        if lines is None or not CHECKS[text](lines, para):
            out.append(f"{text} {para}".strip())
    return out
