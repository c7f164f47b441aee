"""What the round panel shows a field for: ``RoundDraftInfo.form`` (app/workstation/round_draft.py
``round_form``), read from the table's profile so that the window decides nothing itself."""

import pytest

from tests.support.workstation import DEALER, Clock, open_ws


@pytest.fixture
def ws(tmp_path, monkeypatch):
    w = open_ws(tmp_path, monkeypatch, Clock())
    yield w
    w.close()


def test_each_profile_says_what_a_round_at_its_table_takes(ws):
    ws.people.sign_in(*DEALER)
    forms = {}
    for table in ("section6", "nj", "face-up-ca", "casino", "sd"):
        ws.rounds.start(table)
        forms[table] = ws.rounds.draft(table).form
    s6, nj, ca, casino, sd = (forms[t] for t in ("section6", "nj", "face-up-ca", "casino", "sd"))
    # 000(p): the additional wagers on the RNG's number 1..7; 000(q): the progressive with its meter
    assert s6.wagers == ("base", "fortune", "progressive", "fortune_toke") + tuple(f"additional {n}"
                                                                                 for n in range(1, 8))
    assert s6.progressive and s6.rng and s6.seats == (1, 2, 3, 4, 5, 6)
    assert s6.wager_names["fortune"] == "Fortune bonus wager"
    assert s6.wager_names["additional 3"] == "additional wager on 3"
    assert nj.wagers[:5] == ("base", "insurance", "three_card", "seven_card", "progressive")
    # 002: seven seated hands, the player-dealer's wager and the action button, no surrender
    assert ca.seats == (1, 2, 3, 4, 5, 6, 7) and set(ca.banking_fields) == {"player-dealer"}
    assert ca.banking_fields["player-dealer"] == ("seat", "wager", "action_seat") and not ca.surrender
    assert "ace_high" in ca.wagers and ca.bettors_per_circle == 4
    # 003: prepaid commission (COLLECTING 6, 8), the supervisor's cover ruling (PLAYER BANK 3)
    assert casino.prepaid_commission and casino.cover_ruling and not casino.progressive
    assert casino.banking_fields["player"] == ("seat", "chips", "last_wager", "dealer_wager",
                                               "dealer_prepaid_commission", "cover_ruling")
    assert casino.banking_fields["co-bank"] == ("seat", "chips", "last_wager", "cover_ruling")
    assert s6.banking_fields == {"house": (), "player": ("seat", "chips", "last_wager", "dealer_wager"),
                                 "co-bank": ("seat", "chips", "last_wager")}
    # 004: the house banks, the base wager only, surrender returns half (004(9))
    assert sd.wagers == ("base",) and set(sd.banking_fields) == {"house"} and sd.surrender
