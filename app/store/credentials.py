"""PINs kept out of the sealed log, keyed with the install key (issue 26, finding 6).

A PIN of four digits falls to an offline search of its scrypt hash in seconds, so the hash must
be useless without a secret that is not in the database: it is scrypt (salted, memory-hard) and
then an HMAC with the install key over the user's name, the credential's id and the scrypt
output. A copied database alone (an export, a backup, a stolen disk image without the key
file) cannot be searched; a row of ``pins`` moved to another user, or an older one put back,
does not match, since the name and the id are under the key.

The sealed ``user_added`` and ``pin_changed`` events carry only the credential's id, never the
salt or the hash: the log is kept for years and copied everywhere. The row in ``pins`` is
written by the event's ``prepare``, in the writer's transaction, so the event and its
credential are committed together or not at all.

Issue 35 (finding 9): a row's salt and hash copied from another user's row would not match the
user's PIN, so the real user would be refused, wrong PIN after wrong PIN, into a lockout, while
``audit verify`` passed. Each row now carries its ``seal`` (migration 11), an HMAC with the
install key over the row (credential, name, salt, hash, kdf): a row changed afterwards no longer
matches it, and a row written since migration 11 without one has lost it. ``audit verify`` checks
every record (``unsealed_rows``); a sign-in against one that does not match is refused as such,
not counted as a wrong PIN. The seal is kept beside the row, not in the sealed event: an event's
body is the same on every install (the chain of a simulated shift does not depend on the key).

Events logged before issue 26 carry the salt and the plain scrypt hash in their sealed bodies
(they cannot be taken out of an append-only chain): those PINs still sign in (``legacy``), and
must be re-set (docs/audit.md "People").
"""

from __future__ import annotations

import hashlib
import hmac
import sqlite3
from collections.abc import Callable

# scrypt: memory-hard; n=2**14, r=8 takes 16 MiB and about 40 ms per PIN
SCRYPT = {"n": 2 ** 14, "r": 8, "p": 1}
KDF = "scrypt:n=16384,r=8,p=1+hmac-sha256(install key)"
PIN_DIGITS = (4, 32)


def check_pin(pin: str) -> None:
    lo, hi = PIN_DIGITS
    if not isinstance(pin, str) or not pin.isascii() or not pin.isdigit() or not lo <= len(pin) <= hi:
        raise ValueError(f"a PIN is {lo} to {hi} digits")


def scrypt(pin: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(pin.encode(), salt=salt, n=n, r=r, p=p, maxmem=64 * 2 ** 20, dklen=32)


def keyed(key: bytes, name: str, credential: str, inner: bytes) -> str:
    msg = b"pitdesk pin\0" + name.encode() + b"\0" + credential.encode() + b"\0" + inner
    return hmac.digest(key, msg, "sha256").hex()


def make(key: bytes, name: str, pin: str, random: Callable[[int], bytes]) -> tuple[str, Callable]:
    """A new credential for ``name``: its id (for the event) and the ``prepare`` that writes its
    row to ``pins`` in the writer's transaction."""
    check_pin(pin)
    credential, salt = random(8).hex(), random(16)
    digest = keyed(key, name, credential, scrypt(pin, salt, **SCRYPT))

    def prepare(conn: sqlite3.Connection, data: dict) -> None:
        conn.execute("INSERT INTO pins (credential, name, salt, pin_hash, kdf, seal) VALUES (?, ?, ?, ?, ?, ?)",
                     (credential, name, salt.hex(), digest, KDF, row_seal(key, credential, name, salt.hex(), digest,
                                                                           KDF)))
    return credential, prepare


def row_seal(key: bytes, credential: str, name: str, salt: str, digest: str, kdf: str) -> str:
    """The seal of a ``pins`` row (its ``seal`` column, migration 11)."""
    msg = "\0".join(("pitdesk pin row", credential, name, salt, digest, kdf)).encode()
    return hmac.digest(key, msg, "sha256").hex()


def _sealed_from(conn_rows: Callable[[str, tuple], list[tuple]]) -> int | None:
    """The first row whose PIN is sealed (migration 11's meta ``pins_sealed_from``); None before it."""
    found = conn_rows("SELECT value FROM meta WHERE key = 'pins_sealed_from'", ())
    return int(found[0][0]) if found else None


# each PIN record with the event that set it (the latest for its credential)
_RECORDS = ("SELECT p.credential, p.name, p.salt, p.pin_hash, p.kdf, p.seal, "
            "(SELECT max(e.seq) FROM events e WHERE e.type IN ('user_added', 'pin_changed') "
            " AND json_extract(e.body, '$.data.credential') = p.credential) FROM pins p")


def _fault(key: bytes, record: tuple, sealed_from: int | None) -> str | None:
    credential, name, salt, digest, kdf, seal, seq = record
    if seal is None:
        if sealed_from is not None and seq is not None and seq >= sealed_from:
            return (f"the PIN record of {name} (credential {credential}) has lost its seal: it was changed outside "
                    "pitdesk")
        return None     # set before PIN records were sealed (issue 35)
    if not hmac.compare_digest(row_seal(key, credential, name, salt, digest, kdf), seal):
        return (f"the PIN record of {name} (credential {credential}) does not match its seal: its name, salt or "
                "hash was changed outside pitdesk")
    return None


def unsealed_rows(conn: sqlite3.Connection, key: bytes) -> tuple[int, str] | None:
    """The first PIN record (the seq of the event that set it, why) that is not as it was
    written, or None."""
    cols = {r[1] for r in conn.execute("PRAGMA table_info(pins)")}
    if "seal" not in cols:
        return None     # a log from before migration 11 (read as it lies): nothing sealed
    sealed_from = _sealed_from(lambda sql, args: conn.execute(sql, args).fetchall())
    for record in conn.execute(_RECORDS + " ORDER BY 7"):
        fault = _fault(key, record, sealed_from)
        if fault:
            return record[6] or 0, fault
    return None


def record_fault(key: bytes, conn_rows: Callable[[str, tuple], list[tuple]], account: dict) -> str | None:
    """Why ``account``'s PIN record is not as it was written, or None."""
    if not account.get("credential"):
        return None
    found = conn_rows(_RECORDS + " WHERE p.credential = ?", (account["credential"],))
    if not found:
        return None
    record = found[0]
    if record[1] != account["name"]:      # a record moved from another user: its seal says whose it is
        return (f"the PIN record of {account['name']} (credential {account['credential']}) is {record[1]}'s: it "
                "was changed outside pitdesk")
    return _fault(key, record, _sealed_from(conn_rows))


def matches(key: bytes, conn_rows: Callable[[str, tuple], list[tuple]], account: dict, pin: str) -> bool:
    """Whether ``pin`` is the PIN of ``account`` (as the chain gives it: its ``credential``, or a
    legacy salt and hash)."""
    if not isinstance(pin, str):
        return False
    if account.get("credential"):
        row = conn_rows("SELECT name, salt, pin_hash, kdf FROM pins WHERE credential = ?", (account["credential"],))
        if not row or row[0][0] != account["name"] or row[0][3] != KDF:
            return False
        _, salt, digest, _ = row[0]
        return hmac.compare_digest(keyed(key, account["name"], account["credential"],
                                         scrypt(pin, bytes.fromhex(salt), **SCRYPT)), digest)
    if account.get("pin_hash") and account.get("salt") and account.get("kdf"):
        return hmac.compare_digest(scrypt(pin, bytes.fromhex(account["salt"]), **legacy_kdf(account["kdf"])).hex(),
                                   account["pin_hash"])
    return False


def legacy_kdf(text: str) -> dict:
    """``scrypt:n=16384,r=8,p=1`` as logged before issue 26."""
    _, params = text.split(":", 1)
    return {k: int(v) for k, v in (x.split("=") for x in params.split(","))}
