"""``pitdesk round settle --table T1 ROUND.json``: a round file settled into a live log through the
workstation (app/cli/round_command.py), equal to ``pitdesk settle`` on the same file to the cent; refusals
exit 2 naming the fault with nothing of the round logged. Real SQLite files."""

import io
import json
import subprocess
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from app.cli.main import main as pitdesk
from app.store.log import AuditLog
from app.workstation import config
from app.simulate.demo import add_demo_users
from app.workstation.workstation import Workstation

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "rounds").glob("*.json"))
PITDESK = str(Path(sys.executable).with_name("pitdesk"))
FLOOR = "".join(f'[[tables]]\nid = "{p}"\nprofile = "{p}"\n\n' for p in ("section6", "nj", "face-up-ca", "casino", "sd",
                                                                        "section6-even"))


@pytest.fixture
def floor(tmp_path, monkeypatch):
    """A configuration file and its database with the demo people in it."""
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    cfg = tmp_path / "floor.toml"
    cfg.write_text(FLOOR)
    db = tmp_path / "pit.db"
    with Workstation(config.load(cfg), db) as ws:
        add_demo_users(ws)
    return cfg, db


def run(monkeypatch, *argv, pin="4444") -> tuple[int, str, str]:
    """The command in this process, the PIN on stdin as a script gives it."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(pin + "\n"))
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = pitdesk(list(argv))
    return code, out.getvalue(), err.getvalue()


def rows(db: Path, where: str = "1") -> list[dict]:
    with AuditLog(db) as log:
        return log.query(f"SELECT seq, type, actor FROM events WHERE {where} ORDER BY seq")


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_settles_into_the_log_as_pitdesk_settle_prints_it(floor, monkeypatch, path):
    cfg, db = floor
    table = json.loads(path.read_text())["profile"]
    code, out, err = run(monkeypatch, "round", "settle", "--table", table, str(path), "--config", str(cfg),
                         "--db", str(db), "--as", "demo-dealer")
    assert code == 0, err
    shown = json.loads(out)
    code, want, _ = run(monkeypatch, "settle", str(path))
    want = json.loads(want)
    assert shown["logged"] == want
    assert shown["net_by_party"] == want["net_by_party"] and sum(shown["net_by_party"].values()) == 0
    assert [(x["frm"], x["to"], x["cents"], x["rule"]) for x in shown["ledger"]] == \
        [(m["from"], m["to"], m["cents"], m["rule"]) for m in want["ledger"]]
    assert shown["table"] == table and shown["actor"] == "demo-dealer" and shown["role"] == "dealer"
    assert shown["status"] == ("pending" if want["approvals"] else "ready")
    assert ("waits for approval" in err) == bool(want["approvals"])
    with AuditLog(db) as log:
        (row,) = log.query("SELECT body FROM events WHERE type = 'settlement'")
        assert json.loads(row["body"])["data"]["settlement"] == want
        assert log.query("SELECT count(*) AS n FROM approvals")[0]["n"] == len(want["approvals"])


def test_the_real_command_settles_and_a_refusal_exits_2_with_nothing_of_the_round_logged(floor, tmp_path):
    cfg, db = floor
    env = {"PITDESK_HOME": str(tmp_path / "home"), "PATH": "/usr/bin:/bin"}
    good = ROOT / "docs" / "rounds" / "casino-house.json"
    p = subprocess.run([PITDESK, "round", "settle", "--table", "casino", str(good), "--config", str(cfg),
                        "--db", str(db), "--as", "demo-floor", "--pin-stdin"], input="2222\n", capture_output=True,
                       text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["status"] == "ready"
    # over the table maximum (docs/round-format.md, "Table limits")
    obj = json.loads(good.read_text())
    obj["seats"][2]["wagers"]["base"] = 1_000_000_000
    bad = tmp_path / "over.json"
    bad.write_text(json.dumps(obj))
    before = len(rows(db))
    p = subprocess.run([PITDESK, "round", "settle", "--table", "casino", str(bad), "--config", str(cfg),
                        "--db", str(db), "--as", "demo-floor"], input="2222\n", capture_output=True, text=True,
                       timeout=120, env=env)
    assert p.returncode == 2 and p.stdout == ""
    assert "seat 4: base wager $10,000,000.00 is over the table maximum $5,000.00 (profile casino)" in p.stderr
    assert [r["type"] for r in rows(db)[before:]] == ["sign_in", "signed_out"]


def same_cards(o):
    for k in ("cards", "high", "low"):
        o["seats"][1][k] = o["seats"][0][k]


@pytest.mark.parametrize("change,argv,why", [
    (same_cards, (), "card Ks is dealt to both seat 1 and seat 2"),
    (None, ("--table", "nj"), "table nj plays profile 'nj'; the round file is for 'casino'"),
    (None, ("--table", "T9"), "--table: no table 'T9' on this floor"),
    (lambda o: o["banking"].update(mode="player", seat=4, chips=100_000, last_wager=2000, dealer_wager=0), (),
     "seat 4: the bank does not wager against itself"),
    # 003 PLAYER BANK 1-2: nobody banks two rounds running (a casino table cites its own text, issue 33)
    (lambda o: (o["banking"].update(mode="co-bank", seat=4, chips=100_000, last_wager=2000, banked_last_round=True),
                o["seats"][2].update(wagers={})), (),
     "no player may bank two consecutive rounds (003 PLAYER BANK PROCEDURES 1, 2)"),
])
def test_a_refused_round_names_the_fault(floor, monkeypatch, tmp_path, change, argv, why):
    cfg, db = floor
    obj = json.loads((ROOT / "docs" / "rounds" / "casino-house.json").read_text())
    if change:
        change(obj)
    f = tmp_path / "round.json"
    f.write_text(json.dumps(obj))
    before = rows(db, "type NOT IN ('sign_in', 'signed_out')")
    code, out, err = run(monkeypatch, "round", "settle", "--table", "casino", str(f), "--config", str(cfg),
                         "--db", str(db), "--as", "demo-dealer", *argv)
    assert code == 2 and out == "" and why in err, err
    assert rows(db, "type NOT IN ('sign_in', 'signed_out')") == before


def test_who_settles_signs_in_with_their_pin(floor, monkeypatch):
    cfg, db = floor
    path = str(ROOT / "docs" / "rounds" / "sd-house.json")
    code, _, err = run(monkeypatch, "round", "settle", "--table", "sd", path, "--config", str(cfg), "--db", str(db),
                       "--as", "demo-dealer", pin="0000")
    assert code == 2 and "wrong PIN" in err
    code, _, err = run(monkeypatch, "round", "settle", "--table", "sd", path, "--config", str(cfg), "--db", str(db),
                       "--as", "demo-admin", pin="1111")
    assert code == 2 and "demo-admin is an administrator; to enter a round takes a dealer" in err
    assert not rows(db, "type = 'settlement'")


def test_the_demo_floor_needs_a_database_and_settles_at_its_tables(tmp_path, monkeypatch):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    path = str(ROOT / "docs" / "rounds" / "casino-house.json")
    code, _, err = run(monkeypatch, "round", "settle", "--table", "T3", path, "--demo", "--as", "demo-dealer")
    assert code == 2 and "--demo needs --db PATH" in err
    db = tmp_path / "demo.db"
    code, out, err = run(monkeypatch, "round", "settle", "--table", "T3", path, "--demo", "--db", str(db),
                         "--as", "demo-dealer")
    assert code == 0, err
    assert json.loads(out)["table"] == "T3"
    assert [r["actor"] for r in rows(db, "type = 'settlement'")] == ["demo-dealer"]


def test_a_demo_log_from_before_t1_played_section6_even_is_carried_over(tmp_path, monkeypatch):
    # T1 played section6 (000(l)(9) as written) until issue 25; the command carries the log over as
    # the window's demo does (app/simulate/demo.py carry_over) and settles at 1 to 1
    from app.simulate.demo import DEMO_TABLES, PREFIX, demo_config
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    db = tmp_path / "demo.db"
    old = tuple((t, "section6" if t in ("T1", "T5") else p, pos, c) for t, p, pos, c in DEMO_TABLES)
    urls = {f"{PREFIX[c]}-{t}": f"demo://{PREFIX[c]}-{t}" for t, _, _, classes in old for c in classes}
    with Workstation(demo_config(urls, old), db) as ws:
        add_demo_users(ws)
    path = str(ROOT / "docs" / "rounds" / "section6-even-house.json")
    code, out, err = run(monkeypatch, "round", "settle", "--table", "T1", path, "--demo", "--db", str(db),
                         "--as", "demo-dealer")
    assert code == 0, err
    shown = json.loads(out)
    assert shown["table"] == "T1" and shown["logged"]["profile"] == "section6-even"
    assert {(x["to"], x["reason"]) for x in shown["ledger"] if x["wager"] == "base"} >= {("seat 1", "wins 1 to 1")}
    assert [r["type"] for r in rows(db, "table_id = 'T1' AND type = 'table_configured'")] == ["table_configured"] * 2
