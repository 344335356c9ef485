# Shared by the benchmark scripts (tests/bench/*.sh, */run.sh); sourced.

# wait_listening NAME OUT ERR PID: waits (up to 60 s) for the server's
# "listening on http://HOST:PORT" line in OUT and sets $port; when the
# process ends or the time passes, prints ERR and exits.
wait_listening() {
  local name=$1 out=$2 err=$3 server_pid=$4
  for _ in $(seq 1 600); do
    if grep -q '^listening on ' "$out" 2>/dev/null; then
      port=$(sed -n 's/^listening on http:\/\/.*:\([0-9]*\)$/\1/p' "$out" | head -n 1)
      return 0
    fi
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  echo "$name did not start:" >&2
  cat "$err" >&2
  exit 1
}

# field LINE KEY: the value of KEY=VALUE in a load generator's line.
field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; }

# require_tools TOOL...: exits 2 naming the first one not on PATH.
require_tools() {
  local tool
  for tool in "$@"; do
    command -v "$tool" >/dev/null || { echo "$tool not found" >&2; exit 2; }
  done
}

# register_workspace PORT EMAIL: a new account with its organization and
# project; prints "apiKey accessToken orgId projectId".
register_workspace() {
  curl -sf -X POST "http://127.0.0.1:$1/v1/auth/register" -H 'Content-Type: application/json' \
    -d "{\"email\":\"$2\",\"password\":\"benchmark-password\",\"name\":\"Bench\",\"orgName\":\"Bench Inc\"}" |
    jq -r '"\(.apiKey) \(.accessToken) \(.org.id) \(.project.id)"'
}
