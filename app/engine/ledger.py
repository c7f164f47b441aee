"""The record of a settlement: every chip movement with the paragraph behind it.

Parties are "house" (the table inventory), "seat N" (the player at seat N; "seat N/NAME" for
another bettor on that circle, 003), "center" (the center of the layout in a player-banked
round, 000(m)(12)), "meter" (the progressive meter, 000(q)(5)) and "tokes" (the dealers'
tokes, 003 GENERAL RULES 6).
"""

from __future__ import annotations

from dataclasses import dataclass, field

HOUSE, CENTER, METER, TOKES = "house", "center", "meter", "tokes"

FLOOR_SUPERVISOR, PIT_MANAGER = "floor supervisor", "pit manager"


@dataclass(slots=True)
class Movement:
    frm: str
    to: str
    cents: int
    seat: int | None
    wager: str
    reason: str
    rule: str

    def as_json(self) -> dict:
        return {"from": self.frm, "to": self.to, "cents": self.cents, "seat": self.seat, "wager": self.wager,
                "reason": self.reason, "rule": self.rule}


@dataclass(frozen=True)
class Approval:
    """A request the round cannot close without: who must approve, what, and why."""

    kind: str
    seat: int | None
    cents: int
    role: str
    reason: str
    rule: str


@dataclass(slots=True)
class Result:
    """One wager's outcome. ``win`` excludes the returned wager; ``net`` is the bettor's gain."""

    seat: int
    wager: str
    stake: int
    outcome: str = "lose"
    line: str | None = None
    win: int = 0
    commission: int = 0
    net: int = 0
    bettor: str | None = None
    rule: str = ""
    note: str = ""


@dataclass
class Book:
    """Collects movements in the order the dealer makes them."""

    movements: list[Movement] = field(default_factory=list)
    approvals: list[Approval] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def move(self, frm: str, to: str, cents: int, seat: int | None, wager: str, reason: str, rule: str) -> None:
        if cents < 0:
            raise ValueError(f"negative movement {cents} from {frm} to {to}")
        if cents:
            self.movements.append(Movement(frm, to, cents, seat, wager, reason, rule))

    def approve(self, kind: str, seat: int | None, cents: int, role: str, reason: str, rule: str) -> None:
        self.approvals.append(Approval(kind, seat, cents, role, reason, rule))


def net_by_party(movements: list[Movement]) -> dict[str, int]:
    """What each party gained (positive) or paid (negative) over the movements."""
    out: dict[str, int] = {}
    for m in movements:
        out[m.frm] = out.get(m.frm, 0) - m.cents
        out[m.to] = out.get(m.to, 0) + m.cents
    return out
