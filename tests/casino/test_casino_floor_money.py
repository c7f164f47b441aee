"""The pits' money on the floor report (issue 34): each workstation's log shipped to the casino's
server, ``pitdesk report shift --pg`` gives each pit's money as its own report does and the
floor's as their sum, to the cent; the floor's PDF states them."""

from __future__ import annotations

import pytest

from app.engine.inventory import win_over_drop
from tests.support.casino import pitdesk, shipped_with_own
from tests.support.shift_report import pdf_text
from tests.support.workstation import Clock, open_ws
from tests.workstation.test_shift_report_money import play_money

SHIFT = ("--date", "2026-11-21", "--shift", "day")
KEYS = ("opener", "fills", "credits", "closer", "drop", "win", "rounds_house_net", "difference", "buy_ins",
        "to_meter", "tray_difference", "drop_difference", "rounds", "shifts")


@pytest.fixture(scope="module")
def money_pits(tmp_path_factory):
    """Two pits' day shifts played through their money, one $100.00 short, one $25.00."""
    out = []
    for n, short in enumerate((10_000, 2_500)):
        d = tmp_path_factory.mktemp(f"money{n}")
        mp = pytest.MonkeyPatch()
        ws = open_ws(d, mp, Clock())
        try:
            out.append((d, play_money(ws, short)))
        finally:
            ws.close()
            mp.undo()
    return out


def test_the_floor_adds_the_pits_money_to_the_cent(casino, money_pits, tmp_path):
    local = shipped_with_own(casino, [(d / "pit.db", d / "home") for d, _ in money_pits], *SHIFT)
    rc, floor, err = pitdesk("report", "shift", "--pg", casino.floor, *SHIFT, "--json")
    assert rc == 0, err
    for p in floor["pits"]:
        assert p["pit"]["money"] == local[p["db_id"]]["pit"]["money"]
        assert [t["money"] for t in p["tables"]] == [t["money"] for t in local[p["db_id"]]["tables"]]
    f = floor["floor"]["money"]
    for k in KEYS:
        assert f[k] == sum(p["pit"]["money"][k] for p in local.values()), k
    assert f["shifts"] == 2 and f["difference"] == -12_500 == f["tray_difference"]
    assert f["win"] == f["drop"] + f["closer"] + f["credits"] - f["opener"] - f["fills"]
    # on paper: the pits' money, a line a workstation, and the floor's
    out = tmp_path / "floor.pdf"
    rc, made, err = pitdesk("report", "shift", "--pg", casino.floor, *SHIFT, "--out", str(out))
    assert rc == 0, err
    text = " ".join(pdf_text(out).split())
    assert "The pits' money" in text
    (line,) = [ln for ln in pdf_text(out).splitlines() if ln.strip().startswith("Floor") and "$" in ln
               and "$7,200.00" in ln]
    assert win_over_drop(f["win"], f["drop"]) in line and "-$125.00" in line
