"""A workstation's log written back from the casino's copy (``pitdesk floor restore``, issue 28),
and a restored log or a backup shipped under the workstation's own name: its chain on the server
goes on, never a second copy of its rows under a new name (app/store/reading.py ``ships_as``)."""

from __future__ import annotations

import sqlite3

from tests.support.casino import Pit, held, pitdesk


def _pit_at(pit: Pit, db) -> Pit:
    """The same workstation (its install key) working on another log file."""
    other = Pit.__new__(Pit)
    other.home, other.db, other.id = pit.home, db, pit.id
    return other


def test_a_lost_workstation_is_restored_from_the_server_and_goes_on_with_its_chain(casino, tmp_path):
    pit = Pit(tmp_path / "pit", 120)
    assert pitdesk("ship", "--db", str(pit.db), "--to", casino.ship)[0] == 0
    pit.add(7)                      # rows written after the last shipment, lost with the disk
    out = tmp_path / "restored.db"
    rc, made, err = pitdesk("floor", "restore", "--pg", casino.floor, "--workstation", pit.id, "--out", str(out))
    assert rc == 0, err
    assert made["workstation"] == pit.id and made["rows"] == 120 and made["head"]["seq"] == 120
    assert made["db_id"] != pit.id and made["restored"] == str(out)
    assert oct(out.stat().st_mode & 0o777) == oct(0o600)     # it holds the PINs' keyed hashes (issue 35, 9)
    restored = _pit_at(pit, out)
    assert restored.rows() == pit.rows()[:120]          # every shipped row, with its hash and seal
    meta = dict(sqlite3.connect(out).execute("SELECT key, value FROM meta"))
    assert meta["ships_as"] == pit.id and meta["db_id"] == made["db_id"]
    # the restored log verifies with the workstation's key, its read models too
    rc, report, err = pitdesk("audit", "verify", "--db", str(out), home=pit.home)
    assert rc == 0 and report["ok"] and report["rows"] == 120, (err, report)
    assert report["seals"] == "checked" and report["read_models"] == "checked"

    # the workstation goes on on it: its new rows follow the server's head, under its own name
    restored.add(30)
    rc, shipped, err = pitdesk("ship", "--db", str(out), "--to", casino.ship)
    assert rc == 0, err
    assert shipped["workstation"] == pit.id and shipped["from_seq"] == 121 and shipped["to_seq"] == 150
    assert held(casino.floor, pit.id) == restored.rows()
    rc, verified, err = pitdesk("floor", "verify", "--pg", casino.floor, "--key", f"{pit.id}={pit.key_file}",
                                "--json")
    assert rc == 0, err
    assert [w["workstation"] for w in verified["workstations"]] == [pit.id]
    assert verified["workstations"][0]["rows"] == 150 and verified["workstations"][0]["seals"] == "checked"


def test_a_backup_ships_as_its_workstation_not_as_a_second_one(casino, tmp_path):
    pit = Pit(tmp_path / "pit", 40)
    assert pitdesk("ship", "--db", str(pit.db), "--to", casino.ship)[0] == 0
    backup = tmp_path / "backup.db"
    rc, _, err = pitdesk("audit", "backup", "--db", str(pit.db), "--out", str(backup), home=pit.home)
    assert rc == 0, err
    rc, again, err = pitdesk("audit", "backup", "--db", str(backup), "--out", str(tmp_path / "b2.db"), home=pit.home)
    assert rc == 0, err
    for copy in (backup, tmp_path / "b2.db"):         # a backup of a backup too
        rc, shipped, err = pitdesk("ship", "--db", str(copy), "--to", casino.ship)
        assert rc == 0, err
        assert shipped["workstation"] == pit.id and shipped["shipped"] == 0
    # a backup older than the server's copy: the rows it lacks are named, and where to get them
    pit.add(10)
    assert pitdesk("ship", "--db", str(pit.db), "--to", casino.ship)[0] == 0
    _pit_at(pit, backup).add(3)
    rc, shipped, err = pitdesk("ship", "--db", str(backup), "--to", casino.ship)
    assert rc == 1 and "the server holds rows up to 50 of this log but the local log ends at row 43: it lost rows" \
        in err and "pitdesk floor restore" in err, (shipped, err)
    # its JSON too (issue 35, finding 4): every row it has is the server's, so it is behind, not a fork
    assert shipped["refused"]["whose"] == "local" and shipped["refused"]["seq"] == 44
    assert held(casino.floor, pit.id) == pit.rows()       # nothing of the backup's taken


def test_restore_refuses_naming_the_fault_and_writes_nothing(casino, tmp_path):
    pit = Pit(tmp_path / "pit", 50)
    assert pitdesk("ship", "--db", str(pit.db), "--to", casino.ship)[0] == 0
    taken = tmp_path / "taken.db"
    taken.write_bytes(b"keep me")
    casino.sql("ALTER TABLE pitdesk.events DISABLE TRIGGER USER; "
               f"UPDATE pitdesk.events SET body = replace(body, 'note 20', 'note 02') WHERE workstation = '{pit.id}' "
               "AND seq = 21; ALTER TABLE pitdesk.events ENABLE TRIGGER USER")
    for args, words in (((pit.id, tmp_path / "r.db"), "does not verify, so it is not restored: row 21: edited"),
                        (("no-such-ws", tmp_path / "r.db"), "holds no workstation no-such-ws"),
                        ((pit.id, taken), "exists; a restore never replaces a file"),
                        ((pit.id, tmp_path / "none" / "r.db"), "no folder")):
        rc, out, err = pitdesk("floor", "restore", "--pg", casino.floor, "--workstation", args[0], "--out",
                               str(args[1]))
        assert rc == 2 and words in err and len(err.strip().splitlines()) == 1, (args, rc, err)
    assert taken.read_bytes() == b"keep me"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pit", "taken.db"]
