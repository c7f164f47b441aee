#!/usr/bin/env bash
# The report tests read PDFs as a person would, with Poppler's pdftotext and pdftoppm (Debian's
# poppler-utils), installed when missing and this is root on Debian (make setup calls this, so
# `make test` on a fresh machine has them). Elsewhere it says what to install.
set -euo pipefail
if command -v pdftotext >/dev/null && command -v pdftoppm >/dev/null; then
    exit 0
fi
if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "installer/poppler.sh: no pdftotext here; install Poppler's utilities (Debian: apt-get install" \
         "poppler-utils), else the report tests fail naming it" >&2
    exit 0
fi
export DEBIAN_FRONTEND=noninteractive
if ! apt-get install -y -q --no-install-recommends poppler-utils >/dev/null 2>&1 \
    && ! { apt-get update -q >/dev/null 2>&1 && apt-get install -y -q --no-install-recommends poppler-utils >/dev/null 2>&1; }; then
    echo "installer/poppler.sh: apt-get could not install poppler-utils; the report tests will fail naming pdftotext" >&2
    exit 0
fi
echo "installer/poppler.sh: poppler-utils installed"
