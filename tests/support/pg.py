"""A real PostgreSQL server for the tests: Debian's ``postgresql`` package (installer/postgres.sh
installs it; ``make setup`` and .ci/run call that), ``initdb`` and ``pg_ctl`` in a temporary
folder, listening on 127.0.0.1 at a free port with its socket in that folder.

``initdb`` refuses to run as root, so as root the server runs as the ``postgres`` user the
package makes, in a folder that user owns. Every role signs in without a password (``trust``):
what a role may do is its grants' business, which is what the tests check.

The casino's owner role (``pitdesk_owner``, who runs the migrations) and one shipping login
(``pit_ship``, a member of ``pitdesk_ship``) and one floor login (``floor_audit``, a member of
``pitdesk_floor``) are made once per server; each test gets a database of its own."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

SUPERUSER = "postgres"
OWNER, SHIPPER, AUDITOR = "pitdesk_owner", "pit_ship", "floor_audit"


def bin_dir() -> Path | None:
    """The newest installed server's programs (``PG_BIN`` names another), None if there is none."""
    given = os.environ.get("PG_BIN")
    found = [given] if given else sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                                         key=lambda p: int(Path(p).parent.name) if Path(p).parent.name.isdigit() else 0)
    for d in reversed(found):
        if (Path(d) / "initdb").exists() and (Path(d) / "pg_ctl").exists():
            return Path(d)
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """One server in a folder of its own: ``start``, ``stop`` (``immediate``: killed, as a crash)
    and ``url`` for a role and a database."""

    def __init__(self, bins: Path):
        self.bins = bins
        self.folder = Path(tempfile.mkdtemp(prefix="pitdesk-pg-"))
        self.data = self.folder / "data"
        self.port = free_port()
        self._as: list[str] = []
        if os.geteuid() == 0:
            try:
                user = pwd.getpwnam("postgres")
            except KeyError:
                raise RuntimeError("initdb refuses to run as root and there is no 'postgres' user to run it as") from None
            os.chown(self.folder, user.pw_uid, user.pw_gid)
            self._as = ["runuser", "-u", "postgres", "--"]
        self._run("initdb", "-D", str(self.data), "-U", SUPERUSER, "-A", "trust", "-E", "UTF8", "--no-locale",
                  "--no-sync")
        self.databases = 0

    def _run(self, program: str, *args: str) -> subprocess.CompletedProcess:
        p = subprocess.run([*self._as, str(self.bins / program), *args], cwd=self.folder, capture_output=True,
                           text=True, timeout=120)
        if p.returncode != 0:
            raise RuntimeError(f"{program} failed ({p.returncode}): {p.stderr.strip() or p.stdout.strip()}")
        return p

    def start(self) -> None:
        # fsync off: a test's server is killed (pg_ctl stop -m immediate), never its machine
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.folder / "server.log"), "-w", "-t", "60", "-o",
                  f"-p {self.port} -k {self.folder} -c listen_addresses=127.0.0.1 -F", "start")

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop")

    def running(self) -> bool:
        return subprocess.run([*self._as, str(self.bins / "pg_ctl"), "-D", str(self.data), "status"],
                              capture_output=True).returncode == 0

    def url(self, user: str, db: str = "postgres") -> str:
        return f"postgresql://{user}@127.0.0.1:{self.port}/{db}"

    def sql(self, statements: str, db: str = "postgres", user: str = SUPERUSER) -> str:
        """Statements run by ``psql`` as ``user`` (the superuser by default); its output."""
        return self._run("psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-At", "-d", self.url(user, db),
                         "-c", statements).stdout

    def roles(self) -> None:
        """The casino's roles: its owner, who may make the group roles, and a login of each group
        (the groups themselves are made by the migrations)."""
        self.sql(f"CREATE ROLE {OWNER} LOGIN CREATEROLE; CREATE ROLE {SHIPPER} LOGIN; CREATE ROLE {AUDITOR} LOGIN")

    def database(self) -> str:
        """A new database owned by the owner role; its name."""
        self.databases += 1
        name = f"casino{self.databases}"
        self.sql(f"CREATE DATABASE {name} OWNER {OWNER}")
        return name

    def casino(self) -> str:
        """A new database, migrated by the owner, its shipping and floor logins given their groups;
        its name (tests/casino/conftest.py, the benchmarks)."""
        from app.store.pg import pg_migrations
        name = self.database()
        pg_migrations.migrate(self.url(OWNER, name))
        self.sql(f"GRANT {pg_migrations.SHIP_ROLE} TO {SHIPPER}; GRANT {pg_migrations.FLOOR_ROLE} TO {AUDITOR}")
        return name

    def remove(self) -> None:
        if self.running():
            self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)
