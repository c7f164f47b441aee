"""``pitdesk ratings``: the rated players of a period, from the rounds they sat in
(app/workstation/ratings.py, docs/ratings.md). Read-only on the database.

The log is checked first, as for ``pitdesk hold``: a log that fails its check gives nothing (exit 1
naming the row and the kind) unless ``--unverified`` asks for it, then marked NOT VERIFIED."""

from __future__ import annotations

import json
import sys
from datetime import datetime

from app.engine import words

from .common import EXIT_BAD_INPUT, _db, refuse_unverified
from .hold_command import parse_time


def add_parser(sub) -> None:
    p = sub.add_parser("ratings", help="player ratings: each rated player's rounds, time, wagers, actual and "
                                       "theoretical win",
                       description="The rated players of a period, from the rounds each sat in (not a guessed "
                                   "average bet): rounds, minutes, wagered in all and per wager type, average "
                                   "wager, actual (what the player lost; negative: won) and theoretical win (each "
                                   "wager times its house edge in the table's rules), in cents. Per player's card "
                                   "(the ratings added) or --by rating (each sitting apart).")
    p.add_argument("--db", help="the audit database (default: the user data directory)")
    p.add_argument("--from", dest="start", metavar="DATETIME", required=True,
                   help="from this time on (local, 'YYYY-MM-DD HH:MM' or 'YYYY-MM-DD')")
    p.add_argument("--to", dest="end", metavar="DATETIME", help="up to, not including, this time (default: now)")
    p.add_argument("--table", help="one table's ratings only")
    p.add_argument("--by", choices=("player", "rating"), default="player",
                   help="one line per player's card (default), or per rating (a sitting at one table)")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print JSON instead of a table")
    out.add_argument("--csv", metavar="FILE", help="write the lines as CSV to FILE ('-': standard output)")
    p.add_argument("--unverified", action="store_true",
                   help="show the ratings even when the log fails its check, marked NOT VERIFIED")


def run(args) -> int:
    from app.store.reading import NotALog, missing
    from app.workstation.ratings import PLAYER_CSV, RATING_CSV, by_player, read_ratings
    from app.workstation.theoretical import TheoryUnavailable
    start = parse_time(args.start, "--from")
    end = parse_time(args.end, "--to") if args.end else datetime.now().replace(microsecond=0)
    if end <= start:
        print(f"pitdesk: error: --to {args.end} is not after --from {args.start}", file=sys.stderr)
        return EXIT_BAD_INPUT
    db = _db(args)
    try:
        if not db.exists():
            raise FileNotFoundError(missing(db))
        found, verified = read_ratings(db, start, end, args.table)
    except (NotALog, FileNotFoundError, TheoryUnavailable) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not verified.ok and not args.unverified:
        return refuse_unverified("the ratings", verified)
    now = min(end, datetime.now())
    if args.by == "rating":
        lines, keys = [r.as_json(now, start, end) for r in found], RATING_CSV
    else:
        lines, keys = [p.as_json() for p in by_player(found, now, start, end)], PLAYER_CSV
    if args.csv:
        return _csv(args.csv, lines, keys, verified)
    data = {"db": str(db), "from": start.isoformat(timespec="minutes"), "to": end.isoformat(timespec="minutes"),
            "by": args.by, "ratings": lines, "verified": verified.as_json()}
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    print(("NOT VERIFIED: " + verified.words() + "\n") if not verified.ok else "", end="")
    print(text(lines))
    return 0


def _csv(path: str, lines: list[dict], keys: tuple[str, ...], verified) -> int:
    """The lines as CSV (app/workstation/ratings.py ``csv_text``), written whole or not at all."""
    from pathlib import Path

    from app.reports.whole_file import write_whole
    from app.workstation.ratings import csv_text
    text_ = csv_text(lines, keys, "" if verified.ok else f"NOT VERIFIED: {verified.words()}")
    if path == "-":
        sys.stdout.write(text_)
        return 0
    try:
        write_whole(Path(path), text_.encode("utf-8"))
    except OSError as e:
        print(f"pitdesk: error: cannot write {path}: {e.strerror or e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(f"{len(lines)} line(s) written to {path}", file=sys.stderr)
    return 0


def text(lines: list[dict]) -> str:
    """The ratings as a person reads them, money in dollars."""
    head = f"{'player':<14} {'name':<18} {'rounds':>6} {'minutes':>7} {'wagered':>13} {'average':>10} " \
           f"{'actual':>12} {'theoretical':>12}"
    out = [head]
    for r in lines:
        out.append(f"{r['player']:<14} {(r['name'] or '')[:18]:<18} {r['rounds']:>6} {r['minutes']:>7} "
                   f"{words.money(r['wagered']):>13} {words.money(r['average_wager']):>10} "
                   f"{words.money(r['actual']):>12} {words.money(r['theoretical']):>12}")
    if not lines:
        out.append("no rated player in the period")
    return "\n".join(out)
