"""The table inventory container (the tray) and the table's win: what the tray should hold at any
moment, and the counted win reconciled with the rounds' win to the cent (issue 34,
docs/inventory.md). Pure: the figures in, the figures out; no clock, no files.

A table's shift runs from its opener to its closer. Between them the tray gains fills and pays
credits (chips to and from the cage), sells chips for cash (buy-ins: the cash goes to the drop
box), and moves by every settled round: each ledger line to or from the house is a movement of
the tray (app/engine/ledger.py, the ``house`` party), with two exceptions the rule texts make:

- a progressive wager is put in the tray (000(l)(6); 001 11.9(g)) but what it adds to the meter
  (000(q)(5)), and the casino's funding of a reset (000(q)(6)), are the meter's money held in
  the tray: lines between ``house`` and ``meter`` move no chip;
- a progressive won off the meter is "not being paid from the table inventory container"
  (000(l)(11); 001 11.9(l)): the cage pays it, no chip leaves the tray.

So the tray's expected contents are

    expected = opener + fills - credits - buy-ins + the rounds' flow through the tray

and, with the casino's statement of the win,

    win = drop + closer + credits - opener - fills

the win differs from the rounds' win (their house net and what they put in the tray for the
meter) by exactly what the tray and the drop box do not hold of what they should:

    win - (house net + to the meter) = (closer - expected) + (drop - buy-ins)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

from .chips import ChipSet
from .ledger import HOUSE, METER
from .money import dollars

FILL, CREDIT = "fill", "credit"
SLIP_KINDS = (FILL, CREDIT)


@dataclass(frozen=True)
class TrayLine:
    """One movement of a settlement's ledger as the tray sees it: ``cents`` into the tray
    (negative: out of it; 0: a line that moves no chip, said why), what it was and its paragraph."""
    cents: int
    what: str
    rule: str


def tray_lines(ledger: Iterable[Mapping]) -> list[TrayLine]:
    """Each line of a settlement's ledger (``Settlement.as_json()['ledger']``) that touches the
    house or the meter, as a movement of the tray."""
    out = []
    for m in ledger:
        frm, to, cents = m["from"], m["to"], m["cents"]
        what = f"{m.get('wager') or ''}: {m.get('reason') or ''}".strip(": ")
        if HOUSE in (frm, to) and METER in (frm, to):
            # 000(q)(5),(6): the meter's share stays in the tray as the meter's money
            out.append(TrayLine(0, f"{what} (the meter's money, held in the tray)", m.get("rule", "")))
        elif frm == METER:
            # 000(l)(11): paid off the meter by the cage, not from the table inventory container
            out.append(TrayLine(0, f"{what} (paid by the cage)", m.get("rule", "")))
        elif to == HOUSE:
            out.append(TrayLine(cents, what, m.get("rule", "")))
        elif frm == HOUSE:
            out.append(TrayLine(-cents, what, m.get("rule", "")))
    return out


def tray_change(ledger: Iterable[Mapping]) -> int:
    """What a settlement put in the tray (negative: took out of it), in cents."""
    return sum(line.cents for line in tray_lines(ledger))


def to_meter(ledger: Iterable[Mapping]) -> int:
    """What a settlement left in the tray as the meter's money: its lines from the house to the
    meter, less those from the meter to the house (000(q)(5),(6))."""
    out = 0
    for m in ledger:
        if m["from"] == HOUSE and m["to"] == METER:
            out += m["cents"]
        elif m["from"] == METER and m["to"] == HOUSE:
            out -= m["cents"]
    return out


def house_net(ledger: Iterable[Mapping]) -> int:
    """The house's gain over a settlement's ledger (``net_by_party['house']``)."""
    return sum(m["cents"] if m["to"] == HOUSE else -m["cents"] if m["from"] == HOUSE else 0 for m in ledger)


@dataclass(frozen=True)
class ShiftMoney:
    """One table's money over one shift (or several, added), in cents. ``closer`` and ``drop``
    are None until counted; the win and its difference are None until both are."""
    opener: int = 0
    fills: int = 0
    credits: int = 0
    buy_ins: int = 0
    rounds: int = 0
    rounds_tray: int = 0          # the rounds' flow through the tray
    rounds_house_net: int = 0     # the rounds' house net (the settlements' ``house``)
    to_meter: int = 0             # the rounds' money for the meter, held in the tray
    closer: int | None = None
    drop: int | None = None
    shifts: int = 1

    @property
    def expected(self) -> int:
        """What the tray should hold now: opener + fills - credits - buy-ins + the rounds' flow."""
        return self.opener + self.fills - self.credits - self.buy_ins + self.rounds_tray

    @property
    def tray_difference(self) -> int | None:
        """The closer counted less the tray expected (negative: short); None before the closer."""
        return None if self.closer is None else self.closer - self.expected

    @property
    def drop_difference(self) -> int | None:
        """The drop counted less the cash the dealer recorded for chips; None before the drop."""
        return None if self.drop is None else self.drop - self.buy_ins

    @property
    def win(self) -> int | None:
        """The table's win as the casino states it: drop + closer + credits - opener - fills."""
        if self.closer is None or self.drop is None:
            return None
        return self.drop + self.closer + self.credits - self.opener - self.fills

    @property
    def rounds_win(self) -> int:
        """The win the rounds say: their house net and what they left in the tray for the meter."""
        return self.rounds_house_net + self.to_meter

    @property
    def difference(self) -> int | None:
        """The win by count less the rounds' win; None until the win is known."""
        w = self.win
        return None if w is None else w - self.rounds_win

    def __add__(self, other: "ShiftMoney") -> "ShiftMoney":
        """Two shifts (or two tables) together; a closer or drop not yet counted at either stays
        not counted (its win is not known)."""
        def both(a, b):
            return None if a is None or b is None else a + b
        return ShiftMoney(self.opener + other.opener, self.fills + other.fills, self.credits + other.credits,
                          self.buy_ins + other.buy_ins, self.rounds + other.rounds,
                          self.rounds_tray + other.rounds_tray, self.rounds_house_net + other.rounds_house_net,
                          self.to_meter + other.to_meter, both(self.closer, other.closer),
                          both(self.drop, other.drop), self.shifts + other.shifts)

    def with_round(self, ledger: list[Mapping]) -> "ShiftMoney":
        return replace(self, rounds=self.rounds + 1, rounds_tray=self.rounds_tray + tray_change(ledger),
                       rounds_house_net=self.rounds_house_net + house_net(ledger),
                       to_meter=self.to_meter + to_meter(ledger))

    def as_json(self) -> dict:
        """The keys of ``report shift --json``'s ``money`` (docs/inventory.md), all in cents."""
        return {"opener": self.opener, "fills": self.fills, "credits": self.credits, "closer": self.closer,
                "drop": self.drop, "win": self.win, "rounds_house_net": self.rounds_house_net,
                "difference": self.difference, "buy_ins": self.buy_ins, "to_meter": self.to_meter,
                "rounds_win": self.rounds_win, "expected_closer": self.expected,
                "tray_difference": self.tray_difference, "drop_difference": self.drop_difference,
                "rounds": self.rounds}


NONE_COUNTED = ShiftMoney(shifts=0, closer=0, drop=0)   # the sum of no shifts: add to it


def sum_money(shifts: Iterable[ShiftMoney]) -> ShiftMoney:
    out = NONE_COUNTED
    for s in shifts:
        out = out + s
    return out


def win_over_drop(win: int | None, drop: int | None) -> str:
    """The win as a share of the drop, to a tenth of a percent ("18.2%"), by integer arithmetic;
    "-" when either is not known or nothing was dropped."""
    if win is None or not drop:
        return "-"
    tenths = (abs(win) * 1000 * 2 + drop) // (2 * drop)     # rounded half up
    return f"{'-' if win < 0 else ''}{tenths // 10}.{tenths % 10}%"


def chips_for(chips: ChipSet, cents: int) -> str:
    """An amount as the fewest chips of the set that make it exactly ("1 x $25.00"), largest
    first; "" when no set of the casino's chips makes it."""
    cents = abs(cents)
    out = []
    for d in reversed(chips.denominations):
        n, cents = divmod(cents, d)
        if n:
            out.append(f"{n} x {dollars(d)}")
    return ", ".join(out) if cents == 0 else ""


def difference_words(table: str, shift: str, money: ShiftMoney, chips: ChipSet | None) -> str:
    """What the reconciliation alarm says: the table, its shift, the amount and which chips make
    it (``chips`` None: the chips not named, as the shift report says it), and where the
    difference is (the tray, the drop box, or both)."""
    diff = money.difference or 0
    parts = []
    tray, drop = money.tray_difference or 0, money.drop_difference or 0
    if tray:
        made = chips_for(chips, tray) if chips else ""
        parts.append(f"the tray {'short' if tray < 0 else 'over'} {dollars(abs(tray))} (counted "
                     f"{dollars(money.closer or 0)}, expected {dollars(money.expected)}"
                     + (f"; {made}" if made else "") + ")")
    if drop:
        parts.append(f"the drop {'short' if drop < 0 else 'over'} {dollars(abs(drop))} of the buy-ins recorded "
                     f"(dropped {dollars(money.drop or 0)}, buy-ins {dollars(money.buy_ins)})")
    return (f"table {table}, {shift}: the win by count {dollars(money.win or 0)} differs from the rounds' win "
            f"{dollars(money.rounds_win)} by {dollars(diff)}: " + "; ".join(parts))


def tray_words(table: str, shift: str, money: ShiftMoney, chips: ChipSet | None) -> str:
    """What the tray alarm at the closer says (the drop not yet counted): the table, its shift,
    the closer against the tray expected and which chips make the difference (``chips`` None: not named)."""
    tray = money.tray_difference or 0
    made = chips_for(chips, tray) if chips else ""
    return (f"table {table}, {shift}: the closer {dollars(money.closer or 0)} is {dollars(abs(tray))} "
            f"{'short of' if tray < 0 else 'over'} the tray the rounds expect ({dollars(money.expected)})"
            + (f": {made}" if made else ""))
