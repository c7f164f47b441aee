"""The device side's tests (app/devices): frames, messages, the session and the link runner over
real sockets and pseudo-terminals, and the mapping of device messages to table events.

No fixture is shared between these modules yet: each keeps its own. The table events the mapping
is checked against are the procedure tests' (tests/support/procedure.py)."""
