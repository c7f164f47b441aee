"""The pit's money as the simulators play it (issue 34, docs/inventory.md): a believable opener,
cash buy-ins, a fill when the tray runs low and a credit when it swells, the closer counted as the
tray the rounds expect (made from the opener's mix) and the drop box's notes. Shared by
``pitdesk simulate shift`` (``TrayDay``, mixed into app/simulate/table_day.py) and the demo floor
(app/simulate/demo_money.py). Pure arithmetic in integer cents, and the shift's steps.

The rule texts are silent on the tray's counts and slips (each table cites its own
``tray_count`` and ``tray_slip``: the house's procedure); the tray's arithmetic is
app/engine/inventory.py's.

The simulated casino's chips (``SIM_CHIPS``) are the default set with the coins a commission's
change needs: a five percent vigorish on a whole-dollar win is a multiple of 5 cents (000(l)(9),
which lets a casino round it to 25 cents; 001 11.9(j); the profiles' ``commission``), so a tray
that has taken commissions holds 5-cent and 25-cent pieces, and its closer is counted to the cent.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import timedelta

from app.engine.chips import ChipCount, ChipError, ChipSet

SIM_CHIPS = ChipSet((5, 25, 100, 500, 2500, 10000, 50000, 100000))
# an opener's chips of each value (before a +-20% jitter, stacked in twenties): $5s and $25s for
# the action, $100s for the larger payoffs, a few $500s, no $1,000s; coins for the commissions' change
OPENER_CHIPS = {5: 40, 25: 80, 100: 100, 500: 120, 2500: 160, 10000: 60, 50000: 8, 100000: 0}
STACK = 20
# the tray's water marks, as a share of the opener (tenths): below LOW a fill, above HIGH a credit
LOW_TENTHS, HIGH_TENTHS = 6, 15
FILL_STEP = 10000     # a fill brings the tray back to its opener, in whole $100s of small chips
CREDIT_STEP = 50000   # a credit sends the excess back in whole $500s of large chips
FILL_VALUES = (2500, 500)          # a fill of small chips: $25s, then $5s
CREDIT_VALUES = (50000, 10000)     # a credit of large ones: $500s, then $100s
BUY_INS = (10000, 20000, 30000, 50000, 100000)   # a buy-in: $100 to $1,000 in cash
BUY_IN_WEIGHTS = (5, 4, 2, 2, 1)


def opener_count(chips: ChipSet, rng: random.Random) -> ChipCount:
    """A believable opener of the casino's chips: each value's chips in stacks of twenty."""
    out = {}
    for d in chips.denominations:
        base = OPENER_CHIPS.get(d, 20 if d <= 2500 else 0)
        out[d] = max(0, round(base * rng.uniform(0.8, 1.2) / STACK) * STACK)
    return chips.count(out)


def made_of(chips: ChipSet, cents: int, values: tuple[int, ...] = ()) -> ChipCount:
    """``cents`` as chips: the given ``values`` first (largest first), the rest by the fewest chips
    of the set. ``ChipError`` when the set's smallest value cannot make the rest."""
    if cents < 0:
        raise ChipError(f"a count is never below no chips, asked for {cents} cents")
    out = dict.fromkeys(chips.denominations, 0)
    left = cents
    for d in [v for v in values if v in out] + sorted(chips.denominations, reverse=True):
        n, left = divmod(left, d)
        out[d] += n
    if left:
        raise ChipError(f"{cents} cents cannot be made of the chips {chips.denominations}")
    return chips.count(out)


def like(mix: ChipCount, cents: int) -> ChipCount:
    """A count of ``cents`` in the mix of ``mix`` by value (the closer made from the opener's
    mix): each value's share of the total as whole chips, largest first, the rest by the fewest
    chips of the set. Integer arithmetic only."""
    if cents < 0:
        raise ChipError(f"a tray never holds below no chips, asked for {cents} cents")
    chips = mix.chips
    out = dict.fromkeys(chips.denominations, 0)
    total = mix.cents
    if total:
        for d, n in zip(chips.denominations, mix.numbers):
            out[d] = cents * n * d // total // d
    rest = cents - sum(d * n for d, n in out.items())
    extra = made_of(chips, rest)
    return chips.count({d: out[d] + n for d, n in zip(chips.denominations, extra.numbers)})


def notes_for(currency: ChipSet, cents: int) -> ChipCount:
    """The drop box's notes for ``cents`` of cash, the fewest notes."""
    return made_of(currency, cents)


def fill_for(chips: ChipSet, opener: int, expected: int, low: int = LOW_TENTHS) -> ChipCount | None:
    """The fill a tray below its low-water mark (``low`` tenths of its opener) asks for (small
    chips, back to its opener in whole $100s), or None."""
    if expected * 10 >= opener * low:
        return None
    cents = -(-(opener - expected) // FILL_STEP) * FILL_STEP
    return made_of(chips, cents, FILL_VALUES)


def credit_for(chips: ChipSet, opener: int, expected: int, high: int = HIGH_TENTHS) -> ChipCount | None:
    """The credit a tray above its high-water mark (``high`` tenths of its opener) sends back
    (large chips, the excess over its opener in whole $500s), or None."""
    if expected * 10 <= opener * high:
        return None
    cents = (expected - opener) // CREDIT_STEP * CREDIT_STEP
    return made_of(chips, cents, CREDIT_VALUES) if cents else None


def buy_in_cents(rng: random.Random) -> int:
    return rng.choices(BUY_INS, BUY_IN_WEIGHTS)[0]


class TrayDay:
    """A simulated table's money over its shift (mixed into ``TableDay``): the dealer counts the
    opener with the floor supervisor's counter-signature, players buy in as they sit down and now
    and then again, the tray asks for a fill or sends a credit past its water marks (the supervisor
    at the desk approves, the cage's cashier and security sign, the dealer and the supervisor sign
    the delivery), the closer is counted as the tray the rounds expect, and the count room counts
    the drop box. ``shift.walk``: (table, cents) walked off that table's tray before its closer."""

    REBUY = 0.03      # a round's chance that a seated player buys in again

    def money_start(self) -> None:
        # its own generator: the rounds' choices stay what they were before the money was played
        self.money_rng = random.Random(f"{self.shift.seed}-money-{self.index}")
        self.opener: ChipCount | None = None

    def tray_open(self) -> Iterator:
        self.wait(30, 120)
        table, dealer = self.id, self.dealer

        def do(desk):
            chips = desk.ws.config.chips
            self.opener = opener_count(chips, self.money_rng)
            supervisor = desk.operator(desk.clock())
            desk.signed(dealer).inventory.open_tray(table, self.opener.by_value(), signer=(supervisor, desk.pin))
        yield self.call(do)

    def buy_in(self, seat: int) -> Iterator:
        cents = buy_in_cents(self.money_rng)
        self.wait(10, 40)
        table, player = self.id, self.owner.get(seat, "")

        def do(desk):
            desk.signed(desk.operator(desk.clock())).inventory.buy_in(table, cents, seat, player)
        yield self.call(do)

    def tray_between_rounds(self) -> Iterator:
        seated = self.state.seated
        if seated and self.money_rng.random() < self.REBUY:
            yield from self.buy_in(self.money_rng.choice(seated))
        _, money = self.shift.desk.ws.inventory.money(self.id)
        if money is None or money.closer is not None:
            return
        chips = self.shift.desk.ws.config.chips
        for kind, count in (("fill", fill_for(chips, money.opener, money.expected)),
                            ("credit", credit_for(chips, money.opener, money.expected))):
            if count is not None:
                yield from self.slip(kind, count)

    def slip(self, kind: str, count: ChipCount) -> Iterator:
        """A fill or credit through every hand: asked, approved, signed at both ends in order."""
        table, dealer = self.id, self.dealer
        reason = "the tray runs low" if kind == "fill" else "the tray holds too many large chips"
        self.wait(20, 60)

        def ask(desk):
            desk.signed(desk.operator(desk.clock())).inventory.request(table, kind, count.by_value(), reason)
            return desk.ws.log.query("SELECT MAX(number) AS n FROM tray_slips WHERE kind = ?", (kind,))[0]["n"]
        number = yield self.call(ask)
        self.wait(30, 180)

        def approve(desk):
            from app.store import trays
            request = trays.slip(desk.ws.log, kind, number)["request"]
            desk.signed(desk.operator(desk.clock())).decisions.decide(request, "approved", f"checked: {reason}")
        yield self.call(approve)
        cashier, security = self.shift.cage
        ends = ("cage", "table") if kind == "fill" else ("table", "cage")
        for at in ends:
            self.wait(60, 150)

            def sign(desk, at=at):
                if at == "cage":
                    desk.signed(cashier).inventory.sign(kind, number, "cage", signers=[(security, desk.pin)])
                else:
                    supervisor = desk.operator(desk.clock())
                    desk.signed(dealer).inventory.sign(kind, number, "table", signers=[(supervisor, desk.pin)])
            yield self.call(sign)
        self.shift.stats[f"{kind}s"] += 1

    def tray_close(self) -> Iterator:
        """The closer counted as the tray the rounds expect (less what walked off it, if planted),
        then, later, the drop box counted by the count room."""
        self.wait(30, 90)
        table, dealer = self.id, self.dealer
        walked = self.shift.walk[1] if self.shift.walk and self.shift.walk[0] == table else 0
        # a tray the last round left below its low-water mark is filled before it is counted: a
        # large award paid in the last round (a planted one) would otherwise leave it below no chips
        _, money = self.shift.desk.ws.inventory.money(table)
        if money is not None and money.closer is None:
            low = fill_for(self.shift.desk.ws.config.chips, money.opener, money.expected)
            if low is not None:
                yield from self.slip("fill", low)

        def close(desk):
            _, money = desk.ws.inventory.money(table)
            count = like(self.opener, money.expected - walked)
            supervisor = desk.operator(desk.clock())
            desk.signed(dealer).inventory.close_tray(table, count.by_value(), signer=(supervisor, desk.pin))
            return money.buy_ins
        cash = yield self.call(close)
        self.t += timedelta(minutes=self.money_rng.randint(20, 90))
        first, second = self.shift.count_team

        def drop(desk):
            notes = notes_for(desk.ws.config.currency, cash)
            desk.signed(first).inventory.drop(table, notes.by_value(), signers=[(second, desk.pin)], source="dialog")
        yield self.call(drop)
