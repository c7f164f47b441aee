"""Random, valid rounds for the settlement property tests (every profile and banking mode)."""

from __future__ import annotations

import random

from app.engine.cards import cards_str
from app.resources import profile


def random_round(seed: int, profile_name: str, mode: str | None = None) -> dict:
    rng = random.Random(seed)
    prof = profile(profile_name)
    rules = prof.rules
    mode = mode or rng.choice(rules.banking_modes)
    deck = list(range(53))
    rng.shuffle(deck)
    max_seat = 7 if mode == "player-dealer" else 6
    n_seats = rng.randint(2 if mode != "house" else 1, max_seat)
    seat_numbers = sorted(rng.sample(range(1, max_seat + 1), n_seats))
    hw = prof.house()
    rnd: dict = {"profile": rules.name, "seats": []}
    if mode != "player-dealer":
        rnd["dealer"] = {"cards": " ".join(cards_str(deck[:7]))}
        deck = deck[7:]
    bank_seat = rng.choice(seat_numbers) if mode != "house" else None
    total_base = 0
    for n in seat_numbers:
        cards, deck = deck[:7], deck[7:]
        seat: dict = {"seat": n, "cards": " ".join(cards_str(cards))}
        s = hw.set(cards)
        high, low = list(s.high), list(s.low)
        if rng.random() < 0.15:  # sometimes the player sets the hand another way, maybe a foul
            mixed = cards[:]
            rng.shuffle(mixed)
            high, low = mixed[:5], mixed[5:]
        seat["high"], seat["low"] = " ".join(cards_str(high)), " ".join(cards_str(low))
        wagers: dict = {}
        if n != bank_seat:
            wagers["base"] = rng.choice([500, 1000, 2500, 2600, 10000, 12345])
            total_base += wagers["base"]
        if not (mode == "player-dealer" and n == bank_seat):
            for bet in rules.side_bets:
                if bet in ("additional",) or rng.random() < 0.4:
                    continue
                if bet == "progressive":
                    wagers[bet] = rng.choice([100, 500])
                else:
                    wagers[bet] = rng.choice([100, 500, 2000])
            if "additional" in rules.side_bets and rng.random() < 0.3:
                seat["additional"] = {str(rng.randint(1, 7)): rng.choice([500, 1000])}
            if rules.bettors_per_circle > 1 and n != bank_seat and rng.random() < 0.3:
                seat["bettors"] = [{"name": f"b{n}-{k}", "base": rng.choice([500, 2600])}
                                   for k in range(rng.randint(1, rules.bettors_per_circle - 1))]
                total_base += sum(b["base"] for b in seat["bettors"])
        seat["wagers"] = wagers
        rnd["seats"].append(seat)
    if any("progressive" in s["wagers"] for s in rnd["seats"]):
        rnd["progressive_meter"] = rng.choice([1_000_000, 1_234_567, 5_000_000])
    if any("additional" in s for s in rnd["seats"]):
        rnd["rng_number"] = rng.randint(1, 7)
    banking: dict = {"mode": mode}
    if mode in ("player", "co-bank"):
        n, m = rules.payout_odds
        banking.update(seat=bank_seat, chips=total_base * n // m + rng.randint(0, 50000), last_wager=2000)
        if mode == "player":
            banking.update(dealer_wager=rng.choice([0, 0, 1000, 2000]))
            banking["chips"] += 2000 * n // m
    elif mode == "player-dealer":
        banking.update(seat=bank_seat, wager=rng.choice([1000, 5000, 100000]),
                       action_seat=rng.choice(seat_numbers))
    rnd["banking"] = banking
    rng.shuffle(rnd["seats"])
    return rnd
