"""The simulators' tests (app/simulate): the simulated devices on real pseudo-terminals and TCP
sockets, against a raw workstation end written in the test, and ``pitdesk simulate shift``'s
whole shift into a real audit database (``pitdesk simulate device`` and ``shift`` included).

Their shared fixture ``home`` (PITDESK_HOME) is in tests/conftest.py, with the store's tests;
the rest is each module's own."""
