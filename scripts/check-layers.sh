#!/usr/bin/env bash
# The include check: fails when a layer of libservice/src includes a layer
# it must not know. Run by scripts/test.sh.
#
#   domain/  pure rules          may not include app/ store/ api/ adapters/ modules/
#                                (it may take a port such as Ids for injected randomness)
#   ports/   interfaces          may not include app/ store/ api/ adapters/ modules/
#   app/     use cases           may not include store/ api/ adapters/ modules/
#   api/     transport-neutral   may not include store/ adapters/ modules/
#   store/, adapters/            may not include app/ api/ modules/
#   util/                        may not include any layer above it
#
# modules/ and service.cpp are the composition: they may include anything.
#
#   scripts/check-layers.sh              checks libservice/src
#   scripts/check-layers.sh DIR          checks DIR laid out the same way
#   scripts/check-layers.sh --self-test  proves the check fails on a violation
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [[ ${1:-} == --self-test ]]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/app/x" "$tmp/domain" "$tmp/api"
  echo '#include "ports/ids.h"' >"$tmp/domain/ok.h"
  "$here/check-layers.sh" "$tmp" >/dev/null || { echo "layer check self-test: a clean tree failed" >&2; exit 1; }
  for bad in 'app/x/bad.h:store/database.h' 'domain/bad.h:app/x/y.h' 'api/bad.cpp:store/sql.h' \
             'app/x/bad.cpp:adapters/mail.h' 'domain/bad.cpp:api/json.h'; do
    file=${bad%%:*} inc=${bad#*:}
    echo "  #include \"$inc\"" >"$tmp/$file"
    if "$here/check-layers.sh" "$tmp" 2>/dev/null; then
      echo "layer check self-test: $file including $inc was not caught" >&2
      exit 1
    fi
    rm "$tmp/$file"
  done
  echo "layer check self-test: ok"
  exit 0
fi

cd "${1:-$here/../libservice/src}"

status=0
check() {
  local layer=$1 forbidden=$2
  [[ -d $layer ]] || return 0
  local hits
  hits=$(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]+\"($forbidden)/" "$layer" || true)
  if [[ -n $hits ]]; then
    echo "layer check: $layer/ must not include $forbidden/:" >&2
    echo "$hits" | sed 's/^/  /' >&2
    status=1
  fi
}

check domain 'app|store|api|adapters|modules'
check ports 'app|store|api|adapters|modules'
check app 'store|api|adapters|modules'
check api 'store|adapters|modules'
check store 'app|api|modules'
check adapters 'app|api|modules|store'
check util 'domain|ports|app|store|api|adapters|modules'

if [[ $status -eq 0 ]]; then echo "layer check: ok"; fi
exit $status
