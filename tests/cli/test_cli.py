"""The real ``pitdesk`` command, run as a process: JSON out, exit 2 on bad input."""

import json
import subprocess
import sys
from pathlib import Path

PITDESK = [str(Path(sys.executable).with_name("pitdesk"))]


def run(*args, stdin=None):
    p = subprocess.run(PITDESK + list(args), input=stdin, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def test_help_names_the_default_profile():
    rc, out, _ = run("hand", "rank", "--help")
    assert rc == 0 and "default: casino" in out


def test_rank_compare_legal_set_bonus():
    assert json.loads(run("hand", "rank", "As", "Ah", "Ad", "Ac", "Jk")[1]) == {"category": "five_aces", "value": [14]}
    # 003 IMPORTANT NOTES 3(a): Ace, Joker, King, 7, 5 is the flush A-K-Q-7-5: a copy of the natural one
    assert json.loads(run("hand", "compare", "As Jk Ks 7s 5s", "Ah Kh Qh 7h 5h")[1]) == {"result": "copy"}
    assert json.loads(run("hand", "compare", "As Ks | Ah Qh")[1]) == {"result": "higher"}
    out = json.loads(run("hand", "legal", "Ah Qd 9c 5h 3d", "As Kc")[1])
    assert out["legal"] is False and "foul" in out["reason"]
    # 003 STRAIGHTS... 6, the text's own example
    out = json.loads(run("hand", "set", "--house-way", "casino", "Ah Jk Jh Js Jc Kh 2h")[1])
    assert sorted(out["low"]) == ["Ah", "Jk"] and sorted(out["high"]) == ["2h", "Jc", "Jh", "Js", "Kh"]
    out = json.loads(run("hand", "bonus", "As Ks Qs Js Ts Kh Qh")[1])
    assert out["fortune"] == "royal_plus_royal_match" and out["progressive"] == "natural_royal"


def test_profile_changes_the_wheel():
    # 002: A-2-3-4-5 is the lowest straight; 003: second highest
    a, b = "Ah 2d 3c 4h 5d", "Kh Qd Jc Th 9d"
    assert json.loads(run("hand", "compare", a, b)[1]) == {"result": "higher"}
    assert json.loads(run("hand", "compare", a, b, "--profile", "face-up-ca")[1]) == {"result": "lower"}


def test_bad_card_exits_2_and_names_the_token():
    rc, out, err = run("hand", "rank", "As", "Ks", "Qs", "Js", "Xs")
    assert rc == 2 and out == "" and "'Xs'" in err


def test_bad_profile_exits_2():
    rc, _, err = run("hand", "rank", "As Ks", "--profile", "vegas")
    assert rc == 2 and "unknown rule profile 'vegas'" in err


def test_batch_keeps_order_and_exits_2_after_the_last_line():
    lines = "As Ks Qs Js Ts\nAs Zs\n2c 2d 2h 2s 3c\n"
    rc, out, _ = run("hand", "rank", "--batch", stdin=lines)
    rows = [json.loads(x) for x in out.splitlines()]
    assert rc == 2 and len(rows) == 3
    assert rows[0]["category"] == "royal_flush"
    assert "'Zs'" in rows[1]["error"]
    assert rows[2] == {"category": "four_of_a_kind", "value": [2, 3]}


def test_batch_set_all_good_exits_0():
    rc, out, _ = run("hand", "set", "--batch", stdin="Kh Qd Th 7c 5s Ah 8d\n2s 3s 4s 5s 6s 7s 8s\n")
    rows = [json.loads(x) for x in out.splitlines()]
    assert rc == 0 and len(rows) == 2
    # 003 NO PAIR: K, Q, 10, 7, 5, A, 8 = A, 10, 7, 5, 8 / KQ
    assert sorted(rows[0]["low"]) == ["Kh", "Qd"]


def test_batch_compare_wrong_count():
    rc, out, _ = run("hand", "compare", "--batch", stdin="As Ks Qs Js Ts | Ah Kh\n")
    assert rc == 2 and "expected 5 cards, got 2" in json.loads(out)["error"]


def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path):
    # `pitdesk hand rank --batch ... | head -1`: the pipe closes under the writer
    hands = tmp_path / "hands.txt"
    hands.write_text("As Ks Qs Js Ts\n" * 200_000)
    with open(hands) as stdin:
        p = subprocess.Popen(PITDESK + ["hand", "rank", "--batch"], stdin=stdin, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE)
    first = p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    rc = p.wait(timeout=60)
    assert json.loads(first) == {"category": "royal_flush", "value": [14]}
    assert "Traceback" not in err and "BrokenPipeError" not in err and err == ""
    assert rc == 141   # as a process ended by SIGPIPE


def test_json_nested_too_deeply_is_a_bad_file_not_a_traceback(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000)
    lines = tmp_path / "deep.jsonl"
    good = (Path(__file__).parents[2] / "docs" / "events" / "section6-two-rounds.jsonl").read_text().splitlines()[0]
    lines.write_text(good + "\n" + "{\"a\":" * 100_000 + "\n")
    for args, where in ((["settle", str(deep)], str(deep)),
                        (["round", "replay", str(lines)], f"{lines}:2"),
                        (["analyze", "paytables", "--counts", str(deep)], str(deep))):
        rc, out, err = run(*args)
        assert rc == 2 and out == "" and "Traceback" not in err, (args, err)
        assert where in err and "nested too deeply" in err, err
