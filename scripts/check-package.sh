#!/usr/bin/env bash
# Checks the Debian package on this machine (docs/operations.md "The Debian
# package"):
#
#   scripts/check-package.sh BUILD_DIR
#
# 1. cpack -G DEB in BUILD_DIR (built already: cpack only installs, strips
#    and packs) into a temporary folder; the package must hold the server,
#    the systemd unit and the settings file (a conffile), depend on the
#    libraries dpkg-shlibdeps found, every variable of its settings file must
#    be a setting of the binary, and its unit must pass `systemd-analyze
#    verify` without a word (its `security` exposure score is printed).
# 2. dpkg -i: the user "service", /var/lib/service-server (0750, service) and
#    the generated /etc/service-server/secrets (0640 root:service) exist.
# 3. Starts the installed /usr/bin/service-server as the user "service" with
#    the unit's environment: its Environment= lines, then the installed
#    secrets and environment files (through systemctl when systemd runs;
#    otherwise directly, with SERVICE_LISTEN changed to a free port);
#    GET /v1/health must answer 200 with "status":"ok" and the SQLite
#    database must be created in the data folder.
# 4. Stops it (SIGTERM, exit 0) and installs the same package again: the
#    upgrade path's postinst must run `service-server migrate`.
# 5. dpkg --purge: binary, unit, settings, data folder and user are gone.
# 6. lintian, when installed, prints its findings (not an error).
#
# Refuses to run when service-server is installed already or a user
# "service" exists (it would purge them). On failure the package is purged
# all the same and the temporary folder kept.
set -euo pipefail

usage() {
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
}
[[ $# -eq 1 ]] || usage

build_dir=$(cd "$1" 2>/dev/null && pwd) || {
  echo "check-package: FAILED: build directory '$1' does not exist" >&2
  exit 1
}
fail() {
  echo "check-package: FAILED: $*" >&2
  exit 1
}
step() { echo "check-package: $*"; }

[[ -f "$build_dir/CPackConfig.cmake" ]] || fail "'$build_dir' has no CPackConfig.cmake (configure it first)"
[[ $(id -u) -eq 0 ]] || fail "needs root (dpkg -i)"
if dpkg-query -W -f='${Status}' service-server 2>/dev/null | grep -q "installed"; then
  fail "the package service-server is installed on this machine already: this check would purge it"
fi
getent passwd service >/dev/null && fail "a user 'service' exists already: this check would remove it on purge"

work=$(mktemp -d "${TMPDIR:-/tmp}/service-check-package.XXXXXX")
chmod 0755 "$work"
ok=0
installed=0
server_pid=""
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  if ((installed)); then
    run_dpkg "$work/purge-on-exit.log" --purge service-server || cat "$work/purge-on-exit.log" >&2
  fi
  if [[ $ok -eq 1 && "${KEEP_TMP:-0}" != 1 ]]; then
    rm -rf "$work"
  else
    echo "check-package: files kept in $work" >&2
  fi
}
trap cleanup EXIT

# dpkg with its arguments; waits (up to 3 minutes) while another dpkg or apt
# holds the dpkg lock instead of failing at once.
run_dpkg() {
  local log=$1 tries=0
  shift
  while true; do
    if dpkg "$@" >"$log" 2>&1; then return 0; fi
    grep -q 'lock' "$log" && ((tries++ < 90)) || return 1
    sleep 2
  done
}

# 1. Build the package.
step "cpack -G DEB in $build_dir"
start=$SECONDS
(cd "$build_dir" && cpack -G DEB -B "$work/pkg") >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log" >&2; fail "cpack -G DEB"; }
deb=$(find "$work/pkg" -maxdepth 1 -name 'service-server_*.deb' -print -quit)
[[ -n "$deb" ]] || { cat "$work/cpack.log" >&2; fail "cpack made no service-server_*.deb"; }
step "built $(basename "$deb") ($(du -h "$deb" | cut -f1), $((SECONDS - start)) s)"

dpkg-deb -c "$deb" >"$work/contents"
for path in ./usr/bin/service-server ./lib/systemd/system/service-server.service ./etc/service-server/environment \
  ./usr/share/doc/service-server/docs/operations.md; do
  grep -q " $path\$" "$work/contents" || fail "the package does not hold $path"
done
dpkg-deb -f "$deb" Depends >"$work/depends"
for dep in adduser libsqlite3-0 libpq5 libcurl4 libboost-json1.81.0 libc6; do
  grep -q "\b$dep\b" "$work/depends" || fail "Depends lacks $dep: $(cat "$work/depends")"
done
dpkg-deb --ctrl-tarfile "$deb" | tar -xO ./conffiles | grep -qx /etc/service-server/environment ||
  fail "/etc/service-server/environment is not a conffile"
# Every variable the settings file names is a setting of this binary.
mkdir "$work/extract"
dpkg-deb -x "$deb" "$work/extract"
"$work/extract/usr/bin/service-server" --help >"$work/help" 2>&1 || true
for var in $(grep -o 'SERVICE_[A-Z_]*=' "$work/extract/etc/service-server/environment" | tr -d = | sort -u); do
  grep -q "^  $var\$" "$work/help" || fail "the settings file names $var, which service-server --help does not know"
done
if command -v systemd-analyze >/dev/null 2>&1; then
  # Offline check of the unit's syntax and directives (the binary it names
  # must exist: the extracted one, under its installed path).
  sed "s|^ExecStart=/usr/bin/service-server|ExecStart=$work/extract/usr/bin/service-server|" \
    "$work/extract/lib/systemd/system/service-server.service" >"$work/service-server.service"
  # It exits 0 on an unknown or misplaced directive, but says so: any output fails.
  if ! systemd-analyze verify "$work/service-server.service" >"$work/verify.log" 2>&1 || [[ -s "$work/verify.log" ]]; then
    cat "$work/verify.log" >&2
    fail "systemd-analyze verify service-server.service"
  fi
  exposure=$(systemd-analyze security --offline=true "$work/service-server.service" 2>/dev/null |
    sed -n 's/.*Overall exposure level for [^:]*: *//p' || true)
  step "systemd-analyze verify: clean; security exposure: ${exposure:-n/a}"
fi

# 2. Install.
step "dpkg -i $(basename "$deb")"
installed=1
run_dpkg "$work/install.log" -i "$deb" || { cat "$work/install.log" >&2; fail "dpkg -i"; }
getent passwd service >/dev/null || fail "postinst created no user 'service'"
[[ $(stat -c '%U:%G %a' /var/lib/service-server) == "service:service 750" ]] ||
  fail "/var/lib/service-server is $(stat -c '%U:%G %a' /var/lib/service-server), expected service:service 750"
for file in /etc/service-server/environment /etc/service-server/secrets; do
  [[ $(stat -c '%U:%G %a' "$file") == "root:service 640" ]] ||
    fail "$file is $(stat -c '%U:%G %a' "$file" 2>&1), expected root:service 640"
done
grep -Eq '^SERVICE_SECRETS_KEY=[0-9a-f]{64}$' /etc/service-server/secrets || fail "no generated SERVICE_SECRETS_KEY"
grep -Eq '^SERVICE_JWT_SECRET=[0-9a-f]{64}$' /etc/service-server/secrets || fail "no generated SERVICE_JWT_SECRET"

# 3. Start the installed server and ask it for its health.
unit=/lib/systemd/system/service-server.service
if [[ -d /run/systemd/system ]]; then
  step "starting the installed server through systemd"
  systemctl start service-server.service || fail "systemctl start service-server"
  listen=$(sed -n 's/^[[:space:]]*SERVICE_LISTEN=//p' /etc/service-server/environment | tail -n 1)
  base="http://${listen:-127.0.0.1:8080}"
else
  step "starting /usr/bin/service-server as the user service (systemd is not running here)"
  env_args=()
  # The unit's Environment= lines, then its environment files in order.
  while IFS= read -r line; do env_args+=("$line"); done < <(sed -n 's/^Environment=//p' "$unit")
  while IFS= read -r file; do
    [[ -r "$file" ]] || continue
    while IFS= read -r line; do env_args+=("$line"); done < <(sed -n -E 's/^[[:space:]]*(SERVICE_[A-Z_]+=)"?([^"]*)"?$/\1\2/p' "$file")
  done < <(sed -n 's/^EnvironmentFile=-\{0,1\}//p' "$unit")
  env_args+=("SERVICE_LISTEN=127.0.0.1:0")
  workdir=$(sed -n 's/^WorkingDirectory=//p' "$unit")
  (cd "$workdir" && exec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin "${env_args[@]}" \
    setpriv --reuid=service --regid=service --init-groups -- /usr/bin/service-server) >"$work/server.out" 2>"$work/server.err" &
  server_pid=$!
  base=""
  for _ in $(seq 1 100); do
    base=$(sed -n 's/^listening on \(http:[^ ]*\).*/\1/p' "$work/server.out")
    [[ -n "$base" ]] && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.err" >&2; fail "the installed server exited at start"; }
    sleep 0.1
  done
  [[ -n "$base" ]] || { cat "$work/server.err" >&2; fail "the installed server printed no listening line in 10 s"; }
fi
health=$(curl -sS -o "$work/health.json" -w '%{http_code}' "$base/v1/health") || fail "GET $base/v1/health"
[[ $health == 200 ]] || fail "GET /v1/health answered $health: $(cat "$work/health.json")"
grep -q '"status":"ok"' "$work/health.json" || fail "GET /v1/health: $(cat "$work/health.json")"
step "GET $base/v1/health: 200 $(head -c 120 "$work/health.json")"
[[ $(stat -c %U /var/lib/service-server/service.db 2>/dev/null) == service ]] ||
  fail "no database /var/lib/service-server/service.db owned by service"

# 4. Stop, then the upgrade path (the same version again): postinst migrates.
if [[ -n "$server_pid" ]]; then
  kill -TERM "$server_pid"
  rc=0
  wait "$server_pid" || rc=$?
  server_pid=""
  [[ $rc -eq 0 ]] || { cat "$work/server.err" >&2; fail "the installed server exited $rc on SIGTERM"; }
fi
step "dpkg -i again (upgrade path: migrate)"
run_dpkg "$work/upgrade.log" -i "$deb" || { cat "$work/upgrade.log" >&2; fail "dpkg -i over the installed package"; }
grep -q "migrations applied" "$work/upgrade.log" || { cat "$work/upgrade.log" >&2; fail "the upgrade did not migrate"; }
grep -q "WARNING" "$work/upgrade.log" && { cat "$work/upgrade.log" >&2; fail "the upgrade warned"; }

# 5. Purge.
step "dpkg --purge service-server"
run_dpkg "$work/purge.log" --purge service-server || { cat "$work/purge.log" >&2; fail "dpkg --purge"; }
installed=0
for path in /usr/bin/service-server "$unit" /etc/service-server /var/lib/service-server; do
  [[ ! -e "$path" ]] || fail "$path is left after the purge"
done
getent passwd service >/dev/null && fail "the user 'service' is left after the purge"

# 6. lintian (optional).
if command -v lintian >/dev/null 2>&1; then
  step "lintian findings (informational):"
  lintian --tag-display-limit 0 "$deb" 2>&1 | grep -v 'running with root privileges' | sed 's/^/  /' || true
fi

ok=1
step "OK: $(basename "$deb") installs, starts, answers /v1/health, migrates on upgrade and purges (${SECONDS} s)"
