#!/usr/bin/env bash
# MCP benchmark (issue 29 "Performance"): bench_mcp on SQLite (and on
# PostgreSQL with BENCH_TARGETS="sqlite postgres": a throwaway cluster from
# scripts/pg-cluster.sh), seeded by the generator documented in
# tests/bench/mcp/mcp.cpp.
#
#   ninja -C build/bench bench_mcp          # or any tree with SERVICE_BUILD_BENCH=ON
#   tests/bench/mcp/run.sh [BUILD_DIR]      # default: build/bench
#
# Environment: BENCH_BUGS (100000), BENCH_OCCURRENCES (300000),
# BENCH_REQUESTS (500), BENCH_SEED (42), BENCH_TARGETS ("sqlite"),
# BENCH_POSTGRES_URL (an empty database instead of a throwaway cluster).
set -euo pipefail

root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build/bench}
bin=$build/tests/bench/mcp/bench_mcp
[[ -x $bin ]] || { echo "missing $bin (ninja -C $build bench_mcp)" >&2; exit 2; }
args=(--bugs "${BENCH_BUGS:-100000}" --occurrences "${BENCH_OCCURRENCES:-300000}"
      --requests "${BENCH_REQUESTS:-500}" --seed "${BENCH_SEED:-42}")
work=$(mktemp -d)
pg_dir=""
cleanup() {
  [[ -n $pg_dir ]] && "$root/scripts/pg-cluster.sh" stop "$pg_dir" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

for target in ${BENCH_TARGETS:-sqlite}; do
  echo "== $target"
  case $target in
    sqlite) "$bin" --database "sqlite:$work/mcp.db" "${args[@]}" ;;
    postgres)
      url=${BENCH_POSTGRES_URL:-}
      if [[ -z $url ]]; then
        pg_dir=/tmp/bench-mcp-pg-$$
        url=$(PG_SHARED_BUFFERS=${BENCH_PG_SHARED_BUFFERS:-1GB} "$root/scripts/pg-cluster.sh" start "$pg_dir" | tail -n 1)
      fi
      "$bin" --database "$url" "${args[@]}"
      ;;
  esac
done
