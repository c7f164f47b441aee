"""The workstation's own log verified, for a command that may not reach into the store itself
(``pitdesk --self-test``, app/cli/selftest.py): the chain, the seals and the head this install
recorded, read only (docs/audit.md, "Verification")."""

from __future__ import annotations

from pathlib import Path

from app.store import audit, paths


def verify_log(db: Path | str) -> dict:
    """``pitdesk audit verify --db DB`` as a value: {"ok", "rows", "head", "first_bad", ...}.
    The install key must exist (a log is never checked against a key made up now)."""
    return audit.verify_db(Path(db), paths.install_key(create=False)).as_json()
