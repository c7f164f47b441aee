"""The casino's PostgreSQL (app/store/pg, docs/casino.md): a real server for the session
(tests/support/pg.py), a database of its own for each test, migrated by the casino's owner role,
with a shipping login and a floor login that have only their groups' grants.

The tests are skipped, saying why, only where no server is installed (installer/postgres.sh)."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from tests.support.pg import AUDITOR, OWNER, SHIPPER, Server, bin_dir


@pytest.fixture(scope="session")
def pg_server():
    bins = bin_dir()
    if bins is None:
        pytest.skip("no PostgreSQL server is installed (/usr/lib/postgresql/*/bin/initdb): run installer/postgres.sh "
                    "as root, or set PG_BIN")
    server = Server(bins)
    try:
        server.start()
        server.roles()
        yield server
    finally:
        server.remove()


@dataclass
class Casino:
    """One migrated database: the URLs of its owner, a shipping login and a floor login."""

    server: Server
    name: str

    @property
    def owner(self) -> str:
        return self.server.url(OWNER, self.name)

    @property
    def ship(self) -> str:
        return self.server.url(SHIPPER, self.name)

    @property
    def floor(self) -> str:
        return self.server.url(AUDITOR, self.name)

    def sql(self, statements: str, user: str = OWNER) -> str:
        return self.server.sql(statements, self.name, user)


@pytest.fixture
def casino(pg_server) -> Casino:
    return Casino(pg_server, pg_server.casino())


@pytest.fixture
def own_server():
    """A server of this test's own, since it is killed."""
    bins = bin_dir()
    if bins is None:
        pytest.skip("no PostgreSQL server is installed (/usr/lib/postgresql/*/bin/initdb): run installer/postgres.sh")
    server = Server(bins)
    try:
        server.start()
        server.roles()
        db = server.casino()
        yield server, db
    finally:
        server.remove()
