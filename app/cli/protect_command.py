"""``pitdesk protect``: what is out of line, per table, shift and wager type, from the exact wagers
and the exact odds (app/workstation/protection.py, docs/protection.md). Read-only on the database.

The log is checked first, as for ``pitdesk hold``: a log that fails its check gives nothing (exit 1
naming the row and the kind) unless ``--unverified`` asks for it, then marked NOT VERIFIED."""

from __future__ import annotations

import json
import sys
from datetime import datetime

from app.engine import words

from .common import EXIT_BAD_INPUT, InputError, _db, refuse_unverified
from .hold_command import parse_time


def add_parser(sub) -> None:
    p = sub.add_parser("protect", help="game protection: each table's result against its exact odds, in sigmas",
                       description="For each table and shift, and each wager type apart, the house's actual net "
                                   "against its expectation, in standard deviations of the house's net over those "
                                   "very wagers (the exact variance of each wager's outcome, from the pay tables' "
                                   "exact odds; the base game's from its estimate). |z| at or over the threshold "
                                   "is a notice: where to look, not an accusation (docs/protection.md).")
    p.add_argument("--db", help="the audit database (default: the user data directory)")
    p.add_argument("--from", dest="start", metavar="DATETIME", required=True,
                   help="from this time on (local, 'YYYY-MM-DD HH:MM' or 'YYYY-MM-DD')")
    p.add_argument("--to", dest="end", metavar="DATETIME", help="up to, not including, this time (default: now)")
    p.add_argument("--threshold", type=float, default=None, metavar="Z",
                   help="|z| at which a check is a notice (default 3: about 0.27%% of calm checks)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.add_argument("--unverified", action="store_true",
                   help="show the checks even when the log fails its check, marked NOT VERIFIED")


def run(args) -> int:
    from app.store.reading import NotALog, missing
    from app.workstation.protection import THRESHOLD, HoldError, as_json, read_checks
    from app.workstation.theoretical import TheoryUnavailable
    start = parse_time(args.start, "--from")
    end = parse_time(args.end, "--to") if args.end else datetime.now().replace(microsecond=0)
    threshold = THRESHOLD if args.threshold is None else args.threshold
    if not 0 < threshold < 100:
        raise InputError(f"--threshold {args.threshold}: give |z| above 0 (3 is about 0.27% of calm checks)")
    db = _db(args)
    try:
        if not db.exists():
            raise FileNotFoundError(missing(db))
        checks, verified = read_checks(db, start, end)
    except (HoldError, NotALog, FileNotFoundError, TheoryUnavailable) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    if not verified.ok and not args.unverified:
        return refuse_unverified("the protection checks", verified)
    data = {"db": str(db), **as_json(checks, start, end, threshold), "verified": verified.as_json()}
    if args.json:
        print(json.dumps(data, indent=2))
        return 0
    print(("NOT VERIFIED: " + verified.words() + "\n") if not verified.ok else "", end="")
    print(text(data))
    return 0


def text(data: dict) -> str:
    """The checks as a person reads them: the notices first, then every check, money in dollars."""
    head = f"{'table':<6} {'shift':<18} {'wager':<16} {'rounds':>6} {'wagered':>14} {'house net':>13} " \
           f"{'expected':>13} {'sigma':>12} {'z':>7}"

    def line(r: dict) -> str:
        z = "—" if r["z"] is None else f"{r['z']:+.2f}"
        return (f"{r['table']:<6} {r['shift']:<18} {r['wager']:<16} {r['rounds']:>6} {words.money(r['wagered']):>14} "
                f"{words.money(r['actual']):>13} {words.money(r['expected']):>13} {words.money(r['sigma']):>12} {z:>7}")

    def award(r: dict) -> str:
        return (f"{r['table']:<6} {r['shift']:<18} {r['wager']:<16} {r['hits']} top award(s) hit in {r['wagers']:,} "
                f"wagers, {r['expected']:.4f} expected: {r['tail']:.2g} by the odds alone ({', '.join(r['lines'])})")

    def player(r: dict) -> str:
        z = "—" if r["z"] is None else f"{r['z']:+.2f}"
        return (f"player {r['player']} ({r['name'] or 'no name'}, {', '.join(r['tables'])}) {r['wager']}: "
                f"{r['rounds']} rounds, {words.money(r['wagered'])} wagered, house net {words.money(r['actual'])} "
                f"against {words.money(r['expected'])} expected, sigma {words.money(r['sigma'])}, z {z}")

    def drop(r: dict) -> str:
        lo, hi = r["band_95"]
        return (f"{r['table']:<6} win-to-drop {r['win_to_drop']:.2%} ({words.money(r['win'])} of "
                f"{words.money(r['drop'])}, {r['shifts']} shift(s)); its 95% band {lo:.2%} to {hi:.2%}"
                + ("  OUTSIDE" if r["notice"] else ""))

    notices = data["notices"]
    out = [f"Where to look, |z| >= {data['threshold']:g} or top awards as rare: " + (f"{len(notices)}" if notices
                                                                                       else "none")]
    sigmas = [r for r in notices if r["scope"] == "table"]
    if sigmas:
        out += [head] + [line(r) for r in sigmas]
    out += [award(r) for r in notices if r["scope"] == "top_awards"]
    out += [player(r) for r in notices if r["scope"] == "player"]
    out += [drop(r) for r in notices if r["scope"] == "win_to_drop"]
    out += ["", f"Every check ({len(data['checks'])}):", head] + [line(r) for r in data["checks"]]
    out += ["", f"Top awards ({data['top_award']}), every count ({len(data['top_awards'])}):"] + \
        [award(r) for r in data["top_awards"]]
    out += ["", "Win-to-drop, the table shifts opened in the period with their drop counted (Maryland COMAR "
                "36.05.03.25):"] + [drop(r) for r in data["win_to_drop"]]
    out += ["", f"Rated players, each wager type the house banks against them ({len(data['players'])}):"] + \
        [player(r) for r in data["players"]]
    return "\n".join(out)
