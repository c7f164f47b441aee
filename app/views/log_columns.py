"""What each logs tab shows in its columns: the words for the values the workstation reads.

Each column sorts by one field of the tab (app/store/logbook.py, ``TABS``) and words one row; a
level (ok, amber, red) colours a status beside its mark and word. Nothing here decides a rule:
a deadline and its rule are the engine's, read from the log; a row only says how far before or
after it a deck or the dice were changed. Pure Python (no widget), so that rows are worded on the
logs' lane, off the GUI thread, and an export writes exactly the words shown.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from app.engine import words as words_for_people
from .theme import AMBER, LEVEL_MARK, NONE, OK, RED, money

Row = dict[str, Any]


@dataclass(frozen=True)
class LogColumn:
    title: str
    field: str                                        # what a click on its header sorts by
    text: Callable[[Row], str]
    level: Callable[[Row], str | None] | None = None
    numeric: bool = False                             # right-aligned
    chars: int = 12                                   # its width at first, in characters


@dataclass(frozen=True)
class Record:
    """One row as shown: its key, the text of each column and each column's level (or None)."""
    key: int
    texts: tuple[str, ...]
    levels: tuple[str | None, ...]


when = words_for_people.when      # a logged time: the date and the time to the second


def span(seconds: int) -> str:
    s = abs(int(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


words = words_for_people.kind


def table(r: Row) -> str:
    return r["table"] or "—"


def seat(v: int | None) -> str:
    return "" if v is None else "dealer" if v == 0 else f"seat {v}"


def who(name: str | None, role: str | None = None) -> str:
    return words_for_people.signed(name, role)


def signed(r: Row, name: str, role: str | None = None, second: str = "countersigned") -> str:
    """Who decided a row (``r[name]``, in ``r[role]``), and who counter-signed it at their session."""
    return words_for_people.signed(r[name], r[role] if role else None, r[f"{second}_by"], r[f"{second}_role"])


def rule(r: Row) -> str:
    """A rule's citation as the rule texts cite it (``000(s)(1)``, never ``000 (s)(1)``)."""
    return words_for_people.citation(r["rule"])


# -- against the deadline (decks and dice) -----------------------------------------------------
def deadline_words(r: Row) -> str:
    m = r["margin"]
    if m is None:
        return ""
    if r["changed"]:
        return (f"{LEVEL_MARK[OK]} changed {span(m)} before it" if m >= 0
                else f"{LEVEL_MARK[RED]} CHANGED {span(m)} LATE")
    return f"in use, {span(m)} left" if m >= 0 else f"{LEVEL_MARK[RED]} OVERDUE +{span(m)}"


def deadline_level(r: Row) -> str | None:
    m = r["margin"]
    if m is None:
        return None
    if m < 0:
        return RED
    return OK if r["changed"] else NONE


# -- statuses ---------------------------------------------------------------------------------
APPROVAL = {"pending": (AMBER, "PENDING"), "approved": (OK, "APPROVED"), "denied": (RED, "DENIED")}


def approval_words(r: Row) -> str:
    level, word = APPROVAL.get(r["status"], (NONE, (r["status"] or "").upper()))
    return f"{LEVEL_MARK[level]} {word}"


def alarm_words(r: Row) -> str:
    if r["acknowledged"]:
        return f"{LEVEL_MARK[OK]} {when(r['acknowledged'])}"
    if r["cleared"]:
        return f"{LEVEL_MARK[AMBER]} CLEARED BY ITSELF, NOT ACKNOWLEDGED"
    return f"{LEVEL_MARK[RED]} NOT ACKNOWLEDGED"


def alarm_level(r: Row) -> str:
    return OK if r["acknowledged"] else AMBER if r["cleared"] else RED


def device_words(r: Row) -> str:
    if r["kind"] == "link":
        if r["code"] == "online":
            return f"{LEVEL_MARK[OK]} LINK BACK ONLINE"
        return f"{LEVEL_MARK[RED]} LINK {'OFFLINE' if r['code'] == 'offline' else r['code'].upper()}"
    return f"{LEVEL_MARK[RED]} FAULT"


def device_level(r: Row) -> str:
    return OK if r["kind"] == "link" and r["code"] == "online" else RED


def irregularity_words(r: Row) -> str:
    if r["acknowledged_by"]:
        return f"{LEVEL_MARK[OK]} {signed(r, 'acknowledged_by')} {when(r['acknowledged'])}".rstrip()
    if r["needs_ack"]:
        return f"{LEVEL_MARK[RED]} WAITING FOR A SUPERVISOR"
    return "not needed"


def irregularity_level(r: Row) -> str | None:
    return OK if r["acknowledged_by"] else RED if r["needs_ack"] else None


def slip_words(r: Row) -> str:
    return f"{LEVEL_MARK[RED]} VOID" if r["status"] == "VOID" else f"{LEVEL_MARK[OK]} ISSUED"


SIGN_IN = {"sign_in": (OK, "SIGNED IN"), "signed_out": (NONE, "SIGNED OUT"), "user_unlocked": (OK, "UNLOCKED"),
           "user_locked": (RED, "LOCKED")}


def sign_in_words(r: Row) -> str:
    level, word = sign_in_level(r), SIGN_IN.get(r["event"], (None, ""))[1]
    if r["event"] == "sign_in_failed":
        if r["locked_until"] and r["reason"] == "wrong PIN":
            word = f"LOCKED OUT until {when(r['locked_until'])}"
        elif r["reason"] == "wrong PIN":
            word = f"WRONG PIN ({r['failures']} in a row)"
        else:
            word = f"REFUSED: {r['reason']}"
    elif r["event"] == "user_locked" and r["locked_until"]:
        word = f"LOCKED until {when(r['locked_until'])}"
    return f"{LEVEL_MARK[level or NONE]} {word}"


def sign_in_level(r: Row) -> str:
    if r["event"] == "sign_in_failed":
        return RED if r["locked_until"] or r["reason"] != "wrong PIN" else AMBER
    return SIGN_IN.get(r["event"], (NONE, ""))[0]


details = words_for_people.data    # an event's data in words, never a PIN's salt or hash


C = LogColumn
COLUMNS: dict[str, tuple[LogColumn, ...]] = {
    # what is read against the deadline first (on a narrow screen the rest is a scroll away)
    "decks": (
        C("Table", "table", table, chars=6),
        C("Deck", "deck", lambda r: r["deck"], chars=11),
        C("Received", "received", lambda r: when(r["received"]), chars=19),
        C("Changed", "changed", lambda r: when(r["changed"]), chars=19),
        C("Deadline", "due", lambda r: when(r["due"]), chars=19),
        C("Against the deadline", "margin", deadline_words, deadline_level, chars=27),
        C("Rule", "rule", rule, chars=24),
        C("Received by", "received_by", lambda r: r["received_by"] or "", chars=12),
        C("Inspected by", "inspected_by", lambda r: "not inspected" if r["inspected_by"] is None
          else r["inspected_by"] or "inspected", chars=12),
        C("Verified by", "verified_by", lambda r: r["verified_by"] or "", chars=12),
        C("In play since", "in_play_since", lambda r: when(r["in_play_since"]), chars=19),
        C("Changed by", "changed_by", lambda r: r["changed_by"] or "", chars=12),
    ),
    "dice": (
        C("Table", "table", table, chars=6),
        C("Placed", "placed", lambda r: when(r["placed"]), chars=19),
        C("Changed", "changed", lambda r: when(r["changed"]), chars=19),
        C("Deadline", "due", lambda r: when(r["due"]), chars=19),
        C("Against the deadline", "margin", deadline_words, deadline_level, chars=27),
        C("Rule", "rule", rule, chars=14),
        C("Placed by", "placed_by", lambda r: r["placed_by"] or "", chars=12),
        C("Changed by", "changed_by", lambda r: r["changed_by"] or "", chars=12),
    ),
    "approvals": (
        C("Request", "request", lambda r: str(r["request"]), numeric=True, chars=7),
        C("Requested", "requested", lambda r: when(r["requested"]), chars=19),
        C("Table", "table", table, chars=6),
        C("Seat", "seat", lambda r: seat(r["seat"]), chars=6),
        C("Request for", "kind", lambda r: words(r["kind"]), chars=22),
        C("Amount", "cents", lambda r: money(r["cents"]) if r["cents"] is not None else "", numeric=True, chars=12),
        # the decision first: a narrow list hides from the right (app/views/log_tab.py)
        C("Decision", "status", approval_words, lambda r: APPROVAL.get(r["status"], (NONE,))[0], chars=11),
        C("Decided by", "decided_by", lambda r: signed(r, "decided_by", "decided_role"), chars=26),
        C("Why", "reason", lambda r: r["reason"] or "", chars=30),
        C("Rule", "rule", rule, chars=14),
        C("Requested by", "requested_by", lambda r: r["requested_by"] or "", chars=12),
        C("Role needed", "role_needed", lambda r: r["role_needed"] or "", chars=15),
        C("Decided", "decided", lambda r: when(r["decided"]), chars=19),
        C("Reason given", "decision_reason", lambda r: r["decision_reason"] or "", chars=30),
    ),
    "alarms": (
        C("Alarm", "alarm", lambda r: str(r["alarm"]), numeric=True, chars=7),
        C("Raised", "raised", lambda r: when(r["raised"]), chars=19),
        C("Table", "table", table, chars=6),
        C("Kind", "kind", lambda r: words(r["kind"]), chars=18),
        C("Message", "message", lambda r: r["message"] or "", chars=40),
        C("Rule", "rule", rule, chars=14),
        C("Acknowledged", "acknowledged", alarm_words, alarm_level, chars=24),
        C("Device", "serial", lambda r: r["serial"] or "", chars=12),
        C("Cleared by itself", "cleared", lambda r: f"{when(r['cleared'])}: {r['cleared_how']}" if r["cleared"]
          else "", chars=24),
        C("By", "acknowledged_by", lambda r: signed(r, "acknowledged_by", "acknowledged_role"), chars=26),
        C("Why", "acknowledged_reason", lambda r: r["acknowledged_reason"] or "", chars=30),
    ),
    "devices": (
        C("Time", "time", lambda r: when(r["time"]), chars=19),
        C("Table", "table", table, chars=6),
        C("Device", "device", lambda r: r["device"] or "", chars=11),
        C("Serial", "serial", lambda r: r["serial"] or "", chars=14),
        C("What", "kind", device_words, device_level, chars=20),
        C("Code", "code", lambda r: r["code"] or "", chars=8),
        C("Message", "message", lambda r: r["message"] or "", chars=50),
    ),
    "irregularities": (
        C("Time", "time", lambda r: when(r["time"]), chars=19),
        C("Table", "table", table, chars=6),
        C("Irregularity", "kind", lambda r: words(r["kind"]), chars=24),
        C("Consequence", "consequence", lambda r: r["consequence"] or "", chars=44),
        C("Rule", "rule", rule, chars=22),
        C("Supervisor", "acknowledged", irregularity_words, irregularity_level, chars=30),
        C("Round", "round", lambda r: "" if r["round"] is None else str(r["round"]), numeric=True, chars=6),
        C("Ref", "ref", lambda r: str(r["ref"]), numeric=True, chars=4),
        C("Reported by", "reported_by", lambda r: r["reported_by"] or "", chars=12),
    ),
    "slips": (
        C("Slip", "number", lambda r: str(r["number"]), numeric=True, chars=5),
        C("Issued", "time", lambda r: when(r["time"]), chars=19),
        C("Table", "table", table, chars=6),
        C("Seat", "seat", lambda r: seat(r["seat"]), chars=6),
        C("Wager", "wager", lambda r: words(r["wager"]), chars=14),
        C("Wagered", "wager_cents", lambda r: money(r["wager_cents"]), numeric=True, chars=10),
        C("Pays", "win_cents", lambda r: money(r["win_cents"]), numeric=True, chars=12),
        C("Issued by", "issued_by", lambda r: signed(r, "issued_by", second="issue_countersigned"), chars=12),
        C("W-2G", "w2g", lambda r: r["w2g"], chars=5),
        C("Status", "status", slip_words, lambda r: RED if r["status"] == "VOID" else OK, chars=9),
        C("Voided", "voided", lambda r: when(r["voided"]), chars=19),
        C("Voided by", "voided_by", lambda r: signed(r, "voided_by", second="void_countersigned"), chars=12),
        C("Why void", "void_reason", lambda r: r["void_reason"] or "", chars=30),
    ),
    "sign_ins": (
        C("Time", "time", lambda r: when(r["time"]), chars=19),
        C("Name", "name", lambda r: r["name"] or "", chars=14),
        C("Role", "role", lambda r: r["role"] or "", chars=16),
        C("What", "event", sign_in_words, sign_in_level, chars=32),
        C("Why", "reason", lambda r: r["reason"] or "", chars=24),
        C("By", "by", lambda r: r["by"] or "", chars=14),
    ),
    "events": (
        C("Seq", "seq", lambda r: str(r["seq"]), numeric=True, chars=8),
        C("Time", "time", lambda r: when(r["time"]), chars=19),
        C("Table", "table", table, chars=6),
        C("Event", "type", lambda r: words(r["type"]), chars=20),
        C("By", "actor", lambda r: r["actor"] or "", chars=14),
        C("Role", "role", lambda r: r["role"] or "", chars=15),
        C("Details", "data", lambda r: details(r["data"]), chars=60),
    ),
}


def recorder(fields: tuple[str, ...], columns: tuple[LogColumn, ...]) -> Callable[[Any], Record]:
    """Words one ``LogRow`` of a tab whose fields are ``fields`` into a ``Record``."""
    def make(row) -> Record:
        r = dict(zip(fields, row.values))
        return Record(row.key, tuple(c.text(r) for c in columns),
                      tuple(c.level(r) if c.level else None for c in columns))
    return make
