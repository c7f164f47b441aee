"""The ``pitdesk`` command line: JSON out, for scripting and audits.

One module per command group (app/cli/hand_command.py, settle.py, deal.py, round.py, inventory.py,
analyze.py, audit.py, users.py, simulate.py, devices.py, hold.py, report.py, ship.py, floor.py, gui.py), each with
``add_parser(sub)`` and ``run(args) -> int``; this module assembles the parser and hands the parsed command to its group.
``pitdesk --self-test`` checks an installation (app/cli/selftest.py).
Bad input exits with status 2 and a message naming the fault.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys

from app.engine.cards import CardError
from app.rules.resources import ResourceError

from . import (analyze_command as analyze, audit_command as audit, deal_command as deal, devices_command as devices,
               floor_command as floor, gui_command as gui, hand_command as hand, hold_command as hold,
               inventory_command as inventory, protect_command as protect, ratings_command as ratings,
               report_command as report, round_command as rounds, selftest,
               settle_command as settle, ship_command as ship, simulate_command as simulate, users_command as users)
from .common import EXIT_BAD_INPUT, InputError

# in the order ``pitdesk --help`` lists them
GROUPS = {"hand": hand, "settle": settle, "deal": deal, "round": rounds, "inventory": inventory, "analyze": analyze,
          "audit": audit, "users": users, "simulate": simulate, "devices": devices, "hold": hold, "protect": protect, "ratings": ratings,
          "report": report,
          "ship": ship, "floor": floor, "gui": gui}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pitdesk",
        description="pitdesk: the Pai Gow Poker pit supervisor's workstation. "
                    "Cards are written As Kd Th 10h 9c Jk (case-insensitive).")
    selftest.add_argument(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for group in GROUPS.values():
        group.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """The command; a reader that goes away (``| head -1``) or Ctrl-C ends it quietly."""
    try:
        return _dispatch(argv)
    except BrokenPipeError:
        # nothing more can reach the reader: point stdout at nothing so the interpreter's own
        # flush at exit does not fail again, and end as a process killed by SIGPIPE would
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except KeyboardInterrupt:
        return 128 + signal.SIGINT


def _dispatch(argv: list[str] | None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.self_test:
        if args.command is not None:
            parser.error(f"--self-test takes no command (got {args.command!r})")
        return selftest.run(args)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return GROUPS[args.command].run(args)
    except (CardError, InputError, ResourceError) as e:
        print(f"pitdesk: error: {e}", file=sys.stderr)
        return EXIT_BAD_INPUT

