"""The table view's content: positions, the deal, the bank and its rotation, the decks, this
round's irregularities and the table's history, read from the engine state and the log."""

from __future__ import annotations

from datetime import datetime

from app.engine.layout import DEALER, POSITIONS, clockwise_from, counterclockwise_from, name
from app.engine.position import SEVEN_SEATS
from app.engine.players import table_seats
from app.engine.procedure import IN_ROUND, TableState
from app.engine.profile import RuleProfile
from app.engine.rotation import bank_offer_order, bank_offers
from app.store import table_log
from app.store.log import AuditLog

from .readouts import (BankInfo, BankOffer, DeckInfo, HistoryPage, HistoryRow, IrregularityInfo, PositionInfo,
                       Tile)
from .tiles import bank_marker

HISTORY_PAGE = 50


def ring(rules: RuleProfile) -> tuple[int, ...]:
    """The positions receiving a hand: the dealer and seats 1-6, or 002's seven seats."""
    return SEVEN_SEATS if len(table_seats(rules)) == 7 else POSITIONS


def positions(state: TableState, rules: RuleProfile, players: dict[int, str]) -> tuple[PositionInfo, ...]:
    return tuple(PositionInfo(p, name(p), p == DEALER or p in state.seated, players.get(p),
                              state.first_player == p, p in state.bank, p in state.round_wagers,
                              p in state.round_progressive, p in state.voided_seats)
                 for p in ring(rules))


def deal_order(state: TableState, rules: RuleProfile) -> tuple[int, ...]:
    """Who receives cards in which order this round, once it is known: from the starting
    position in the profile's direction (000(h)(3), (i)(6), (j)(4); 003 DEALER BANK 2 counter-
    clockwise); three then four cards from the wagering seat farthest to the dealer's left
    (001 11.17(d)), with no starting position. () between rounds and before the position."""
    if state.state not in IN_ROUND:
        return ()
    if state.dealing_method == "three-four":
        # 001 11.17(d): clockwise from the wagering player farthest to the dealer's left (the
        # highest seat number), then the dealer
        return tuple(sorted(state.round_wagers, reverse=True)) + (DEALER,)
    if state.starting_position is None:
        return ()
    turn = clockwise_from if rules.procedures.delivery == "clockwise" else counterclockwise_from
    return tuple(turn(state.starting_position, ring(rules)))


def bank(state: TableState, rules: RuleProfile) -> BankInfo:
    """The bank now and who is offered it next round, each with the rule that allows or bars it."""
    marker = bank_marker(state, rules)
    p = rules.procedures
    players_bank = {"player", "co-bank"} & set(rules.banking_modes)
    offers: tuple[BankOffer, ...] = ()
    if not players_bank:
        note = (f"the player-dealer position rotates clockwise after every two hands ({rules.cite('bank_rotation')})"
                if "player-dealer" in rules.banking_modes
                else f"players do not bank under {rules.rule_text} ({rules.cite('bank_rotation')})")
    elif state.rounds_played == 0:
        note = f"no player banks at the start of the game ({rules.bank.cite_first_round})"
    elif p.bank_rotation == "each-round":
        got = bank_offers(state.rounds_played, state.seated, state.last_bank, state.wagered_last_unbanked or (),
                          {}, {}, rules)
        offers = tuple(BankOffer(c.seat, c.eligible, c.reason) for c in got)
        rotation = rules.cite("bank_rotation")
        note = (f"the initial offer has come round to the dealer: the house banks next round ({rotation})"
                if not got and state.seated else f"offered counterclockwise, one seat further each round ({rotation})")
    else:
        # 003 PLAYER BANK 1-2, 17: each player who wagered against the house banks once in each
        # rotation, counterclockwise from the last bank (as the engine's bank_declared checks)
        done = state.banked_this_rotation
        first = done[-1] % 7 + 1 if done else 1
        wagered = state.wagered_last_unbanked or ()
        for seat in bank_offer_order(first, state.seated):
            if seat in done:
                offers += (BankOffer(seat, False, f"has banked in this rotation ({rules.cite('bank_rotation')})"),)
            elif seat not in wagered:
                offers += (BankOffer(seat, False, "did not wager against the house in the last unbanked round "
                                                  f"({rules.cite('bank_wagered')})"),)
            else:
                offers += (BankOffer(seat, True, rules.cite("bank_rotation")),)
        note = f"once in each rotation, then the house hand ({rules.cite('bank_rotation')})"
    return BankInfo(marker, p.bank_rotation, offers, note, state.dealer_wager, tuple(state.last_bank))


def decks(tile: Tile, state: TableState, colours: dict[str, str], counts: dict[str, int]) -> tuple[DeckInfo, ...]:
    return tuple(DeckInfo(c, colours.get(c.deck), counts.get(c.deck), c.deck == state.ready_deck) for c in tile.decks)


def players(log: AuditLog, table: str, state: TableState) -> dict[int, str]:
    """Who sat down at each occupied seat, as the player_seated event recorded them."""
    out: dict[int, str] = {}
    if not state.seated:
        return out
    for r in table_log.seatings(log, table):
        seat = r.data.get("seat")
        if seat in state.seated and seat not in out:
            out[seat] = r.actor if r.role == "player" else str(r.data.get("player") or r.data.get("name") or "")
    return {s: p for s, p in out.items() if p}


def irregularities(log: AuditLog, table: str, state: TableState) -> tuple[IrregularityInfo, ...]:
    """This round's irregularities (the read model numbers them by the round begun last)."""
    return tuple(IrregularityInfo(r["ref"], r["kind"], datetime.fromisoformat(r["time"]), r["consequence"], r["rule"],
                                  bool(r["needs_ack"]), r["acknowledged_by"])
                 for r in table_log.irregularities(log, table, state.round))


def history(log: AuditLog, table: str, before: int | None = None, limit: int = HISTORY_PAGE) -> HistoryPage:
    """The table's log rows, newest first, ``limit`` at a time: pass ``next_before`` for the next page."""
    if limit < 1:
        raise ValueError(f"a page holds at least one row, got {limit}")
    rows = table_log.history(log, table, before, limit + 1)
    more = len(rows) > limit
    rows = rows[:limit]
    out = tuple(HistoryRow(r.seq, r.time, r.type, r.actor, r.role, r.data) for r in rows)
    return HistoryPage(out, rows[-1].seq if more else None)
