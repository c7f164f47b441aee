"""Bad input exits 2 with one line naming the fault, never a traceback (issue 26, finding 7): a
round file that is binary, not UTF-8 or endless (/dev/zero), a report's date beyond any shift, a
configuration's database in a folder that is not there, unprintable or overlong table ids and
player and bettor names (app/engine/names.py), a read-only database location, and a second
workstation on a database already in use (app/store/holder.py). The real command in a process
where a person meets it; the workstation in-process where a program does."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from app.engine.names import NAME_MAX
from app.workstation import config
from app.workstation.errors import ConfigError, LogStopped, WorkstationError
from app.workstation.workstation import Workstation
from tests.support import mounts
from tests.support.workstation import DEALER, Clock, open_ws

ROOT = Path(__file__).resolve().parents[2]
PITDESK = str(Path(sys.executable).with_name("pitdesk"))
ROUND = json.loads((ROOT / "docs" / "rounds" / "casino-house.json").read_text())
FLOOR = '[[tables]]\nid = "T1"\nprofile = "casino"\n'
# the characters the issue found accepted, and the longest name plus one
UNPRINTABLE = {"BEL": "\a", "ESC": "\x1b", "NUL": "\x00", "RLO": "\u202e"}


def pitdesk(*args, timeout=60, env=None) -> subprocess.CompletedProcess:
    return subprocess.run([PITDESK, *args], capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen", **(env or {})})


def one_line(p: subprocess.CompletedProcess, *words: str) -> str:
    assert p.returncode == 2, p.stdout + p.stderr
    assert "Traceback" not in p.stderr
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pitdesk: error: "), p.stderr
    for w in words:
        assert w in lines[0]
    return lines[0]


# -- files read as bytes, with a limit --------------------------------------------------------------
@pytest.mark.parametrize("content, words", [
    (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ["is not UTF-8 text"]),
    (b'{"profile": "casino", "seats": "\xc3("}', ["is not UTF-8 text (byte 32: invalid continuation byte)"]),
    (b'{"profile": "casino"}\x00\x00', ["is binary, not text"]),
])
def test_a_round_file_that_is_not_text_is_named(tmp_path, content, words):
    f = tmp_path / "r.json"
    f.write_bytes(content)
    one_line(pitdesk("settle", str(f)), *words)
    one_line(pitdesk("round", "settle", "--table", "T1", "--demo", "--db", str(tmp_path / "d.db"), "--as", "x",
                     str(f)), *words)
    assert not (tmp_path / "d.db").exists()


def test_an_endless_file_is_read_no_further_than_the_limit():
    t = time.monotonic()
    one_line(pitdesk("settle", "/dev/zero", timeout=30), "larger than 1,000,000 bytes")
    assert time.monotonic() - t < 20


# -- dates -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("day", ["9999-12-31", "0001-01-01", "1999-12-31", "2101-01-01"])
def test_a_report_date_outside_2000_to_2100_is_refused(tmp_path, day):
    one_line(pitdesk("report", "shift", "--db", str(tmp_path / "none.db"), "--date", day, "--shift", "grave",
                     "--json"), f"--date '{day}' is outside the years 2000-2100")


@pytest.mark.parametrize("args, fault", [
    (("--from", "9999-12-31"), "--from '9999-12-31' is outside the years 2000-2100"),
    (("--from", "1999-12-31 23:59"), "--from '1999-12-31 23:59' is outside the years 2000-2100"),
    (("--to", "2101-01-01"), "--to '2101-01-01' is outside the years 2000-2100"),
    (("--to", "0001-01-01T00:00+05:00"), "--to '0001-01-01T00:00+05:00' is outside the years 2000-2100"),
    (("--from", "2026-11-22", "--to", "2026-11-21"), "the period starts at 2026-11-22T00:00:00, not before its end "
                                                    "2026-11-21T00:00:00: --from must be before --to"),
])
def test_a_hold_period_outside_2000_to_2100_or_backwards_is_refused(tmp_path, args, fault):
    # the report's --date range, one place (app/cli/common.py in_years); named before the database
    assert one_line(pitdesk("hold", "--db", str(tmp_path / "none.db"), *args)) == f"pitdesk: error: {fault}"


# -- names -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("bad", [*UNPRINTABLE.values(), "T" * (NAME_MAX + 1)], ids=[*UNPRINTABLE, "long"])
def test_a_table_id_that_is_not_a_printable_name_is_refused(bad):
    with pytest.raises(ConfigError) as e:
        config.parse(FLOOR.replace('"T1"', json.dumps(bad)), "floor.toml")
    assert "floor.toml line 2: tables[1].id: the table id" in str(e.value)
    assert ("at most 64" if len(bad) > 1 else f"U+{ord(bad):04X}") in str(e.value)
    assert "\n" not in str(e.value)
    config.parse(FLOOR.replace('"T1"', json.dumps("T" * NAME_MAX)), "floor.toml")     # the longest allowed


@pytest.mark.parametrize("bad", [*UNPRINTABLE.values(), "a" * (NAME_MAX + 1)], ids=[*UNPRINTABLE, "long"])
@pytest.mark.parametrize("field", ["player", "bettor"])
def test_a_player_or_bettor_name_that_is_not_printable_is_refused(tmp_path, bad, field):
    r = json.loads(json.dumps(ROUND))
    if field == "player":
        r["seats"][0]["player"] = bad
        where = "seats[0].player: the name"
    else:
        r["seats"][0]["bettors"][0]["name"] = bad
        where = "seats[0].bettors[0].name: the name"
    f = tmp_path / "r.json"
    f.write_text(json.dumps(r))
    one_line(pitdesk("settle", str(f)), where)


def test_the_round_desk_refuses_an_unprintable_or_long_name(tmp_path, monkeypatch):
    ws = open_ws(tmp_path, monkeypatch, Clock(), FLOOR)
    try:
        ws.people.sign_in(*DEALER)
        for bad in [*UNPRINTABLE.values(), "a" * (NAME_MAX + 1)]:
            with pytest.raises(WorkstationError) as e:
                ws.rounds.set_player("T1", 1, f"ann{bad}")
            assert "seat 1: the player's name" in str(e.value)
            with pytest.raises(WorkstationError) as e:
                ws.rounds.set_bettors("T1", 1, [(f"bob{bad}", "10")])
            assert "the bettor's name" in str(e.value)
        ws.rounds.set_player("T1", 1, "ann")
    finally:
        ws.close()


# -- the database's location -----------------------------------------------------------------------
def test_a_configured_database_in_a_missing_folder_is_refused_and_not_made(tmp_path, monkeypatch):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    cfg = tmp_path / "floor.toml"
    cfg.write_text(f'[workstation]\ndatabase = "{tmp_path}/typo/pit.db"\n{FLOOR}')
    with pytest.raises(LogStopped) as e:
        Workstation(config.load(cfg))
    assert f"the folder {tmp_path / 'typo'} of the audit database" in str(e.value)
    one_line(pitdesk("round", "settle", "--config", str(cfg), "--table", "T1", "--as", "x",
                     str(ROOT / "docs" / "rounds" / "casino-house.json"), env={"PITDESK_HOME": str(tmp_path / "h")}),
             f"the folder {tmp_path / 'typo'} of the audit database", "users init")
    assert not (tmp_path / "typo").exists()


@pytest.mark.skipif(not mounts.available(), reason="needs root and unshare -m to mount a read-only tmpfs")
def test_a_read_only_location_is_named_as_such(tmp_path):
    seed = tmp_path / "seed"
    seed.mkdir()
    home = tmp_path / "home"
    subprocess.run([PITDESK, "users", "init", "boss", "--db", str(seed / "pit.db")], input="123456\n", text=True,
                   capture_output=True, env={**os.environ, "PITDESK_HOME": str(home)}, check=True, timeout=60)
    ro = tmp_path / "ro"
    env = {**os.environ, "PITDESK_HOME": str(home), "QT_QPA_PLATFORM": "offscreen"}
    p = mounts.run_on_mount(ro, [PITDESK, "users", "add", "amy", "--role", "dealer", "--as", "boss", "--db",
                                 str(ro / "pit.db")], read_only=True, seed=seed, env=env, stdin="123456\n4444\n")
    line = one_line(p, f"the folder {ro} is read-only")
    assert "unable to open" not in line
    cfg = tmp_path / "floor.toml"
    cfg.write_text(f'[workstation]\ndatabase = "{ro}/pit.db"\n{FLOOR}')
    p = mounts.run_on_mount(ro, [PITDESK, "round", "settle", "--config", str(cfg), "--table", "T1", "--as", "boss",
                                 str(ROOT / "docs" / "rounds" / "casino-house.json")],
                            read_only=True, seed=seed, env=env)
    one_line(p, f"the folder {ro} is read-only")


# -- one workstation on a database --------------------------------------------------------------------
HOLD = """
import sys, time
from app.workstation import config
from app.workstation.workstation import Workstation
ws = Workstation(config.parse(sys.argv[2], "floor.toml"), sys.argv[1])
print("held", flush=True)
time.sleep(120)
"""


def test_a_second_workstation_on_a_database_in_use_is_refused_naming_the_holder(tmp_path, monkeypatch):
    import socket
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    db = tmp_path / "pit.db"
    first = Workstation(config.parse(FLOOR, "floor.toml"), db)
    try:
        with pytest.raises(LogStopped) as e:
            Workstation(config.parse(FLOOR, "floor.toml"), db)
        assert str(e.value) == (f"the audit database {db} is in use by another workstation: host "
                                f"{socket.gethostname()}, process {os.getpid()} holds it (close that one first)")
    finally:
        first.close()
    Workstation(config.parse(FLOOR, "floor.toml"), db).close()       # released on close
    # another process holds it, then dies by kill -9: its holder file stays, naming it, and does not
    # keep the next workstation out
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(db), FLOOR], cwd=ROOT, stdout=subprocess.PIPE,
                              text=True, env={**os.environ, "PITDESK_HOME": str(tmp_path / "home")})
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(LogStopped) as e:
            Workstation(config.parse(FLOOR, "floor.toml"), db)
        assert f"process {holder.pid} holds it" in str(e.value)
    finally:
        holder.kill()
        holder.wait(30)
    assert f"process {holder.pid}" in (tmp_path / "pit.db.holder").read_text()
    Workstation(config.parse(FLOOR, "floor.toml"), db).close()


@pytest.mark.parametrize("link", ["symlink", "hard link", "another spelling"])
def test_a_link_to_a_database_in_use_is_refused_as_the_database_itself(tmp_path, monkeypatch, link):
    """Issue 35, finding 7: the holder is keyed on the file, not on the path it was named by. A
    symlink, a hard link or the same file spelled through '..' cannot open a second writer while
    another process's workstation holds the log."""
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    (tmp_path / "a").mkdir()
    db = tmp_path / "a" / "a1.db"
    Workstation(config.parse(FLOOR, "floor.toml"), db).close()
    other = {"symlink": tmp_path / "sym.db", "hard link": tmp_path / "hard.db",
             "another spelling": tmp_path / "a" / ".." / "a" / "a1.db"}[link]
    if link == "symlink":
        other.symlink_to(db)
    elif link == "hard link":
        os.link(db, other)
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(db), FLOOR], cwd=ROOT, stdout=subprocess.PIPE,
                              text=True, env={**os.environ, "PITDESK_HOME": str(tmp_path / "home")})
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(LogStopped, match="is in use by another workstation"):
            Workstation(config.parse(FLOOR, "floor.toml"), other)
    finally:
        holder.kill()
        holder.wait(30)
    # in one process too: one holder of the file at a time, whatever it is called
    first = Workstation(config.parse(FLOOR, "floor.toml"), db)
    try:
        with pytest.raises(LogStopped, match="is in use by another workstation"):
            Workstation(config.parse(FLOOR, "floor.toml"), other)
    finally:
        first.close()
    Workstation(config.parse(FLOOR, "floor.toml"), other).close()      # released on close


# -- issue 35, finding 9 -------------------------------------------------------------------------------
def admin_log(tmp_path) -> tuple[Path, dict]:
    env = {"PITDESK_HOME": str(tmp_path / "home")}
    db = tmp_path / "pit.db"
    p = subprocess.run([PITDESK, "users", "init", "admin", "--db", str(db), "--pin-stdin"], input="1111\n",
                       capture_output=True, text=True, timeout=60, env={**os.environ, **env})
    assert p.returncode == 0, p.stderr
    return db, env


def sign_ins(db: Path) -> list[tuple]:
    import sqlite3
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT type, actor, json_extract(body, '$.data.reason') FROM events "
                            "WHERE type IN ('sign_in', 'signed_out') ORDER BY seq").fetchall()
    finally:
        conn.close()


@pytest.mark.parametrize("name", ["bad\x07name", "esc\x1b[31mred", "rlo\u202eevil"])
def test_a_user_name_that_cannot_be_printed_is_refused_and_the_sign_in_is_paired(tmp_path, name):
    db, env = admin_log(tmp_path)
    p = subprocess.run([PITDESK, "users", "add", name, "--role", "dealer", "--db", str(db), "--as", "admin",
                        "--pin-stdin"], input="1111\n2222\n", capture_output=True, text=True, timeout=60,
                       env={**os.environ, **env})
    assert p.returncode == 2 and "cannot be printed" in p.stderr and "Traceback" not in p.stderr, p.stderr
    # the administrator signed in, was refused, and is signed out again, saying why
    assert [r[:2] for r in sign_ins(db)] == [("sign_in", "admin"), ("signed_out", "admin")]
    assert sign_ins(db)[-1][2].startswith("refused: the user name")
    ok = subprocess.run([PITDESK, "users", "add", "bob", "--role", "dealer", "--db", str(db), "--as", "admin",
                         "--pin-stdin"], input="1111\n2222\n", capture_output=True, text=True, timeout=60,
                        env={**os.environ, **env})
    assert ok.returncode == 0, ok.stderr
    assert sign_ins(db)[-1] == ("signed_out", "admin", "command done")


def test_a_meter_below_zero_is_refused():
    p = pitdesk("hand", "bonus", "--meter", "-5", "AS", "KS", "QS", "JS", "TS", "9S", "8S")
    assert p.returncode == 2 and "--meter: -5 is below zero" in p.stderr, p.stderr


def test_a_backup_and_an_export_are_the_owners_alone(tmp_path):
    db, env = admin_log(tmp_path)
    for args, out in ((["audit", "backup", "--db", str(db), "--out", str(tmp_path / "b.db")], tmp_path / "b.db"),
                      (["audit", "export", "--db", str(db), "--out", str(tmp_path / "e.jsonl")], tmp_path / "e.jsonl")):
        p = pitdesk(*args, env=env)
        assert p.returncode == 0, p.stderr
        assert oct(out.stat().st_mode & 0o777) == oct(0o600), args
