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
# BENCH_CONNECTIONS (50), BENCH_TARGETS ("bare sqlite sqlite-envelope
# sqlite-mapped postgres postgres-envelope postgres-mapped"; *-envelope: the
# same reports as gzip-compressed Sentry envelopes to
# /api/<project>/envelope/, what Sentry SDKs send; *-mapped: the same
# envelopes to a project that has the bundle their frames point into
# uploaded with sentry-cli, so every event's frames are resolved through
# its source map), BENCH_MAP_SITES (4096: throw sites in the mapped
# bundle), BENCH_POSTGRES_URL (an empty database to use instead of a
# throwaway cluster started with scripts/pg-cluster.sh; fsync stays on).
#
# Source maps (issue 31 "Performance"): when node and the e2e tools
# (tests/e2e/sourcemaps/node_modules: esbuild, @sentry/cli; scripts/
# install-deps.sh --test) are present, the run first builds a bundle from
# sourcemap/generate.js (BENCH_MAP_SITES rules, each throwing at its own
# line; about 295 KB minified, a 1.3 MB map at 4096), injects its debug id
# with sentry-cli and records where each site's two frames are in it
# (sourcemap/frames.js). Every envelope target then sends the same
# envelopes: a vendor frame, the bundle's two frames of the message's site
# and the bundle's debug id in debug_meta. *-envelope sends them to a
# project with no upload (nothing is looked up: the unmapped rate);
# *-mapped to a project the bundle was uploaded to (sentry-cli sourcemaps
# upload with an agent token; the organization is moved to the enterprise
# plan in the database for that), so each event's two bundle frames are
# resolved (the vendor frame stays map_not_found). Both targets get the same
# plan. Without the tools the *-mapped targets are skipped with a message and
# the envelopes carry two fixed frames and no debug_meta. After each envelope
# target the stored reports with resolved frames are counted.
# The load generator shares the machine with the server (and PostgreSQL):
# on 2 cores the figures measure all of them together.
set -euo pipefail
source "$(dirname "$0")/../lib.sh"

root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build/bench}
seconds=${BENCH_SECONDS:-10}
warmup=${BENCH_WARMUP_SECONDS:-3}
connections=${BENCH_CONNECTIONS:-50}
targets=${BENCH_TARGETS:-bare sqlite sqlite-envelope sqlite-mapped postgres postgres-envelope postgres-mapped}
map_sites=${BENCH_MAP_SITES:-4096}

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
  local frames=()
  if [[ " ${load_args[*]} " == *" --frames "* ]]; then frames=(--site-offset "$site_offset"); fi
  "$load_bin" --url "http://127.0.0.1:$port$load_path" --key "$key" --connections "$connections" \
    --seconds "$secs" --pool "$pool" "${load_args[@]}" "${frames[@]}" "$@"
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
  # The new messages of each phase get sites the earlier phases did not use.
  site_offset=0
  if [[ $warmup != 0 ]]; then
    line=$(load "$port" "$key" "$warmup")
    acked=$((acked + $(field "$line" ok)))
    site_offset=$((site_offset + $(field "$line" created)))
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
  site_offset=$((site_offset + $(field "$max" created)))
  local rate
  rate=$(awk -v r="$(field "$max" rps)" 'BEGIN { printf "%d", r / 2 }')
  half=$(load "$port" "$key" "$seconds" --rate "$rate")
  echo "  $name half: $half" >&2
  acked=$((acked + $(field "$half" ok)))
  results+=("$name $(field "$max" rps) $(field "$max" p50_ms) $(field "$max" p99_ms) $cpu_us $rate $(field "$half" p50_ms) $(field "$half" p99_ms) $(( $(field "$max" non2xx) + $(field "$half" non2xx) + $(field "$max" errors) + $(field "$half" errors) ))")
}

# register PORT: a fresh account; prints its capture key, project number,
# access token, organization id, project id, organization slug and project
# slug.
register() {
  curl -sf -X POST "http://127.0.0.1:$1/v1/auth/register" -H 'Content-Type: application/json' \
    -d '{"email":"bench@example.com","password":"benchmark-password","name":"Bench","orgName":"Bench Inc"}' |
    jq -r '"\(.apiKey) \(.project.project_number) \(.accessToken) \(.org.id) \(.project.id) \(.org.slug) \(.project.slug)"'
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

# use_target NAME PROJECT_NUMBER: native ingest, or Sentry envelopes for
# *-envelope and *-mapped (with the bundle's frames when it was built).
use_target() {
  if [[ $1 == *-envelope || $1 == *-mapped ]]; then
    load_path=/api/$2/envelope/
    load_args=(--envelope)
    if [[ -n $frames_file ]]; then load_args+=(--frames "$frames_file"); fi
  else
    load_path=/v1/ingest
    load_args=()
  fi
}

# The mapped bundle: built, injected and located once for the whole run.
frames_file=
cli=$root/tests/e2e/sourcemaps/node_modules/.bin/sentry-cli
esbuild=$root/tests/e2e/sourcemaps/node_modules/.bin/esbuild
if [[ " $targets " == *-envelope\ * || " $targets " == *-mapped\ * ]]; then
  if command -v node >/dev/null && [[ -x $cli && -x $esbuild ]]; then
    bundle=$work/sourcemap
    node "$root/tests/bench/ingest/sourcemap/generate.js" "$bundle" "$map_sites"
    (cd "$bundle" && "$esbuild" src/checkout.js --bundle --minify --sourcemap --format=cjs --platform=node \
      --outfile=dist/checkout.js --log-level=warning &&
      HOME=$bundle SENTRY_LOAD_DOTENV=0 "$cli" sourcemaps inject dist >/dev/null)
    node "$root/tests/bench/ingest/sourcemap/frames.js" "$bundle/dist/checkout.js" "$map_sites" >"$bundle/frames.txt"
    frames_file=$bundle/frames.txt
    echo "mapped bundle: $(wc -c <"$bundle/dist/checkout.js") bytes minified, $(wc -c <"$bundle/dist/checkout.js.map") bytes of map, $map_sites sites, debug id $(sed -n 's/^debug_id //p' "$frames_file")" >&2
  else
    echo "node, $esbuild or $cli missing (scripts/install-deps.sh --test): *-mapped targets skipped, envelopes without debug_meta" >&2
  fi
fi

# envelope_project TARGET PORT SQL_CMD...: for *-envelope and *-mapped with
# the bundle: the organization of the last registration moves to the
# enterprise plan (agent tokens, no monthly limit) through SQL_CMD; for
# *-mapped an agent token with publish_symbols uploads the bundle with
# sentry-cli.
envelope_project() {
  local target=$1 port=$2
  shift 2
  [[ -n $frames_file && ( $target == *-envelope || $target == *-mapped ) ]] || return 0
  "$@" "UPDATE organizations SET plan = 'enterprise' WHERE id = '$org'" >/dev/null
  [[ $target == *-mapped ]] || return 0
  local token
  token=$(curl -sf -X POST "http://127.0.0.1:$port/v1/org/agent-pats" -H "Authorization: Bearer $access" \
    -H "X-Service-Org: $org" -H 'Content-Type: application/json' \
    -d "{\"name\":\"bench\",\"scopes\":[\"publish_symbols\"],\"expiresAt\":\"$(date -u -d '+30 days' +%Y-%m-%dT%H:%M:%S.000Z)\",\"projectGrants\":[{\"projectId\":\"$project\"}]}" |
    jq -r .token)
  if ! (cd "$bundle" && HOME=$bundle SENTRY_LOAD_DOTENV=0 "$cli" --url "http://127.0.0.1:$port" --auth-token "$token" \
    sourcemaps upload --org "$org_slug" --project "$project_slug" --wait dist) >"$work/$target.upload" 2>&1; then
    echo "$target: sentry-cli sourcemaps upload failed:" >&2
    cat "$work/$target.upload" >&2
    exit 1
  fi
}

# resolved TARGET SQL_CMD...: for *-envelope and *-mapped, how many stored
# reports have an error event with a frame resolved through a source map
# (its `sourcemap` says resolved_with) and how many have any frame that
# resolution was attempted on (`sourcemap` at all), out of all; the bugs
# they made (the same share for both when the resolved frames group as the
# messages do); and the stored events' average size (resolved frames carry
# their context lines).
resolved() {
  local target=$1
  shift
  [[ $target == *-envelope || $target == *-mapped ]] || return 0
  local all with_resolved attempted bugs size
  all=$("$@" "SELECT COUNT(*) FROM occurrences")
  with_resolved=$("$@" "SELECT COUNT(*) FROM occurrences WHERE events LIKE '%\"resolved_with\":\"debug_id\"%'")
  attempted=$("$@" "SELECT COUNT(*) FROM occurrences WHERE events LIKE '%\"sourcemap\":{%'")
  bugs=$("$@" "SELECT COUNT(*) FROM bugs")
  size=$("$@" "SELECT CAST(AVG(LENGTH(events)) AS INTEGER) FROM occurrences")
  verdicts+=("$target: $with_resolved of $all stored reports with frames resolved by debug id, $attempted with resolution attempted; $bugs bugs; events ${size} bytes a report")
}

for target in $targets; do
  if [[ $target == *-mapped && -z $frames_file ]]; then
    echo "$target skipped: no mapped bundle" >&2
    continue
  fi
  case $target in
    bare)
      start bare "$bare_bin" --listen 127.0.0.1:0
      measure bare "$port" none "$pid"
      stop "$pid"
      ;;
    sqlite | sqlite-envelope | sqlite-mapped)
      db=$work/$target/service.db
      start "$target" "${server_env[@]}" SERVICE_EVIDENCE_DIR="$work/$target/evidence" "$server_bin" \
        --listen 127.0.0.1:0 --database "sqlite:$db"
      read -r key number access org project org_slug project_slug <<<"$(register "$port")"
      envelope_project "$target" "$port" sqlite3 "$db"
      use_target "$target" "$number"
      measure "$target" "$port" "$key" "$pid"
      stop "$pid"
      verify "$target" "$(sqlite3 "$db" 'SELECT COUNT(*) FROM occurrences')"
      resolved "$target" sqlite3 "$db"
      ;;
    postgres | postgres-envelope | postgres-mapped)
      url=${BENCH_POSTGRES_URL:-}
      if [[ -z $url ]]; then
        if [[ $pg_started -eq 1 ]]; then "$root/scripts/pg-cluster.sh" stop "$work/pg" >/dev/null 2>&1 || true; rm -rf "$work/pg"; fi
        url=$("$root/scripts/pg-cluster.sh" start "$work/pg" | tail -n 1)
        pg_started=1
      else
        psql "$url" -qc 'DROP SCHEMA public CASCADE; CREATE SCHEMA public' >/dev/null
      fi
      mkdir -p "$work/$target"
      start "$target" "${server_env[@]}" SERVICE_EVIDENCE_DIR="$work/$target/evidence" "$server_bin" \
        --listen 127.0.0.1:0 --database "$url"
      read -r key number access org project org_slug project_slug <<<"$(register "$port")"
      envelope_project "$target" "$port" psql "$url" -tAc
      use_target "$target" "$number"
      measure "$target" "$port" "$key" "$pid"
      stop "$pid"
      verify "$target" "$(psql "$url" -tAc 'SELECT COUNT(*) FROM occurrences')"
      resolved "$target" psql "$url" -tAc
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
# Mapped envelopes against the same envelopes unmapped (target >= 70%).
for b in sqlite postgres; do
  env=$(printf '%s\n' "${results[@]}" | awk -v t="$b-envelope" '$1 == t { print $2 " " $5 }')
  mapped=$(printf '%s\n' "${results[@]}" | awk -v t="$b-mapped" '$1 == t { print $2 " " $5 }')
  if [[ -n $env && -n $mapped ]]; then
    awk -v e="$env" -v m="$mapped" -v b="$b" 'BEGIN { split(e, E, " "); split(m, M, " ");
      printf "%s: mapped envelopes at %.0f%% of the unmapped rate (target >= 70%%); server CPU per report %.2fx\n",
        b, (E[1] > 0 ? 100 * M[1] / E[1] : 0), (E[2] > 0 ? M[2] / E[2] : 0) }'
  fi
done
