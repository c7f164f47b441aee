"""``pitdesk ship`` against a real PostgreSQL (issue 28): the rows copied once each, in order, with
their hashes and seals; several workstations at once and two shippers of one log racing; a
rewritten log refused by the server itself and recorded there; what the shipping role may not do
refused by its grants; every bad input named in one line, exit 2."""

from __future__ import annotations

import threading

import psycopg
import pytest

from app.store.pg import shipping
from tests.support.casino import Pit, held, pitdesk, refusals, register
from tests.support.pg import SHIPPER

KEYS = {"workstation", "name", "shipped", "from_seq", "to_seq", "server_head"}


def test_ship_copies_the_new_rows_once_with_their_hashes_and_seals(casino, tmp_path):
    pit = Pit(tmp_path, 300)
    rc, out, err = pitdesk("ship", "--db", str(pit.db), "--to", casino.ship, "--batch", "128")
    assert rc == 0, err
    assert set(out) == KEYS
    assert out["workstation"] == pit.id
    assert (out["shipped"], out["from_seq"], out["to_seq"]) == (300, 1, 300)
    assert held(casino.floor, pit.id) == pit.rows()
    assert out["server_head"] == {"seq": 300, "hash": pit.rows()[-1][8]}

    rc, out, err = pitdesk("ship", "--db", str(pit.db), "--to", casino.ship)
    assert rc == 0, err
    assert (out["shipped"], out["from_seq"], out["to_seq"], out["server_head"]["seq"]) == (0, None, None, 300)

    pit.add(50)
    rc, out, err = pitdesk("ship", "--db", str(pit.db), "--to", casino.ship)
    assert (rc, out["shipped"], out["from_seq"], out["to_seq"]) == (0, 50, 301, 350), err
    assert held(casino.floor, pit.id) == pit.rows()
    assert refusals(casino.floor, pit.id) == []


def test_three_workstations_shipped_at_once_each_by_two_racing_shippers(casino, tmp_path):
    pits = [Pit(tmp_path / f"pit{n}", 600 + 70 * n, marker=f"pit {n}, Zoë’s") for n in range(3)]
    results: list[shipping.Shipped] = []
    errors: list[BaseException] = []

    def run(pit: Pit) -> None:
        try:
            results.append(shipping.ship(pit.db, casino.ship, batch=25))
        except BaseException as e:  # handed to the test, which fails on it
            errors.append(e)
    for p in pits:
        register(casino.ship, p.db)
    threads = [threading.Thread(target=run, args=(p,), name=f"ship {p.id}") for p in pits for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors and len(results) == 6
    for pit in pits:
        mine = [r for r in results if r.workstation == pit.id]
        assert sum(r.shipped for r in mine) == len(pit.rows()), "a row was shipped twice or not at all"
        assert held(casino.floor, pit.id) == pit.rows()
        assert all(r.refused is None for r in mine)


def test_a_rewritten_log_is_refused_by_the_server_and_recorded_there(casino, tmp_path):
    pit = Pit(tmp_path, 200)
    assert pitdesk("ship", "--db", str(pit.db), "--to", casino.ship)[0] == 0
    original = pit.rows()

    # the workstation carries on; then an insider with the install key rewrites rows 150 on, the
    # chain relinked and resealed
    pit.add(30)
    pit.rewrite(150)
    rc, out, err = pitdesk("ship", "--db", str(pit.db), "--to", casino.ship, home=pit.home)
    assert rc == 1
    assert out["shipped"] == 0 and out["server_head"]["seq"] == 200
    assert out["refused"]["seq"] == 200
    # the server cannot tell whose copy was changed; the shipper checks its own log against its key
    # and the head it recorded, finds it rewritten, and says so (issue 35, finding 3)
    assert "the server refused row 200: row 200 differs from the row the server holds: one of the two copies was " \
           "changed" in err
    assert out["refused"]["whose"] == "local" and "the local log fails its own check" in out["refused"]["detail"]
    assert held(casino.floor, pit.id) == original, "the server's copy was overwritten"
    assert refusals(casino.floor, pit.id) == [(200, "row 200 differs from the row the server holds: one of the two "
                                                    "copies was changed", 200, SHIPPER)]


def test_an_edited_row_not_shipped_yet_is_refused_and_the_rows_before_it_kept(casino, tmp_path):
    pit = Pit(tmp_path, 120)
    assert pitdesk("ship", "--db", str(pit.db), "--to", casino.ship)[0] == 0
    pit.add(60)
    pit.edit_body(150)
    rc, out, err = pitdesk("ship", "--db", str(pit.db), "--to", casino.ship, "--batch", "1000")
    assert rc == 1
    assert (out["shipped"], out["from_seq"], out["to_seq"], out["refused"]["seq"]) == (29, 121, 149, 150)
    assert "row 150: its hash is not sha256(prev_hash + body): the body was edited" in err
    assert held(casino.floor, pit.id) == pit.rows()[:149]
    # shipped again, refused again, recorded again: the alarm does not go quiet
    assert pitdesk("ship", "--db", str(pit.db), "--to", casino.ship)[0] == 1
    assert [r[0] for r in refusals(casino.floor, pit.id)] == [150, 150]


def test_the_shipping_role_may_only_insert(casino, tmp_path):
    pit = Pit(tmp_path, 20)
    assert pitdesk("ship", "--db", str(pit.db), "--to", casino.ship)[0] == 0
    with psycopg.connect(casino.ship, autocommit=True) as conn:
        for statement in ("UPDATE pitdesk.events SET body = '{}'", "DELETE FROM pitdesk.events",
                          "TRUNCATE pitdesk.events", "UPDATE pitdesk.workstations SET head_seq = 0",
                          "DELETE FROM pitdesk.refusals", "SELECT body FROM pitdesk.events",
                          "INSERT INTO pitdesk.refusals (workstation, seq, reason, head_seq, head_hash, "
                          "offered_prev_hash, offered_hash, shipped_by) VALUES ('x', 1, 'x', 0, 'x', 'x', 'x', 'x')",
                          "ALTER TABLE pitdesk.events DISABLE TRIGGER USER"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
        # an INSERT it may make is checked by the server: a row whose hash is not its body's is refused
        last = pit.rows()[-1]
        conn.execute("INSERT INTO pitdesk.events (workstation, seq, time, table_id, type, actor, role, body, "
                     "prev_hash, hash, hmac) VALUES (%s, 21, %s, 'T1', 'note', 'dee', 'dealer', %s, %s, %s, 'x')",
                     (pit.id, last[1], last[6].replace('"seq":20', '"seq":21'), last[8], "f" * 64))
    assert held(casino.floor, pit.id) == pit.rows()
    assert [r[:2] for r in refusals(casino.floor, pit.id)] == [
        (21, "row 21: its hash is not sha256(prev_hash + body): the body was edited")]


def test_bad_input_and_an_unreachable_server_are_named_exit_2(casino, pg_server, tmp_path):
    pit = Pit(tmp_path, 5)
    db = str(pit.db)
    cases = [
        (("--db", db, "--to", "mysql://pit@127.0.0.1/casino"), "is not a PostgreSQL URL"),
        (("--db", db, "--to", "postgresql://pit@127.0.0.1:1/casino"), "the server at pit@127.0.0.1:1/casino cannot "
                                                                      "be reached"),
        (("--db", str(tmp_path / "nope.db"), "--to", casino.ship), "no audit database at"),
        (("--db", db, "--to", casino.ship, "--batch", "0"), "--batch 0 is not a number of rows"),
        (("--db", db, "--to", pg_server.url(SHIPPER, pg_server.database())), "holds no pitdesk schema"),
        (("--db", db, "--to", casino.floor), "may not ship to"),
    ]
    for args, words in cases:
        rc, out, err = pitdesk("ship", *args)
        assert rc == 2 and words in err, (args, rc, err)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert held(casino.floor, pit.id) == []


def test_another_pits_login_cannot_append_to_a_workstations_chain(casino, pg_server, tmp_path):
    """A shipping login may compute hashes, not another workstation's seals; it may not ship
    another workstation's log at all: one login a workstation, the first that shipped it."""
    pit = Pit(tmp_path, 40)
    assert pitdesk("ship", "--db", str(pit.db), "--to", casino.ship)[0] == 0
    pit.add(5)
    pg_server.sql("DO $$ BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'pit_other') THEN "
                  "CREATE ROLE pit_other LOGIN IN ROLE pitdesk_ship; END IF; END $$")
    rc, out, err = pitdesk("ship", "--db", str(pit.db), "--to", pg_server.url("pit_other", casino.name),
                           registered=False)
    assert rc == 1 and out["shipped"] == 0
    assert f"workstation {pit.id} ({pit.id}) is registered to the login {SHIPPER}, not pit_other" in err
    assert held(casino.floor, pit.id) == pit.rows()[:40]
    assert refusals(casino.floor, pit.id)[-1][3] == "pit_other"
