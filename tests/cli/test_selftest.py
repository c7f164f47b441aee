"""``pitdesk --self-test`` from the source tree: every check, in order, as JSON lines, exit 0; a
check that fails is named, the others still run, exit 1. (``make test-dist`` runs the same command
in the frozen build.)"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from contextlib import redirect_stderr
from pathlib import Path

from app.cli import selftest
from app.rules.resources import names

PITDESK = str(Path(sys.executable).with_name("pitdesk"))
ROOT = Path(__file__).resolve().parents[2]
PROFILES = names("rules")
CHECKS = ["qt_plugins", "main_window", *(f"settle_{p}" for p in PROFILES), "chart", "report_pdf", "printers",
          "audit_db"]


def test_every_check_passes_and_is_one_json_line_leaving_the_users_folders_alone(tmp_path):
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_DATA_HOME=str(tmp_path / "data"),
               XDG_CONFIG_HOME=str(tmp_path / "config"), HOME=str(tmp_path / "home"))
    env.pop("PITDESK_HOME", None)
    r = subprocess.run([PITDESK, "--self-test"], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [x["check"] for x in rows] == CHECKS
    assert all(x["ok"] and isinstance(x["seconds"], float) for x in rows), rows
    by = {x["check"]: x for x in rows}
    assert by["qt_plugins"]["platform"] == "offscreen" and by["qt_plugins"]["frozen"] is False
    # the demo's seven tables, and one dealt by hand for each profile no demo table plays
    floor = selftest.floor_tables()
    assert by["main_window"]["tables"] == [t for t, *_ in floor]
    assert [t for t, *_ in floor[:7]] == ["T1", "T2", "T3", "T4", "T5", "T6", "T7"]
    assert {p for _, p, _, _ in floor} == set(PROFILES) and all(not devices for *_, devices in floor[7:])
    assert by["main_window"]["devices_online"] == 22       # every simulated device, over loopback TCP
    assert by["main_window"]["fonts"] == ["DejaVu Sans", "DejaVu Sans Mono"]   # shipped, resources/fonts/
    for p in PROFILES:
        s = by[f"settle_{p}"]
        assert s["round_file"].startswith(p + "-") and sum(s["net_by_party_cents"].values()) == 0
        assert all(isinstance(c, int) for c in s["net_by_party_cents"].values())
    # the rounds' payout slips are numbered in sequence in the one log; the shift report counts the rounds
    slips = sorted(n for p in PROFILES for n in by[f"settle_{p}"]["slips"])
    assert slips == list(range(1, len(slips) + 1))
    assert by["report_pdf"]["report"] == "shift" and by["report_pdf"]["pages"] >= 1
    assert by["report_pdf"]["rounds"] == len(PROFILES)
    assert by["report_pdf"]["chain_head"].startswith(f"{by['audit_db']['head_seq']}:") or \
        int(by["report_pdf"]["chain_head"].split(":")[0]) <= by["audit_db"]["head_seq"]
    assert by["chart"]["curve_pixels_sampled"] >= 100 and by["chart"]["exported_png_bytes"] > 1000
    assert isinstance(by["printers"]["printers"], list)
    assert by["audit_db"]["rounds_in_log"] == len(PROFILES) and by["audit_db"]["rows"] == by["audit_db"]["head_seq"]
    assert f"self-test passed: {len(CHECKS)} checks" in r.stderr
    # its database, key and settings were in a temporary folder of its own
    assert not (tmp_path / "data").exists() and not (tmp_path / "config").exists()
    assert not (tmp_path / "home" / ".local" / "share" / "pitdesk").exists()


def test_a_failing_check_is_named_the_others_still_run_and_the_exit_is_1(tmp_path, monkeypatch, qapp):
    rounds = tmp_path / "rounds"
    rounds.mkdir()
    for path in (ROOT / "docs" / "rounds").glob("*-house.json"):
        (rounds / path.name).write_text(path.read_text())
    (rounds / "face-up-ca-player-dealer.json").write_text((ROOT / "docs/rounds/face-up-ca-player-dealer.json").read_text())
    bad = json.loads((rounds / "casino-house.json").read_text())
    bad["seats"][0]["wagers"]["base"] = 1_000_000_000       # $10,000,000.00: over the table's maximum
    (rounds / "casino-house.json").write_text(json.dumps(bad))
    monkeypatch.setattr(selftest, "ROUNDS", rounds)
    monkeypatch.delenv("PITDESK_HOME", raising=False)
    out, err = io.StringIO(), io.StringIO()
    with redirect_stderr(err):
        code = selftest.run(None, out)
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert code == 1
    assert [x["check"] for x in rows] == CHECKS
    failed = [x for x in rows if not x["ok"]]
    assert [x["check"] for x in failed] == ["settle_casino"]
    assert "T3" in failed[0]["error"] and "maximum" in failed[0]["error"], failed[0]["error"]
    assert "self-test FAILED: settle_casino" in err.getvalue()
    assert "PITDESK_HOME" not in os.environ     # put back as it was
