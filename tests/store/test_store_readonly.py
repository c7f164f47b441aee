"""What an auditor brings (issue 12): a log on read-only media verifies, reading writes nothing
beside the file and never applies a stale WAL found there; commands that only read never create
a database; a PIN from a pipe is read quietly.

Read-only media for real: a read-only bind mount in a private mount namespace (``unshare``, as a
mounted backup or a disc: EROFS even for root), and a folder and file without write permission
read by a user who is not root (``setpriv`` to nobody when the tests run as root, who would
otherwise pass through the permissions).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

from app.store import paths
from app.store.log import AuditLog
from app.store.users import Users
from tests.support.store import PITDESK, Writer, check_log, cli, env_for, record

NOBODY = 65534
HOW = ("read-only mount", "no write permission")


@pytest.fixture
def shared(monkeypatch):
    """A scratch folder every user can reach (pytest's own is root's alone), holding the
    database folder, a writable folder for output, and PITDESK_HOME with a key all may read."""
    top = Path(tempfile.mkdtemp(prefix="pitdesk-ro-"))
    os.chmod(top, 0o755)
    home = top / "home"
    monkeypatch.setenv("PITDESK_HOME", str(home))
    paths.install_key()
    os.chmod(paths.key_file(), 0o644)  # a test key: nobody must read it to check the seals
    (top / "logs").mkdir()
    (top / "out").mkdir()
    os.chmod(top / "out", 0o777)
    yield top
    for p in (top / "logs", top / "logs" / "audit.db"):
        if p.exists():
            os.chmod(p, 0o755)
    shutil.rmtree(top)


def as_reader(folder: Path, how: str) -> list[str]:
    """The command prefix that runs a command with ``folder`` read-only for it."""
    if how == "read-only mount":
        ns = ["unshare", "--mount"] if os.geteuid() == 0 else ["unshare", "--user", "--map-root-user", "--mount"]
        return ns + ["sh", "-c", 'mount --bind -o ro "$0" "$0" && exec "$@"', str(folder)]
    os.chmod(folder, 0o555)
    for f in folder.iterdir():
        os.chmod(f, 0o444)
    if os.geteuid() == 0:
        return ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups"]
    return []


def run(prefix: list[str], home: Path, *args: str, stdin: str | None = None) -> tuple[int, dict | None, str]:
    p = subprocess.run(prefix + [PITDESK, *args], env=env_for(home), capture_output=True, text=True, timeout=120,
                       input=stdin)
    return p.returncode, json.loads(p.stdout) if p.stdout.strip() else None, p.stderr


def snapshot(folder: Path) -> dict[str, str]:
    """Every file in ``folder`` and the hash of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def build(db: Path, n: int) -> str:
    """A closed log of ``n`` rows (so nothing but the file is left: WAL checkpointed); its db_id."""
    with AuditLog(db) as log:
        for i in range(n):
            r = record(i)
            log.append(r.type, r.time, r.actor, r.role, r.table, r.data)
        ident = log.db_id
    assert sorted(p.name for p in db.parent.iterdir()) == [db.name]
    return ident


@pytest.mark.parametrize("how", HOW)
def test_a_log_on_read_only_media_verifies_exports_lists_and_backs_up(shared, how):
    home, logs, out = shared / "home", shared / "logs", shared / "out"
    db = logs / "audit.db"
    build(db, 20)
    with AuditLog(db) as log:  # and a user, for `users list`
        Users(log).create_administrator("root", "1234", record(0).time)
    before = snapshot(logs)
    reader = as_reader(logs, how)
    rc, res, err = run(reader, home, "audit", "verify", "--db", str(db))
    assert rc == 0 and res["ok"] and res["rows"] == 21 and res["head_checked"]["seq"] == 21, (rc, res, err)
    assert res["wal"] is None and res["notes"] == []
    rc, res, err = run(reader, home, "audit", "export", "--db", str(db), "--out", str(out / "log.jsonl"))
    assert rc == 0 and res["exported"] == 21, err
    rc, res, err = run(reader, home, "users", "list", "--db", str(db))
    assert rc == 0 and [u["name"] for u in res] == ["root"], err
    rc, res, err = run(reader, home, "audit", "backup", "--db", str(db), "--out", str(out / "copy.db"))
    assert rc == 0 and res["rows"] == 21 and res["verified"]["ok"], err
    if how == "no write permission" and os.geteuid() == 0:  # nobody may not write root's heads folder
        assert res["head_file"] is None and "it is sealed in the copy" in " ".join(res["verified"]["notes"])
    assert snapshot(logs) == before  # nothing written, nothing left beside the file
    rc, res, err = run(reader, home, "audit", "verify", "--db", str(out / "copy.db"))
    assert rc == 0 and "intact to row 21" in " ".join(res["notes"]), err


@pytest.mark.parametrize("how", HOW)
def test_a_stale_wal_beside_the_file_is_not_applied_and_is_reported(shared, how):
    """A -wal (with its -shm) from an earlier moment, copied beside a file that went on: read
    through SQLite it would lay old pages over the file. It is left unread, and said so."""
    home, logs = shared / "home", shared / "logs"
    db, err = logs / "audit.db", shared / "writer.err"
    build(db, 5)
    w = Writer(db, home, 3, err)
    w.wait_lines(40)
    _, acks = w.kill()  # the rows it appended are in the -wal only
    stale = {s: (logs / f"audit.db{s}").read_bytes() for s in ("-wal", "-shm")}
    assert len(stale["-wal"]) > 0
    with AuditLog(db) as log:  # the workstation goes on and closes: everything in the file, no -wal
        for i in range(30):
            log.append("note", record(i).time, "dee", "dealer", "T1", {"after": i})
        rows = log.seq
    assert rows > 5 + len(acks) and sorted(p.name for p in logs.iterdir()) == ["audit.db"]
    for s, data in stale.items():
        (logs / f"audit.db{s}").write_bytes(data)
    before = snapshot(logs)
    rc, res, err_text = run(as_reader(logs, how), home, "audit", "verify", "--db", str(db))
    assert rc == 0 and res["ok"] and res["rows"] == rows and res["head_checked"]["seq"] == rows, (rc, res, err_text)
    assert res["wal"] == {"file": str(db) + "-wal", "bytes": len(stale["-wal"]), "read": False}
    assert any("a -wal file" in n and "was not read" in n for n in res["notes"]), res["notes"]
    assert snapshot(logs) == before


def test_a_wal_without_its_shm_is_not_read_even_in_a_writable_folder(shared):
    home, logs = shared / "home", shared / "logs"
    db = logs / "audit.db"
    build(db, 5)
    w = Writer(db, home, 4, shared / "writer.err")
    w.wait_lines(30)
    w.kill()
    (logs / "audit.db-shm").unlink()  # the -wal alone: a file copied with the database, not a live WAL
    before = snapshot(logs)
    rc, res, err = cli(home, "audit", "verify", "--db", str(db))
    # the file alone ends at row 5 while the head file knows the rows that were only in the -wal
    assert rc == 1 and res["first_bad"]["kind"] == "truncated" and res["rows"] == 5, (rc, res, err)
    assert res["wal"]["read"] is False and "no -shm beside it" in " ".join(res["notes"])
    assert snapshot(logs) == before


def test_the_live_wal_of_the_workstation_is_read(tmp_path, monkeypatch):
    """A writer killed leaves committed rows in its -wal: they are acknowledged, so verify reads
    them (read-only: the file is not changed)."""
    home = tmp_path / "home"
    monkeypatch.setenv("PITDESK_HOME", str(home))
    (tmp_path / "logs").mkdir()
    db = tmp_path / "logs" / "audit.db"
    build(db, 5)
    w = Writer(db, home, 5, tmp_path / "writer.err")
    w.wait_lines(30)
    _, acks = w.kill()
    main_file = hashlib.sha256(db.read_bytes()).hexdigest()
    rc, res, err = cli(home, "audit", "verify", "--db", str(db))
    assert rc == 0 and res["rows"] >= max(a["seq"] for a in acks) and res["wal"]["read"] is True, (rc, res, err)
    assert hashlib.sha256(db.read_bytes()).hexdigest() == main_file  # the WAL was read, not applied
    check_log(db, {a["seq"]: a for a in acks})


def test_reading_commands_leave_nothing_beside_a_closed_database(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("PITDESK_HOME", str(home))
    logs = tmp_path / "logs"
    logs.mkdir()
    db = logs / "audit.db"
    build(db, 8)
    before = snapshot(logs)
    for args in (("audit", "verify", "--db", str(db)),
                 ("audit", "export", "--db", str(db), "--out", str(tmp_path / "x.jsonl")),
                 ("audit", "backup", "--db", str(db), "--out", str(tmp_path / "b.db")),
                 ("users", "list", "--db", str(db))):
        rc, _, err = cli(home, *args)
        assert rc == 0, (args, err)
        assert snapshot(logs) == before, args


# -- commands that only read never create a database --------------------------------------------
@pytest.mark.parametrize("args", [("users", "list"), ("audit", "verify"), ("audit", "export", "--out", "{out}"),
                                  ("audit", "backup", "--out", "{out}"),
                                  ("users", "add", "fay", "--role", "dealer", "--as", "root", "--pin-stdin"),
                                  ("users", "lock", "fay", "--as", "root", "--pin-stdin")])
def test_a_command_that_needs_a_database_never_creates_one(tmp_path, args):
    home = tmp_path / "home"  # no key either: the database is what is missing first
    db, out = tmp_path / "nowhere" / "audit.db", tmp_path / "out.file"
    (tmp_path / "nowhere").mkdir()
    args = [a.replace("{out}", str(out)) for a in args]
    p = subprocess.run([PITDESK, *args, "--db", str(db)], env=env_for(home), capture_output=True, text=True,
                       input="1234\n1234\n", timeout=60)
    assert p.returncode == 2 and p.stdout == "", (p.stdout, p.stderr)
    assert f"no audit database at {db}" in p.stderr and "Traceback" not in p.stderr
    assert list((tmp_path / "nowhere").iterdir()) == [] and not out.exists()


def test_a_folder_or_a_file_that_is_not_a_database_is_named(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("PITDESK_HOME", str(home))
    paths.install_key()
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database\n" * 100)
    for args in (("users", "list", "--db", str(junk)), ("audit", "verify", "--db", str(tmp_path)),
                 ("audit", "backup", "--db", str(junk), "--out", str(tmp_path / "b.db"))):
        rc, out, err = cli(home, *args)
        assert rc == 2 and out is None and "Traceback" not in err, (args, err)
        assert ("is a folder, not an audit database" in err if args[-1] == str(tmp_path)
                else "cannot be read as a pitdesk audit database" in err), err
    assert not (tmp_path / "b.db").exists()


def test_an_export_to_a_folder_that_is_not_there_is_named(tmp_path, monkeypatch):
    home = tmp_path / "home"
    monkeypatch.setenv("PITDESK_HOME", str(home))
    (tmp_path / "logs").mkdir()
    db = tmp_path / "logs" / "audit.db"
    build(db, 2)
    rc, out, err = cli(home, "audit", "export", "--db", str(db), "--out", str(tmp_path / "no" / "x.jsonl"))
    assert rc == 2 and out is None and f"no folder {tmp_path / 'no'} to write the export in" in err
    assert not (tmp_path / "no").exists()


# -- a PIN from a pipe --------------------------------------------------------------------------
@pytest.mark.parametrize("flag", [[], ["--pin-stdin"]])
def test_a_pin_piped_on_stdin_is_read_quietly(tmp_path, flag):
    """No terminal at all (a new session, as under a service or cron): the PIN comes from the
    pipe, with no GetPassWarning and no prompt on stderr."""
    env, db = env_for(tmp_path / "home"), str(tmp_path / "a.db")

    def users(*args, pins):
        return subprocess.run([PITDESK, "users", *args, "--db", db, *flag], input=pins, capture_output=True,
                              text=True, env=env, timeout=60, start_new_session=True)

    p = users("init", "root", pins="1234\n")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    p = users("add", "fay", "--role", "dealer", "--as", "root", pins="1234\r\n5678\n")
    assert p.returncode == 0 and p.stderr == "", p.stderr
    p = users("lock", "fay", "--as", "root", pins="")
    assert p.returncode == 2 and p.stderr == "pitdesk: error: expected a PIN on stdin and got end of input\n"
    assert [u["name"] for u in json.loads(users("list", pins="").stdout)] == ["fay", "root"]
