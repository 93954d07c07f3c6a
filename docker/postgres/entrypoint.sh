#!/bin/sh
# First start (an empty data folder): initdb with POSTGRES_USER as the superuser and
# POSTGRES_PASSWORD as its password, then POSTGRES_DB created. Every start: the server in the
# foreground (PID 1, as the postgres user), listening on every address; clients from the
# network log in with the password (scram-sha-256), inside the container without one.
# Arguments are passed to the server (e.g. -c port=5433).
set -eu

if [ ! -s "$PGDATA/PG_VERSION" ]; then
    : "${POSTGRES_PASSWORD:?set POSTGRES_PASSWORD: the database user's password}"
    database=${POSTGRES_DB:-$POSTGRES_USER}
    password_file=$(mktemp)
    printf '%s\n' "$POSTGRES_PASSWORD" >"$password_file"
    initdb --pgdata="$PGDATA" --username="$POSTGRES_USER" --pwfile="$password_file" \
        --encoding=UTF8 --locale=C.UTF-8 --auth-local=trust --auth-host=scram-sha-256 >/dev/null
    rm -f "$password_file"
    echo "host all all all scram-sha-256" >>"$PGDATA/pg_hba.conf"
    if [ "$database" != postgres ]; then
        # single-user mode: nothing listens while the database is made
        echo "CREATE DATABASE \"$database\" OWNER \"$POSTGRES_USER\"" \
            | postgres --single -j -D "$PGDATA" postgres >/dev/null
    fi
    echo "postgres-entrypoint: initialised $PGDATA (user $POSTGRES_USER, database $database)"
fi

exec postgres -D "$PGDATA" -c listen_addresses='*' "$@"
