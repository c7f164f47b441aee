#!/usr/bin/env bash
# The virtual printer make test-print prints to: CUPS with cups-pdf, a queue named pitdesk-pdf that
# writes each job as a PDF into the submitting user's ~/PDF (/etc/cups/cups-pdf.conf, "Out").
# Installs what is missing (Debian: apt-get, as root), starts the scheduler if it is not running.
set -euo pipefail
PRINTER=pitdesk-pdf
need=()
command -v cupsd >/dev/null || need+=(cups)
command -v lpadmin >/dev/null || need+=(cups-client)
[ -e /usr/lib/cups/backend/cups-pdf ] || need+=(printer-driver-cups-pdf)
command -v pdftotext >/dev/null || need+=(poppler-utils)
command -v pdftocairo >/dev/null || need+=(poppler-utils)
if [ ${#need[@]} -gt 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y "${need[@]}" >/dev/null
fi
if ! lpstat -r >/dev/null 2>&1; then
    /usr/sbin/cupsd
    for _ in $(seq 50); do lpstat -r >/dev/null 2>&1 && break; sleep 0.1; done
fi
if ! lpstat -p "$PRINTER" >/dev/null 2>&1; then
    lpadmin -p "$PRINTER" -E -v cups-pdf:/ -P /usr/share/ppd/cups-pdf/CUPS-PDF_opt.ppd 2>/dev/null
fi
lpadmin -p "$PRINTER" -o pdftops-renderer-default=pdftocairo
cupsenable "$PRINTER"
cupsaccept "$PRINTER"
lpstat -p "$PRINTER"
