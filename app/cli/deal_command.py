"""``pitdesk deal position|order``: the starting position and the deal order by the texts' methods."""

from __future__ import annotations

import json

from app.engine.cards import CardError, parse_cards
from app.rules.resources import DEFAULT_PROFILE, profile

from .common import InputError


def add_parser(sub) -> None:
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


def run(args) -> int:
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
