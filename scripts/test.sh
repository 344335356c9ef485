#!/usr/bin/env bash
# The README's second command: installs what is missing, builds, and runs the
# whole test suite on SQLite and PostgreSQL, then the sanitizer build
# (ASan+UBSan, clang, with the thread-safety analysis) of the unit, store
# and API tests, the format check and the install check. Each stage prints
# its duration; the whole command stays under 20 minutes on 2 cores. A throwaway PostgreSQL cluster is started for the run (initdb in a
# temporary folder, free port) and torn down after, unless
# SERVICE_TEST_POSTGRES_URL names a server to use.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
jobs=${JOBS:-$(nproc)}

# Prints a stage heading with the seconds elapsed so far.
stage() { echo "== $1 (${SECONDS} s)"; }

scripts/install-deps.sh --test

stage "layer check"
scripts/check-layers.sh --self-test
scripts/check-layers.sh

stage "test names"
# CTest splits a test's name at ';' (doctest_discover_tests): such a case
# would be registered under a shorter name that matches nothing and "pass"
# without running.
if grep -rn --include='*.cpp' 'TEST_CASE("[^"]*;' tests; then
  echo "test case names must not contain ';' (CTest would run none of them)" >&2
  exit 1
fi

stage "format check"
files=$(git ls-files '*.cpp' '*.h' '*.cc' '*.c' 2>/dev/null || find libservice shells bindings examples tests -name '*.[ch]*')
clang-format --dry-run -Werror $files

stage "build"
cmake -S . -B build/test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSERVICE_WERROR=ON >/dev/null
cmake --build build/test -j "$jobs"

pg_dir=""
cleanup() { [[ -n "$pg_dir" ]] && "$root/scripts/pg-cluster.sh" stop "$pg_dir" >/dev/null 2>&1 || true; }
trap cleanup EXIT
if [[ -z "${SERVICE_TEST_POSTGRES_URL:-}" ]]; then
  pg_dir=$(mktemp -d /tmp/service-pg.XXXXXX)
  SERVICE_TEST_POSTGRES_URL=$("$root/scripts/pg-cluster.sh" start "$pg_dir" | tail -n 1)
  export SERVICE_TEST_POSTGRES_URL
fi
stage "tests (SQLite and PostgreSQL)"
(cd build/test && ctest -j "$jobs" --output-on-failure --timeout 300)

# One clang build serves both checks: the sanitizers (ASan+UBSan) and the
# thread-safety analysis (-Wthread-safety as errors) of the library, the
# server and the tests (one tree instead of two: about 5 minutes less).
stage "clang build: thread-safety analysis, ASan+UBSan (library, server, unit, store and API tests)"
cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
  -DSERVICE_SANITIZE=ON -DSERVICE_THREAD_SAFETY_ANALYSIS=ON \
  -DSERVICE_BUILD_BENCH=OFF -DSERVICE_BUILD_EXAMPLES=OFF >/dev/null
cmake --build build/asan -j "$jobs" --target service-server unit_tests store_tests api_tests c_api_test
stage "sanitizers (ASan+UBSan): unit, store, API and C binding tests"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
build/asan/tests/unit_tests
SERVICE_TEST_BACKEND=sqlite build/asan/tests/store_tests
SERVICE_TEST_BACKEND=postgres build/asan/tests/store_tests
SERVICE_TEST_BACKEND=sqlite build/asan/tests/api_tests
SERVICE_TEST_BACKEND=postgres build/asan/tests/api_tests
SERVICE_TEST_BACKEND=sqlite build/asan/tests/c_api_test
SERVICE_TEST_BACKEND=postgres build/asan/tests/c_api_test

stage "install check"
scripts/check-install.sh build/test

echo "all tests passed (${SECONDS} s)"
