"""Bank, player-dealer and cut offers (issue 4)."""

from app.engine.rotation import bank_offer_start, bank_offers, cut_offers, player_dealer_seat
from app.rules.resources import profile

SECTION6 = profile("section6").rules


def test_no_bank_at_the_start_of_the_game_then_rotation_to_the_dealer():
    # 000(m)(2): not at the start; (m)(3): from the farthest right, counterclockwise, until the
    # initial offer returns to the dealer
    assert bank_offer_start(0) is None
    assert [bank_offer_start(k) for k in range(1, 9)] == [1, 2, 3, 4, 5, 6, None, 1]


def test_bank_offers_with_eligibility():
    # round 3: the first offer is seat 3, then counterclockwise 4, 5, 6, 1, 2
    offers = bank_offers(3, seated=[1, 2, 3, 5], last_bank=[5], wagered_last_unbanked=[1, 2, 3, 5],
                         chips={1: 10_000, 2: 100, 3: 50_000, 5: 50_000}, cover_needed={1: 5_000, 2: 5_000,
                                                                                      3: 5_000, 5: 5_000},
                         rules=SECTION6)
    assert [o.seat for o in offers] == [3, 5, 1, 2]
    assert [o.eligible for o in offers] == [True, False, True, False]
    assert "000(m)(3)" in offers[1].reason and "000(m)(4)(ii)" in offers[3].reason


def test_an_nj_table_cites_its_own_text_for_the_bank():
    # 001 11.10(c): no player banks two consecutive rounds; (d)1 only who wagered against the dealer
    # in the last unbanked round; (d)2 chips to cover (was cited as 000(m)(3), (4)(i), (4)(ii): issue 33)
    offers = bank_offers(3, seated=[1, 2, 5], last_bank=[5], wagered_last_unbanked=[1, 5], chips={1: 100},
                         cover_needed={1: 5_000}, rules=profile("nj").rules)
    reasons = {o.seat: o.reason for o in offers}
    assert reasons == {5: "banked the last round (001 11.10(c))",
                       1: "$1.00 cannot cover $50.00 of wagers (001 11.10(d)2)",
                       2: "did not wager against the dealer in the last unbanked round (001 11.10(d)1)"}


def test_a_player_who_did_not_wager_in_the_last_unbanked_round_is_not_eligible():
    (offer,) = bank_offers(1, seated=[1], last_bank=[], wagered_last_unbanked=[], chips={1: 10**6},
                           cover_needed={1: 0}, rules=SECTION6)
    assert not offer.eligible and "000(m)(4)(i)" in offer.reason


def test_player_dealer_rotates_clockwise_every_two_hands():
    # 002: offered clockwise after every two hands (clockwise: next lower seat number)
    assert [player_dealer_seat(h, [1, 3, 4, 7], first=4) for h in range(8)] == [4, 4, 3, 3, 1, 1, 7, 7]


def test_cut_offers():
    # 000(f)(4)(i) the first player at the beginning, then the dealer (000(f)(3));
    # (ii) the bank, then counterclockwise from the bank; (iii) no bank: only the farthest right,
    # the offer rotating counterclockwise over consecutive rounds without a bank
    assert cut_offers(True, 4, None, 0, [2, 4, 6]) == [4, 0]
    assert cut_offers(False, 4, 6, 0, [2, 4, 6]) == [6, 2, 4, 0]
    assert cut_offers(False, None, None, 1, [2, 4, 6]) == [2, 0]
    assert cut_offers(False, None, None, 2, [2, 4, 6]) == [4, 0]
    assert cut_offers(False, None, None, 4, [2, 4, 6]) == [2, 0]
    assert cut_offers(False, None, None, 1, []) == [0]
