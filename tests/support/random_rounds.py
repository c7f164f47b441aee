"""Random, valid rounds for the settlement property tests (every profile and banking mode)."""

from __future__ import annotations

import random

from app.engine.bank import cover_needed
from app.engine.cards import cards_str, parse_cards
from app.engine.profile import RuleProfile
from app.rules.resources import profile


def random_round(seed: int, profile_name: str, mode: str | None = None, rules: RuleProfile | None = None,
                 least_chips: bool = False) -> dict:
    """A valid round; ``rules`` (the profile's, or a variant with another reading) decide the bank's
    cover, and ``least_chips`` gives the bank exactly the chips its cover requires."""
    rng = random.Random(seed)
    prof = profile(profile_name)
    rules = rules or prof.rules
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
        if least_chips:
            wins = [s["wagers"]["base"] * n // m for s in rnd["seats"] if "base" in s["wagers"]]
            wins += [b["base"] * n // m for s in rnd["seats"] for b in s.get("bettors", [])]
            banking["chips"] = cover_needed(wins, banking.get("dealer_wager", 0) * n // m,
                                            rules.bank.covers_dealer_wager, mode == "co-bank")
    elif mode == "player-dealer":
        banking.update(seat=bank_seat, wager=rng.choice([1000, 5000, 100000]),
                       action_seat=rng.choice(seat_numbers))
    rnd["banking"] = banking
    rng.shuffle(rnd["seats"])
    return rnd


# Premium hands with their cards fixed, so that rounds reach the aggregate payout limits: seven-card
# straight flushes, royal flushes (one with a royal match), five aces, four of a kind.
PREMIUM = ("2s 3s 4s 5s 6s 7s 8s", "2h 3h 4h 5h 6h 7h 8h", "8d 9d Td Jd Qd Kd Jk", "As Ks Qs Js Ts Kh Qh",
           "Ac Kc Qc Jc Tc 2d 3d", "Ah Ad Ac As Jk 9c 9h", "9s 9c 9h 9d Kc 4d 2c", "5c 6c 7c 8c 9c Ad 2c")


def premium_round(seed: int, profile_name: str) -> dict:
    """A house-banked round whose seats hold premium hands where the cards allow, with Fortune
    wagers anywhere within the table limits; now and then one player plays two adjacent seats."""
    rng = random.Random(seed)
    rules = profile(profile_name).rules
    hw = profile(profile_name).house()
    fortune = rules.limits_for_table().of("fortune")
    used: set[int] = set()
    seats = []
    numbers = sorted(rng.sample(range(1, 7), rng.randint(2, 6)))
    for n in numbers:
        pool = list(PREMIUM)
        rng.shuffle(pool)
        cards = next((c for c in (parse_cards(h, count=7) for h in pool) if not used & set(c)), None)
        if cards is None or rng.random() < 0.2:
            cards = rng.sample([c for c in range(53) if c not in used], 7)
        used |= set(cards)
        s = hw.set(cards)
        wagers = {"base": rng.choice([500, 1000, 2500])}
        if rng.random() < 0.85:
            wagers["fortune"] = rng.choice([fortune.min, 500, 1000, 2000, rng.randint(fortune.min, fortune.max),
                                            fortune.max])
        if rules.envy.toke_max_payout_cents is not None and rng.random() < 0.2:
            wagers["fortune_toke"] = rng.randint(fortune.min, fortune.max)
        seats.append({"seat": n, "cards": " ".join(cards_str(cards)), "high": " ".join(cards_str(s.high)),
                      "low": " ".join(cards_str(s.low)), "wagers": wagers})
    if rules.adjacent_areas > 1:
        for a, b in zip(seats, seats[1:]):
            if b["seat"] == a["seat"] + 1 and "player" not in a and rng.random() < 0.4:
                a["player"] = b["player"] = f"two seats {a['seat']}"
    dealer = rng.sample([c for c in range(53) if c not in used], 7)
    rng.shuffle(seats)
    return {"profile": profile_name, "banking": {"mode": "house"}, "dealer": {"cards": " ".join(cards_str(dealer))},
            "seats": seats}
