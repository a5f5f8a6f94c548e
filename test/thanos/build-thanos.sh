#!/usr/bin/env bash
# Builds (once) Thanos from the Go module proxy and caches it outside the checkout:
#   ${TAILOR_TOOLS_CACHE:-/var/cache/tailor-tools}/bin/thanos
# Thanos is test infrastructure only (docs/prometheus-source.md, "Thanos"): `npm run test:thanos`
# runs Tailor's Prometheus adapter through Thanos Query over two Prometheus replicas and two
# clusters. Nothing in Tailor itself runs or ships it. Its go.mod has replace directives, so
# `go install …@version` cannot build it: test/thanos/build/ is a small module that requires it
# with the same replaces (copied from Thanos' go.mod), and Thanos v0.42.5 needs Go 1.26.10 or
# newer, which the Go module proxy serves as the toolchain go1.27.3 (GOTOOLCHAIN below). Built with
# the tags of Thanos' own .promu.yml (netgo, slicelabels): without slicelabels Prometheus' labels
# take another memory layout than Thanos' unsafe label code expects, and the sidecar panics on its
# first gRPC answer ("makeslice: len out of range").
#
# Usage: test/thanos/build-thanos.sh           build it when it is not cached; prints the binary's path last
#        test/thanos/build-thanos.sh --check   build nothing; exit 0 and print the path when it is cached, 3 when not
# Exit 4: no Go toolchain; 5: another build is running; 6: the build failed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
THANOS_VERSION=v0.42.5
cache="${TAILOR_TOOLS_CACHE:-/var/cache/tailor-tools}"
bin="$cache/bin/thanos"

cached() { [[ -x "$bin" ]] && "$bin" --version 2>&1 | grep -q "version ${THANOS_VERSION#v} "; }
if cached; then echo "$bin"; exit 0; fi
if [[ "${1:-}" == --check ]]; then
  echo "thanos $THANOS_VERSION is not cached ($bin); build it once: test/thanos/build-thanos.sh (about 10 minutes of CPU)"
  exit 3
fi
go_bin="$(command -v "${GO:-go}" || true)"
[[ -n "$go_bin" ]] || { echo "build-thanos.sh: Go is needed to build Thanos and was not found (set GO=/path/to/go)" >&2; exit 4; }
mkdir -p "$cache/bin"
exec 9> "$cache/.build-thanos.lock"
flock -n 9 || { echo "build-thanos.sh: another build is running (lock $cache/.build-thanos.lock)" >&2; exit 5; }
if cached; then echo "$bin"; exit 0; fi
par="${TAILOR_BUILD_PARALLEL:-2}"
start=$(date +%s)
echo "building thanos $THANOS_VERSION -> $bin (nice -n 19, -p $par)" >&2
tmp="$bin.partial.$$"
trap 'rm -f "$tmp"' EXIT
if ! (cd "$here/build" && GOFLAGS=-mod=mod GOMAXPROCS="$par" GOTOOLCHAIN=go1.27.3 CGO_ENABLED=0 \
  nice -n 19 "$go_bin" build -p "$par" -trimpath -tags netgo,slicelabels -o "$tmp" \
  -ldflags "-s -w -X github.com/prometheus/common/version.Version=${THANOS_VERSION#v}" github.com/thanos-io/thanos/cmd/thanos); then
  echo "build-thanos.sh: building github.com/thanos-io/thanos/cmd/thanos@$THANOS_VERSION failed" >&2
  exit 6
fi
mv -f "$tmp" "$bin"
echo "built thanos $THANOS_VERSION in $(( $(date +%s) - start )) s ($(du -h "$bin" | cut -f1))" >&2
echo "$bin"
