"""``pitdesk analyze enumerate|paytables``: exact analysis (app/analysis.py, docs/analysis.md)."""

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


def run(args) -> int:
    from app import analysis   # numpy and the enumeration: loaded only for this command
    if args.analyze_command == "enumerate":
        return analysis.enumerate_command(args.out, args.workers)
    return analysis.paytables_command(args.counts, as_json=args.json)
