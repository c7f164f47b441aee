"""The casino's copy of every workstation's log, in its PostgreSQL (issue 28, docs/casino.md).

``server`` (the URL, the connection, the faults named), ``pg_migrations`` (the schema, the roles
and their grants, and the checks the server itself makes of every row that arrives),
``shipping`` (``pitdesk ship``: the new rows of one log, in batches) and ``floor_check``
(``pitdesk floor verify``: every workstation's chain as the server holds it).

Only this package imports psycopg (pyproject's import-linter contracts)."""
