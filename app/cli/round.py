"""``pitdesk round replay EVENTS.jsonl``: a table's state from its procedure events (docs/table-events.md)."""

from __future__ import annotations

import json

from app.resources import DEFAULT_PROFILE, profile

from .common import EXIT_BAD_INPUT, InputError, _json, _read_text


def add_parser(sub) -> None:
    rp = sub.add_parser("round", help="follow a table through its events")
    rsub = rp.add_subparsers(dest="round_command", metavar="ACTION", required=True)
    rr = rsub.add_parser("replay", help="rebuild a table's state from its events (JSON lines)",
                         description="Each line of EVENTS.jsonl is an event: {\"type\", \"time\" (ISO 8601), "
                                     "\"actor\", \"role\", ...}. Prints the resulting state and what is due, or "
                                     "the first refused event and why (exit 2).")
    rr.add_argument("events_file", metavar="EVENTS.jsonl")
    rr.add_argument("--profile", default=DEFAULT_PROFILE)


def run(args) -> int:
    from app.engine.procedure import Event, Refused, due, replay

    path = args.events_file
    rules = profile(args.profile).rules
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
