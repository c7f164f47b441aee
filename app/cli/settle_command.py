"""``pitdesk settle ROUND.json``: a whole round through the settlement engine (docs/round-format.md)."""

from __future__ import annotations

import json

from app.rules.resources import profile

from .common import InputError, _json, _read_text


def add_parser(sub) -> None:
    st = sub.add_parser("settle", help="settle a round file and print the settlement as JSON",
                        description="Settle ROUND.json (docs/round-format.md) under the rule profile it names. "
                                    "Prints every wager's outcome, the ledger of chip movements with the rule "
                                    "behind each, approval requests and the aggregate-limit working.")
    st.add_argument("round_file", metavar="ROUND.json")


def run(args) -> int:
    from app.engine.round import RoundError, parse_round
    from app.engine.settle import settle

    path = args.round_file
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
