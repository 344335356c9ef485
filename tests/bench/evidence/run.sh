#!/usr/bin/env bash
# Evidence benchmark (issue 30 "Performance"): 20 concurrent 10 MiB uploads
# to the real service-server over HTTP, on SQLite, with SERVICE_EVIDENCE_DIR
# set to a fresh folder: MiB/s beside a plain file copy of the same bytes
# with fsync on the same filesystem, in the same run, and the server's RSS
# before and at its peak during the uploads (target: it grows by less than
# 20 MiB).
#
# For each transport (SERVICE_TRANSPORT; both spool uploads): a fresh server,
# database and evidence folder, an account with its organization and project
# (POST /v1/auth/register), the organization moved to pro in the database
# (agent tokens need an agent-capable plan), an agent token with create_bug
# (reserve, upload) and get_repro_context (metadata, download) granted the
# project; then bench_evidence (tests/bench/evidence/evidence.cpp documents
# the method and its checks). A refused upload, a stored byte that differs,
# a leftover spool file or a server that did not stop cleanly fails the run
# (exit 1) at once; a missed RSS target is printed as FAIL and makes the
# exit status 3 after the table.
#
# Run (the shared build tree; a Release tree works the same):
#   cmake --build build/test --target service-server bench_evidence
#   tests/bench/evidence/run.sh [BUILD_DIR]          # default: build/test
#
# Environment: BENCH_UPLOADS (20), BENCH_ROUNDS (3: each round new replays,
# uploads and copies; the figures are the medians), BENCH_BYTES (10485760:
# the replay limit), BENCH_TRANSPORTS ("events threads"), BENCH_DIR (the
# parent of the work folder, /tmp: the evidence folder and the baseline's
# files live there).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"

root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build/test}
uploads=${BENCH_UPLOADS:-20}
rounds=${BENCH_ROUNDS:-3}
bytes=${BENCH_BYTES:-10485760}
transports=${BENCH_TRANSPORTS:-events threads}

server_bin=$build/shells/server/service-server
bench_bin=$build/tests/bench/evidence/bench_evidence
for bin in "$server_bin" "$bench_bin"; do
  [[ -x $bin ]] || { echo "missing $bin: build service-server bench_evidence in $build" >&2; exit 2; }
done
require_tools curl jq sqlite3

work=$(mktemp -d "${BENCH_DIR:-/tmp}/service-evidence-bench.XXXXXX")
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

results=()
missed=0
for t in $transports; do
  dir=$work/$t
  mkdir -p "$dir"
  env SERVICE_RATE_LIMITS=off SERVICE_TRANSPORT="$t" SERVICE_EVIDENCE_DIR="$dir/evidence" \
    SERVICE_JWT_SECRET=evidence-benchmark-secret-0123456789abcdef \
    "$server_bin" --listen 127.0.0.1:0 --database "sqlite:$dir/service.db" >"$dir/out" 2>"$dir/err" &
  pid=$!
  pids+=("$pid")
  wait_listening "server ($t)" "$dir/out" "$dir/err" "$pid"

  read -r _ access org project <<<"$(register_workspace "$port" "evidence-$t@example.com")"
  sqlite3 "$dir/service.db" "UPDATE organizations SET plan = 'pro' WHERE id = '$org'"
  token=$(curl -sf -X POST "http://127.0.0.1:$port/v1/org/agent-pats" -H "Authorization: Bearer $access" \
    -H "X-Service-Org: $org" -H 'Content-Type: application/json' \
    -d "{\"name\":\"bench\",\"scopes\":[\"create_bug\",\"get_repro_context\"],\"expiresAt\":\"$(date -u -d "+30 days" +%Y-%m-%dT%H:%M:%SZ)\",\"projectGrants\":[{\"projectId\":\"$project\"}]}" |
    jq -r .token)
  [[ $token == sv_pat_* ]] || { echo "$t: could not create an agent token" >&2; exit 1; }
  configured=$(curl -sf "http://127.0.0.1:$port/v1/evidence/capabilities" -H "Authorization: Bearer $token" | jq -r .configured)
  [[ $configured == true ]] || { echo "$t: evidence storage is not configured" >&2; exit 1; }

  echo "== $t" >&2
  status=0
  line=$("$bench_bin" --port "$port" --token "$token" --project "$project" --server-pid "$pid" \
    --evidence-dir "$dir/evidence" --work-dir "$dir" --uploads "$uploads" --rounds "$rounds" --bytes "$bytes") || status=$?
  if [[ $status -ne 0 ]]; then
    echo "$t: bench_evidence FAILED (exit $status); server log:" >&2
    tail -n 20 "$dir/err" >&2
    exit 1
  fi
  kill -TERM "$pid"
  if ! wait "$pid"; then
    echo "$t: the server did not stop cleanly:" >&2
    tail -n 20 "$dir/err" >&2
    exit 1
  fi
  [[ $(field "$line" rss) == PASS ]] || missed=1
  results+=("$t $(field "$line" upload_mibps) $(field "$line" copy_mibps) $(field "$line" ratio) $(field "$line" rss_before_kb) $(field "$line" rss_peak_kb) $(field "$line" first_round_growth_mib) $(field "$line" rss_growth_mib) $(field "$line" rss) $(field "$line" server_cpu_s) $(field "$line" server_write_calls)")
  rm -rf "$dir"
done

echo
echo "$uploads concurrent uploads of $bytes bytes (kind replay), service-server on SQLite, $(nproc) cores,"
echo "beside $uploads concurrent file copies of the same bytes with fsync on the same filesystem ($(df -P "$work" | awk 'NR == 2 { print $1 }'));"
echo "medians of $rounds rounds; RSS growth: from before the first round to its peak during the first round's"
echo "uploads, and to the peak over all rounds (uploads, metadata reads and downloads; the target applies to it)"
printf '%-10s %12s %12s %6s %14s %12s %10s %10s %8s %12s %11s\n' transport "upload MiB/s" "copy MiB/s" ratio \
  "RSS before kB" "RSS peak kB" "+MiB 1st" "+MiB all" "< 20 MiB" "server CPU s" "file writes"
for r in "${results[@]}"; do
  # shellcheck disable=SC2086
  printf '%-10s %12s %12s %6s %14s %12s %10s %10s %8s %12s %11s\n' $r
done
echo "Every upload answered 200 and read back with its SHA-256. Load average $(cut -d' ' -f1-3 /proc/loadavg)."
[[ $missed -eq 0 ]] || { echo "RSS target missed" >&2; exit 3; }
