"""Exact analysis: classify every seven-card hand of the 53-card deck, then price every pay table.

``pitdesk analyze enumerate`` walks all C(53,7) = 154,143,080 hands. It generates them as
products of per-suit rank masks (one composition of seven cards over four suits and the joker
at a time), classifies each block with the engine's numpy path (app/engine/vector.py, proven
equal to the scalar path by tests/test_vector.py), and writes the counts per category as JSON.
``pitdesk analyze paytables`` turns those counts into the probability of each line and the
house edge of every pay table in resources/paytables/, in exact fractions.
"""

from __future__ import annotations

import json
import math
import multiprocessing as mp
import sys
import time
from fractions import Fraction
from itertools import combinations, product
from pathlib import Path

import numpy as np

from app import __version__
from app.engine import bonus, vector
from app.engine.paytable import PayTable
from app.resources import names, paytable

TOTAL_HANDS = math.comb(53, 7)
BLOCK = 2_000_000  # hands per task: large enough for numpy, small enough for memory and progress

_MASKS = {k: np.array([m for m in range(8192) if bin(m).count("1") == k], dtype=np.uint16) for k in range(8)}


def compositions() -> list[tuple[int, int, int, int, int]]:
    """(cards of suit 0..3, joker 0/1) adding up to seven."""
    out = []
    for kj in (0, 1):
        for ks in product(range(8), repeat=4):
            if sum(ks) + kj == 7:
                out.append((*ks, kj))
    return out


def tasks() -> list[tuple[tuple[int, ...], int, int]]:
    """Blocks of work: (composition, first, last) over the masks of suit 0."""
    out = []
    for comp in compositions():
        k0, k1, k2, k3, _ = comp
        inner = len(_MASKS[k1]) * len(_MASKS[k2]) * len(_MASKS[k3])
        step = max(1, BLOCK // max(inner, 1))
        n0 = len(_MASKS[k0])
        for a in range(0, n0, step):
            out.append((comp, a, min(n0, a + step)))
    return out


def task_size(task) -> int:
    (k0, k1, k2, k3, _), a, b = task
    return (b - a) * len(_MASKS[k1]) * len(_MASKS[k2]) * len(_MASKS[k3])


def _block(task) -> tuple[np.ndarray, np.ndarray]:
    (k0, k1, k2, k3, kj), a, b = task
    g1, g2, g3 = np.meshgrid(_MASKS[k1], _MASKS[k2], _MASKS[k3], indexing="ij")
    inner = g1.size
    first = _MASKS[k0][a:b]
    m = np.empty((4, len(first) * inner), dtype=np.uint16)
    m[0] = np.repeat(first, inner)
    m[1] = np.tile(g1.ravel(), len(first))
    m[2] = np.tile(g2.ravel(), len(first))
    m[3] = np.tile(g3.ravel(), len(first))
    return m, np.full(m.shape[1], bool(kj))


CLASSIFIERS = {"fortune": vector.FORTUNE_CODES, "fortune_ak": vector.FORTUNE_CODES,
               "seven_card": vector.SEVEN_CARD_CODES, "insurance": vector.INSURANCE_CODES,
               "ace_high": vector.ACE_HIGH_CODES}


def count_task(task) -> tuple[int, dict[str, list[int]]]:
    m, j = _block(task)
    codes = vector.classify(m, j)
    return m.shape[1], {k: np.bincount(codes[k], minlength=len(CLASSIFIERS[k])).tolist() for k in CLASSIFIERS}


def three_card_counts() -> dict[str, int]:
    """001 11.18(b) over all C(53,3) first-three-card hands (scalar path)."""
    counts = dict.fromkeys(bonus.THREE_CARD_CATEGORIES, 0)
    for cards in combinations(range(53), 3):
        counts[bonus.three_card(cards)] += 1
    return counts


def enumerate_all(workers: int = 0, progress=None) -> dict:
    todo = tasks()
    workers = workers or mp.cpu_count()
    totals = {k: [0] * len(v) for k, v in CLASSIFIERS.items()}
    done = 0
    started = time.monotonic()
    with mp.get_context("spawn").Pool(workers) as pool:
        for n, counts in pool.imap_unordered(count_task, todo, chunksize=1):
            done += n
            for k, v in counts.items():
                totals[k] = [x + y for x, y in zip(totals[k], v)]
            if progress:
                progress(done, TOTAL_HANDS, time.monotonic() - started)
    elapsed = time.monotonic() - started
    if done != TOTAL_HANDS:
        raise RuntimeError(f"classified {done:,} hands, expected C(53,7) = {TOTAL_HANDS:,}")
    return {
        "pitdesk_version": __version__,
        "total_hands": TOTAL_HANDS,
        "hands_classified": done,
        "elapsed_seconds": round(elapsed, 1),
        "workers": workers,
        "counts": {k: dict(zip(CLASSIFIERS[k], totals[k])) for k in CLASSIFIERS},
        "three_card": {"total_hands": math.comb(53, 3), "counts": three_card_counts()},
        "notes": {
            "fortune": "royal_plus_royal_match with the K-Q match (000(c)(6)(ii)); fortune_ak: the natural A-K "
                       "match of 001 11.3(f)2.ii",
            "straight+three_of_a_kind": "hands holding both a straight and three of a kind; each pay table pays "
                                        "them on its better-paying line",
        },
    }


_last_progress = [0.0]


def _print_progress(done: int, total: int, elapsed: float) -> None:
    # a live line on a terminal (at most 4 a second), one line per tenth in a log
    tty = sys.stderr.isatty()
    if done < total and (elapsed - _last_progress[0] < (0.25 if tty else 5.0)):
        return
    _last_progress[0] = elapsed
    rate = done / elapsed if elapsed > 0 else 0
    eta = (total - done) / rate if rate else 0
    start, end = ("\r", "") if tty else ("", "\n")
    sys.stderr.write(f"{start}  {100 * done / total:5.1f}%  {done:>11,} / {total:,} hands  "
                     f"{rate / 1e6:5.2f} M hands/s  ETA {eta:4.0f} s {end}")
    sys.stderr.flush()


def enumerate_command(out: str, workers: int) -> int:
    result = enumerate_all(workers, _print_progress)
    sys.stderr.write("\n")
    path = Path(out)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(result, indent=2) + "\n")
    tmp.replace(path)  # never leave a half-written counts file
    print(json.dumps({"out": str(path), "hands_classified": result["hands_classified"],
                      "elapsed_seconds": result["elapsed_seconds"]}))
    return 0


# -- pricing -------------------------------------------------------------------------------
def _line_probabilities(table: PayTable, counts: dict[str, int], total: int) -> dict[str, Fraction]:
    probs: dict[str, Fraction] = {}
    for cat, n in counts.items():
        if n == 0 or cat == "none":
            continue
        if cat == "straight+three_of_a_kind":
            line = table.line("straight", also_trips=True)
        else:
            line = table.line(cat)
        if line is not None:
            probs[line] = probs.get(line, Fraction(0)) + Fraction(n, total)
    return probs


def price(table: PayTable, data: dict) -> dict:
    """Exact probability of each line and the house edge (per unit wagered) of one table."""
    counts, total, note = None, data["total_hands"], ""
    if table.kind in ("fortune", "envy"):
        counts = data["counts"]["fortune"]
    elif table.kind == "seven_card":
        counts = data["counts"]["seven_card"]
    elif table.kind == "insurance":
        counts = data["counts"]["insurance"]
    elif table.kind == "three_card":
        counts, total = data["three_card"]["counts"], data["three_card"]["total_hands"]
    elif table.kind == "ace_high":
        c = data["counts"]["ace_high"]
        probs = {"dealer_ace_high_joker": Fraction(c["ace_high_joker"], total),
                 "dealer_ace_high_natural": Fraction(c["ace_high_natural"], total)}
        return {"table": table.name, "citation": table.citation, "lines": _fmt_lines(table, probs),
                "house_edge": None,
                "note": "player_and_dealer_ace_high needs the joint two-hand analysis (not yet computed); "
                        "no house edge without it"}
    elif table.kind == "progressive":
        return {"table": table.name, "citation": table.citation, "lines": [], "house_edge": None,
                "note": "progressive hand types need the split analysis of every hand (not yet in the "
                        "enumeration)"}
    probs = _line_probabilities(table, counts, total)
    out = {"table": table.name, "citation": table.citation, "lines": _fmt_lines(table, probs)}
    if table.kind == "envy":
        ev = sum(p * table.pays[ln].cents for ln, p in probs.items())
        out["house_edge"] = None
        out["expected_envy_cents_per_other_hand"] = float(ev)
        note = "envy is a fixed sum per other player's premium hand, not a wager: no house edge"
    else:
        ev = sum(p * (table.pays[ln].odds + 1) for ln, p in probs.items()) - 1
        out["house_edge"] = float(-ev)
        out["house_edge_exact"] = str(-ev)
    if note:
        out["note"] = note
    return out


def _fmt_lines(table: PayTable, probs: dict[str, Fraction]) -> list[dict]:
    return [{"line": ln, "pays": str(table.pays[ln]), "probability": float(probs.get(ln, 0)),
             "probability_exact": str(probs.get(ln, Fraction(0)))} for ln in table.pays]


def paytables_command(counts_path: str, as_json: bool = False) -> int:
    path = Path(counts_path)
    if not path.exists():
        print(f"pitdesk: error: no counts file {path}; run 'pitdesk analyze enumerate' first", file=sys.stderr)
        return 2
    data = json.loads(path.read_text())
    results = []
    for name in names("paytables"):
        table = paytable(name)
        results.append(price(table, data))
        if table.name == "fortune-001":
            alt = dict(data, counts=dict(data["counts"], fortune=data["counts"]["fortune_ak"]))
            r = price(table, alt)
            r["table"] += " (A-K royal match, 001 11.3(f)2.ii)"
            results.append(r)
    if as_json:
        print(json.dumps(results, indent=2))
        return 0
    for r in results:
        edge = "n/a" if r["house_edge"] is None else f"{100 * r['house_edge']:.4f}%"
        print(f"\n{r['table']}  ({r['citation']})  house edge {edge}")
        for ln in r["lines"]:
            print(f"  {ln['line']:<32} {ln['pays']:>16}  {ln['probability']:.10f}")
        if "expected_envy_cents_per_other_hand" in r:
            print(f"  expected envy per other player's hand: {r['expected_envy_cents_per_other_hand']:.4f} cents")
        if r.get("note"):
            print(f"  note: {r['note']}")
    return 0

