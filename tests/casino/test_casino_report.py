"""The floor-wide shift report and hold from the casino's server (issue 28): ``pitdesk report shift
--pg`` and ``pitdesk hold --pg`` give every pit's as the pit's own ``--json`` gives it, and the
floor's sum equal to the sum of the pits', to the cent."""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta, timezone

import pytest

from app.engine.words import money
from tests.support.casino import pitdesk, register, shipped_with_own
from tests.support.pg import AUDITOR
from tests.support.shift_report import pdf_text
from tests.support.simulated_shift import simulate

START = datetime(2026, 11, 21, 16, 0)   # the swing shift, 16:00-24:00
SHIFT = ("--date", "2026-11-21", "--shift", "swing", "--json")


@pytest.fixture(scope="module")
def pits(tmp_path_factory):
    """Three pits' swing shifts, each its own workstation's log."""
    out = []
    for n, (tables, rounds) in enumerate(((2, 12), (3, 8), (1, 15))):
        d = tmp_path_factory.mktemp(f"pit{n}")
        simulate(d / "log.db", d / "home", tables, rounds, START, 30 + n, plant=n == 0)
        out.append(d)
    return out


def _sum(pits: list[dict], path: tuple[str, ...]) -> int:
    total = 0
    for p in pits:
        v = p
        for k in path:
            v = v.get(k, {}) if isinstance(v, dict) else {}
        total += v if isinstance(v, int) else 0
    return total


def test_the_floor_report_is_each_pits_own_and_their_sum_to_the_cent(casino, pits, tmp_path):
    local, holds = {}, {}
    for d in pits:
        rc, own, err = pitdesk("report", "shift", "--db", str(d / "log.db"), *SHIFT, home=d / "home")
        assert rc == 0, err
        local[own["db_id"]] = own
        rc, holds[own["db_id"]], err = pitdesk("hold", "--db", str(d / "log.db"), "--from", "2026-11-21 16:00",
                                               "--json", home=d / "home")
        assert rc == 0, err
        assert pitdesk("ship", "--db", str(d / "log.db"), "--to", casino.ship)[0] == 0

    # the hold: each pit's own, and the floor's sum of them
    rc, floor, err = pitdesk("hold", "--pg", casino.floor, "--from", "2026-11-21 16:00", "--json")
    assert rc == 0, err
    assert {p["db_id"]: {k: v for k, v in p.items() if k not in ("db", "db_id", "name")} for p in floor["pits"]} == \
           {ws: {k: v for k, v in h.items() if k not in ("db", "verified")} for ws, h in holds.items()}
    mine = [h["pit"] for h in holds.values()]
    assert floor["floor"]["rounds"] == sum(h["rounds"] for h in holds.values())
    assert floor["floor"]["total"]["wagered"] == _sum(mine, ("total", "wagered")) > 0
    assert floor["floor"]["total"]["house_net"] == _sum(mine, ("total", "house_net"))
    # as a person reads it: each workstation's table, then the floor's, in dollars and cents
    rc, readable, err = pitdesk("hold", "--pg", casino.floor, "--from", "2026-11-21 16:00")
    assert rc == 0, err
    for ws in holds:
        assert f"== workstation {ws} (" in readable
    floor_line = next(x for x in readable.splitlines()[readable.splitlines().index(
        next(x for x in readable.splitlines() if x.startswith("Floor: "))):] if x.strip().startswith("total"))
    assert money(floor["floor"]["total"]["wagered"]) in floor_line and money(floor["floor"]["total"]["house_net"]) \
        in floor_line
    assert f"Floor: {floor['floor']['rounds']} rounds at 3 workstations" in readable
    for w, line in floor["floor"]["wagers"].items():
        assert line["house_net"] == _sum(mine, ("wagers", w, "house_net")), w

    rc, floor, err = pitdesk("report", "shift", "--pg", casino.floor, *SHIFT)
    assert rc == 0, err
    assert floor["scope"] == "floor" and floor["quiet"] == [] and floor["verified"]["ok"] is True
    assert sorted(p["db_id"] for p in floor["pits"]) == sorted(local)
    for p in floor["pits"]:
        assert_pit_is_its_own(p, local[p["db_id"]])
    mine = [p["pit"] for p in local.values()]
    # the planted shift gives the counts something to count (a round sent back, a slip voided and an
    # aggregate-limit application: tests/casino/test_casino_tray_sums.py)
    assert all(sum(own["pit"][k] for own in local.values()) > 0 for k in ("rounds", "slips", "alarms", "approvals"))

    f = floor["floor"]
    assert set(f) == set(SUMMED) | {"hits"}
    assert f["total"]["wagered"] == _sum(mine, ("total", "wagered")) > 0
    assert f["total"]["house_net"] == _sum(mine, ("total", "house_net"))
    for key in ("rounds", "sent_back", "slips", "void_slips", "alarms", "approvals", "aggregate_limits"):
        assert f[key] == sum(p[key] for p in mine), key
    assert f["hits"] == sum(len(t["hits"]) for own in local.values() for t in own["tables"])
    wagers = {w for p in mine for w in p["wagers"]}
    assert set(f["wagers"]) == wagers
    for w in wagers:
        for key in ("wagered", "house_won", "house_lost", "commission", "collection_fees", "to_meter", "house_net"):
            assert f["wagers"][w][key] == _sum(mine, ("wagers", w, key)), (w, key)
    for mode in f["banking"]:
        assert f["banking"][mode]["house_net"] == _sum(mine, ("banking", mode, "house_net"))
        assert f["banking"][mode]["rounds"] == _sum(mine, ("banking", mode, "rounds"))


# a pit's figures the floor report states as its own report does (the rest, void rounds,
# irregularities, deck and dice changes, are the engine's verdicts: its own report's alone)
SUMMED = ("rounds", "sent_back", "wagers", "total", "banking", "slips", "void_slips", "alarms", "approvals",
          "aggregate_limits", "money")
LISTED = ("slips", "alarms", "approvals", "aggregate_limits", "hits")     # a table's lists, counted on the floor


def assert_pit_is_its_own(p: dict, own: dict) -> None:
    """The floor report's pit ``p`` says what the pit's own report ``own`` says, to the cent."""
    assert p["events"] == own["events"] and p["chain_head"] == own["chain_head"]
    assert {k: p["pit"][k] for k in SUMMED} == {k: own["pit"][k] for k in SUMMED}, "a pit's figures differ"
    assert [t["table"] for t in p["tables"]] == [t["table"] for t in own["tables"]]
    for t, o in zip(p["tables"], own["tables"]):
        for k in ("profiles", "rounds", "sent_back", "wagers", "total", "banking", "money"):
            assert t[k] == o[k], (t["table"], k)
        for k in LISTED:
            assert t[k] == len(o[k]), (t["table"], k)
        assert t["void_slips"] == sum(1 for x in o["slips"] if x["status"] == "VOID")


def _shipped(casino, pits) -> dict:
    """Each pit's own swing report (JSON), its log shipped to the casino."""
    return shipped_with_own(casino, [(d / "log.db", d / "home") for d in pits], *SHIFT[:-1])


def test_the_floor_report_as_a_pdf_is_every_pits_and_their_sum_numbered_by_the_server(casino, pits, tmp_path):
    """``--out``: the floor's pages (each pit's figures and the floor's sum, the chain heads and
    each pit's own reports); numbered by the server, recorded there once written, with the file's
    sha256; printed again, COPY."""
    local = _shipped(casino, pits)
    out = tmp_path / "floor.pdf"
    rc, made, err = pitdesk("report", "shift", "--pg", casino.floor, *SHIFT[:-1], "--out", str(out))
    assert rc == 0, err
    assert made["number"] == 1 and made["copy"] is False and made["scope"] == "floor"
    assert made["where"] == f"file {out.resolve()}" and made["quiet"] == []
    assert made["workstations"] == {ws: own["chain_head"] for ws, own in local.items()}
    text = " ".join(pdf_text(out).split())
    assert "Floor shift report — swing 2026-11-21 (16:00–24:00)" in text and "floor report No. 1" in text
    assert "3 with events in the shift" in text
    mine = [own["pit"] for own in local.values()]
    wagered, net = _sum(mine, ("total", "wagered")), _sum(mine, ("total", "house_net"))
    # the pits' table: one line a workstation with its own totals, then the floor's sum of them
    for ws, own in local.items():
        assert f"{ws} {len(own['tables'])} {own['pit']['rounds']} {own['pit']['sent_back']} " \
               f"{money(own['pit']['total']['wagered'])} {money(own['pit']['total']['house_net'])}" in text, ws
        assert f"{own['chain_head']['seq']}:{own['chain_head']['hash']}" in text.replace(" ", "")
    floor_rounds = sum(p["rounds"] for p in mine)
    assert f"Floor {sum(len(o['tables']) for o in local.values())} {floor_rounds} " \
           f"{sum(p['sent_back'] for p in mine)} {money(wagered)} {money(net)}" in text
    # the floor's pages only: each pit's own report is its workstation's, named here
    assert "part of floor report" not in text and "Shift report — swing" not in text
    assert text.count("none printed yet") == 3 and "each pit's own report of the shift states them" in text
    assert f"page {made['pages']} of {made['pages']}" in text and made["pages"] <= 4
    # words for people (issue 27): no raw cents, identifier or ISO time; the login is a name the casino gave
    from tests.views.test_words_for_people import faults
    assert faults("the floor's report", text.replace(AUDITOR, "LOGIN")) == []

    from app.store.pg import floor_reports
    rec = floor_reports.recorded(casino.owner)
    assert len(rec) == 1 and rec[0]["status"] == "printed" and rec[0]["number"] == 1
    assert rec[0]["pdf_sha256"] == hashlib.sha256(out.read_bytes()).hexdigest()
    assert rec[0]["login"] == AUDITOR and rec[0]["pages"] == made["pages"] and rec[0]["heads"] == made["workstations"]

    again = tmp_path / "again.pdf"
    rc, made2, err = pitdesk("report", "shift", "--pg", casino.floor, *SHIFT[:-1], "--out", str(again), "--paper", "a4")
    assert rc == 0, err
    assert made2["number"] == 2 and made2["copy"] is True and made2["copy_of"] == 1
    assert "COPY — a reprint of floor report No. 1" in " ".join(pdf_text(again).split())
    assert [(r["copy"], r["copy_of"]) for r in floor_reports.recorded(casino.owner)] == [(False, None), (True, 1)]


def test_each_pits_own_report_of_the_shift_is_named_with_the_head_it_printed(casino, pits, tmp_path):
    """The floor report reads sums, not logs (issue 35, finding 5): a pit's lists and its
    procedures' verdicts are its own report's, and the floor report names each pit's own reports
    of the shift as the pit logged them printed (shipped with its log)."""
    import shutil
    d = tmp_path / "pit0"               # a copy: the pits are the module's, and this one prints
    shutil.copytree(pits[0], d)
    rc, mine, err = pitdesk("report", "shift", "--db", str(d / "log.db"), *SHIFT[:-1], "--out", str(tmp_path / "own.pdf"),
                            home=d / "home")
    assert rc == 0 and mine["number"] == 1, err
    local = _shipped(casino, [d, *pits[1:]])
    ws = next(w for w, own in local.items() if own["db"] == str(d / "log.db"))
    rc, floor, err = pitdesk("report", "shift", "--pg", casino.floor, *SHIFT)
    assert rc == 0, err
    own = {p["db_id"]: p["own_reports"] for p in floor["pits"]}
    [printed] = own.pop(ws)
    assert all(v == [] for v in own.values())
    head = local[ws]["chain_head"]
    assert (printed["number"], printed["copy_of"], printed["rounds"]) == (1, None, local[ws]["pit"]["rounds"])
    assert printed["head"] == f"{head['seq']}:{head['hash']}" and printed["verified"] is True
    out = tmp_path / "floor.pdf"
    rc, _, err = pitdesk("report", "shift", "--pg", casino.floor, *SHIFT[:-1], "--out", str(out))
    assert rc == 0, err
    text = " ".join(pdf_text(out).split())
    assert f"No. 1 printed {printed['printed'][:10]}" in text and "(to this head)" in text
    assert text.count("none printed yet") == 2


def test_a_floor_report_with_more_workstations_is_an_original_and_only_the_same_again_a_copy(casino, pits, tmp_path):
    """Issue 33 (3b): the floor report printed with two workstations, then with a third shipped,
    says more: an original with its own number, not a reprint of the first. Printed again with
    nothing new, it is a COPY of the one that said the same (the digest recorded with each)."""
    from app.store.pg import floor_reports

    def issue(name: str) -> tuple[dict, str]:
        rc, made, err = pitdesk("report", "shift", "--pg", casino.floor, *SHIFT[:-1], "--out", str(tmp_path / name))
        assert rc == 0, err
        return made, " ".join(pdf_text(tmp_path / name).split())

    _shipped(casino, pits[:2])
    one, text = issue("1.pdf")
    assert (one["number"], one["copy"], one["copy_of"]) == (1, False, None) and "COPY" not in text
    assert "2 with events in the shift" in text
    two, text = issue("2.pdf")
    assert (two["number"], two["copy"], two["copy_of"]) == (2, True, 1)
    assert "COPY — a reprint of floor report No. 1" in text and "COPY of No. 1 · pitdesk floor report No. 2" in text
    _shipped(casino, pits[2:])
    three, text = issue("3.pdf")            # a workstation more: another report, not a reprint
    assert (three["number"], three["copy"], three["copy_of"]) == (3, False, None)
    assert "COPY" not in text and "3 with events in the shift" in text and len(three["workstations"]) == 3
    four, text = issue("4.pdf")
    assert (four["number"], four["copy"], four["copy_of"]) == (4, True, 3)
    assert "COPY — a reprint of floor report No. 3" in text
    rec = floor_reports.recorded(casino.owner)
    assert [(r["number"], r["copy"], r["copy_of"]) for r in rec] == \
        [(1, False, None), (2, True, 1), (3, False, None), (4, True, 3)]
    assert rec[0]["digest"] == rec[1]["digest"] != rec[2]["digest"] == rec[3]["digest"]


def test_a_floor_report_the_server_will_not_record_is_not_left_as_a_file(casino, pits, tmp_path):
    """Written, then recorded: a login whose record the server refuses leaves no PDF, and says
    that not even the failure could be recorded."""
    _shipped(casino, pits[:1])
    casino.sql("REVOKE INSERT ON pitdesk.floor_reports FROM pitdesk_floor")
    out = tmp_path / "floor.pdf"
    rc, made, err = pitdesk("report", "shift", "--pg", casino.floor, *SHIFT[:-1], "--out", str(out))
    assert rc == 2 and "floor report No. 1 was not made" in err and "could not be recorded as failed" in err, err
    assert "permission denied" in err and len(err.strip().splitlines()) == 1
    assert not out.exists() and list(tmp_path.iterdir()) == []
    from app.store.pg import floor_reports
    assert floor_reports.recorded(casino.owner) == []


def test_the_floor_report_printed_is_the_pdfs_pages(casino, pits, tmp_path, qapp):
    """``--print``'s drawing on a QPrinter (to a PDF file here; tests/cli/test_print.py prints
    through CUPS) gives the pages the PDF has."""
    from app.qt import QPrinter
    from app.reports.floor_report import floor_pdf_bytes, print_floor
    from app.workstation.floor_report import read_floor_report
    from app.workstation.shifts import DEFAULT
    _shipped(casino, pits)
    floor, differs, _ = read_floor_report(casino.floor, START.date(), "swing", DEFAULT)
    assert differs is None and len(floor.pits) == 3
    _, pages = floor_pdf_bytes(floor, "here", "letter")
    printer = QPrinter(QPrinter.PrinterMode.HighResolution)
    printer.setOutputFormat(QPrinter.OutputFormat.PdfFormat)
    printer.setOutputFileName(str(tmp_path / "printed.pdf"))
    assert print_floor(floor, "here", printer, "letter") == pages
    assert pages >= 2     # the floor's figures, then its chart and tables


def test_the_floor_report_bad_input_exit_2(casino, tmp_path):
    for args, words in (((*SHIFT[:-1], "--out", str(tmp_path / "no" / "floor.pdf")), "--out"),
                        ((*SHIFT[:-1], "--print", "no-such-printer"), "no printer named 'no-such-printer'"),
                        ((*SHIFT[:-1], "--out", str(tmp_path / "f.pdf"), "--as", "ana"), "--as signs in to a workstation"),
                        (("--date", "2026-11-21", "--shift", "nope", "--json"), "nope"),
                        (SHIFT, "nothing to report")):
        rc, out, err = pitdesk("report", "shift", "--pg", casino.floor, *args)
        assert rc == 2 and words in err, (args, rc, err)
        assert len(err.strip().splitlines()) == 1
    for args, words in ((("--json", "--from", "2026-11-22", "--to", "2026-11-21"), "--from must be before --to"),):
        rc, out, err = pitdesk("hold", "--pg", casino.floor, *args)
        assert rc == 2 and words in err and len(err.strip().splitlines()) == 1, (args, rc, err)


def test_the_floor_role_may_only_add_a_floor_reports_record_and_the_server_says_who(casino):
    """``pitdesk_floor`` reads and records floor reports and nothing more; a record says the login
    that made it, whatever the login wrote there, and is never changed or removed, even by the owner."""
    import psycopg
    ins = ('INSERT INTO pitdesk.floor_reports (number, status, shift, day, copy, interim, "where", made_by, '
           "printed_at, heads, login, logged) VALUES (%s, 'printed', 'swing', '2026-11-21', false, false, 'file x', "
           "'me', '2026-11-22 00:05', '{}', 'someone_else', '2000-01-01')")
    with psycopg.connect(casino.floor, autocommit=True) as conn:
        conn.execute(ins, (1,))
        for statement in ("UPDATE pitdesk.floor_reports SET status = 'failed'", "DELETE FROM pitdesk.floor_reports",
                          "TRUNCATE pitdesk.floor_reports", "DELETE FROM pitdesk.events",
                          "INSERT INTO pitdesk.refusals (workstation, seq, reason, head_seq, head_hash, "
                          "offered_prev_hash, offered_hash, shipped_by) VALUES ('x', 1, 'x', 0, 'x', 'x', 'x', 'x')"):
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(statement)
    with psycopg.connect(casino.ship, autocommit=True) as conn:
        with pytest.raises(psycopg.errors.InsufficientPrivilege):
            conn.execute(ins, (2,))
    from app.store.pg import floor_reports
    (rec,) = floor_reports.recorded(casino.owner)
    assert rec["login"] == AUDITOR and abs(rec["logged"] - datetime.now(timezone.utc)) < timedelta(minutes=10)
    for statement in ("UPDATE pitdesk.floor_reports SET status = 'failed'", "DELETE FROM pitdesk.floor_reports"):
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            with psycopg.connect(casino.owner, autocommit=True) as conn:
                conn.execute(statement)


def test_pits_are_named_as_the_casino_registered_them_in_json_and_pdf(casino, pits, tmp_path):
    """Issue 35, finding 2: a pit is shown by its name, not only its id."""
    ids = []
    for n, d in enumerate(pits):
        ids.append(register(casino.ship, d / "log.db", f"Pit {n + 3}"))
        rc, shipped, err = pitdesk("ship", "--db", str(d / "log.db"), "--to", casino.ship, registered=False)
        assert rc == 0 and shipped["name"] == f"Pit {n + 3}", err
    rc, floor, err = pitdesk("report", "shift", "--pg", casino.floor, *SHIFT)
    assert rc == 0, err
    assert {p["db_id"]: p["name"] for p in floor["pits"]} == {ws: f"Pit {n + 3}" for n, ws in enumerate(ids)}
    assert [p["name"] for p in floor["pits"]] == ["Pit 3", "Pit 4", "Pit 5"]      # as a person counts them, not by id
    rc, hold, err = pitdesk("hold", "--pg", casino.floor, "--from", "2026-11-21 16:00", "--json")
    assert rc == 0 and {p["db_id"]: p["name"] for p in hold["pits"]} == {ws: f"Pit {n + 3}" for n, ws in enumerate(ids)}
    out = tmp_path / "floor.pdf"
    rc, _, err = pitdesk("report", "shift", "--pg", casino.floor, "--date", "2026-11-21", "--shift", "swing",
                         "--out", str(out))
    assert rc == 0, err
    text = " ".join(pdf_text(out).split())
    for n, ws in enumerate(ids):
        assert f"Pit {n + 3} ({ws[:8]}" in text   # the ellipsis as the PDF's text gives it
