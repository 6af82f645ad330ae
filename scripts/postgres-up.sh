#!/usr/bin/env bash
# PostgreSQL on 127.0.0.1 for the server example (scripts/postgres-env.sh):
# installs Debian's package when missing, starts the cluster, creates the
# role and the database. Idempotent: scripts/server-test.sh and
# scripts/fleet-test.sh both call it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/postgres-env.sh

echo "== PostgreSQL on 127.0.0.1:$DATABASE_PORT"
if ! command -v pg_ctlcluster >/dev/null || [ -z "$(ls /etc/postgresql 2>/dev/null)" ]; then
    apt-get update
    DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql
fi
version=$(ls /etc/postgresql | sort -V | tail -1)
sed -i "s/^#\?listen_addresses *=.*/listen_addresses = '127.0.0.1'/" "/etc/postgresql/$version/main/postgresql.conf"
if ! pg_ctlcluster "$version" main status >/dev/null 2>&1; then
    pg_ctlcluster "$version" main start
fi
for _ in $(seq 60); do pg_isready -q -h 127.0.0.1 -p "$DATABASE_PORT" && break; sleep 1; done
pg_isready -h 127.0.0.1 -p "$DATABASE_PORT"
# A role with a password: pg_hba.conf asks host connections for scram-sha-256.
runuser -u postgres -- psql -q -v ON_ERROR_STOP=1 <<SQL
DO \$\$ BEGIN
    IF EXISTS (SELECT FROM pg_roles WHERE rolname = '$DATABASE_USER') THEN
        ALTER ROLE $DATABASE_USER LOGIN PASSWORD '$DATABASE_PASSWORD';
    ELSE
        CREATE ROLE $DATABASE_USER LOGIN PASSWORD '$DATABASE_PASSWORD';
    END IF;
END \$\$;
SQL
if [ "$(runuser -u postgres -- psql -tAc "SELECT 1 FROM pg_database WHERE datname = '$DATABASE_NAME'")" != 1 ]; then
    runuser -u postgres -- createdb -O "$DATABASE_USER" "$DATABASE_NAME"
fi
