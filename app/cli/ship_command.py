"""``pitdesk ship --db PATH --to postgresql://USER@HOST/DB``: the log's new rows copied to the
casino's server, with their hashes and seals (app/store/pg/shipping.py, docs/casino.md).

Prints ``{"workstation", "shipped", "from_seq", "to_seq", "server_head"}`` (and ``refused`` when
the server refused). Exit 0; 1 when the server refused a row (it records the refusal) or the
local log ends before what the server holds; 2 for bad input or a server that cannot be reached,
named as such, or that went away midway (what it had committed is kept: ship again)."""

from __future__ import annotations

import json
import sys

from .common import EXIT_BAD_INPUT, InputError, _db

EXIT_REFUSED = 1


def add_parser(sub) -> None:
    s = sub.add_parser("ship", help="copy the log's new rows to the casino's PostgreSQL",
                       description="Copy every row of the audit log the casino's server does not hold yet, in order, "
                                   "with its hash and seal, a batch a transaction. The server checks each row follows "
                                   "from what it holds and refuses, recording it, a log that was rewritten. Exit 0; 1 "
                                   "when the server refused; 2 for bad input or an unreachable server.")
    s.add_argument("--db", help="the audit database (default: pitdesk.db in the user data directory)")
    s.add_argument("--to", required=True, metavar="postgresql://USER@HOST/DB",
                   help="the casino's server, as a role of pitdesk_ship (docs/casino.md)")
    s.add_argument("--batch", type=int, default=None, metavar="N", help="rows a transaction (default: 2000)")


def run(args) -> int:
    from app.store.pg import server, shipping
    from app.store.reading import NotALog, missing
    db = _db(args)
    batch = shipping.BATCH if args.batch is None else args.batch
    if not 1 <= batch <= 100_000:
        raise InputError(f"--batch {batch} is not a number of rows from 1 to 100000")
    if not db.exists():
        raise InputError(str(missing(db)))
    try:
        out = shipping.ship(db, args.to, batch)
    except (server.BadUrl, NotALog, FileNotFoundError) as e:
        raise InputError(str(e)) from None
    except shipping.Interrupted as e:
        print(json.dumps(e.shipped.as_json(), indent=2))
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except (server.Unreachable, server.NoSchema, server.Refused) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except shipping.LocalBehind as e:
        if e.shipped is not None:
            print(json.dumps(e.shipped.as_json(), indent=2))
        print(f"pitdesk: {e}", file=sys.stderr)
        return EXIT_REFUSED
    print(json.dumps(out.as_json(), indent=2))
    if out.refused:
        whose = f"; {out.refused['detail']}" if out.refused.get("detail") else ""
        print(f"pitdesk: the server refused row {out.refused['seq']}: {out.refused['reason']} (recorded at the server; "
              f"{out.shipped} rows before it were shipped){whose}", file=sys.stderr)
        return EXIT_REFUSED
    return 0
