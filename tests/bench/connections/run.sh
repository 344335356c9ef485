#!/usr/bin/env bash
# Connections benchmark (issue "A transport that holds thousands of
# connections"): service-server on SQLite with the event-loop transport
# (SERVICE_TRANSPORT=events, the default) beside the previous thread per
# connection (SERVICE_TRANSPORT=threads), in one run. Every phase starts a
# fresh server (rate limits off, no per-client cap: all load comes from
# 127.0.0.1):
#   stalled  BENCH_STALLED (2000) connections that sent half a request line;
#            meanwhile GET /v1/health on fresh connections, one after another:
#            p50/p99 (target on events: p99 <= 20 ms). Threads: only
#            BENCH_BASELINE_REQUESTS (3) requests, each given 30 s.
#   idle     BENCH_IDLE (2000) answered keep-alive connections left idle:
#            the server's RSS (target <= 100 MB), and health meanwhile.
#   streams  BENCH_STREAMS (1000) open GET /v1/bugs/stream event streams of a
#            signed-in member, then health meanwhile, RSS, then one report:
#            how many streams got its event and how long the last one took.
#   health   wrk -t2 -c50 for BENCH_SECONDS (10): requests/s.
#   ingest   bench_ingest_load, 50 connections, BENCH_SECONDS: reports/s.
# The last line of each transport's throughput is compared: events/threads
# (target: no worse than 0.95).
#
# Run (Release build):
#   cmake -S . -B build/bench -G Ninja -DCMAKE_BUILD_TYPE=Release
#   ninja -C build/bench service-server bench_connections_hold bench_ingest_load
#   tests/bench/connections/run.sh [BUILD_DIR]        # default: build/bench
# Environment: BENCH_TRANSPORTS ("events threads"), BENCH_PHASES
# ("stalled idle streams health ingest"), and the counts above.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"

root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build/bench}
seconds=${BENCH_SECONDS:-10}
stalled=${BENCH_STALLED:-2000}
idle=${BENCH_IDLE:-2000}
streams=${BENCH_STREAMS:-1000}
baseline_requests=${BENCH_BASELINE_REQUESTS:-3}
transports=${BENCH_TRANSPORTS:-events threads}
phases=${BENCH_PHASES:-stalled idle streams health ingest}

server_bin=$build/shells/server/service-server
hold_bin=$build/tests/bench/connections/bench_connections_hold
load_bin=$build/tests/bench/ingest/bench_ingest_load
for bin in "$server_bin" "$hold_bin" "$load_bin"; do
  [[ -x $bin ]] || { echo "missing $bin: build service-server bench_connections_hold bench_ingest_load in $build" >&2; exit 2; }
done
require_tools curl jq wrk
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true

work=$(mktemp -d /tmp/service-connections-bench.XXXXXX)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# start TRANSPORT: a fresh server on a fresh database; sets $port and $pid.
start() {
  local transport=$1 dir
  dir=$(mktemp -d "$work/db.XXXXXX")
  env SERVICE_RATE_LIMITS=off SERVICE_MAX_CONNECTIONS_PER_CLIENT=0 SERVICE_TRANSPORT="$transport" \
    SERVICE_PLAN_LIMITS=free:bugs_per_month=1000000000 SERVICE_JWT_SECRET=connections-benchmark-secret-0123456789 \
    "$server_bin" --listen 127.0.0.1:0 --database "sqlite:$dir/service.db" >"$dir/out" 2>"$dir/err" &
  pid=$!
  pids+=("$pid")
  wait_listening "server" "$dir/out" "$dir/err" "$pid"
}
# The threads transport may be stuck behind stalled connections: no waiting.
stop() { kill -KILL "$1" 2>/dev/null || true; wait "$1" 2>/dev/null || true; }
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
# cpu_ticks PID: the process's CPU time (user + system) in clock ticks.
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; }
tick=$(getconf CLK_TCK)


declare -A out
for t in $transports; do
  requests=200
  [[ $t == threads ]] && requests=$baseline_requests
  for phase in $phases; do
    case $phase in
      stalled)
        start "$t"
        line=$("$hold_bin" --port "$port" --stalled "$stalled" --requests "$requests" --server-pid "$pid")
        echo "  $t stalled: $line" >&2
        out[$t,stalled]=$line
        stop "$pid"
        ;;
      idle)
        start "$t"
        out[$t,rss0]=$(rss_kb "$pid")
        line=$("$hold_bin" --port "$port" --idle "$idle" --requests "$requests" --server-pid "$pid")
        echo "  $t idle: $line (idle server before: ${out[$t,rss0]} kB)" >&2
        out[$t,idle]=$line
        stop "$pid"
        ;;
      streams)
        start "$t"
        read -r key token org _ < <(register_workspace "$port" bench@example.com)
        out[$t,rss0s]=$(rss_kb "$pid")
        line=$("$hold_bin" --port "$port" --streams "$streams" --stream-path /v1/bugs/stream \
          --header "Authorization: Bearer $token" --header "X-Service-Org: $org" \
          --requests "$requests" --server-pid "$pid" --ingest-key "$key")
        echo "  $t streams: $line" >&2
        out[$t,streams]=$line
        stop "$pid"
        ;;
      health)
        start "$t"
        wrk -t2 -c50 -d2s "http://127.0.0.1:$port/v1/health" >/dev/null
        c0=$(cpu_ticks "$pid")
        wrk -t2 -c50 -d"${seconds}s" "http://127.0.0.1:$port/v1/health" >"$work/wrk.out"
        c1=$(cpu_ticks "$pid")
        out[$t,health]=$(awk '/Requests\/sec:/ { print $2 }' "$work/wrk.out")
        n=$(awk '/requests in/ { print $1 }' "$work/wrk.out")
        out[$t,health_cpu]=$(awk -v a="$c0" -v b="$c1" -v t="$tick" -v n="$n" 'BEGIN { printf "%.1f", n ? (b - a) / t * 1e6 / n : 0 }')
        echo "  $t health: ${out[$t,health]} req/s, ${out[$t,health_cpu]} us CPU/request" >&2
        stop "$pid"
        ;;
      ingest)
        start "$t"
        read -r key token org _ < <(register_workspace "$port" bench@example.com)
        "$load_bin" --url "http://127.0.0.1:$port/v1/ingest" --key "$key" --connections 50 --seconds 3 >/dev/null
        c0=$(cpu_ticks "$pid")
        line=$("$load_bin" --url "http://127.0.0.1:$port/v1/ingest" --key "$key" --connections 50 --seconds "$seconds")
        out[$t,ingest]=$(field "$line" rps)
        c1=$(cpu_ticks "$pid")
        out[$t,ingest_cpu]=$(awk -v a="$c0" -v b="$c1" -v t="$tick" -v n="$(field "$line" ok)" 'BEGIN { printf "%.1f", n ? (b - a) / t * 1e6 / n : 0 }')
        echo "  $t ingest: $line" >&2
        stop "$pid"
        ;;
      *) echo "unknown phase $phase" >&2; exit 2 ;;
    esac
  done
done

echo
echo "service-server on SQLite, $(nproc) cores; health on fresh connections, one after another"
printf "%-34s %-24s %-24s\n" "" "events (default)" "threads (before)"
cell() { # KEY FIELD...
  local v=${out[$1]:-}
  [[ -z $v ]] && { echo "-"; return; }
  shift
  local s="" f
  for f in "$@"; do s+="$(field "$v" "$f") "; done
  echo "${s% }"
}
row() { printf "%-34s %-24s %-24s\n" "$1" "$2" "$3"; }
if [[ $phases == *stalled* ]]; then
  row "health p50/p99 ms, $stalled stalled" "$(cell events,stalled p50_ms p99_ms)" "$(cell threads,stalled p50_ms p99_ms)"
  row "  ok/requests (timeouts)" "$(cell events,stalled ok requests timeouts)" "$(cell threads,stalled ok requests timeouts)"
  row "  RSS kB" "$(cell events,stalled rss_kb)" "$(cell threads,stalled rss_kb)"
fi
if [[ $phases == *idle* ]]; then
  row "RSS kB idle server" "${out[events,rss0]:--}" "${out[threads,rss0]:--}"
  row "RSS kB, $idle idle keep-alives" "$(cell events,idle rss_kb)" "$(cell threads,idle rss_kb)"
  row "  held / health p50/p99 ms" "$(cell events,idle held p50_ms p99_ms)" "$(cell threads,idle held p50_ms p99_ms)"
fi
if [[ $phases == *streams* ]]; then
  row "health p50/p99 ms, $streams streams" "$(cell events,streams p50_ms p99_ms)" "$(cell threads,streams p50_ms p99_ms)"
  row "  streams held / events received" "$(cell events,streams held events)" "$(cell threads,streams held events)"
  row "  one report to every stream, ms" "$(cell events,streams fanout_ms)" "$(cell threads,streams fanout_ms)"
  row "  RSS kB (before the streams)" "$(cell events,streams rss_kb) (${out[events,rss0s]:--})" "$(cell threads,streams rss_kb) (${out[threads,rss0s]:--})"
fi
if [[ $phases == *health* ]]; then
  row "health req/s (wrk -c50)" "${out[events,health]:--}" "${out[threads,health]:--}"
  [[ -n ${out[events,health]:-} && -n ${out[threads,health]:-} ]] &&
    awk -v a="${out[events,health]}" -v b="${out[threads,health]}" 'BEGIN { printf "%-34s %.2f\n", "  ratio events/threads", a / b }'
  row "  server CPU us/request" "${out[events,health_cpu]:--}" "${out[threads,health_cpu]:--}"
fi
if [[ $phases == *ingest* ]]; then
  row "ingest reports/s (50 conns)" "${out[events,ingest]:--}" "${out[threads,ingest]:--}"
  [[ -n ${out[events,ingest]:-} && -n ${out[threads,ingest]:-} ]] &&
    awk -v a="${out[events,ingest]}" -v b="${out[threads,ingest]}" 'BEGIN { printf "%-34s %.2f\n", "  ratio events/threads", a / b }'
  row "  server CPU us/report" "${out[events,ingest_cpu]:--}" "${out[threads,ingest_cpu]:--}"
fi
