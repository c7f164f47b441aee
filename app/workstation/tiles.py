"""One table's tile on the floor overview, from its engine state and its devices' links.

Pure: the state, the profile, its clocks, the links and the counts come in, a ``Tile`` goes out;
the clocks are read at the ``now`` given.
"""

from __future__ import annotations

from datetime import datetime

from app.engine.procedure import TableState
from app.engine.table_state import IN_ROUND
from app.engine.profile import RuleProfile

from .clocks import Watch, worst
from .config import TableSetup
from .readouts import BankMarker, DeviceLight, Tile


def bank_marker(state: TableState, rules: RuleProfile) -> BankMarker:
    """Who banks the round in progress (or the next one once declared): 000(m), 003 PLAYER BANK,
    002's player-dealer; the house when no player does."""
    if state.bank and state.bank_mode in ("player", "co-bank", "player-dealer"):
        return BankMarker(state.bank_mode, tuple(state.bank))
    if "house" in rules.banking_modes:
        return BankMarker("house")
    return BankMarker(rules.banking_modes[0])   # 002: a player-dealer, not declared yet


def round_shown(state: TableState) -> int:
    """The round a table's tile and header show: the round at hand, except a round whose
    settlement is logged while its procedures still run (settling: the payouts being decided and
    released), which is still that round (issue 33, 5: the tile said ROUND 4 while round 3 was
    still settling). A round entered now is still for the round at hand."""
    if state.state in IN_ROUND and 0 < state.round == state.last_round:
        return state.round
    return round_at_hand(state)


def round_at_hand(state: TableState) -> int:
    """The round a table is on (``TableState.round_at_hand``): what the table's header and tile
    show, and what a round entered now is for."""
    return state.round_at_hand()


def progressive(state: TableState, rules: RuleProfile) -> str | None:
    """``open`` or ``closed`` (the controller offline: 000(q)(2), (3)(i), (5); docs/table-events.md);
    None where the profile offers no progressive wager (000(q)(1))."""
    if "progressive" not in rules.side_bets:
        return None
    return "open" if state.progressive_online else "closed"


def tile(setup: TableSetup, position: tuple[int, int], state: TableState, rules: RuleProfile, watch: Watch,
         links: dict[str, str], meter: int | None, open_alarms: int, pending_approvals: int,
         now: datetime) -> Tile:
    """The table's tile, its clocks (``watch``, app/workstation/clocks.py) read at ``now``."""
    decks, dice = watch.clocks_at(now)
    shown = next((c for c in decks if c.in_play), None) or next((c for c in decks if c.deck == state.ready_deck),
                                                              None) or (decks[0] if decks else None)
    lights = tuple(DeviceLight(d.serial, d.cls, links.get(d.serial, "connecting")) for d in setup.devices)
    return Tile(setup.id, setup.profile, rules.rule_text, position[0], position[1], state.state, state.round,
                state.void, bank_marker(state, rules), shown, decks, dice,
                worst([c.level for c in decks] + ([dice.level] if dice else [])), lights,
                meter if "progressive" in rules.side_bets else None, progressive(state, rules), open_alarms,
                pending_approvals, len(state.pending_acks()), round_shown(state),
                progressive_rule=rules.cite("progressive_offline") if "progressive" in rules.side_bets else "")
