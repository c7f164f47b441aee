"""``pitdesk floor verify`` against a real PostgreSQL (issue 28): every workstation's chain as the
server holds it, one line each; the server's copy edited, cut or relinked by someone who owns it
(its triggers turned off) is named at its first bad row, with ``audit verify``'s words."""

from __future__ import annotations

import json

from app.store import chain
from app.store.pg import pg_migrations
from tests.support.casino import Pit, pitdesk
from tests.support.pg import OWNER


def _lines(casino, *keys: str) -> tuple[int, dict[str, str], str]:
    args = [a for k in keys for a in ("--key", k)]
    rc, out, err = pitdesk("floor", "verify", "--pg", casino.floor, *args)
    lines = {line.split(":", 1)[0]: line for line in out.splitlines()}
    return rc, lines, err


def test_floor_verify_good_then_each_kind_of_bad(casino, tmp_path):
    a, b = Pit(tmp_path / "a", 120), Pit(tmp_path / "b", 80)
    for pit in (a, b):
        assert pitdesk("ship", "--db", str(pit.db), "--to", casino.ship)[0] == 0
    b.rewrite(70)   # refused at the server: shown on the line, the server's copy is still good
    assert pitdesk("ship", "--db", str(b.db), "--to", casino.ship)[0] == 1

    rc, lines, err = _lines(casino, f"{a.id}={a.key_file}")
    assert rc == 0, err
    assert set(lines) == {a.id, b.id}
    assert lines[a.id].startswith(f"{a.id}: ok, 120 rows, head 120 {a.rows()[-1][8][:16]}, seals checked")
    assert lines[b.id].startswith(f"{b.id}: ok, 80 rows, head 80 ")
    assert "seals not checked (no --key for it); 1 refused batch, the last at row 80: row 80 differs" in lines[b.id]

    rc, out, err = pitdesk("floor", "verify", "--pg", casino.floor, "--json")
    assert rc == 0 and out["ok"]
    assert {w["workstation"]: (w["rows"], w["refusals"]) for w in out["workstations"]} == {a.id: (120, 0),
                                                                                           b.id: (80, 1)}

    # the wrong key: the first row's seal is not it
    rc, lines, err = _lines(casino, f"{a.id}={b.key_file}")
    assert rc == 1 and lines[a.id] == f"{a.id}: row 1: forged: the seal does not match: the row was not written " \
                                      "with this workstation's key"
    assert "1 of 2 workstations' chains do not verify on the server" in err

    # the owner turns the triggers off and edits one of a's rows, and cuts b's last row
    casino.sql(f"ALTER TABLE pitdesk.events DISABLE TRIGGER USER; "
               f"UPDATE pitdesk.events SET body = replace(body, 'note 40', 'note 04') "
               f"WHERE workstation = '{a.id}' AND seq = 41; "
               f"DELETE FROM pitdesk.events WHERE workstation = '{b.id}' AND seq = 80")
    rc, lines, err = _lines(casino)
    assert rc == 1
    assert lines[a.id] == f"{a.id}: row 41: edited: the sealed body does not match its hash"
    assert lines[b.id] == f"{b.id}: row 80: truncated: the server's copy ends at row 79 but the head it recorded " \
                          "is row 80"
    assert "2 of 2 workstations' chains do not verify" in err


def test_a_relinked_copy_passes_the_chain_and_fails_the_seals(casino, tmp_path):
    """Someone who owns the server but not the workstation's key rewrites a row and relinks the
    chain after it: the hashes hold, the seals do not."""
    a = Pit(tmp_path, 60)
    assert pitdesk("ship", "--db", str(a.db), "--to", casino.ship)[0] == 0
    rows = a.rows()
    prev = rows[29][8]
    statements = ["ALTER TABLE pitdesk.events DISABLE TRIGGER USER",
                  "ALTER TABLE pitdesk.workstations DISABLE TRIGGER USER"]
    for seq, *_, body, _p, _h, _m in rows[30:]:
        b = json.loads(body)
        b["data"]["text"] = "rewritten"
        new = json.dumps(b, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        h = chain.link(prev, new)
        statements.append(f"UPDATE pitdesk.events SET body = $b${new}$b$, prev_hash = '{prev}', hash = '{h}' "
                          f"WHERE workstation = '{a.id}' AND seq = {seq}")
        prev = h
    statements.append(f"UPDATE pitdesk.workstations SET head_hash = '{prev}' WHERE workstation = '{a.id}'")
    casino.sql("; ".join(statements))

    rc, lines, err = _lines(casino)
    assert rc == 0 and lines[a.id].startswith(f"{a.id}: ok, 60 rows"), (lines, err)
    rc, lines, err = _lines(casino, f"{a.id}={a.key_file}")
    assert rc == 1 and lines[a.id].startswith(f"{a.id}: row 31: forged: the seal does not match")


def test_floor_verify_bad_input_exit_2(casino, tmp_path):
    a = Pit(tmp_path, 3)
    assert pitdesk("ship", "--db", str(a.db), "--to", casino.ship)[0] == 0
    cases = [
        (("--pg", "http://x/y"), "is not a PostgreSQL URL"),
        (("--pg", casino.floor, "--key", "nokey"), "is not WS_ID=FILE"),
        (("--pg", casino.floor, "--key", f"{a.id}={tmp_path / 'none.key'}"), "no key file at"),
        (("--pg", casino.floor, "--key", f"other={a.key_file}"), "the server holds no workstation other"),
        (("--pg", casino.ship), "may not read the workstations' chains"),
    ]
    for args, words in cases:
        rc, out, err = pitdesk("floor", "verify", *args)
        assert rc == 2 and words in err, (args, rc, err)
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_floor_migrate_applies_once_and_refuses_a_database_not_in_utf8(casino, pg_server):
    rc, out, err = pitdesk("floor", "migrate", "--pg", casino.owner)
    assert rc == 0 and out["applied"] == [] and out["version"] == len(pg_migrations.MIGRATIONS) == 5, err
    pg_server.sql(f"CREATE DATABASE latin OWNER {OWNER} ENCODING 'LATIN1' TEMPLATE template0 LC_COLLATE 'C' "
                  "LC_CTYPE 'C'")
    rc, out, err = pitdesk("floor", "migrate", "--pg", pg_server.url(OWNER, "latin"))
    assert rc == 2 and "is in LATIN1; pitdesk needs UTF8" in err and len(err.strip().splitlines()) == 1


def test_a_long_chain_walked_in_parts_finds_what_one_walk_finds(casino, tmp_path):
    """``floor verify`` walks a long chain in ranges of seq, one connection each in one snapshot
    (app/store/pg/floor_check.py): each fault is found at the row, and with the words, of one walk."""
    from app.store.pg import floor_check
    a, b, c = (Pit(tmp_path / n, 300) for n in "abc")
    for p in (a, b, c):
        assert pitdesk("ship", "--db", str(p.db), "--to", casino.ship)[0] == 0

    def both() -> tuple[list, list]:
        one = floor_check.verify_floor(casino.floor, part_rows=10 ** 9)
        split = floor_check.verify_floor(casino.floor, part_rows=50, parts=4)
        return [h.as_json() for h in one], [h.as_json() for h in split]

    one, split = both()
    assert one == split and all(h["ok"] for h in one)
    # a body edited in the middle of a's third part, b's last row of its first part cut out (its
    # second part starts without the row before it), c's link broken in its last part
    casino.sql("ALTER TABLE pitdesk.events DISABLE TRIGGER USER; "
               f"UPDATE pitdesk.events SET body = replace(body, 'note 170', 'note 017') WHERE workstation = '{a.id}' "
               "AND seq = 171; "
               f"DELETE FROM pitdesk.events WHERE workstation = '{b.id}' AND seq = 75; "
               f"UPDATE pitdesk.events SET prev_hash = repeat('0', 64) WHERE workstation = '{c.id}' AND seq = 290; "
               "ALTER TABLE pitdesk.events ENABLE TRIGGER USER")
    one, split = both()
    assert one == split
    # a missing row is named by its own number, as audit verify names it
    found = {h["workstation"]: h["first_bad"] for h in split}
    assert (found[a.id]["seq"], found[a.id]["kind"]) == (171, "edited")
    assert found[b.id] == {"seq": 75, "kind": "deleted", "detail": "sequence 75 is missing; the next row is 76"}
    assert (found[c.id]["seq"], found[c.id]["kind"]) == (290, "edited")
