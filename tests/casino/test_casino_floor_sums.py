"""Issue 35, finding 5: the casino's server keeps the floor's money as rows arrive (PostgreSQL
migration 7, app/store/pg/floor_money.py), in the shipping transaction, and ``pitdesk hold --pg``
reads those sums, not the logs. The sums are each pit's own hold to the cent (a round a denial
sent back is not counted, the round settled again is); no shipping login can write them; a sum
the owner edits, or a settlement moved out of its period, refuses the hold (exit 1 naming the
workstation and the read model), and a server migrated to 7 with events already held fills them."""

from __future__ import annotations

from datetime import datetime

import psycopg
import pytest

from tests.support.casino import pitdesk
from tests.support.simulated_shift import simulate

START = datetime(2026, 11, 21, 16, 0)


@pytest.fixture(scope="module")
def pits(tmp_path_factory):
    """Two simulated pits (planted: approvals and slips) and one whose first settlement a
    supervisor denied, so that it was settled again (docs/rounds/section6-house.json)."""
    out = []
    for n, (tables, rounds) in enumerate(((2, 12), (3, 8))):
        d = tmp_path_factory.mktemp(f"spit{n}")
        simulate(d / "log.db", d / "home", tables, rounds, START, 70 + n, plant=True)
        out.append(d)
    d = tmp_path_factory.mktemp("spit-denied")
    mp = pytest.MonkeyPatch()
    try:
        from tests.support.workstation import Clock, open_ws, sent_back_and_settled_again
        ws = open_ws(d, mp, Clock())
        sent_back_and_settled_again(ws)
        ws.close()
        (d / "pit.db").rename(d / "log.db")
    finally:
        mp.undo()
    out.append(d)
    return out


def _ship_all(casino, pits) -> dict[str, dict]:
    """Each pit shipped; its own ``hold --json`` by its id."""
    own = {}
    for d in pits:
        rc, h, err = pitdesk("hold", "--db", str(d / "log.db"), "--json", home=d / "home")
        assert rc == 0, err
        rc, shipped, err = pitdesk("ship", "--db", str(d / "log.db"), "--to", casino.ship, home=d / "home")
        assert rc == 0, err
        own[shipped["workstation"]] = h
    return own


def _mine(h: dict) -> dict:
    return {k: v for k, v in h.items() if k not in ("db", "db_id", "name", "verified")}


def test_the_server_sums_each_pits_own_hold_to_the_cent_as_rows_arrive(casino, pits):
    own = _ship_all(casino, pits)
    # kept in the shipping transaction: one row a settlement the server holds, nothing else read
    n = casino.sql("SELECT (SELECT count(*) FROM pitdesk.events WHERE type = 'settlement') = "
                   "(SELECT count(*) FROM pitdesk.money_settlements)").strip()
    assert n == "t"
    rc, floor, err = pitdesk("hold", "--pg", casino.floor, "--json")
    assert rc == 0, err
    assert floor["verified"]["ok"] is True
    assert {p["db_id"]: _mine(p) for p in floor["pits"]} == {ws: _mine(h) for ws, h in own.items()}
    denied = next(p for p in floor["pits"] if p["sent_back"])
    assert (denied["rounds"], denied["sent_back"]) == (1, 1)   # 000 the round sent back is not counted
    # a period: the same as each pit's own over it
    rc, part, err = pitdesk("hold", "--pg", casino.floor, "--from", "2026-11-21 16:00", "--to", "2026-11-21 16:30",
                            "--json")
    assert rc == 0, err
    from app.store.pg.shipping import workstation_id
    assert sorted(p["db_id"] for p in part["pits"]) == sorted(own)
    for d in pits:
        rc, h, err = pitdesk("hold", "--db", str(d / "log.db"), "--from", "2026-11-21 16:00", "--to",
                             "2026-11-21 16:30", "--json", home=d / "home")
        assert rc == 0, err
        mine = next(p for p in part["pits"] if p["db_id"] == workstation_id(d / "log.db"))
        assert _mine(mine) == _mine(h)


def test_each_batch_is_summed_in_its_own_shipping_transaction(casino, pits):
    from app.store.pg.shipping import ship
    from tests.support.casino import register
    db = pits[0] / "log.db"
    ws = register(casino.ship, db)
    seen = []

    def after(out):
        # every batch committed: its settlements summed with it, no more and no fewer
        events, summed, lines = casino.sql(
            f"SELECT (SELECT count(*) FROM pitdesk.events WHERE workstation = '{ws}' AND type = 'settlement'), "
            f"(SELECT count(*) FROM pitdesk.money_settlements WHERE workstation = '{ws}'), "
            f"(SELECT count(DISTINCT seq) FROM pitdesk.money_house WHERE workstation = '{ws}')").strip().split("|")
        seen.append((out.to_seq, int(events)))
        assert events == summed == lines
    ship(db, casino.ship, batch=97, after_batch=after)
    assert len(seen) > 3 and seen[-1][1] > seen[0][1] > 0


def test_no_shipping_or_floor_login_can_write_the_sums(casino, pits):
    _ship_all(casino, pits[:1])
    for url in (casino.ship, casino.floor):
        with psycopg.connect(url) as conn:
            for sql in ("INSERT INTO pitdesk.money_house VALUES ('x', 1, 'base', 0, 0, 99999, 0, 0)",
                        "UPDATE pitdesk.money_house SET won = won + 1"):
                with pytest.raises(psycopg.errors.InsufficientPrivilege):
                    conn.execute(sql)
                conn.rollback()
    # even the owner cannot change them with the triggers on
    with pytest.raises(RuntimeError, match="append-only"):
        casino.sql("UPDATE pitdesk.money_house SET won = won + 1")


@pytest.mark.parametrize("edit, model", [
    ("UPDATE pitdesk.money_house SET won = won + 5000000 WHERE (workstation, seq, wager) = "
     "(SELECT workstation, seq, wager FROM pitdesk.money_house ORDER BY workstation, seq LIMIT 1)", "money_house"),
    # a settlement moved out of the period by its time: the events say where it belongs
    ("UPDATE pitdesk.money_settlements SET time = '2099-01-01T00:00:00' WHERE (workstation, seq) = "
     "(SELECT workstation, seq FROM pitdesk.money_settlements ORDER BY workstation, seq LIMIT 1)", "money_settlements"),
    ("DELETE FROM pitdesk.money_stakes WHERE (workstation, seq) = "
     "(SELECT workstation, seq FROM pitdesk.money_stakes ORDER BY workstation, seq LIMIT 1)", "money_stakes"),
])
def test_a_sum_the_owner_edits_refuses_the_hold(casino, pits, edit, model):
    own = _ship_all(casino, pits[:2])
    for table in ("money_house", "money_settlements", "money_stakes"):
        casino.sql(f"ALTER TABLE pitdesk.{table} DISABLE TRIGGER USER")
    casino.sql(edit)
    for table in ("money_house", "money_settlements", "money_stakes"):
        casino.sql(f"ALTER TABLE pitdesk.{table} ENABLE TRIGGER USER")
    rc, out, err = pitdesk("hold", "--pg", casino.floor, "--json")
    assert rc == 1 and out == ""
    assert "read model" in err and f"pitdesk.{model}" in err and min(own) in err
    # asked for anyway: marked, with the finding
    rc, out, err = pitdesk("hold", "--pg", casino.floor, "--json", "--unverified")
    assert rc == 0 and out["verified"]["ok"] is False
    assert out["verified"]["finding"]["kind"] == "read model" and out["verified"]["finding"]["workstation"] == min(own)


def test_a_server_migrated_to_7_sums_the_events_it_already_holds(own_server, pits):
    server, name = own_server
    from tests.support.pg import OWNER, SHIPPER, AUDITOR
    owner = server.url(OWNER, name)
    # the casino's server as it was before migration 7: its money read models (7, 9, 10) and the
    # marks of its checks (8) taken away
    server.sql("ALTER TABLE pitdesk.events DISABLE TRIGGER money_arrived; DROP TRIGGER money_arrived ON pitdesk.events;"
               "DROP FUNCTION pitdesk.money_arrived();" + "".join(
                   f"DROP TABLE pitdesk.{m};" for m in ("money_settlements", "money_house", "money_stakes",
                                                         "money_tables", "money_requests", "money_decisions",
                                                         "money_tray_rounds", "money_tray_events", "report_rows", "chain_checks"))
               + "DROP INDEX pitdesk.events_settlements_by_time; DROP INDEX pitdesk.events_by_workstation_time; DELETE FROM pitdesk.migrations WHERE version >= 7",
               name, OWNER)
    own = {}
    for d in pits:
        rc, h, err = pitdesk("hold", "--db", str(d / "log.db"), "--json", home=d / "home")
        rc, shipped, err = pitdesk("ship", "--db", str(d / "log.db"), "--to", server.url(SHIPPER, name),
                                   home=d / "home")
        assert rc == 0, err
        own[shipped["workstation"]] = h
    rc, out, err = pitdesk("hold", "--pg", server.url(AUDITOR, name), "--json")
    assert rc == 2 and "floor migrate" in err       # no sums yet: the owner migrates
    rc, migrated, err = pitdesk("floor", "migrate", "--pg", owner)
    assert rc == 0 and migrated["applied"] == [7, 8, 9, 10], err
    rc, floor, err = pitdesk("hold", "--pg", server.url(AUDITOR, name), "--json")
    assert rc == 0, err
    assert {p["db_id"]: _mine(p) for p in floor["pits"]} == {ws: _mine(h) for ws, h in own.items()}


# -- the check before the sums, from where the last one passed (app/store/pg/chain_marks.py) ---------
def _marks(casino) -> list[tuple]:
    out = casino.sql("SELECT workstation, seq, since FROM pitdesk.chain_checks ORDER BY id").strip()
    return [tuple(line.split("|")) for line in out.splitlines()] if out else []


def test_each_passing_check_is_remembered_and_the_next_walks_on_from_it(casino, pits, tmp_path):
    import shutil
    import sqlite3
    d = tmp_path / "pit"
    shutil.copytree(pits[0], d)
    conn = sqlite3.connect(d / "log.db")
    last = conn.execute("SELECT max(seq) FROM events").fetchone()[0]
    # the first half shipped (a copy cut there: the rest is shipped later from the whole log)
    half = d / "half.db"
    shutil.copy(d / "log.db", half)
    c2 = sqlite3.connect(half)
    c2.executescript("DROP TRIGGER IF EXISTS events_no_delete; DROP TRIGGER IF EXISTS events_append_only;")
    conn.close()
    cut = last // 2
    triggers = [r[0] for r in c2.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'events'")]
    for t in triggers:
        c2.execute(f"DROP TRIGGER {t}")
    c2.execute("DELETE FROM events WHERE seq > ?", (cut,))
    c2.commit()
    c2.close()
    rc, shipped, err = pitdesk("ship", "--db", str(half), "--to", casino.ship, home=d / "home")
    assert rc == 0 and shipped["to_seq"] == cut, err
    ws = shipped["workstation"]
    assert pitdesk("hold", "--pg", casino.floor, "--json")[0] == 0
    assert _marks(casino) == [(ws, str(cut), "0")]          # walked whole, remembered at its head
    rc, shipped, err = pitdesk("ship", "--db", str(d / "log.db"), "--to", casino.ship, home=d / "home")
    assert rc == 0 and shipped["to_seq"] == last, err
    rc, out, err = pitdesk("hold", "--pg", casino.floor, "--json")
    assert rc == 0 and out["verified"]["ok"] is True, err
    assert _marks(casino)[-1] == (ws, str(last), str(cut))  # walked on from the row remembered


def _relink_from(casino, ws: str, seq: int) -> None:
    """The owner rewrites row ``seq``'s body and relinks the chain after it to the head (the
    triggers off): the chain holds, only the seals could tell."""
    casino.sql(f"""ALTER TABLE pitdesk.events DISABLE TRIGGER USER;
ALTER TABLE pitdesk.workstations DISABLE TRIGGER USER;
DO $$ DECLARE r record; prev text; BEGIN
  SELECT hash INTO prev FROM pitdesk.events WHERE workstation = '{ws}' AND seq = {seq} - 1;
  FOR r IN SELECT seq, body FROM pitdesk.events WHERE workstation = '{ws}' AND seq >= {seq} ORDER BY seq LOOP
    UPDATE pitdesk.events SET body = CASE WHEN seq = {seq} THEN replace(body, '"actor"', ' "actor"') ELSE body END,
           prev_hash = prev WHERE workstation = '{ws}' AND seq = r.seq;
    UPDATE pitdesk.events SET hash = pitdesk.row_hash(prev_hash, body) WHERE workstation = '{ws}' AND seq = r.seq
      RETURNING hash INTO prev;
  END LOOP;
  UPDATE pitdesk.workstations SET head_hash = prev WHERE workstation = '{ws}';
END $$;
ALTER TABLE pitdesk.events ENABLE TRIGGER USER;
ALTER TABLE pitdesk.workstations ENABLE TRIGGER USER;""")


def test_a_chain_rewritten_before_the_row_remembered_is_found_there(casino, pits):
    own = _ship_all(casino, pits[:1])
    ws = next(iter(own))
    assert pitdesk("hold", "--pg", casino.floor, "--json")[0] == 0
    (_, head, _), = _marks(casino)
    _relink_from(casino, ws, 5)
    rc, out, err = pitdesk("hold", "--pg", casino.floor, "--json")
    assert rc == 1 and f"row {head}" in err and "the chain was changed since" in err, err
    # the whole walk alone holds (the chain relinked links); the seals, with the pit's key, tell
    rc, verify, err = pitdesk("floor", "verify", "--pg", casino.floor, "--json")
    assert rc == 0 and verify["ok"] is True
    rc, verify, err = pitdesk("floor", "verify", "--pg", casino.floor, "--key", f"{ws}={pits[0] / 'home' / 'install.key'}",
                              "--json")
    assert rc == 1 and verify["workstations"][0]["first_bad"]["seq"] == 5


def test_an_old_settlement_edited_after_the_check_leaves_the_sums_as_checked_and_floor_verify_names_it(casino,
                                                                                                         pits):
    own = _ship_all(casino, pits[:1])
    ws = next(iter(own))
    rc, before, err = pitdesk("hold", "--pg", casino.floor, "--json")    # checked whole, remembered at the head
    assert rc == 0, err
    seq = int(casino.sql(f"SELECT min(seq) FROM pitdesk.events WHERE workstation = '{ws}' AND type = 'settlement'"))
    casino.sql("ALTER TABLE pitdesk.events DISABLE TRIGGER USER; "
               f"UPDATE pitdesk.events SET body = replace(body, '\"cents\":', '\"cents\": ') "
               f"WHERE workstation = '{ws}' AND seq = {seq}; ALTER TABLE pitdesk.events ENABLE TRIGGER USER")
    # the figures are the sums of the rows as they were checked: the pit's own, to the cent
    rc, after, err = pitdesk("hold", "--pg", casino.floor, "--json")
    assert rc == 0 and _mine(after["pits"][0]) == _mine(own[ws]) == _mine(before["pits"][0]), err
    # the whole walk finds the row edited since
    rc, verify, err = pitdesk("floor", "verify", "--pg", casino.floor, "--json")
    bad = verify["workstations"][0]["first_bad"]
    assert rc == 1 and (bad["seq"], bad["kind"]) == (seq, "edited")


def test_a_sum_edited_before_the_row_remembered_refuses_the_hold_and_floor_verify_names_its_row(casino, pits):
    own = _ship_all(casino, pits[:1])
    ws = next(iter(own))
    assert pitdesk("hold", "--pg", casino.floor, "--json")[0] == 0     # checked whole, remembered at the head
    (_, head, _), = _marks(casino)
    seq = int(casino.sql(f"SELECT min(seq) FROM pitdesk.money_house WHERE workstation = '{ws}' AND won > 0"))
    casino.sql("ALTER TABLE pitdesk.money_house DISABLE TRIGGER USER; "
               f"UPDATE pitdesk.money_house SET won = won + 5000000 WHERE workstation = '{ws}' AND seq = {seq} "
               "AND won > 0; ALTER TABLE pitdesk.money_house ENABLE TRIGGER USER")
    rc, out, err = pitdesk("hold", "--pg", casino.floor, "--json")
    assert rc == 1 and out == "", err
    assert f"row {head}: read model: pitdesk.money_house: its rows of rows 1 to {head} changed since" in err
    rc, verify, err = pitdesk("floor", "verify", "--pg", casino.floor, "--json")
    bad = verify["workstations"][0]["first_bad"]
    assert rc == 1 and (bad["seq"], bad["kind"]) == (seq, "read model") and "won 5" in bad["detail"], verify
