"""``pitdesk ratings`` (issue 36) over a simulated shift whose regulars showed their cards: the JSON
per player and per rating, the CSV export, and the figures against the settlements themselves."""

from __future__ import annotations

import csv
import io
import json
import sqlite3

from tests.support.shift_report import pitdesk

PERIOD = ["--from", "2026-11-21 00:00", "--to", "2026-11-22 00:00"]


def ratings(db, *more) -> dict:
    p = pitdesk("ratings", "--db", str(db), *PERIOD, "--json", *more)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_the_regulars_ratings_per_player_and_per_rating_and_as_csv(made, tmp_path):
    db = made / "shift.db"
    players = ratings(db)["ratings"]
    sittings = ratings(db, "--by", "rating")["ratings"]
    assert players and len(sittings) >= len(players)
    keys = {"player", "rounds", "minutes", "wagered", "average_wager", "actual", "theoretical"}
    assert all(keys <= set(p) and all(isinstance(p[k], int) for k in keys - {"player"}) for p in players)
    # a player is the sum of their ratings
    for p in players:
        mine = [r for r in sittings if r["player"] == p["player"]]
        for k in ("rounds", "wagered", "actual"):
            assert p[k] == sum(r[k] for r in mine), k
    # each rating's actual: what its seat lost in the rounds it sat in, from the settlements' own sums
    conn = sqlite3.connect(db)
    try:
        for r in sittings[:5]:
            rows = conn.execute("SELECT settlement FROM settlements WHERE table_id = ? AND time >= ? AND "
                                "(? IS NULL OR time < ?)", (r["table"], r["started"], r["ended"], r["ended"]))
            lost = -sum(json.loads(b)["net_by_party"].get(f"seat {r['seat']}", 0) for (b,) in rows)
            assert r["actual"] == lost
    finally:
        conn.close()
    out = tmp_path / "ratings.csv"
    p = pitdesk("ratings", "--db", str(db), *PERIOD, "--csv", str(out))
    assert p.returncode == 0, p.stderr
    table = list(csv.DictReader(io.StringIO(out.read_text())))
    assert [(x["player"], int(x["wagered"]), int(x["theoretical"])) for x in table] == \
        [(x["player"], x["wagered"], x["theoretical"]) for x in players]


def test_bad_input_is_named(made, tmp_path):
    p = pitdesk("ratings", "--db", str(made / "shift.db"), "--from", "2026-11-22", "--to", "2026-11-21")
    assert p.returncode == 2 and "is not after" in p.stderr
    p = pitdesk("ratings", "--db", str(tmp_path / "none.db"), *PERIOD)
    assert p.returncode == 2 and "none.db" in p.stderr
