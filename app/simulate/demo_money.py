"""The demo floor's money (issue 34, docs/inventory.md): what the people around a demo table do
with its tray, on the dealers' thread (app/simulate/table_play.py), through the inventory desk as
the window does.

- The tray opens before the table's first round: the demo dealer counts it at the table's station
  and the floor supervisor counter-signs; the first time a believable opener of the casino's chips
  (app/simulate/tray_play.py), afterwards the last closer carried over exactly.
- Players buy chips with cash as they sit down and now and then again ($100 to $1,000), recorded
  by the dealer.
- The tray follows the figure the rounds expect (``inventory.money``): below its low-water mark
  the dealer asks for a fill of small chips, above its high-water mark for a credit of large ones
  (``Pace.tray_marks``: the demo's, 8 and 12 tenths of the opener, make a few an hour across the
  floor). The request waits in the approvals
  queue for the person at the window: the demo never approves (nor denies) its own. Once
  approved, the cage (demo-cashier at the cage, demo-security counter-signing) signs it a minute
  or two later, and the dealer with the floor supervisor's counter-signature signs it at the
  table: a fill leaves the cage first, a credit the table.
- At the end of the configured shift (app/workstation/shifts.py) the closer is counted as the tray
  expected (by value, in the opener's mix) and the next opener is that closer. A few minutes
  later the count room (demo-count-1, demo-count-2 counter-signing) counts the drop box: the
  notes of the buy-ins' cash (``[chips] currency``). The win by count is the rounds' win to the
  cent.

A slip asked for in a shift that closed before it was delivered is voided by the floor supervisor
at the station, saying so (its number is never used again). Everything is read from the log each
time (the open shift, the pending slip, the drops not yet counted), so a restarted demo carries on
where the last left it.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from datetime import datetime

from app.store import trays

from .tray_play import buy_in_cents, credit_for, fill_for, like, notes_for, opener_count

REBUY = 0.05            # a round's chance that a seated player buys in again
CAGE_SECONDS = (60, 120)    # from the approval to the cage's signatures (at 30 rounds an hour)
TABLE_SECONDS = (45, 90)    # from the first end's signatures to the other's
DROP_SECONDS = (120, 300)   # from the closer to the count room's count


class DemoTray:
    """The money of one demo table (its ``Dealer``): ``ready`` with the stations, then
    ``between_rounds`` and ``buy_in`` from the dealer's play."""

    def __init__(self, dealer, rng: random.Random):
        self.d = dealer
        self.rng = rng
        self.cashier = self.counter = None
        self.pins: dict[str, str] = {}
        self.delays: dict[tuple, float] = {}

    def ready(self, cashier, counter, pins: dict[str, str]) -> None:
        """The cashier's and the count team's stations, and the PINs the others counter-sign with."""
        self.cashier, self.counter, self.pins = cashier, counter, pins

    @property
    def ws(self):
        return self.d.ws

    @property
    def table(self) -> str:
        return self.d.table

    def _sign(self, name: str) -> tuple[str, str]:
        return name, self.pins[name]

    def _delay(self, key: tuple, span: tuple[int, int]) -> float:
        if key not in self.delays:
            self.delays[key] = self.rng.uniform(*span) * self.d.pace.scale
        return self.delays[key]

    @staticmethod
    def _since(now: datetime, when: str | None) -> float:
        return (now - datetime.fromisoformat(when)).total_seconds() if when else 0.0

    # -- between rounds ---------------------------------------------------------------------------
    def between_rounds(self) -> Iterator[float]:
        if self.cashier is None:
            return
        now = self.ws.clock()
        with self.ws.reading():
            seq = trays.open_shift(self.ws.log, self.table)
            o = trays.opener(self.ws.log, seq) if seq is not None else None
        if o is None:
            yield from self.open_tray()
            return
        if self.ws.shifts.shift_of(datetime.fromisoformat(o["time"])).label != self.ws.shifts.shift_of(now).label:
            yield from self.end_of_shift(o)
            return
        yield from self.slips(o, now)
        yield from self.drops(now)
        seated = self.d.state().seated
        if seated and self.rng.random() < REBUY:
            yield from self.buy_in(self.rng.choice(seated))
        yield from self.water_marks(o)

    def open_tray(self) -> Iterator[float]:
        """The opener: the last closer carried over exactly, or a believable first one."""
        with self.ws.reading():
            last = trays.last_closer(self.ws.log, self.table)
        chips = self.ws.config.chips
        count = trays.count_of(last) if last is not None else opener_count(chips, self.rng).by_value()
        yield self.d.wait(5, 15)
        self.d.act(lambda ws: ws.inventory.open_tray(self.table, count, signer=self._sign(self.d.floor.name)))

    def end_of_shift(self, o: dict) -> Iterator[float]:
        """The shift's end: a slip on its way delivered first, the closer counted as expected, the
        next opener the closer."""
        with self.ws.reading():
            moving = [p for p in trays.pending_slips(self.ws.log) if p["opener"] == o["seq"]
                      and p["status"] in ("signed at the cage", "signed at the table")]
        for p in moving:
            yield self.d.wait(5, 10)
            self._sign_slip(p, "table" if p["status"] == "signed at the cage" else "cage")
        _, money = self.ws.inventory.money(self.table)
        mix = self.ws.config.chips.count(trays.count_of(o))
        closer = like(mix, money.expected)
        yield self.d.wait(10, 30)
        self.d.act(lambda ws: ws.inventory.close_tray(self.table, closer.by_value(),
                                                      signer=self._sign(self.d.floor.name)))
        yield from self.open_tray()

    # -- fills and credits ------------------------------------------------------------------------
    def water_marks(self, o: dict) -> Iterator[float]:
        with self.ws.reading():
            if any(p["table_id"] == self.table for p in trays.pending_slips(self.ws.log)):
                return     # one slip at a time: the next once this one is delivered or void
        _, money = self.ws.inventory.money(self.table)
        chips, (low, high) = self.ws.config.chips, self.d.pace.tray_marks
        for kind, count in (("fill", fill_for(chips, money.opener, money.expected, low)),
                            ("credit", credit_for(chips, money.opener, money.expected, high))):
            if count is not None:
                reason = ("the tray runs low: small chips for the action" if kind == "fill"
                          else "the tray holds too many large chips: back to the cage")
                yield self.d.wait(5, 15)
                self.d.act(lambda ws, k=kind, c=count, r=reason: ws.inventory.request(self.table, k, c.by_value(), r))
                return

    def slips(self, o: dict, now: datetime) -> Iterator[float]:
        """The table's slips on their way: signed at the cage and the table in their order and at a
        believable pace once a person approved them; one of a closed shift voided."""
        with self.ws.reading():
            pending = [p for p in trays.pending_slips(self.ws.log) if p["table_id"] == self.table]
        for p in pending:
            key = (p["kind"], p["number"])
            if p["opener"] != o["seq"]:
                if not p["tray_moved"]:
                    yield self.d.wait(2, 5)
                    self.d.act(lambda ws: ws.inventory.void(p["kind"], p["number"],
                                                            "the table's shift closed before it was delivered"),
                               self.d.floor)
                continue
            first, second = ("cage", "table") if p["kind"] == "fill" else ("table", "cage")
            if p["status"] == "approved" and self._since(now, p["approved"]) >= self._delay(key, CAGE_SECONDS):
                yield self.d.wait(2, 5)
                self._sign_slip(p, first)
            elif p["status"] == f"signed at the {first}" and \
                    self._since(now, p[f"{first}_signed"]) >= self._delay(key + (1,), TABLE_SECONDS):
                yield self.d.wait(2, 5)
                self._sign_slip(p, second)

    def _sign_slip(self, p: dict, at: str) -> None:
        if at == "cage":
            self.d.act(lambda ws: ws.inventory.sign(p["kind"], p["number"], "cage",
                                                    signers=[self._sign("demo-security")]), self.cashier)
        else:
            self.d.act(lambda ws: ws.inventory.sign(p["kind"], p["number"], "table",
                                                    signers=[self._sign(self.d.floor.name)]))

    # -- buy-ins and drops --------------------------------------------------------------------------
    def buy_in(self, seat: int) -> Iterator[float]:
        if self.cashier is None:
            return
        with self.ws.reading():
            if trays.open_shift(self.ws.log, self.table) is None:
                return
        cents = buy_in_cents(self.rng)
        player = self.d.players[seat].player if seat in self.d.players else ""
        yield self.d.wait(2, 6)
        self.d.act(lambda ws: ws.inventory.buy_in(self.table, cents, seat, player))

    def drops(self, now: datetime) -> Iterator[float]:
        """The count room's count of each closed shift's drop box not yet counted, a few minutes
        after its closer: the buy-ins' cash in notes."""
        with self.ws.reading():
            due = self.ws.log.query(
                "SELECT o.seq, c.time FROM trays o JOIN trays c ON c.seq = o.closer WHERE o.table_id = ? AND "
                "o.kind = 'opener' AND NOT EXISTS (SELECT 1 FROM drops d WHERE d.opener = o.seq)", (self.table,))
        for row in due:
            if self._since(now, row["time"]) < self._delay(("drop", row["seq"]), DROP_SECONDS):
                continue
            with self.ws.reading():
                cash = trays.shift_money(self.ws.log, row["seq"]).buy_ins
            notes = notes_for(self.ws.config.currency, cash)
            yield self.d.wait(2, 5)
            self.d.act(lambda ws, s=row["seq"], n=notes: ws.inventory.drop(
                self.table, n.by_value(), signers=[self._sign("demo-count-2")], opener=s, source="dialog"),
                self.counter)
