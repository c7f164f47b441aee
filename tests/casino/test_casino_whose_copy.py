"""Whose copy differs (issue 35, findings 3 and 4), against a real PostgreSQL: the server only
sees that a row differs from the one it holds; the shipper checks its own log against its key
and the head it recorded, and says whose copy it is, on stderr, in its JSON and on the server
(``refusal_verdicts``), where ``floor verify`` shows it. A log that verifies is never called
rewritten when the server's copy was edited; a log cut below the server's head and written
again (a short fork) is refused and recorded as a long one is."""

from __future__ import annotations

import json
import sqlite3

from app.store import chain
from tests.support.casino import Pit, pitdesk, refusals


def owner_relinks(casino, pit: Pit, from_index: int) -> None:
    """The server's owner, triggers off, edits the rows from ``from_index`` on and relinks the chain."""
    rows = pit.rows()
    prev = rows[from_index - 1][8]
    statements = ["ALTER TABLE pitdesk.events DISABLE TRIGGER USER",
                  "ALTER TABLE pitdesk.workstations DISABLE TRIGGER USER"]
    for seq, *_, body, _p, _h, _m in rows[from_index:]:
        b = json.loads(body)
        b["data"]["text"] = "edited on the server"
        new = json.dumps(b, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        h = chain.link(prev, new)
        statements.append(f"UPDATE pitdesk.events SET body = $b${new}$b$, prev_hash = '{prev}', hash = '{h}' "
                          f"WHERE workstation = '{pit.id}' AND seq = {seq}")
        prev = h
    statements.append(f"UPDATE pitdesk.workstations SET head_hash = '{prev}' WHERE workstation = '{pit.id}'")
    statements += ["ALTER TABLE pitdesk.events ENABLE TRIGGER USER",
                   "ALTER TABLE pitdesk.workstations ENABLE TRIGGER USER"]
    casino.sql("; ".join(statements))


def floor_json(casino, pit: Pit) -> dict:
    rc, out, err = pitdesk("floor", "verify", "--pg", casino.floor, "--json")
    assert isinstance(out, dict), err
    return next(w for w in out["workstations"] if w["workstation"] == pit.id)


def test_an_intact_log_is_not_blamed_for_the_servers_edited_copy(casino, tmp_path):
    pit = Pit(tmp_path, 60)
    assert pitdesk("ship", "--db", str(pit.db), "--to", casino.ship, home=pit.home)[0] == 0
    owner_relinks(casino, pit, 40)
    v = pitdesk("audit", "verify", "--db", str(pit.db), home=pit.home)
    assert v[0] == 0, v
    rc, out, err = pitdesk("ship", "--db", str(pit.db), "--to", casino.ship, home=pit.home)
    assert rc == 1
    assert out["refused"]["seq"] == 60 and out["refused"]["whose"] == "server", out
    assert "the local log was rewritten" not in err
    assert "it is the server's copy that differs from it" in err, err
    assert "one of the two copies was changed" in refusals(casino.floor, pit.id)[-1][1]
    last = floor_json(casino, pit)["last_refusal"]
    assert last["whose"] == "server" and "the server's copy that differs" in last["detail"]


def test_a_short_fork_is_refused_and_recorded_with_its_json(casino, tmp_path):
    pit = Pit(tmp_path, 120)
    assert pitdesk("ship", "--db", str(pit.db), "--to", casino.ship, home=pit.home)[0] == 0
    # the log cut to row 100 and written again to row 110, below the server's head (120)
    conn = sqlite3.connect(pit.db)
    for t in ("events_no_update", "events_no_delete", "events_gapless"):
        conn.execute(f"DROP TRIGGER IF EXISTS {t}")
    with conn:
        for (t,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall():
            if "seq" in {c[1] for c in conn.execute(f"PRAGMA table_info({t})")}:
                conn.execute(f"DELETE FROM {t} WHERE seq > 100")
    conn.close()
    for f in (pit.home / "heads").glob(f"{pit.id}*"):      # and the heads recorded beside it, so it opens
        f.unlink()
    pit.add(10, marker="forked")
    before = len(refusals(casino.floor, pit.id))
    rc, out, err = pitdesk("ship", "--db", str(pit.db), "--to", casino.ship, home=pit.home)
    assert rc == 1, err
    assert isinstance(out, dict) and out["refused"]["seq"] == 110 and out["shipped"] == 0, (out, err)
    # the insider cut the heads recorded beside the log too, and the workstation wrote on: its own
    # records vouch for its rows, so the shipper's verdict is the server's copy; the server's copy
    # checked with the workstation's key (floor verify --key) is whole, which says it was the fork
    assert out["refused"]["whose"] == "server", out
    rc, lines, err = pitdesk("floor", "verify", "--pg", casino.floor, "--key", f"{pit.id}={pit.key_file}", "--json")
    assert rc == 0 and next(w for w in lines["workstations"] if w["workstation"] == pit.id)["ok"], (lines, err)
    recorded = refusals(casino.floor, pit.id)
    assert len(recorded) == before + 1 and recorded[-1][0] == 110 and recorded[-1][2] == 120
    last = floor_json(casino, pit)
    assert last["refusals"] == before + 1 and last["last_refusal"]["seq"] == 110
