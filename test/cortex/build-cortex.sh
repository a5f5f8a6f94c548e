#!/usr/bin/env bash
# Builds (once) Cortex from the Go module proxy and caches it outside the checkout:
#   ${TAILOR_TOOLS_CACHE:-/var/cache/tailor-tools}/bin/cortex
# Cortex is test infrastructure only (docs/prometheus-source.md, "Cortex"): `npm run test:cortex`
# runs Tailor's Prometheus adapter against one single-process Cortex with multi-tenancy on. Nothing
# in Tailor itself runs or ships it. Cortex's go.mod has replace directives, so `go install …@version`
# cannot build it: test/cortex/build/ is a small module that requires it with the same replaces
# and exclude (copied from Cortex's go.mod) and its go.sum. Cortex v1.21.1 needs Go 1.25.0 or newer
# (GOTOOLCHAIN=auto fetches such a toolchain from the proxy when the local Go is older). Built with
# the tags of Cortex's own Makefile (netgo, slicelabels).
#
# Usage: test/cortex/build-cortex.sh           build it when it is not cached; prints the binary's path last
#        test/cortex/build-cortex.sh --check   build nothing; exit 0 and print the path when it is cached, 3 when not
# Exit 4: no Go toolchain; 5: another build is running; 6: the build failed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
CORTEX_VERSION=v1.21.1
cache="${TAILOR_TOOLS_CACHE:-/var/cache/tailor-tools}"
bin="$cache/bin/cortex"

cached() { [[ -x "$bin" ]] && "$bin" -version 2>&1 | grep -q "version ${CORTEX_VERSION#v} "; }
if cached; then echo "$bin"; exit 0; fi
if [[ "${1:-}" == --check ]]; then
  echo "cortex $CORTEX_VERSION is not cached ($bin); build it once: test/cortex/build-cortex.sh (about 10 minutes of CPU)"
  exit 3
fi
go_bin="$(command -v "${GO:-go}" || true)"
[[ -n "$go_bin" ]] || { echo "build-cortex.sh: Go is needed to build Cortex and was not found (set GO=/path/to/go)" >&2; exit 4; }
mkdir -p "$cache/bin"
exec 9> "$cache/.build-cortex.lock"
flock -n 9 || { echo "build-cortex.sh: another build is running (lock $cache/.build-cortex.lock)" >&2; exit 5; }
if cached; then echo "$bin"; exit 0; fi
par="${TAILOR_BUILD_PARALLEL:-2}"
start=$(date +%s)
echo "building cortex $CORTEX_VERSION -> $bin (nice -n 19, -p $par)" >&2
tmp="$bin.partial.$$"
trap 'rm -f "$tmp"' EXIT
pkg=github.com/cortexproject/cortex
if ! (cd "$here/build" && GOFLAGS=-mod=mod GOMAXPROCS="$par" GOTOOLCHAIN=auto CGO_ENABLED=0 \
  nice -n 19 "$go_bin" build -p "$par" -trimpath -tags netgo,slicelabels -o "$tmp" \
  -ldflags "-s -w -X main.Version=${CORTEX_VERSION#v} -X main.Branch=release-1.21 -X main.Revision=$CORTEX_VERSION" "$pkg/cmd/cortex"); then
  echo "build-cortex.sh: building $pkg/cmd/cortex@$CORTEX_VERSION failed" >&2
  exit 6
fi
mv -f "$tmp" "$bin"
echo "built cortex $CORTEX_VERSION in $(( $(date +%s) - start )) s ($(du -h "$bin" | cut -f1))" >&2
echo "$bin"
