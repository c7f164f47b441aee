"""``pitdesk inventory fill|credit --number N --pdf FILE`` (issue 34): the slip on paper from the
command line, the real ``pitdesk`` on a real SQLite file: both copies with the table's own citation
at the foot and who signed, read back by pdftotext; a copy needs nobody signed in and writes nothing
to the log; each bad argument refused naming it, with no file left."""


from app.store.log import AuditLog
from app.workstation import config
from app.workstation.workstation import Workstation
from tests.cli.test_inventory_cli import OPENER, floor, ok, pitdesk, refused  # noqa: F401  (the fixture)
from tests.support.workstation import CASHIER, DEALER, FLOOR, SECURITY
from tests.support.money import pdf_pages


def rows(db) -> int:
    with AuditLog(db) as log:
        return log.query("SELECT COUNT(*) AS n FROM events")[0]["n"]


def test_a_fill_slip_printed_from_the_command_line_without_signing_in(floor):
    home, cfg, db = floor
    with Workstation(config.load(cfg), db) as ws:
        ws.people.sign_in(*DEALER)
        ws.inventory.open_tray("nj", OPENER, signer=FLOOR)
        ws.inventory.request("nj", "fill", "20 x $25", "the $25s run low")
        ws.people.sign_in(*FLOOR)
        (slip,) = ws.inventory.pending()
        ws.decisions.decide(slip["request"], "approved", "")
        ws.people.sign_in(*CASHIER)
        ws.inventory.sign("fill", 1, "cage", signers=[SECURITY])
        _, rules = ws.state_of("nj")
        rule = rules.cite("tray_slip")
    before = rows(db)
    out = home / "fill-1.pdf"
    got = ok(pitdesk(floor, "fill", "--number", "1", "--pdf", str(out), "--json"))
    assert got["pdf"] == str(out.resolve()) and got["status"] == "signed at the cage" and got["cents"] == 50_000
    assert rows(db) == before                      # a copy on paper writes nothing to the log
    first, second = pdf_pages(out)
    for text, copy in ((first, "ORIGINAL — for the drop box"), (second, "DUPLICATE — for the cage")):
        assert "FILL SLIP" in text and "No. 000001" in text and copy in text and "the $25s run low" in text
        assert "Total $500.00" in text and "At the cage: Cashier demo-cashier (cashier)" in text
        assert " ".join(rule.split()) in text      # the table's own citation at the foot
    assert rule and "printed" in first

    text = ok(pitdesk(floor, "fill", "--number", "1", "--pdf", str(home / "again.pdf")))
    assert "fill slip 1 (signed at the cage) on paper" in text


def test_a_slip_pdf_refused_naming_the_fault_with_no_file(floor):
    home, cfg, db = floor
    out = home / "x.pdf"
    refused(pitdesk(floor, "credit", "--number", "3", "--pdf", str(out)), "no credit slip 3")
    refused(pitdesk(floor, "fill", "--pdf", str(out)), "name it with --number N")
    refused(pitdesk(floor, "fill", "--number", "1", "--pdf", str(out), who=("demo-floor",)), "nobody signs in")
    refused(pitdesk(floor, "fill", "--number", "1", "--pdf", str(home / "none" / "x.pdf")), "does not exist")
    refused(pitdesk(floor, "fill", "--number", "1", "--pdf", str(home)), "is a folder")
    p = pitdesk(floor, "fill", "--number", "1", "--approve", "--pdf", str(out))
    assert p.returncode == 2 and "not allowed with argument" in p.stderr
    refused(pitdesk(floor, "fill", "--number", "1", "--approve"), "is signed: --as NAME")
    assert not out.exists()
