"""Example-based tests of the ``face-up`` house way (rule text 002, California Face Up Pai Gow).

Every expected setting below was derived by hand from the chart "FACE UP PAI GOW POKER HOUSE HAND
SET" of 002 (and its CARD VALUES: the joker is an ace or completes a straight/flush; A-2-3-4-5 is
the lowest straight), never copied from the implementation's output. Each case's id cites the
chart row it applies.

Expectations are written either as exact cards (``CARDS``: the set of cards in each hand must
match) or, where several cards of equal rank could equally go in front, as ranks only
(``RANKS``: the sorted rank lists must match; the joker is its own label ``Jk``; with
``RANKS_JK_A`` the joker is counted as an ace because it stands in for one).

Note on the row "Three Pair: With or without a Straight, Flush, or Straight Flush": three pairs
and a single (with or without the joker) have only four distinct ranks and at most four cards of
one suit, so no seven-card hand holds three pairs and a straight or flush; the plain row is tested.
"""

from __future__ import annotations

import pytest

from app.engine.houseway import HouseWay
from app.engine.rank import Ranker
from app.rules.resources import house_way_table

from tests.support.houseway_cases import CARDS, RANKS, RANKS_JK_A, check_setting


@pytest.fixture(scope="module")
def ranker() -> Ranker:
    return Ranker("lowest")  # 002 CARD VALUES: A-2-3-4-5 is the lowest straight


@pytest.fixture(scope="module")
def hw(ranker: Ranker) -> HouseWay:
    return HouseWay(house_way_table("face-up"), ranker)


# (hand, expected high, expected low, comparison mode), with the chart row as the id
CASES = [
    pytest.param("Kh Qd Th 7c 5s Ah 8d", "Ah Th 7c 5s 8d", "Kh Qd", CARDS,
                 id="002 High Card: 2nd and 3rd highest cards in front"),
    pytest.param("9s 9d Ah Qc 7h 4s 2d", "9s 9d 7h 4s 2d", "Ah Qc", CARDS,
                 id="002 One Pair: pair in back, highest two cards in front"),
    # ---- Two Pair rows ---------------------------------------------------------------------
    pytest.param("Qs Qd 4h 4c Ah 9d 7s", "Qs Qd Ah 9d 7s", "4h 4c", CARDS,
                 id="002 Two Pair, high pair As/Ks/Qs: small pair in front, even with an ace"),
    pytest.param("Js Jd 8h 8c Ah 5d 3s", "Js Jd 8h 8c 3s", "Ah 5d", CARDS,
                 id="002 Two Pair, high pair Js/10s/9s: both pairs back, ace in front"),
    pytest.param("9s 9d 4h 4c Kh Qd 2s", "9s 9d Kh Qd 2s", "4h 4c", CARDS,
                 id="002 Two Pair, high pair Js/10s/9s: no ace, small pair in front"),
    pytest.param("8s 8d 3h 3c Kh 5d 2s", "8s 8d 3h 3c 2s", "Kh 5d", CARDS,
                 id="002 Two Pair, high pair 8s/7s/6s: both pairs back, king in front"),
    pytest.param("6s 6d 2h 2c Qh Jd 9s", "6s 6d Qh Jd 9s", "2h 2c", CARDS,
                 id="002 Two Pair, high pair 8s/7s/6s: only a queen, small pair in front"),
    pytest.param("5s 5d 2h 2c Qh 9d 7s", "5s 5d 2h 2c 7s", "Qh 9d", CARDS,
                 id="002 Two Pair, high pair 5s/4s/3s: both pairs back, queen in front"),
    pytest.param("3s 3d 2h 2c Jh 9d 7s", "3s 3d Jh 9d 7s", "2h 2c", CARDS,
                 id="002 Two Pair, high pair 5s/4s/3s: only a jack, small pair in front"),
    # ---- Three Pair, Three of a Kind ---------------------------------------------------------
    pytest.param("Ks Kd 8h 8c 4s 4d Ah", "8h 8c 4s 4d Ah", "Ks Kd", CARDS,
                 id="002 Three Pair: highest pair in front"),
    pytest.param("As Ad Ah Kc 9s 5d 3h", "A A 9 5 3", "A K", RANKS,
                 id="002 Three of a Kind, Aces: an ace and highest single card in front"),
    pytest.param("Ks Kd Kh Qc 9s 5d 3h", "Ks Kd Kh 5d 3h", "Qc 9s", CARDS,
                 id="002 Three of a Kind, Kings and below: two highest singles in front"),
    pytest.param("Qs Qd Qh 5c 5s 5d 8h", "Q 5 5 5 8", "Q Q", RANKS,
                 id="002 Two Three of a Kinds: highest pair possible in front"),
    # ---- Straight, Flush, or Straight Flush --------------------------------------------------
    pytest.param("3s 4d 5h 6c 7s 8d 9h", "3s 4d 5h 6c 7s", "8d 9h", CARDS,
                 id="002 S/F/SF with no Pair: seven-card straight, highest two cards in front"),
    pytest.param("9h Th Jh Qh Kh 2h As", "2h 9h Th Jh Qh", "As Kh", CARDS,
                 id="002 S/F/SF with no Pair: flush behind lets A-K in front (not SF with A-2)"),
    pytest.param("Ah 9h 7h 4h 2h Ks Kd", "Ah 9h 7h 4h 2h", "Ks Kd", CARDS,
                 id="002 S/F/SF with one Pair: pair in front, flush behind (ace stays behind)"),
    pytest.param("5s 6d 7h 8c 9s 9d Kh", "5 6 7 8 9", "K 9", RANKS,
                 id="002 S/F/SF with one Pair: pair needed for the straight, K-9 in front"),
    pytest.param("Jk Ah 9h 6h 3h Ks Kd", "Jk Ah 9h 6h 3h", "Ks Kd", CARDS,
                 id="002 S/F/SF with two Pair: a pair in front, flush (with joker) behind"),
    pytest.param("Js Jd Th Tc Qh Ks Ah", "Js Jd Th Tc Qh", "Ah Ks", CARDS,
                 id="002 S/F/SF with two Pair: no pair can go in front, Two Pair strategy"),
    pytest.param("7h 7s 7d Ah Kh 9h 2h", "7h Ah Kh 9h 2h", "7s 7d", CARDS,
                 id="002 S/F/SF with Three of a Kind: pair in front, flush behind"),
    pytest.param("As Ad Jk Kh Qc Td 2s", "A Jk K Q T", "A 2", RANKS,
                 id="002 S/F/SF with Three of a Kind: ace in front, straight (joker as J) behind"),
    # ---- Full House ---------------------------------------------------------------------------
    pytest.param("9s 9d 9h 4c 4s Kd 7h", "9s 9d 9h Kd 7h", "4c 4s", CARDS,
                 id="002 Full House: pair in front, three of a kind behind"),
    pytest.param("9s 9d 9h 2c 2s Ad Kh", "9s 9d 9h Ad Kh", "2c 2s", CARDS,
                 id="002 Full House: pair of 2s in front even with A-K (no 003 exception)"),
    pytest.param("5s 5d 5h Kc Ks 8d 8h", "5s 5d 5h 8d 8h", "Kc Ks", CARDS,
                 id="002 Full House: highest pair in front (three of a kind and two pair)"),
    pytest.param("Ah Jk Jh Js Jc Kh 2h", "Jh Js Jc Kh 2h", "Ah Jk", CARDS,
                 id="002 Full House with a Flush: highest pair (ace, joker) in front"),
    # ---- Four of a Kind -----------------------------------------------------------------------
    pytest.param("Qs Qd Qh Qc Ah 9d 4s", "Q Q A 9 4", "Q Q", RANKS,
                 id="002 Four of a Kind As/Ks/Qs: split to pair-pair, even with an ace"),
    pytest.param("Js Jd Jh Jc Kh 5d 3s", "Js Jd Jh Jc 3s", "Kh 5d", CARDS,
                 id="002 Four of a Kind Js/10s/9s: king can be played in front, four in back"),
    pytest.param("9s 9d 9h 9c Qh 5d 3s", "9 9 Q 5 3", "9 9", RANKS,
                 id="002 Four of a Kind Js/10s/9s: only a queen, split"),
    pytest.param("8s 8d 8h 8c Qh 5d 3s", "8s 8d 8h 8c 3s", "Qh 5d", CARDS,
                 id="002 Four of a Kind 8s/7s/6s: queen can be played in front, four in back"),
    pytest.param("6s 6d 6h 6c Jh 5d 3s", "6 6 J 5 3", "6 6", RANKS,
                 id="002 Four of a Kind 8s/7s/6s: only a jack, split"),
    pytest.param("5s 5d 5h 5c 7h 4d 2s", "5s 5d 5h 5c 2s", "7h 4d", CARDS,
                 id="002 Four of a Kind 5s or below: always behind"),
    pytest.param("Ks Kd Kh Kc 4h 4d 9s", "Ks Kd Kh Kc 9s", "4h 4d", CARDS,
                 id="002 Four of a Kind with a Pair: pair in front, four in back"),
    pytest.param("As Ad Ah Ac Jk Qh 7d", "A A A Q 7", "A A", RANKS_JK_A,
                 id="002 Five Aces: pair of aces in front"),
]


@pytest.mark.parametrize("hand, high, low, mode", CASES)
def test_face_up_house_way(hw, ranker, hand, high, low, mode):
    check_setting(hw, ranker, hand, high, low, mode)
