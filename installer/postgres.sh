#!/usr/bin/env bash
# The PostgreSQL server the casino tests start (tests/support/pg.py: initdb and pg_ctl in a
# temporary folder, never the machine's own cluster): Debian's postgresql package, installed when
# missing and this is root on Debian (make setup and .ci/run call this). Elsewhere it says what to
# install and the tests against the server are skipped, naming why.
set -euo pipefail
if compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null; then
    exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "installer/postgres.sh: no PostgreSQL server here; install Debian's postgresql package (as root:" \
         "apt-get install postgresql) or set PG_BIN to a server's bin folder, else the casino tests are skipped" >&2
    exit 0
fi
start=$(date +%s)
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends postgresql >/dev/null 2>&1 \
    && ! { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q --no-install-recommends postgresql >/dev/null 2>&1; }; then
    echo "installer/postgres.sh: apt-get could not install postgresql; the casino tests will be skipped" >&2
    exit 0
fi
echo "installer/postgres.sh: postgresql installed in $(( $(date +%s) - start )) s"
