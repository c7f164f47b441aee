"""The frozen build's entry point (installer/pitdesk.spec): ``pitdesk`` as the console script runs it.

``multiprocessing.freeze_support()`` comes first: the device links run in a spawned child process
(app/devices/host.py) and the enumeration in a spawned pool (app/analysis/enumeration.py); in a frozen build
such a child is this same executable started with multiprocessing's arguments, and must run the
child's work rather than the command line.
"""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()
    from app.cli import main
    sys.exit(main())
