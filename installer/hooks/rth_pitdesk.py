"""Runtime hook of the frozen build (installer/pitdesk.spec): runs before pitdesk's own code.

A workstation started from a desktop menu, a service manager or ``env -i`` may have no locale set;
Qt then warns on stderr and switches to C.UTF-8 by itself. Saying so first keeps names read from
files and the configuration UTF-8 in Python and in Qt alike, with no warning on every start.
"""

import os

if not any(os.environ.get(k) for k in ("LC_ALL", "LC_CTYPE", "LANG")):
    os.environ["LC_CTYPE"] = "C.UTF-8"
