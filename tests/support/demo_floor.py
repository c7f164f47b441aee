"""The demo floor playing by itself (app/simulate/table_play.py), and what its log must say: every
settlement agrees with the hands the shuffler dealt for that round, every progressive request
with a hand that carried a progressive wager, every payout slip with a payout of its settlement."""

from __future__ import annotations

import json
import time

from app.engine.cards import parse_cards
from app.simulate.demo import open_demo
from app.simulate.table_play import Pace
from app.workstation.workstation import Workstation


def play_demo(db, pace: Pace, seed: int, until, seconds: float, step: float = 0.05):
    """The demo floor on ``db`` at ``pace``, pumped as the window pumps it until ``until(ws)`` or
    ``seconds`` have passed; the workstation, left open."""
    ws, _ = open_demo(db, play=pace, seed=seed, faults=())
    try:
        end = time.monotonic() + seconds
        while time.monotonic() < end and not until(ws):
            ws.live.pump()
            time.sleep(step)
    except BaseException:
        ws.close()
        raise
    return ws


def supervise(ws: Workstation) -> bool:
    """The floor supervisor's part of a storm, as a test plays it: signed in at the workstation,
    every open alarm acknowledged (a table waits for it before its next round). False: go on."""
    if ws.people.session() is None:
        ws.people.sign_in("demo-floor", "2222")
    for a in ws.reads.alarms(True):
        ws.decisions.acknowledge_alarm(a.id, "seen to at the table")
    return False


def _rows(ws: Workstation, type_: str) -> list[dict]:
    return [dict(r, data=json.loads(r["body"])["data"]) for r in ws.log.query(
        "SELECT seq, table_id, actor, role, body FROM events WHERE type = ? ORDER BY seq", (type_,))]


def settled_tables(ws: Workstation) -> set[str]:
    return {r["table_id"] for r in ws.log.query("SELECT DISTINCT table_id FROM events WHERE type = 'settlement'")}


def disagreements(ws: Workstation, compared: list | None = None) -> list[str]:
    """What in the log does not tell one story; [] when everything agrees. ``compared`` collects
    each (table, round, position) whose settled cards were held against the shuffler's read."""
    out = []
    compared = compared if compared is not None else []
    reads: dict[tuple[str, int], dict[int, frozenset]] = {}
    for r in _rows(ws, "hand_read"):
        d = r["data"]
        reads.setdefault((r["table_id"], d.get("round")), {})[d["position"]] = frozenset(d["cards"])
    for r in _rows(ws, "hand_corrected") + _rows(ws, "reading_chosen"):
        d = r["data"]
        reads.get((r["table_id"], d.get("round")), {}).pop(d["position"], None)   # a person's cards now
    settlements = {}
    for r in _rows(ws, "settlement"):
        table, d = r["table_id"], r["data"]
        settlements[r["seq"]] = d
        rf = d.get("round_file") or {}
        hands = {0: rf["dealer"]["cards"]} if "dealer" in rf else {}
        hands |= {s["seat"]: s["cards"] for s in rf.get("seats", [])}
        dealt = reads.get((table, d["round"]), {})
        for pos, text in hands.items():
            cards = frozenset(_card_texts(text))
            if pos in dealt:
                compared.append((table, d["round"], pos))
            if pos in dealt and dealt[pos] != cards:
                out.append(f"{table} round {d['round']} position {pos}: settled {sorted(cards)}, "
                           f"the shuffler read {sorted(dealt[pos])}")
        progressive = {s["seat"] for s in rf.get("seats", []) if s.get("wagers", {}).get("progressive")}
        for res in d["settlement"].get("results", []):
            if res.get("wager") == "progressive" and res.get("seat") not in progressive:
                out.append(f"{table} round {d['round']}: a progressive result for seat {res.get('seat')}, "
                           "which had no progressive wager")
    # one hit, one request: a controller's request a settlement took as its own names a seat the
    # settlement paid a progressive win
    requests = {r["seq"]: r for r in _rows(ws, "approval_requested")}
    for seq, d in settlements.items():
        for request in (d.get("merged") or {}).values():
            seat = requests[request]["data"].get("seat")
            paid = [x for x in d["settlement"].get("results", []) if x.get("wager") == "progressive"
                    and x.get("seat") == seat and x.get("win", 0) > 0]
            if not paid:
                out.append(f"settlement {seq} took request {request} for seat {seat}, and paid it no progressive win")
    for r in _rows(ws, "slip_issued"):
        d = r["data"]
        if "settlement" not in d:
            continue
        s = settlements.get(d["settlement"])
        if s is None:
            out.append(f"slip for settlement {d['settlement']}, which is not in the log")
            continue
        wins = [(x.get("seat"), x.get("wager"), x.get("win")) for x in s["settlement"].get("results", [])]
        if (d["seat"], d["wager"], d["win_cents"]) not in wins:
            out.append(f"slip {d} pays nothing the settlement {d['settlement']} paid")
    # the meter the controller broadcasts and the meter the settlements count are one meter: it
    # never falls but at a hit paid or a reset (000(q)(5)-(6))
    hits: dict[str, list[int]] = {}
    for r in _rows(ws, "approval_requested"):
        if r["data"].get("kind") == "progressive_meter_payout":
            hits.setdefault(r["table_id"], []).append(r["seq"])
    last: dict[str, tuple[int, int]] = {}
    fell: dict[str, int] = {}           # the row after which a hit's fall was last allowed
    for r in ws.log.query("SELECT seq, table_id, cents, source FROM meter_readings ORDER BY seq"):
        t = r["table_id"]
        if t in last and r["cents"] < last[t][1] and r["source"] != "reset":
            hit = [q for q in hits.get(t, []) if fell.get(t, 0) < q < r["seq"]]
            if hit:
                fell[t] = r["seq"]
            else:
                out.append(f"{t}: the meter fell from {last[t][1]} (row {last[t][0]}) to {r['cents']} (row "
                           f"{r['seq']}, {r['source']}) with no hit or reset between")
        last[t] = (r["seq"], r["cents"])
    return out


def _card_texts(text: str) -> list[str]:
    from app.engine.cards import cards_str
    return cards_str(parse_cards(text, count=7))
