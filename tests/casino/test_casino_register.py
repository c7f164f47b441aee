"""The casino's register of its workstations (issue 35, finding 2 and finding 9's ``floor
restore``; app/store/pg/register.py, docs/casino.md): a shipping login cannot invent a pit,
neither by an INSERT of a made-up workstation nor by shipping a log made under another data
folder; each refusal recorded on the server, with the command that registers it. Names shown
for ids; ``floor verify --strict``; a server with workstations already shipping upgraded to 5."""

from __future__ import annotations

import psycopg

from app.store.pg import pg_migrations
from tests.support.casino import Pit, held, pitdesk, refusals, register
from tests.support.pg import OWNER, SHIPPER


def test_a_shipping_login_cannot_insert_rows_of_a_made_up_workstation(casino, tmp_path):
    pit = Pit(tmp_path, 5)
    assert pitdesk("ship", "--db", str(pit.db), "--to", casino.ship)[0] == 0
    row = pit.rows()[0]
    with psycopg.connect(casino.ship, autocommit=True) as conn:
        conn.execute("INSERT INTO pitdesk.events (workstation, seq, time, table_id, type, actor, role, body, "
                     "prev_hash, hash, hmac) VALUES ('fake-pit-9', %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)", row)
    assert held(casino.floor, "fake-pit-9") == []
    ((seq, reason, _, by),) = refusals(casino.floor, "fake-pit-9")
    assert seq == 1 and by == SHIPPER
    assert ("workstation fake-pit-9 is not registered on this server: the casino's owner registers it with "
            "pitdesk floor register --pg URL --workstation fake-pit-9") in reason
    rc, out, err = pitdesk("floor", "verify", "--pg", casino.floor, "--json")
    assert rc == 0 and [w["workstation"] for w in out["workstations"]] == [pit.id], out


def test_a_log_of_another_data_folder_shipped_by_pit1_is_refused_and_not_in_the_floors_report(casino, tmp_path):
    pit = Pit(tmp_path / "pit1", 30)
    assert pitdesk("ship", "--db", str(pit.db), "--to", casino.ship)[0] == 0
    made_up = Pit(tmp_path / "elsewhere", 629)
    rc, out, err = pitdesk("ship", "--db", str(made_up.db), "--to", casino.ship, registered=False)
    assert rc == 1 and out["shipped"] == 0, (out, err)
    assert f"workstation {made_up.id} is not registered on this server" in err and "pitdesk floor register" in err
    assert held(casino.floor, made_up.id) == [] and len(refusals(casino.floor, made_up.id)) == 1
    rc, out, err = pitdesk("floor", "verify", "--pg", casino.floor, "--json")
    assert rc == 0 and [w["workstation"] for w in out["workstations"]] == [pit.id], out
    # the floor's report of the shift the rows are in has pit1 and no made-up pit
    rc, out, err = pitdesk("report", "shift", "--pg", casino.floor, "--date", "2026-11-21", "--shift", "day", "--json")
    assert rc == 0 and [p["db_id"] for p in out["pits"]] == [pit.id] and out["quiet"] == [], (out, err)


def test_register_names_a_workstation_and_changes_it_recorded(casino, tmp_path):
    pit = Pit(tmp_path, 12)
    rc, out, err = pitdesk("floor", "register", "--pg", casino.owner, "--workstation", pit.id, "--name", "Pit 3",
                           "--login", SHIPPER)
    assert rc == 0 and out["registered"] == "new" and out["name"] == "Pit 3" and out["login"] == SHIPPER, err
    assert pitdesk("ship", "--db", str(pit.db), "--to", casino.ship, registered=False)[0] == 0
    rc, out, err = pitdesk("floor", "register", "--pg", casino.owner, "--workstation", pit.id, "--name",
                           "Pit 3 east", "--login", SHIPPER)
    assert rc == 0 and out["registered"] == "changed" and out["before"] == {"name": "Pit 3", "login": SHIPPER}
    rc, out, err = pitdesk("floor", "verify", "--pg", casino.floor)
    assert rc == 0 and out.startswith(f"Pit 3 east ({pit.id[:8]}…): ok, 12 rows"), out
    rc, out, err = pitdesk("floor", "verify", "--pg", casino.floor, "--json")
    assert out["workstations"][0]["name"] == "Pit 3 east"
    rows = casino.sql(f"SELECT name || '/' || login || '/' || registered_by FROM pitdesk.registrations "
                      f"WHERE workstation = '{pit.id}' ORDER BY id").splitlines()
    assert rows == [f"Pit 3/{SHIPPER}/{OWNER}", f"Pit 3 east/{SHIPPER}/{OWNER}"]


def test_register_refuses_bad_input_naming_the_fault(casino, tmp_path):
    pit = Pit(tmp_path, 1)
    for args, words in (
            (("--name", "", "--login", SHIPPER), "--name '' is not a name"),
            (("--name", "Pit\x073", "--login", SHIPPER), "is not a name"),
            (("--name", "Pit 3", "--login", "nobody_here"), "--login nobody_here: the server at"),
            (("--name", "Pit 3", "--login", "floor_audit"), "--login floor_audit is not a login of pitdesk_ship"),
            (("--name", "Pit 3", "--login", "x'; DROP"), "is not a login name")):
        rc, out, err = pitdesk("floor", "register", "--pg", casino.owner, "--workstation", pit.id, *args)
        assert rc == 2 and words in err and "Traceback" not in err, (args, rc, err)
    rc, out, err = pitdesk("floor", "register", "--pg", casino.ship, "--workstation", pit.id, "--name", "Pit 3",
                           "--login", SHIPPER)
    assert rc == 2 and "may not register a workstation" in err, err
    assert casino.sql("SELECT count(*) FROM pitdesk.workstations").strip() == "0"


def test_strict_verify_requires_every_key_and_names_an_unregistered_workstation(casino, tmp_path):
    a, b = Pit(tmp_path / "a", 20), Pit(tmp_path / "b", 10)
    for p in (a, b):
        assert pitdesk("ship", "--db", str(p.db), "--to", casino.ship)[0] == 0
    keys = ("--key", f"{a.id}={a.key_file}", "--key", f"{b.id}={b.key_file}")
    assert pitdesk("floor", "verify", "--pg", casino.floor, "--strict", *keys)[0] == 0
    rc, out, err = pitdesk("floor", "verify", "--pg", casino.floor, "--strict", *keys[:2], "--json")
    assert rc == 1 and [w["ok"] for w in out["workstations"] if w["workstation"] == a.id] == [True]
    (fault,) = [w["fault"] for w in out["workstations"] if w["workstation"] == b.id]
    assert f"no --key {b.id}=FILE given" in fault
    # the owner goes round the server's check: a workstation that is not registered holds rows
    c = Pit(tmp_path / "c", 3)
    casino.sql("ALTER TABLE pitdesk.events DISABLE TRIGGER event_arrives; "
               f"INSERT INTO pitdesk.workstations (workstation, shipper, head_seq, head_hash) SELECT '{c.id}', "
               f"'{SHIPPER}', 3, '{c.rows()[-1][8]}';" +
               "".join(f"INSERT INTO pitdesk.events (workstation, seq, time, table_id, type, actor, role, body, "
                       f"prev_hash, hash, hmac) VALUES ('{c.id}', {r[0]}, '{r[1]}', '{r[2]}', '{r[3]}', '{r[4]}', "
                       f"'{r[5]}', $b${r[6]}$b$, '{r[7]}', '{r[8]}', '{r[9]}');" for r in c.rows()) +
               "ALTER TABLE pitdesk.events ENABLE TRIGGER event_arrives")
    assert pitdesk("floor", "verify", "--pg", casino.floor, *keys)[0] == 0
    rc, out, err = pitdesk("floor", "verify", "--pg", casino.floor, "--strict", *keys)
    assert rc == 1 and f"{c.id}: not registered, yet the server holds 3 rows of it" in out, out


def test_restore_refuses_a_workstation_not_registered_and_names_the_one_it_restores(casino, tmp_path):
    pit = Pit(tmp_path / "pit", 8)
    assert pitdesk("ship", "--db", str(pit.db), "--to", casino.ship)[0] == 0
    register(casino.ship, pit.db, "Pit 7")
    rc, out, err = pitdesk("floor", "restore", "--pg", casino.floor, "--workstation", pit.id,
                           "--out", str(tmp_path / "back.db"))
    assert rc == 0 and out["name"] == "Pit 7" and out["rows"] == 8, err
    # a made-up workstation put on the server past the trigger is not restored
    fake = Pit(tmp_path / "fake", 2)
    casino.sql("ALTER TABLE pitdesk.events DISABLE TRIGGER event_arrives; "
               f"INSERT INTO pitdesk.workstations (workstation, shipper, head_seq, head_hash) SELECT '{fake.id}', "
               f"'{SHIPPER}', 2, '{fake.rows()[-1][8]}';" +
               "".join(f"INSERT INTO pitdesk.events (workstation, seq, time, table_id, type, actor, role, body, "
                       f"prev_hash, hash, hmac) VALUES ('{fake.id}', {r[0]}, '{r[1]}', '{r[2]}', '{r[3]}', '{r[4]}', "
                       f"'{r[5]}', $b${r[6]}$b$, '{r[7]}', '{r[8]}', '{r[9]}');" for r in fake.rows()) +
               "ALTER TABLE pitdesk.events ENABLE TRIGGER event_arrives")
    rc, out, err = pitdesk("floor", "restore", "--pg", casino.floor, "--workstation", fake.id,
                           "--out", str(tmp_path / "fake.db"))
    assert rc == 2 and f"--workstation {fake.id} is not registered" in err, (out, err)
    assert not (tmp_path / "fake.db").exists()


def test_a_server_with_shipping_workstations_upgraded_to_5_registers_them_and_shipping_goes_on(pg_server, tmp_path):
    name = pg_server.database()
    url = pg_server.url(OWNER, name)
    old = pg_migrations.MIGRATIONS[:]
    pg_migrations.MIGRATIONS[:] = [m for m in old if m[0] < 5]
    try:
        pg_migrations.migrate(url)
    finally:
        pg_migrations.MIGRATIONS[:] = old
    pg_server.sql(f"GRANT pitdesk_ship TO {SHIPPER}; GRANT pitdesk_floor TO floor_audit", name)
    ship = pg_server.url(SHIPPER, name)
    pit = Pit(tmp_path, 25)
    assert pitdesk("ship", "--db", str(pit.db), "--to", ship, registered=False)[0] == 0   # schema 4: no register
    assert pitdesk("floor", "migrate", "--pg", url)[1]["applied"][0] == 5
    pit.add(5)
    rc, out, err = pitdesk("ship", "--db", str(pit.db), "--to", ship, registered=False)
    assert rc == 0 and out["shipped"] == 5, err
    assert pg_server.sql("SELECT name || '/' || shipper FROM pitdesk.workstations", name).split() == [
        f"{pit.id}/{SHIPPER}"]
    stranger = Pit(tmp_path / "stranger", 3)
    assert pitdesk("ship", "--db", str(stranger.db), "--to", ship, registered=False)[0] == 1
