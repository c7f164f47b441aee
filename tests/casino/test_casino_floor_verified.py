"""Issue 35, finding 1 on the casino's server: a floor report or ``hold --pg`` is made only from
chains that pass the server's check. A chain the owner edited with the triggers off refuses the
report (exit 1 naming the workstation, the row and the kind, nothing written or recorded);
``--unverified`` makes it with NOT VERIFIED across every page, recorded as such on the server."""

from __future__ import annotations

from datetime import datetime

import pytest

from app.store.pg import floor_reports
from tests.support.casino import pitdesk
from tests.support.money import pdf_pages
from tests.support.simulated_shift import simulate

START = datetime(2026, 11, 21, 16, 0)
SHIFT = ("--date", "2026-11-21", "--shift", "swing")


@pytest.fixture(scope="module")
def pits(tmp_path_factory):
    out = []
    for n, (tables, rounds) in enumerate(((2, 6), (1, 8))):
        d = tmp_path_factory.mktemp(f"vpit{n}")
        simulate(d / "log.db", d / "home", tables, rounds, START, 50 + n)
        out.append(d)
    return out


def _ship(casino, pits) -> list[str]:
    ids = []
    for d in pits:
        rc, own, err = pitdesk("report", "shift", "--db", str(d / "log.db"), *SHIFT, "--json", home=d / "home")
        assert rc == 0, err
        ids.append(own["db_id"])
        assert pitdesk("ship", "--db", str(d / "log.db"), "--to", casino.ship)[0] == 0
    return ids


def _edit_a_stake(casino, ws: str) -> int:
    """The owner changes one settlement's stake on the server, the triggers off; its seq."""
    seq = int(casino.sql(f"SELECT min(seq) FROM pitdesk.events WHERE workstation = '{ws}' "
                         "AND body LIKE '%\"stake\"%'").strip())
    casino.sql("ALTER TABLE pitdesk.events DISABLE TRIGGER USER; "
               f"UPDATE pitdesk.events SET body = regexp_replace(body, '\"stake\": ?([0-9]+)', '\"stake\": 99\\1') "
               f"WHERE workstation = '{ws}' AND seq = {seq}; "
               "ALTER TABLE pitdesk.events ENABLE TRIGGER USER")
    return seq


def test_a_server_chain_that_fails_its_check_refuses_the_floor_report_and_hold(casino, pits, tmp_path):
    ids = _ship(casino, pits)
    out = tmp_path / "floor.pdf"
    # edited before any check passed (one that passed is remembered, and the next walks on from
    # it: a body edited behind it is floor verify's to find, tests/casino/test_casino_floor_sums.py)
    ws = sorted(ids)[0]
    seq = _edit_a_stake(casino, ws)

    for args in (("report", "shift", "--pg", casino.floor, *SHIFT, "--out", str(out)),
                 ("report", "shift", "--pg", casino.floor, *SHIFT, "--json"),
                 ("hold", "--pg", casino.floor, "--json"), ("hold", "--pg", casino.floor)):
        rc, said, err = pitdesk(*args)
        assert rc == 1 and not said, (args, err)
        assert f"workstation {ws}'s chain on the server: row {seq}" in err and "edited" in err, err
        assert "floor verify" in err and "--unverified" in err
    assert not out.exists()
    assert floor_reports.recorded(casino.floor) == []

    # asked for: made, NOT VERIFIED across every page, recorded so with what the check found
    rc, made, err = pitdesk("report", "shift", "--pg", casino.floor, *SHIFT, "--out", str(out), "--unverified")
    assert rc == 0, err
    assert made["verified"]["ok"] is False
    assert made["verified"]["finding"]["workstation"] == ws and made["verified"]["finding"]["seq"] == seq
    pages = pdf_pages(out, range(1, made["pages"] + 1))
    assert len(pages) == made["pages"] >= 3
    for n, text in enumerate(pages, 1):
        assert "NOT VERIFIED" in text, f"page {n} is not marked: {text[:200]}"
    [rec] = floor_reports.recorded(casino.floor)
    assert rec["status"] == "printed" and rec["verified"] is False
    assert f"workstation {ws}'s chain on the server: row {seq}" in rec["finding"]
    rc, hold, err = pitdesk("hold", "--pg", casino.floor, "--json", "--unverified")
    assert rc == 0 and hold["verified"]["ok"] is False and hold["verified"]["finding"]["seq"] == seq, err
