"""The read models as the last passing figure check derived them, kept sealed (issue 35, finding 1).

A report or a hold checks every read model against the log before it reads one
(app/store/figures_check.py). Deriving them again from the first row costs what the log's
length costs (about 6 s for 130,000 rows), so the derivation a check made is kept: the derived
tables in ``heads/<db_id>.derived.db`` and the projector's state (each table's engine state) in
``heads/<db_id>.derived.json``, beside the start-up checkpoint, sealed with the install key over
the log's id, the last row folded (its seq and hash) and the digests of both. The next check
starts from it and folds only the rows written since; the comparison is still of every stored
row, so an edit to an old row of a read model, checked long ago, is found all the same.

What is kept is the log's own derivation, never the file's read models: a kept state is used only
when its seal holds with this install's key, its digests match, and the log still holds its last
row with the same hash; anything else (no key, a moved or edited file, a log restored to an
earlier row) is ignored and the read models derived from the first row, as ``audit verify`` does.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import pickle
import sqlite3
from pathlib import Path

from . import chain, heads
from .derive import Derived
from .schema import MIGRATIONS, READ_MODELS

# a derivation kept by another version of the read models is not used
SCHEMA = f"{max(v for v, *_ in MIGRATIONS)}:{','.join(READ_MODELS)}"


def _files(head_file: Path) -> tuple[Path, Path]:
    return head_file.with_name(head_file.stem + ".derived.db"), head_file.with_name(head_file.stem + ".derived.json")


def _canonical(f: dict) -> str:
    return json.dumps(f, sort_keys=True, separators=(",", ":"))


def load(head_file: Path, key: bytes, db_id: str, conn: sqlite3.Connection) -> tuple[Derived, int] | None:
    """The kept derivation of the log on ``conn`` and the last row it folded, or None (derive
    from the first row)."""
    db_file, state_file = _files(head_file)
    try:
        r = json.loads(state_file.read_text(encoding="utf-8"))
        f = {k: r[k] for k in ("kind", "db_id", "seq", "hash", "schema", "db_sha256", "state_sha256")}
        if f["kind"] != "derived" or f["db_id"] != db_id or f["schema"] != SCHEMA or not chain.seal_ok(key, _canonical(f), str(r["hmac"])):
            return None
        state = base64.b64decode(r["state"])
        data = db_file.read_bytes()
        if hashlib.sha256(state).hexdigest() != f["state_sha256"] or hashlib.sha256(data).hexdigest() != f["db_sha256"]:
            return None
        row = conn.execute("SELECT hash FROM main.events WHERE seq = ?", (int(f["seq"]),)).fetchone()
        if row is None or row[0] != f["hash"]:
            return None
        projector = pickle.loads(state)     # written by this install and sealed with its key: checked above
    except (OSError, ValueError, KeyError, TypeError, AttributeError, pickle.UnpicklingError, EOFError):
        return None
    return Derived(saved=data, projector=projector), int(f["seq"])


def save(head_file: Path, key: bytes, db_id: str, derived: Derived, seq: int, row_hash: str) -> None:
    """Keep ``derived`` (committed, folded through row ``seq``) for the next check; a failure to
    write it costs the next check time, never its result."""
    db_file, state_file = _files(head_file)
    tmp = db_file.with_name(f"{db_file.name}.{os.getpid()}.tmp")
    try:
        head_file.parent.mkdir(parents=True, exist_ok=True)
        tmp.unlink(missing_ok=True)
        out = sqlite3.connect(tmp)
        try:
            derived.conn.backup(out)
        finally:
            out.close()
        os.chmod(tmp, 0o600)
        data = tmp.read_bytes()
        state = pickle.dumps(derived.projector)
        f = {"kind": "derived", "db_id": db_id, "seq": seq, "hash": row_hash, "schema": SCHEMA,
             "db_sha256": hashlib.sha256(data).hexdigest(), "state_sha256": hashlib.sha256(state).hexdigest()}
        os.replace(tmp, db_file)
        heads.write_durably(state_file, json.dumps({**f, "state": base64.b64encode(state).decode("ascii"),
                                                    "hmac": chain.seal(key, _canonical(f))}))
    except (OSError, sqlite3.Error, pickle.PicklingError):
        tmp.unlink(missing_ok=True)


__all__ = ["load", "save"]
