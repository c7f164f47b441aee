"""The pit's money as the window shows it (issue 34, docs/inventory.md): each table's tray at a
glance for the floor's tiles (``floor_trays``: a few queries for the whole floor, read with every
tile), and one table's tray in full for its table page (``tray_info``): the shift's opener, the
lines of the tray expected, the fills and credits on their way, and after the closer the closer,
the drop, the win and the difference (app/engine/inventory.py ``ShiftMoney``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from app.engine.inventory import ShiftMoney
from app.store import trays

# a slip's states while it is on its way (app/store/tray_models.py); complete and VOID are done
WAITING = ("requested", "approved", "signed at the cage", "signed at the table")


@dataclass(frozen=True)
class FloorTray:
    """One table's tray on its tile: ``expected`` while a shift is open (None: not open), and its
    fills and credits on their way (``slips``), of which ``approved`` wait for the cage or table."""
    table: str
    expected: int | None
    slips: int = 0
    approved: int = 0


@dataclass(frozen=True)
class SlipInfo:
    kind: str                  # fill or credit
    number: int
    cents: int
    chips: str                 # '20 x $25.00'
    reason: str
    status: str                # requested, approved, signed at the cage, signed at the table, complete, VOID
    requested: str             # ISO time
    request: int | None        # its approval request
    next_step: str             # what it waits for, in words ('' when complete or void)


@dataclass(frozen=True)
class TrayInfo:
    """One table's tray: the shift shown (the open one, else the last), its money, its slips."""
    table: str
    open: bool
    opener: dict | None        # the opener's ``trays`` row; None: never opened
    money: ShiftMoney | None
    slips: tuple[SlipInfo, ...]      # the shift's fills and credits, oldest first
    count_rule: str                  # the table's own citation for the counts (its profile's ``tray_count``)
    collect_rule: str                # ... for the rounds' chips into the tray (``tray_collect``)
    slip_rule: str                   # ... for a fill or a credit (``tray_slip``)
    last_closer: dict | None = None  # the table's last closer by value (cents -> chips): the next opener's count


def next_step(kind: str, status: str) -> str:
    """What a slip in ``status`` waits for: a fill is signed at the cage first, a credit at the table."""
    first, then = ("cage", "table") if kind == "fill" else ("table", "cage")
    return {"requested": "waits for a supervisor's approval",
            "approved": f"to sign at the {first}",
            f"signed at the {first}": f"to sign at the {then}"}.get(status, "")


def floor_trays(log, tables: Iterable[str]) -> dict[str, FloorTray]:
    """Every table of ``tables`` with its tray at a glance: five queries for the whole floor."""
    wanted = list(tables)
    if not wanted:
        return {}
    marks = ",".join("?" * len(wanted))
    openers = {r["table_id"]: r for r in log.query(
        f"SELECT table_id, seq, cents FROM trays WHERE kind = 'opener' AND closer IS NULL AND table_id IN ({marks}) "
        "ORDER BY seq", tuple(wanted))}
    seqs = [r["seq"] for r in openers.values()]
    sums: dict[int, dict[str, int]] = {s: {} for s in seqs}
    if seqs:
        m = ",".join("?" * len(seqs))
        for r in log.query(f"SELECT opener, kind, SUM(cents) AS c FROM tray_slips WHERE opener IN ({m}) AND "
                           "tray_moved IS NOT NULL AND status != 'VOID' GROUP BY opener, kind", tuple(seqs)):
            sums[r["opener"]][r["kind"]] = r["c"]
        for r in log.query(f"SELECT opener, SUM(cents) AS c FROM buy_ins WHERE opener IN ({m}) GROUP BY opener",
                           tuple(seqs)):
            sums[r["opener"]]["buy"] = r["c"]
        for r in log.query(f"SELECT opener, SUM(tray) AS c FROM tray_rounds WHERE opener IN ({m}) AND replaced IS "
                           "NULL GROUP BY opener", tuple(seqs)):
            sums[r["opener"]]["rounds"] = r["c"]
    waiting: dict[str, list[int]] = {}
    for r in log.query(f"SELECT table_id, status FROM tray_slips WHERE status NOT IN ('complete', 'VOID') AND "
                       f"table_id IN ({marks})", tuple(wanted)):
        n = waiting.setdefault(r["table_id"], [0, 0])
        n[0] += 1
        n[1] += r["status"] != "requested"
    out = {}
    for t in wanted:
        o = openers.get(t)
        expected = None
        if o is not None:
            s = sums[o["seq"]]
            expected = ShiftMoney(o["cents"], s.get("fill", 0), s.get("credit", 0), s.get("buy", 0), 0,
                                  s.get("rounds", 0), 0, 0, None, None).expected
        slips, approved = waiting.get(t, (0, 0))
        out[t] = FloorTray(t, expected, slips, approved)
    return out


def tray_info(log, table: str, rules, chips) -> TrayInfo:
    """``table``'s open shift (else its last) with its money and slips; ``rules`` its profile
    (whose citations are shown), ``chips`` the casino's chip set (the slips' chips in words)."""
    seq = trays.open_shift(log, table)
    is_open = seq is not None
    if seq is None:
        found = log.query("SELECT seq FROM trays WHERE table_id = ? AND kind = 'opener' ORDER BY seq DESC LIMIT 1",
                          (table,))
        seq = found[0]["seq"] if found else None
    opener = trays.opener(log, seq) if seq is not None else None
    money = trays.shift_money(log, seq) if seq is not None else None
    rows = log.query("SELECT * FROM tray_slips WHERE table_id = ? AND (opener = ? OR status NOT IN ('complete', "
                     "'VOID')) ORDER BY seq", (table, seq if seq is not None else -1))
    slips = []
    for r in rows:
        try:
            words = chips.count(trays.count_of(r)).words()
        except ValueError:           # a chip set changed since: the figures still say the amount
            words = ", ".join(f"{n} x {v}" for v, n in trays.count_of(r).items())
        slips.append(SlipInfo(r["kind"], r["number"], r["cents"], words, r["reason"] or "", r["status"],
                              r["requested"], r["request"], next_step(r["kind"], r["status"])))
    last = trays.last_closer(log, table)
    return TrayInfo(table, is_open, opener, money, tuple(slips), rules.cite("tray_count"), rules.cite("tray_collect"),
                    rules.cite("tray_slip"), trays.count_of(last) if last is not None else None)
