"""``pitdesk hand rank|compare|legal|set|bonus``: one hand (or, with ``--batch``, one a stdin
line) through the engine, a JSON object out.

With ``--batch`` every stdin line is one request and gets one JSON line back, in order; a bad
line gets {"error": ...} and the run ends with status 2 after the last line.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable

from app.engine.cards import CardError, cards_str, parse_cards
from app.engine.rank import compare, describe, legal_set
from app.rules.resources import DEFAULT_PROFILE, ResourceError, names, profile
from app.store.limited import LINE_CHARS, NotText, TooLarge, read_line

from .common import EXIT_BAD_INPUT, InputError


def _two_hands(text: str) -> tuple[str, str]:
    for sep in ("|", "/"):
        if sep in text:
            a, b = text.split(sep, 1)
            return a, b
    raise InputError(f"expected two hands separated by '|' or '/', got {text.strip()!r}")


# -- each takes the request text and the profile, returns a JSON object ----------------------
def hand_rank(text: str, prof) -> dict:
    cards = parse_cards(text, count=(5, 2))
    return describe(prof.ranker().hand(cards), prof.wheel)


def hand_compare(text: str, prof) -> dict:
    a_text, b_text = _two_hands(text)
    a = parse_cards(a_text, count=(5, 2))
    b = parse_cards(b_text, count=len(a))
    dup = set(a) & set(b)
    if dup:
        raise CardError(f"card {cards_str(sorted(dup))[0]!r} is in both hands")
    r = prof.ranker()
    return {"result": compare(r.hand(a), r.hand(b))}


def hand_legal(text: str, prof) -> dict:
    high_text, low_text = _two_hands(text)
    high = parse_cards(high_text, count=5)
    low = parse_cards(low_text, count=2)
    dup = set(high) & set(low)
    if dup:
        raise CardError(f"card {cards_str(sorted(dup))[0]!r} is in both hands")
    ok, reason = legal_set(prof.ranker(), high, low)
    return {"legal": ok, "reason": reason}


def hand_set(text: str, prof, house_way: str | None = None) -> dict:
    cards = parse_cards(text, count=7)
    s = prof.house(house_way).set(cards)
    return {"high": cards_str(s.high), "low": cards_str(s.low), "rule": s.rule}


def hand_bonus(text: str, prof, meter: int | None = None) -> dict:
    from app.engine import bonus
    from app.rules.resources import paytable

    cards = parse_cards(text, count=7)
    r = prof.ranker()
    v = bonus.view(cards, r)
    fortune_table = prof.paytables.get("fortune") or paytable("fortune-000")
    seven_table = prof.paytables.get("seven_card") or paytable("seven-card-001-b")
    prog_table = prof.paytables.get("progressive_1") or paytable("progressive-1")
    fcat, ftrips = bonus.fortune(cards, r, prof.royal_match, v)
    scat, strips = bonus.seven_card(cards, r, v)
    meter_cents = meter if meter is not None else prog_table.extras.get("minimum_reset", 1_000_000)
    prog = prog_table.best_progressive(bonus.progressive_lines(cards, r), meter_cents)
    return {
        "fortune": (fortune_table.line(fcat, ftrips) or fcat) if fcat != "none" else "none",
        "insurance": bonus.insurance(cards),
        "seven_card": (seven_table.line(scat, strips) if strips else scat),
        "three_card": bonus.three_card(cards[:3]),
        "ace_high": bonus.ace_high(cards, r, v),
        "progressive": prog or "none",
    }


def _run(handler: Callable[[str], dict], args: argparse.Namespace) -> int:
    if args.batch:
        failed = False
        while True:
            try:
                line = read_line(sys.stdin, LINE_CHARS, "a line of --batch input")
            except (TooLarge, NotText) as e:
                raise InputError(str(e)) from None
            if not line:
                break
            if not line.strip():
                continue
            try:
                out = handler(line)
            except (CardError, InputError, ResourceError, ValueError) as e:
                out, failed = {"error": str(e)}, True
            print(json.dumps(out), flush=False)
        sys.stdout.flush()
        return EXIT_BAD_INPUT if failed else 0
    text = " ".join(args.cards)
    if handler is not None and getattr(args, "two_hands", False) and len(args.cards) == 2 \
            and "|" not in text and "/" not in text:
        text = f"{args.cards[0]} | {args.cards[1]}"
    if not text.strip():
        raise InputError("no cards given (or use --batch to read them from stdin)")
    print(json.dumps(handler(text)))
    return 0


def _add_hand_parser(sub, name: str, help_text: str, cards_help: str, two_hands: bool = False):
    p = sub.add_parser(name, help=help_text, description=help_text)
    p.add_argument("cards", nargs="*", help=cards_help)
    p.add_argument("--profile", default=DEFAULT_PROFILE,
                   help=f"rule profile, one of {', '.join(names('rules'))} (default: {DEFAULT_PROFILE})")
    p.add_argument("--batch", action="store_true", help="one request per stdin line, one JSON object per line")
    p.set_defaults(two_hands=two_hands)
    return p


def add_parser(sub) -> None:
    hand = sub.add_parser("hand", help="rank, compare, check and set hands; classify bonuses")
    hs = hand.add_subparsers(dest="hand_command", metavar="ACTION", required=True)
    _add_hand_parser(hs, "rank", "rank a five-card high hand or two-card low hand", "five or two cards")
    _add_hand_parser(hs, "compare", "compare two hands of the same size: higher, lower or copy",
                     "HAND_A HAND_B (two quoted hands, or A | B)", two_hands=True)
    _add_hand_parser(hs, "legal", "is a set legal: five and two cards, high at least the low (001 11.9(a))",
                     "HIGH5 LOW2 (two quoted hands, or HIGH | LOW)", two_hands=True)
    p = _add_hand_parser(hs, "set", "set seven cards by a house way", "seven cards")
    p.add_argument("--house-way", choices=names("houseways"),
                   help="house way (default: the profile's)")
    p = _add_hand_parser(hs, "bonus", "bonus categories of seven cards (the first three for the three-card bonus)",
                         "seven cards, in the order dealt")
    p.add_argument("--meter", type=_meter, help="progressive meter in cents (default: the minimum reset, $10,000)")


def _meter(text: str) -> int:
    """``--meter``: a meter in cents, never below nothing (argparse names the flag on a ValueError)."""
    cents = int(text)
    if cents < 0:
        raise argparse.ArgumentTypeError(f"{text} is below zero: a progressive meter is 0 cents or more")
    return cents


def run(args) -> int:
    prof = profile(args.profile)
    handlers = {
        "rank": lambda t: hand_rank(t, prof),
        "compare": lambda t: hand_compare(t, prof),
        "legal": lambda t: hand_legal(t, prof),
        "set": lambda t: hand_set(t, prof, args.house_way),
        "bonus": lambda t: hand_bonus(t, prof, args.meter),
    }
    return _run(handlers[args.hand_command], args)
