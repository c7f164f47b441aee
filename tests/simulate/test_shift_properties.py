"""Properties of simulated shifts, over seeds, table counts and planted or not: every settlement
logged is the engine's settlement of the round logged with it, its money is conserved, and its
hands are the ones dealt from the table's shuffled deck (each card once)."""

from __future__ import annotations

import copy
import json
import sqlite3
import tempfile
from collections import defaultdict
from datetime import datetime
from pathlib import Path
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine.cards import cards_str
from app.engine.round import parse_round
from app.engine.settle import settle
from app.rules.resources import profile
from app.simulate.round_play import Table
from app.simulate.shift import run_shift

START = datetime(2026, 11, 21, 14, 0)


def text(cards) -> str:
    return " ".join(cards_str(cards))


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**16), tables=st.integers(1, 3), plant=st.booleans())
def test_simulated_rounds_conserve_money_and_settle_the_hands_dealt(home, seed, tables, plant):
    dealt: dict[str, list[dict[int, list[int]]]] = defaultdict(list)
    round_file = Table.round_file

    def spy(self, plan, in_round, hands, *args):
        dealt[self.id].append(copy.deepcopy(hands))
        return round_file(self, plan, in_round, hands, *args)

    with tempfile.TemporaryDirectory() as tmp, mock.patch.object(Table, "round_file", spy):
        db = Path(tmp) / "shift.db"
        summary = run_shift(db, tables, 6, START, seed, plant=plant)
        conn = sqlite3.connect(db)
        try:
            logged = [(t, json.loads(b)["data"]) for t, b in conn.execute(
                "SELECT table_id, body FROM events WHERE type = 'settlement' ORDER BY seq")]
            payouts = defaultdict(int)
            for (b,) in conn.execute("SELECT body FROM events WHERE type = 'payout'"):
                d = json.loads(b)["data"]
                payouts[d["settlement"]] += 1
            released = {json.loads(b)["data"]["settlement"]: json.loads(b)["data"]["payouts"]
                        for (b,) in conn.execute("SELECT body FROM events WHERE type = 'round_released'")}
            settlement_seqs = [s for (s,) in conn.execute("SELECT seq FROM events WHERE type = 'settlement' "
                                                          "ORDER BY seq")]
        finally:
            conn.close()
    assert len(logged) == summary["settlements"] == tables * 6
    at: dict[str, int] = defaultdict(int)
    for (table, data), seq in zip(logged, settlement_seqs):
        rnd, logged_settlement = data["round_file"], data["settlement"]
        # the hands are the table's deal: seven cards each, every card of the deck at most once
        hands = dealt[table][at[table]]
        at[table] += 1
        cards = [c for h in hands.values() for c in h]
        assert all(len(h) == 7 for h in hands.values()) and len(set(cards)) == len(cards) <= 53
        if "dealer" in rnd:
            assert rnd["dealer"]["cards"] == text(hands[0])
        for s in rnd["seats"]:
            assert s["cards"] == text(hands[s["seat"]]), (table, s["seat"])
        # the settlement logged is the engine's settlement of the round logged
        p = profile(rnd["profile"])
        again = settle(parse_round(copy.deepcopy(rnd), p.rules), p.rules, p.ranker(), p.house()).as_json()
        assert again == logged_settlement, (table, seq)
        # money is conserved: what one party gains another loses, and each seat's results are its chips
        nets = logged_settlement["net_by_party"]
        assert sum(nets.values()) == 0
        for seat in {r["seat"] for r in logged_settlement["results"] if r.get("seat")}:
            ledger = sum(v for k, v in nets.items() if k == f"seat {seat}" or k.startswith(f"seat {seat}/"))
            assert sum(r.get("net", 0) for r in logged_settlement["results"] if r["seat"] == seat) == ledger
        # released once, with every payout it names
        assert released[seq] == payouts[seq]
    assert all(at[t] == len(dealt[t]) for t in dealt)
