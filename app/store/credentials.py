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
        conn.execute("INSERT INTO pins (credential, name, salt, pin_hash, kdf) VALUES (?, ?, ?, ?, ?)",
                     (credential, name, salt.hex(), digest, KDF))
    return credential, prepare


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
