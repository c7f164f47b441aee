"""Helpers of the casino tests (tests/casino): workstation logs made and rewritten, the command line
run as a process, and the server's copy read back."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
from pathlib import Path

import psycopg

from app.store import chain, paths
from app.store.log import AuditLog
from tests.support.store import PITDESK, record


class Pit:
    """One workstation: its folder (PITDESK_HOME: its install key), its log and the log's id."""

    def __init__(self, folder: Path, rows: int, marker: str = ""):
        self.home = folder / "home"
        self.db = folder / "pitdesk.db"
        self.add(rows, marker)
        self.id = sqlite3.connect(self.db).execute("SELECT value FROM meta WHERE key = 'db_id'").fetchone()[0]

    @property
    def key_file(self) -> Path:
        return self.home / "install.key"

    def add(self, rows: int, marker: str = "") -> None:
        """``rows`` more rows, appended by the workstation's own writer."""
        before = os.environ.get("PITDESK_HOME")
        os.environ["PITDESK_HOME"] = str(self.home)
        try:
            with AuditLog(self.db) as lg:
                start = lg.rows("SELECT COALESCE(max(seq), 0) FROM events")[0][0]
                for k in range(start, start + rows, 5000):
                    lg.append_many([record(i, marker) for i in range(k, min(start + rows, k + 5000))])
        finally:
            if before is None:
                del os.environ["PITDESK_HOME"]
            else:
                os.environ["PITDESK_HOME"] = before

    def rows(self) -> list[tuple]:
        conn = sqlite3.connect(self.db)
        try:
            return conn.execute("SELECT seq, time, table_id, type, actor, role, body, prev_hash, hash, hmac "
                                "FROM events ORDER BY seq").fetchall()
        finally:
            conn.close()

    def rewrite(self, from_seq: int, text: str = "rewritten") -> None:
        """An insider with the install key rewrites the log from ``from_seq`` on: each body changed,
        the chain relinked and resealed, so that the log verifies on its own."""
        key = paths.read_key(self.key_file)
        conn = sqlite3.connect(self.db, isolation_level=None)
        try:
            for t in ("events_no_update", "events_gapless"):
                conn.execute(f"DROP TRIGGER IF EXISTS {t}")
            prev = conn.execute("SELECT hash FROM events WHERE seq = ?", (from_seq - 1,)).fetchone()
            prev = prev[0] if prev else chain.GENESIS
            conn.execute("BEGIN")
            for seq, body in conn.execute("SELECT seq, body FROM events WHERE seq >= ? ORDER BY seq",
                                          (from_seq,)).fetchall():
                b = json.loads(body)
                b["data"]["rewritten"] = text
                new = json.dumps(b, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
                h = chain.link(prev, new)
                conn.execute("UPDATE events SET body = ?, prev_hash = ?, hash = ?, hmac = ? WHERE seq = ?",
                             (new, prev, h, chain.seal(key, h), seq))
                prev = h
            conn.execute("COMMIT")
        finally:
            conn.close()

    def edit_body(self, seq: int) -> None:
        """A row's body edited in place, its hash left as it was."""
        conn = sqlite3.connect(self.db, isolation_level=None)
        try:
            conn.execute("DROP TRIGGER IF EXISTS events_no_update")
            conn.execute("UPDATE events SET body = replace(body, '\"note ', '\"NOTE ') WHERE seq = ?", (seq,))
        finally:
            conn.close()


def register(ship_url: str, db: Path | str, name: str | None = None) -> str:
    """The casino's owner registers the workstation of the log at ``db`` for the login of
    ``ship_url`` (as a casino does before a pit first ships: app/store/pg/register.py); its id.
    Registering it again changes nothing."""
    from app.store.pg.register import register as owner_registers
    from app.store.pg.server import check_url
    from app.store.pg.shipping import workstation_id
    from tests.support.pg import OWNER
    ws = workstation_id(Path(db))
    login = check_url(ship_url, "--to")["user"]
    owner = ship_url.replace(f"//{login}@", f"//{OWNER}@", 1)
    owner_registers(owner, ws, name or ws, login)
    return ws


def pitdesk(*args: str, home: Path | None = None, registered: bool = True) -> tuple[int, dict | None, str]:
    """The command line in a process of its own: exit code, its JSON (if any) and stderr. A log
    shipped (``ship --db L --to URL``) is registered first for the login of URL, unless
    ``registered`` is False (a workstation the casino does not know)."""
    if registered and args[:1] == ("ship",) and "--db" in args and "--to" in args:
        db, to = args[args.index("--db") + 1], args[args.index("--to") + 1]
        if Path(db).exists() and to.startswith("postgresql://"):
            try:
                register(to, db)
            except Exception:   # noqa: BLE001 - a bad URL or log is the command's own test
                pass
    env = {**os.environ, **({"PITDESK_HOME": str(home)} if home else {})}
    p = subprocess.run([PITDESK, *args], env=env, capture_output=True, text=True, timeout=300)
    out = p.stdout.strip()
    return p.returncode, json.loads(out) if out.startswith("{") else out, p.stderr


def held(url: str, ws: str) -> list[tuple]:
    """The rows the server holds of a workstation, as the local log has them."""
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT seq, time, table_id, type, actor, role, body, prev_hash, hash, hmac "
                            "FROM pitdesk.events WHERE workstation = %s ORDER BY seq", (ws,)).fetchall()


def refusals(url: str, ws: str) -> list[tuple]:
    with psycopg.connect(url) as conn:
        return conn.execute("SELECT seq, reason, head_seq, shipped_by FROM pitdesk.refusals WHERE workstation = %s "
                            "ORDER BY id", (ws,)).fetchall()


def shipped_with_own(casino, logs: list[tuple[Path, Path | None]], *shift: str) -> dict[str, dict]:
    """Each log's own ``report shift --json`` of ``shift`` (``--date D --shift S``), then the log
    shipped to ``casino``: {its db_id: its own report}. ``logs``: (the log, its PITDESK_HOME)."""
    local = {}
    for db, home in logs:
        rc, own, err = pitdesk("report", "shift", "--db", str(db), *shift, "--json", home=home)
        assert rc == 0, err
        local[own["db_id"]] = own
        assert pitdesk("ship", "--db", str(db), "--to", casino.ship, home=home)[0] == 0
    return local
