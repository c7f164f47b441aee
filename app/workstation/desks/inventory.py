"""The inventory desk: the pit's money at each table (issue 34, docs/inventory.md).

A table's shift opens with its opener and ends with its closer, each counted by the dealer and
signed by the dealer and a supervisor (two PINs: the signed-in person and a counter-signature,
issue 27). Between them: fills and credits, each a numbered slip requested at the table, approved
by a supervisor (the approvals queue: its decision approves it, or voids it), signed at the cage
by a cashier and security and at the table by the dealer and a supervisor; cash buy-ins the dealer
records as chips leave the tray. After the closer the drop box's count, signed by two of the count
team, states the table's win.

The rule texts are silent on all of it (each table cites its own ``tray_count`` and ``tray_slip``:
"... has no paragraph on this: the house's procedure"); what they say is where the rounds' chips go
(000(l)(6), 000(m)(7),(13),(14), 000(l)(11); 001 11.9(g),(l), 11.10(g),(m),(n)), which
app/engine/inventory.py reconciles with the counts.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

from app.engine.chips import ChipCount, ChipError, ChipSet
from app.engine.inventory import CREDIT, FILL, SLIP_KINDS, ShiftMoney, difference_words, tray_words
from app.engine.money import dollars
from app.engine.roles import (AT_THE_TABLE, CASHIER, DROP_COUNT, SECURITY, SUPERVISORS, TRAY_COUNT, a_or_an,
                              roles_text)
from app.store import rows, trays

from ..changes import Changes, changes
from ..errors import FieldsRefused, NotPermitted, Refused
from ..signed_in import SignedIn

Signer = tuple[str, str]            # a name and the PIN typed with it
Count = str | Mapping[int, int]     # a count as typed ("20 x $25, 40 x $5") or by value (cents -> chips)

# who signs where: the two at the table (the dealer and a supervisor) and the two at the cage
AT_TABLE_SIGNERS = (TRAY_COUNT, SUPERVISORS)
AT_CAGE_SIGNERS = ((CASHIER,), (SECURITY,))
COUNT_SIGNERS = (DROP_COUNT, DROP_COUNT)


class Inventory:
    def __init__(self, ws):
        self.ws = ws

    # -- counts and signatures --------------------------------------------------------------------
    def _count(self, count: Count, chips: ChipSet | None = None) -> ChipCount:
        chips = chips or self.ws.config.chips
        try:
            return chips.parse(count) if isinstance(count, str) else chips.count(dict(count))
        except ChipError as e:
            if chips is self.ws.config.currency:    # the drop box's notes, not the tray's chips
                raise Refused(str(e).replace("chip in this casino's set", "note in [chips] currency")
                              .replace(" chips:", " notes:")) from None
            raise Refused(str(e)) from None

    def _signatures(self, s: SignedIn, signers: list[Signer] | tuple[Signer, ...] | None,
                    needs: tuple[tuple[str, ...], ...], what: str) -> list[tuple[str, str]]:
        """The (name, role) of the different people who sign ``what``, one for each of ``needs``
        (the roles each may have), from the signed-in person and those who typed their name and
        PIN (``signers``: each checked as a sign-in checks it). ``NotPermitted`` naming who is
        missing."""
        people = [(s.name, s.role)]
        for name, pin in signers or ():
            if name == s.name:
                continue
            second = self.ws.people.confirm(name, pin)
            if (second.name, second.role) not in people:
                people.append((second.name, second.role))
        chosen: list[tuple[str, str]] = []

        def fit(i: int) -> bool:   # each need its own person (a handful of people: a plain search)
            if i == len(needs):
                return True
            for p in people:
                if p not in chosen and p[1] in needs[i]:
                    chosen.append(p)
                    if fit(i + 1):
                        return True
                    chosen.pop()
            return False

        if not fit(0):
            have = "; ".join(f"{n} is {a_or_an(r)}" for n, r in people)
            wanted = " and ".join(roles_text(n) for n in needs)
            raise NotPermitted(f"to {what} takes two people, {wanted}: {have}; the other signs with their name "
                               "and PIN")
        return chosen

    def _open(self, table: str) -> dict:
        seq = trays.open_shift(self.ws.log, table)
        if seq is None:
            last = trays.last_closer(self.ws.log, table)
            raise Refused(f"table {table} is not open: its opener is counted first"
                          + (f" (closed {last['time'][:16].replace('T', ' ')})" if last else ""))
        return trays.opener(self.ws.log, seq)

    def _shift_words(self, when: str) -> str:
        return self.ws.shifts.shift_of(datetime.fromisoformat(when)).label

    # -- opener and closer --------------------------------------------------------------------------
    def open_tray(self, table: str, count: Count | None = None, signer: Signer | None = None,
                  signers: list[Signer] | None = None) -> Changes:
        """The table's opener: the tray counted by the dealer and signed by the dealer and a
        supervisor (one signed in, the other's name and PIN); no count given: the last closer
        carried over as it was counted. A count that differs from the last closer is logged as
        counted, with an alarm naming both counts and the values that differ. ``Refused``: the
        table already open, a bad count, no count and no closer to carry over."""
        with self.ws.lock:
            s, now = self.ws.require(TRAY_COUNT, "count an opener")
            self.ws.check_table(table)
            if count is None or (isinstance(count, str) and not count.strip()):
                last = trays.last_closer(self.ws.log, table)
                if last is None:
                    raise Refused(f"table {table} has no closer to carry over: count its first opener")
                count = trays.count_of(last)
            c = self._count(count)
            if trays.open_shift(self.ws.log, table) is not None:
                o = self._open(table)
                raise Refused(f"table {table} is open since {o['time'][11:16]} (opener {dollars(o['cents'])}): "
                              "its closer is counted before another opener")
            signed = self._signatures(s, _all(signer, signers), AT_TABLE_SIGNERS, "sign an opener")
            _, rules = self.ws.state_of(table)
            last = trays.last_closer(self.ws.log, table)
            more = {}
            records = []
            if last is not None:
                more = {"last_closer": last["seq"], "last_closer_cents": last["cents"]}
                was = self.ws.config.chips.count(trays.count_of(last))
                diff = c.differences(was)
                if diff:
                    by = ", ".join(f"{n:+d} x {dollars(v)}" for v, n in sorted(diff.items(), reverse=True))
                    records.append(rows.alarm_raised(
                        now, table, "opener_differs",
                        f"table {table}: the opener {dollars(c.cents)} ({c.words()}) differs from the last closer "
                        f"{dollars(last['cents'])} ({was.words()}, {last['time'][:16].replace('T', ' ')}): {by}",
                        rules.cite("tray_count")))
            records.insert(0, rows.tray_counted(now, s.name, s.role, table, "opener", c.by_value(), c.cents, signed,
                                                **more))
            return self.ws.write(records) | changes(tables=[table])

    def close_tray(self, table: str, count: Count, signer: Signer | None = None,
                   signers: list[Signer] | None = None) -> Changes:
        """The table's closer, counted and signed as the opener is; it ends the table's shift. The
        tray the rounds expect is logged with it, and a difference over the configured threshold
        (``[chips] difference_alarm_cents``) is an alarm naming the table, the shift, the amount
        and the chips that make it. ``Refused``: the table not open, a pending fill or credit,
        a bad count."""
        with self.ws.lock:
            s, now = self.ws.require(TRAY_COUNT, "count a closer")
            self.ws.check_table(table)
            c = self._count(count)
            o = self._open(table)
            moving = [p for p in trays.pending_slips(self.ws.log) if p["opener"] == o["seq"]
                      and p["status"] in ("signed at the cage", "signed at the table")]
            if moving:
                raise Refused(f"table {table}: {_slip_name(moving[0])} is on its way ({moving[0]['status']}): it is "
                              "delivered or voided before the closer")
            signed = self._signatures(s, _all(signer, signers), AT_TABLE_SIGNERS, "sign a closer")
            money = trays.shift_money(self.ws.log, o["seq"])
            _, rules = self.ws.state_of(table)
            records = [rows.tray_counted(now, s.name, s.role, table, "closer", c.by_value(), c.cents, signed,
                                         opener=o["seq"], expected=money.expected)]
            closed = ShiftMoney(money.opener, money.fills, money.credits, money.buy_ins, money.rounds,
                                money.rounds_tray, money.rounds_house_net, money.to_meter, c.cents, None)
            if abs(closed.tray_difference or 0) > self.ws.config.difference_alarm_cents:
                records.append(rows.alarm_raised(now, table, "tray_difference",
                                                 tray_words(table, self._shift_words(o["time"]), closed,
                                                            self.ws.config.chips),
                                                 rules.cite("tray_count"), cents=closed.tray_difference))
            return self.ws.write(records) | changes(tables=[table])

    # -- fills and credits ----------------------------------------------------------------------------
    def request(self, table: str, kind: str, count: Count, reason: str) -> Changes:
        """A fill or a credit asked for at the table, by value, saying why: a numbered slip and a
        request in the approvals queue for a supervisor. ``Refused``: the table not open, no
        reason, no chips."""
        with self.ws.lock:
            if kind not in SLIP_KINDS:
                raise Refused(f"a slip for the tray is a fill or a credit, got {kind!r}")
            s, now = self.ws.require(AT_THE_TABLE, f"ask for a {kind}")
            self.ws.check_table(table)
            c = self._count(count)
            self._open(table)
            if not c.cents:
                raise Refused(f"a {kind} moves some chips: give their values, as '20 x $25'")
            if not (reason or "").strip():
                raise Refused(f"a {kind} says why it is asked for (the tray runs low, the tray holds too much)")
            _, rules = self.ws.state_of(table)
            try:
                records = [rows.tray_slip_requested(now, s.name, s.role, table, kind, c.by_value(), c.cents, reason),
                           rows.slip_approval(now, s.name, s.role, table, kind, c.cents,
                                              f"{kind} of {dollars(c.cents)} ({c.words()}): {reason.strip()}",
                                              rules.cite("tray_slip"))]
            except rows.RowError as e:
                raise Refused(str(e)) from None
            changed = self.ws.write(records)
            return changed | changes(tables=[table])

    def _slip(self, kind: str, number: int) -> dict:
        if kind not in SLIP_KINDS:
            raise Refused(f"a slip for the tray is a fill or a credit, got {kind!r}")
        found = trays.slip(self.ws.log, kind, number)
        if found is None:
            raise Refused(f"no {kind} slip {number}")
        if found["status"] == "VOID":
            raise Refused(f"{_slip_name(found)} is VOID ({found['void_reason']}): a void slip is never used again; "
                          f"ask for a new {kind}")
        return found

    def sign(self, kind: str, number: int, at: str, signers: list[Signer] | None = None) -> Changes:
        """A fill or a credit signed at the ``cage`` (a cashier and security) or at the ``table``
        (the dealer and a supervisor), in its order: a fill leaves the cage before it reaches the
        table, a credit leaves the table before the cage takes it. The tray moves at the table's
        signatures. ``Refused``: not yet approved, signed out of order, signed there already, void."""
        with self.ws.lock:
            if at not in rows.SLIP_ENDS:
                raise Refused(f"a slip is signed at the cage or the table, got {at!r}")
            needs = AT_CAGE_SIGNERS if at == "cage" else AT_TABLE_SIGNERS
            s, now = self.ws.require(needs[0] + needs[1], f"sign a {kind} at the {at}")
            slip = self._slip(kind, number)
            first = "cage" if kind == FILL else "table"
            want = "approved" if at == first else f"signed at the {first}"
            if slip[f"{at}_signed"]:
                raise Refused(f"{_slip_name(slip)} was signed at the {at} at {slip[f'{at}_signed'][11:16]} by "
                              + " and ".join(n for n, _ in trays.signers_of(slip[f'{at}_signers'])))
            if slip["status"] != want:
                why = ("it waits for a supervisor's approval" if slip["status"] == "requested"
                       else f"it is signed at the {first} first")
                raise Refused(f"{_slip_name(slip)} cannot be signed at the {at}: {why}")
            if slip["opener"] is not None and slip["opener"] != trays.open_shift(self.ws.log, slip["table_id"]):
                raise Refused(f"{_slip_name(slip)} was asked for in a shift of table {slip['table_id']} that is "
                              "closed: void it and ask for a new one")
            signed = self._signatures(s, signers, needs, f"sign a {kind} at the {at}")
            return (self.ws.write([rows.tray_slip_signed(now, s.name, s.role, slip["table_id"], kind, number, at,
                                                         signed)])
                    | changes(tables=[slip["table_id"]]))

    def void(self, kind: str, number: int, reason: str, signer: Signer | None = None) -> Changes:
        """A supervisor voids a fill or a credit before its chips reach (or leave) the tray,
        saying why; its number is never used again, and its pending request is denied with it."""
        with self.ws.lock:
            s, now = self.ws.require(SUPERVISORS, f"void a {kind} slip")
            self.ws.people.countersigner(s, signer, SUPERVISORS, f"void a {kind} slip")
            slip = self._slip(kind, number)
            if slip["tray_moved"]:
                raise Refused(f"{_slip_name(slip)}'s chips {'reached' if kind == FILL else 'left'} the tray at "
                              f"{slip['tray_moved'][11:16]}: it is not voided; a {CREDIT if kind == FILL else FILL} "
                              "returns them")
            if not (reason or "").strip():
                raise Refused(f"a void {kind} slip records its reason")
            records = [rows.tray_slip_voided(now, s.name, s.role, slip["table_id"], kind, number, reason)]
            if slip["status"] == "requested" and slip["request"]:
                records.append(rows.approval_decided(now, s.name, s.role, slip["table_id"], slip["request"], "denied",
                                                     f"the {kind} slip was voided: {reason.strip()}"))
            return self.ws.write(records) | changes(tables=[slip["table_id"]])

    # -- buy-ins and the drop -----------------------------------------------------------------------
    def buy_in(self, table: str, cents: int, seat: int | None = None, player: str = "") -> Changes:
        """Chips sold for cash at the table: they leave the tray, the cash goes in the drop box."""
        with self.ws.lock:
            s, now = self.ws.require(AT_THE_TABLE, "record a buy-in")
            self.ws.check_table(table)
            self._open(table)
            if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 1 <= seat <= 7):
                raise Refused(f"a seat is 1 to 7, got {seat!r}")
            try:
                return self.ws.write([rows.buy_in(now, s.name, s.role, table, seat, cents, player)]) | \
                    changes(tables=[table])
            except rows.RowError as e:
                raise Refused(str(e)) from None

    def drop(self, table: str, count: Count, signers: list[Signer] | None = None, opener: int | None = None,
             source: str = "dialog") -> Changes:
        """The drop box's count for the table's last closed shift (or the shift of ``opener``), by
        the notes it held, signed by two of the count team. It completes the win; a win by count
        that differs from the rounds' by more than the threshold is an alarm naming the table, the
        shift, the amount and where it is. ``Refused``: no closed shift, a drop counted already."""
        with self.ws.lock:
            s, now = self.ws.require(DROP_COUNT, "count a drop box")
            self.ws.check_table(table)
            c = self._count(count, self.ws.config.currency)
            o = self._drop_shift(table, opener)
            signed = self._signatures(s, signers, COUNT_SIGNERS, "sign a drop box's count")
            money = trays.shift_money(self.ws.log, o["seq"])
            counted = ShiftMoney(money.opener, money.fills, money.credits, money.buy_ins, money.rounds,
                                 money.rounds_tray, money.rounds_house_net, money.to_meter, money.closer, c.cents)
            _, rules = self.ws.state_of(table)
            records = [rows.drop_counted(now, s.name, s.role, table, o["seq"], c.by_value(), c.cents, signed, source)]
            if abs(counted.difference or 0) > self.ws.config.difference_alarm_cents:
                records.append(rows.alarm_raised(now, table, "win_difference",
                                                 difference_words(table, self._shift_words(o["time"]), counted,
                                                                  self.ws.config.chips),
                                                 rules.cite("tray_count"), cents=counted.difference))
            return self.ws.write(records) | changes(tables=[table])

    def drops(self, counts: list[tuple[str, Count]], signers: list[Signer] | None = None,
              source: str = "dialog") -> Changes:
        """Several tables' drop boxes counted at once (the count room's file): each table's last
        closed shift, checked as ``drop`` checks it, all written in one append or none
        (``Refused`` naming the table of the first fault)."""
        with self.ws.lock:
            s, now = self.ws.require(DROP_COUNT, "count a drop box")
            signed = self._signatures(s, signers, COUNT_SIGNERS, "sign a drop box's count")
            records, tables = [], []
            for table, count in counts:
                self.ws.check_table(table)
                if table in tables:
                    raise Refused(f"table {table}'s drop box is counted twice in one count")
                tables.append(table)
                try:
                    c = self._count(count, self.ws.config.currency)
                    o = self._drop_shift(table, None)
                except Refused as e:    # ``fields``: the table, for the file's line that names it
                    raise FieldsRefused(f"table {table}: {e}", {table: str(e)}) from None
                money = trays.shift_money(self.ws.log, o["seq"])
                counted = ShiftMoney(money.opener, money.fills, money.credits, money.buy_ins, money.rounds,
                                     money.rounds_tray, money.rounds_house_net, money.to_meter, money.closer, c.cents)
                _, rules = self.ws.state_of(table)
                records.append(rows.drop_counted(now, s.name, s.role, table, o["seq"], c.by_value(), c.cents, signed,
                                                 source))
                if abs(counted.difference or 0) > self.ws.config.difference_alarm_cents:
                    records.append(rows.alarm_raised(now, table, "win_difference",
                                                     difference_words(table, self._shift_words(o["time"]), counted,
                                                                      self.ws.config.chips),
                                                     rules.cite("tray_count"), cents=counted.difference))
            if not records:
                raise Refused("a count room's count names at least one table")
            return self.ws.write(records) | changes(tables=tables)

    def _drop_shift(self, table: str, opener: int | None) -> dict:
        if opener is not None:
            o = trays.opener(self.ws.log, opener)
            if o is None or o["table_id"] != table:
                raise Refused(f"no shift of table {table} opened by row {opener}")
        else:
            found = self.ws.log.query("SELECT seq FROM trays WHERE table_id = ? AND kind = 'opener' AND closer IS NOT "
                                      "NULL ORDER BY seq DESC LIMIT 1", (table,))
            if not found:
                raise Refused(f"table {table} has no closed shift: a drop box is counted after the closer")
            o = trays.opener(self.ws.log, found[0]["seq"])
        if o["closer"] is None:
            raise Refused(f"table {table}'s shift from {o['time'][11:16]} is still open: its drop is counted after "
                          "the closer")
        d = trays.drop_of(self.ws.log, o["seq"])
        if d is not None:
            raise Refused(f"table {table}'s drop for the shift opened {o['time'][:16].replace('T', ' ')} was counted "
                          f"at {d['time'][11:16]} ({dollars(d['cents'])}): a drop box is counted once")
        return o

    # -- what the views and reports read ----------------------------------------------------------
    def money(self, table: str) -> tuple[dict | None, ShiftMoney | None]:
        """The table's open shift (its opener row) and its money so far; else its last shift."""
        with self.ws.reading():
            seq = trays.open_shift(self.ws.log, table)
            if seq is None:
                found = self.ws.log.query("SELECT seq FROM trays WHERE table_id = ? AND kind = 'opener' "
                                          "ORDER BY seq DESC LIMIT 1", (table,))
                if not found:
                    return None, None
                seq = found[0]["seq"]
            return trays.opener(self.ws.log, seq), trays.shift_money(self.ws.log, seq)

    def pending(self) -> list[dict]:
        """The fills and credits not yet complete nor void, oldest first."""
        with self.ws.reading():
            return trays.pending_slips(self.ws.log)


def _all(signer: Signer | None, signers: list[Signer] | None) -> list[Signer]:
    return ([signer] if signer else []) + list(signers or [])


def _slip_name(slip: dict) -> str:
    return f"{slip['kind']} slip {slip['number']} ({dollars(slip['cents'])}, table {slip['table_id']})"

