"""The workstation's TOML configuration (app/workstation/config.py, docs/workstation-config.md):
the example loads, and a bad file names the key and the line."""

from datetime import timedelta
from pathlib import Path

import pytest

from app.workstation import config
from app.workstation.config import ConfigError
from app.simulate.demo import DEMO_TABLES, demo_config

DOCS = Path(__file__).resolve().parents[2] / "docs"

GOOD = """\
[workstation]
idle_minutes = 3

[[tables]]
id = "T1"
profile = "section6"
row = 1
col = 2

[[tables.devices]]
class = "shuffler"
serial = "SHF-1"
url = "socket://127.0.0.1:4001"

[[tables]]
id = "T2"
profile = "sd"
"""


def test_the_documented_example_loads():
    c = config.load(DOCS / "workstation.example.toml")
    assert [t.id for t in c.tables] == ["T1", "T2", "T3", "T4"]
    assert [t.profile for t in c.tables] == ["section6", "nj", "casino", "sd"]
    assert c.idle == timedelta(minutes=5)
    assert c.database == DOCS / "pitdesk.db"   # relative to the file
    t1 = c.table("T1")
    assert [(d.cls, d.serial, d.url) for d in t1.devices][0] == ("shuffler", "SHF-10041", "/dev/ttyUSB0")
    assert t1.limits == {"base": {"min": 1000, "max": 500000}}
    assert c.table("T4").devices == ()
    # T4 has no position: it takes the first free cell of the grid
    assert c.positions() == {"T1": (1, 1), "T2": (1, 2), "T3": (2, 1), "T4": (1, 3)}


def test_defaults_and_positions():
    c = config.parse(GOOD, "config.toml")
    assert c.idle == timedelta(minutes=3) and c.database is None
    assert c.positions() == {"T1": (1, 2), "T2": (1, 1)}
    assert c.table("T1").device_classes() == {"SHF-1": "shuffler"}
    c = config.parse('[[tables]]\nid = "A"\nprofile = "nj"\n', "c.toml")
    assert c.idle == timedelta(minutes=5)   # issue 13: five minutes unless configured


def _error(text: str) -> str:
    with pytest.raises(ConfigError) as e:
        config.parse(text, "config.toml")
    return str(e.value)


@pytest.mark.parametrize("text,message", [
    # the brief's own example: the second table's profile
    (GOOD.replace('profile = "sd"', 'profile = "vegas"'),
     "config.toml line 17: tables[2].profile: unknown rule profile 'vegas' (one of casino, face-up-ca, nj, sd, "
     "section6, section6-even)"),
    (GOOD.replace("idle_minutes = 3", "idle_minute = 3"),
     "config.toml line 2: workstation.idle_minute: unknown key (known here: database, idle_minutes, slip_cents)"),
    (GOOD.replace('class = "shuffler"', 'class = "shufler"'),
     "config.toml line 11: tables[1].devices[1].class: unknown device class 'shufler' (one of shuffler, shoe, "
     "progressive, rng)"),
    (GOOD.replace("col = 2\n", "colour = 2\n"), "config.toml line 8: tables[1].colour: unknown key"),
    # a key that is missing: the line of its table
    (GOOD.replace("row = 1\n", ""), "config.toml line 4: tables[1].row: give both row and col, or neither"),
    (GOOD.replace('serial = "SHF-1"\n', ""), "config.toml line 10: tables[1].devices[1]: missing key 'serial'"),
    (GOOD.replace('id = "T2"', 'id = "T1"'), "config.toml line 16: tables[2].id: table 'T1' is also at tables[1].id"),
    (GOOD.replace("idle_minutes = 3", "idle_minutes = -1"),
     "config.toml line 2: workstation.idle_minutes: minutes from 0 to 1440"),
    (GOOD + '\n[[tables.devices]]\nclass = "rng"\nserial = "RNG-9"\nurl = "COM9"\n',
     "config.toml line 20: tables[2].devices[1].class: profile 'sd' has no use for a rng: its starting position is "
     "counted by two-dice, never a random number"),
    (GOOD.replace('profile = "section6"', 'profile = "casino"').replace('"shuffler"', '"progressive"'),
     "config.toml line 11: tables[1].devices[1].class: profile 'casino' has no use for a progressive: it offers no "
     "progressive wager"),
    (GOOD + '\n[[tables]]\nid = "T3"\nprofile = "nj"\n[[tables.devices]]\nclass = "shoe"\nserial = "SHF-1"\n'
            'url = "COM1"\n',
     "config.toml line 24: tables[3].devices[1].serial: serial 'SHF-1' is also at tables[1].devices[1].serial"),
    ('[[tables]]\nid = "T1"\nprofile = "nj"\ndevices = [\n  {class = "shoe", serial = "A", url = "x"},\n'
     '  {class = "rng", serial = "B", url = "x"},\n]\n',
     "config.toml line 4: tables[1].devices[2].url: port 'x' is also at tables[1].devices[1].url"),
    ("[workstation]\n", "config.toml: missing key 'tables'"),
    (GOOD.replace('id = "T2"', 'id = "T2'), "config.toml line 16: invalid TOML: Illegal character"),
])
def test_a_bad_file_names_the_key_and_the_line(text, message):
    assert message in _error(text)


def test_a_file_that_cannot_be_read_is_named(tmp_path):
    with pytest.raises(ConfigError, match="nothere.toml: cannot read the configuration"):
        config.load(tmp_path / "nothere.toml")
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b'[[tables]]\nid = "\xff"\n')
    with pytest.raises(ConfigError, match="bad.toml: the configuration is not UTF-8"):
        config.load(bad)


def test_the_demo_floor_covers_every_rule_text_with_the_devices_it_uses():
    """Every rule text has a table, each with each device class its profile has a use for, and the
    demo configuration passes the same checks as a file. 000 is played as section6-even, its base
    wager paid 1 to 1 (docs/rule-settings.md e.)."""
    from app.rules.resources import names, profile
    from app.workstation import equipment
    serials = [f"{p}-{t}" for t, _, _, _ in DEMO_TABLES for p in ("SHF", "SHO", "PRG", "RNG")]
    c = demo_config({s: f"socket://127.0.0.1:{4000 + n}" for n, s in enumerate(serials)})
    assert len(c.tables) >= 6
    assert {profile(t.profile).rules.rule_text for t in c.tables} == {profile(n).rules.rule_text for n in names("rules")}
    assert {t.profile for t in c.tables} == {"section6-even", "nj", "casino", "face-up-ca", "sd"}
    for t in c.tables:
        assert {d.cls for d in t.devices} == set(equipment.uses(profile(t.profile).rules)), t
    assert equipment.uses(profile("sd").rules) == {}
    # the same through the file format: write it out as TOML and load it back
    lines = []
    for t in c.tables:
        lines += ["[[tables]]", f'id = "{t.id}"', f'profile = "{t.profile}"', f"row = {t.row}", f"col = {t.col}"]
        for d in t.devices:
            lines += ["[[tables.devices]]", f'class = "{d.cls}"', f'serial = "{d.serial}"', f'url = "{d.url}"']
    assert config.parse("\n".join(lines), "demo.toml") == c.__class__(c.tables, source="demo.toml")


@pytest.mark.parametrize("limits,message", [
    # 003 Minimum and Maximum Wagers on the Bonus: $100.00 at most; a table may only lower it
    ("fortune = { min = 100, max = 50000 }",
     "config.toml line 6: tables[1].limits.fortune: fortune.max: $500.00 is over the maximum $100.00"),
    ("bogus = { min = 1, max = 2 }",
     "config.toml line 6: tables[1].limits.bogus: bogus: profile 'casino' has no 'bogus' wager to limit"),
])
def test_a_table_limit_the_profile_does_not_allow_is_named_before_the_start(limits, message):
    text = f'[[tables]]\nid = "T1"\nprofile = "casino"\n\n[tables.limits]\n{limits}\n'
    assert message in _error(text)


def test_a_table_may_lower_its_profiles_limits():
    c = config.parse('[[tables]]\nid = "T1"\nprofile = "casino"\n[tables.limits]\nbase = { min = 2500, max = 300000 }\n',
                     "config.toml")
    assert c.tables[0].limits == {"base": {"min": 2500, "max": 300000}}


# -- the shifts (issue 16: configurable; default grave, day, swing) -----------------------------
SHIFTS = '[[tables]]\nid = "T1"\nprofile = "nj"\n'


def test_the_shifts_default_to_grave_day_and_swing():
    from datetime import date, datetime
    plan = config.parse(SHIFTS, "c.toml").shifts
    assert plan.names() == ["grave", "day", "swing"]
    assert [(s.start, s.end) for s in plan.of_day(date(2026, 11, 21))] == [
        (datetime(2026, 11, 21, 0), datetime(2026, 11, 21, 8)), (datetime(2026, 11, 21, 8), datetime(2026, 11, 21, 16)),
        (datetime(2026, 11, 21, 16), datetime(2026, 11, 22, 0))]


def test_configured_shifts_run_from_each_start_to_the_next_across_midnight():
    from datetime import date, datetime
    text = SHIFTS + '[[shifts]]\nname = "early"\nstart = "06:00"\n[[shifts]]\nname = "late"\nstart = "14:00"\n' \
                    '[[shifts]]\nname = "night"\nstart = "22:00"\n'
    plan = config.parse(text, "c.toml").shifts
    night = plan.shift_named("night", date(2026, 11, 21))
    assert (night.start, night.end) == (datetime(2026, 11, 21, 22), datetime(2026, 11, 22, 6))
    # 03:00 belongs to the night shift that started the evening before
    assert plan.shift_of(datetime(2026, 11, 22, 3)) == night
    assert plan.shift_of(datetime(2026, 11, 22, 6)).name == "early"
    assert night.label == "night 2026-11-21" and night.hours == "22:00–06:00"
    with pytest.raises(ValueError, match="unknown shift 'swing'; the shifts are early, late, night"):
        plan.shift_named("swing", date(2026, 11, 21))


@pytest.mark.parametrize("shifts, message", [
    ('[[shifts]]\nname = "a"\nstart = "8:00"\n', 'line 6: shifts[1].start: a time of day as "HH:MM" (00:00 to 23:59), got \'8:00\''),
    ('[[shifts]]\nname = "a"\nstart = "24:00"\n', "shifts[1].start: a time of day"),
    ('[[shifts]]\nname = "a"\n', "shifts[1]: missing key 'start'"),
    ('[[shifts]]\nname = "a"\nstart = "08:00"\nends = "16:00"\n', "shifts[1].ends: unknown key (known here: name, start)"),
    ('[[shifts]]\nname = "a"\nstart = "16:00"\n[[shifts]]\nname = "b"\nstart = "08:00"\n',
     "shift 'b' starts at 08:00, not after 'a' at 16:00: list the shifts in the order they start in the day"),
    ('[[shifts]]\nname = "a"\nstart = "08:00"\n[[shifts]]\nname = "a"\nstart = "16:00"\n', "two shifts are named 'a'"),
    ('shifts = []\n', "expected one [[shifts]] section per shift, at least one"),
])
def test_a_bad_shift_is_named_with_its_line(shifts, message):
    text = (shifts + SHIFTS) if shifts.startswith("shifts =") else (SHIFTS + shifts)
    assert message in _error(text)


# -- [shipping]: the log shipped in the background to the casino's server (issue 28) -------------
ONE_TABLE = '[[tables]]\nid = "T1"\nprofile = "sd"\n\n'


def test_shipping_is_read_with_its_defaults():
    assert config.parse(ONE_TABLE).shipping is None
    s = config.parse(ONE_TABLE + '[shipping]\nto = "postgresql://pit_ship@casino-db/casino"\n').shipping
    assert (s.to, s.every_seconds, s.alarm_lag_events, s.alarm_lag_seconds) == \
        ("postgresql://pit_ship@casino-db/casino", 5.0, None, 600.0)
    s = config.parse(ONE_TABLE + '[shipping]\nto = "postgresql://pit_ship@db/casino"\nevery_seconds = 0.5\n'
                     'alarm_lag_events = 5000\n').shipping
    assert (s.every_seconds, s.alarm_lag_events, s.alarm_lag_seconds) == (0.5, 5000, None)


@pytest.mark.parametrize("shipping, message", [
    ('to = "mysql://pit@db/casino"\n',
     "config.toml line 6: shipping.to: 'mysql://pit@db/casino' is not a PostgreSQL URL (postgresql://USER@HOST/DB)"),
    ('to = "postgresql://pit@db"\n', "line 6: shipping.to: 'postgresql://pit@db' names no database"),
    ('every_seconds = 5\n', "config.toml line 5: shipping: missing key 'to'"),
    ('to = "postgresql://pit@db/c"\nevery_second = 5\n',
     "line 7: shipping.every_second: unknown key (known here: alarm_lag_events, alarm_lag_seconds, every_seconds, to)"),
    ('to = "postgresql://pit@db/c"\nevery_seconds = 0\n', "line 7: shipping.every_seconds: seconds more than 0"),
    ('to = "postgresql://pit@db/c"\nalarm_lag_events = 1.5\n',
     "line 7: shipping.alarm_lag_events: a positive whole number of rows, got 1.5"),
    ('to = "postgresql://pit@db/c"\nalarm_lag_seconds = -1\n', "shipping.alarm_lag_seconds: seconds more than 0"),
])
def test_a_bad_shipping_section_is_named_with_its_line(shipping, message):
    assert message in _error(ONE_TABLE + "[shipping]\n" + shipping)


def test_the_chips_are_the_casinos_set_with_a_believable_default():
    """``[chips]`` (issue 34): the casino's chip values in cents, smallest first, and the difference
    of a count past which it is an alarm ($25 by default, docs/inventory.md)."""
    c = config.parse(ONE_TABLE)
    assert c.chips.denominations == (100, 500, 2500, 10000, 50000, 100000) and c.difference_alarm_cents == 2500
    c = config.parse(ONE_TABLE + "[chips]\ndenominations = [25, 100, 500, 2500]\ndifference_alarm_cents = 10000\n")
    assert c.chips.denominations == (25, 100, 500, 2500) and c.difference_alarm_cents == 10000
    assert c.chips.parse("4 x $0.25").cents == 100


@pytest.mark.parametrize("chips, message", [
    ("denominations = [500, 100]\n", "line 6: chips.denominations: the chip values are listed smallest first, "
                                     "got $5.00, $1.00"),
    ("denominations = [100, 100]\n", "line 6: chips.denominations: a chip value named twice: $1.00"),
    ("denominations = [0]\n", "line 6: chips.denominations: a chip's value is a whole number of cents from 1"),
    ("denominations = \"100\"\n", "line 6: chips.denominations: a list of chip values in cents"),
    ("difference_alarm_cents = 5\n", "line 5: chips: missing key 'denominations'"),
    ("denominations = [100]\ncolour = 1\n", "line 7: chips.colour: unknown key"),
    ("denominations = [100]\ndifference_alarm_cents = 2.5\n", "line 7: chips.difference_alarm_cents: whole cents"),
])
def test_a_bad_chips_section_is_named_with_its_line(chips, message):
    assert message in _error(ONE_TABLE + "[chips]\n" + chips)
