#!/usr/bin/env bash
# Agents benchmark (issue 29 "Performance"): fenced claims on the real
# service-server over HTTP, on SQLite and on PostgreSQL.
#
# For each target: a fresh server and database, a pro organization (set in
# the database: agent tokens need an agent-capable plan) with 10 bugs made
# through POST /v1/ingest and one agent token (claim_issue, granted the
# project); then bench_agents (tests/bench/agents/agents.cpp):
#   1. GET /v1/health from BENCH_AGENTS keep-alive connections for
#      BENCH_SECONDS (the baseline of the same run);
#   2. BENCH_AGENTS agents claim (TTL 60 s), renew once and complete work
#      over the 10 issues for BENCH_SECONDS, checking safety on every
#      answer (never two live holders of an issue, every generation and
#      fencing token above the last of its issue) and failing loudly (exit
#      1) on a violation or an unexpected answer.
# After the server stopped, the database is checked too: per issue, the
# claims' generations are exactly 1..n and at most one claim is active.
#
# Run (the shared build tree; a Release tree works the same):
#   cmake --build build/test --target service-server bench_agents
#   tests/bench/agents/run.sh [BUILD_DIR]          # default: build/test
#
# Environment: BENCH_SECONDS (30), BENCH_AGENTS (50), BENCH_ISSUES (10),
# BENCH_TARGETS ("sqlite postgres"), BENCH_POSTGRES_URL (an empty database
# to use instead of a throwaway cluster from scripts/pg-cluster.sh).
# The agents share the machine with the server (and PostgreSQL).
set -euo pipefail
source "$(dirname "$0")/../lib.sh"

root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${1:-$root/build/test}
seconds=${BENCH_SECONDS:-30}
agents=${BENCH_AGENTS:-50}
issues=${BENCH_ISSUES:-10}
targets=${BENCH_TARGETS:-sqlite postgres}

server_bin=$build/shells/server/service-server
bench_bin=$build/tests/bench/agents/bench_agents
for bin in "$server_bin" "$bench_bin"; do
  [[ -x $bin ]] || { echo "missing $bin: build service-server bench_agents in $build" >&2; exit 2; }
done
require_tools curl jq sqlite3 psql

work=$(mktemp -d /tmp/service-agents-bench.XXXXXX)
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

server_env=(env SERVICE_RATE_LIMITS=off SERVICE_JWT_SECRET=agents-benchmark-secret-0123456789abcdef)

# sql TARGET DB STATEMENT: runs one statement on the target's database.
sql() {
  case $1 in
    sqlite) sqlite3 "$2" "$3" ;;
    postgres) psql "$2" -tAqc "$3" ;;
  esac
}

results=()
verdicts=()
for target in $targets; do
  case $target in
    sqlite) db=$work/sqlite/service.db; url="sqlite:$db" ;;
    postgres)
      url=${BENCH_POSTGRES_URL:-}
      if [[ -z $url ]]; then
        url=$("$root/scripts/pg-cluster.sh" start "$work/pg" | tail -n 1)
        pg_started=1
      else
        psql "$url" -qc 'DROP SCHEMA public CASCADE; CREATE SCHEMA public' >/dev/null
      fi
      db=$url
      ;;
    *) echo "unknown target $target" >&2; exit 2 ;;
  esac
  "${server_env[@]}" "$server_bin" --listen 127.0.0.1:0 --database "$url" >"$work/$target.out" 2>"$work/$target.err" &
  pid=$!
  pids+=("$pid")
  wait_listening "$target" "$work/$target.out" "$work/$target.err" "$pid"

  read -r key access org project <<<"$(register_workspace "$port" "agents-$target@example.com")"
  sql "$target" "$db" "UPDATE organizations SET plan = 'pro' WHERE id = '$org'" >/dev/null
  ids=()
  for i in $(seq 1 "$issues"); do
    ids+=("$(curl -sf -X POST "http://127.0.0.1:$port/v1/ingest" -H "X-Service-Key: $key" \
      -H 'Content-Type: application/json' \
      -d "{\"title\":\"Agents benchmark issue $i\",\"url\":\"https://shop.example/page-$i\",\"severity\":\"high\"}" |
      jq -r .id)")
  done
  token=$(curl -sf -X POST "http://127.0.0.1:$port/v1/org/agent-pats" -H "Authorization: Bearer $access" \
    -H "X-Service-Org: $org" -H 'Content-Type: application/json' \
    -d "{\"name\":\"bench\",\"scopes\":[\"claim_issue\"],\"expiresAt\":\"$(date -u -d "+30 days" +%Y-%m-%dT%H:%M:%SZ)\",\"projectGrants\":[{\"projectId\":\"$project\"}]}" |
    jq -r .token)
  [[ $token == sv_pat_* ]] || { echo "$target: could not create an agent token" >&2; exit 1; }

  echo "== $target" >&2
  status=0
  line=$("$bench_bin" --port "$port" --token "$token" --project "$project" \
    --issues "$(IFS=,; echo "${ids[*]}")" --agents "$agents" --seconds "$seconds") || status=$?
  echo "  $line" >&2
  kill -TERM "$pid"
  wait "$pid" || true
  if [[ $status -ne 0 ]]; then
    echo "$target: bench_agents FAILED (exit $status)" >&2
    exit 1
  fi
  # Per issue: generations exactly 1..n, at most one active claim.
  bad=$(sql "$target" "$db" "SELECT COUNT(*) FROM (SELECT issue_id FROM agent_claims GROUP BY issue_id
    HAVING COUNT(*) <> MAX(generation) OR COUNT(DISTINCT generation) <> COUNT(*)
    OR SUM(CASE WHEN status = 'active' THEN 1 ELSE 0 END) > 1) x")
  stored=$(sql "$target" "$db" "SELECT COUNT(*) FROM agent_claims")
  if [[ $bad -ne 0 ]]; then
    echo "$target: SAFETY VIOLATION in the database: $bad issues with gaps, repeats or two active claims" >&2
    exit 1
  fi
  verdicts+=("$target: $stored claims stored, generations 1..n per issue, never two active: ok")
  results+=("$target $(field "$line" health_rps) $(field "$line" claims_per_s) $(field "$line" renewals_per_s) $(field "$line" completes_per_s) $(field "$line" held_per_s) $(field "$line" claim_p50_ms) $(field "$line" claim_p99_ms) $(field "$line" violations)")
done

echo
echo "$agents agents over $issues issues, claim (TTL 60 s) + renew + complete, ${seconds}s per phase, $(nproc) cores"
printf '%-10s %12s %10s %12s %12s %12s %12s %12s %10s\n' target "health req/s" "claims/s" "renewals/s" \
  "completes/s" "refused/s" "claim p50 ms" "claim p99 ms" violations
for r in "${results[@]}"; do
  # shellcheck disable=SC2086
  printf '%-10s %12s %10s %12s %12s %12s %12s %12s %10s\n' $r
done
for v in "${verdicts[@]}"; do echo "$v"; done
echo "Other processes on the machine: load average $(cut -d' ' -f1-3 /proc/loadavg)."
