"""``pitdesk audit`` and ``pitdesk users``: the audit store from the command line.

PINs are read from the terminal without echo, or one per line from stdin with ``--pin-stdin``
or whenever stdin is not a terminal (a pipe, a script). Output is JSON; a refused command exits
2 with the reason, and an audit log that does not verify exits 1 naming the first bad row.
Commands that only read (``users list``, ``audit verify``, ``audit export``, the source of
``audit backup``) never create a database: "no audit database at PATH", exit 2.
"""

from __future__ import annotations

import argparse
import getpass
import json
import sys
from datetime import datetime
from pathlib import Path

EXIT_NOT_VERIFIED = 1
EXIT_BAD_INPUT = 2


def _db(args) -> Path:
    from app.store import paths
    return Path(args.db) if args.db else paths.default_db()


def _pin(args, prompt: str) -> str:
    # getpass on a pipe falls back to echoing stdin with a GetPassWarning on stderr, or reads the
    # controlling terminal instead of the pipe the script wrote the PIN to; a pipe is read here
    if args.pin_stdin or not sys.stdin.isatty():
        line = sys.stdin.readline()
        if not line:
            raise ValueError("expected a PIN on stdin and got end of input")
        return line.rstrip("\r\n")
    return getpass.getpass(prompt)


def add_parsers(sub) -> None:
    au = sub.add_parser("audit", help="verify and export the tamper-evident event log")
    asub = au.add_subparsers(dest="audit_command", metavar="ACTION", required=True)
    v = asub.add_parser("verify", help="check the whole chain; name the first bad row",
                        description="Check every row's link, hash, columns and seal, and the tail against the head "
                                    "recorded outside the database. Exit 0 if good, 1 naming the first bad row.")
    v.add_argument("--db", help="the audit database (default: the user data directory)")
    v.add_argument("--export", metavar="FILE.jsonl", help="verify an export instead of a database")
    v.add_argument("--head", metavar="SEQ:HASH", help="the head printed on the last report, to detect a truncated tail")
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

    us = sub.add_parser("users", help="users, roles and PINs")
    usub = us.add_subparsers(dest="users_command", metavar="ACTION", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db")
    common.add_argument("--pin-stdin", action="store_true", help="read PINs from stdin, one per line")
    init = usub.add_parser("init", parents=[common], help="first run: create the administrator")
    init.add_argument("name")
    for action, text in (("add", "add a user (an administrator signs in)"), ("lock", "lock a user"),
                         ("unlock", "unlock a user")):
        p = usub.add_parser(action, parents=[common], help=text)
        p.add_argument("name")
        p.add_argument("--as", dest="admin", required=True, metavar="ADMIN", help="the administrator signing in")
        if action == "add":
            p.add_argument("--role", required=True,
                           choices=("dealer", "floor supervisor", "pit manager", "administrator"))
    usub.add_parser("list", parents=[common], help="users, roles and lockouts")


def run(args) -> int:
    try:
        if args.command == "audit":
            return _audit(args)
        return _users(args)
    except KeyError as e:  # the install key is missing or unreadable
        print(f"pitdesk: error: {e.args[0]}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _audit(args) -> int:
    from app.store import audit, backup, paths
    from app.store.reading import missing
    db = _db(args)
    if not getattr(args, "export", None) and not db.exists():  # before the key: the database is the first thing missing
        print(f"pitdesk: error: {missing(db)}", file=sys.stderr)
        return EXIT_BAD_INPUT
    key = paths.install_key(create=False)
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
            rep = audit.verify_export(Path(args.export), key)
        else:
            head = audit.parse_head(args.head) if args.head else None
            rep = audit.verify_db(db, key, head)
    except (OSError, ValueError) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(json.dumps(rep.as_json(), indent=2))
    if not rep.ok:
        print(f"pitdesk: audit log does not verify: {rep.finding}", file=sys.stderr)
        return EXIT_NOT_VERIFIED
    return 0


def _users(args) -> int:
    from app.store.log import AuditLog, StoreError
    from app.store.users import Users, UserError, list_users
    now = datetime.now().replace(microsecond=0)
    db = _db(args)
    try:
        if args.users_command == "list":
            print(json.dumps(list_users(db), indent=2))
            return 0
        # only 'init' makes a new database: a mistyped --db must not start an empty log that an
        # administrator's failed sign-in is then written to
        if args.users_command != "init" and not db.exists():
            raise ValueError(f"no audit database at {db} ('pitdesk users init NAME' creates one)")
        with AuditLog(db) as log:
            users = Users(log)
            if args.users_command == "init":
                pin = _pin(args, f"PIN for {args.name}: ")
                users.create_administrator(args.name, pin, now)
                print(json.dumps({"created": args.name, "role": "administrator"}))
                return 0
            session = users.sign_in(args.admin, _pin(args, f"{args.admin}'s PIN: "), now)
            if args.users_command == "add":
                users.add(session, args.name, args.role, _pin(args, f"PIN for {args.name}: "), now)
                print(json.dumps({"created": args.name, "role": args.role, "by": session.name}))
            elif args.users_command == "lock":
                users.lock(session, args.name, now)
                print(json.dumps({"locked": args.name, "by": session.name}))
            else:
                users.unlock(session, args.name, now)
                print(json.dumps({"unlocked": args.name, "by": session.name}))
            return 0
    except (UserError, ValueError, StoreError, OSError) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
