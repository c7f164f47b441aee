"""``pitdesk audit verify|export|backup``: the tamper-evident log from the command line (docs/audit.md).

Output is JSON; an audit log that does not verify exits 1 naming the first bad row, and a
refused command exits 2 with the reason. Commands that only read (``audit verify``, ``audit
export``, the source of ``audit backup``) never create a database: "no audit database at PATH",
exit 2.
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path

from .common import EXIT_BAD_INPUT, _db

EXIT_NOT_VERIFIED = 1


def add_parser(sub) -> None:
    au = sub.add_parser("audit", help="verify and export the tamper-evident event log")
    asub = au.add_subparsers(dest="audit_command", metavar="ACTION", required=True)
    v = asub.add_parser("verify", help="check the whole chain; name the first bad row",
                        description="Check every row's link, hash, columns and seal, and the tail against the head "
                                    "recorded outside the database. Exit 0 if good, 1 naming the first bad row.")
    where = v.add_mutually_exclusive_group()
    where.add_argument("--db", help="the audit database (default: pitdesk.db in the user data directory)")
    where.add_argument("--demo", action="store_true", help="the demo floor's log (demo.db, as make run keeps it)")
    v.add_argument("--export", metavar="FILE.jsonl", help="verify an export instead of a database")
    v.add_argument("--head", metavar="SEQ:HASH", help="the head printed on the last report, to detect a truncated tail")
    v.add_argument("--key", metavar="FILE", help="the workstation's install key (a copy of its install.key), to check "
                                                  "the seals of a database or an export; without it, this install's "
                                                  "key checks them only if it sealed the log (or the export), else the "
                                                  "chain alone is checked (\"seals\": \"not checked\")")
    ex = asub.add_parser("export", help="write the log with its chain as JSON lines")
    ex.add_argument("--db")
    ex.add_argument("--out", required=True, metavar="FILE.jsonl")
    bk = asub.add_parser("backup", help="a consistent copy of the log, with its own sealed head",
                         description="Copy the audit database while the workstation runs (SQLite's backup API) into "
                                     "one new file with its own id and its head sealed with the install key; "
                                     "'audit verify --db FILE' checks the copy. Exit 0 if the copy verifies, 1 if "
                                     "not (the copy is kept), 2 if no copy was made.")
    bk.add_argument("--db", help="the audit database to copy (default: the user data directory)")
    bk.add_argument("--out", required=True, metavar="FILE", help="the new file (never replaces one)")


def run(args) -> int:
    try:
        return _audit(args)
    except KeyError as e:  # the install key is missing or unreadable
        print(f"pitdesk: error: {e.args[0]}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _audit(args) -> int:
    from app.store import audit, backup, paths
    from app.store.reading import missing
    db = paths.demo_db() if getattr(args, "demo", False) else _db(args)
    if not getattr(args, "export", None) and not db.exists():  # before the key: the database is the first thing missing
        hint = ""
        if not args.db and not getattr(args, "demo", False) and paths.demo_db().exists():
            hint = f" (the demo floor's log is {paths.demo_db()}: pitdesk audit verify --demo)"
        print(f"pitdesk: error: {missing(db)}{hint}", file=sys.stderr)
        return EXIT_BAD_INPUT
    given = getattr(args, "key", None)
    if given:
        key, key_where = paths.read_key(Path(given)), given
    elif args.audit_command == "verify":
        # away from the workstation (an auditor's machine): no key, or another install's, is not
        # tampering; the chain is checked and the JSON says the seals were not (docs/audit.md),
        # for a database and an export alike
        key_where = str(paths.key_file())
        try:
            key = paths.install_key(create=False)
        except KeyError as e:
            key, key_where = None, (f"no install key at {key_where}" if not Path(key_where).exists() else e.args[0])
    else:
        key, key_where = paths.install_key(create=False), ""
    try:
        if args.audit_command == "backup":
            rep, info = backup.take(db, Path(args.out), key, datetime.now().astimezone())
            print(json.dumps({**info, "verified": rep.as_json()}, indent=2))
            if not rep.ok:
                print(f"pitdesk: the backup {args.out} does not verify: {rep.finding}", file=sys.stderr)
                return EXIT_NOT_VERIFIED
            return 0
        if args.audit_command == "export":
            out = Path(args.out)
            rep = audit.export(db, out, key)
            print(json.dumps({"exported": rep.rows, "out": str(out), "verified": rep.as_json()}, indent=2))
            return 0 if rep.ok else EXIT_NOT_VERIFIED
        if getattr(args, "export", None):
            rep = audit.verify_export(Path(args.export), key, key_given=bool(given), key_where=key_where)
        else:
            head = audit.parse_head(args.head) if args.head else None
            rep = audit.verify_db(db, key, head, key_given=bool(given), key_where=key_where)
    except (OSError, ValueError) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(json.dumps(rep.as_json(), indent=2))
    if not rep.ok:
        print(f"pitdesk: audit log does not verify: {rep.finding}", file=sys.stderr)
        return EXIT_NOT_VERIFIED
    return 0
