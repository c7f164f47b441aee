"""Whatever a round file or a command line holds, ``pitdesk`` ends with exit 0 (a valid round) or 2
naming the fault, and never a traceback (issue 26, finding 7): hypothesis over random JSON, valid
rounds with one field replaced by anything, random bytes, and argument lists for a few commands,
through the command line's own ``main``. (argparse's own refusals end in SystemExit(2).)"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings, strategies as st

from app.cli.main import main

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "rounds").glob("*.json"))
FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])

scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=False),
                    st.text(max_size=80))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=5),
                                                       st.dictionaries(st.text(max_size=12), inner, max_size=5)),
                      max_leaves=20)
# the keys a round file has, so random values land where the parser looks
KEYS = ["profile", "banking", "mode", "seat", "dealer", "cards", "seats", "high", "low", "wagers", "base",
        "fortune", "bettors", "name", "player", "prepaid_commission", "surrender", "meter", "rng", "additional",
        "chips", "wager", "action_seat", "limits"]


def run(capsys, argv: list[str]) -> tuple[int, str]:
    try:
        code = main(argv)
    except SystemExit as e:       # argparse: usage and exit 2
        code = e.code
    err = capsys.readouterr().err
    return code, err


def check(code: int, err: str) -> None:
    assert "Traceback" not in err, err
    assert code in (0, 2), (code, err)
    if code == 2:
        assert err.strip(), "exit 2 says why"


def _replace(obj, path: list, value):
    """``obj`` with the item at ``path`` (indexes into its nested lists and dicts) replaced."""
    if not path:
        return value
    if isinstance(obj, dict) and obj:
        keys = sorted(obj)
        k = keys[path[0] % len(keys)]
        return {**obj, k: _replace(obj[k], path[1:], value)}
    if isinstance(obj, list) and obj:
        i = path[0] % len(obj)
        return obj[:i] + [_replace(obj[i], path[1:], value)] + obj[i + 1:]
    return value


@FUZZ
@given(example=st.sampled_from(EXAMPLES), path=st.lists(st.integers(0, 20), max_size=5),
       value=st.one_of(values, st.sampled_from(["\x1b[2J", "\u202eT1", "\x00", "a" * 5000, "9" * 400]),
                       st.fixed_dictionaries({}, optional={k: values for k in KEYS})))
def test_a_round_with_any_field_replaced_settles_or_is_refused(tmp_path_factory, capsys, example, path, value):
    f = tmp_path_factory.mktemp("fuzz") / "r.json"
    f.write_text(json.dumps(_replace(json.loads(example.read_text()), path, value)))
    check(*run(capsys, ["settle", str(f)]))


@FUZZ
@given(obj=st.one_of(values, st.dictionaries(st.sampled_from(KEYS), values, max_size=8)))
def test_any_json_is_a_round_or_refused(tmp_path_factory, capsys, obj):
    f = tmp_path_factory.mktemp("fuzz") / "r.json"
    f.write_text(json.dumps({"profile": "casino", **obj} if isinstance(obj, dict) else obj))
    check(*run(capsys, ["settle", str(f)]))


@FUZZ
@given(data=st.binary(max_size=300))
def test_any_bytes_are_refused_or_a_round(tmp_path_factory, capsys, data):
    f = tmp_path_factory.mktemp("fuzz") / "r.json"
    f.write_bytes(data)
    check(*run(capsys, ["settle", str(f)]))


words = st.one_of(st.text(max_size=20), st.sampled_from(["--date", "--shift", "--json", "--db", "--out", "--paper",
                                                          "9999-12-31", "2026-11-21", "grave", "swing", "-1", "",
                                                          "As Kd", "Jk", "--house-way", "casino", "--profile"]))


@FUZZ
@given(command=st.sampled_from([["hand", "rank"], ["hand", "compare"], ["hand", "set"], ["hand", "legal"],
                                ["report", "shift"], ["settle"], ["deal"]]),
       args=st.lists(words, max_size=7))
def test_any_arguments_are_done_or_refused(tmp_path_factory, capsys, command, args):
    # a database and an output folder of the test's own, so nothing is written outside it
    d = tmp_path_factory.mktemp("args")
    argv = [*command, *[a.replace("--db", f"--db={d / 'x.db'}") if a == "--db" else a for a in args]]
    if command[0] == "report":
        argv += ["--db", str(d / "none.db")]
    check(*run(capsys, [a for a in argv if not (command[0] == "report" and a == "--out")]))


# -- the configuration ----------------------------------------------------------------------------------
CONFIG = ROOT / "docs" / "workstation.example.toml"


def _toml(v) -> str | None:
    """A value as TOML (inline tables and arrays); None for what TOML cannot say (null)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v) if v == v and v not in (float("inf"), float("-inf")) else None
    if isinstance(v, str):
        return json.dumps(v)           # a JSON string is a TOML basic string
    if isinstance(v, list):
        items = [x for x in (_toml(i) for i in v) if x is not None]
        return "[" + ", ".join(items) + "]"
    if isinstance(v, dict):
        items = [f"{json.dumps(k)} = {t}" for k, t in ((k, _toml(x)) for k, x in v.items()) if t is not None]
        return "{" + ", ".join(items) + "}"
    return None


def _config_text(obj: dict) -> str:
    return "\n".join(f"{json.dumps(k)} = {t}" for k, t in ((k, _toml(v)) for k, v in obj.items()) if t is not None)


def _report_with(tmp: Path, text: bytes, capsys) -> tuple[int, str]:
    cfg = tmp / "workstation.toml"
    cfg.write_bytes(text)
    return run(capsys, ["report", "shift", "--config", str(cfg), "--db", str(tmp / "none.db"), "--date",
                        "2026-11-21", "--shift", "swing", "--json"])


@FUZZ
@given(path=st.lists(st.integers(0, 20), max_size=5), value=values)
def test_a_configuration_with_any_field_replaced_is_refused_in_one_line(tmp_path_factory, capsys, path, value):
    import tomllib
    obj = _replace(tomllib.loads(CONFIG.read_text()), path, value)
    if not isinstance(obj, dict):        # the whole file replaced: a TOML file is a table
        obj = {"workstation": obj}
    code, err = _report_with(tmp_path_factory.mktemp("cfg"), _config_text(obj).encode(), capsys)
    # a good configuration still has no database here: exit 2 either way, and one line saying why
    assert "Traceback" not in err, err
    assert code == 2 and len(err.strip().splitlines()) == 1 and err.startswith("pitdesk: error: "), (code, err)


@FUZZ
@given(data=st.one_of(st.binary(max_size=300), st.text(max_size=300).map(str.encode)))
def test_any_bytes_as_a_configuration_are_refused_in_one_line(tmp_path_factory, capsys, data):
    code, err = _report_with(tmp_path_factory.mktemp("cfg"), data, capsys)
    assert "Traceback" not in err, err
    assert code == 2 and len(err.strip().splitlines()) == 1 and err.startswith("pitdesk: error: "), (code, err)
