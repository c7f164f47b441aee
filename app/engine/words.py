"""Words for people: an amount, a logged time, a rule's citation, the name of a kind and an
event's data, each written one way for every screen, page and message (issue 27).

The engine, the log and the devices speak in whole cents, ISO times and identifiers
(``progressive_meter_payout``); a person reads dollars, a date and a time to the second, and
words. Pure: no Qt, no clock, so the engine's own refusals and notes use it too.
"""

from __future__ import annotations

import json
import re
from datetime import date, datetime
from typing import Any

from .money import dollars

NONE = "—"

# an ISO time as the log writes it: 2026-11-26T21:05:51.537790, with or without a zone
_ISO = re.compile(r"\b(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d(?::\d\d)?)(?:\.\d+)?(?:[+-]\d\d:\d\d|Z)?")
# "000 (s)(1)": a rule text's number and its paragraph with a stray space between
_CITED = re.compile(r"\b(\d{3}) +(?=\()")
_IDENTIFIER = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
_NAMED = re.compile(r"(?<![.\w\[])[a-z][a-z0-9]*(?:_[a-z0-9]+)+(?![\w.\[])")
_CARD = re.compile(r"(?:[2-9TJQKA][cdhs]|JK)")
# a few kinds whose words are not their identifier's (the rule texts hyphenate these)
_KIND_WORDS = {"co_bank": "co-bank", "player_dealer": "player-dealer", "w2g": "W-2G"}
# what an event's data never shows (a PIN's salt and hash, app/store/credentials.py)
SECRET = frozenset({"salt", "pin_hash", "pin"})


def money(cents: int | None) -> str:
    """``1000021`` -> ``$10,000.21``; None -> ``—``."""
    return NONE if cents is None else dollars(cents)


def when(t: str | datetime | None) -> str:
    """A logged time as a person reads it: the date and the time to the second, no ``T``, no
    microseconds (``2026-11-26 21:05:51``); "" for none."""
    if not t:
        return ""
    if isinstance(t, datetime):
        return f"{t:%Y-%m-%d %H:%M:%S}"
    return times_in(str(t))


def day_time(t: datetime | None) -> str:
    """A time of this shift as the views show it beside a tile: the day and the time (``Thu 21:05:51``)."""
    return "" if t is None else f"{t:%a %H:%M:%S}"


def day(t: datetime | date) -> str:
    """A day as the views name one beside ``day_time``'s times: ``Sat 28 Nov`` (issue 33, 5)."""
    return f"{t:%a} {t.day} {t:%b}"


def period(start: datetime, end: datetime) -> str:
    """A chosen period in the same words: ``Fri 20 Nov 14:00 to Sun 22 Nov 14:00``."""
    return f"{day(start)} {start:%H:%M} to {day(end)} {end:%H:%M}"


def times_in(text: str) -> str:
    """``text`` with every ISO time in it written as ``when`` writes one."""
    return _ISO.sub(lambda m: f"{m.group(1)} {m.group(2)}", text)


def citation(text: str | None) -> str:
    """A rule citation as the rule texts' numbers are cited everywhere: ``000 (s)(1)`` -> ``000(s)(1)``."""
    return _CITED.sub(r"\1", text or "")


def kind(name: str | None) -> str:
    """An identifier (a kind, a wager, an event's type, a state) in words: ``fortune_toke`` ->
    ``fortune toke``, ``co_bank`` -> ``co-bank``."""
    if not name:
        return ""
    return _KIND_WORDS.get(name, name.replace("_", " "))


def signed(name: str | None, role: str | None = None, second: str | None = None,
           second_role: str | None = None) -> str:
    """Who decided, and who counter-signed at their session where someone did:
    ``demo-floor (floor supervisor), counter-signed by demo-pit (pit manager)``; "" for nobody."""
    if not name:
        return ""
    who = f"{name} ({role})" if role else name
    if second:
        who += f", counter-signed by {second} ({second_role})" if second_role else f", counter-signed by {second}"
    return who


def refusal(text: str) -> str:
    """A refusal of the procedures (``no_more_bets: not allowed while the table is round_complete``)
    with the events and states it names in words (``no more bets: ... is round complete``); a
    round file's field path (``banking.dealer_wager``) is kept, as it names the field at fault."""
    return _NAMED.sub(lambda m: kind(m.group(0)), text)


def key(name: str) -> str:
    """An event's field in words: ``win_cents`` -> ``win``, ``cents`` -> ``amount``."""
    if name == "cents":
        return "amount"
    return kind(name[:-len("_cents")] if name.endswith("_cents") else name)


def value(name: str, v: Any, depth: int = 0) -> str:
    """One value of an event's data in words: amounts in dollars, times as times, cards as
    ``8h 4d 2c``, identifiers in words, a nested record summarised by its fields."""
    if v is None:
        return NONE
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, int) and (name == "cents" or name.endswith("_cents")):
        return money(v)
    if isinstance(v, (int, float)):
        return str(v)
    if isinstance(v, str):
        return kind(v) if _IDENTIFIER.fullmatch(v) else citation(times_in(v))
    if isinstance(v, (list, tuple)):
        if v and all(isinstance(c, str) and _CARD.fullmatch(c) for c in v):
            return " ".join(v)
        if depth or any(isinstance(x, (dict, list, tuple)) for x in v):
            return f"{len(v)} item{'' if len(v) == 1 else 's'}"
        return ", ".join(value(name, x, depth + 1) for x in v)
    if isinstance(v, dict):
        if name == "round_file" and not depth:
            # the round as settled, summed up: its every field is the Rounds tab's (issue 33, 5)
            seats = v.get("seats") or []
            bank = (v.get("banking") or {}).get("mode") or "house"
            return f"{len(seats)} seat{'' if len(seats) == 1 else 's'}, {kind(bank)} bank (the round panel's Rounds tab)"
        if depth:
            return f"{len(v)} field{'' if len(v) == 1 else 's'}"
        return "(" + "; ".join(f"{key(str(k))} {value(str(k), x, depth + 1)}" for k, x in v.items()
                               if k not in SECRET) + ")"
    return str(v)


# a settlement's fields that hold an amount in cents (app/engine/settle.py ``Settlement.as_json``),
# and the records whose every number is one (the net by party)
MONEY_FIELDS = frozenset({"stake", "win", "commission", "net", "before", "after", "meter", "center", "house", "tokes",
                          "cap", "envy_first", "shared", "shares", "claims"})
MONEY_RECORDS = frozenset({"net_by_party", "claims", "shares"})


def outline(v: Any, name: str = "", indent: str = "") -> str:
    """A record as logged (a settlement, a round file), every field in words, one a line, nested
    records indented under their field: ``amount: $5.00`` for ``"cents": 500``, ``aggregate
    limits:`` for ``aggregate_limits`` (issue 33, 5). Nothing left out but a PIN's secrets."""
    lines: list[str] = []

    def scalar(x) -> bool:
        return not isinstance(x, (dict, list, tuple)) or (
            isinstance(x, (list, tuple)) and (not x or all(not isinstance(c, (dict, list, tuple)) for c in x)))

    def word(k: str, y, parent: str) -> str:
        if isinstance(y, int) and not isinstance(y, bool) and (k in MONEY_FIELDS or parent in MONEY_RECORDS):
            return money(y)
        if isinstance(y, str):          # a reason naming a hand ("on three_of_a_kind") in words too
            return refusal(value(k, y))
        return value(k, y) if y != [] else NONE

    def walk(name: str, x, pad: str) -> None:
        if isinstance(x, dict):
            for k, y in x.items():
                if k in SECRET:
                    continue
                if scalar(y):
                    lines.append(f"{pad}{key(str(k))}: {word(str(k), y, name)}")
                else:
                    lines.append(f"{pad}{key(str(k))}:")
                    walk(str(k), y, pad + "  ")
        elif isinstance(x, (list, tuple)):
            for n, y in enumerate(x, 1):
                if scalar(y):
                    lines.append(f"{pad}{n}. {word(name, y, '')}")
                else:
                    lines.append(f"{pad}{n}.")
                    walk(name, y, pad + "  ")
        else:
            lines.append(f"{pad}{value(name, x)}")
    walk(name, v, indent)
    return "\n".join(lines)


def data(d: dict | str | None, near: datetime | None = None) -> str:
    """An event's data as words (``amount $10,000.00; deck blue; time 2026-11-26 21:05:51``),
    never a PIN's salt or hash. A text that is not a JSON record is shown as it is. ``near``: the
    event's own time; a time in its data within a few days of it is worded as the tiles word one
    (``Sat 12:19:56``, issue 33, 5)."""
    if not d:
        return ""
    if isinstance(d, str):
        try:
            d = json.loads(d)
        except ValueError:
            return _near(times_in(d), near)
    if not isinstance(d, dict):
        return _near(value("", d), near)
    return _near("; ".join(f"{key(k)}: {value(k, v)}" for k, v in d.items() if k not in SECRET), near)


_WHEN = re.compile(r"\b(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\b")
NEAR_DAYS = 6           # a weekday names a day unambiguously within a week of the event


def _near(text: str, near: datetime | None) -> str:
    if near is None:
        return text

    def word(m: re.Match) -> str:
        t = datetime.fromisoformat(m.group(1))
        return day_time(t) if abs((t - near).days) <= NEAR_DAYS else m.group(1)
    return _WHEN.sub(word, text)


__all__ = ["NONE", "SECRET", "citation", "data", "day", "day_time", "outline", "period", "key", "kind", "money", "refusal", "signed", "times_in",
           "value", "when"]
