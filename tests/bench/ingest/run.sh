#!/usr/bin/env bash
# Ingest benchmark (issue 4 "Performance"): POST /v1/ingest on the real
# service-server over HTTP, on SQLite and on PostgreSQL, beside the ceiling of
# a bare handler on the same transport (bench_ingest_bare), in one run.
#
# Load: bench_ingest_load (tests/bench/ingest/load.cpp), 50 keep-alive
# connections, realistic browser reports of about 4 KB with 20 events, one in
# 20 with a new fingerprint. For each target:
#   1. warm-up (BENCH_WARMUP_SECONDS, closed loop)
#   2. maximum throughput: closed loop for BENCH_SECONDS -> reports/s, p50, p99
#   3. half load: an open loop at half that rate for BENCH_SECONDS -> p50, p99
#      (latency from each report's scheduled send time)
#   4. after a clean shutdown (SIGTERM), the occurrences in the database are
#      counted and compared with the 201 answers: no acknowledged report may
#      be missing.
#
# Run (Release build of the three targets):
#   cmake -S . -B build/bench -G Ninja -DCMAKE_BUILD_TYPE=Release
#   ninja -C build/bench service-server bench_ingest_load bench_ingest_bare
#   tests/bench/ingest/run.sh [BUILD_DIR]          # default: build/bench
#
# Environment: BENCH_SECONDS (10), BENCH_WARMUP_SECONDS (3),
# BENCH_CONNECTIONS (50), BENCH_TARGETS ("bare sqlite sqlite-envelope postgres
# postgres-envelope"; *-envelope: the same reports as gzip-compressed Sentry
# envelopes to /api/<project>/envelope/, what Sentry SDKs send),
# BENCH_POSTGRES_URL (an empty database to use instead of a throwaway
# cluster started with scripts/pg-cluster.sh; fsync stays on).
# The load generator shares the machine with the server (and PostgreSQL):
# on 2 cores the figures measure all of them together.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"

root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build/bench}
seconds=${BENCH_SECONDS:-10}
warmup=${BENCH_WARMUP_SECONDS:-3}
connections=${BENCH_CONNECTIONS:-50}
targets=${BENCH_TARGETS:-bare sqlite sqlite-envelope postgres postgres-envelope}

server_bin=$build/shells/server/service-server
load_bin=$build/tests/bench/ingest/bench_ingest_load
bare_bin=$build/tests/bench/ingest/bench_ingest_bare
for bin in "$server_bin" "$load_bin" "$bare_bin"; do
  [[ -x $bin ]] || { echo "missing $bin: build service-server bench_ingest_load bench_ingest_bare in $build" >&2; exit 2; }
done
for tool in curl jq sqlite3 psql; do
  command -v "$tool" >/dev/null || { echo "$tool not found" >&2; exit 2; }
done

work=$(mktemp -d /tmp/service-ingest-bench.XXXXXX)
chmod 755 "$work"
pids=()
pg_started=0
cleanup() {
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  if [[ $pg_started -eq 1 ]]; then "$root/scripts/pg-cluster.sh" stop "$work/pg" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# start NAME CMD...: runs CMD in the background, sets $port and $pid.
start() {
  local name=$1
  shift
  "$@" >"$work/$name.out" 2>"$work/$name.err" &
  pid=$!
  pids+=("$pid")
  wait_listening "$name" "$work/$name.out" "$work/$name.err" "$pid"
}

stop() {
  kill -TERM "$1" 2>/dev/null || true
  wait "$1" 2>/dev/null || true
}


# load PORT KEY [--rate R] SECONDS: runs the generator, prints its line.
# $load_path and $load_args choose native ingest or Sentry envelopes.
load_path=/v1/ingest
load_args=()
# Bodies made before each phase's clock starts (enough for about 6,000
# reports/s): the generator's own work (JSON, gzip) then takes no CPU from
# the server during the measurement.
pool=$((6000 * (seconds > warmup ? seconds : warmup)))
load() {
  local port=$1 key=$2 secs=$3
  shift 3
  "$load_bin" --url "http://127.0.0.1:$port$load_path" --key "$key" --connections "$connections" \
    --seconds "$secs" --pool "$pool" "${load_args[@]}" "$@"
}

# cpu_ticks PID...: CPU time (user + system, clock ticks) of the processes.
cpu_ticks() {
  local total=0 pid t
  for pid in "$@"; do
    t=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null || echo 0)
    total=$((total + t))
  done
  echo "$total"
}
# The server's processes to account: its pid, plus the benchmark cluster's
# postmaster and its children (the backends) for PostgreSQL.
cpu_pids() {
  echo "$1"
  if [[ ${2:-} == postgres* && -r $work/pg/data/postmaster.pid ]]; then
    local pm
    pm=$(head -n 1 "$work/pg/data/postmaster.pid")
    echo "$pm"
    pgrep -P "$pm" || true
  fi
}
tick=$(getconf CLK_TCK)

results=()
# measure NAME PORT KEY PID: warm-up, max, half; appends to results; sets $acked.
# The max phase also records the CPU time the server (and PostgreSQL) spent
# per acknowledged report: on a shared 2-core machine it tells what the
# throughput would be with both cores to itself.
measure() {
  local name=$1 port=$2 key=$3 spid=$4 line max half c0 c1 pids
  acked=0
  if [[ $warmup != 0 ]]; then
    line=$(load "$port" "$key" "$warmup")
    acked=$((acked + $(field "$line" ok)))
  fi
  pids=$(cpu_pids "$spid" "$name")
  # shellcheck disable=SC2086
  c0=$(cpu_ticks $pids)
  max=$(load "$port" "$key" "$seconds")
  # shellcheck disable=SC2086
  c1=$(cpu_ticks $pids)
  local cpu_us
  cpu_us=$(awk -v a="$c0" -v b="$c1" -v t="$tick" -v n="$(field "$max" ok)" 'BEGIN { printf "%d", n ? (b - a) / t * 1e6 / n : 0 }')
  echo "  $name max:  $max" >&2
  acked=$((acked + $(field "$max" ok)))
  local rate
  rate=$(awk -v r="$(field "$max" rps)" 'BEGIN { printf "%d", r / 2 }')
  half=$(load "$port" "$key" "$seconds" --rate "$rate")
  echo "  $name half: $half" >&2
  acked=$((acked + $(field "$half" ok)))
  results+=("$name $(field "$max" rps) $(field "$max" p50_ms) $(field "$max" p99_ms) $cpu_us $rate $(field "$half" p50_ms) $(field "$half" p99_ms) $(( $(field "$max" non2xx) + $(field "$half" non2xx) + $(field "$max" errors) + $(field "$half" errors) ))")
}

# register PORT: a fresh account; prints its capture key and project number.
register() {
  curl -sf -X POST "http://127.0.0.1:$1/v1/auth/register" -H 'Content-Type: application/json' \
    -d '{"email":"bench@example.com","password":"benchmark-password","name":"Bench","orgName":"Bench Inc"}' |
    jq -r '.apiKey + " " + (.project.project_number | tostring)'
}

server_env=(env SERVICE_RATE_LIMITS=off SERVICE_PLAN_LIMITS=free:bugs_per_month=1000000000
  SERVICE_JWT_SECRET=ingest-benchmark-secret-0123456789abcdef)

verify() {
  local name=$1 stored=$2
  if [[ $stored -lt $acked ]]; then
    echo "$name: LOST REPORTS: $acked acknowledged, $stored stored" >&2
    verdicts+=("$name: $acked acknowledged, $stored stored: LOST $((acked - stored))")
  else
    verdicts+=("$name: $acked acknowledged, $stored stored: none lost")
  fi
}
verdicts=()

# use_target NAME PROJECT_NUMBER: native ingest, or Sentry envelopes for *-envelope.
use_target() {
  if [[ $1 == *-envelope ]]; then
    load_path=/api/$2/envelope/
    load_args=(--envelope)
  else
    load_path=/v1/ingest
    load_args=()
  fi
}

for target in $targets; do
  case $target in
    bare)
      start bare "$bare_bin" --listen 127.0.0.1:0
      measure bare "$port" none "$pid"
      stop "$pid"
      ;;
    sqlite | sqlite-envelope)
      db=$work/$target/service.db
      start "$target" "${server_env[@]}" "$server_bin" --listen 127.0.0.1:0 --database "sqlite:$db"
      read -r key number <<<"$(register "$port")"
      use_target "$target" "$number"
      measure "$target" "$port" "$key" "$pid"
      stop "$pid"
      verify "$target" "$(sqlite3 "$db" 'SELECT COUNT(*) FROM occurrences')"
      ;;
    postgres | postgres-envelope)
      url=${BENCH_POSTGRES_URL:-}
      if [[ -z $url ]]; then
        if [[ $pg_started -eq 1 ]]; then "$root/scripts/pg-cluster.sh" stop "$work/pg" >/dev/null 2>&1 || true; rm -rf "$work/pg"; fi
        url=$("$root/scripts/pg-cluster.sh" start "$work/pg" | tail -n 1)
        pg_started=1
      else
        psql "$url" -qc 'DROP SCHEMA public CASCADE; CREATE SCHEMA public' >/dev/null
      fi
      start "$target" "${server_env[@]}" "$server_bin" --listen 127.0.0.1:0 --database "$url"
      read -r key number <<<"$(register "$port")"
      use_target "$target" "$number"
      measure "$target" "$port" "$key" "$pid"
      stop "$pid"
      verify "$target" "$(psql "$url" -tAc 'SELECT COUNT(*) FROM occurrences')"
      ;;
    *) echo "unknown target $target" >&2; exit 2 ;;
  esac
done

echo
echo "POST /v1/ingest, ~4 KB reports with 20 events, 1 in 20 new, $connections keep-alive connections, ${seconds}s per phase, $(nproc) cores"
printf '%-18s %10s %9s %9s %12s | %10s %9s %9s | %7s\n' target "max rep/s" "p50 ms" "p99 ms" "cpu us/rep" "half rate" \
  "p50 ms" "p99 ms" errors
for r in "${results[@]}"; do
  # shellcheck disable=SC2086
  printf '%-18s %10s %9s %9s %12s | %10s %9s %9s | %7s\n' $r
done
echo "cpu us/rep: CPU time of the server (and of PostgreSQL) per acknowledged report in the max phase;"
echo "the load generator's own share is not included. Other processes on the machine: load average $(cut -d' ' -f1-3 /proc/loadavg)."
for v in "${verdicts[@]}"; do echo "$v"; done
# Envelope throughput against native ingest on the same backend (target >= 80%).
for b in sqlite postgres; do
  native=$(printf '%s\n' "${results[@]}" | awk -v t="$b" '$1 == t { print $2 }')
  env=$(printf '%s\n' "${results[@]}" | awk -v t="$b-envelope" '$1 == t { print $2 }')
  if [[ -n $native && -n $env ]]; then
    awk -v n="$native" -v e="$env" -v b="$b" 'BEGIN { printf "%s: envelopes at %.0f%% of native ingest (target >= 80%%)\n", b, (n > 0 ? 100 * e / n : 0) }'
  fi
done
