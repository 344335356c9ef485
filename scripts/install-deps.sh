#!/usr/bin/env bash
# Installs the Debian 12 packages the project needs, only when missing.
#   scripts/install-deps.sh          build and run
#   scripts/install-deps.sh --test   also the test tools (PostgreSQL 15 server, clang for the thread-safety analysis, wrk,
#                                    Node and npm when missing, the e2e tests' Sentry SDK, MCP SDK, sentry-cli and esbuild
#                                    from the npm registry, @redocly/cli and @stoplight/prism-cli (OpenAPI checks),
#                                    Chromium and puppeteer-core for the console's browser test,
#                                    prometheus for promtool and the metrics e2e test; its own service is disabled)
set -euo pipefail

packages=(build-essential cmake ninja-build pkg-config git
  libboost-json1.81-dev libboost1.81-dev libsqlite3-dev libpq-dev libcpp-httplib-dev libssl-dev
  libfmt-dev libcurl4-openssl-dev zlib1g-dev libbrotli-dev libhowardhinnant-date-dev)
if [[ "${1:-}" == "--test" ]]; then
  packages+=(doctest-dev postgresql-15 clang clang-format python3 wrk curl chromium)
  # The package check (scripts/check-package.sh): the package's maintainer scripts use adduser.
  packages+=(adduser)
  # promtool checks the /metrics text; the e2e test starts its own prometheus.
  packages+=(prometheus)
  # Node runs the unmodified Sentry SDK of the e2e tests; Debian's when none is installed.
  command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}" >&2
  SUDO=""
  [[ $(id -u) -ne 0 ]] && SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null 2>&1 || {
    $SUDO apt-get update >/dev/null
    $SUDO apt-get install -y --no-install-recommends "${missing[@]}"
  }
fi

# The prometheus package's own service is not wanted (the e2e test runs its
# own server on a free port): where systemd started it, stop and disable it.
if [[ "${1:-}" == "--test" ]] && command -v systemctl >/dev/null 2>&1 &&
  systemctl is-enabled --quiet prometheus 2>/dev/null; then
  $([[ $(id -u) -ne 0 ]] && echo sudo) systemctl disable --now prometheus >/dev/null 2>&1 || true
fi

if [[ "${1:-}" == "--test" ]]; then
  # The unmodified @sentry/node SDK, pinned by its lockfile.
  sdk_dir="$(dirname "$0")/../tests/e2e/sentry"
  if [[ ! -d "$sdk_dir/node_modules/@sentry/node" ]]; then
    (cd "$sdk_dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  fi
  # @redocly/cli (lint of GET /v1/openapi.json) and @stoplight/prism-cli (the validating proxy of the Prism e2e
  # stage), pinned by their lockfile (scripts/openapi-check.sh).
  openapi_dir="$(dirname "$0")/../tests/openapi"
  if [[ ! -x "$openapi_dir/node_modules/.bin/prism" || ! -x "$openapi_dir/node_modules/.bin/redocly" ]]; then
    (cd "$openapi_dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  fi
  # The official MCP TypeScript SDK client of the MCP e2e test, pinned by its lockfile.
  mcp_dir="$(dirname "$0")/../tests/e2e/mcp"
  if [[ ! -d "$mcp_dir/node_modules/@modelcontextprotocol/sdk" ]]; then
    (cd "$mcp_dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  fi
  # The unmodified sentry-cli (its binary from the npm package @sentry/cli-linux-x64, no download) and esbuild of
  # the source map e2e test, pinned by their lockfile.
  sourcemaps_dir="$(dirname "$0")/../tests/e2e/sourcemaps"
  if [[ ! -x "$sourcemaps_dir/node_modules/.bin/sentry-cli" ]]; then
    (cd "$sourcemaps_dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  fi
  # puppeteer-core drives Debian's Chromium (it downloads no browser).
  browser_dir="$(dirname "$0")/../tests/browser"
  if [[ ! -d "$browser_dir/node_modules/puppeteer-core" ]]; then
    (cd "$browser_dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  fi
fi
