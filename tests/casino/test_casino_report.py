"""The floor-wide shift report and hold from the casino's server (issue 28): ``pitdesk report shift
--pg`` and ``pitdesk hold --pg`` give every pit's as the pit's own ``--json`` gives it, and the
floor's sum equal to the sum of the pits', to the cent."""

from __future__ import annotations

from datetime import datetime

import pytest

from app.engine.words import money
from tests.support.casino import pitdesk
from tests.support.simulated_shift import simulate

START = datetime(2026, 11, 21, 16, 0)   # the swing shift, 16:00-24:00
SHIFT = ("--date", "2026-11-21", "--shift", "swing", "--json")
# what differs between a pit's own report and the floor's copy of it: where it was read, and when
LOCAL_ONLY = ("db", "made", "interim")


@pytest.fixture(scope="module")
def pits(tmp_path_factory):
    """Three pits' swing shifts, each its own workstation's log."""
    out = []
    for n, (tables, rounds) in enumerate(((2, 12), (3, 8), (1, 15))):
        d = tmp_path_factory.mktemp(f"pit{n}")
        simulate(d / "log.db", d / "home", tables, rounds, START, 30 + n, plant=n == 0)
        out.append(d)
    return out


def _sum(pits: list[dict], path: tuple[str, ...]) -> int:
    total = 0
    for p in pits:
        v = p
        for k in path:
            v = v.get(k, {}) if isinstance(v, dict) else {}
        total += v if isinstance(v, int) else 0
    return total


def test_the_floor_report_is_each_pits_own_and_their_sum_to_the_cent(casino, pits, tmp_path):
    local, holds = {}, {}
    for d in pits:
        rc, own, err = pitdesk("report", "shift", "--db", str(d / "log.db"), *SHIFT, home=d / "home")
        assert rc == 0, err
        local[own["db_id"]] = own
        rc, holds[own["db_id"]], err = pitdesk("hold", "--db", str(d / "log.db"), "--from", "2026-11-21 16:00",
                                               "--json", home=d / "home")
        assert rc == 0, err
        assert pitdesk("ship", "--db", str(d / "log.db"), "--to", casino.ship)[0] == 0

    # the hold: each pit's own, and the floor's sum of them
    rc, floor, err = pitdesk("hold", "--pg", casino.floor, "--from", "2026-11-21 16:00", "--json")
    assert rc == 0, err
    assert {p["db_id"]: {k: v for k, v in p.items() if k not in ("db", "db_id")} for p in floor["pits"]} == \
           {ws: {k: v for k, v in h.items() if k != "db"} for ws, h in holds.items()}
    mine = [h["pit"] for h in holds.values()]
    assert floor["floor"]["rounds"] == sum(h["rounds"] for h in holds.values())
    assert floor["floor"]["total"]["wagered"] == _sum(mine, ("total", "wagered")) > 0
    assert floor["floor"]["total"]["house_net"] == _sum(mine, ("total", "house_net"))
    # as a person reads it: each workstation's table, then the floor's, in dollars and cents
    rc, readable, err = pitdesk("hold", "--pg", casino.floor, "--from", "2026-11-21 16:00")
    assert rc == 0, err
    for ws in holds:
        assert f"== workstation {ws} (" in readable
    floor_line = next(x for x in readable.splitlines()[readable.splitlines().index(
        next(x for x in readable.splitlines() if x.startswith("Floor: "))):] if x.strip().startswith("total"))
    assert money(floor["floor"]["total"]["wagered"]) in floor_line and money(floor["floor"]["total"]["house_net"]) \
        in floor_line
    assert f"Floor: {floor['floor']['rounds']} rounds at 3 workstations" in readable
    for w, line in floor["floor"]["wagers"].items():
        assert line["house_net"] == _sum(mine, ("wagers", w, "house_net")), w

    rc, floor, err = pitdesk("report", "shift", "--pg", casino.floor, *SHIFT)
    assert rc == 0, err
    assert floor["scope"] == "floor" and floor["quiet"] == []
    assert sorted(p["db_id"] for p in floor["pits"]) == sorted(local)
    for p in floor["pits"]:
        own = local[p["db_id"]]
        assert {k: v for k, v in p.items() if k not in LOCAL_ONLY} == \
               {k: v for k, v in own.items() if k not in LOCAL_ONLY}, "a pit's figures differ from its own report"

    f, mine = floor["floor"], [p["pit"] for p in local.values()]
    assert set(f) == set(mine[0])
    assert f["total"]["wagered"] == _sum(mine, ("total", "wagered")) > 0
    assert f["total"]["house_net"] == _sum(mine, ("total", "house_net"))
    for key in ("rounds", "void_rounds", "sent_back", "slips", "void_slips", "late_changes", "irregularities",
                "alarms", "approvals", "aggregate_limits"):
        assert f[key] == sum(p[key] for p in mine), key
    wagers = {w for p in mine for w in p["wagers"]}
    assert set(f["wagers"]) == wagers
    for w in wagers:
        for key in ("wagered", "house_won", "house_lost", "commission", "collection_fees", "to_meter", "house_net"):
            assert f["wagers"][w][key] == _sum(mine, ("wagers", w, key)), (w, key)
    for mode in f["banking"]:
        assert f["banking"][mode]["house_net"] == _sum(mine, ("banking", mode, "house_net"))


def test_the_floor_report_bad_input_exit_2(casino, tmp_path):
    for args, words in (((*SHIFT[:-1], "--out", str(tmp_path / "floor.pdf")), "--pg makes the floor's report as --json"),
                        (("--date", "2026-11-21", "--shift", "nope", "--json"), "nope"),
                        (SHIFT, "nothing to report")):
        rc, out, err = pitdesk("report", "shift", "--pg", casino.floor, *args)
        assert rc == 2 and words in err, (args, rc, err)
        assert len(err.strip().splitlines()) == 1
    for args, words in ((("--json", "--from", "2026-11-22", "--to", "2026-11-21"), "--from must be before --to"),):
        rc, out, err = pitdesk("hold", "--pg", casino.floor, *args)
        assert rc == 2 and words in err and len(err.strip().splitlines()) == 1, (args, rc, err)
