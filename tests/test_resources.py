"""Rule profiles, pay tables and house ways are validated on load; a bad file names file, key, value."""

import shutil

import pytest

from app import resources
from app.resources import (ResourceError, load_house_way_file, load_paytable_file, load_profile_file, names,
                           paytable, profile)


def test_every_shipped_file_loads():
    assert names("rules") == ["casino", "face-up-ca", "nj", "sd", "section6"]
    for n in names("rules"):
        profile(n)
    for n in names("paytables"):
        assert paytable(n).citation
    for n in names("houseways"):
        resources.house_way_table(n)


def test_profile_wheel_settings_cite_their_texts():
    # 003 IMPORTANT NOTES 2, 001 11.3(b), 004(1): second highest; 002: lowest
    assert {n: profile(n).wheel for n in names("rules")} == {
        "casino": "second", "nj": "second", "sd": "second", "section6": "second", "face-up-ca": "lowest"}
    assert profile("face-up-ca").house_way == "face-up"


def _copy(tmp_path, folder, name):
    dst = tmp_path / f"{name}.toml"
    shutil.copy(resources.RESOURCES / folder / f"{name}.toml", dst)
    return dst


def _edit(path, old, new):
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))


def test_unknown_profile_key_names_file_key_and_value(tmp_path):
    p = _copy(tmp_path, "rules", "casino")
    p.write_text(p.read_text().replace("[paytables]", 'colour = "green"\n\n[paytables]'))
    with pytest.raises(ResourceError) as e:
        load_profile_file(p)
    assert "casino.toml" in str(e.value) and "'colour'" in str(e.value) and "green" in str(e.value)


def test_wrong_type_in_profile(tmp_path):
    p = _copy(tmp_path, "rules", "casino")
    _edit(p, 'wheel = "second"', "wheel = 2")
    with pytest.raises(ResourceError, match="casino.toml: key 'wheel' must be a string, got 2"):
        load_profile_file(p)


def test_impossible_value_in_profile(tmp_path):
    p = _copy(tmp_path, "rules", "casino")
    _edit(p, 'wheel = "second"', 'wheel = "middle"')
    with pytest.raises(ResourceError, match="key 'wheel' must be one of .* got 'middle'"):
        load_profile_file(p)


def test_profile_pay_table_of_the_wrong_kind(tmp_path):
    p = _copy(tmp_path, "rules", "casino")
    _edit(p, 'envy = "envy-003"', 'envy = "fortune-003"')
    with pytest.raises(ResourceError, match="'paytables.envy' value 'fortune-003' is a fortune table"):
        load_profile_file(p)


def test_unknown_pay_table_line(tmp_path):
    p = _copy(tmp_path, "paytables", "fortune-003")
    _edit(p, "straight = 2", "straight = 2\nsix_of_a_kind = 9")
    with pytest.raises(ResourceError, match="fortune-003.toml: unknown line 'pays.six_of_a_kind' \\(value 9\\)"):
        load_paytable_file(p)


def test_negative_and_fractional_odds_are_refused(tmp_path):
    p = _copy(tmp_path, "paytables", "fortune-003")
    _edit(p, "straight = 2", "straight = -2")
    with pytest.raises(ResourceError, match="'pays.straight' must be positive, got -2"):
        load_paytable_file(p)
    _edit(p, "straight = -2", "straight = 2.5")
    with pytest.raises(ResourceError, match="'pays.straight' must be a whole number"):
        load_paytable_file(p)


def test_house_way_with_a_gap_is_refused(tmp_path):
    p = _copy(tmp_path, "houseways", "casino")
    _edit(p, 'high = [7, 10]\nlow = [7, 10]', 'high = [7, 10]\nlow = [8, 10]')
    with pytest.raises(ResourceError, match="casino.toml: key 'two_pair' does not cover the pairs 8s and 7s"):
        load_house_way_file(p)


def test_broken_toml_is_named(tmp_path):
    p = tmp_path / "casino.toml"
    p.write_text("name = \n")
    with pytest.raises(ResourceError, match="casino.toml: not valid TOML"):
        load_profile_file(p)


def test_unknown_profile_lists_the_known_ones():
    with pytest.raises(ResourceError, match="unknown rule profile 'vegas'; known: casino, face-up-ca"):
        profile("vegas")
