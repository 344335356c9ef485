#!/usr/bin/env bash
# Checks that an installed package is usable by someone outside this tree.
#
#   scripts/check-install.sh BUILD_DIR
#
# 1. cmake --install BUILD_DIR into a temporary prefix; the server binary, the
#    public headers, the libraries and the CMake package files must be there.
# 2. Configures examples/embed standalone against that prefix
#    (find_package(service) -> service::service), builds it and runs it: it
#    must answer GET /v1/health with 200 (exit 0).
# 3. Builds tests/c/c_api_test.c as a C-only project against the installed
#    service::service_c and runs it.
#
# Exits non-zero with a message naming the failed step. On failure the
# temporary folder is kept for inspection; on success it is removed
# (KEEP_TMP=1 keeps it anyway). Uses at most JOBS (default 2) build jobs.
set -euo pipefail

usage() {
  echo "usage: $0 BUILD_DIR" >&2
  exit 2
}
[[ $# -eq 1 ]] || usage

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=$(cd "$1" 2>/dev/null && pwd) || {
  echo "check-install: FAILED: build directory '$1' does not exist" >&2
  exit 1
}
[[ -f "$build_dir/CMakeCache.txt" ]] || {
  echo "check-install: FAILED: '$build_dir' is not a configured CMake build directory" >&2
  exit 1
}
jobs=${JOBS:-2}

work=$(mktemp -d "${TMPDIR:-/tmp}/service-check-install.XXXXXX")
prefix=$work/prefix
ok=0
cleanup() {
  if [[ $ok -eq 1 && "${KEEP_TMP:-0}" != 1 ]]; then
    rm -rf "$work"
  else
    echo "check-install: files kept in $work" >&2
  fi
}
trap cleanup EXIT

fail() {
  echo "check-install: FAILED: $*" >&2
  exit 1
}
step() { echo "check-install: $*"; }

generator=()
if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi

# 1. Install.
step "installing $build_dir into $prefix"
cmake --install "$build_dir" --prefix "$prefix" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log" >&2; fail "cmake --install $build_dir (is everything built?)"; }

[[ -x "$prefix/bin/service-server" ]] || fail "$prefix/bin/service-server is missing or not executable"
for header in service/service.h service/http.h service/options.h service/status.h service_c.h; do
  [[ -f "$prefix/include/$header" ]] || fail "header include/$header was not installed"
done
config=$(find "$prefix" -path '*/cmake/service/serviceConfig.cmake' -print -quit)
[[ -n "$config" ]] || fail "serviceConfig.cmake was not installed"
[[ -n $(find "$prefix" -name 'libservice.so*' -print -quit) ]] || fail "libservice.so was not installed"
[[ -n $(find "$prefix" -name 'libservice_c.so*' -print -quit) ]] || fail "libservice_c.so was not installed"

# 2. The embedding example, standalone.
step "building examples/embed against the installed package"
cmake -S "$root/examples/embed" -B "$work/embed" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >"$work/embed-configure.log" 2>&1 ||
  { cat "$work/embed-configure.log" >&2; fail "configuring examples/embed with find_package(service)"; }
found_dir=$(sed -n 's/^service_DIR:PATH=//p' "$work/embed/CMakeCache.txt")
[[ "$found_dir" == "$prefix"/* ]] || fail "find_package(service) found '$found_dir', not the package in $prefix"
cmake --build "$work/embed" -j "$jobs" >"$work/embed-build.log" 2>&1 ||
  { cat "$work/embed-build.log" >&2; fail "building examples/embed"; }

step "running embed_example"
set +e
"$work/embed/embed_example" "sqlite:$work/embed.db"
rc=$?
set -e
[[ $rc -eq 0 ]] || fail "embed_example exited $rc (expected 0: GET /v1/health -> 200)"

# 2b. An embedder's own Mailer through the public headers alone.
step "building examples/custom_mailer against the installed package"
cmake -S "$root/examples/custom_mailer" -B "$work/custom_mailer" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >"$work/custom_mailer-configure.log" 2>&1 ||
  { cat "$work/custom_mailer-configure.log" >&2; fail "configuring examples/custom_mailer"; }
cmake --build "$work/custom_mailer" -j "$jobs" >"$work/custom_mailer-build.log" 2>&1 ||
  { cat "$work/custom_mailer-build.log" >&2; fail "building examples/custom_mailer"; }
set +e
"$work/custom_mailer/custom_mailer" "sqlite:$work/custom_mailer.db" >/dev/null
rc=$?
set -e
[[ $rc -eq 0 ]] || fail "custom_mailer exited $rc (expected 0: the verification mail reached the custom Mailer)"

# 3. A C program against the installed C ABI.
step "building tests/c/c_api_test.c against the installed service::service_c"
mkdir -p "$work/capi-src"
cat >"$work/capi-src/CMakeLists.txt" <<EOF
cmake_minimum_required(VERSION 3.25)
# CXX too: the package's find_dependency(Boost) (for service_static) needs a
# C++ compiler to be enabled. The program itself is C.
project(service_c_consumer LANGUAGES C CXX)
find_package(service REQUIRED)
add_executable(c_api_test "$root/tests/c/c_api_test.c")
set_target_properties(c_api_test PROPERTIES C_STANDARD 99 C_STANDARD_REQUIRED ON)
target_link_libraries(c_api_test PRIVATE service::service_c)
EOF
cmake -S "$work/capi-src" -B "$work/capi" "${generator[@]}" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$prefix" >"$work/capi-configure.log" 2>&1 ||
  { cat "$work/capi-configure.log" >&2; fail "configuring a C project with find_package(service)"; }
cmake --build "$work/capi" -j "$jobs" >"$work/capi-build.log" 2>&1 ||
  { cat "$work/capi-build.log" >&2; fail "building c_api_test against service::service_c"; }
set +e
TMPDIR=$work "$work/capi/c_api_test"
rc=$?
set -e
[[ $rc -eq 0 ]] || fail "c_api_test against the installed library exited $rc"

ok=1
step "OK: installed package builds and runs (prefix $prefix)"
