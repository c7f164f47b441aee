"""``pitdesk users init|add|role|lock|unlock|list``: people, roles and PINs (docs/audit.md, "People").

PINs are read from the terminal without echo, or one per line from stdin with ``--pin-stdin``
or whenever stdin is not a terminal (a pipe, a script). Output is JSON; a refused command exits
2 with the reason. ``users list`` only reads: it never creates a database.
"""

from __future__ import annotations

import argparse
import json
import sys
from datetime import datetime

from app.engine.roles import PEOPLE as ROLES

from .common import EXIT_BAD_INPUT, _db, _pin



def add_parser(sub) -> None:
    us = sub.add_parser("users", help="users, roles and PINs")
    usub = us.add_subparsers(dest="users_command", metavar="ACTION", required=True)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--db")
    common.add_argument("--pin-stdin", action="store_true", help="read PINs from stdin, one per line")
    init = usub.add_parser("init", parents=[common], help="first run: create the administrator")
    init.add_argument("name")
    for action, text in (("add", "add a user (an administrator signs in)"),
                         ("role", "set a user's role (an administrator signs in)"), ("lock", "lock a user"),
                         ("unlock", "unlock a user")):
        p = usub.add_parser(action, parents=[common], help=text)
        p.add_argument("name")
        if action == "role":
            p.add_argument("role", choices=ROLES, metavar="ROLE",
                           help="the new role: dealer, 'floor supervisor', 'pit manager' or administrator")
        p.add_argument("--as", dest="admin", required=True, metavar="ADMIN", help="the administrator signing in")
        if action == "add":
            p.add_argument("--role", required=True, choices=ROLES)
    usub.add_parser("list", parents=[common], help="users, roles and lockouts")


def run(args) -> int:
    try:
        return _users(args)
    except KeyError as e:  # the install key is missing or unreadable
        print(f"pitdesk: error: {e.args[0]}", file=sys.stderr)
        return EXIT_BAD_INPUT


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
            # the sign-in is paired with a sign-out however the command ends (issue 35, finding 9)
            try:
                _admin_command(args, users, session, now)
            except BaseException as e:
                _signed_out(log, session, now, f"refused: {e}" if isinstance(e, (UserError, ValueError)) else
                            f"stopped: {type(e).__name__}")
                raise
            _signed_out(log, session, now, "command done")
            return 0
    except (UserError, ValueError, StoreError, OSError) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _signed_out(log, session, now, reason: str) -> None:
    from app.store import rows
    log.append_many([rows.signed_out(now, session.name, session.role, reason)])


def _admin_command(args, users, session, now) -> None:
    """One administrator's command, signed in as ``session``."""
    if args.users_command == "add":
        users.add(session, args.name, args.role, _pin(args, f"PIN for {args.name}: "), now)
        print(json.dumps({"created": args.name, "role": args.role, "by": session.name}))
    elif args.users_command == "role":
        was = (users.get(args.name) or {}).get("role")
        users.set_role(session, args.name, args.role, now)
        print(json.dumps({"name": args.name, "role": args.role, "was": was, "by": session.name}))
    elif args.users_command == "lock":
        users.lock(session, args.name, now)
        print(json.dumps({"locked": args.name, "by": session.name}))
    else:
        users.unlock(session, args.name, now)
        print(json.dumps({"unlocked": args.name, "by": session.name}))
