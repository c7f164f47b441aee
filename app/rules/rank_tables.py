"""The rank tables of app/engine/rank.py, precomputed into ``resources/rank-tables.npy`` (issue 33).

Building the tables (``rank._build``: every flush, every multiset of ranks, with and without the
joker, scored one by one) takes about a quarter of a second for each wheel setting, and a floor
with a table that ranks the wheel lowest (002) needs both: half a second of every start, before
the first round could be dealt. The file holds both settings' scores, read in a few milliseconds.

One row a key, int32: ``(table, key, score with the wheel second, score with the wheel lowest)``,
``table`` 0 for the flush table, 1 for the others' (a product of primes), 2 for the two-card low
hands; rows in that order and by key. The two settings share their keys: only the scores of
straights and straight flushes differ (000(c)(2)(iii), (vii); 000(c)(4)).

The file is made by this module, from the engine's own tables:

    python -m app.rules.rank_tables            writes resources/rank-tables.npy

and tests/rules/test_rank_tables.py builds the tables again and holds the file equal to them, so
a change to the rankings that is not written into the file fails the tests.
"""

from __future__ import annotations

import sys
from pathlib import Path

from app.engine.rank import WHEEL_LOWEST, WHEEL_SECOND, WHEEL_SETTINGS, Tables, tables

# resources/, found as app/rules/resources.py finds it (RESOURCES)
FILE = Path(__file__).resolve().parents[2] / "resources" / "rank-tables.npy"
TABLES = ("flush", "unsuited", "low")
COLUMNS = ("table", "key", WHEEL_SECOND, WHEEL_LOWEST)


class RankTablesError(ValueError):
    """The file cannot be used; the message names it and why."""


def to_array(by_wheel: dict[str, Tables]):
    """The rows of the file (see the module's text) from each wheel setting's tables."""
    import numpy as np
    second, lowest = by_wheel[WHEEL_SECOND], by_wheel[WHEEL_LOWEST]
    rows = []
    for n, name in enumerate(TABLES):
        a, b = getattr(second, name), getattr(lowest, name)
        if a.keys() != b.keys():
            raise RankTablesError(f"the {name} table's keys differ between the wheel settings")
        rows += [(n, key, a[key], b[key]) for key in sorted(a)]
    return np.array(rows, dtype=np.int32)


def from_array(rows, where: str = "the rank tables") -> dict[str, Tables]:
    """Each wheel setting's ``Tables`` from the file's rows."""
    import numpy as np
    if rows.dtype != np.int32 or rows.ndim != 2 or rows.shape[1] != len(COLUMNS):
        raise RankTablesError(f"{where}: expected int32 rows of {len(COLUMNS)} columns {COLUMNS}, got {rows.dtype} "
                              f"of shape {rows.shape}")
    kind = rows[:, 0]
    out: dict[str, dict[str, dict[int, int]]] = {w: {} for w in WHEEL_SETTINGS}
    for n, name in enumerate(TABLES):
        part = rows[kind == n]
        if not len(part):
            raise RankTablesError(f"{where}: no rows of the {name} table")
        keys = part[:, 1].tolist()
        for c, wheel in enumerate((WHEEL_SECOND, WHEEL_LOWEST), start=2):
            out[wheel][name] = dict(zip(keys, part[:, c].tolist()))
    return {w: Tables(w, t["flush"], t["unsuited"], t["low"]) for w, t in out.items()}


def read(path: Path = FILE) -> dict[str, Tables]:
    """Each wheel setting's tables from ``path``; ``RankTablesError`` naming the file."""
    import numpy as np
    try:
        rows = np.load(path, allow_pickle=False)
    except FileNotFoundError:
        raise RankTablesError(f"{path}: no such file (python -m app.rules.rank_tables writes it)") from None
    except (OSError, ValueError) as e:
        raise RankTablesError(f"{path}: not a rank tables file: {e}") from None
    return from_array(rows, str(path))


def write(path: Path = FILE) -> None:
    """The engine's tables built (both wheel settings) and written to ``path``."""
    import numpy as np
    np.save(path, to_array({w: tables(w) for w in WHEEL_SETTINGS}), allow_pickle=False)


if __name__ == "__main__":
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else FILE
    write(out)
    print(f"wrote {out}")
