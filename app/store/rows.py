"""The rows the application writes to the audit log: one builder per row type, each returning the
``Record`` to append (or, for a settlement, the records of one append), with its fields checked
where a row can be wrong. The workstation, the store's own writers and the simulator all build
their rows here, so a row means the same whoever writes it.

A builder checks what the row itself needs (an acknowledgement's reason, an approval's kind and
role, a slip's cents and W-2G data); whether the person may write it, and whether the table's
procedures allow it, is decided before (the workstation's desks, the store's services, the
engine).
"""

from __future__ import annotations

import re
import sqlite3
from dataclasses import replace
from datetime import datetime

from app.engine.procedure import Event
from app.engine.roles import ADMINISTRATOR, APPROVER_LEVEL, DEVICE, SYSTEM
from app.engine.settle import Settlement

from .log import Record


class RowError(ValueError):
    """A row that cannot be written as given; the message names the fault."""


class ApprovalError(RowError):
    pass


class SlipError(RowError):
    pass


# -- alarms and devices ---------------------------------------------------------------------------
def alarm_raised(time: datetime, table: str | None, kind: str, message: str, rule: str = "", serial: str = "",
                 actor: str = SYSTEM, **more) -> Record:
    """An alarm for a supervisor: the workstation's own (``actor`` the system, no ``serial``) or a
    device's (its serial as actor and ``serial``); ``rule`` the paragraph it stands for, if one
    does; ``more`` the kind's own fields (the overdue deck, the irregularity's ref ...)."""
    return Record("alarm_raised", time, actor, DEVICE, table,
                  {"kind": kind, "rule": rule, "serial": serial, **more, "message": message})


def alarm_cleared(time: datetime, table: str | None, alarm: int, kind: str, how: str, actor: str = SYSTEM
                  ) -> Record:
    """An alarm whose condition went away by itself; it still waits for its acknowledgement."""
    return Record("alarm_cleared", time, actor, DEVICE, table, {"alarm": alarm, "kind": kind, "how": how})


def alarm_acknowledged(time: datetime, actor: str, role: str, table: str | None, alarm: int, kind: str,
                       reason: str) -> Record:
    """A supervisor acknowledges an alarm and says why (000(n): an irregularity waits for one);
    ``RowError`` without a reason."""
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason:
        raise RowError(f"an acknowledgement records its reason: say why alarm {alarm} ({kind}) is dealt with")
    return Record("alarm_acknowledged", time, actor, role, table, {"alarm": alarm, "kind": kind, "reason": reason})


def acknowledged(time: datetime, actor: str, role: str, table: str, ref: int) -> Record:
    """The procedures' acknowledgement of irregularity ``ref`` by a supervisor (000(n))."""
    return Record("acknowledged", time, actor, role, table, {"ref": ref})


def device_fault(time: datetime, actor: str, table: str | None, device: str, code: str, message: str,
                 serial: str, **more) -> Record:
    """A device that failed or said something it should not (``more``: a link gap's first frame,
    count and reason)."""
    return Record("device_fault", time, actor, DEVICE, table,
                  {"device": device, "code": code, "message": message, "serial": serial, **more})


def hand_read(time: datetime, actor: str, table: str, position: int, deck: str, cards, serial: str,
              deal: str = "", hands: int = 7, round_no: int | None = None) -> Record:
    """The seven cards a card-reading shuffler read for one position, as read (000(j)(1)): one
    hand of ``deal`` (its deck and when it was dispensed, ``hands`` hands in all), dealt for the
    table's round ``round_no``."""
    data = {"position": position, "deck": deck, "cards": list(cards), "serial": serial}
    if deal:
        data.update(deal=deal, hands=hands)
    if round_no is not None:
        data["round"] = round_no
    return Record("hand_read", time, actor, DEVICE, table, data)


def meter_reading(time: datetime, actor: str, role: str, table: str, cents: int, source: str,
                  serial: str | None = None, hit: int | None = None, coalesced: int = 0) -> Record:
    """The progressive meter (000(q)(5)): a controller's reading (with its ``serial``) or the
    engine's figure after a settlement; ``hit``: the paid hit a reset follows (000(q)(6));
    ``coalesced``: the controller's readings before it that it superseded and the link did not
    pass on (docs/devices.md, "Bounded input")."""
    data = {"cents": cents, "source": source}
    if serial is not None:
        data["serial"] = serial
    if hit is not None:
        data["hit"] = hit
    if coalesced:
        data["coalesced"] = coalesced
    return Record("meter_reading", time, actor, role, table, data)


# -- approvals ------------------------------------------------------------------------------------
KINDS = {
    # kind: (the role it needs unless the request says more, the rule behind it)
    "progressive_meter_payout": ("floor supervisor", "000(q)(3)(iii)"),
    "payoff_threshold": ("floor supervisor", "003 Clearing the Layout 1a"),
    "aggregate_limit": ("pit manager", "000(s)(3); 003 Aggregate Limit"),
    "recut": ("floor supervisor", "000(f)(6)"),
    "irregularity": ("floor supervisor", "000(n)"),
    "bank_eligibility": ("floor supervisor", "003 PLAYER BANK 3"),
    "meter_reset": ("pit manager", "000(q)(6)"),
    # the table's own citation is given with each (its [citations] tray_slip): the texts are silent
    "fill": ("floor supervisor", "the house's procedure"),
    "credit": ("floor supervisor", "the house's procedure"),
}
DECISIONS = ("approved", "denied")


def approval_requested(time: datetime, actor: str, role: str, table: str | None, kind: str, seat: int | None = None,
                       cents: int | None = None, role_needed: str | None = None, reason: str = "",
                       rule: str | None = None, line: str = "", round_no: int | None = None) -> Record:
    """A request for a supervisor's approval, citing its rule (the kind's unless given); ``line``:
    a progressive hit's pay-table line as the controller named it; ``round_no``: the table's round
    a device's request is for. ``ApprovalError`` naming the fault."""
    if kind not in KINDS:
        raise ApprovalError(f"unknown approval kind {kind!r}; kinds are {', '.join(KINDS)}")
    need = role_needed or KINDS[kind][0]
    if need not in APPROVER_LEVEL:
        raise ApprovalError(f"an approval is given by a floor supervisor or a pit manager, not a {need}")
    if cents is not None and (not isinstance(cents, int) or isinstance(cents, bool)):
        raise ApprovalError(f"an amount is whole cents, got {cents!r}")
    data = {"kind": kind, "seat": seat, "cents": cents, "role_needed": need, "reason": reason,
            "rule": rule or KINDS[kind][1]}
    if line:
        data["line"] = line
    if round_no is not None:
        data["round"] = round_no
    return Record("approval_requested", time, actor, role, table, data)


def approval_decided(time: datetime, actor: str, role: str, table: str | None, request: int, decision: str,
                     reason: str, countersigned: tuple[str, str] | None = None) -> Record:
    """A request approved or denied, with the reason; ``countersigned``: the (name, role) of the
    second person whose PIN authorised it at the actor's session. ``ApprovalError`` naming the fault."""
    if decision not in DECISIONS:
        raise ApprovalError(f"a decision is 'approved' or 'denied', got {decision!r}")
    if not reason.strip():
        raise ApprovalError("a decision records its reason")
    data = {"request": request, "decision": decision, "reason": reason}
    if countersigned is not None:
        data["countersigned_by"], data["countersigned_role"] = countersigned
    return Record("approval_decided", time, actor, role, table, data)


def countersigned(records: list[Record], second: tuple[str, str] | None) -> list[Record]:
    """``records`` of one decision, each naming in its data the second person whose PIN
    authorised it at the actor's session (``second``: their name and role; None: as they are)."""
    if second is None:
        return records
    return [replace(r, data={**r.data, "countersigned_by": second[0], "countersigned_role": second[1]})
            for r in records]


# -- rounds, payouts and slips --------------------------------------------------------------------------
def table_configured(time: datetime, actor: str, role: str, table: str, profile: str) -> Record:
    return Record("table_configured", time, actor, role, table, {"profile": profile})


def procedure_event(table: str, event: Event) -> Record:
    """A table event the procedures accepted (app/engine/procedure.py, docs/table-events.md)."""
    return Record(event.type, event.time, event.actor, event.role, table, event.data)


def settlement(time: datetime, actor: str, role: str, table: str, round_no: int, result: Settlement,
               round_file: dict | None = None, replaces: int | None = None,
               merged: dict[int, int] | None = None) -> list[Record]:
    """A settled round's rows, for one append: the settlement (with the round file settled, and the
    settlement of the same round a denial sent back, if any), an approval request per approval
    it needs in their order, and the meter after the round. ``merged`` maps an approval's index to
    the request already logged for the same thing (a progressive controller's report of the hit
    the settlement pays): one hit, one request, so that approval asks for none of its own; the
    settlement names it (``merged``) and its other requests follow it in order."""
    data: dict = {"round": round_no, "settlement": result.as_json()}
    if round_file is not None:
        data["round_file"] = round_file
    if replaces is not None:
        data["replaces"] = replaces
    if merged:
        data["merged"] = {str(i): request for i, request in sorted(merged.items())}
    records = [Record("settlement", time, actor, role, table, data)]
    for i, a in enumerate(result.approvals):
        if merged and i in merged:
            continue
        records.append(approval_requested(time, actor, role, table, a.kind, a.seat, a.cents, a.role, a.reason,
                                          a.rule))
    if result.meter_after is not None:
        records.append(meter_reading(time, actor, role, table, result.meter_after, "settlement"))
    return records


def round_released(time: datetime, actor: str, role: str, table: str, settlement: int, round_no: int,
                   payouts: int) -> Record:
    return Record("round_released", time, actor, role, table,
                  {"settlement": settlement, "round": round_no, "payouts": payouts})


def _last_slip(conn: sqlite3.Connection, data: dict) -> None:
    # the slip issued just before the payout, in the same transaction
    data["slip"] = conn.execute("SELECT MAX(number) FROM slips").fetchone()[0]


def payout(time: datetime, actor: str, role: str, table: str, settlement: int, round_no: int, seat: int,
           bettor: str | None, to: str, wager: str, line: str, cents: int, with_slip: bool) -> Record:
    """One payout of a released round; ``with_slip``: it follows its payout slip in the same append."""
    return Record("payout", time, actor, role, table,
                  {"settlement": settlement, "round": round_no, "seat": seat, "bettor": bettor, "to": to,
                   "wager": wager, "line": line, "cents": cents, "slip": None},
                  prepare=_last_slip if with_slip else None)


W2G_MIN_CENTS = 60_000
W2G_MIN_MULTIPLE = 300
W2G_PAYEE_FIELDS = ("name", "address", "tin", "id_type", "id_number")


def needs_w2g(win_cents: int, wager_cents: int) -> bool:
    """IRS Form W-2G: a table-game win of $600 or more that is at least 300 times the wager."""
    return win_cents >= W2G_MIN_CENTS and win_cents >= W2G_MIN_MULTIPLE * wager_cents


def _next_number(conn: sqlite3.Connection, data: dict) -> None:
    data["number"] = conn.execute("SELECT IFNULL(MAX(number), 0) + 1 FROM slips").fetchone()[0]


def slip_issued(time: datetime, actor: str, role: str, table: str, seat: int | None, wager: str, wager_cents: int,
                win_cents: int, payee: dict | None = None, extra: dict | None = None) -> Record:
    """A payout slip, numbered next in the writer's transaction, with the W-2G data where the win
    needs it (``SlipError`` naming what is missing). ``extra`` adds fields (the settlement and the
    reason of a released payout, the void slip it replaces)."""
    for what, v in (("wager_cents", wager_cents), ("win_cents", win_cents)):
        if not isinstance(v, int) or isinstance(v, bool) or v < 0:
            raise SlipError(f"{what} must be whole, non-negative cents, got {v!r}")
    w2g = None
    if needs_w2g(win_cents, wager_cents):
        payee = payee or {}
        missing = [f for f in W2G_PAYEE_FIELDS if not str(payee.get(f, "")).strip()]
        if missing:
            raise SlipError(f"a win of {win_cents} cents on {wager_cents} cents needs the W-2G data: missing "
                            f"{', '.join(missing)}")
        if not re.fullmatch(r"\d{3}-?\d{2}-?\d{4}|\d{2}-?\d{7}", str(payee["tin"])):
            raise SlipError(f"the taxpayer identification number must be an SSN or EIN, got {payee['tin']!r}")
        w2g = {"box1_gross_winnings_cents": win_cents, "box2_date_won": time.date().isoformat(),
               "box3_type_of_wager": f"table game: pai gow poker {wager}", "box5_transaction": f"table {table}"
               + (f" seat {seat}" if seat else ""), "box7_identical_wagers_cents": win_cents,
               "box10_window": table, "box11_first_id": f"{payee['id_type']} {payee['id_number']}",
               "box12_second_id": payee.get("second_id", ""), "wager_cents": wager_cents,
               **{f"payee_{f}": payee[f] for f in ("name", "address", "tin")}}
    return Record("slip_issued", time, actor, role, table,
                  {"seat": seat, "wager": wager, "wager_cents": wager_cents, "win_cents": win_cents, "w2g": w2g,
                   **(extra or {})}, prepare=_next_number)


def slip_voided(time: datetime, actor: str, role: str, table: str | None, number: int, reason: str) -> Record:
    """A slip marked VOID, saying why; ``SlipError`` without a reason."""
    if not reason.strip():
        raise SlipError("a void slip records its reason")
    return Record("slip_voided", time, actor, role, table, {"number": number, "reason": reason})


def hand_corrected(time: datetime, actor: str, role: str, table: str, position: int, was: list, cards: list,
                   reason: str, deck: str | None, serial: str | None, round_no: int) -> Record:
    """A person's correction of the cards a shuffler read at a position, and why."""
    return Record("hand_corrected", time, actor, role, table,
                  {"position": position, "was": was, "cards": cards, "reason": reason, "deck": deck,
                   "serial": serial, "round": round_no})


def reading_chosen(time: datetime, actor: str, role: str, table: str, position: int, use: str, kept: list,
                   set_aside: list, reason: str, deal: str, serial: str, round_no: int) -> Record:
    """A person's choice between the cards typed at a position and the shuffler's reading that
    disagrees with them (``use``: ``reading`` or ``typed``), and why: the cards kept and those set
    aside both stay in the log (000(b)(1): one deck, each card once; the round is settled on one)."""
    if use not in ("reading", "typed"):
        raise RowError(f"a choice between the typed cards and the reading is 'reading' or 'typed', got {use!r}")
    if not reason.strip():
        raise RowError("a choice between the typed cards and the shuffler's reading records why")
    return Record("reading_chosen", time, actor, role, table,
                  {"position": position, "use": use, "cards": kept, "set_aside": set_aside, "reason": reason.strip(),
                   "deal": deal, "serial": serial, "round": round_no})


# -- people and reports -----------------------------------------------------------------------------
def user_added(time: datetime, actor: str, role: str, name: str, user_role: str, credential: dict,
               prepare=None, first_run: bool = False) -> Record:
    """A user with a role and a PIN's ``credential`` (its id only: the keyed hash is kept in
    ``pins`` by ``prepare``, app/store/credentials.py); ``first_run``: the first administrator,
    added by the system."""
    data = {"name": name, "role": user_role, **credential}
    if first_run:
        data["first_run"] = True
    return Record("user_added", time, actor, role, None, data, prepare)


def first_administrator(time: datetime, name: str, credential: dict, prepare=None) -> Record:
    return user_added(time, SYSTEM, ADMINISTRATOR, name, ADMINISTRATOR, credential, prepare, first_run=True)


def pin_changed(time: datetime, actor: str, role: str, name: str, credential: dict, prepare=None) -> Record:
    return Record("pin_changed", time, actor, role, None, {"name": name, **credential}, prepare)


def user_locked(time: datetime, actor: str, role: str, name: str) -> Record:
    return Record("user_locked", time, actor, role, None, {"name": name, "until": None})


def user_unlocked(time: datetime, actor: str, role: str, name: str) -> Record:
    return Record("user_unlocked", time, actor, role, None, {"name": name})


def role_changed(time: datetime, actor: str, role: str, name: str, new_role: str, was: str) -> Record:
    return Record("role_changed", time, actor, role, None, {"name": name, "role": new_role, "was": was})


def sign_in(time: datetime, name: str, role: str, station: str | tuple[str, ...] | None = None) -> Record:
    """A sign-in at the workstation, or at a table's ``station`` (the row names its table), or at
    the stations of several tables at once (``station`` a tuple: the row names them all)."""
    if station is None:
        return Record("sign_in", time, name, role, None, {"name": name})
    if isinstance(station, tuple):
        if len(station) != 1:
            return Record("sign_in", time, name, role, None, {"name": name, "stations": list(station)})
        station = station[0]
    return Record("sign_in", time, name, role, station, {"name": name, "station": station})


def sign_in_failed(time: datetime, name: str, role: str, reason: str, failures: int,
                   locked_until: str | None = None, known: bool = True) -> Record:
    """A sign-in refused and why; a known user's row says until when the account is locked."""
    data = {"name": name, "reason": reason, "failures": failures}
    if known:
        data["locked_until"] = locked_until
    return Record("sign_in_failed", time, name, role, None, data)


def signed_out(time: datetime, name: str, role: str, reason: str) -> Record:
    return Record("signed_out", time, name, role, None, {"name": name, "reason": reason})


def note(time: datetime, actor: str, role: str, text: str) -> Record:
    """A note the person signed in writes in the log about the log itself (a simulated shift says
    so, and whether it planted rare hands); ``RowError`` for a note with nothing in it."""
    if not isinstance(text, str) or not text.strip():
        raise RowError("a note in the log says something")
    return Record("note", time, actor, role, None, {"text": text.strip()})


def report_printed(time: datetime, actor: str, role: str, prepare) -> Record:
    """A shift report printed; ``prepare`` numbers it inside the writer's transaction."""
    return Record("report_printed", time, actor, role, None, prepare=prepare)


def report_failed(time: datetime, actor: str, role: str, number: int, shift: str, date: str, where: str,
                  reason: str) -> Record:
    """A numbered shift report that did not reach its paper or file: the gap in the numbers explained."""
    return Record("report_failed", time, actor, role, None,
                  {"kind": "shift", "number": number, "shift": shift, "date": date, "where": where,
                   "reason": reason})


# -- the table inventory (issue 34, docs/inventory.md) ----------------------------------------------
TRAY_SLIP_KINDS = ("fill", "credit")
SLIP_ENDS = ("cage", "table")


def _count(count: dict) -> dict:
    """A count by value as the log holds it: value in cents (as text, JSON's keys) -> chips."""
    for v, n in count.items():
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise RowError(f"a count holds a whole number of chips of each value, got {n!r} of {v}")
    return {str(int(v)): n for v, n in sorted(count.items(), key=lambda kv: int(kv[0])) if n}


def _signers(signers) -> list[list[str]]:
    return [[name, role] for name, role in signers]


def tray_counted(time: datetime, actor: str, role: str, table: str, kind: str, count: dict, cents: int,
                 signers, **more) -> Record:
    """An opener (``kind`` 'opener') or a closer ('closer'): the tray counted by value, ``cents``
    its total, ``signers`` the (name, role) of the two who counted and signed it (the dealer and a
    supervisor); ``more``: an opener's last closer (``last_closer``, ``last_closer_cents``), a
    closer's opener and the tray the rounds expected (``opener``, ``expected``)."""
    if kind not in ("opener", "closer"):
        raise RowError(f"a tray count is an 'opener' or a 'closer', got {kind!r}")
    if isinstance(cents, bool) or not isinstance(cents, int) or cents < 0:
        raise RowError(f"a count's total is whole cents, got {cents!r}")
    return Record(f"tray_{kind}", time, actor, role, table,
                  {"count": _count(count), "cents": cents, "signed_by": _signers(signers), **more})


def _next_tray_slip(conn: sqlite3.Connection, data: dict) -> None:
    data["number"] = conn.execute("SELECT IFNULL(MAX(number), 0) + 1 FROM tray_slips WHERE kind = ?",
                                  (data["kind"],)).fetchone()[0]


def tray_slip_requested(time: datetime, actor: str, role: str, table: str, kind: str, count: dict, cents: int,
                        reason: str) -> Record:
    """A fill (chips from the cage to the tray) or a credit (from the tray to the cage) requested
    at the table, numbered next of its kind inside the writer's transaction (a number is never
    used twice: a void slip keeps its own)."""
    if kind not in TRAY_SLIP_KINDS:
        raise RowError(f"a slip for the tray is a 'fill' or a 'credit', got {kind!r}")
    if isinstance(cents, bool) or not isinstance(cents, int) or cents <= 0:
        raise RowError(f"a {kind} moves some chips: its total is whole cents above 0, got {cents!r}")
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason:
        raise RowError(f"a {kind} says why it is asked for")
    return Record("tray_slip_requested", time, actor, role, table,
                  {"kind": kind, "count": _count(count), "cents": cents, "reason": reason},
                  prepare=_next_tray_slip)


def slip_approval(time: datetime, actor: str, role: str, table: str, kind: str, cents: int, reason: str,
                  rule: str) -> Record:
    """The approval request for the fill or credit requested just before it in the same append:
    it names the slip (``slip``: its kind and number), so that its decision approves or voids it."""
    def link(conn: sqlite3.Connection, data: dict) -> None:
        number = conn.execute("SELECT MAX(number) FROM tray_slips WHERE kind = ?", (kind,)).fetchone()[0]
        data["slip"] = {"kind": kind, "number": number}
    return replace(approval_requested(time, actor, role, table, kind, None, cents, None, reason, rule), prepare=link)


def tray_slip_signed(time: datetime, actor: str, role: str, table: str, kind: str, number: int, end: str,
                     signers) -> Record:
    """A fill or a credit signed at one ``end`` ('cage' or 'table') by the two it needs there
    (``signers``: their names and roles)."""
    if end not in SLIP_ENDS:
        raise RowError(f"a slip is signed at the 'cage' or the 'table', got {end!r}")
    return Record("tray_slip_signed", time, actor, role, table,
                  {"kind": kind, "number": number, "at": end, "signed_by": _signers(signers)})


def tray_slip_voided(time: datetime, actor: str, role: str, table: str, kind: str, number: int,
                     reason: str) -> Record:
    reason = reason.strip() if isinstance(reason, str) else ""
    if not reason:
        raise RowError(f"a void {kind} slip records its reason")
    return Record("tray_slip_voided", time, actor, role, table, {"kind": kind, "number": number, "reason": reason})


def buy_in(time: datetime, actor: str, role: str, table: str, seat: int | None, cents: int,
           player: str = "") -> Record:
    """Chips sold for cash at the table: they leave the tray, the cash goes to the drop box."""
    if isinstance(cents, bool) or not isinstance(cents, int) or cents <= 0:
        raise RowError(f"a buy-in is whole cents above 0, got {cents!r}")
    data = {"seat": seat, "cents": cents}
    if player and player.strip():
        data["player"] = player.strip()
    return Record("buy_in", time, actor, role, table, data)


def drop_counted(time: datetime, actor: str, role: str, table: str, opener: int, count: dict, cents: int,
                 signers, source: str = "dialog") -> Record:
    """A drop box's count for the table's shift that began with ``opener`` (its seq), by value,
    signed by two of the count team; ``source``: 'dialog' or the count room's CSV file."""
    if isinstance(cents, bool) or not isinstance(cents, int) or cents < 0:
        raise RowError(f"a drop's total is whole cents, got {cents!r}")
    return Record("drop_counted", time, actor, role, table,
                  {"opener": opener, "count": _count(count), "cents": cents, "signed_by": _signers(signers),
                   "source": source})


# -- player ratings (issue 36, docs/ratings.md) ----------------------------------------------------
# a player's card number: what the casino's player's club prints on it (letters, digits, hyphens)
CARD = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]{0,23}")
RATING_FIELDS = ("card", "name", "started", "ended")


def card_fault(card) -> str | None:
    """Why ``card`` is not a player's card number, or None."""
    if not isinstance(card, str) or not CARD.fullmatch(card):
        return (f"a player's card number is 1 to 24 letters, digits or hyphens, starting with a letter or a "
                f"digit; got {card!r}")
    return None


def _player_name(name) -> str:
    from app.engine.names import name_fault
    name = name.strip() if isinstance(name, str) else ""
    fault = name_fault(name)
    if fault:
        raise RowError(f"a player's name {fault}")
    return name


def rating_started(time: datetime, actor: str, role: str, table: str, seat: int, card: str, name: str = "",
                   bettor: str = "") -> Record:
    """A rated player sits down at ``seat`` (or bets on its circle as ``bettor``, the name the round
    file gives them, 003): their rounds there count in the rating from now."""
    fault = card_fault(card)
    if fault:
        raise RowError(fault)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= 7:
        raise RowError(f"a seat is 1 to 7, got {seat!r}")
    data = {"card": card, "seat": seat}
    if _player_name(name):
        data["name"] = _player_name(name)
    if _player_name(bettor):
        data["bettor"] = _player_name(bettor)
    return Record("rating_started", time, actor, role, table, data)


def rating_moved(time: datetime, actor: str, role: str, table: str, rating: int, seat: int) -> Record:
    """The rated player moves to ``seat`` at the same table; the rating goes on."""
    if isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= 7:
        raise RowError(f"a seat is 1 to 7, got {seat!r}")
    return Record("rating_moved", time, actor, role, table, {"rating": rating, "seat": seat})


def rating_ended(time: datetime, actor: str, role: str, table: str, rating: int) -> Record:
    """The rated player stands up: the rating counts no round after this."""
    return Record("rating_ended", time, actor, role, table, {"rating": rating})


def rating_corrected(time: datetime, actor: str, role: str, table: str, rating: int, field: str, was, now,
                     why: str) -> Record:
    """A supervisor corrects a rating's ``field`` (its card, name, start or end time) from ``was``
    to ``now``, and says why; the rating's figures follow from its rounds."""
    if field not in RATING_FIELDS:
        raise RowError(f"a rating's correction is of its {', '.join(RATING_FIELDS)}; got {field!r}")
    why = why.strip() if isinstance(why, str) else ""
    if not why:
        raise RowError(f"a correction of rating {rating} says why")
    if field == "card" and card_fault(now):
        raise RowError(card_fault(now))
    if field == "name":
        now = _player_name(now)
    return Record("rating_corrected", time, actor, role, table,
                  {"rating": rating, "field": field, "was": was, "now": now, "why": why})
