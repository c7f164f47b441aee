"""``pitdesk analyze enumerate|paytables|base``: exact analysis (app/analysis/enumeration.py, docs/analysis.md) and the
base game's estimate (app/analysis/estimate.py)."""

from __future__ import annotations


def add_parser(sub) -> None:
    an = sub.add_parser("analyze", help="exact analysis of every seven-card hand and every pay table")
    asub = an.add_subparsers(dest="analyze_command", metavar="ACTION", required=True)
    e = asub.add_parser("enumerate", help="classify all C(53,7) = 154,143,080 hands and write the counts")
    e.add_argument("--out", default="data/enumeration.json", help="counts file (default: data/enumeration.json)")
    e.add_argument("--workers", type=int, default=0, help="processes (default: one per core)")
    pt = asub.add_parser("paytables", help="probability of each line and the house edge of every pay table")
    pt.add_argument("--counts", default="data/enumeration.json",
                    help="counts from 'analyze enumerate' (default: data/enumeration.json)")
    pt.add_argument("--json", action="store_true", help="print JSON instead of a table")
    b = asub.add_parser("base", help="estimate the base game's house edge: the house way against itself",
                        description="Simulate the base game of every profile's house way, wheel and ties, seven "
                                    "hands a deal and every ordered pair of them, and write the counts the hold's "
                                    "theoretical figure and its interval come from (seeded: the same seed and deals "
                                    "give the same file).")
    b.add_argument("--out", default="resources/analysis/base-game.json",
                   help="counts file (default: resources/analysis/base-game.json, the one shipped)")
    b.add_argument("--deals", type=int, default=100_000, help="deals per group (default: 100000)")
    b.add_argument("--seed", type=int, default=1, help="seed (default: 1)")
    b.add_argument("--workers", type=int, default=0, help="processes (default: one per core)")


def run(args) -> int:
    from app.analysis import enumeration as analysis   # numpy and the enumeration: loaded only for this command
    if args.analyze_command == "enumerate":
        return analysis.enumerate_command(args.out, args.workers)
    if args.analyze_command == "base":
        from app.analysis import estimate
        return estimate.base_command(args.out, args.deals, args.seed, args.workers)
    return analysis.paytables_command(args.counts, as_json=args.json)
