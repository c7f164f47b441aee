"""The simulated pit at its workstation: the ``Workstation`` (app/workstation) on the shift's
simulated clock, and the people who work it, each acting only while signed in with a PIN.

A workstation has one person signed in at a time (app/workstation/desks/people.py), and a pit of
thirty tables cannot have thirty dealers at one keyboard within the same minute, so the simulated
pit keeps its workstation as a desk: the floor supervisor at the desk (the pit's floor
supervisors take it in turns, an hour each) enters what happens at the tables (each procedure
event, each round, its release with its payout slips), acknowledges the alarms and decides the
requests a floor supervisor may decide; the application lets a floor supervisor do all of a
dealer's work at the table but one, and for that one a table's dealer comes to the desk and signs
in: to receive and inspect new cards (000(e)(1): the dealer inspects them, the floor person
verifies). The pit manager signs in to decide what needs a pit manager. Whoever must act next
signs in when the person at the desk is someone else, or when the idle time has signed the last
one out (its ``signed_out`` logged as the window's timer would).

The table devices speak through the workstation's own pump: a message a simulated device sends
(a shuffler's jam, a shoe's jam, a progressive controller's meter or reset) or a link that drops
and comes back is put in the workstation's inbox as the links would put it, and ``live.pump``
takes it through the device mapping, the procedures and the alarm book into the log. The links
themselves are never started.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime, timedelta

from app.devices.link import DeviceMessage, LinkState
from app.workstation.changes import Changes
from app.workstation.readouts import AlarmInfo
from app.workstation.workstation import Workstation

RELIEF = timedelta(hours=1)   # how long a floor supervisor keeps the desk before the next takes it


class SimClock:
    """The shift's simulated time: the driver sets ``t`` before each step; the workstation reads it."""

    def __init__(self, t: datetime):
        self.t = t

    def __call__(self) -> datetime:
        return self.t


class Desk:
    """The pit's workstation ``ws`` and who works it: ``supervisors`` keep the desk in turns from
    ``start``, ``pin`` is everyone's PIN."""

    def __init__(self, ws: Workstation, clock: SimClock, pin: str, supervisors: list[str], start: datetime):
        self.ws, self.clock, self.pin = ws, clock, pin
        self.supervisors, self.start = supervisors, start

    def operator(self, t: datetime) -> str:
        """The floor supervisor at the desk at ``t``."""
        return self.supervisors[int((t - self.start) / RELIEF) % len(self.supervisors)]

    def signed(self, name: str) -> Workstation:
        """The workstation with ``name`` signed in: the person at the desk if it is them, else they
        sign in (after the idle sign-out of the last one, if their time ran out)."""
        ws = self.ws
        now = self.clock()
        s = ws.people.session(now)
        if s is not None and s.name == name:
            return ws
        ws.people.expire_idle(now)
        ws.people.sign_in(name, self.pin)
        return ws

    # -- the tables --------------------------------------------------------------------------
    def record(self, name: str, table: str, type_: str, data: dict) -> Changes:
        """``name`` records a procedure event at ``table`` (docs/table-events.md)."""
        return self.signed(name).decisions.record(table, type_, data)

    def rate(self, name: str, table: str, seat: int, card: str, player: str) -> Changes:
        """``name`` rates the player with ``card`` sitting down at ``seat`` (issue 36): the
        workstation seats them and opens the rating in one append."""
        return self.signed(name).ratings.sit_down(table, seat, card, player)

    def unrate(self, name: str, table: str, seat: int) -> Changes:
        """The rated player at ``seat`` stands up: their rating ends and the seat is free (the
        second betting area of a regular who played two has no rating: it is left)."""
        ws = self.signed(name)
        rated = [r for r in ws.ratings.open_ratings(table) if r.seat == seat and not r.bettor]
        if not rated:
            return ws.decisions.record(table, "player_left", {"seat": seat})
        return ws.ratings.stand_up(rated[0].rating)

    def open_alarms(self, table: str) -> tuple[AlarmInfo, ...]:
        """The table's alarms not yet acknowledged, as the alarm list shows them."""
        return self.ws.reads.alarms(True, table)

    # -- the devices, through the workstation's pump -------------------------------------------
    def device_says(self, table: str, cls: str, message: dict) -> Changes:
        """The table's device of class ``cls`` sends ``message`` (its type and fields, as
        app/devices/messages.py decodes them); the pump takes it into the log."""
        setup = self._device(table, cls)
        msg = {**message, "device": cls}
        self.ws.events.put(DeviceMessage(setup.url, setup.serial, cls, msg, self.clock(), time.monotonic()))
        return self.pump()

    def link(self, table: str, cls: str, old: str, new: str, reason: str = "") -> Changes:
        """The link of the table's device of class ``cls`` goes from ``old`` to ``new``, as the link
        reports it; the pump takes it into the log."""
        setup = self._device(table, cls)
        self.ws.events.put(LinkState(setup.url, setup.serial, cls, old, new, reason, self.clock()))
        return self.pump()

    def pump(self) -> Changes:
        """The workstation's pump, now: what the devices queued, and the rows the workstation
        writes by itself for the floor as it stood (an irregularity's alarm, an alarm cleared)."""
        return self.ws.live.pump(self.clock())

    def _device(self, table: str, cls: str):
        return next(d for d in self.ws.setup(table).devices if d.cls == cls)

    def end(self, reason: str) -> None:
        """The last person at the desk signs out."""
        self.ws.people.sign_out(reason)


StepFn = Callable[[Desk], object]
