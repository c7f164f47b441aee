"""Exact analysis: classify every seven-card hand of the 53-card deck, then price every pay table.

``pitdesk analyze enumerate`` walks all C(53,7) = 154,143,080 hands. It generates them as
products of per-suit rank masks (one composition of seven cards over four suits and the joker
at a time), classifies each block with the engine's numpy path (app/engine/vector.py, proven
equal to the scalar path by tests/engine/test_vector.py), and writes the counts per category as JSON.
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
from app.rules.resources import names, paytable

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
    out = {k: np.bincount(codes[k], minlength=len(CLASSIFIERS[k])).tolist() for k in CLASSIFIERS}
    best, with_pair = vector.progressive_codes(m, j)
    n = len(vector.PROGRESSIVE_BACK_CODES)
    out["progressive"] = np.bincount(best.astype(np.int64) * n + with_pair, minlength=n * n).tolist()
    return m.shape[1], out


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
    n_back = len(vector.PROGRESSIVE_BACK_CODES)
    totals["progressive"] = [0] * (n_back * n_back)
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
        # best back hand, and best back hand with a pair in front: "best|with_pair" -> hands
        "progressive": {f"{vector.PROGRESSIVE_BACK_CODES[i // n_back]}|{vector.PROGRESSIVE_BACK_CODES[i % n_back]}": c
                        for i, c in enumerate(totals["progressive"]) if c},
        "three_card": {"total_hands": math.comb(53, 3), "counts": three_card_counts()},
        "ace_high_joint": ace_high_joint(),
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
        # 002: the best qualifying line pays; both hands ace-high beats the dealer's alone
        j = data["ace_high_joint"]
        deals = math.comb(53, 7) * math.comb(46, 7)
        both = j["both_dealer_natural"] + j["both_dealer_joker"]
        probs = {"player_and_dealer_ace_high": Fraction(both, deals),
                 "dealer_ace_high_joker": Fraction(j["dealer_ace_high_joker"], total)
                 - Fraction(j["both_dealer_joker"], deals),
                 "dealer_ace_high_natural": Fraction(j["dealer_ace_high_natural"], total)
                 - Fraction(j["both_dealer_natural"], deals)}
        note = ("exact joint analysis of the player-dealer's and the player's seven cards "
                "(app.analysis.enumeration.ace_high_joint); the best qualifying line pays")
    elif table.kind == "progressive":
        return price_progressive(table, data)
    if counts is not None:
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


def price_progressive(table: PayTable, data: dict, meter_cents: int | None = None) -> dict:
    """000(q)(4): each hand is set to its best-paying type at the meter (000(l)(9)); priced at
    the minimum reset meter (000(q)(6)) unless another meter is given."""
    meter = meter_cents if meter_cents is not None else table.extras["minimum_reset"]
    wager = table.extras["wager"]
    codes = vector.PROGRESSIVE_BACK_CODES
    probs: dict[str, Fraction] = {}
    for key, n in data["progressive"].items():
        best, with_pair = key.split("|")
        line = table.best_progressive(vector.progressive_line_sets(codes.index(best), codes.index(with_pair)), meter)
        if line:
            probs[line] = probs.get(line, Fraction(0)) + Fraction(n, data["total_hands"])
    ev = sum(p * table.pays[ln].amount(wager, meter) for ln, p in probs.items()) / wager - 1
    return {"table": table.name, "citation": table.citation, "lines": _fmt_lines(table, probs),
            "house_edge": float(-ev), "house_edge_exact": str(-ev), "meter_cents": meter,
            "note": f"priced at a meter of ${meter // 100:,}.{meter % 100:02d} (000(q)(6) minimum reset); the "
                    f"rate of progression ({table.extras.get('rate_of_progression_percent')}% of wagers, 000(q)(5)) "
                    "funds the meter and is not counted here"}


def _fmt_lines(table: PayTable, probs: dict[str, Fraction]) -> list[dict]:
    return [{"line": ln, "pays": str(table.pays[ln]), "probability": float(probs.get(ln, 0)),
             "probability_exact": str(probs.get(ln, Fraction(0)))} for ln in table.pays]


def paytables_command(counts_path: str, as_json: bool = False) -> int:
    path = Path(counts_path)
    if not path.exists():
        print(f"pitdesk: error: no counts file {path}; run 'pitdesk analyze enumerate' first", file=sys.stderr)
        return 2
    try:
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
    except (ValueError, RecursionError, KeyError, TypeError, AttributeError, ZeroDivisionError) as e:
        why = "nested too deeply" if isinstance(e, RecursionError) else f"{type(e).__name__}: {e}"
        print(f"pitdesk: error: {path} is not a counts file from 'pitdesk analyze enumerate' ({why})",
              file=sys.stderr)
        return 2
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



# -- 002 Ace-High bonus: the player's and the player-dealer's hands together ----------------
def _ace_high_rank_sets() -> dict[bool, list[int]]:
    """Rank masks of seven-card ace-high hands (002): natural (seven ranks with the ace) and
    with the joker (six ranks without the ace: the joker is the ace). No straight is possible,
    the joker wild (002 CARD VALUES)."""
    from app.engine.vector import _ST, _STJ, ACE_BIT
    natural, joker = [], []
    for m in range(8192):
        p = bin(m).count("1")
        if p == 7 and m & ACE_BIT and not _ST[m]:
            natural.append(m)
        if p == 6 and not m & ACE_BIT and not _STJ[m]:
            joker.append(m)
    return {False: natural, True: joker}


def _suit_counts(n: int, shared: int, flush_at: int) -> np.ndarray:
    """For n ranks of which the first ``shared`` are shared with the other hand: the number of
    suit assignments with no suit held ``flush_at`` times, by the suits of the shared ranks."""
    assign = np.indices((4,) * n).reshape(n, -1).T
    counts = np.stack([(assign == s).sum(axis=1) for s in range(4)], axis=1)
    ok = counts.max(axis=1) < flush_at
    key = np.zeros(len(assign), dtype=np.int64)
    for i in range(shared):
        key = key * 4 + assign[:, i]
    return np.bincount(key[ok], minlength=4 ** shared).astype(object)


def _pairs_differing(cnt_d: np.ndarray, cnt_p: np.ndarray, shared: int) -> int:
    """Sum of cnt_d[a] * cnt_p[b] over shared-suit vectors a, b that differ in every place
    (one card cannot be in both hands)."""
    t = cnt_p.reshape((4,) * shared) if shared else cnt_p
    for axis in range(shared):
        t = t.sum(axis=axis, keepdims=True) - t  # (J - I) along this axis
    return int((cnt_d * t.reshape(-1)).sum()) if shared else int(cnt_d[0] * t[0])


def ace_high_joint() -> dict[str, int]:
    """Exact counts of ordered (player-dealer hand, player hand) pairs of disjoint seven-card
    hands, out of C(53,7) * C(46,7), for the lines of 002 ACE HIGH BONUS BET."""
    sets = _ace_high_rank_sets()
    arrays = {jk: np.array(v, dtype=np.int64) for jk, v in sets.items()}
    pop = np.array([bin(m).count("1") for m in range(8192)])
    single = {jk: len(v) * int(_suit_counts(6 if jk else 7, 0, 4 if jk else 5)[0]) for jk, v in sets.items()}
    both = {False: 0, True: 0}  # keyed by the dealer holding the joker
    for dj in (False, True):
        for pj in (False, True):
            if dj and pj:
                continue  # one joker in the deck
            overlap = np.bincount(pop[np.bitwise_and.outer(arrays[dj], arrays[pj])].ravel(), minlength=8)
            for k, n_sets in enumerate(overlap):
                if n_sets == 0:
                    continue
                cd = _suit_counts(6 if dj else 7, k, 4 if dj else 5)
                cp = _suit_counts(6 if pj else 7, k, 4 if pj else 5)
                both[dj] += int(n_sets) * _pairs_differing(cd, cp, k)
    return {"dealer_ace_high_natural": single[False], "dealer_ace_high_joker": single[True],
            "both_dealer_natural": both[False], "both_dealer_joker": both[True]}
