#!/usr/bin/env bash
# Webhooks benchmark (issue "Integrations and outbound delivery",
# "Performance and reliability").
#
# On one service-server (SQLite, or PostgreSQL with BENCH_TARGETS), for each
# target, with organization I (no integrations) and organization W (5 active
# webhooks to a local receiver, bench_webhook_receiver):
#   1. throughput: the ingest load (bench_ingest_load, 50 connections,
#      closed loop, one new bug in 20 reports, BENCH_SECONDS) in I, then
#      BENCH_ROUNDS (3) times in W (its new bugs are delivered meanwhile)
#      and in I again; each W run against the mean of the two I runs around
#      it -> the median ingest throughput lost to deliveries, and the
#      deliveries/s the worker sustained draining W's backlog;
#   2. steady rate: BENCH_RATE (200) new bugs/s in W for BENCH_SECONDS ->
#      delivery delay from acceptance to receipt (p50, p99, max) over all
#      5 x new bugs deliveries;
#   3. the same with a 6th destination that hangs 10 s on every request ->
#      the 5 healthy destinations' delay.
# Targets: delay p99 <= 1 s at 200 new bugs/s; ingest throughput lost <= 15%;
# a hanging receiver must not slow the others.
#
# Run (Release build):
#   cmake -S . -B build/bench -G Ninja -DCMAKE_BUILD_TYPE=Release
#   ninja -C build/bench service-server bench_ingest_load bench_webhook_receiver
#   tests/bench/webhooks/run.sh [BUILD_DIR]     # default: build/bench
# Environment: BENCH_SECONDS (10), BENCH_RATE (200), BENCH_ROUNDS (3), BENCH_TARGETS
# ("sqlite postgres").
set -euo pipefail
source "$(dirname "$0")/../lib.sh"

root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build/bench}
seconds=${BENCH_SECONDS:-10}
rate=${BENCH_RATE:-200}
targets=${BENCH_TARGETS:-sqlite postgres}
rounds=${BENCH_ROUNDS:-3}

server_bin=$build/shells/server/service-server
load_bin=$build/tests/bench/ingest/bench_ingest_load
receiver_bin=$build/tests/bench/webhooks/bench_webhook_receiver
for bin in "$server_bin" "$load_bin" "$receiver_bin"; do
  [[ -x $bin ]] || { echo "missing $bin: build service-server bench_ingest_load bench_webhook_receiver in $build" >&2; exit 2; }
done
require_tools curl jq

work=$(mktemp -d /tmp/service-webhooks-bench.XXXXXX)
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

"$receiver_bin" >"$work/receiver.out" 2>"$work/receiver.err" &
receiver_pid=$!
pids+=("$receiver_pid")
for _ in $(seq 1 100); do grep -q '^listening' "$work/receiver.out" 2>/dev/null && break; sleep 0.1; done
rport=$(awk '/^listening/ { print $2 }' "$work/receiver.out")
[[ -n $rport ]] || { echo "receiver did not start" >&2; cat "$work/receiver.err" >&2; exit 1; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2) }'; }
stats() { curl -sf "http://127.0.0.1:$rport/stats${1:-}"; }
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat"; } # user + system clock ticks of PID

start() { # URL: sets $port, $pid
  env SERVICE_RATE_LIMITS=off SERVICE_MAX_CONNECTIONS_PER_CLIENT=0 SERVICE_ALLOW_PRIVATE_DESTINATIONS=1 \
    SERVICE_PLAN_LIMITS=free:bugs_per_month=1000000000,integrations=100 \
    SERVICE_JWT_SECRET=webhooks-benchmark-secret-0123456789abcdef \
    "$server_bin" --listen 127.0.0.1:0 --database "$1" >"$work/out" 2>"$work/err" &
  pid=$!
  pids+=("$pid")
  wait_listening "server" "$work/out" "$work/err" "$pid"
}
webhook() { # PORT TOKEN ORG PROJECT PATH
  curl -sf -X POST "http://127.0.0.1:$1/v1/integrations" -H 'Content-Type: application/json' \
    -H "Authorization: Bearer $2" -H "X-Service-Org: $3" \
    -d "{\"projectId\":\"$4\",\"type\":\"webhook\",\"config\":{\"url\":\"http://127.0.0.1:$rport$5\"}}" >/dev/null
}
load() { # PORT KEY SECONDS [extra args]
  local p=$1 k=$2 s=$3
  shift 3
  "$load_bin" --url "http://127.0.0.1:$p/v1/ingest" --key "$k" --seconds "$s" "$@"
}
drain() { # EXPECTED: waits (up to 10 min) until the receiver has EXPECTED deliveries
  for _ in $(seq 1 6000); do
    [[ $(field "$(stats)" received) -ge $1 ]] && return 0
    sleep 0.1
  done
  echo "  only $(field "$(stats)" received) of $1 deliveries arrived" >&2
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
  read -r wkey wtoken worg wproject < <(register_workspace "$port" hooks@example.com)
  for i in 1 2 3 4 5; do webhook "$port" "$wtoken" "$worg" "$wproject" "/r/$i"; done
  load "$port" "$ikey" 3 --connections 50 >/dev/null

  # 1. Throughput with and without deliveries: I, then BENCH_ROUNDS times
  # W followed by I; each W run against the mean of the I runs around it,
  # the median of those losses reported (run-to-run noise on a shared
  # 2-core machine is as large as the effect measured).
  prev=$(load "$port" "$ikey" "$seconds" --connections 50)
  echo "  $target ingest alone: $prev" >&2
  losses=() alones=() withs=() rcpus=() dps=()
  for round in $(seq 1 "$rounds"); do
    stats "?reset=1" >/dev/null
    rcpu0=$(cpu_ticks "$receiver_pid")
    with=$(load "$port" "$wkey" "$seconds" --connections 50)
    # The receiver shares the machine's cores with the server: its CPU during
    # the loaded run is part of the loss measured here, not the service's.
    rcpus+=("$(awk -v a="$rcpu0" -v b="$(cpu_ticks "$receiver_pid")" -v hz="$(getconf CLK_TCK)" -v s="$seconds" \
      'BEGIN { printf "%.0f", (b - a) / hz / s * 100 }')")
    drain $(($(field "$with" new_bugs) * 5))
    drained=$(stats "?reset=1")
    after=$(load "$port" "$ikey" "$seconds" --connections 50)
    base=$(( ($(field "$prev" rps) + $(field "$after" rps)) / 2 ))
    losses+=("$(awk -v a="$base" -v w="$(field "$with" rps)" 'BEGIN { printf "%.1f", (a > 0 ? (a - w) / a * 100 : 0) }')")
    alones+=("$base") withs+=("$(field "$with" rps)") dps+=("$(field "$drained" per_s)")
    echo "  $target round $round ingest with 5 webhooks: $with" >&2
    echo "  $target round $round deliveries of that run: $drained (the receiver used ${rcpus[-1]}% of one core meanwhile)" >&2
    echo "  $target round $round ingest alone, after: $after" >&2
    echo "  $target round $round: alone $base r/s (mean of the runs around it), with $(field "$with" rps) r/s, lost ${losses[-1]}%" >&2
    prev=$after
  done
  echo "  $target losses by round: ${losses[*]} (%)" >&2

  # 2. Steady rate of new bugs: in I (no deliveries: what ingest alone does
  # at that rate), then in W.
  steady0=$(load "$port" "$ikey" "$seconds" --connections 20 --rate "$rate" --new-every 1)
  echo "  $target steady $rate new bugs/s, no integrations: $steady0" >&2
  stats "?reset=1" >/dev/null
  steady=$(load "$port" "$wkey" "$seconds" --connections 20 --rate "$rate" --new-every 1)
  drain $(($(field "$steady" new_bugs) * 5))
  delay=$(stats "?reset=1")
  echo "  $target steady $rate new bugs/s: $steady" >&2
  echo "  $target delays: $delay" >&2

  # 3. The same with a destination that hangs 10 s.
  webhook "$port" "$wtoken" "$worg" "$wproject" "/hang/1"
  steady2=$(load "$port" "$wkey" "$seconds" --connections 20 --rate "$rate" --new-every 1)
  drain $(($(field "$steady2" new_bugs) * 5))
  hung=$(stats "?reset=1")
  echo "  $target with a hanging destination: $steady2" >&2
  echo "  $target delays: $hung" >&2

  rows+=("$target $(median "${alones[@]}") $(median "${withs[@]}") $(median "${losses[@]}")% $(median "${rcpus[@]}")% $(median "${dps[@]}") $(field "$steady0" rps)/$(field "$steady" rps) $(field "$delay" p50_ms) $(field "$delay" p99_ms) $(field "$delay" max_ms) $(field "$hung" p50_ms) $(field "$hung" p99_ms) $(field "$hung" hung)")
  kill -TERM "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  if [[ $target == postgres ]]; then "$root/scripts/pg-cluster.sh" stop "$work/pg" >/dev/null 2>&1 || true; pg_started=0; fi
done

echo
echo "Webhooks: 5 active webhook destinations on a local receiver; $seconds s runs; $rounds rounds (medians); $(nproc) cores"
printf "%-9s %10s %10s %6s %9s %10s %8s %8s %8s %8s %10s %10s %6s\n" target "alone r/s" "with r/s" lost "recv cpu" "deliv/s" "new/s 0/5" "p50 ms" "p99 ms" "max ms" "hang p50" "hang p99" "hung"
for r in "${rows[@]}"; do
  read -r t a w lost rc dps n p50 p99 mx hp50 hp99 hg <<<"$r"
  printf "%-9s %10s %10s %6s %9s %10s %8s %8s %8s %8s %10s %10s %6s\n" "$t" "$a" "$w" "$lost" "$rc" "$dps" "$n" "$p50" "$p99" "$mx" "$hp50" "$hp99" "$hg"
done
