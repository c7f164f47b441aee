"""The audit store's tests (app/store): the log, its chain and head files, backups, read-only
media, people, approvals and slips, on real SQLite files, with real writer processes
(tests/support/store_writer.py).

Their fixtures come from tests/conftest.py (``log``, ``home``: the live pit's and the simulator's
tests use them too) or are a module's own; the helpers they share are tests/support/store.py."""
