"""The hash chain: each row's body is canonical JSON, its hash covers the previous hash and
the body, and its seal is an HMAC of the hash with the install key.

Editing a body breaks its hash; removing or reordering rows breaks the next row's link (the
body carries its own sequence number); a row appended by someone without the key has a
chain that links but a seal that does not match.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import datetime

GENESIS = "0" * 64
FIELDS = ("seq", "time", "table", "type", "actor", "role", "data")


def body(seq: int, time: datetime | str, table: str | None, type_: str, actor: str, role: str, data: dict) -> str:
    t = time.isoformat() if isinstance(time, datetime) else time
    return json.dumps({"seq": seq, "time": t, "table": table, "type": type_, "actor": actor, "role": role,
                       "data": data}, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def link(prev_hash: str, body_text: str) -> str:
    return hashlib.sha256((prev_hash + body_text).encode()).hexdigest()


def seal(key: bytes, row_hash: str) -> str:
    return hmac.digest(key, row_hash.encode(), "sha256").hex()


def seal_ok(key: bytes, row_hash: str, mac: str) -> bool:
    return hmac.compare_digest(seal(key, row_hash), mac)
