"""A progressive hit checked against the hand it comes from; a meter reset against the hit it follows.

The controller reports a hit (000(q)(3); 001 11.14(c)): a supervisor is asked to approve the
payout only for a seat whose round carries a progressive wager (000(q)(1), (2): taken at No more
bets, its acceptor light lit), and only when the seat's hand, read by the shuffler or entered,
makes the line the controller claims, set as the settlement sets it (000(l)(9)). Anything else
is an alarm, never a payout request: the settlement of the round pays what the hand makes. The
meter's reset after a paid hit (000(q)(6)) is logged as that hit's; a reset with no paid hit
before it stays a request for a pit manager.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from app.devices import mapping
from app.engine.cards import cards_str
from app.engine.money import dollars
from app.engine.procedure import IN_ROUND, TableState
from app.engine.progressive import hand_line, hand_lines
from app.rules.resources import profile
from app.store import meters, rows
from app.store.log import Record

HIT = "progressive_meter_payout"


@dataclass
class Hits:
    """The live pit's check of what a table's controller says (``Pit.vet``)."""
    ws: object

    def vet(self, table: str, state: TableState, heard, actions: list, time: datetime) -> tuple[list, list[Record]]:
        out: list = []
        own: list[Record] = []
        refused = False
        for a in actions:
            if isinstance(a, mapping.ApprovalRequest) and a.kind == HIT:
                why = self.refusal(table, state, heard, a)
                if why:
                    refused = True
                    own.append(rows.alarm_raised(
                        time, table, "progressive_hit_refused",
                        f"the progressive controller claims {a.line or 'a hit'} for {dollars(a.cents or 0)} at seat "
                        f"{a.seat}, but {why}: no payout is asked for; the round's settlement pays what the hand "
                        "makes", self.ws.pit.rules[table].cite("progressive_hit"), a.serial, a.serial or "pitdesk",
                        seat=a.seat, line=a.line,
                        cents=a.cents))
                    continue
            elif isinstance(a, mapping.Alarm) and a.kind == "progressive_hit" and refused:
                continue   # the refusal says it
            elif isinstance(a, mapping.ApprovalRequest) and a.kind == "meter_reset":
                hit = meters.hit_awaiting_reset(self.ws.log, table)
                if hit is not None:
                    continue   # the reset of a paid hit is that hit's (the reading names it), not a request
            elif isinstance(a, mapping.MeterReading) and a.source == "reset":
                hit = meters.hit_awaiting_reset(self.ws.log, table)
                if hit is not None:
                    heard.meter = a.cents
                    own.append(rows.meter_reading(time, a.serial or "pitdesk", "device", table, a.cents, "reset",
                                                  a.serial, hit))
                    continue
            out.append(a)
        return out, own

    def refusal(self, table: str, state: TableState, heard, a) -> str | None:
        """Why the controller's claim ``a`` is not a hit to pay, or None."""
        seat, rnd = a.seat, state.round_at_hand()
        begun = state.state in IN_ROUND and state.round > state.last_round
        stake = self.ws.rounds.progressive_stake(table, seat, rnd)
        if not (begun and seat in state.round_progressive) and not stake:
            return f"seat {seat} has no progressive wager in round {rnd}"
        lights, lock = heard.readings.get("acceptor_lights"), heard.readings.get("lockout")
        if lights is not None and lock is not None and lock.values.get("locked") and \
                seat not in lights.values.get("seats", ()):
            return f"seat {seat}'s acceptor light is not lit ({self.ws.pit.rules[table].cite('progressive_lockout')})"
        cards = self.ws.rounds.hand_of(table, seat, rnd)
        if cards is None:
            return f"seat {seat}'s hand in round {rnd} is not known yet (not read by the shuffler, not entered)"
        rules = self.ws.pit.rules[table]
        paytable = rules.paytables["progressive_5" if stake == 500 else "progressive_1"]
        meter = heard.meter if heard.meter is not None else self.ws.journal.meters.get(table)
        ranker = profile(rules.name).ranker()
        claimed = mapping.line_key(a.line or "")
        shown = " ".join(cards_str(cards))
        if claimed not in hand_lines(cards, ranker, paytable):
            best = hand_line(cards, ranker, paytable, meter or 0)
            return (f"seat {seat}'s hand ({shown}) makes {best.replace('_', ' ') if best else 'no progressive line'}"
                    f", not {a.line or 'the line claimed'}")
        best = hand_line(cards, ranker, paytable, meter) if meter is not None else claimed
        if best != claimed:
            # 000(l)(9), 001 11.9(j): the hand is set to the type yielding the highest progressive payout
            return (f"seat {seat}'s hand ({shown}) makes {best.replace('_', ' ')}, which pays more than the "
                    f"{a.line} claimed")
        return None
