"""pitdesk hand-engine benchmarks, side by side in one run (`make bench`).

1. Five-card ranking against treys on the same joker-free hands (and ours with the joker).
2. Seven-card bonus classification: the numpy path from card arrays, and the scalar path.
3. House-way setting, casino (003) and face-up (002).
4. The full enumeration of C(53,7) hands (skip with --quick).
5. The audit store (bench/store_bench.py): durable batched appends, single-event commit
   latency, and `audit verify` of one million events (skip with --no-store).
6. The device link (bench/device_bench.py): decoding, and frame to engine event with 40
   tables x 3 devices x 10 frames/s over TCP (skip with --no-devices).
7. The workstation window (bench/gui_bench.py): cold start of ``pitdesk gui --demo`` to the first
   painted window, and 40 tables x 3 devices x 10 frames/s into the real window: event-loop
   stalls and device frame to tile repainted (skip with --no-gui).
8. The progressive chart (bench/progressive_bench.py): 8 hours of a meter's readings (288,000
   points) at 10 updates/s, the paint of the plot p50/p99/max (skip with --no-progressive).
9. Settling a round from the round panel (bench/round_bench.py): Settle pressed to the ledger
   painted, with the demo floor live, at T7 and at a table per profile (skip with --no-rounds).
10. The logs view (bench/logs_bench.py): a log of a million events (made once, kept under /tmp), each
   tab opened and filtered by table in the real window (skip with --no-logs).
11. The hold view (bench/hold_bench.py): 14,400 settled rounds (made once, kept under /tmp), the
   hold of every round and of a shift read and shown in the real window (skip with --no-hold).
12. The shift report (bench/report_bench.py): the same log's 14,353 rounds as one shift, --json and
   --out FILE.pdf as a person runs them (skip with --no-report).

Each rate is the best of three timed passes (time.perf_counter). Results are printed as a
Markdown table and written to bench/results.json; record them in docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import time
from pathlib import Path

import numpy as np

GOALS = {
    "five_card_rank": "at least treys' rate, with the joker supported",
    "seven_card_bonus_vector": ">= 400,000 hands/s",
    "house_way_casino": ">= 50,000 hands/s",
    "house_way_face_up": ">= 50,000 hands/s",
    "enumeration": "within 5 minutes on 2 cores",
    "settle_full_round": "<= 0.5 ms median",
}


def best_rate(fn, n: int, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return n / best


def machine() -> str:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, {platform.system()}"


def _table(rows, unit: str, goals: dict, rate: bool = False) -> None:
    """One Markdown table of benchmark rows (key, what, figure or rate, note) with their goals."""
    print(f"\n| benchmark | what | {unit} | note | goal |")
    print("|---|---|---:|---|---|")
    for key, what, figure, note in rows:
        shown = f"{figure:,.0f}" if rate else figure
        print(f"| {key} | {what} | {shown} | {note} | {goals.get(key, '')} |")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="skip the full enumeration")
    ap.add_argument("--no-store", action="store_true", help="skip the audit store benchmarks")
    ap.add_argument("--no-devices", action="store_true", help="skip the device link benchmarks")
    ap.add_argument("--no-gui", action="store_true", help="skip the workstation window benchmarks")
    ap.add_argument("--no-progressive", action="store_true", help="skip the progressive chart benchmark")
    ap.add_argument("--no-rounds", action="store_true", help="skip settling rounds from the round panel")
    ap.add_argument("--no-logs", action="store_true", help="skip the logs view benchmark (a million events)")
    ap.add_argument("--no-hold", action="store_true", help="skip the hold view benchmark (14,400 rounds)")
    ap.add_argument("--no-report", action="store_true", help="skip the shift report benchmark (14,400 rounds)")
    args = ap.parse_args()

    from treys import Card, Evaluator

    from app.engine import bonus, vector
    from app.engine.rank import PACKED, Ranker
    from app.rules.resources import profile

    rng = random.Random(2026)
    rows: list[tuple[str, str, float, str]] = []

    # 1. five-card ranking, the same joker-free hands for both
    n5 = 200_000
    hands5 = [rng.sample(range(52), 5) for _ in range(n5)]
    ours = Ranker()
    five = ours.five
    treys_eval = Evaluator()
    ranks, suits = "23456789TJQKA", "shdc"
    treys_hands = [[Card.new(ranks[c % 13] + suits[c // 13]) for c in h] for h in hands5]
    t_rate = best_rate(lambda: [treys_eval.evaluate(h, []) for h in treys_hands], n5)
    o_rate = best_rate(lambda: [five(h) for h in hands5], n5)
    packed = [tuple(PACKED[c] for c in h) for h in hands5]
    fp = ours.five_packed
    p_rate = best_rate(lambda: [fp(*h) for h in packed], n5)
    joker5 = [rng.sample(range(52), 4) + [52] for _ in range(n5)]
    j_rate = best_rate(lambda: [five(h) for h in joker5], n5)
    rows += [
        ("five_card_rank", "treys Evaluator.evaluate (joker-free hands)", t_rate, ""),
        ("five_card_rank", "pitdesk Ranker.five (same hands)", o_rate, f"{o_rate / t_rate:.2f}x treys"),
        ("five_card_rank", "pitdesk Ranker.five_packed (same hands, pre-packed)", p_rate,
         f"{p_rate / t_rate:.2f}x treys"),
        ("five_card_rank", "pitdesk Ranker.five, hands holding the joker", j_rate, ""),
    ]

    # 2. seven-card bonus classification
    n7 = 1_000_000
    hands7 = np.array([rng.sample(range(53), 7) for _ in range(n7)], dtype=np.int16)

    def vec():
        m, j = vector.hands_to_masks(hands7)
        vector.classify(m, j)

    rows.append(("seven_card_bonus_vector", "numpy path, card arrays in (fortune, seven-card, insurance, ace-high)",
                 best_rate(vec, n7), ""))
    few = hands7[:20_000].tolist()

    def scalar():
        for h in few:
            v = bonus.view(h, ours)
            bonus.fortune(h, ours, v=v)
            bonus.seven_card(h, ours, v)
            bonus.insurance(h)
            bonus.ace_high(h, ours, v)

    rows.append(("seven_card_bonus_scalar", "scalar path, one hand at a time (same four)", best_rate(scalar, len(few)), ""))

    # 3. house ways
    n_hw = 50_000
    hw_hands = [rng.sample(range(53), 7) for _ in range(n_hw)]
    for key, prof in (("house_way_casino", "casino"), ("house_way_face_up", "face-up-ca")):
        hw = profile(prof).house()
        rows.append((key, f"HouseWay.set, profile {prof}", best_rate(lambda: [hw.set(h) for h in hw_hands], n_hw), ""))

    # 4. settlement of a full seven-seat round (issue 3), median of 2000 runs
    import sys
    sys.path.insert(0, str(Path(__file__).parent))
    import settle_round
    for name in ("casino", "section6", "nj"):
        ms, info = settle_round.bench(name)
        rows.append(("settle_full_round", f"profile {name}: six seats + dealer, every side bet offered "
                     f"({info['envy']} envy, {info['limits']} limit applied)", 1000 / ms,
                     f"median {info['settle_only_ms']:.3f} ms settle, {ms:.3f} ms parse + settle"))

    # 5. full enumeration
    if not args.quick:
        from app.analysis import enumeration as analysis
        t = time.perf_counter()
        data = analysis.enumerate_all(workers=2)
        dt = time.perf_counter() - t
        rows.append(("enumeration", f"all {data['hands_classified']:,} hands, 2 workers",
                     data["hands_classified"] / dt, f"{dt:.1f} s"))

    # 6. the audit store, on files in a temporary directory (PITDESK_HOME points there meanwhile)
    store_rows: list[tuple[str, str, float, str]] = []
    if not args.no_store:
        import store_bench
        store_rows = store_bench.run()

    # 7. the device link: decoding, and frame to engine event on a floor of 120 devices
    device_rows: list[tuple[str, str, float, str]] = []
    if not args.no_devices:
        import device_bench
        device_rows = device_bench.bench()

    # 8. the window: cold start, and the live floor of 120 devices (offscreen unless set)
    gui_rows: list[tuple[str, str, str, str]] = []
    if not args.no_gui:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        import gui_bench
        gui_rows = gui_bench.bench()
    # 9. the progressive chart over a whole shift (offscreen unless set)
    if not args.no_progressive:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        import progressive_bench
        gui_rows += [(k, w, f, n) for k, w, f, n in progressive_bench.bench()]

    # 10. settling a round from the round panel, the demo floor live (each floor in its own process)
    round_rows: list[tuple[str, str, str, str]] = []
    if not args.no_rounds:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        import round_bench
        round_rows = round_bench.bench()
    # 11. the logs view over a million events
    logs_rows: list[tuple[str, str, str, str]] = []
    if not args.no_logs:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        import logs_bench
        logs_rows = logs_bench.rows_for_run_all(logs_bench.bench())
    # 12. the hold view over 14,400 rounds
    hold_rows: list[tuple[str, str, str, str]] = []
    if not args.no_hold:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        import hold_bench
        hold_rows = hold_bench.rows_for_run_all(hold_bench.bench())
    # 13. the shift report of 14,400 rounds
    report_rows: list[tuple[str, str, str, str]] = []
    if not args.no_report:
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
        import report_bench
        report_rows = report_bench.rows_for_run_all(report_bench.bench())

    print(f"Machine: {machine()}\n")
    _table(rows, "hands/s", GOALS, rate=True)
    if store_rows:
        from store_bench import GOALS as STORE_GOALS
        _table(store_rows, "events/s", STORE_GOALS, rate=True)
    if device_rows:
        from device_bench import GOALS as DEVICE_GOALS
        _table(device_rows, "frames/s", DEVICE_GOALS, rate=True)
    if gui_rows:
        from gui_bench import GOALS as GUI_GOALS
        from progressive_bench import GOALS as PROGRESSIVE_GOALS
        _table(gui_rows, "figure", {**GUI_GOALS, **PROGRESSIVE_GOALS})
    if round_rows:
        from round_bench import GOALS as ROUND_GOALS
        _table(round_rows, "figure", ROUND_GOALS)
    if logs_rows:
        from logs_bench import GOALS as LOGS_GOALS
        _table(logs_rows, "figure", LOGS_GOALS)
    if hold_rows:
        _table(hold_rows, "figure", {})
    if report_rows:
        from report_bench import GOALS as REPORT_GOALS
        _table(report_rows, "figure", REPORT_GOALS)
    out = Path(__file__).with_name("results.json")
    out.write_text(json.dumps({"machine": machine(), "rows": [
        {"benchmark": k, "what": w, "hands_per_second": round(r), "note": n} for k, w, r, n in rows],
        "store": [{"benchmark": k, "what": w, "events_per_second": round(r), "note": n}
                  for k, w, r, n in store_rows],
        "devices": [{"benchmark": k, "what": w, "frames_per_second": round(r), "note": n}
                    for k, w, r, n in device_rows],
        "gui": [{"benchmark": k, "what": w, "figure": f, "note": n} for k, w, f, n in gui_rows],
        "rounds": [{"benchmark": k, "what": w, "figure": f, "note": n} for k, w, f, n in round_rows],
        "logs": [{"benchmark": k, "what": w, "figure": f, "note": n} for k, w, f, n in logs_rows],
        "hold": [{"benchmark": k, "what": w, "figure": f, "note": n} for k, w, f, n in hold_rows],
        "report": [{"benchmark": k, "what": w, "figure": f, "note": n} for k, w, f, n in report_rows]}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
