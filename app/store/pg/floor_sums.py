"""The floor's shift report read from the sums the casino's server keeps (issue 35, finding 5):
everything ``pitdesk report shift --pg`` states, read in one snapshot with the check of those
sums against what was checked before and against the events past it.

Per workstation: its hold rows (app/store/pg/floor_money.py), its tables' money
(floor_trays.py), the counted settlements by banking mode, the shift's counts and its own reports
printed (floor_counts.py), its events in the shift and its chain's head at the shift's end."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from app.engine.inventory import ShiftMoney

from . import floor_counts, floor_money, floor_trays
from .floor_money import ServerLines
from .server import NoSchema, where

COUNTS_VERSION = 10    # the migration that keeps the report's counts (app/store/pg/floor_counts.py)


@dataclass
class PitSums:
    workstation: str
    where: str                       # the server and the workstation, as a person reads it
    name: str | None                 # its name in the casino's register
    lines: ServerLines               # its hold rows over the shift
    events: int                      # its events logged in the shift
    head: tuple[int, str] | None     # its chain's head at the shift's end
    money: dict[str, ShiftMoney] = field(default_factory=dict)      # per table: its table shifts opened in the shift
    banking: dict[str, list[dict]] = field(default_factory=dict)    # per table: rounds and house net by banking mode
    counts: dict[str, dict[str, int]] = field(default_factory=dict)  # per table: floor_counts.COUNT_KEYS
    own_reports: list[dict] = field(default_factory=list)           # its own reports of the shift printed


def floor_sums(url: str, start: datetime, end: datetime, shift: str, walked: tuple = ()
               ) -> tuple[list[PitSums], tuple | None, list]:
    """Every workstation the server holds, in the order of their ids, its sums over the shift
    ``shift`` from ``start`` to ``end``; the first row where the server's read models differ from
    what was checked ((workstation, finding) or None: ``floor_money.checked``; ``walked`` the
    chain check's); and the marks to remember if none does."""
    s, e = start.isoformat(timespec="seconds"), end.isoformat(timespec="seconds")
    with floor_money.snapshot(url, "read the floor's sums") as (pg, parts):
        if not pg.execute("SELECT to_regclass('pitdesk.report_rows') IS NOT NULL").fetchone()[0]:
            raise NoSchema(f"the server at {where(parts)} keeps no report read models yet (its pitdesk schema is "
                           "older): run 'pitdesk floor migrate --pg URL' as the database's owner (docs/casino.md)")
        with floor_money.checked_beside(pg, url, walked) as check:
            lines = floor_money.read_lines(pg, parts, start, end)
            heads = floor_counts.shift_heads(pg, s, e)
            money = floor_trays.tray_money(pg, start, end)
            banking = floor_money.banking(pg, start, end)
            counts = floor_counts.shift_counts(pg, s, e)
            own = floor_counts.own_reports(pg, shift, f"{start:%Y-%m-%d}")
        difference, marks = check.result()
    pits = [PitSums(ws, place, name, ln, *heads.get(ws, (0, None)), money.get(ws, {}), banking.get(ws, {}),
                    counts.get(ws, {}), own.get(ws, [])) for ws, place, ln, name in lines]
    return pits, difference, marks
