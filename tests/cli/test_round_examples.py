"""Every example round in docs/rounds/ settles through the real command, one per profile and mode."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from app.rules.resources import names, profile

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = sorted((ROOT / "docs" / "rounds").glob("*.json"))
PITDESK = str(Path(sys.executable).with_name("pitdesk"))


def test_there_is_an_example_for_every_profile_and_banking_mode():
    have = {p.stem for p in EXAMPLES}
    want = {f"{n}-{m}" for n in names("rules") for m in profile(n).rules.banking_modes}
    assert want <= have, want - have


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_example_settles(path):
    p = subprocess.run([PITDESK, "settle", str(path)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["profile"] == json.loads(path.read_text())["profile"]
    assert sum(out["net_by_party"].values()) == 0
    assert all(m["rule"] for m in out["ledger"])  # every movement cites its rule
    assert out["results"]


def test_bad_round_files_exit_2_naming_the_fault(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    p = subprocess.run([PITDESK, "settle", str(bad)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "not valid JSON" in p.stderr
    obj = json.loads((ROOT / "docs" / "rounds" / "casino-house.json").read_text())
    for k in ("cards", "high", "low"):
        obj["seats"][1][k] = obj["seats"][0][k]
    bad.write_text(json.dumps(obj))
    p = subprocess.run([PITDESK, "settle", str(bad)], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "is dealt to both seat 1 and seat 2" in p.stderr and p.stdout == ""
    p = subprocess.run([PITDESK, "settle", str(tmp_path / "missing.json")], capture_output=True, text=True)
    assert p.returncode == 2 and "cannot read round file" in p.stderr
