"""The logs (issue 15): what each tab reads from the read models (app/store/logbook.py) through the
workstation (app/workstation/logs.py), checked on a simulated shift against counts taken straight
from its events table; the filters' words; rows logged later placed where they belong; the logs'
read models filled when an older database is opened."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.store import logbook
from app.store.log import AuditLog
from app.store.read_models import rebuild
from app.workstation.errors import FieldsRefused, Refused
from app.workstation.logs import Logs, time_range
from tests.support.simulated_shift import Shift, expected

NOW = datetime(2026, 11, 23, 9, 0)


@pytest.fixture(scope="module")
def shift(logs_shift) -> Shift:
    return logs_shift


@pytest.fixture(scope="module")
def logs(shift):
    lg = Logs(shift.db, clock=lambda: NOW)
    yield lg
    lg.close()


def every(logs: Logs, tab: str, **kw) -> list:
    """Every row of a query, read page by page as the model reads them."""
    r = logs.open(tab, **kw)
    if r.keys is not None:
        return list(logs.rows(r.query, list(r.keys)))
    out = list(r.rows)
    while len(out) < r.total:
        out += logs.page(r.query, len(out), 50)
    return out


def seqs_of(logs: Logs, tab: str, rows) -> list[int]:
    """The log row behind each row: the field every tab keeps of it."""
    field = {"decks": None, "dice": None, "approvals": "request", "alarms": "alarm", "devices": None,
             "irregularities": None, "slips": None, "sign_ins": None, "events": "seq"}[tab]
    if field is not None:
        i = next(t for t in logs.tabs() if t.name == tab).fields.index(field)
        return sorted(r.values[i] for r in rows)
    return sorted(r.key for r in rows)


# -- every tab against the events table ----------------------------------------------------------
@pytest.mark.parametrize("tab", ["decks", "dice", "approvals", "alarms", "devices", "slips", "sign_ins", "events"])
def test_each_tab_shows_a_row_for_each_event_behind_it(shift, logs, tab):
    want = expected(shift, tab)
    assert want, f"the shift has no {tab} rows to show"
    rows = every(logs, tab)
    assert len(rows) == len(want) == logs.open(tab).total
    if tab in ("approvals", "alarms", "events"):
        assert seqs_of(logs, tab, rows) == want        # the row is the event's
    # newest first: the tab's time never rises down the rows
    t = next(x for x in logs.tabs() if x.name == tab)
    times = [r.values[t.fields.index(t.time_field)] for r in rows]
    assert times == sorted(times, reverse=True)


def test_the_irregularities_tab_shows_every_irregularity_of_the_shift(shift, logs):
    # the simulator counts each irregularity the engine recorded (app/simulate/shift.py)
    assert logs.open("irregularities").total == shift.summary["irregularities"] > 0
    kinds = {r.values[4] for r in every(logs, "irregularities")}
    assert kinds == set(shift.summary["irregularity_kinds"])
    # those that are events of their own: one row each, by kind
    for kind in ("shoe_jam", "player_card_exposed", "wrong_dice_total"):
        n = len(expected(shift, "events", extra="type = :kind", params={"kind": kind}))
        assert logs.open("irregularities", text=kind.replace("_", " ")).total == n


@pytest.mark.parametrize("tab", ["decks", "dice", "approvals", "alarms", "devices", "slips", "events"])
def test_a_tab_filtered_by_table_and_time_shows_the_events_of_that_table_and_time(shift, logs, tab):
    first, last = shift.sql("SELECT min(time), max(time) FROM events")[0]
    mid = datetime.fromisoformat(first) + (datetime.fromisoformat(last) - datetime.fromisoformat(first)) / 3
    since = mid.replace(second=0, microsecond=0)
    until = since + timedelta(hours=2)
    for table in ("T1", "T3"):
        # To is the end of the minute written: 16:30 takes 16:30:59
        want = expected(shift, tab, table, since.isoformat(), (until + timedelta(minutes=1)).isoformat())
        got = logs.open(tab, table=table, since=f"{since:%Y-%m-%d %H:%M}", until=f"{until:%Y-%m-%d %H:%M}")
        assert got.total == len(want), (tab, table)
        assert all(r.values[list(next(t for t in logs.tabs() if t.name == tab).fields).index("table")] == table
                   for r in got.rows)
    day = since.date().isoformat()
    want = expected(shift, tab, None, day, (since.date() + timedelta(days=1)).isoformat())
    assert logs.open(tab, since=day, until=day).total == len(want)       # a date: the whole day


def test_free_text_finds_words_as_logged_a_space_for_an_underscore(shift, logs):
    want = expected(shift, "events", extra="type = 'deck_received'")
    assert logs.open("events", text="deck received").total == len(want)
    assert logs.open("events", text="DECK_RECEIVED").total == len(want)
    voids = expected(shift, "events", extra="type = 'slip_voided'")
    assert voids and logs.open("slips", text="void").total == len(voids)
    # a floor supervisor's name: the requests they made (settling a round at the desk) or decided
    fs = shift.sql("SELECT DISTINCT actor FROM events WHERE type = 'approval_decided' AND role = "
                   "'floor supervisor'")[0][0]
    theirs = expected(shift, "approvals", extra="(actor = :a OR seq IN (SELECT json_extract(body, '$.data.request') "
                                                "FROM events WHERE type = 'approval_decided' AND actor = :a))",
                      params={"a": fs})
    assert theirs and logs.open("approvals", text=fs).total == len(theirs)
    assert logs.open("events", text="100% sure").total == 0      # '%' is a character, not a wildcard


def test_sorted_by_any_column_the_values_follow_in_order(shift, logs):
    cents = {seq: c for seq, c in shift.sql(
        "SELECT seq, json_extract(body, '$.data.cents') FROM events WHERE type = 'approval_requested'")}
    fields = next(t for t in logs.tabs() if t.name == "approvals").fields
    for descending in (True, False):
        rows = every(logs, "approvals", sort="cents", descending=descending)
        got = [cents[r.values[fields.index("request")]] for r in rows]
        blank = -1                      # no amount sorts as the least
        key = [blank if c is None else c for c in got]
        assert key == sorted(key, reverse=descending)
        assert sorted(r.values[0] for r in rows) == sorted(cents)
    # a text column, on the whole log, by key
    actors = every(logs, "events", sort="actor")
    assert [r.values[4] for r in actors] == sorted((r.values[4] for r in actors), reverse=True)
    assert len(actors) == shift.one("SELECT count(*) FROM events")


def test_the_deck_log_says_where_each_deck_stood_against_the_engines_deadline(shift, logs):
    fields = next(t for t in logs.tabs() if t.name == "decks").fields
    for r in every(logs, "decks"):
        v = dict(zip(fields, r.values))
        # each table's own text (issue 33): 000(e)(5), the casino's 003 NEW CARDS IN PLAY 1 then its regulation's,
        # or the words saying the text (001, 002) sets no hours
        assert v["rule"].startswith(("000(e)(5)", "003 NEW CARDS IN PLAY 1; 000(e)(5)")) or \
            v["rule"].endswith("has no paragraph on this: the house's procedure"), v["rule"]
        assert v["verified_by"] and v["received_by"] and v["inspected_by"]
        done = datetime.fromisoformat(v["changed"]) if v["changed"] else NOW
        assert v["margin"] == round((datetime.fromisoformat(v["due"]) - done).total_seconds())
    dice = dict(zip(next(t for t in logs.tabs() if t.name == "dice").fields, every(logs, "dice")[-1].values))
    # its table's own text: 000, 001, or the casino's 003 (which has no paragraph on dice hours) then 000
    assert dice["rule"] in ("000(d)(1)(ii)", "001 11.4(a)1", "003 has no paragraph on this; 000(d)(1)(ii)")
    assert datetime.fromisoformat(dice["due"]) - datetime.fromisoformat(dice["placed"]) == timedelta(hours=24)


# -- the filter's words ----------------------------------------------------------------------------
@pytest.mark.parametrize("since, until, field, words", [
    ("2026-11-22", "2026-11-21", "to", "To (2026-11-21) is before From (2026-11-22)"),
    ("2026-11-21 15:00", "2026-11-21 14:59", "to", "is before From"),
    ("2026-13-01", "", "from", "cannot read '2026-13-01'"),
    ("", "yesterday", "to", "cannot read 'yesterday'"),
    ("21/11/2026", "", "from", "write a date (2026-11-21)"),
])
def test_a_bad_time_is_refused_naming_the_field(logs, since, until, field, words):
    with pytest.raises(FieldsRefused, match=words.replace("(", r"\(").replace(")", r"\)")) as e:
        logs.open("events", since=since, until=until)
    assert field in e.value.fields


def test_times_are_read_to_the_precision_written():
    assert time_range("2026-11-21", "2026-11-21") == ("2026-11-21T00:00:00", "2026-11-22T00:00:00")
    assert time_range("2026-11-21 14:00", "2026-11-21T14:30") == ("2026-11-21T14:00:00", "2026-11-21T14:31:00")
    assert time_range("", "2026-11-21 14:30:05") == (None, "2026-11-21T14:30:06")


def test_an_unknown_log_column_or_table_filter_is_refused(logs):
    with pytest.raises(Refused, match="no log 'nosuch'"):
        logs.open("nosuch")
    with pytest.raises(Refused, match="no column 'nosuch'"):
        logs.open("decks", sort="nosuch")
    with pytest.raises(Refused, match="not kept by table"):
        logs.open("sign_ins", table="T1")


# -- rows logged later ------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(tab=st.sampled_from(sorted(logbook.TABS)), back=st.integers(1, 2500), sort=st.integers(0, 20),
       descending=st.booleans(), text=st.sampled_from(["", "e", "T2", "floor"]), table=st.booleans())
def test_rows_logged_later_are_placed_where_a_new_read_puts_them(shift, tab, back, sort, descending, text, table):
    """Read up to an earlier row, then the rows after it inserted one by one at their places give
    exactly the rows a read of the whole log gives, in its order (natural order and by key)."""
    t = logbook.TABS[tab]
    conn = logbook.connect(shift.db)
    try:
        top = logbook.last_seq(conn)
        f = logbook.Filter(table="T2" if table and t.table else None, text=text,
                           sort=t.fields[sort % len(t.fields)].name if sort < 2 * len(t.fields) else None,
                           descending=descending)
        now = NOW.isoformat()
        old = max(0, top - back)
        shown = [r[0] for r in logbook.page(conn, t, f, old, now, 0, 10**9)]
        for place, row in logbook.newer(conn, t, f, old, top, now):
            shown.insert(place, row[0])
        assert shown == [r[0] for r in logbook.page(conn, t, f, top, now, 0, 10**9)]
        assert shown == list(logbook.keys(conn, t, f, top, now))
    finally:
        conn.close()


def test_news_brings_new_rows_and_the_rows_they_changed(shift, tmp_path):
    own = shift.copy(tmp_path / "copy")
    import os
    os.environ["PITDESK_HOME"] = str(own.home)
    try:
        with AuditLog(own.db) as log:
            logs = Logs(own.db, clock=lambda: NOW)
            alarms = logs.open("alarms")
            slips = logs.open("slips")
            t = NOW
            raised = log.append("alarm_raised", t, "pitdesk", "device", "T2",
                                {"kind": "shoe_door_open", "message": "the shoe's door is open", "rule": "000(h)",
                                 "serial": "SHOE-T2"})
            number = shift.one("SELECT max(number) FROM slips")
            log.append("slip_voided", t, "floor-1", "floor supervisor", "T1", {"number": number, "reason": "torn"})
            news = logs.news(alarms.query)
            assert [(n, r.key) for n, r in news.inserted] == [(0, raised)]
            assert news.query.top == log.seq and news.changed == ()
            log.append("alarm_acknowledged", t, "floor-1", "floor supervisor", "T2",
                       {"alarm": raised, "kind": "shoe_door_open", "reason": "door closed and sealed"})
            again = logs.news(news.query)
            assert again.inserted == () and [r.key for r in again.changed] == [raised]
            fields = next(x for x in logs.tabs() if x.name == "alarms").fields
            v = dict(zip(fields, again.changed[0].values))
            assert (v["acknowledged_by"], v["acknowledged_reason"]) == ("floor-1", "door closed and sealed")
            voided = logs.news(slips.query)
            assert [r.key for r in voided.changed] == [number]
            assert dict(zip(next(x for x in logs.tabs() if x.name == "slips").fields,
                            voided.changed[0].values))["status"] == "VOID"
            assert logs.news(voided.query).inserted == ()       # nothing more
            logs.close()
    finally:
        os.environ.pop("PITDESK_HOME", None)


# -- the logs' read models -----------------------------------------------------------------------------
def test_a_database_made_before_the_logs_gets_them_filled_from_its_log(shift, tmp_path, monkeypatch):
    """A log made before migration 3: its read models lack the new columns and tables; opening it
    adds them and projects the whole log again, giving the rows a log made now has."""
    own = shift.copy(tmp_path / "old")
    monkeypatch.setenv("PITDESK_HOME", str(own.home))
    models = ("decks", "dice", "approvals", "alarms", "irregularities", "slips", "device_log", "sign_ins")
    conn = sqlite3.connect(own.db)
    conn.row_factory = sqlite3.Row
    # by column name: a column migration 3 adds again comes after those of later migrations
    now = {t: [dict(r) for r in conn.execute(f"SELECT * FROM {t} ORDER BY rowid")] for t in models}
    # as migration 2 left it: no new indexes, columns or tables, and no record of migration 3
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE '%_by_%'")\
            .fetchall():
        conn.execute(f"DROP INDEX {name}")
    from app.store.schema import LOG_COLUMNS, MIGRATIONS
    for table, columns in LOG_COLUMNS.items():
        for column in columns:
            conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    conn.execute("DROP TABLE device_log")
    conn.execute("DROP TABLE sign_ins")
    conn.execute("DELETE FROM _migrations WHERE version = 3")
    conn.commit()
    conn.close()
    with AuditLog(own.db) as log:
        assert log.query("SELECT max(version) AS v FROM _migrations")[0]["v"] == max(v for v, _, _ in MIGRATIONS)
        assert not log.query("SELECT * FROM meta WHERE key = 'reproject'")
    conn = sqlite3.connect(own.db)
    conn.row_factory = sqlite3.Row
    after = {t: [dict(r) for r in conn.execute(f"SELECT * FROM {t} ORDER BY rowid")] for t in models}
    conn.close()
    for t in models:
        assert after[t] == now[t], t


def test_a_log_whose_devices_log_cited_000_at_every_table_says_the_new_words_once_opened(shift, tmp_path,
                                                                                        monkeypatch):
    """Migration 9 (issue 33, each table its own law): a log made before it said "progressive
    wagers closed: a controller of the table is offline (000(q)(2))" at an nj or a casino table
    too; opening it projects the log again, and its devices log cites no other table's text."""
    from tests.support.store import verify_ok

    own = shift.copy(tmp_path / "old9")
    monkeypatch.setenv("PITDESK_HOME", str(own.home))
    closed = "progressive wagers closed: a controller of the table is offline"
    with AuditLog(own.db) as log:         # T2 (nj) loses its controller and gets it back
        last = datetime.fromisoformat(log.query("SELECT max(time) AS t FROM events")[0]["t"])
        for n, online in enumerate((False, True), 1):
            log.append("progressive_link", last + timedelta(seconds=n), "PRG-T2", "device", "T2", {"online": online})
    conn = sqlite3.connect(own.db)
    n = conn.execute("UPDATE device_log SET message = ? WHERE message = ?", (closed + " (000(q)(2))", closed)).rowcount
    conn.execute("DELETE FROM _migrations WHERE version = 9")
    conn.commit()
    conn.close()
    assert n > 0, "the simulated shift closes no progressive wager"
    # read as it lies (a backup from before migration 9): its devices log is not compared with
    # the new words, so nothing is found edited; only partly checked, saying so
    out = verify_ok(own.home, "--db", str(own.db))
    assert out["read_models"] == "partly checked" and any("device_log" in n for n in out["notes"]), out
    with AuditLog(own.db) as log:
        assert not log.query("SELECT * FROM meta WHERE key = 'reproject'")
        assert not log.query("SELECT * FROM device_log WHERE message LIKE '%000(q)(2)%'")
        assert len(log.query("SELECT * FROM device_log WHERE message = ?", (closed,))) == n
    assert verify_ok(own.home, "--db", str(own.db))["read_models"] == "checked"


def test_the_logs_read_models_rebuilt_from_the_log_are_the_live_ones(shift, tmp_path, monkeypatch):
    own = shift.copy(tmp_path / "again")
    monkeypatch.setenv("PITDESK_HOME", str(own.home))
    models = ("decks", "dice", "approvals", "alarms", "irregularities", "slips", "device_log", "sign_ins")
    with AuditLog(own.db) as log:
        before = {t: log.query(f"SELECT rowid, * FROM {t} ORDER BY rowid") for t in models}
        with log._lock:
            rebuild(log._conn)
        assert {t: log.query(f"SELECT rowid, * FROM {t} ORDER BY rowid") for t in models} == before


def test_sign_ins_and_lock_outs_are_logged_with_who_and_why(tmp_path, monkeypatch):
    from app.store.users import SignInError, Users
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    t = datetime(2026, 11, 23, 8, 0)
    with AuditLog(tmp_path / "a.db") as log:
        users = Users(log)
        users.create_administrator("root", "1111", t)
        admin = users.sign_in("root", "1111", t)
        users.add(admin, "fay", "floor supervisor", "2222", t)
        for i in range(5):
            with pytest.raises(SignInError):
                users.sign_in("fay", "9999", t + timedelta(minutes=i))
        users.lock(admin, "fay", t + timedelta(minutes=10))
        users.unlock(admin, "fay", t + timedelta(minutes=11))
        users.sign_in("fay", "2222", t + timedelta(minutes=12))
        logs = Logs(tmp_path / "a.db", clock=lambda: t)
        fields = next(x for x in logs.tabs() if x.name == "sign_ins").fields
        rows = [dict(zip(fields, r.values)) for r in reversed(every(logs, "sign_ins"))]
        logs.close()
    events = [(r["name"], r["event"], r["reason"], r["failures"], bool(r["locked_until"]), r["by"]) for r in rows]
    assert events == [("root", "sign_in", "", None, False, "root")] + [
        ("fay", "sign_in_failed", "wrong PIN", n, False, "fay") for n in (1, 2, 3, 4)] + [
        ("fay", "sign_in_failed", "wrong PIN", 0, True, "fay"),                # the fifth locks for 15 minutes
        ("fay", "user_locked", "locked by an administrator", None, False, "root"),
        ("fay", "user_unlocked", "", None, False, "root"),
        ("fay", "sign_in", "", None, False, "fay")]
    assert {r["role"] for r in rows if r["name"] == "fay"} == {"floor supervisor"}
    assert json.loads(json.dumps(rows))       # plain values only



def test_a_query_being_opened_is_given_up_when_a_newer_one_is_asked_for(shift, monkeypatch):
    """``interrupt`` stops the statement running (SQLite's own interrupt) and ``open`` says so."""
    import threading

    from app.workstation.logs import Interrupted
    started = threading.Event()

    def slow_count(conn, *args):
        started.set()      # a count that would take minutes: a billion rows counted one by one
        return conn.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000000) "
                            "SELECT count(*) FROM n").fetchone()[0]
    monkeypatch.setattr(logbook, "count", slow_count)
    lg = Logs(shift.db, clock=lambda: NOW)
    got = []
    t = threading.Thread(target=lambda: got.append(_catch(lambda: lg.open("events", sort="actor"))), daemon=True)
    t.start()
    assert started.wait(10)
    lg.interrupt()
    t.join(10)
    assert not t.is_alive() and isinstance(got[0], Interrupted)
    monkeypatch.undo()
    assert lg.open("events").total == shift.summary["events"]      # the next query is read whole
    lg.interrupt()                                                  # nothing being opened: nothing happens
    assert lg.open("decks").total > 0
    lg.close()


def _catch(fn):
    try:
        return fn()
    except Exception as e:      # handed to the test's thread
        return e


def test_the_device_log_holds_faults_and_every_change_of_a_link(tmp_path, monkeypatch):
    monkeypatch.setenv("PITDESK_HOME", str(tmp_path / "home"))
    t = datetime(2026, 11, 23, 8, 0)
    with AuditLog(tmp_path / "a.db") as log:
        from app.store.floor import Floor
        Floor(log).configure("T1", "section6", t, "pat", "pit manager")
        rows = [("device_fault", "SHF-1", {"device": "shuffler", "code": "E21", "message": "jam", "serial": "SHF-1"}),
                ("device_fault", "pitdesk", {"device": "shuffler", "code": "offline", "serial": "SHF-1",
                                             "message": "shuffler SHF-1 is offline"}),
                ("alarm_raised", "SHF-1", {"kind": "shuffler_offline", "message": "the shuffler is offline",
                                           "rule": "000(n)(15)", "serial": "SHF-1"}),
                ("progressive_link", "PRG-1", {"online": False}),
                ("progressive_link", "PRG-1", {"online": True})]
        seqs = [log.append(k, t + timedelta(seconds=n), a, "device", "T1", d) for n, (k, a, d) in enumerate(rows)]
        log.append("alarm_cleared", t + timedelta(seconds=9), "SHF-1", "device", "T1",
                   {"alarm": seqs[2], "kind": "shuffler_offline", "how": "the shuffler is back online"})
        logs = Logs(tmp_path / "a.db", clock=lambda: t)
        fields = next(x for x in logs.tabs() if x.name == "devices").fields
        got = [dict(zip(fields, r.values)) for r in reversed(every(logs, "devices"))]
        alarm = dict(zip(next(x for x in logs.tabs() if x.name == "alarms").fields, every(logs, "alarms")[0].values))
        logs.close()
    assert [(g["device"], g["serial"], g["kind"], g["code"]) for g in got] == [
        ("shuffler", "SHF-1", "fault", "E21"), ("shuffler", "SHF-1", "link", "offline"),
        ("progressive", "PRG-1", "link", "offline"), ("progressive", "PRG-1", "link", "online"),
        ("shuffler", "SHF-1", "link", "online")]
    # the words cite no rule text: the table's own paragraph is in its controller's alarm (issue 33)
    assert got[-1]["message"] == "the shuffler is back online"
    assert got[2]["message"] == "progressive wagers closed: a controller of the table is offline"
    assert (alarm["rule"], alarm["serial"], alarm["cleared_how"]) == ("000(n)(15)", "SHF-1",
                                                                     "the shuffler is back online")
