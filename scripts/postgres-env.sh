# The server example's database settings, sourced by scripts/postgres-up.sh,
# scripts/server-test.sh and scripts/fleet-test.sh.
export DATABASE_HOST=127.0.0.1 DATABASE_PORT=5432 DATABASE_USER=notes DATABASE_PASSWORD=notes-test DATABASE_NAME=notes
