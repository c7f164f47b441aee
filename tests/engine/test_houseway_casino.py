"""Example-based tests of the ``casino`` house way (rule text 003).

Every expected setting below was derived by hand from 003 "HOUSE WAYS", "HOW THE HANDS ARE
PLAYED" and "IMPORTANT NOTES" (plus the documented choices listed at the bottom of this
docstring), never copied from the implementation's output. Each case's id cites its rule.

Expectations are written either as exact cards (``CARDS``: the set of cards in each hand must
match) or, where several cards of equal rank could equally go in front, as ranks only
(``RANKS``: the sorted rank lists must match; the joker is its own label ``Jk``; with
``RANKS_JK_A`` the joker is counted as an ace because it stands in for one).

Documented choices of the implementation, treated as spec where 003 is silent:
- the joker counts as an ace wherever a rule says "holding an Ace" / "an Ace can be played";
- with one pair and a straight/flush where 2a/2b do not apply, the straight/flush stays behind
  with the highest possible two-card front;
- the full-house rule applies to every three-of-a-kind-plus-pair hand, straight/flush or not.

Not testable as a separate case: 003 "4. WITH THREE PAIR" -- three pairs and a single (with or
without the joker) have only four distinct ranks and at most four cards of one suit, so no
seven-card hand holds three pairs and a straight or flush; the plain three-pair rule is tested.
"""

from __future__ import annotations

import pytest

from app.engine.houseway import HouseWay
from app.engine.rank import Ranker
from app.rules.resources import house_way_table

from tests.support.houseway_cases import CARDS, RANKS, RANKS_JK_A, check_setting


@pytest.fixture(scope="module")
def ranker() -> Ranker:
    return Ranker("second")  # 003 IMPORTANT NOTES 2: A-2-3-4-5 is the second highest straight


@pytest.fixture(scope="module")
def hw(ranker: Ranker) -> HouseWay:
    return HouseWay(house_way_table("casino"), ranker)


# (hand, expected high, expected low, comparison mode), with the rule as the id
CASES = [
    # ---- NO PAIR -------------------------------------------------------------------------
    pytest.param("Kh Qd Th 7c 5s Ah 8d", "Ah Th 7c 5s 8d", "Kh Qd", CARDS,
                 id="003 NO PAIR: text example K,Q,10,7,5,A,8 = A,10,7,5,8/KQ"),
    pytest.param("Jk Kd 9h 7c 5s 3d 2h", "Jk 7c 5s 3d 2h", "Kd 9h", CARDS,
                 id="003 NO PAIR + NOTES 3: joker plays as the highest card (ace) behind"),
    # ---- ONE PAIR ------------------------------------------------------------------------
    pytest.param("9s 9d Ah Qc 7h 4s 2d", "9s 9d 7h 4s 2d", "Ah Qc", CARDS,
                 id="003 ONE PAIR: pair behind, highest cards in front"),
    # ---- TWO PAIRS -----------------------------------------------------------------------
    pytest.param("6s 6d 3h 3c Ah Kd 9s", "6s 6d 3h 3c 9s", "Ah Kd", CARDS,
                 id="003 TWO PAIRS: NEVER SPLIT ANY TWO LOW PAIRS (6-6 3-3)"),
    pytest.param("9s 9d 4h 4c Ah Jd 6s", "9s 9d 4h 4c 6s", "Ah Jd", CARDS,
                 id="003 TWO PAIRS: LOW-MEDIUM holding an Ace, both pairs behind"),
    pytest.param("7s 7d 6h 6c Kh Qd 2s", "7s 7d Kh Qd 2s", "6h 6c", CARDS,
                 id="003 TWO PAIRS: LOW-MEDIUM no Ace, split low pair in front (7-7 6-6)"),
    pytest.param("Ks Kd 3h 3c Ah 8d 5s", "Ks Kd 3h 3c 5s", "Ah 8d", CARDS,
                 id="003 TWO PAIRS: LOW-HIGH holding an Ace, both pairs behind"),
    pytest.param("Js Jd 2h 2c Qh 8d 5s", "Js Jd Qh 8d 5s", "2h 2c", CARDS,
                 id="003 TWO PAIRS: LOW-HIGH no Ace, split"),
    pytest.param("Ts Td 7h 7c Ah 4d 2s", "Ts Td 7h 7c 2s", "Ah 4d", CARDS,
                 id="003 TWO PAIRS: MEDIUM-MEDIUM holding an Ace, both pairs behind"),
    pytest.param("Ts Td 7h 7c Kh 4d 2s", "Ts Td Kh 4d 2s", "7h 7c", CARDS,
                 id="003 TWO PAIRS: MEDIUM-MEDIUM no Ace, split"),
    pytest.param("Js Jd Th Tc Ah 4d 2s", "Js Jd Ah 4d 2s", "Th Tc", CARDS,
                 id="003 TWO PAIRS: MEDIUM-HIGH always split, even with an Ace (J-J T-T)"),
    pytest.param("Ks Kd Jh Jc Ah 5d 3s", "Ks Kd Ah 5d 3s", "Jh Jc", CARDS,
                 id="003 TWO PAIRS: HIGH-HIGH always split, even with an Ace"),
    pytest.param("As Ad 3h 3c Kh 9d 7s", "As Ad Kh 9d 7s", "3h 3c", CARDS,
                 id="003 TWO PAIRS: PAIR OF ACES AND ANY OTHER PAIR always split"),
    pytest.param("8s 8d 5h 5c Jk Qd 3s", "8s 8d 5h 5c 3s", "Jk Qd", CARDS,
                 id="003 TWO PAIRS: LOW-MEDIUM, joker counts as holding an Ace (doc. choice)"),
    # ---- THREE PAIRS ---------------------------------------------------------------------
    pytest.param("Ks Kd 8h 8c 4s 4d Ah", "8h 8c 4s 4d Ah", "Ks Kd", CARDS,
                 id="003 THREE PAIRS: highest pair in front"),
    # ---- THREE-OF-A-KIND -----------------------------------------------------------------
    pytest.param("7s 7d 7h Kc Qs 4d 2h", "7s 7d 7h 4d 2h", "Kc Qs", CARDS,
                 id="003 THREE-OF-A-KIND: always keep"),
    pytest.param("As Ad Ah Kc 9s 5d 3h", "A A 9 5 3", "A K", RANKS,
                 id="003 THREE-OF-A-KIND: unless Aces, one Ace in front"),
    # ---- (TWO) THREE-OF-A-KIND / FULL HOUSE c --------------------------------------------
    pytest.param("Ks Kd Kh 3c 3s 3d Ah", "K 3 3 3 A", "K K", RANKS,
                 id="003 (TWO) THREE-OF-A-KIND and FULL HOUSE c: pair of the highest trips in front"),
    # ---- STRAIGHTS / FLUSHES 1a: no pair -------------------------------------------------
    pytest.param("3s 4d 5h 6c 7s 8d 9h", "3s 4d 5h 6c 7s", "8d 9h", CARDS,
                 id="003 S/F 1a: seven-card straight, the straight leaving the highest front"),
    pytest.param("Ah Kd Qh Jc Th 5h 2h", "Ah Qh Th 5h 2h", "Kd Jc", CARDS,
                 id="003 S/F 1a: flush (front K-J) rather than straight (front 5-2)"),
    pytest.param("Ah Kh 7h 4h 2h 5c 3d", "Ah 2h 3d 4h 5c", "Kh 7h", CARDS,
                 id="003 S/F 1a + NOTES 2: A-2-3-4-5 straight (front K-7) rather than flush (5-3)"),
    pytest.param("9h Th Jh Qh Kh 2h As", "2h 9h Th Jh Qh", "As Kh", CARDS,
                 id="003 S/F 1a: flush (front A-K) rather than straight flush (front A-2)"),
    pytest.param("Jk 9s 8d 7h 5c Kd 2h", "Jk 9s 8d 7h 5c", "Kd 2h", CARDS,
                 id="003 S/F 1a + NOTES 3: joker fills the straight 5-9"),
    # ---- STRAIGHTS / FLUSHES 2: one pair -------------------------------------------------
    pytest.param("5s 6d 7h 8c 9s Kd Kh", "5s 6d 7h 8c 9s", "Kd Kh", CARDS,
                 id="003 S/F 2a: pair in front, straight preserved behind"),
    pytest.param("Ah 9h 7h 4h 2h 8s 8d", "Ah 9h 7h 4h 2h", "8s 8d", CARDS,
                 id="003 S/F 2a: pair of 8s in front, flush behind (2b only for 10s-Ks)"),
    pytest.param("5s 6d 7h 8c 9s 9d Kh", "5 6 7 8 9", "K 9", RANKS,
                 id="003 S/F 2 (doc. choice): pair inside the straight, straight behind, best front"),
    pytest.param("Ah 9h 7h 4h 2h Ks Kd", "Ks Kd 7h 4h 2h", "Ah 9h", CARDS,
                 id="003 S/F 2b: Ace and pair of Ks, Ace in front, pair behind"),
    pytest.param("Jk Qs Qd 9h 7h 4h 2h", "Qs Qd 7h 4h 2h", "Jk 9h", CARDS,
                 id="003 S/F 2b: Joker and pair of Qs, Joker in front, pair behind"),
    pytest.param("As Kd Kh Qc Jh Ts 9d", "K Q J T 9", "A K", RANKS,
                 id="003 S/F 2b unless: straight 9-K maintained with the Ace in front"),
    pytest.param("As Kd Kh Qc Jh Ts 2d", "Kd Kh Jh Ts 2d", "As Qc", CARDS,
                 id="003 S/F 2b: Ace and pair of Ks, straight needs the Ace, Ace in front"),
    # ---- STRAIGHTS / FLUSHES 3: two pair -------------------------------------------------
    pytest.param("Qs Qd 8h 8c 9h Th Js", "Qs Qd 9h Th Js", "8h 8c", CARDS,
                 id="003 S/F 3: two pair rule (MEDIUM-HIGH split) over the straight"),
    pytest.param("2s 2d 3h 3c 4h 5s 6d", "2 3 4 5 6", "2 3", RANKS,
                 id="003 S/F 3: two low pairs, no Ace, play the straight"),
    pytest.param("As 2d 2h 3c 3s 4h 5d", "2d 2h 3c 3s 4h", "As 5d", CARDS,
                 id="003 S/F 3: two low pairs behind with an Ace in front, not the straight"),
    # ---- STRAIGHTS / FLUSHES 5: three-of-a-kind ------------------------------------------
    pytest.param("7h 7s 7d Ah Kh 9h 2h", "7h Ah Kh 9h 2h", "7s 7d", CARDS,
                 id="003 S/F 5: three-of-a-kind with flush, pair in front"),
    # ---- STRAIGHTS / FLUSHES 6 and FULL HOUSE --------------------------------------------
    pytest.param("Ah Jk Jh Js Jc Kh 2h", "Jh Js Jc Kh 2h", "Ah Jk", CARDS,
                 id="003 S/F 6: text example Ah,Joker,Jh,Js,Jc,Kh,2h = Ace,Joker/J,J,J,K,2"),
    pytest.param("9s 9d 9h 4c 4s Kd 7h", "9s 9d 9h Kd 7h", "4c 4s", CARDS,
                 id="003 FULL HOUSE a: split, pair in front"),
    pytest.param("9s 9d 9h 2c 2s Ad Kh", "9s 9d 9h 2c 2s", "Ad Kh", CARDS,
                 id="003 FULL HOUSE a exception: pair of 2s, Ace, King, A-K in front"),
    pytest.param("9s 9d 9h 3c 3s Ad Kh", "9s 9d 9h Ad Kh", "3c 3s", CARDS,
                 id="003 FULL HOUSE a: exception is only for 2s, pair of 3s goes in front"),
    pytest.param("As Ad Ah 5c 5s Kd 8h", "As Ad Ah Kd 8h", "5c 5s", CARDS,
                 id="003 FULL HOUSE a (doc. choice): three Aces and a pair, pair in front"),
    pytest.param("5s 5d 5h Kc Ks 8d 8h", "5s 5d 5h 8d 8h", "Kc Ks", CARDS,
                 id="003 FULL HOUSE b: three-of-a-kind and two pair, highest pair in front"),
    # ---- FOUR-OF-A-KIND ------------------------------------------------------------------
    pytest.param("6s 6d 6h 6c Ah Kd 9s", "6s 6d 6h 6c 9s", "Ah Kd", CARDS,
                 id="003 FOUR-OF-A-KIND 1: 2s thru 6s never split"),
    pytest.param("Ts Td Th Tc Ah Qd 3s", "Ts Td Th Tc 3s", "Ah Qd", CARDS,
                 id="003 FOUR-OF-A-KIND 2: 7s thru 10s, Ace in front, keep four"),
    pytest.param("7s 7d 7h 7c Kh Qd 3s", "7 7 K Q 3", "7 7", RANKS,
                 id="003 FOUR-OF-A-KIND 2: 7s thru 10s, no Ace, split"),
    pytest.param("8s 8d 8h 8c Jk Qd 3s", "8s 8d 8h 8c 3s", "Jk Qd", CARDS,
                 id="003 FOUR-OF-A-KIND 2: joker can be played as the Ace (doc. choice)"),
    pytest.param("Js Jd Jh Jc Ah 9d 4s", "J J A 9 4", "J J", RANKS,
                 id="003 FOUR-OF-A-KIND 3: face cards always split, even with an Ace"),
    pytest.param("As Ad Ah Ac Kh 9d 4s", "A A K 9 4", "A A", RANKS,
                 id="003 FOUR-OF-A-KIND 3: Aces always split"),
    # ---- FOUR-OF-A-KIND WITH A PAIR (OR THREE-OF-A-KIND) ---------------------------------
    pytest.param("Qs Qd Qh Qc 5h 5d 9s", "Qs Qd Qh Qc 9s", "5h 5d", CARDS,
                 id="003 FOUR-OF-A-KIND WITH A PAIR: four (face cards) behind, pair in front"),
    pytest.param("Ks Kd Kh Kc 4h 4d 4s", "K K K K 4", "4 4", RANKS,
                 id="003 FOUR-OF-A-KIND WITH THREE-OF-A-KIND: four behind"),
    pytest.param("As Ad Ah Ac 8h 8d 3s", "A A 8 8 3", "A A", RANKS,
                 id="003 FOUR-OF-A-KIND WITH A PAIR 1: four Aces and a pair, split the Aces"),
    pytest.param("As Ad Ah Ac Kh Kd 3s", "As Ad Ah Ac 3s", "Kh Kd", CARDS,
                 id="003 FOUR-OF-A-KIND WITH A PAIR 1 except: four Aces behind, pair of Kings"),
    # ---- FIVE ACES -----------------------------------------------------------------------
    pytest.param("As Ad Ah Ac Jk Qh 7d", "A A A Q 7", "A A", RANKS_JK_A,
                 id="003 FIVE ACES: always split, two Aces in front"),
    pytest.param("As Ad Ah Ac Jk Kh Kd", "As Ad Ah Ac Jk", "Kh Kd", CARDS,
                 id="003 FIVE ACES exception: pair of Kings in front, five Aces behind"),
]


@pytest.mark.parametrize("hand, high, low, mode", CASES)
def test_casino_house_way(hw, ranker, hand, high, low, mode):
    check_setting(hw, ranker, hand, high, low, mode)
