"""``pitdesk inventory``: the pit's money from the command line (issue 34, app/cli/inventory_command.py),
the real ``pitdesk`` executable on a real SQLite file: a whole shift from the opener to the drop with the
win reconciled to the cent with the rounds; every refusal exits 2 naming the fault with nothing of it
written; the count room's file refused line by line with nothing written for any of its tables."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.engine.inventory import win_over_drop
from app.store import trays
from app.store.log import AuditLog
from app.simulate.demo import add_demo_users
from app.workstation import config
from app.workstation.workstation import Workstation
from tests.support.workstation import COUNT_1, COUNT_2, DEALER, FLOOR

ROOT = Path(__file__).resolve().parents[2]
PITDESK = str(Path(sys.executable).with_name("pitdesk"))
FLOOR_TOML = "".join(f'[[tables]]\nid = "{p}"\nprofile = "{p}"\n\n' for p in ("section6", "casino", "nj"))
OPENER = "20 x $100, 40 x $25, 100 x $5, 100 x $1"      # $3,600.00
PINS = {"demo-floor": "2222", "demo-pit": "3333", "demo-dealer": "4444", "demo-cashier": "5555",
        "demo-security": "6666", "demo-count-1": "7777", "demo-count-2": "8888"}


@pytest.fixture
def floor(tmp_path, monkeypatch):
    """A configuration of three tables and its database with the demo people in it (the install's
    key in ``PITDESK_HOME``, which the commands are given too)."""
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    cfg = tmp_path / "floor.toml"
    cfg.write_text(FLOOR_TOML)
    db = tmp_path / "pit.db"
    with Workstation(config.load(cfg), db) as ws:
        add_demo_users(ws)
    return tmp_path, cfg, db


def pitdesk(floor, *argv, who=(), pins=None) -> subprocess.CompletedProcess:
    """The real command on the floor; the PINs of ``who`` (--as first, then each --with) on stdin."""
    home, cfg, db = floor
    stdin = pins if pins is not None else "".join(PINS[n] + "\n" for n in who)
    signers = []
    if who:
        signers = ["--as", who[0]] + [x for n in who[1:] for x in ("--with", n)]
    return subprocess.run([PITDESK, "inventory", *argv, "--config", str(cfg), "--db", str(db), *signers],
                          input=stdin, capture_output=True, text=True, timeout=120,
                          env=env(home))


def env(home: Path) -> dict:
    return {**os.environ, "PITDESK_HOME": str(home / "home")}


def ok(p) -> dict | str:
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout) if p.stdout.lstrip().startswith("{") else p.stdout


def refused(p, words: str) -> None:
    assert p.returncode == 2 and p.stdout == "", (p.returncode, p.stdout, p.stderr)
    assert words in p.stderr, p.stderr
    assert "Traceback" not in p.stderr


def count(db: Path, table: str) -> int:
    with AuditLog(db) as log:
        return log.query(f"SELECT COUNT(*) AS n FROM {table}")[0]["n"]


def money_rows(db: Path) -> dict:
    return {t: count(db, t) for t in ("trays", "tray_slips", "buy_ins", "drops")}


def test_a_whole_shift_from_the_opener_to_the_drop_reconciles_with_the_rounds(floor):
    home, cfg, db = floor
    DEALER_FLOOR = ("demo-dealer", "demo-floor")
    ok(pitdesk(floor, "open", "--table", "section6", "--count", OPENER, who=DEALER_FLOOR))
    # a round settled at the table, as the window settles it
    house = ROOT / "docs" / "rounds" / "section6-house.json"
    p = subprocess.run([PITDESK, "round", "settle", "--table", "section6", str(house),
                        "--config", str(cfg), "--db", str(db), "--as", "demo-dealer"], input="4444\n",
                       capture_output=True, text=True, timeout=120, env=env(home))
    assert p.returncode == 0, p.stderr
    net = json.loads(p.stdout)["net_by_party"]["house"]
    ok(pitdesk(floor, "buy-in", "--table", "section6", "--amount", "500", "--seat", "3", "--player", "P. Chan",
               who=("demo-dealer",)))
    # a fill: asked for, approved, signed at the cage, then at the table (the tray moves there)
    slip = ok(pitdesk(floor, "fill", "--table", "section6", "--count", "20 x $25", "--reason", "the $25s run low",
                      "--json", who=("demo-dealer",)))
    assert (slip["kind"], slip["number"], slip["status"], slip["cents"]) == ("fill", 1, "requested", 50_000)
    assert ok(pitdesk(floor, "fill", "--number", "1", "--approve", "--json", who=("demo-floor",)))["status"] == \
        "approved"
    ok(pitdesk(floor, "fill", "--number", "1", "--sign", "cage", who=("demo-cashier", "demo-security")))
    done = ok(pitdesk(floor, "fill", "--number", "1", "--sign", "table", "--json", who=DEALER_FLOOR))
    assert done["status"] == "complete" and done["table_signers"] == [["demo-dealer", "dealer"],
                                                                      ["demo-floor", "floor supervisor"]]
    # a credit asked for, then denied: VOID, the tray untouched
    ok(pitdesk(floor, "credit", "--table", "section6", "--count", "5 x $100", "--reason", "too many $100s",
               who=("demo-dealer",)))
    denied = ok(pitdesk(floor, "credit", "--number", "1", "--deny", "the player bought them", "--json",
                        who=("demo-floor",)))
    assert denied["status"] == "VOID" and "the player bought them" in denied["void_reason"]
    shown = ok(pitdesk(floor, "show", "--table", "section6", "--json"))
    (t,) = shown["tables"]
    m = t["money"]
    assert t["open"] and m["opener"] == 360_000 and m["fills"] == 50_000 and m["credits"] == 0
    assert m["buy_ins"] == 50_000 and m["rounds"] == 1 and m["rounds_house_net"] == net
    assert m["expected_closer"] == 360_000 + 50_000 - 50_000 + m["rounds_tray"]
    assert m["closer"] is None and m["win"] is None and shown["pending"] == []
    # the closer counted as the tray should hold it, the drop holding the buy-in's cash
    expected = m["expected_closer"]
    assert expected % 100 == 0
    ok(pitdesk(floor, "close", "--table", "section6", "--count", f"{expected // 100} x $1", who=DEALER_FLOOR))
    out = ok(pitdesk(floor, "drop", "--table", "section6", "--count", "5 x $100", "--json",
                     who=("demo-count-1", "demo-count-2")))
    m = out["money"]
    assert m["closer"] == expected and m["drop"] == 50_000
    assert m["win"] == m["drop"] + m["closer"] + m["credits"] - m["opener"] - m["fills"]
    assert m["win"] == m["rounds_house_net"] + m["to_meter"] and m["difference"] == 0
    assert m["win_over_drop"] == win_over_drop(m["win"], 50_000)
    with AuditLog(db) as log:
        assert not log.query("SELECT * FROM alarms WHERE kind IN ('tray_difference', 'win_difference')")
        (row,) = log.query("SELECT * FROM drops")
        assert json.loads(row["signed_by"]) == [["demo-count-1", "count team"], ["demo-count-2", "count team"]]
    text = ok(pitdesk(floor, "show", "--table", "section6"))
    assert "section6: closed" in text and "difference $0.00" in text
    # the next opener without a count: the last closer carried over, no alarm
    again = ok(pitdesk(floor, "open", "--table", "section6", "--json", who=DEALER_FLOOR))
    assert again["money"]["opener"] == expected and again["opener_count"] == {"100": expected // 100}
    with AuditLog(db) as log:
        assert not log.query("SELECT * FROM alarms WHERE kind = 'opener_differs'")
    p = subprocess.run([PITDESK, "audit", "verify", "--db", str(db)], capture_output=True, text=True, timeout=120,
                       env=env(home))
    assert p.returncode == 0, p.stdout + p.stderr


def test_show_json_gives_the_money_keys_and_the_pending_slips(floor):
    ok(pitdesk(floor, "open", "--table", "casino", "--count", OPENER, who=("demo-dealer", "demo-floor")))
    ok(pitdesk(floor, "credit", "--table", "casino", "--count", "5 x $100", "--reason", "too many $100s",
               who=("demo-dealer",)))
    shown = ok(pitdesk(floor, "show", "--json"))
    assert [t["table"] for t in shown["tables"]] == ["section6", "casino", "nj"]
    section6, casino, nj = shown["tables"]
    assert section6["shift"] is None and section6["money"] is None
    assert casino["open"] and casino["opener_count"] == {"100": 100, "500": 100, "2500": 40, "10000": 20}
    assert {"opener", "fills", "credits", "closer", "drop", "win", "rounds_house_net", "difference", "buy_ins",
            "expected_closer", "tray_difference", "rounds_tray"} <= set(casino["money"])
    (p,) = shown["pending"]
    assert (p["kind"], p["number"], p["status"], p["table"], p["cents"]) == ("credit", 1, "requested", "casino",
                                                                            50_000)
    assert casino["slips"] == [p]


def test_each_refusal_exits_2_naming_the_fault_with_nothing_written(floor):
    home, cfg, db = floor
    before = money_rows(db)
    # a wrong PIN: the sign-in refused (and logged), nothing of the money written
    refused(pitdesk(floor, "open", "--table", "section6", "--count", OPENER, "--as", "demo-dealer",
                    "--with", "demo-floor", pins="9999\n2222\n"), "PIN")
    refused(pitdesk(floor, "open", "--table", "section6", "--count", OPENER, who=("demo-dealer", "demo-floor"),
                    pins="4444\n9999\n"), "PIN")
    # one signer where two are needed; a PIN missing on stdin
    refused(pitdesk(floor, "open", "--table", "section6", "--count", OPENER, who=("demo-dealer",)),
            "takes two people")
    refused(pitdesk(floor, "open", "--table", "section6", "--count", OPENER, "--as", "demo-dealer",
                    "--with", "demo-floor", pins="4444\n"), "expected a PIN on stdin")
    refused(pitdesk(floor, "open", "--table", "T9", "--count", OPENER, who=("demo-dealer", "demo-floor")),
            "no table 'T9'")
    refused(pitdesk(floor, "open", "--table", "section6", "--count", "10 x $2", who=("demo-dealer", "demo-floor")),
            "no $2.00 chip")
    refused(pitdesk(floor, "buy-in", "--table", "section6", "--amount", "5OO", who=("demo-dealer",)),
            "--amount")
    assert money_rows(db) == before
    ok(pitdesk(floor, "open", "--table", "section6", "--count", OPENER, who=("demo-dealer", "demo-floor")))
    # a fill signed at the table before the cage; at the cage by a cashier alone
    ok(pitdesk(floor, "fill", "--table", "section6", "--count", "20 x $25", "--reason", "low", who=("demo-dealer",)))
    refused(pitdesk(floor, "fill", "--number", "1", "--sign", "cage", who=("demo-cashier", "demo-security")),
            "waits for a supervisor's approval")
    refused(pitdesk(floor, "fill", "--number", "1", "--approve", who=("demo-dealer",)), "demo-dealer")
    ok(pitdesk(floor, "fill", "--number", "1", "--approve", who=("demo-floor",)))
    refused(pitdesk(floor, "fill", "--number", "1", "--sign", "table", who=("demo-dealer", "demo-floor")),
            "it is signed at the cage first")
    refused(pitdesk(floor, "fill", "--number", "1", "--sign", "cage", who=("demo-cashier",)),
            "a cashier and a security")
    with AuditLog(db) as log:
        assert trays.slip(log, "fill", 1)["status"] == "approved"
    # a void slip is never used again
    ok(pitdesk(floor, "fill", "--number", "1", "--void", "asked twice", who=("demo-floor",)))
    refused(pitdesk(floor, "fill", "--number", "1", "--sign", "cage", who=("demo-cashier", "demo-security")),
            "a void slip is never used again")
    refused(pitdesk(floor, "fill", "--number", "7", "--approve", who=("demo-floor",)), "no fill slip 7")
    refused(pitdesk(floor, "fill", "--number", "1", who=("demo-floor",)), "say what is done with it")
    # a drop before the closer; a drop entered twice
    refused(pitdesk(floor, "drop", "--table", "section6", "--count", "1 x $100", who=("demo-count-1", "demo-count-2")),
            "has no closed shift")
    ok(pitdesk(floor, "close", "--table", "section6", "--count", OPENER, who=("demo-dealer", "demo-floor")))
    refused(pitdesk(floor, "drop", "--table", "section6", "--count", "0 x $100", "--shift", "1",
                    who=("demo-count-1", "demo-count-2")), "no shift of table section6 opened by row 1")
    refused(pitdesk(floor, "drop", "--table", "section6", "--count", "1 x $2", who=("demo-count-1", "demo-count-2")),
            "no $2.00 note")
    ok(pitdesk(floor, "drop", "--table", "section6", "--count", "0 x $100", who=("demo-count-1", "demo-count-2")))
    refused(pitdesk(floor, "drop", "--table", "section6", "--count", "0 x $100", who=("demo-count-1", "demo-count-2")),
            "a drop box is counted once")
    with AuditLog(db) as log:
        assert log.query("SELECT status FROM tray_slips") == [{"status": "VOID"}]
        assert log.query("SELECT COUNT(*) AS n FROM drops")[0]["n"] == 1


@pytest.fixture
def closed(floor):
    """section6 and casino closed, their drops not counted; nj never opened."""
    home, cfg, db = floor
    with Workstation(config.load(cfg), db) as ws:
        for table in ("section6", "casino"):
            ws.people.sign_in(*DEALER)
            ws.inventory.open_tray(table, OPENER, signer=FLOOR)
            ws.inventory.buy_in(table, 30_000, seat=1)
            ws.inventory.close_tray(table, "20 x $100, 40 x $25, 40 x $5, 100 x $1", signer=FLOOR)   # $3,300
    return floor


GOOD = "table,denomination,count\nsection6,$100,2\nsection6,20,5\ncasino,$100,3\n"


@pytest.mark.parametrize("text,line,why", [
    ("tbl,value,n\nsection6,$100,3\n", 1, "the header 'table,denomination,count'"),
    (GOOD + "T9,$100,1\n", 5, "no table 'T9' on this floor"),
    (GOOD + "casino,$25,1\n", 5, "no $25.00 note in [chips] currency"),
    (GOOD + "casino,$5,2.5\n", 5, "a whole number from 0 to"),
    (GOOD + "casino,$5,-1\n", 5, "a whole number from 0 to"),
    (GOOD + "casino,100,1\n", 5, "casino's $100.00 notes are counted twice (line 4 and line 5)"),
    (GOOD + "nj,$100,1\n", 5, "nj has no closed shift"),
    (GOOD + "casino,$5\n", 5, "3 fields"),
    ("table,denomination,count\n", None, "no table's count after the header"),
], ids=["header", "unknown-table", "note-value", "not-whole", "negative", "twice", "no-closed-shift", "fields",
        "no-lines"])
def test_a_bad_count_room_file_is_refused_naming_the_line_with_nothing_written(closed, text, line, why):
    home, cfg, db = closed
    f = home / "countroom.csv"
    f.write_text(text)
    p = pitdesk(closed, "drop", "--csv", str(f), who=("demo-count-1", "demo-count-2"))
    refused(p, why)
    if line is not None:
        assert f"countroom.csv:{line}: " in p.stderr
    assert count(db, "drops") == 0


def test_the_count_room_file_writes_every_table_or_none(closed):
    home, cfg, db = closed
    f = home / "countroom.csv"
    f.write_text(GOOD)
    refused(pitdesk(closed, "drop", "--csv", str(f), who=("demo-count-1",)), "takes two people")
    with Workstation(config.load(cfg), db) as ws:       # casino's drop counted in the dialog meanwhile
        ws.people.sign_in(*COUNT_1)
        ws.inventory.drop("casino", "3 x $100", signers=[COUNT_2])
    p = pitdesk(closed, "drop", "--csv", str(f), who=("demo-count-1", "demo-count-2"))
    refused(p, "countroom.csv:4: ")
    assert "a drop box is counted once" in p.stderr and "nothing written" in p.stderr
    assert count(db, "drops") == 1
    f.write_text(GOOD.replace("casino,$100,3\n", ""))
    out = ok(pitdesk(closed, "drop", "--csv", str(f), "--json", who=("demo-count-1", "demo-count-2")))
    (t,) = out["tables"]
    assert t["table"] == "section6" and t["money"]["drop"] == 30_000 and t["money"]["difference"] == 0
    with AuditLog(db) as log:
        assert log.query("SELECT source FROM drops WHERE table_id = 'section6'") == [{"source": "countroom.csv"}]


def test_pitdesk_help_lists_the_inventory_command():
    p = subprocess.run([PITDESK, "--help"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and "inventory" in p.stdout
    p = subprocess.run([PITDESK, "inventory", "--help"], capture_output=True, text=True, timeout=60)
    for action in ("open", "close", "fill", "credit", "buy-in", "drop", "show"):
        assert action in p.stdout
