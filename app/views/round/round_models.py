"""The record models of the round panel: a settled round's results, ledger, approvals and payouts,
the table's rounds, the payout slips.

Each is a ``RecordModel`` (app/views/records.py) over the workstation's readouts
(app/workstation/readouts.py ``RoundResult``, ``RoundSummary``, ``SlipInfo``): a column words what
the readout says (a status beside its colour, money in dollars, the rule as cited) and decides
nothing. Every one passes pytest-qt's ``qtmodeltester`` (tests/views/test_gui_rounds.py).
"""

from __future__ import annotations

from app.engine import words

from ..records import Column, RecordModel
from ..theme import AMBER, LEVEL_MARK, NONE, OK, RED, money
from ..widgets import seat_text, stamp, when

# where a round stands (app/workstation/roundlog.py), in a word beside its colour
ROUND_STATUS = {
    "pending": (AMBER, "PENDING APPROVAL"),
    "denied": (RED, "SENT BACK"),
    "ready": (OK, "READY TO RELEASE"),
    "released": (OK, "RELEASED"),
}
OUTCOME = {"win": OK, "lose": RED, "push": NONE, "surrender": AMBER, "returned": NONE, "paid": OK}
WAGER_WORDS = {"base": "base", "fortune": "Fortune", "fortune_toke": "Fortune toke", "insurance": "insurance",
               "three_card": "three-card", "seven_card": "seven-card", "ace_high": "Ace-High",
               "progressive": "progressive", "bank": "bank", "player-dealer": "player-dealer",
               "dealer wager": "dealer's wager", "collection fee": "collection fee"}


def wager_text(wager: str) -> str:
    return WAGER_WORDS.get(wager, wager.replace("_", " "))


def round_status(status: str) -> str:
    level, word = ROUND_STATUS.get(status, (NONE, status.upper()))
    return f"{LEVEL_MARK[level]} {word}"


def round_level(status: str) -> str:
    return ROUND_STATUS.get(status, (NONE, ""))[0]


def signed(cents: int) -> str:
    return ("+" if cents > 0 else "") + money(cents)


def who(seat: int | None, bettor: str | None = None) -> str:
    where = seat_text(seat)
    return where + (f" / {bettor}" if bettor and bettor != where else "")


class ResultModel(RecordModel):
    """Each wager's result (``ResultLine``), in the settlement's order."""
    columns = (
        Column("Seat", lambda r: who(r.seat, r.bettor), sort=lambda r: (r.seat, r.bettor or "")),
        Column("Wager", lambda r: wager_text(r.wager)),
        Column("Stake", lambda r: money(r.stake), sort=lambda r: r.stake, numeric=True),
        Column("Outcome", lambda r: f"{LEVEL_MARK[OUTCOME.get(r.outcome, NONE)]} {r.outcome.upper()}",
               level=lambda r: OUTCOME.get(r.outcome, NONE), bold=True),
        Column("Line", lambda r: (r.line or "").replace("_", " ")),
        Column("Win", lambda r: money(r.win), sort=lambda r: r.win, numeric=True),
        Column("Commission", lambda r: money(r.commission), sort=lambda r: r.commission, numeric=True),
        Column("Net", lambda r: signed(r.net), sort=lambda r: r.net, numeric=True, bold=True),
        Column("Rule", lambda r: r.rule + (f" — {r.note}" if r.note else ""), stretch=True),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda r: (r.seat, r.bettor, r.wager), parent=parent)


class LedgerModel(RecordModel):
    """The ledger: who pays whom, how much, and the paragraph that says so (``LedgerLine``). A
    ledger may name the same payment twice, so a line's place in it is its key: the records are
    (place, line) pairs and ``record`` gives the line."""
    columns = (
        Column("From", lambda p: p[1].frm),
        Column("To", lambda p: p[1].to),
        Column("Amount", lambda p: money(p[1].cents), sort=lambda p: p[1].cents, numeric=True, bold=True),
        Column("Wager", lambda p: wager_text(p[1].wager)),
        Column("Why", lambda p: words.refusal(p[1].reason)),      # "on three of a kind", not its identifier
        Column("Citation", lambda p: p[1].rule, stretch=True),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda p: p[0], parent=parent)

    def set_lines(self, lines) -> None:
        self.set_records(list(enumerate(lines)))

    def record(self, row: int):
        return super().record(row)[1]


def approval_status(a) -> str:
    level = {"pending": AMBER, "approved": OK, "denied": RED}.get(a.status, NONE)
    return f"{LEVEL_MARK[level]} {a.status.upper()}"


class RoundApprovalModel(RecordModel):
    """What the round needs approved (``RoundApproval``), with each decision once made."""
    columns = (
        Column("Request", lambda a: str(a.request), sort=lambda a: a.request, numeric=True),
        Column("Status", approval_status, level=lambda a: {"pending": AMBER, "approved": OK,
                                                           "denied": RED}.get(a.status, NONE), bold=True),
        Column("Needs", lambda a: a.role_needed),
        Column("Seat", lambda a: seat_text(a.seat)),
        Column("Amount", lambda a: money(a.cents) if a.cents is not None else "",
               sort=lambda a: a.cents or 0, numeric=True),
        Column("Why", lambda a: f"{a.reason} ({a.rule})"),
        Column("Decided", lambda a: f"{a.decided_by}: {a.decision_reason}" if a.decided_by else "", stretch=True),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda a: a.request, parent=parent)


def slip_text(p) -> str:
    if p.slip is not None:
        return f"slip {p.slip}"
    if p.slip_reason:
        return f"{LEVEL_MARK[AMBER]} needs a slip" + (" with W-2G data" if p.w2g else "")
    return "no slip"


class PayoutModel(RecordModel):
    """Each win handed over (``Payout``), and the payout slip it needs or got."""
    columns = (
        Column("To", lambda p: p.to),
        Column("Wager", lambda p: wager_text(p.wager)),
        Column("Win", lambda p: money(p.cents), sort=lambda p: p.cents, numeric=True, bold=True),
        Column("Slip", slip_text, sort=lambda p: p.slip or 0,
               level=lambda p: OK if p.slip is not None else AMBER if p.slip_reason else None),
        Column("Why a slip", lambda p: p.slip_reason or "", stretch=True),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda p: (p.seat, p.bettor, p.wager), parent=parent)


class RoundHistoryModel(RecordModel):
    """The table's settled rounds, newest first (``RoundSummary``)."""
    columns = (
        Column("Settlement", lambda r: str(r.settlement), sort=lambda r: r.settlement, numeric=True),
        Column("Round", lambda r: str(r.round), sort=lambda r: r.round, numeric=True),
        Column("Time", lambda r: when(r.time), sort=lambda r: stamp(r.time)),
        Column("Settled by", lambda r: r.actor),
        Column("Banking", lambda r: r.banking),
        Column("House net", lambda r: signed(r.house_net), sort=lambda r: r.house_net, numeric=True),
        Column("Approvals", lambda r: str(r.approvals), sort=lambda r: r.approvals, numeric=True),
        Column("Status", lambda r: round_status(r.status), level=lambda r: round_level(r.status), bold=True,
               stretch=True),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda r: r.settlement, parent=parent)


def slip_level(s) -> str:
    return RED if s.status == "VOID" else OK


def by(name: str | None, second: tuple[str, str] | None) -> str:
    """Who issued or voided a slip, and who counter-signed it at their session."""
    return words.signed(name, None, *(second or (None, None)))


class SlipModel(RecordModel):
    """The payout slips in number order (``SlipInfo``); a void one says VOID, why and by whom."""
    columns = (
        Column("Slip", lambda s: f"{s.number:06d}", sort=lambda s: s.number, numeric=True, bold=True),
        Column("Status", lambda s: f"{LEVEL_MARK[slip_level(s)]} {s.status}", level=slip_level, bold=True),
        Column("Seat", lambda s: seat_text(s.seat)),
        Column("Wager", lambda s: f"{wager_text(s.wager)} {money(s.wager_cents)}"),
        Column("Win", lambda s: money(s.win_cents), sort=lambda s: s.win_cents, numeric=True, bold=True),
        Column("Issued", lambda s: when(s.time), sort=lambda s: stamp(s.time)),
        Column("By", lambda s: by(s.issued_by, s.issue_countersigned)),
        Column("W-2G", lambda s: "W-2G" if s.w2g else ""),
        Column("Note", lambda s: (f"void: {s.void_reason} ({by(s.voided_by, s.void_countersigned)})"
                                  if s.status == "VOID" else "")
               + (f"replaces {s.replaces:06d}" if s.replaces else ""), stretch=True),
    )

    def __init__(self, parent=None):
        super().__init__(key=lambda s: s.number, parent=parent)
