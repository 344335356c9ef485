#!/usr/bin/env bash
# Checks of GET /v1/openapi.json (issue 34 item 4; /work/notes/readme-openapi.md):
#
#   scripts/openapi-check.sh lint    starts the built service-server on a fresh SQLite file, fetches the
#                                    document and runs @redocly/cli lint with tests/openapi/redocly.yaml
#                                    (recommended-strict: any finding fails).
#   scripts/openapi-check.sh prism   runs the e2e cases of PRISM_CASES with SERVICE_TEST_PRISM set: every
#                                    server they start gets a @stoplight/prism-cli proxy (--errors) in
#                                    front, reading that server's own document, and the test client talks to
#                                    it (tests/e2e/server_process.h). Fails when a case fails or when any
#                                    Prism log holds an error line (a request or answer that does not match
#                                    the document; its sl-violations are in the log).
#
# Both need the build tree (BUILD, default build/test) and tests/openapi/node_modules (scripts/install-deps.sh
# --test). The prism stage runs on SQLite and, when SERVICE_TEST_POSTGRES_URL is set, the cases' PostgreSQL
# halves too.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BUILD:-build/test}
server="$root/$build/shells/server/service-server"
bin="$root/tests/openapi/node_modules/.bin"

# The e2e cases run through Prism: each spec area's real-client flows (accounts and projects, capture,
# bugs reads, agent tokens, integrations and webhook deliveries, agent hand-off, recommended_bug, and
# through the official MCP SDK client every MCP tool: reads, claims, hand-off, evidence; the metrics scrapes by
# promtool and a real Prometheus; the SIGKILL-under-load, backup and unreachable-database cases; --demo; and,
# when SERVICE_TEST_POSTGRES_URL is set, the two-process PostgreSQL cases). Left out: the transport, process
# and browser cases (they speak raw or malformed HTTP, time connections, stream server-sent events or
# check the listening line, which a proxy in between changes by design) and cases that send requests the
# document declares invalid on purpose (Prism answers those itself, as it should). Also left out: the
# @sentry/node, sentry-cli and evidence-replay cases: Prism's proxy does not forward binary bodies intact
# (measured: the server answers sentry-cli "a chunk is not valid gzip data" and the 10 MiB evidence upload
# 400 through Prism, 200 directly; @sentry/node's gzip envelopes fail the same way), so those cases cannot
# pass through it whatever the document says.
PRISM_CASES=(
  # (doctest filters: a comma separates two, so each stops before its case name's first comma)
  "agent_notify and agent_update reach a real receiver signed*"
  "recommended_bug reaches a real receiver signed*"
  "the server delivers a new bug to a webhook by itself*"
  "the official MCP SDK client initializes*"
  "one server process on SQLite: every event once*"
  "backup while reports stream in*"
  "metrics e2e*"
  "a server killed under ingest load*"
  "health answers 503 when PostgreSQL*"
  "--demo seeds an empty database*"
  "two server processes on one PostgreSQL*"
)

case "${1:-}" in
  lint)
    dir=$(mktemp -d /tmp/service-openapi.XXXXXX)
    trap 'kill "$pid" 2>/dev/null || true; rm -rf "$dir"' EXIT
    "$server" --listen 127.0.0.1:0 --database "sqlite://$dir/db.sqlite" >"$dir/out" 2>"$dir/err" &
    pid=$!
    for _ in $(seq 100); do grep -q '^listening on ' "$dir/out" && break; sleep 0.1; done
    port=$(sed -n 's|^listening on http://127.0.0.1:\([0-9]*\).*|\1|p' "$dir/out")
    [[ -n "$port" ]] || { cat "$dir/err" >&2; echo "openapi lint: the server did not start" >&2; exit 1; }
    curl -fsS "http://127.0.0.1:$port/v1/openapi.json" -o "$dir/openapi.json"
    (cd tests/openapi && "$bin/redocly" lint --config redocly.yaml "$dir/openapi.json" 2>&1 | grep -v '[║╔╚]')
    ;;
  prism)
    log=$(mktemp /tmp/service-prism.XXXXXX)
    rc=0
    filter=$(IFS=,; echo "${PRISM_CASES[*]}")
    SERVICE_TEST_PRISM="$bin/prism" SERVICE_TEST_PRISM_LOG="$log" "$build/tests/e2e_tests" -tc="$filter" || rc=$?
    # Prism's "Request terminated with error: FetchError" lines are the cases' own doing (a server killed
    # under load or a database made unreachable on purpose: the upstream connection breaks); the cases
    # check what the client saw. Every other error line is a request or answer the document does not allow.
    errors=$(grep '✖' "$log" | grep -vc 'Request terminated with error: FetchError' || true)
    forwarded=$(grep -c 'Received forward response' "$log" || true)
    echo "prism: $forwarded answers validated, $errors errors"
    if ((errors > 0)); then
      grep -B1 -A1 '✖' "$log" | grep -v 'Request terminated with error: FetchError' | head -60
      rc=1
    fi
    rm -f "$log"
    exit "$rc"
    ;;
  *)
    echo "usage: $0 lint|prism" >&2
    exit 2
    ;;
esac
