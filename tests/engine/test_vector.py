"""The numpy path (app/engine/vector.py) agrees with the scalar path (app/engine/bonus.py)."""

import random

import numpy as np
import pytest

from app.engine import bonus, vector
from app.engine.cards import parse_cards
from app.engine.rank import Ranker

R = Ranker()

SPECIAL = [
    "As Ks Qs Js Ts Kh Qh",   # 000(c)(6)(ii) royal flush plus royal match
    "Jk Ks Qs Js Ts Kh Qh",   # the joker fills the royal, the match is natural
    "As Ks Qs Js Ts Ah Kh",   # 001 11.3(f)2.ii A-K match
    "Jk Ks Qs Js Ts Ah Kh",
    "As Ks Qs Js Ts Jk Kh",   # the joker never completes the match
    "2s 3s 4s 5s 6s 7s 8s",   # 000(c)(6)(i) seven-card straight flush, no joker
    "As 2s 3s 4s 5s 6s 7s",   # ace low
    "8d 9d Td Jd Qd Kd Ad",
    "Jk 2s 3s 5s 6s 7s 8s",   # 000(c)(6)(iii) with the joker
    "As Ah Ad Ac Jk 2c 3d",   # five aces
    "7s 7h 7d 8c 9d Th Jh",   # three of a kind and a straight
    "2s 3h 4d 5c 7s 8h 9d",   # nine-high pai gow
    "Jk 2s 3h 4d 5c 9s Kh",   # the joker is an ace for insurance: A-2-3-4-5
    "Jk 3s 4h 7d 9c Js Kh",   # Face Up ace high with the joker
]


def scalar_codes(h, variant="king-queen"):
    v = bonus.view(h, R)
    f, ft = bonus.fortune(h, R, variant, v)
    s, st = bonus.seven_card(h, R, v)
    return ("straight+three_of_a_kind" if ft else f, "straight+three_of_a_kind" if st else s,
            bonus.insurance(h), bonus.ace_high(h, R, v))


def vector_codes(hands):
    m, j = vector.hands_to_masks(np.array(hands))
    out = vector.classify(m, j)
    return out, [(vector.FORTUNE_CODES[out["fortune"][i]], vector.SEVEN_CARD_CODES[out["seven_card"][i]],
                  vector.INSURANCE_CODES[out["insurance"][i]], vector.ACE_HIGH_CODES[out["ace_high"][i]])
                 for i in range(len(hands))]


def agree(hands):
    out, got = vector_codes(hands)
    for i, h in enumerate(hands):
        assert got[i] == scalar_codes(h), h
        assert vector.FORTUNE_CODES[out["fortune_ak"][i]] == scalar_codes(h, "ace-king")[0], h


def test_special_hands_agree():
    agree([parse_cards(t) for t in SPECIAL])


def test_random_hands_agree():
    rng = random.Random(5)
    agree([rng.sample(range(53), 7) for _ in range(20_000)])


def test_joker_hands_agree():
    rng = random.Random(6)
    agree([rng.sample(range(52), 6) + [52] for _ in range(10_000)])


@pytest.mark.slow
def test_large_random_sample_agrees():
    rng = random.Random(8)
    for _ in range(20):
        agree([rng.sample(range(53), 7) for _ in range(50_000)])


def test_progressive_codes_agree_with_the_scalar_best_setting():
    # 000(q)(4), (l)(9): the best-paying setting, at two meter values, for both wager sizes
    from app.rules.resources import paytable
    rng = random.Random(9)
    hands = [rng.sample(range(53), 7) for _ in range(8_000)] + [rng.sample(range(52), 6) + [52] for _ in range(4_000)]
    hands += [parse_cards(t) for t in ("As Ks Qs Js Ts Ah Ad", "As Ks Qs Js Ts Jk Ah", "As Ah Ad Ac Jk 2c 2d",
                                        "Jk Ks Qs Js Ts 9h 9d", "7s 7h 7d 7c 9d 9h 2c", "2s 3s 4s 5s 6s 6h 6d")]
    m, j = vector.hands_to_masks(np.array(hands))
    best, with_pair = vector.progressive_codes(m, j)
    for name in ("progressive-1", "progressive-5"):
        table = paytable(name)
        for meter in (1_000_000, 7_654_321):
            for i, h in enumerate(hands):
                exp = table.best_progressive(bonus.progressive_lines(h, R), meter)
                got = table.best_progressive(vector.progressive_line_sets(int(best[i]), int(with_pair[i])), meter)
                amount = [table.pays[x].amount(table.extras["wager"], meter) if x else 0 for x in (exp, got)]
                assert amount[0] == amount[1], (h, exp, got)
