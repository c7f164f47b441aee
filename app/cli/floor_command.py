"""``pitdesk floor migrate|verify|restore --pg URL``: the casino's server (app/store/pg, docs/casino.md).

``floor migrate`` applies the casino's schema, its roles and their grants, as the database's
owner. ``floor verify`` checks every workstation's chain as the server holds it, the seals too
where a key is given (``--key WS_ID=FILE``, repeated), and prints one line per workstation (or
JSON with ``--json``): exit 0 if every chain is good, 1 naming the first bad row of each that is
not, 2 for bad input or a server that cannot be reached. ``floor restore`` writes a workstation's
log back from the server's copy (app/store/pg/restore.py). ``floor register`` registers a
workstation: its name and its login (app/store/pg/register.py)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from .common import EXIT_BAD_INPUT, InputError

EXIT_NOT_VERIFIED = 1


def add_parser(sub) -> None:
    f = sub.add_parser("floor", help="the casino's PostgreSQL: its schema, and every workstation's chain verified")
    fsub = f.add_subparsers(dest="floor_command", metavar="ACTION", required=True)
    m = fsub.add_parser("migrate", help="apply the casino's schema, roles and grants (as the database's owner)",
                        description="Create or bring up to date the pitdesk schema on the casino's server: the events "
                                    "of every workstation, their heads, the refusals, the checks the server makes of "
                                    "every row that arrives, and the roles pitdesk_ship (may only insert) and "
                                    "pitdesk_floor (reads). Run as the database's owner (docs/casino.md).")
    m.add_argument("--pg", required=True, metavar="postgresql://USER@HOST/DB", help="the casino's server, as its owner")
    v = fsub.add_parser("verify", help="check every workstation's chain the server holds; one line each",
                        description="Check every workstation's chain as the casino's server holds it: the sequence, "
                                    "the links, every hash and the columns (in the server), the seals with the keys "
                                    "given, and the head the server recorded. One line per workstation. Exit 0 if all "
                                    "are good, 1 naming the first bad row of each that is not.")
    v.add_argument("--pg", required=True, metavar="postgresql://USER@HOST/DB", help="the casino's server")
    v.add_argument("--key", action="append", default=[], metavar="WS_ID=FILE",
                   help="a workstation's install key (a copy of its install.key) to check its seals; repeated for "
                        "each workstation (without it, that workstation's seals are not checked)")
    v.add_argument("--strict", action="store_true",
                   help="every registered workstation's key is required (--key), and a workstation not registered "
                        "that holds rows fails: each named, exit 1")
    v.add_argument("--json", action="store_true", help="print JSON instead of one line per workstation")
    g = fsub.add_parser("register", help="register one of the casino's workstations: its name and its login",
                        description="Register a workstation on the casino's server (as the database's owner): the "
                                    "name the floor knows it by and the one login of pitdesk_ship that may ship it. "
                                    "The server refuses rows of a workstation not registered, or from another login. "
                                    "Registering again changes the name or the login; every registration is kept "
                                    "(pitdesk.registrations). Prints JSON; exit 0, or 2 naming the fault.")
    g.add_argument("--pg", required=True, metavar="postgresql://USER@HOST/DB", help="the casino's server, as its owner")
    g.add_argument("--workstation", required=True, metavar="WS_ID", help="the workstation's id (pitdesk ship prints it)")
    g.add_argument("--name", required=True, metavar="NAME", help='the name the floor knows it by, e.g. "Pit 3"')
    g.add_argument("--login", required=True, metavar="LOGIN", help="the login (a member of pitdesk_ship) that ships it")
    r = fsub.add_parser("restore", help="write a workstation's log back from the casino's copy",
                        description="Write a workstation's log as the casino's server holds it (every row shipped, "
                                    "with its hash and seal) into a new audit database, after the server's check of "
                                    "its chain finds it whole: a workstation whose disk was lost goes on from its "
                                    "last shipped row, and its chain on the server goes on with it (docs/casino.md). "
                                    "Prints JSON; exit 0, or 2 naming the fault with nothing written.")
    r.add_argument("--pg", required=True, metavar="postgresql://USER@HOST/DB",
                   help="the casino's server, as a role of pitdesk_floor")
    r.add_argument("--workstation", required=True, metavar="WS_ID", help="the workstation, as floor verify names it")
    r.add_argument("--out", required=True, metavar="FILE.db", help="the new audit database (never replaces a file)")


def _keys(given: list[str]) -> dict[str, bytes]:
    from app.store import paths
    keys: dict[str, bytes] = {}
    for text in given:
        ws, sep, file = text.partition("=")
        if not sep or not ws or not file:
            raise InputError(f"--key {text!r} is not WS_ID=FILE (the workstation's id, as floor verify prints it, "
                             "and its key file)")
        if ws in keys:
            raise InputError(f"--key names the workstation {ws} twice")
        try:
            keys[ws] = paths.read_key(Path(file))
        except KeyError as e:
            raise InputError(f"--key {ws}=...: {e.args[0]}") from None
    return keys


def run(args) -> int:
    from app.store.pg import floor_check, pg_migrations, server
    from app.store.pg.register import RegisterError
    from app.store.pg.restore import RestoreError
    try:
        if args.floor_command == "register":
            from app.store.pg.register import register
            print(json.dumps(register(args.pg, args.workstation, args.name, args.login), indent=2))
            return 0
        if args.floor_command == "migrate":
            print(json.dumps(pg_migrations.migrate(args.pg), indent=2))
            return 0
        if args.floor_command == "restore":
            from datetime import datetime

            from app.store.pg.restore import restore
            print(json.dumps(restore(args.pg, args.workstation, Path(args.out), datetime.now()), indent=2))
            return 0
        held = floor_check.verify_floor(args.pg, _keys(args.key), strict=args.strict, models=True)
    except (server.BadUrl, floor_check.UnknownWorkstation, RegisterError) as e:
        raise InputError(str(e)) from None
    except (server.Unreachable, server.NoSchema, server.Refused, pg_migrations.MigrationError, RestoreError) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    ok = all(h.ok for h in held)
    if args.json:
        print(json.dumps({"ok": ok, "workstations": [h.as_json() for h in held]}, indent=2))
    else:
        for h in held:
            print(h.line())
        if not held:
            print("the server holds no workstation's log yet")
    if not ok:
        bad = [h for h in held if not h.ok]
        print(f"pitdesk: {len(bad)} of {len(held)} workstations' chains do not verify on the server", file=sys.stderr)
        return EXIT_NOT_VERIFIED
    return 0
