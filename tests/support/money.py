"""The pit's money as the tests drive it (issue 34): a table opened by the demo dealer with the
floor supervisor's counter-signature, an example round settled, a fill or credit approved, and a
whole shift with every row of the money (tests/workstation/test_inventory.py, tests/casino)."""

import json
import sqlite3
import subprocess
from pathlib import Path

from app.store import trays
from tests.support.workstation import CASHIER, COUNT_1, COUNT_2, DEALER, FLOOR, SECURITY

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "docs" / "rounds").glob("*.json"))
OPENER = "20 x $100, 40 x $25, 100 x $5, 100 x $1"      # $3,600.00


def alarms(ws, kind):
    return ws.log.query("SELECT * FROM alarms WHERE kind = ? ORDER BY seq", (kind,))


def opened(ws, table="section6", count=OPENER):
    ws.people.sign_in(*DEALER)
    ws.inventory.open_tray(table, count, signer=FLOOR)


def settle_example(ws, table="section6"):
    """The first example round of ``table``'s profile settled at it; its settlement's ledger."""
    for path in EXAMPLES:
        obj = json.loads(path.read_text())
        if obj["profile"] == table:
            ws.people.sign_in(*DEALER)
            ws.rounds.load(table, obj)
            seq = ws.rounds.settle(table).result.settlement
            body = ws.log.query("SELECT settlement FROM settlements WHERE seq = ?", (seq,))[0]["settlement"]
            return json.loads(body)["ledger"]
    raise AssertionError(f"no example round for {table}")


def approved(ws, kind="fill", count="20 x $25", reason="the $25s run low", table="section6"):
    """A fill or credit asked for by the dealer and approved by the floor supervisor; its number."""
    ws.people.sign_in(*DEALER)
    ws.inventory.request(table, kind, count, reason)
    number = ws.log.query("SELECT MAX(number) AS n FROM tray_slips WHERE kind = ?", (kind,))[0]["n"]
    ws.people.sign_in(*FLOOR)
    ws.decisions.decide(trays.slip(ws.log, kind, number)["request"], "approved")
    return number


def a_whole_shift(ws):
    """A table opened, a round settled, a buy-in, a fill through every signature, a credit voided,
    the closer and the drop: every row of the pit's money."""
    opened(ws)
    settle_example(ws)
    ws.inventory.buy_in("section6", 20_000, seat=3)
    ws.inventory.request("section6", "fill", "20 x $25", "the $25s run low")
    ws.inventory.request("section6", "credit", "5 x $100", "too many $100s")
    ws.people.sign_in(*FLOOR)
    ws.decisions.decide(trays.slip(ws.log, "fill", 1)["request"], "approved")
    ws.inventory.void("credit", 1, "the player bought them")
    ws.people.sign_in(*CASHIER)
    ws.inventory.sign("fill", 1, "cage", signers=[SECURITY])
    ws.people.sign_in(*DEALER)
    ws.inventory.sign("fill", 1, "table", signers=[FLOOR])
    expected = trays.shift_money(ws.log, trays.open_shift(ws.log, "section6")).expected
    ws.inventory.close_tray("section6", {100: expected // 100}, signer=FLOOR)
    ws.people.sign_in(*COUNT_1)
    ws.inventory.drop("section6", "2 x $100", signers=[COUNT_2])



def pdf_pages(path, pages=(1, 2)) -> list[str]:
    """The words of each page of a PDF, as pdftotext reads them (a slip's two copies)."""
    out = []
    for page in pages:
        p = subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-layout", str(path), "-"],
                           capture_output=True, text=True, timeout=120)
        assert p.returncode == 0, p.stderr
        out.append(" ".join(p.stdout.split()))
    return out


def money_rows(db) -> dict:
    """Every row of the money's read models, by table (app/store/schema.py ``TRAY_TABLES``)."""
    from app.store.schema import TRAY_TABLES
    conn = sqlite3.connect(db)
    try:
        return {t: conn.execute(f"SELECT * FROM {t} ORDER BY 1, 2").fetchall() for t in TRAY_TABLES}
    finally:
        conn.close()
