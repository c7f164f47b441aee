"""The casino's server killed while a long ship runs, and restarted: shipping resumes with nothing
lost or doubled; and three workstations' long logs shipped at once by processes (issue 28). Slow:
``make test-slow``."""

from __future__ import annotations

import json
import subprocess
import time

import psycopg
import pytest

from tests.support.casino import Pit, held, pitdesk, register
from tests.support.pg import AUDITOR, SHIPPER, SUPERUSER
from tests.support.store import PITDESK

pytestmark = pytest.mark.slow


def _head(url: str, ws: str) -> int:
    with psycopg.connect(url) as conn:
        row = conn.execute("SELECT head_seq FROM pitdesk.workstations WHERE workstation = %s", (ws,)).fetchone()
        return row[0] if row else 0


def test_server_killed_mid_batch_and_restarted_nothing_lost_or_doubled(own_server, tmp_path):
    server, db = own_server
    pit = Pit(tmp_path, 40_000)
    url, admin = server.url(SHIPPER, db), server.url(SUPERUSER, db)
    register(url, pit.db)
    p = subprocess.Popen([PITDESK, "ship", "--db", str(pit.db), "--to", url, "--batch", "500"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while _head(admin, pit.id) < 8_000:
            assert p.poll() is None, "the ship ended before the server could be killed"
            assert time.monotonic() < deadline
            time.sleep(0.005)
        server.stop("immediate")  # killed: no checkpoint, no goodbye to the client
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == 2, err
    assert "went away while shipping" in err and "run ship again" in err
    assert len(err.strip().splitlines()) == 1

    told = json.loads(out)["shipped"]   # what the client heard committed before the kill

    server.start()
    kept = _head(admin, pit.id)
    # at most the batch in flight was committed without the client hearing so
    assert 8_000 <= kept and told <= kept <= told + 500, (told, kept)
    assert held(admin, pit.id) == pit.rows()[:kept], "the server's copy after the crash is not the log's start"
    rc, out, err = pitdesk("ship", "--db", str(pit.db), "--to", url, "--batch", "500")
    assert rc == 0, err
    assert (out["shipped"], out["from_seq"], out["to_seq"]) == (40_000 - kept, kept + 1, 40_000)
    assert held(admin, pit.id) == pit.rows()
    rc, out, err = pitdesk("floor", "verify", "--pg", server.url(AUDITOR, db), "--key", f"{pit.id}={pit.key_file}")
    assert rc == 0 and "ok, 40,000 rows" in out and "seals checked" in out, (out, err)


def test_three_long_logs_shipped_at_once_by_processes(own_server, tmp_path):
    server, db = own_server
    url = server.url(SHIPPER, db)
    pits = [Pit(tmp_path / f"pit{n}", 15_000 + 1_000 * n, marker=f"pit {n}") for n in range(3)]
    for pit in pits:
        register(url, pit.db)
    # two shippers a workstation, racing
    procs = [subprocess.Popen([PITDESK, "ship", "--db", str(pit.db), "--to", url, "--batch", "700"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for pit in pits for _ in (0, 1)]
    results = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0] * 6, [e for _, e in results]
    shipped = [json.loads(o) for o, _ in results]
    for pit in pits:
        assert sum(s["shipped"] for s in shipped if s["workstation"] == pit.id) == len(pit.rows())
        assert held(server.url(SUPERUSER, db), pit.id) == pit.rows()
