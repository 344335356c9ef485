#!/usr/bin/env bash
# Stream benchmark (issue "Triage writes ... and the live stream",
# "Performance"): streams must not starve ordinary requests.
#
# On one service-server (SQLite, or PostgreSQL with BENCH_TARGETS), for each
# target:
#   1. the ingest load alone (bench_ingest_load, 50 connections,
#      BENCH_SECONDS) in organization I -> reports/s (run before and after
#      step 2; the baseline is their mean, so database growth and machine
#      drift do not count as streams' cost);
#   2. BENCH_STREAMS (1000) GET /v1/bugs/stream connections of a member of
#      organization S, held open; then the same ingest load in organization I
#      while bench_stream_fanout posts one report to S every 500 ms and times
#      its event's arrival on every stream -> fan-out p50/p99/max over all
#      deliveries, the slowest marker, reports/s with the streams open, and
#      the server's RSS with the streams open.
# Targets: fan-out p99 <= 200 ms; ingest throughput lost <= 20%.
#
# Run (Release build):
#   cmake -S . -B build/bench -G Ninja -DCMAKE_BUILD_TYPE=Release
#   ninja -C build/bench service-server bench_stream_fanout bench_ingest_load
#   tests/bench/stream/run.sh [BUILD_DIR]        # default: build/bench
# Environment: BENCH_SECONDS (10), BENCH_STREAMS (1000), BENCH_TARGETS
# ("sqlite postgres"; postgres starts a throwaway cluster with
# scripts/pg-cluster.sh).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"

root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build/bench}
seconds=${BENCH_SECONDS:-10}
streams=${BENCH_STREAMS:-1000}
targets=${BENCH_TARGETS:-sqlite postgres}

server_bin=$build/shells/server/service-server
fanout_bin=$build/tests/bench/stream/bench_stream_fanout
load_bin=$build/tests/bench/ingest/bench_ingest_load
for bin in "$server_bin" "$fanout_bin" "$load_bin"; do
  [[ -x $bin ]] || { echo "missing $bin: build service-server bench_stream_fanout bench_ingest_load in $build" >&2; exit 2; }
done
require_tools curl jq
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

work=$(mktemp -d /tmp/service-stream-bench.XXXXXX)
chmod 755 "$work"
pids=()
pg_started=0
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  if [[ $pg_started -eq 1 ]]; then "$root/scripts/pg-cluster.sh" stop "$work/pg" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

start() { # URL: sets $port, $pid
  env SERVICE_RATE_LIMITS=off SERVICE_MAX_CONNECTIONS_PER_CLIENT=0 \
    SERVICE_PLAN_LIMITS=free:bugs_per_month=1000000000 SERVICE_JWT_SECRET=stream-benchmark-secret-0123456789abcdef \
    "$server_bin" --listen 127.0.0.1:0 --database "$1" >"$work/out" 2>"$work/err" &
  pid=$!
  pids+=("$pid")
  wait_listening "server" "$work/out" "$work/err" "$pid"
}
load() { # PORT KEY SECONDS
  "$load_bin" --url "http://127.0.0.1:$1/v1/ingest" --key "$2" --connections 50 --seconds "$3"
}

rows=()
for target in $targets; do
  case $target in
    sqlite) url="sqlite:$work/sqlite/service.db" ;;
    postgres)
      url=$("$root/scripts/pg-cluster.sh" start "$work/pg" | tail -n 1)
      pg_started=1
      ;;
    *) echo "unknown target $target" >&2; exit 2 ;;
  esac
  start "$url"
  read -r ikey _ _ _ < <(register_workspace "$port" ingest@example.com)
  read -r skey stoken sorg _ < <(register_workspace "$port" streams@example.com)
  load "$port" "$ikey" 3 >/dev/null
  alone=$(load "$port" "$ikey" "$seconds")
  echo "  $target ingest alone: $alone" >&2
  rss_before=$(awk '/^VmRSS:/ { print $2 }' "/proc/$pid/status")
  rm -f "$work/ready"
  "$fanout_bin" --port "$port" --streams "$streams" --key "$skey" --server-pid "$pid" \
    --header "Authorization: Bearer $stoken" --header "X-Service-Org: $sorg" \
    --markers $((seconds * 2)) --interval-ms 500 --ready-file "$work/ready" >"$work/fanout.out" &
  fpid=$!
  for _ in $(seq 1 600); do [[ -s $work/ready ]] && break; sleep 0.1; done
  with=$(load "$port" "$ikey" "$seconds")
  wait "$fpid"
  fan=$(cat "$work/fanout.out")
  # The load alone once more, after: the database has grown and the machine
  # drifts; the baseline is the mean of the runs before and after.
  after=$(load "$port" "$ikey" "$seconds")
  echo "  $target ingest alone, after: $after" >&2
  alone="rps=$(( ($(field "$alone" rps) + $(field "$after" rps)) / 2 ))"
  echo "  $target ingest with streams: $with" >&2
  echo "  $target fan-out: $fan" >&2
  rows+=("$target $(field "$alone" rps) $(field "$with" rps) $(field "$fan" streams) $(field "$fan" open_at_end) $(field "$fan" deliveries) $(field "$fan" missing) $(field "$fan" p50_ms) $(field "$fan" p99_ms) $(field "$fan" worst_fanout_ms) $rss_before $(field "$fan" rss_kb)")
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [[ $target == postgres ]]; then "$root/scripts/pg-cluster.sh" stop "$work/pg" >/dev/null 2>&1 || true; pg_started=0; fi
done

echo
echo "Live stream under ingest load: $streams streams in one organization, the ingest load (50 connections) in another, one report to the streams' organization every 500 ms; $(nproc) cores"
printf "%-9s %10s %10s %6s %8s %8s %7s %8s %8s %8s %10s %10s\n" target "alone r/s" "with r/s" lost "streams" "open" "missing" "p50 ms" "p99 ms" "worst ms" "RSS0 kB" "RSS kB"
for r in "${rows[@]}"; do
  read -r t a w s o d m p50 p99 worst r0 r1 <<<"$r"
  lost=$(awk -v a="$a" -v w="$w" 'BEGIN { printf "%.0f%%", (a > 0 ? (a - w) / a * 100 : 0) }')
  printf "%-9s %10s %10s %6s %8s %8s %7s %8s %8s %8s %10s %10s\n" "$t" "$a" "$w" "$lost" "$s" "$o" "$m" "$p50" "$p99" "$worst" "$r0" "$r1"
done
