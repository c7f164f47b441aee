"""The background shipper (issue 28, docs/casino.md "Shipping in the background"): with
``[shipping]`` in the configuration, the workstation's log is shipped to the casino's server on a
thread of its own, every ``every_seconds``, by the code of ``pitdesk ship``
(app/store/pg/shipping.py). Nothing waits on it: the log is written as ever; shipping lags and
catches up.

``state`` (a ``ShippingState``, read on any thread) says the last row the server holds, the
lag in rows and in seconds (the age of the oldest row it lacks), and the last fault. The pump
(app/workstation/desks/live.py) asks ``alarm_rows`` for the alarms it raises by itself:
``shipping_lag`` past the configured lag, cleared by itself once shipping catches up, and
``shipping_refused`` when the server refused a row (a rewritten log: the server's copy is never
overwritten); after a refusal nothing more is shipped until the
workstation starts again."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path

from app.store import rows
from app.store.log import Record

from .config import ShippingSetup

LAG, REFUSED = "shipping_lag", "shipping_refused"


@dataclass(frozen=True)
class ShippingState:
    to: str                          # the server, without a password
    shipped: int = 0                 # the last row the server holds (its head), as last heard
    local: int = 0                   # the log's last row, as last read
    lag_events: int = 0              # rows the server lacks
    lag_seconds: float = 0.0         # the age of the oldest row it lacks
    error: str = ""                  # the last run's fault, in full; "" when it went through
    short: str = ""                  # the same in a few words, for the status bar
    refused: str = ""                # why the server refused (shipping stopped), "" if it did not
    name: str = ""                   # the pit's name in the casino's register ("" not yet heard, or none)
    runs: int = 0                    # runs done (tests wait on it)
    at: datetime | None = None       # when the last run ended

    @property
    def heard(self) -> bool:
        return self.runs > 0


class _Stopping(Exception):
    """The workstation closes: the run ends after the batch it committed."""


class Shipper:
    """Ships the log at ``db`` as ``setup`` says, on its own thread between ``start`` and ``stop``."""

    def __init__(self, setup: ShippingSetup, db: Path, clock: Callable[[], datetime] = datetime.now):
        from app.store.pg.server import redact
        self.setup, self.db, self.clock = setup, Path(db), clock
        self.state = ShippingState(redact(setup.to))
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._alarmed_refusal = ""

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="pitdesk shipper", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Ends the thread (a run under way ends after its batch); waits for it."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join()

    def _run(self) -> None:
        while not self._stop.is_set():
            self.run_once()
            if self.state.refused:
                return      # nothing more is shipped: the alarm asks a person to look
            self._stop.wait(self.setup.every_seconds)

    def run_once(self) -> ShippingState:
        """One run: ship what the server lacks, then read the backlog."""
        from app.store.pg import server, shipping
        s = self.state
        error = short = refused = ""
        try:
            out = shipping.ship(self.db, self.setup.to, after_batch=self._batch_done)
            s = replace(s, shipped=out.server_head[0], name=out.name or s.name)
            if out.refused:
                refused = f"row {out.refused['seq']}: {out.refused['reason']}"
        except _Stopping:
            pass
        except shipping.Interrupted as e:
            s = replace(s, shipped=e.shipped.server_head[0] or s.shipped)
            error, short = str(e), "server went away"
        except server.Unreachable as e:
            error, short = str(e), "server unreachable"
        except server.NoSchema as e:
            error, short = str(e), "no pitdesk schema on the server"
        except shipping.LocalBehind as e:
            s = replace(s, shipped=e.server_head[0])
            refused = str(e)
        except (server.Refused, server.BadUrl) as e:
            error, short = str(e), "refused by the server"
        except Exception as e:          # the local log unreadable, or the like: said, tried again
            error, short = f"{type(e).__name__}: {e}", "failed"
        try:
            local, oldest = shipping.backlog(self.db, s.shipped)
        except Exception as e:
            local, oldest = s.local, None
            error, short = error or f"the log could not be read: {e}", short or "log unreadable"
        now = self.clock()
        lag_s = max(0.0, (now - datetime.fromisoformat(oldest)).total_seconds()) if oldest else 0.0
        self.state = replace(s, local=local, lag_events=max(0, local - s.shipped), lag_seconds=lag_s,
                             error=error, short=short, refused=refused, runs=s.runs + 1, at=now)
        return self.state

    def _batch_done(self, out) -> None:
        self.state = replace(self.state, shipped=out.server_head[0])
        if self._stop.is_set():
            raise _Stopping

    # -- the alarms the pump writes ------------------------------------------------------------
    def over(self, s: ShippingState) -> str:
        """Why the lag is past the configured one ("" if it is not)."""
        limit_e, limit_s = self.setup.alarm_lag_events, self.setup.alarm_lag_seconds
        if limit_e is not None and s.lag_events > limit_e:
            return f"{s.lag_events:,} rows (more than {limit_e:,})"
        if limit_s is not None and s.lag_seconds > limit_s:
            return f"{s.lag_seconds:,.0f} s behind (more than {limit_s:g} s)"
        return ""

    def alarm_rows(self, now: datetime, book) -> list[Record]:
        """The lag alarm raised or cleared and a refusal's alarm, as the state stands;
        ``book`` the workstation's AlarmBook (what is open)."""
        s = self.state
        if not s.heard:
            return []
        out = []
        lagging = [a for a in book.alarms.values() if a.kind == LAG and not a.cleared]
        why = self.over(s)
        if why and not lagging:
            fault = f"; {s.short}" if s.short else ""
            out.append(rows.alarm_raised(
                now, None, LAG, f"the log's copy at the casino's server {s.to} lags {why}: it holds row "
                f"{s.shipped:,} of {s.local:,}{fault}", shipped=s.shipped, local=s.local))
        elif not why and not s.error:
            for a in lagging:
                a.cleared = True   # written with this batch (the book loads again if the append fails)
                out.append(rows.alarm_cleared(now, None, a.id, LAG, f"shipping caught up: the server holds row "
                                              f"{s.shipped:,} of {s.local:,}"))
        if s.refused and s.refused != self._alarmed_refusal:
            self._alarmed_refusal = s.refused
            out.append(rows.alarm_raised(
                now, None, REFUSED, f"the casino's server {s.to} refused this log's rows ({s.refused}); nothing more "
                "is shipped: the log was rewritten, or the server's copy differs (pitdesk audit verify, pitdesk "
                "floor verify)", shipped=s.shipped))
        return out
