"""Every command works the same frozen: the frozen build and the source tree run side by side.

    python installer/compare_cli.py dist/pitdesk/pitdesk [--source .venv/bin/pitdesk]

Each command of the command line (every group's --help, hand, settle, deal, round replay and
round settle, analyze paytables, simulate shift and device, devices watch, hold, report shift, users, audit
verify, export and backup, gui --screenshot) runs once with each executable, each in a clean
environment of its own (``PATH=/usr/bin:/bin``, its own HOME and data folder, no virtual
environment), and the two must end with the same exit status and print the same thing (times and
durations, temporary paths, what a device says at its own pace set aside, each named below).
Prints one line per command and exits 1 if any differs. ``make test-dist`` runs it after the
self-test.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ROUNDS = ROOT / "docs" / "rounds"
ISO = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(\.\d+)?([+-]\d\d:?\d\d|Z)?")
ELAPSED = re.compile(r'"elapsed_seconds": [0-9.]+')


def clean_env(home: Path) -> dict:
    return {"PATH": "/usr/bin:/bin", "HOME": str(home), "QT_QPA_PLATFORM": "offscreen",
            "XDG_DATA_HOME": str(home / "data"), "XDG_CONFIG_HOME": str(home / "config"),
            "PITDESK_HOME": str(home / "pitdesk"), "LC_ALL": "C.UTF-8"}


class Side:
    def __init__(self, exe: str, folder: Path):
        self.exe, self.folder = exe, folder
        folder.mkdir(parents=True)
        self.env = clean_env(folder)

    def run(self, argv: list[str], stdin: str = "", timeout: float = 300) -> subprocess.CompletedProcess:
        argv = [a.replace("{tmp}", str(self.folder)) for a in argv]
        return subprocess.run([self.exe, *argv], input=stdin, env=self.env, capture_output=True, text=True,
                              timeout=timeout, cwd=self.folder)

    def scrub(self, text: str) -> str:
        return ELAPSED.sub('"elapsed_seconds": <s>', ISO.sub("<time>", text.replace(str(self.folder), "{tmp}")))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


HELP = [[], ["hand"], ["settle"], ["deal"], ["round"], ["round", "replay"], ["round", "settle"], ["analyze"],
        ["audit"], ["users"], ["simulate"], ["simulate", "shift"], ["simulate", "device"], ["simulate", "floor"],
        ["devices"], ["devices", "watch"], ["hold"], ["report"], ["report", "shift"], ["gui"], ["ship"], ["floor"],
        ["floor", "verify"], ["floor", "migrate"], ["floor", "restore"]]
DB = "{tmp}/shift.db"
# (name, argv, stdin, what is set aside in the comparison)
COMMANDS = [
    *((f"help {' '.join(h) or 'pitdesk'}", [*h, "--help"], "", None) for h in HELP),
    ("hand rank", ["hand", "rank", "As", "Ks", "Qs", "Js", "Jk"], "", None),
    ("hand compare", ["hand", "compare", "Ah 2d 3c 4h 5d", "Kh Qd Jc Th 9d", "--profile", "face-up-ca"], "", None),
    ("hand legal", ["hand", "legal", "Ah Qd 9c 5h 3d", "As Kc"], "", None),
    ("hand set", ["hand", "set", "--house-way", "casino", "Ah", "Jk", "Jh", "Js", "Jc", "Kh", "2h"], "", None),
    ("hand bonus", ["hand", "bonus", "As", "Ks", "Qs", "Js", "Ts", "Kh", "Qh"], "", None),
    ("hand rank --batch", ["hand", "rank", "--batch"], "As Ks Qs Js Ts\n2c 2d 2h 2s 3c\nXx\n", None),
    ("hand bad card", ["hand", "rank", "As", "Ks", "Qs", "Js", "Zz"], "", None),
    *((f"settle {p.name}", ["settle", str(p)], "", None) for p in sorted(ROUNDS.glob("*.json"))),
    ("deal position", ["deal", "position", "--method", "dice", "--value", "14"], "", None),
    ("round replay", ["round", "replay", str(ROOT / "docs" / "events" / "section6-two-rounds.jsonl"), "--profile",
                      "section6"], "", None),
    ("analyze paytables", ["analyze", "paytables", "--counts", str(ROOT / "resources" / "analysis" / "enumeration.json"),
                           "--json"], "", None),
    # a pool of spawned processes: in the frozen build each is the executable again (freeze_support)
    ("analyze base", ["analyze", "base", "--deals", "3000", "--workers", "2", "--out", "{tmp}/base.json"], "", None),
    ("simulate shift", ["simulate", "shift", "--tables", "3", "--rounds", "40", "--db", DB, "--start",
                        "2026-11-21 14:00", "--seed", "1"], "", "the database's own id and seal"),
    ("hold", ["hold", "--db", DB, "--from", "2026-11-21 14:00", "--to", "2026-11-22", "--json"], "", None),
    ("report shift --json", ["report", "shift", "--db", DB, "--date", "2026-11-21", "--shift", "swing", "--json"], "",
     "the database's own id and path"),
    ("report shift --out", ["report", "shift", "--db", DB, "--date", "2026-11-21", "--shift", "swing", "--paper", "a4",
                            "--out", "{tmp}/swing.pdf"], "", "when and where it was written"),
    ("report shift, unknown shift", ["report", "shift", "--db", DB, "--date", "2026-11-21", "--shift", "night",
                                     "--json"], "", None),
    ("audit verify", ["audit", "verify", "--db", DB], "", "the chain's hashes (each install its own key)"),
    ("audit export", ["audit", "export", "--db", DB, "--out", "{tmp}/audit.jsonl"], "", "the chain's hashes"),
    ("audit verify --export", ["audit", "verify", "--export", "{tmp}/audit.jsonl"], "", "the chain's hashes"),
    ("audit backup", ["audit", "backup", "--db", DB, "--out", "{tmp}/backup.db"], "", "the chain's hashes"),
    # the casino's PostgreSQL (issue 28): libpq loaded (psycopg's binary build), a server that is not there named
    ("ship, no server", ["ship", "--db", DB, "--to", "postgresql://pit3@127.0.0.1:1/casino"], "", None),
    ("floor verify, no server", ["floor", "verify", "--pg", "postgresql://audit@127.0.0.1:1/casino"], "", None),
    ("users init", ["users", "init", "root", "--db", "{tmp}/people.db", "--pin-stdin"], "1111\n", None),
    ("users add", ["users", "add", "fay", "--role", "floor supervisor", "--as", "root", "--db", "{tmp}/people.db",
                   "--pin-stdin"], "1111\n2222\n", None),
    ("users list", ["users", "list", "--db", "{tmp}/people.db"], "", None),
    ("round settle", ["round", "settle", "--table", "T3", str(ROUNDS / "casino-house.json"), "--demo", "--db",
                      "{tmp}/demo.db", "--as", "demo-dealer", "--pin-stdin"], "4444\n", None),
    ("gui --screenshot", ["gui", "--demo", "--db", "{tmp}/gui.db", "--view", "table:T1", "--screenshot",
                          "{tmp}/t1.png", "--after", "2", "--size", "1366x768"], "", "the picture itself"),
]


def compare(name: str, a: subprocess.CompletedProcess, b: subprocess.CompletedProcess, fa: Side, fb: Side,
            aside: str | None) -> str | None:
    if a.returncode != b.returncode:
        return f"exit {a.returncode} frozen, {b.returncode} from source: {a.stderr.strip()[-300:]}"
    if name.endswith("no server") and not all("cannot be reached" in x.stderr for x in (a, b)):
        return f"the server not there is not named: {a.stderr.strip()[-300:]} against {b.stderr.strip()[-300:]}"
    if aside is None:
        if fa.scrub(a.stdout) != fb.scrub(b.stdout):
            return f"stdout differs:\n--- frozen\n{a.stdout[:600]}\n--- source\n{b.stdout[:600]}"
        return None
    if name.startswith(("audit", "simulate", "report")):
        ja, jb = (json.loads(x.stdout) if x.stdout.strip().startswith("{") else x.stdout for x in (a, b))
        keep = ("ok", "rows", "intact_to", "exported", "tables", "rounds", "events", "first_bad", "pit", "from", "to",
                "chain_head", "number", "copy", "shift", "pages")
        pick = (lambda j: {k: v for k, v in j.items() if k in keep}) if isinstance(ja, dict) else (lambda j: j)
        if pick(ja) != pick(jb):
            return f"differs beyond {aside}: {pick(ja)} against {pick(jb)}"
    return None


def devices_watch(frozen: Side, source: Side) -> str | None:
    """A simulated shuffler served by one executable, watched by the other, both ways round."""
    for server, watcher in ((frozen, source), (source, frozen)):
        port = free_port()
        dev = subprocess.Popen([server.exe, "simulate", "device", "shuffler", "--listen", f"127.0.0.1:{port}",
                                "--seed", "3"], env=server.env, stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            time.sleep(1.5)
            w = watcher.run(["devices", "watch", f"socket://127.0.0.1:{port}", "--seconds", "4"], timeout=60)
        finally:
            dev.terminate()
            dev.wait(10)
        lines = [json.loads(x) for x in w.stdout.splitlines() if x.strip()]
        if w.returncode != 0 or len(lines) < 2:     # what the device said, then the frame counts
            return f"{Path(watcher.exe).name} watching {Path(server.exe).name}: exit {w.returncode}, " \
                   f"{len(lines)} lines: {w.stderr.strip()[-300:]}"
    return None


def upgrade(frozen: Side) -> str | None:
    """An upgrade: a workstation's database from before migration 3 (as the test of that migration
    makes one, tests/workstation/test_logs_store.py), opened by this build's window: kept,
    migrated, continued, and it verifies."""
    import sqlite3

    from app.store.schema import LOG_COLUMNS, MIGRATIONS
    db = frozen.folder / "old.db"
    r = frozen.run(["simulate", "shift", "--tables", "2", "--rounds", "10", "--db", str(db), "--start",
                    "2026-11-21 14:00", "--seed", "2"])
    if r.returncode != 0:
        return f"simulate shift: {r.stderr.strip()[-300:]}"
    conn = sqlite3.connect(db)
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND name LIKE '%_by_%'").fetchall():
        conn.execute(f"DROP INDEX {name}")
    for table, columns in LOG_COLUMNS.items():
        for column in columns:
            conn.execute(f"ALTER TABLE {table} DROP COLUMN {column}")
    conn.execute("DROP TABLE device_log")
    conn.execute("DROP TABLE sign_ins")
    conn.execute("DELETE FROM _migrations WHERE version = 3")
    conn.commit()
    tables = conn.execute("SELECT table_id, profile FROM tables ORDER BY table_id").fetchall()
    rows = conn.execute("SELECT max(seq) FROM events").fetchone()[0]
    conn.close()
    cfg = frozen.folder / "workstation.toml"
    cfg.write_text("".join(f'[[tables]]\nid = "{t}"\nprofile = "{p}"\n\n' for t, p in tables))
    r = frozen.run(["gui", "--config", str(cfg), "--db", str(db), "--quit-after", "1"], timeout=120)
    if r.returncode != 0:
        return f"the window on the old database: exit {r.returncode}: {r.stderr.strip()[-300:]}"
    conn = sqlite3.connect(db)
    version = conn.execute("SELECT max(version) FROM _migrations").fetchone()[0]
    after = conn.execute("SELECT max(seq) FROM events").fetchone()[0]
    sign_ins = conn.execute("SELECT count(*) FROM sign_ins").fetchone()[0]
    conn.close()
    if version != max(v for v, _, _ in MIGRATIONS) or after < rows or not sign_ins:
        return f"not migrated and kept: version {version}, rows {rows} -> {after}, sign_ins {sign_ins}"
    r = frozen.run(["audit", "verify", "--db", str(db)])
    if r.returncode != 0 or not json.loads(r.stdout)["ok"]:
        return f"the upgraded database does not verify: {r.stdout[-300:]}{r.stderr[-300:]}"
    return None


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("frozen")
    ap.add_argument("--source", default=str(ROOT / ".venv" / "bin" / "pitdesk"))
    args = ap.parse_args()
    bad = 0
    with tempfile.TemporaryDirectory(prefix="pitdesk-compare-") as tmp:
        frozen, source = Side(str(Path(args.frozen).resolve()), Path(tmp) / "frozen"), Side(args.source, Path(tmp) / "source")
        for name, argv, stdin, aside in COMMANDS:
            t0 = time.monotonic()
            a, b = frozen.run(argv, stdin), source.run(argv, stdin)
            why = compare(name, a, b, frozen, source, aside)
            if name == "gui --screenshot" and why is None:
                pa, pb = (Path(s.folder) / "t1.png" for s in (frozen, source))
                if not (pa.exists() and pb.exists() and pa.read_bytes()[16:24] == pb.read_bytes()[16:24]):
                    why = "the screenshots are missing or of different sizes"
            took = time.monotonic() - t0
            print(f"{'same' if why is None else 'DIFFERS':8} {name} (exit {a.returncode}, {took:.1f} s)"
                  + ("" if aside is None or why else f"; set aside: {aside}"))
            if why:
                print("    " + why.replace("\n", "\n    "))
                bad += 1
        t0 = time.monotonic()
        why = devices_watch(frozen, source)
        print(f"{'same' if why is None else 'DIFFERS':8} devices watch / simulate device, each way "
              f"({time.monotonic() - t0:.1f} s); set aside: what the device says at its own pace")
        if why:
            print("    " + why)
            bad += 1
        t0 = time.monotonic()
        why = upgrade(frozen)
        print(f"{'ok' if why is None else 'FAILED':8} upgrade: a database from before migration 3 opened by the "
              f"frozen window, migrated, kept and verified ({time.monotonic() - t0:.1f} s)")
        if why:
            print("    " + why)
            bad += 1
    print(f"{len(COMMANDS) + 2 - bad} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
