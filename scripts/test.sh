#!/usr/bin/env bash
# The README's second command: installs what is missing, builds, and runs the
# whole test suite on SQLite and PostgreSQL, then the sanitizer build
# (ASan+UBSan, clang, with the thread-safety analysis) of the unit, store
# and API tests, the format check, the install check and the package check
# (the Debian package installed, started and purged). Each stage prints
# its duration; the whole command takes about 40 minutes on 2 cores (a fresh
# build is 13.5 of them). A throwaway PostgreSQL cluster is started for the run (initdb in a
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
# without running. A name may be several string literals over several lines.
bad_names=$(find tests -name '*.cpp' -print0 | xargs -0 perl -0777 -ne '
  while (/TEST_CASE\(\s*((?:"(?:[^"\\]|\\.)*"\s*)+)/g) {
    my $n = $1; $n =~ s/"\s*"//g; print "$ARGV: $n\n" if $n =~ /;/;
  }')
if [[ -n "$bad_names" ]]; then
  echo "$bad_names"
  echo "test case names must not contain ';' (CTest would run none of them)" >&2
  exit 1
fi

stage "link check"
# Every relative link and image of README.md and docs/*.md names an existing
# file (and a #fragment a heading of that page).
scripts/check-links.sh

stage "format check"
files=$(git ls-files '*.cpp' '*.h' '*.cc' '*.c' 2>/dev/null || find libservice shells bindings examples tests -name '*.[ch]*')
clang-format --dry-run -Werror $files

stage "build"
# RelWithDebInfo at -O2 (so GCC's optimizer-driven warnings still run, as
# errors) with line tables only (-g1) instead of full debug info: about a
# quarter less compile time on 2 cores, backtraces keep file and line.
cmake -S . -B build/test -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSERVICE_WERROR=ON \
  "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG" >/dev/null
cmake --build build/test -j "$jobs"

pg_dir=""
cleanup() { [[ -n "$pg_dir" ]] && "$root/scripts/pg-cluster.sh" stop "$pg_dir" >/dev/null 2>&1 || true; }
trap cleanup EXIT
if [[ -z "${SERVICE_TEST_POSTGRES_URL:-}" ]]; then
  pg_dir=$(mktemp -d /tmp/service-pg.XXXXXX)
  # Without fsync: a throwaway cluster that nothing crashes (scripts/pg-cluster.sh).
  SERVICE_TEST_POSTGRES_URL=$(PG_FSYNC=off "$root/scripts/pg-cluster.sh" start "$pg_dir" | tail -n 1)
  export SERVICE_TEST_POSTGRES_URL
fi
# One clang build serves both checks: the sanitizers (ASan+UBSan) and the
# thread-safety analysis (-Wthread-safety as errors) of the library, the
# server and the tests (one tree instead of two: about 5 minutes less).
# Line tables only (-gline-tables-only): sanitizer reports keep their
# symbolized frames with file and line, the build is cheaper than full -g.
# It is built at the lowest CPU priority while the first tree's tests run:
# those mostly wait on PostgreSQL, the browser and timers, so the compiler
# takes the idle CPU and yields it to the tests (and their PostgreSQL)
# whenever they want it.
cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_C_COMPILER=clang \
  -DCMAKE_CXX_FLAGS_DEBUG=-gline-tables-only -DCMAKE_C_FLAGS_DEBUG=-gline-tables-only \
  -DSERVICE_SANITIZE=ON -DSERVICE_THREAD_SAFETY_ANALYSIS=ON \
  -DSERVICE_BUILD_BENCH=OFF -DSERVICE_BUILD_EXAMPLES=OFF >/dev/null
asan_log=$(mktemp /tmp/service-asan-build.XXXXXX)
stage "tests (SQLite and PostgreSQL); clang build (thread-safety analysis, ASan+UBSan: library, server, unit, store and API tests) at low priority beside them"
nice -n 19 cmake --build build/asan -j "$jobs" --target service-server unit_tests store_tests api_tests c_api_test \
  >"$asan_log" 2>&1 &
asan_pid=$!
tests_ok=1
(cd build/test && ctest -j "$jobs" --output-on-failure --timeout 300) || tests_ok=0
stage "tests done; waiting for the clang build"
asan_ok=1
wait "$asan_pid" || asan_ok=0
if ((!asan_ok)); then
  cat "$asan_log"
  echo "clang build (thread-safety analysis, ASan+UBSan) failed" >&2
fi
rm -f "$asan_log"
((tests_ok && asan_ok)) || exit 1

# The sanitizer runs, $jobs at a time (each suite is one process, mostly on
# one core or waiting on PostgreSQL), longest first; each one's output is
# shown when it ends, all of it when it fails.
stage "sanitizers (ASan+UBSan): unit, store, API and C binding tests"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
san_dir=$(mktemp -d /tmp/service-san.XXXXXX)
san_failed=0
declare -A san_name=()
# Waits for one run to end and reports it.
san_reap() {
  local pid rc=0
  wait -n -p pid || rc=$?
  local name=${san_name[$pid]}
  unset "san_name[$pid]"
  echo "-- $name: exit $rc (${SECONDS} s)"
  if ((rc != 0)); then
    cat "$san_dir/$name"
    san_failed=1
  else
    tail -n 3 "$san_dir/$name"
  fi
}
for run in "postgres api_tests" "sqlite api_tests" "postgres store_tests" "unit unit_tests" \
  "sqlite store_tests" "postgres c_api_test" "sqlite c_api_test"; do
  while ((${#san_name[@]} >= jobs)); do san_reap; done
  backend=${run% *}
  binary=${run#* }
  [[ $backend == unit ]] && backend=sqlite
  (SERVICE_TEST_BACKEND=$backend "build/asan/tests/$binary" >"$san_dir/$run" 2>&1) &
  san_name[$!]=$run
done
while ((${#san_name[@]})); do san_reap; done
rm -rf "$san_dir"
((!san_failed)) || exit 1

# GET /v1/openapi.json: @redocly/cli lint (recommended-strict), then the e2e cases of
# scripts/openapi-check.sh's PRISM_CASES on SQLite through a Prism proxy (--errors) that
# validates every request and answer against the document; any violation fails
# (docs/openapi.md). About 3 to 4.5 minutes (13 cases).
stage "openapi lint and Prism-validated e2e (SQLite)"
scripts/openapi-check.sh lint
env -u SERVICE_TEST_POSTGRES_URL scripts/openapi-check.sh prism

stage "install check"
scripts/check-install.sh build/test

# cpack -G DEB from the tree built above, dpkg -i, the installed server
# started as its user with the installed settings, GET /v1/health, the
# upgrade path's migrate, dpkg --purge; lintian's findings when it is
# installed (docs/operations.md "The Debian package"). About 20 s.
stage "package check"
scripts/check-package.sh build/test

echo "all tests passed (${SECONDS} s)"
