#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster for tests and benchmarks.
#
#   scripts/pg-cluster.sh start DIR   initdb into DIR, start on a free port of
#                                     127.0.0.1, create database service_test,
#                                     print its URL as the last stdout line
#   scripts/pg-cluster.sh stop DIR    stop the cluster (fast) and remove DIR
#
# fsync is on unless PG_FSYNC=off: benchmarks against this cluster must
# measure real durability. The test command turns it off for its own
# throwaway cluster (no test crashes PostgreSQL itself; a PostgreSQL case's
# fresh schema migrates in 0.22 s instead of 0.35 s, its writes do not wait
# on the disk the compilers share).
# As root the server runs as the `postgres` system user (PostgreSQL refuses
# root). Override the binaries with PG_BIN, the buffer cache with
# PG_SHARED_BUFFERS (PostgreSQL's default 128MB; benchmarks whose data set is
# larger size it as a production server would).
set -euo pipefail

PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}

usage() {
  echo "usage: $0 start|stop DIR" >&2
  exit 2
}

[[ $# -eq 2 ]] || usage
cmd=$1
dir=$2

# Runs a command as the cluster's owner.
as_owner() {
  if [[ $(id -u) -eq 0 ]]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

free_port() {
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
    return
  fi
  local port
  for ((i = 0; i < 200; i++)); do
    port=$((20000 + RANDOM % 40000))
    if ! ss -Htln "sport = :$port" | grep -q .; then
      echo "$port"
      return
    fi
  done
  echo "no free port found" >&2
  return 1
}

start() {
  if [[ -e "$dir/data/PG_VERSION" ]]; then
    echo "$dir already holds a cluster" >&2
    exit 1
  fi
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  if [[ $(id -u) -eq 0 ]]; then
    if ! id postgres >/dev/null 2>&1; then
      useradd --system --home-dir /var/lib/postgresql --shell /bin/bash postgres
    fi
    chown postgres: "$dir"
    # The owner must be able to reach DIR through its parents.
    if ! runuser -u postgres -- test -w "$dir"; then
      echo "user postgres cannot reach $dir (check its parents' permissions; /tmp works)" >&2
      exit 1
    fi
  fi
  as_owner "$PG_BIN/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; exit 1; }

  local port
  port=$(free_port)
  cat >>"$dir/data/postgresql.conf" <<EOF
# scripts/pg-cluster.sh
listen_addresses = '127.0.0.1'
port = $port
unix_socket_directories = '$dir'
fsync = ${PG_FSYNC:-on}
synchronous_commit = on
shared_buffers = ${PG_SHARED_BUFFERS:-128MB}
max_connections = 200
logging_collector = off
EOF
  cat >"$dir/data/pg_hba.conf" <<EOF
local all all trust
host all all 127.0.0.1/32 trust
EOF
  echo "$port" >"$dir/port"
  as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start >/dev/null ||
    { cat "$dir/server.log" >&2; exit 1; }
  as_owner "$PG_BIN/createdb" -h 127.0.0.1 -p "$port" -U postgres service_test
  echo "postgresql://postgres@127.0.0.1:$port/service_test"
}

stop() {
  if [[ -e "$dir/data/PG_VERSION" ]]; then
    as_owner "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
  fi
  rm -rf "$dir"
}

case $cmd in
  start) start ;;
  stop) stop ;;
  *) usage ;;
esac
