#!/usr/bin/env bash
# The include check: fails when a layer of libservice/src includes a layer
# it must not know. Run by scripts/test.sh.
#
# Each area keeps its layers in its own folder, areas/<area>/{domain,ports,
# app,store,api,adapters}, beside its module (areas/<area>/module.*) and
# migrations;
# the platform keeps the shared ones at the top (ports/, app/, store/, api/,
# adapters/, util/). The same rules hold in every area and in the platform,
# whichever area the included file belongs to:
#
#   domain/  pure rules          may not include app/ store/ api/ adapters/ modules/ or a module
#                                (it may take a port such as Ids for injected randomness)
#   ports/   interfaces          may not include app/ store/ api/ adapters/ modules/ or a module
#   app/     use cases           may not include store/ api/ adapters/ modules/ or a module
#   api/     transport-neutral   may not include store/ adapters/ modules/ or a module
#   store/, adapters/            may not include app/ api/ modules/ or a module
#                                (adapters/: no store/ either)
#   util/                        may not include any layer above it
#
# modules/, areas/<area>/module.* and service.cpp are the composition: they
# may include anything.
#
#   scripts/check-layers.sh              checks libservice/src
#   scripts/check-layers.sh DIR          checks DIR laid out the same way
#   scripts/check-layers.sh --self-test  proves the check fails on a violation
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)

if [[ ${1:-} == --self-test ]]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/app/x" "$tmp/domain" "$tmp/api" "$tmp/areas/a/domain" "$tmp/areas/a/app" "$tmp/areas/a/api" "$tmp/areas/a/adapters" \
    "$tmp/areas/a/store" "$tmp/areas/a/ports"
  echo '#include "ports/ids.h"' >"$tmp/domain/ok.h"
  echo '#include "areas/b/domain/rule.h"' >"$tmp/areas/a/domain/ok.h"
  echo '#include "areas/b/ports/repo.h"' >"$tmp/areas/a/app/ok.h"
  echo '#include "areas/a/app/use_case.h"' >"$tmp/areas/a/api/ok.cpp"
  echo '#include "areas/b/store/repositories.h"' >"$tmp/areas/a/module.cpp"
  "$here/check-layers.sh" "$tmp" >/dev/null || { echo "layer check self-test: a clean tree failed" >&2; exit 1; }
  for bad in 'app/x/bad.h:store/database.h' 'domain/bad.h:app/x/y.h' 'api/bad.cpp:store/sql.h' \
             'app/x/bad.cpp:adapters/mail.h' 'domain/bad.cpp:api/json.h' \
             'areas/a/app/bad.cpp:areas/a/store/repositories.h' 'areas/a/app/bad.h:areas/b/store/sql.h' \
             'areas/a/domain/bad.h:areas/b/app/use_case.h' 'areas/a/domain/bad.cpp:store/database.h' \
             'areas/a/api/bad.cpp:areas/a/store/sql.h' 'areas/a/store/bad.cpp:areas/b/app/use_case.h' \
             'areas/a/ports/bad.h:areas/a/app/use_case.h' 'areas/a/api/bad.cpp:areas/b/module.h' \
             'areas/a/app/bad.cpp:modules/platform.h' 'areas/a/stray.cpp:util/strings.h' 'areas/a/adapters/bad.cpp:areas/b/app/use_case.h'; do
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
# check LAYER FORBIDDEN: the files of LAYER (the platform's folder and every
# area's) may not include a file of the FORBIDDEN layers (|-separated), in
# the platform or in any area, nor an area's module.
check() {
  local layer=$1 forbidden=$2 dirs=() dir hits
  [[ -d $layer ]] && dirs+=("$layer")
  for dir in areas/*/"$layer"; do [[ -d $dir ]] && dirs+=("$dir"); done
  for dir in "${dirs[@]}"; do
    hits=$(grep -rnE "^[[:space:]]*#[[:space:]]*include[[:space:]]+\"(($forbidden)/|areas/[a-z0-9_]+/(($forbidden)/|module\\.h))" \
      "$dir" || true)
    if [[ -n $hits ]]; then
      echo "layer check: $dir/ must not include $forbidden/ (of the platform or any area) or a module:" >&2
      echo "$hits" | sed 's/^/  /' >&2
      status=1
    fi
  done
}

check domain 'app|store|api|adapters|modules'
check ports 'app|store|api|adapters|modules'
check app 'store|api|adapters|modules'
check api 'store|adapters|modules'
check store 'app|api|modules'
check adapters 'app|api|modules|store'
check util 'domain|ports|app|store|api|adapters|modules|areas'

# Every file of an area is in one of its layers, its module or its migrations.
for f in areas/*/*; do
  [[ -e $f ]] || continue
  case ${f#areas/*/} in
    domain | ports | app | store | api | adapters | migrations | module.h | module.cpp) ;;
    *)
      echo "layer check: $f is outside the area's layers (domain ports app store api adapters migrations module.*)" >&2
      status=1
      ;;
  esac
done

if [[ $status -eq 0 ]]; then echo "layer check: ok"; fi
exit $status
