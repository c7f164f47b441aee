"""The floor-wide shift report from the casino's server (issue 28): ``pitdesk report shift --pg``
gives every pit's report as the pit's own ``--json`` gives it, and the floor's sum equal to the sum
of the pits', to the cent."""

from __future__ import annotations

from datetime import datetime

import pytest

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
    local = {}
    for d in pits:
        rc, own, err = pitdesk("report", "shift", "--db", str(d / "log.db"), *SHIFT, home=d / "home")
        assert rc == 0, err
        local[own["db_id"]] = own
        assert pitdesk("ship", "--db", str(d / "log.db"), "--to", casino.ship)[0] == 0

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
