"""Every input read with a limit (issue 35, finding 8): an endless file (/dev/zero, /dev/urandom)
given as a key, an export, a configuration, or poured into stdin as a PIN or a batch, ends in exit
2 naming the input and its limit, never a traceback, having read no more than the limit: each
command runs in its own process with its memory capped at 1 GB (it read 2.4-4.0 GB in 6 s before)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PITDESK = str(Path(sys.executable).with_name("pitdesk"))
ROUND = str(ROOT / "docs" / "rounds" / "casino-house.json")
CAP = 1 << 30     # bytes of address space: Qt and numpy fit, a read of gigabytes does not


def capped() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (CAP, CAP))


@pytest.fixture(scope="module")
def log(tmp_path_factory):
    """A log with its first user, and its install key, for the commands that open one."""
    d = tmp_path_factory.mktemp("endless")
    env = {**os.environ, "PITDESK_HOME": str(d / "home"), "QT_QPA_PLATFORM": "offscreen"}
    p = subprocess.run([PITDESK, "users", "init", "admin", "--db", str(d / "pit.db"), "--pin-stdin"],
                       input="1111\n1111\n", capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    return d / "pit.db", env


CASES = {
    "--key": (["audit", "verify", "--db", "{db}", "--key", "{file}"], None, "a key file is at most 4,096 bytes"),
    "PITDESK_KEY_FILE": (["audit", "verify", "--db", "{db}"], None, "a key file is at most 4,096 bytes"),
    "--export": (["audit", "verify", "--export", "{file}"], None, "an export line is at most 1,000,000"),
    "gui --config": (["gui", "--config", "{file}"], None, "a configuration is at most 1,000,000 bytes"),
    "round settle --config": (["round", "settle", "--config", "{file}", "--table", "T1", "--as", "admin", ROUND],
                              None, "a configuration is at most 1,000,000 bytes"),
    "--pin-stdin": (["users", "add", "bob", "--role", "dealer", "--db", "{db}", "--as", "admin", "--pin-stdin"],
                    "stdin", "a PIN on stdin is at most 256 characters"),
    "hand rank --batch": (["hand", "rank", "--batch"], "stdin", "a line of --batch input is at most 1,000,000"),
}


@pytest.fixture(scope="module")
def binary(tmp_path_factory) -> str:
    """Bytes that are not text from the first on (a PNG's signature, then noise), larger than any
    limit: the same every run, where /dev/urandom's first line is now and then valid text."""
    import random
    f = tmp_path_factory.mktemp("binary") / "noise.png"
    f.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe" + random.Random(35).randbytes(3_000_000))
    return str(f)


def run(log, case: str, endless: str):
    db, env = log
    argv, stdin, _ = CASES[case]
    argv = [a.format(db=db, file=endless) for a in argv]
    if case == "PITDESK_KEY_FILE":
        env = {**env, "PITDESK_KEY_FILE": endless}
    with open(endless if stdin else os.devnull, "rb") as feed:
        p = subprocess.run([PITDESK, *argv], stdin=feed, capture_output=True, env=env, timeout=120,
                           preexec_fn=capped)
    err = p.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err and "MemoryError" not in err, err
    return p, err


@pytest.mark.parametrize("case", sorted(CASES))
def test_an_endless_input_is_refused_naming_it_and_its_limit(log, case):
    p, err = run(log, case, "/dev/zero")
    words, stdin = CASES[case][2], CASES[case][1]
    if case == "PITDESK_KEY_FILE":
        # verify goes on without the seals, saying why: the key is never taken from an endless file
        assert p.returncode == 0, err
        assert words in p.stdout.decode() and '"seals": "not checked"' in p.stdout.decode()
        return
    assert p.returncode == 2 and words in err, err
    if not stdin and case != "--export":
        assert "/dev/zero" in err and "it is a character device, not a file" in err, err


@pytest.mark.parametrize("case", sorted(CASES))
def test_endless_noise_ends_in_exit_2_having_read_no_more_than_a_limit(log, case):
    """/dev/urandom: whatever its bytes say this run, the command ends, in memory, saying why."""
    p, err = run(log, case, "/dev/urandom")
    assert p.returncode == (0 if case == "PITDESK_KEY_FILE" else 2), err
    assert case == "PITDESK_KEY_FILE" or err.strip(), "exit 2 says why"


@pytest.mark.parametrize("case", ["--export", "--pin-stdin", "hand rank --batch"])
def test_binary_input_is_named_as_not_text(log, binary, case):
    p, err = run(log, case, binary)
    assert p.returncode == 2, err
    assert "is not UTF-8 text" in err, err
    if case == "--export":
        assert f"{binary}:1: an export line is not UTF-8 text" in err, err
