#!/usr/bin/env bash
# Health benchmark: GET /v1/health on service-server (SQLite in a temporary
# folder, SERVICE_RATE_LIMITS=off, request logs to a file) against
# bench_bare_server (same transport, no service) and, for reference, the bare
# handler on the previous thread-per-connection transport and on a stock
# httplib::Server. Each target is driven by
#   wrk --latency -t2 -c50 -d${BENCH_SECONDS}s
# after a short warm-up, and one table is printed: target, req/s, p50, p99,
# non-2xx responses, and the ratio service/bare.
#
# Run (after building the two targets, e.g.
#   cmake -S . -B build/bench -G Ninja -DCMAKE_BUILD_TYPE=Release
#   ninja -C build/bench service-server bench_bare_server):
#   tests/bench/health.sh [BUILD_DIR]          # default: build/bench
#
# Environment: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (50),
# BENCH_THREADS (2), BENCH_WARMUP_SECONDS (2). Needs wrk (Debian: wrk).
# The load generator shares the machine with the server: on 2 cores the
# figures measure both; compare ratios, not absolute numbers, across hosts.
set -euo pipefail
source "$(dirname "$0")/lib.sh"

root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-$root/build/bench}
seconds=${BENCH_SECONDS:-10}
connections=${BENCH_CONNECTIONS:-50}
threads=${BENCH_THREADS:-2}
warmup=${BENCH_WARMUP_SECONDS:-2}

server_bin=$build/shells/server/service-server
bare_bin=$build/tests/bench/bench_bare_server
for bin in "$server_bin" "$bare_bin"; do
  [[ -x $bin ]] || { echo "missing $bin: build service-server and bench_bare_server in $build" >&2; exit 2; }
done
command -v wrk >/dev/null || { echo "wrk not found (apt-get install wrk)" >&2; exit 2; }

work=$(mktemp -d /tmp/service-bench.XXXXXX)
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# start NAME CMD... : runs CMD in the background and sets $port from its
# "listening on http://HOST:PORT" line.
start() {
  local name=$1
  shift
  "$@" >"$work/$name.out" 2>"$work/$name.err" &
  pids+=($!)
  wait_listening "$name" "$work/$name.out" "$work/$name.err" "$!"
}

# bench NAME PORT: prints "NAME req/s p50 p99 non2xx".
bench() {
  local name=$1 port=$2 url="http://127.0.0.1:$2/v1/health"
  if [[ $warmup -gt 0 ]]; then
    wrk -t"$threads" -c"$connections" -d"${warmup}s" "$url" >/dev/null
  fi
  wrk --latency -t"$threads" -c"$connections" -d"${seconds}s" "$url" >"$work/$name.wrk"
  awk -v name="$name" '
    /Requests\/sec:/ { rps = $2 }
    /^ +50%/ { p50 = $2 }
    /^ +99%/ { p99 = $2 }
    /Non-2xx or 3xx responses:/ { errors = $5 }
    END { printf "%s %s %s %s %s\n", name, rps, p50, p99, (errors == "" ? 0 : errors) }
  ' "$work/$name.wrk"
}

# The service writes one log line per request: keep them off the terminal.
start service env SERVICE_RATE_LIMITS=off "$server_bin" --listen 127.0.0.1:0 --database "sqlite:$work/data/service.db"
service_port=$port
start bare "$bare_bin" --listen 127.0.0.1:0
bare_port=$port
start plain "$bare_bin" --listen 127.0.0.1:0 --plain
plain_port=$port
start threads "$bare_bin" --listen 127.0.0.1:0 --threads
threads_port=$port

results=$(
  bench service "$service_port"
  bench bare "$bare_port"
  bench bare-threads "$threads_port"
  bench httplib-plain "$plain_port"
)

echo "GET /v1/health, wrk -t$threads -c$connections -d${seconds}s, $(nproc) cores"
echo "$results" | awk '
  { name[NR] = $1; rps[NR] = $2; p50[NR] = $3; p99[NR] = $4; err[NR] = $5; if ($1 == "bare") bare = $2; if ($1 == "service") svc = $2 }
  END {
    printf "%-14s %12s %10s %10s %8s\n", "target", "req/s", "p50", "p99", "non-2xx"
    for (i = 1; i <= NR; i++) printf "%-14s %12s %10s %10s %8s\n", name[i], rps[i], p50[i], p99[i], err[i]
    if (bare > 0) printf "ratio service/bare: %.2f\n", svc / bare
  }'
