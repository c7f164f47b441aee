"""Benchmark: settle a full seven-seat round with every side bet, envy and an aggregate limit.

Goal (issue 3): at most 0.5 ms median. Run: `.venv/bin/python bench/settle_round.py`
(also part of `make bench`). The round is built once; the timed call is parse + settle, as
`pitdesk settle` does after reading the file.
"""

from __future__ import annotations

import copy
import statistics
import time

from app.engine.round import parse_round
from app.engine.settle import settle
from app.rules.resources import profile


def full_round(profile_name: str) -> dict:
    """Six seats (the seventh hand is the dealer's) with every side bet the profile offers;
    a natural seven-card straight flush and five aces trigger envy and the aggregate limit."""
    hands = ["2s 3s 4s 5s 6s 7s 8s", "As Ah Ad Ac Jk 9h 9d", "Kd Kh Qs Jd 8c 6h Ts",
             "Ks Kc Qd Jc 8h 6d Tc", "Qh Qc Js Jh 7c 7d 2c", "5h 5d 4h 4d 3c 3h 2d"]
    sets = [("4s 5s 6s 7s 8s", "2s 3s"), ("As Ah Ad Ac Jk", "9h 9d"), ("Kd Kh 8c 6h Ts", "Qs Jd"),
            ("Ks Kc 8h 6d Tc", "Qd Jc"), ("Qh Qc Js Jh 2c", "7c 7d"), ("5h 5d 4h 4d 2d", "3c 3h")]
    rules = profile(profile_name).rules
    seats = []
    for n, (cards, (high, low)) in enumerate(zip(hands, sets), start=1):
        wagers = {"base": 2500}
        for bet in rules.side_bets:
            if bet == "progressive":
                wagers[bet] = 500
            elif bet != "additional":
                wagers[bet] = 2000
        seat = {"seat": n, "cards": cards, "high": high, "low": low, "wagers": wagers}
        if "additional" in rules.side_bets:
            seat["additional"] = {str(n): 500}
        seats.append(seat)
    obj = {"profile": profile_name, "banking": {"mode": "house"}, "dealer": {"cards": "Td 9s 9c 8d 6c 4c 3d"}, "seats": seats}
    if "progressive" in rules.side_bets:
        obj["progressive_meter"] = 2_500_000
    if "additional" in rules.side_bets:
        obj["rng_number"] = 3
    return obj


def bench(profile_name: str, n: int = 2000) -> tuple[float, dict]:
    prof = profile(profile_name)
    obj = full_round(profile_name)
    ranker, hw = prof.ranker(), prof.house()
    out = settle(parse_round(copy.deepcopy(obj), prof.rules), prof.rules, ranker, hw)
    times, settle_only = [], []
    for _ in range(n):
        t = time.perf_counter()
        rnd = parse_round(obj, prof.rules)
        t1 = time.perf_counter()
        settle(rnd, prof.rules, ranker, hw)
        t2 = time.perf_counter()
        times.append(t2 - t)
        settle_only.append(t2 - t1)
    return statistics.median(times) * 1000, {"limits": len(out.limits), "envy": sum(
        1 for r in out.results if r.wager.startswith("envy")), "approvals": len(out.approvals),
        "settle_only_ms": round(statistics.median(settle_only) * 1000, 3)}


def main() -> list[tuple[str, float, dict]]:
    rows = []
    for name in ("casino", "section6", "nj"):
        ms, info = bench(name)
        rows.append((name, ms, info))
        print(f"settle full round, profile {name}: median {ms:.3f} ms  {info}")
    return rows


if __name__ == "__main__":
    main()
