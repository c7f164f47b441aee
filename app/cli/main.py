"""The ``pitdesk`` command line: JSON out, for scripting and audits.

Bad input exits with status 2 and a message naming the fault. With ``--batch`` every stdin
line is one request and gets one JSON line back, in order; a bad line gets {"error": ...}
and the run ends with status 2 after the last line.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
from collections.abc import Callable

from app.engine.cards import CardError, cards_str, parse_cards
from app.engine.rank import compare, describe, legal_set
from app.resources import DEFAULT_PROFILE, ResourceError, names, profile

EXIT_BAD_INPUT = 2


class InputError(ValueError):
    pass


def _two_hands(text: str) -> tuple[str, str]:
    for sep in ("|", "/"):
        if sep in text:
            a, b = text.split(sep, 1)
            return a, b
    raise InputError(f"expected two hands separated by '|' or '/', got {text.strip()!r}")


# -- hand commands: each takes the request text and the profile, returns a JSON object ----
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
    from app.resources import paytable

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


def _read_text(path: str, what: str) -> str:
    from pathlib import Path

    try:
        return Path(path).read_text()
    except OSError as e:
        raise InputError(f"cannot read {what} {path}: {e.strerror}") from None


def _json(text: str, where: str):
    """One JSON document; a bad one, or one nested too deeply to read, is the file's fault."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{where}: not valid JSON: {e}") from None
    except RecursionError:
        raise InputError(f"{where}: the JSON is nested too deeply to read") from None


def replay_command(path: str, profile_name: str) -> int:
    from app.engine.procedure import Event, Refused, due, replay

    rules = profile(profile_name).rules
    lines = _read_text(path, "events file").splitlines()
    events = []
    for n, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            events.append((n, Event.from_json(_json(line, f"{path}:{n}"))))
        except Refused as e:
            raise InputError(f"{path}:{n}: {e}") from None
    state, refused = replay([e for _, e in events], rules)
    out = {"state": state.as_json()}
    if state.last_time is not None:
        out["due"] = due(state, rules, state.last_time)
    if refused:
        i, event, reason = refused
        out["refused"] = {"line": events[i][0], "type": event.type, "reason": reason}
        print(json.dumps(out, indent=2))
        return EXIT_BAD_INPUT
    print(json.dumps(out, indent=2))
    return 0


def deal_command(args) -> int:
    from app.engine import deal, position
    from app.engine.position import PositionError

    rules = profile(args.profile).rules
    try:
        if args.deal_command == "position":
            if args.method not in rules.procedures.starting_position:
                raise InputError(f"profile {rules.name!r} determines the starting position by "
                                 f"{', '.join(rules.procedures.starting_position)}, not {args.method!r}")
            if args.method in ("dice", "rng"):
                out = position.METHODS[args.method](args.value, args.bank)
            elif args.method == "action":
                if args.bank is None:
                    raise InputError("--bank: the player-dealer's seat is needed for the action button (002)")
                out = position.action_button(args.value, args.bank)
            else:
                out = position.METHODS[args.method](args.value)
            print(json.dumps(out.as_json()))
            return 0
        if args.method not in rules.procedures.deal:
            raise InputError(f"profile {rules.name!r} deals by {', '.join(rules.procedures.deal)}, not {args.method!r}")
        cards = parse_cards(args.deck, count=53)
        start = 0 if args.start in ("0", "dealer") else int(args.start)
        ring = deal.PLAYER_DEALER_TABLE if "player-dealer" in rules.banking_modes else deal.DEALERS_TABLE
        direction = rules.procedures.delivery
        if args.method == "manual-shoe":
            out = deal.manual_shoe(cards, start, direction, ring)
        elif args.method == "hand":
            out = deal.from_hand(cards, start, args.first_stack, direction, ring)
        elif args.method == "automated-shoe":
            out = deal.automated_shoe(cards, start, direction, ring)
        else:
            seats = [int(x) for x in args.wagering.split(",") if x.strip()]
            out = deal.three_then_four(cards, seats)
        print(json.dumps(out.as_json()))
        return 0
    except (PositionError, deal.DealError, ValueError) as e:
        if isinstance(e, (CardError, InputError)):
            raise
        raise InputError(str(e)) from None


def settle_command(path: str) -> int:
    from app.engine.round import RoundError, parse_round
    from app.engine.settle import settle

    obj = _json(_read_text(path, "round file"), path)
    if not isinstance(obj, dict) or not isinstance(obj.get("profile"), str):
        raise InputError(f"{path}: a round file is a JSON object naming its 'profile'")
    prof = profile(obj["profile"])
    try:
        rnd = parse_round(obj, prof.rules)
        result = settle(rnd, prof.rules, prof.ranker(), prof.house())
    except RoundError as e:
        raise InputError(f"{path}: {e}") from None
    print(json.dumps(result.as_json(), indent=2))
    return 0


def _run(handler: Callable[[str], dict], args: argparse.Namespace) -> int:
    if args.batch:
        failed = False
        for line in sys.stdin:
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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pitdesk",
        description="pitdesk: the Pai Gow Poker pit supervisor's workstation. "
                    "Cards are written As Kd Th 10h 9c Jk (case-insensitive).")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

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
    p.add_argument("--meter", type=int, help="progressive meter in cents (default: the minimum reset, $10,000)")

    st = sub.add_parser("settle", help="settle a round file and print the settlement as JSON",
                        description="Settle ROUND.json (docs/round-format.md) under the rule profile it names. "
                                    "Prints every wager's outcome, the ledger of chip movements with the rule "
                                    "behind each, approval requests and the aggregate-limit working.")
    st.add_argument("round_file", metavar="ROUND.json")

    dl = sub.add_parser("deal", help="starting position and deal order (the table procedures)")
    dsub = dl.add_subparsers(dest="deal_command", metavar="ACTION", required=True)
    dp = dsub.add_parser("position", help="who receives the first card or stack",
                         description="Starting position by one of the texts' methods: dice (000(k)(2)), rng "
                                     "(000(k)(3)), button (000(k)(4): VALUE is rounds played), two-dice (004(4)), "
                                     "action (002: VALUE is the RNG number or dice total, --bank the player-dealer).")
    dp.add_argument("--profile", default=DEFAULT_PROFILE)
    dp.add_argument("--method", required=True, help="dice, rng, button, two-dice or action")
    dp.add_argument("--value", type=int, required=True)
    dp.add_argument("--bank", type=int, help="the player bank's (or player-dealer's) seat, counted as one")
    do = dsub.add_parser("order", help="which position receives which cards",
                         description="Deal a deck of 53 cards (top first) by one of the texts' methods: "
                                     "manual-shoe (000(h)), hand (000(i)), automated-shoe (000(j)), three-four "
                                     "(001 11.17).")
    do.add_argument("--profile", default=DEFAULT_PROFILE)
    do.add_argument("--method", required=True, help="manual-shoe, hand, automated-shoe or three-four")
    do.add_argument("--deck", required=True, help="the 53 cards in order, top first")
    do.add_argument("--start", default="0", help="first position: 0 or 'dealer', or a seat number (default 0)")
    do.add_argument("--first-stack", type=int, default=1, help="hand deal: the stack the bank picks (000(m)(9))")
    do.add_argument("--wagering", default="", help="three-four: the seats with a wager, e.g. 1,4,6")

    rp = sub.add_parser("round", help="follow a table through its events")
    rsub = rp.add_subparsers(dest="round_command", metavar="ACTION", required=True)
    rr = rsub.add_parser("replay", help="rebuild a table's state from its events (JSON lines)",
                         description="Each line of EVENTS.jsonl is an event: {\"type\", \"time\" (ISO 8601), "
                                     "\"actor\", \"role\", ...}. Prints the resulting state and what is due, or "
                                     "the first refused event and why (exit 2).")
    rr.add_argument("events_file", metavar="EVENTS.jsonl")
    rr.add_argument("--profile", default=DEFAULT_PROFILE)

    an = sub.add_parser("analyze", help="exact analysis of every seven-card hand and every pay table")
    asub = an.add_subparsers(dest="analyze_command", metavar="ACTION", required=True)
    e = asub.add_parser("enumerate", help="classify all C(53,7) = 154,143,080 hands and write the counts")
    e.add_argument("--out", default="data/enumeration.json", help="counts file (default: data/enumeration.json)")
    e.add_argument("--workers", type=int, default=0, help="processes (default: one per core)")
    pt = asub.add_parser("paytables", help="probability of each line and the house edge of every pay table")
    pt.add_argument("--counts", default="data/enumeration.json",
                    help="counts from 'analyze enumerate' (default: data/enumeration.json)")
    pt.add_argument("--json", action="store_true", help="print JSON instead of a table")
    from app.cli import audit as cli_store
    cli_store.add_parsers(sub)
    from app.cli import simulate as cli_simulate
    cli_simulate.add_parsers(sub)
    from app.cli import devices as cli_devices
    cli_devices.add_parsers(sub)
    from app.cli import gui as cli_gui
    cli_gui.add_parsers(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """The command; a reader that goes away (``| head -1``) or Ctrl-C ends it quietly."""
    try:
        return _dispatch(argv)
    except BrokenPipeError:
        # nothing more can reach the reader: point stdout at nothing so the interpreter's own
        # flush at exit does not fail again, and end as a process killed by SIGPIPE would
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except KeyboardInterrupt:
        return 128 + signal.SIGINT


def _dispatch(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command is None:
            parser.print_help()
            return 0
        if args.command == "hand":
            prof = profile(args.profile)
            handlers = {
                "rank": lambda t: hand_rank(t, prof),
                "compare": lambda t: hand_compare(t, prof),
                "legal": lambda t: hand_legal(t, prof),
                "set": lambda t: hand_set(t, prof, args.house_way),
                "bonus": lambda t: hand_bonus(t, prof, args.meter),
            }
            return _run(handlers[args.hand_command], args)
        if args.command == "round":
            return replay_command(args.events_file, args.profile)
        if args.command == "deal":
            return deal_command(args)
        if args.command == "settle":
            return settle_command(args.round_file)
        if args.command in ("audit", "users"):
            from app.cli import audit as cli_store
            return cli_store.run(args)
        if args.command == "simulate":
            from app.cli import simulate as cli_simulate
            return cli_simulate.run(args)
        if args.command == "devices":
            from app.cli import devices as cli_devices
            return cli_devices.run(args)
        if args.command == "gui":
            from app.cli import gui as cli_gui
            return cli_gui.run(args)
        if args.command == "analyze":
            from app import analysis
            if args.analyze_command == "enumerate":
                return analysis.enumerate_command(args.out, args.workers)
            return analysis.paytables_command(args.counts, as_json=args.json)
    except (CardError, InputError, ResourceError) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
