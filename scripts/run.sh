#!/usr/bin/env bash
# The README's first command: installs what is missing, builds, and starts
# service-server on the embedded SQLite default (data/service.db).
# Extra arguments go to the server, e.g. scripts/run.sh --demo or --listen 0.0.0.0:8080.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DSERVICE_BUILD_TESTS=OFF -DSERVICE_BUILD_BENCH=OFF -DSERVICE_BUILD_EXAMPLES=OFF >/dev/null
cmake --build build/release --target service-server
exec build/release/shells/server/service-server "$@"
