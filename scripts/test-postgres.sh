#!/usr/bin/env bash
# Start the distribution's PostgreSQL cluster for the storage tests and print the URL of a
# database the tests may use (role and database `splash_test`, created when missing).
# Prints nothing when PostgreSQL is not installed or cannot be started (the tests then skip
# PostgreSQL, or fail with CI=true).
set -euo pipefail

command -v pg_lsclusters >/dev/null 2>&1 || exit 0
read -r version cluster port status _ < <(pg_lsclusters --no-header | head -n 1) || exit 0
if [ "$status" != "online" ]; then
    pg_ctlcluster "$version" "$cluster" start >/dev/null 2>&1 || exit 0
fi

as_postgres() {
    if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else sudo -n -u postgres "$@"; fi
}
psql_admin() { as_postgres psql -p "$port" -XtAq "$@"; }

if [ -z "$(psql_admin -c "SELECT 1 FROM pg_roles WHERE rolname = 'splash_test'" 2>/dev/null)" ]; then
    psql_admin -c "CREATE ROLE splash_test LOGIN PASSWORD 'splash_test' CREATEDB" >/dev/null 2>&1 || exit 0
fi
# DROP DATABASE ... WITH (FORCE) of a scratch database must be able to end an autovacuum
# worker that happens to be in it.
psql_admin -c "GRANT pg_signal_backend TO splash_test" >/dev/null 2>&1 || true
if [ -z "$(psql_admin -c "SELECT 1 FROM pg_database WHERE datname = 'splash_test'" 2>/dev/null)" ]; then
    psql_admin -c "CREATE DATABASE splash_test OWNER splash_test" >/dev/null 2>&1 || exit 0
fi
echo "postgresql+psycopg://splash_test:splash_test@127.0.0.1:${port}/splash_test"
