"""The rank tables precomputed into resources/rank-tables.npy (app/rules/rank_tables.py, issue 33):
the file is what the engine builds, for both wheel settings, and a process that ranks hands at
every profile's table reads it once and builds nothing."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

from app.engine import rank
from app.rules import rank_tables
from app.rules.resources import ResourceError, rank_tables as read_rank_tables

ROOT = Path(__file__).resolve().parents[2]


def test_the_file_holds_the_tables_the_engine_builds_for_both_wheel_settings(tmp_path):
    built = {w: rank.tables(w) for w in rank.WHEEL_SETTINGS}
    # written again from the engine's tables, the file is the same to the byte
    again = tmp_path / "rank-tables.npy"
    rank_tables.write(again)
    assert again.read_bytes() == rank_tables.FILE.read_bytes(), \
        "resources/rank-tables.npy is not the engine's tables: python -m app.rules.rank_tables writes it"
    # and read back, it is every key and score of every table
    read = rank_tables.read(rank_tables.FILE)
    for wheel in rank.WHEEL_SETTINGS:
        assert read[wheel] == built[wheel]
    # the settings differ where they must: A-2-3-4-5 second highest (001 11.3(b)) or lowest (002)
    wheel_straight = 2 * 3 * 5 * 7 * 41       # 2 3 4 5 A, unsuited: the product of their primes
    assert read["second"].unsuited[wheel_straight] > read["lowest"].unsuited[wheel_straight]


def test_a_ranker_given_the_files_tables_ranks_as_one_that_built_them():
    given = read_rank_tables()
    for wheel in rank.WHEEL_SETTINGS:
        a, b = rank.Ranker(wheel, given[wheel]), rank.Ranker(wheel)
        for hand in ([0, 13, 26, 39, 52], [12, 11, 10, 9, 8], [12, 0, 1, 2, 3], [52, 0, 1, 2, 3]):
            assert a.five(hand) == b.five(hand)
    with pytest.raises(ValueError, match="tables for the wheel 'lowest'"):
        rank.Ranker("second", given["lowest"])


def test_a_file_that_is_not_rank_tables_is_refused_naming_it(tmp_path):
    bad = tmp_path / "rank-tables.npy"
    np.save(bad, np.zeros((3, 3), dtype=np.int64))
    with pytest.raises(rank_tables.RankTablesError, match=rf"{bad}: expected int32 rows of 4 columns"):
        rank_tables.read(bad)
    bad.write_bytes(b"not numpy")
    with pytest.raises(rank_tables.RankTablesError, match=rf"{bad}: not a rank tables file"):
        rank_tables.read(bad)
    with pytest.raises(rank_tables.RankTablesError, match="no such file"):
        rank_tables.read(tmp_path / "missing.npy")
    assert issubclass(ResourceError, ValueError)


def test_a_process_ranking_at_every_profiles_table_reads_the_file_once_and_builds_nothing():
    # a process of its own: the tables are built or read once per process, and this one's may
    # already have them
    script = textwrap.dedent("""
        import app.engine.rank as rank
        builds = []
        build = rank._build
        rank._build = lambda wheel: builds.append(wheel) or build(wheel)
        from app.rules import resources
        reads = []
        try:
            from app.rules import rank_tables
        except ImportError:                  # before issue 33 there was no file: every process built them
            pass
        else:
            read = rank_tables.read
            rank_tables.read = lambda path: reads.append(path) or read(path)
        for name in resources.names("rules"):
            p = resources.profile(name)
            p.ranker().five([0, 13, 26, 39, 52])
            p.house()
        print(len(builds), len(reads), sorted({resources.profile(n).wheel for n in resources.names("rules")}))
    """)
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    builds, reads, wheels = out.stdout.split(maxsplit=2)
    assert wheels.strip() == "['lowest', 'second']"      # both settings are played (002 ranks the wheel lowest)
    assert (int(builds), int(reads)) == (0, 1)
