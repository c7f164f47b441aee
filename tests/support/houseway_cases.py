"""Shared checking for the rule-derived house-way tests (tests/engine/test_houseway_casino.py and _faceup.py).

An expected setting is written as exact cards (CARDS) or, where several cards of equal rank
could equally go in front, as ranks only (RANKS; with RANKS_JK_A the joker counts as an ace).
Every setting must also be legal: 001 11.9(a), 003 IMPORTANT NOTES 1, 002 (no foul).
"""

from __future__ import annotations

from app.engine.cards import cards_str, parse_cards
from app.engine.houseway import HouseWay
from app.engine.rank import Ranker, legal_set

CARDS, RANKS, RANKS_JK_A = "cards", "ranks", "ranks-jk-as-ace"


def _labels(cards, mode: str) -> list[str]:
    out = []
    for s in cards_str(cards):
        if mode == CARDS:
            out.append(s)
        elif s == "Jk":
            out.append("A" if mode == RANKS_JK_A else "Jk")
        else:
            out.append(s[0])
    return sorted(out)


def _expected(text: str, mode: str) -> list[str]:
    if mode == CARDS:
        return sorted(cards_str(parse_cards(text)))
    toks = [t.upper() if t.lower() != "jk" else "Jk" for t in text.split()]
    toks = ["T" if t == "10" else t for t in toks]
    if mode == RANKS_JK_A:
        toks = ["A" if t == "Jk" else t for t in toks]
    return sorted(toks)


def check_setting(hw: HouseWay, ranker: Ranker, hand: str, high: str, low: str, mode: str) -> None:
    cards = parse_cards(hand, 7)
    # the expected setting itself must be a partition of the seven cards
    assert sorted(_expected(high, mode) + _expected(low, mode)) == _labels(cards, mode), "bad case"
    s = hw.set(cards)
    assert len(s.high) == 5 and len(s.low) == 2
    assert sorted(list(s.high) + list(s.low)) == sorted(cards)
    shown = f"{hand} -> {' '.join(cards_str(s.high))} / {' '.join(cards_str(s.low))} ({s.rule})"
    assert _labels(s.low, mode) == _expected(low, mode), shown
    assert _labels(s.high, mode) == _expected(high, mode), shown
    assert legal_set(ranker, s.high, s.low)[0], shown
