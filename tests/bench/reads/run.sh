#!/usr/bin/env bash
# Triage-read benchmark (issue 10 "Performance"): bench_reads on SQLite and on
# PostgreSQL (a throwaway cluster from scripts/pg-cluster.sh, fsync on), each
# seeded with the same generator (tests/bench/reads/reads.cpp documents it).
#
#   cmake -S . -B build/bench -G Ninja -DCMAKE_BUILD_TYPE=Release
#   ninja -C build/bench bench_reads
#   tests/bench/reads/run.sh [BUILD_DIR]     # default: build/bench
#
# Environment: BENCH_BUGS (100000), BENCH_OCCURRENCES (1000000),
# BENCH_REQUESTS (200 per endpoint; stats a quarter), BENCH_SEED (42),
# BENCH_TARGETS ("sqlite postgres"), BENCH_POSTGRES_URL (an empty database
# to use instead of a throwaway cluster), BENCH_PG_SHARED_BUFFERS (the
# throwaway cluster's shared_buffers, 1GB).
set -euo pipefail

root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build/bench}
bin=$build/tests/bench/reads/bench_reads
[[ -x $bin ]] || { echo "missing $bin (ninja -C $build bench_reads)" >&2; exit 2; }
args=(--bugs "${BENCH_BUGS:-100000}" --occurrences "${BENCH_OCCURRENCES:-1000000}"
      --requests "${BENCH_REQUESTS:-200}" --seed "${BENCH_SEED:-42}")
work=$(mktemp -d)
pg_dir=""
cleanup() {
  [[ -n $pg_dir ]] && "$root/scripts/pg-cluster.sh" stop "$pg_dir" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

for target in ${BENCH_TARGETS:-sqlite postgres}; do
  echo "== $target"
  case $target in
    sqlite) "$bin" --database "sqlite:$work/reads.db" "${args[@]}" ;;
    postgres)
      url=${BENCH_POSTGRES_URL:-}
      if [[ -z $url ]]; then
        pg_dir=/tmp/bench-reads-pg-$$  # the postgres user must reach it
        # Sized to hold the 100,000-bug organization's rows and indexes
        # (about 600 MB), as a production server is (PostgreSQL's
        # documentation starts at a quarter of RAM); 128MB, the default,
        # sends most searches to the OS cache for their heap rows.
        url=$(PG_SHARED_BUFFERS=${BENCH_PG_SHARED_BUFFERS:-1GB} "$root/scripts/pg-cluster.sh" start "$pg_dir" | tail -n 1)
      fi
      "$bin" --database "$url" "${args[@]}"
      ;;
  esac
done
