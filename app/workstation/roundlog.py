"""Settled rounds read back from the log: a round's settlement exactly as logged, where it stands
(pending approval, sent back, ready, released), its payouts and their slips; the table's rounds
newest first; the slip book.

A settlement row (``Floor.settle``) is followed in the same append by one ``approval_requested``
row per approval it needs, in order: the requests of the settlement at seq S are S+1 .. S+n
(but one ``merged`` with a request logged before it, app/store/settled_rounds.py). A
release logs ``round_released`` {settlement} and a ``payout`` row per payout (with its slip's
``slip_issued`` row before it where one is needed). A round's standing is read from those rows,
never kept anywhere else.
"""

from __future__ import annotations

import json
from datetime import datetime

from app.engine import words
from app.engine.ledger import Result
from app.engine.profile import RuleProfile
from app.store import settled_rounds, slips
from app.store.log import AuditLog

from .readouts import (LedgerLine, Payout, ResultLine, RoundApproval, RoundResult, RoundSummary, SlipInfo)
from .wagers import slip_reason

PENDING, DENIED, READY, RELEASED = "pending", "denied", "ready", "released"


class NoSuchRound(LookupError):
    pass


def settlement_row(log: AuditLog, seq: int) -> dict:
    row = settled_rounds.settlement(log, seq)
    if row is None:
        raise NoSuchRound(f"no settled round {seq} in the log (a round is named by its settlement's row)")
    return row


def standing(requests: list[dict], released: dict | None) -> str:
    if released is not None:
        return RELEASED
    if any(r["status"] == "denied" for r in requests):
        return DENIED
    if any(r["status"] == "pending" for r in requests):
        return PENDING
    return READY


def _results(s: dict) -> list[Result]:
    return [Result(**r) for r in s["results"]]


def payouts(s: dict, rules: RuleProfile, slip_cents: int | None, slips: dict | None = None) -> tuple[Payout, ...]:
    """Every win handed to a seat (a bettor on its circle, the bank's surplus), with the slip it
    needs and why (app/workstation/wagers.py ``slip_reason``)."""
    results = _results(s)
    meter_seats = {a["seat"] for a in s["approvals"] if a["kind"] == "progressive_meter_payout"}
    stakes: dict[int, dict[str, int]] = {}
    for r in results:
        if r.bettor is None:
            stakes.setdefault(r.seat, {})[r.wager] = r.stake
    out = []
    for r in results:
        if r.outcome != "win" or r.win <= 0 or r.seat < 1:
            continue
        why, w2g = slip_reason(r, rules, meter_seats, slip_cents, stakes)
        # envy is earned by the Fortune wager (000(r)(3)): the wager a W-2G names
        stake = r.stake if r.stake or not r.wager.startswith("envy") else stakes.get(r.seat, {}).get("fortune", 0)
        # a winning toke bet is the dealers' (003 GENERAL RULES 6): paid to the tokes, not the seat
        to = "tokes" if r.wager == "fortune_toke" else f"seat {r.seat}" + (f"/{r.bettor}" if r.bettor else "")
        out.append(Payout(r.seat, r.bettor, to, r.wager, r.line, stake, r.win, why, w2g,
                          (slips or {}).get((r.seat, r.bettor, r.wager)), r.commission))
    return tuple(out)


def result(log: AuditLog, seq: int, rules: RuleProfile, slip_cents: int | None) -> RoundResult:
    row = settlement_row(log, seq)
    data, table = row["data"], row["table_id"]
    s = data["settlement"]
    requests = settled_rounds.requests(log, seq, table, len(s["approvals"]), data.get("merged"))
    released = settled_rounds.released(log, seq)
    paid = {(d["seat"], d.get("bettor"), d["wager"]): d.get("slip") for d in settled_rounds.payouts(log, seq)}
    status = standing(requests, released)
    approvals = tuple(RoundApproval(r["request"], r["kind"], r["seat"], r["cents"], r["role_needed"], r["reason"],
                                    r["rule"], r["status"], r["decided_by"], r["decision_reason"]) for r in requests)
    return RoundResult(
        seq, table, data.get("round") or 0, datetime.fromisoformat(row["time"]), row["actor"], row["role"],
        s["profile"], s["banking"], tuple(s["banker_hand"]["high"]), tuple(s["banker_hand"]["low"]),
        tuple(ResultLine(r.seat, r.wager, r.stake, r.outcome, r.line, r.win, r.commission, r.net, r.bettor, r.rule,
                         r.note) for r in _results(s)),
        tuple(LedgerLine(m["from"], m["to"], m["cents"], m["seat"], m["wager"], m["reason"], m["rule"])
              for m in s["ledger"]),
        dict(s["net_by_party"]), approvals, tuple(s["notes"]), status,
        _status_text(status, approvals, released, settled_rounds.settled_again(log, seq) if status == DENIED else None),
        payouts(s, rules, None if slip_cents is None else slip_cents, paid),
        datetime.fromisoformat(released["time"]) if released else None, released["actor"] if released else None,
        s, data.get("round_file"), data.get("replaces"))


def denial(a: RoundApproval) -> str:
    """Why a round was sent back, as its round being entered again says it (``returned``) and its
    status: the request, who denied it and their reason."""
    return f"request {a.request} ({words.kind(a.kind)}) denied by {a.decided_by}: {a.decision_reason}"


def _status_text(status: str, approvals: tuple[RoundApproval, ...], released: dict | None,
                 again: int | None) -> str:
    if status == RELEASED:
        # the day and time as every time of the shift is shown beside it ("Sat 12:01:57", issue 33, 5)
        return f"released by {released['actor']} at {words.day_time(datetime.fromisoformat(released['time']))}"
    if status == DENIED:
        text = "sent back: " + denial(next(a for a in approvals if a.status == "denied"))
        return text + (f"; settled again as {again}" if again else "")
    if status == PENDING:
        waiting = [a for a in approvals if a.status == "pending"]
        return "waiting for approval: " + "; ".join(
            f"request {a.request} ({words.kind(a.kind)}, {a.reason}) needs {'an' if a.role_needed[0] in 'aeiou' else 'a'} "
            f"{a.role_needed} ({a.rule})" for a in waiting)
    if approvals:
        return "approved (" + ", ".join(f"request {a.request} by {a.decided_by}" for a in approvals) + \
               "); ready to release the payouts"
    return "no approval needed; ready to release the payouts"


def history(log: AuditLog, table: str, before: int | None, limit: int) -> tuple[RoundSummary, ...]:
    out = []
    for r in settled_rounds.page(log, table, before, limit):
        status = standing(settled_rounds.requests(log, r["seq"], table, r["approvals"],
                                                  json.loads(r["merged"]) if r["merged"] else None),
                          settled_rounds.released(log, r["seq"]))
        out.append(RoundSummary(r["seq"], table, r["round"] or 0, datetime.fromisoformat(r["time"]), r["actor"],
                                r["banking"], r["house_net_cents"], r["approvals"], status))
    return tuple(out)


def slip_book(log: AuditLog, table: str | None = None) -> tuple[SlipInfo, ...]:
    return tuple(SlipInfo(r["number"], r["seq"], r["table_id"], r["seat"], r["wager"], r["wager_cents"],
                          r["win_cents"], datetime.fromisoformat(r["time"]), r["issued_by"], r["status"],
                          r["void_reason"], r["voided_by"], json.loads(r["w2g"]) if r["w2g"] else None,
                          r["data"].get("settlement"), r["data"].get("replaces"), r["data"].get("commission_cents"),
                          _pair(r, "issue_countersigned"), _pair(r, "void_countersigned"))
                 for r in slips.book_rows(log, table))


def _pair(r: dict, prefix: str) -> tuple[str, str] | None:
    """A read model's (name, role) of a counter-signature, None when there is none."""
    return (r[f"{prefix}_by"], r[f"{prefix}_role"]) if r.get(f"{prefix}_by") else None
