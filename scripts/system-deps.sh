#!/usr/bin/env bash
# Install the system packages the tests need: PostgreSQL (storage tests), Chromium
# (browser tests), poppler-utils (pdftotext, for the playtest kit's tests) and nginx (the
# proxy of bench/server_faults.py, configured as docs/server.md says), from the
# distribution's packages. Idempotent: does nothing when all are there. Without root (or
# without apt) it says what is missing; with CI=true a missing package is an error.
set -euo pipefail

missing=()
command -v pg_ctlcluster >/dev/null 2>&1 || missing+=(postgresql)
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v pdftotext >/dev/null 2>&1 || missing+=(poppler-utils)
command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing+=(nginx)
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -eq 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "system-deps: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq "${missing[@]}" >/dev/null
    exit 0
fi

echo "system-deps: missing ${missing[*]} (install them with your package manager)" >&2
if [ "${CI:-}" = "true" ]; then
    exit 1
fi
