"""The acceptor lights against the progressive wagers the round holds.

000(q)(2), 001 11.14(b): once all wagers are placed the dealer announces "No more bets", presses
the lock-out on the table controller and verifies that the chips wagered on the progressive
equal the lights lit on the acceptor devices; 000(q)(3)(i), 001 11.14(c)1: before paying a hit
the dealer verifies the light of the correct acceptor; 001 11.7(d): each player checks his or
her own light. The device mapping cannot make this check (it does not know the round,
docs/devices.md "Not decided here"); the workstation does, once a round:

- the round's progressive wagers are the seats the procedures took with ``no_more_bets``
  (``TableState.round_progressive``, 000(q)(1));
- the lights compared are those the controller shows while locked out in that round;
- a light without a wager, or a wager without a light, raises the alarm ``acceptor_mismatch``
  naming the seats, at most once per round of a table (also across a restart: the log's alarms
  say which rounds were checked).

Pure apart from the log read at start: the states and the controller's lights come in, rows go out.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from app.engine.procedure import IN_ROUND, TableState
from app.engine.profile import RuleProfile
from app.store import alarm_log, rows
from app.store.log import AuditLog, Record

KIND = "acceptor_mismatch"


@dataclass(frozen=True)
class AcceptorCheck:
    """The lights lit against the seats with a progressive wager this round."""
    lit: tuple[int, ...]
    wagers: tuple[int, ...]
    light_without_wager: tuple[int, ...]
    wager_without_light: tuple[int, ...]
    rule: str     # the table's own text's (``RuleProfile.cite("progressive_lockout")``: 000(q)(2), 001 11.14(b))

    @property
    def agrees(self) -> bool:
        return not self.light_without_wager and not self.wager_without_light

    @property
    def text(self) -> str:
        """What the supervisor reads: the seats on either side, or that they agree."""
        if self.agrees:
            n = len(self.lit)
            return f"{n} light{'' if n == 1 else 's'} for {n} progressive wager{'' if n == 1 else 's'}"
        parts = []
        if self.light_without_wager:
            parts.append(f"acceptor light lit without a progressive wager at {_seats(self.light_without_wager)}")
        if self.wager_without_light:
            parts.append(f"progressive wager without its acceptor light at {_seats(self.wager_without_light)}")
        return "; ".join(parts)


def _seats(seats: Iterable[int]) -> str:
    s = list(seats)
    return ("seat " if len(s) == 1 else "seats ") + ", ".join(map(str, s))


def compare(lit: Iterable[int], wagers: Iterable[int], rules: RuleProfile) -> AcceptorCheck:
    lit_, wagers_ = tuple(sorted(set(lit))), tuple(sorted(set(wagers)))
    return AcceptorCheck(lit_, wagers_, tuple(s for s in lit_ if s not in wagers_),
                         tuple(s for s in wagers_ if s not in lit_), rules.cite("progressive_lockout"))


def locked_in(state: TableState, locked: bool | None, lit: Iterable[int] | None, rules: RuleProfile
              ) -> AcceptorCheck | None:
    """The check of the round in progress, once it can be made: the round past "No more bets"
    (its wagers taken), the controller locked out and its lights known; else None."""
    if state.state not in IN_ROUND or not locked or lit is None:
        return None
    return compare(lit, state.round_progressive, rules)


class AcceptorWatch:
    """Raises ``acceptor_mismatch`` once per round of a table whose lights and wagers disagree."""

    def __init__(self, log: AuditLog):
        self.checked: dict[str, int] = {}     # table -> the last round checked
        for r in alarm_log.raised_of_kind(log, KIND):
            rnd = r.data.get("round")
            if r.table and isinstance(rnd, int):
                self.checked[r.table] = max(rnd, self.checked.get(r.table, 0))

    def rows(self, now: datetime, states: Mapping[str, TableState],
             controllers: Mapping[str, tuple[str, bool | None, tuple[int, ...] | None]],
             rules: Mapping[str, RuleProfile]) -> list[Record]:
        """The alarms to raise now. ``controllers`` maps a table to its controller's (serial,
        locked, seats lit), as the controller last reported them; ``rules`` each table's profile."""
        out = []
        for table, (serial, locked, lit) in controllers.items():
            state = states.get(table)
            if state is None or self.checked.get(table) == state.round:
                continue
            check = locked_in(state, locked, lit, rules[table])
            if check is None:
                continue
            self.checked[table] = state.round
            if check.agrees:
                continue
            out.append(rows.alarm_raised(now, table, KIND, f"round {state.round}: {check.text}; the dealer counts the "
                                         "chips against the lights before play goes on", check.rule, serial,
                                         round=state.round, lit=list(check.lit), wagers=list(check.wagers)))
        return out
