#!/usr/bin/env bash
# Builds (once) Fairwinds Goldilocks, a consumer of VPA objects, from its source at
# $TAILOR_GOLDILOCKS_SRC (a module github.com/fairwindsops/goldilocks checkout; third-party code that
# stays where it is, never copied here) and caches the binary beside the lane's others, keyed by a
# digest of what it is built from (go.mod, go.sum, main.go, cmd/ and pkg/ with its embedded assets):
#   ${TAILOR_CLUSTER_CACHE:-/var/cache/tailor-real-cluster}/goldilocks-<digest>/goldilocks
# goldilocks.lane.ts runs it against the lane's cluster (docs/real-cluster.md).
#
# Usage: build-goldilocks.sh           build it when it is not cached; prints the binary's path last
#        build-goldilocks.sh --check   build nothing; exit 0 and print the path when it is cached,
#                                      3 when it is not (says so)
# Either way: exit 2 with "SKIPPED: <why>" when TAILOR_GOLDILOCKS_SRC is not set or is not
# Goldilocks' source; 4 no Go; 5 another build of it is running.
# Environment: TAILOR_GOLDILOCKS_SRC, TAILOR_CLUSTER_CACHE, GO, TAILOR_BUILD_PARALLEL.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.sh
source "$here/versions.sh"

check_only=0
[[ "${1:-}" == "--check" ]] && check_only=1

src="${TAILOR_GOLDILOCKS_SRC:-}"
if [[ -z "$src" ]]; then
  echo "SKIPPED: TAILOR_GOLDILOCKS_SRC is not set (the path of Goldilocks' source, module github.com/fairwindsops/goldilocks)"
  exit 2
fi
if [[ ! -f "$src/go.mod" ]] || ! grep -q '^module github.com/fairwindsops/goldilocks$' "$src/go.mod"; then
  echo "SKIPPED: TAILOR_GOLDILOCKS_SRC=$src is not Goldilocks' source (no go.mod of module github.com/fairwindsops/goldilocks)"
  exit 2
fi
src="$(cd "$src" && pwd)"

# The key: every file the binary is built from, with its path (docs and CI files left out).
key="$(cd "$src" && find go.mod go.sum main.go cmd pkg -type f | LC_ALL=C sort | xargs sha256sum | sha256sum | cut -c1-16)"
bin="$LANE_CACHE/goldilocks-$key/goldilocks"

if [[ -x "$bin" ]]; then echo "$bin"; exit 0; fi
if [[ $check_only -eq 1 ]]; then
  echo "Goldilocks from $src is not cached ($bin); build it once: sudo TAILOR_GOLDILOCKS_SRC=$src test/real-cluster/build-goldilocks.sh (~5 min cold)"
  exit 3
fi

mkdir -p "$LANE_CACHE"
exec 9> "$LANE_CACHE/.build-goldilocks.lock"
flock -n 9 || { echo "build-goldilocks.sh: another build is running (lock $LANE_CACHE/.build-goldilocks.lock); wait for it and run again" >&2; exit 5; }
[[ -x "$bin" ]] && { echo "$bin"; exit 0; }  # built meanwhile by another run
go_bin="$(lane_go)" || { echo "build-goldilocks.sh: Go is needed to build Goldilocks and was not found (set GO=/path/to/go)" >&2; exit 4; }
par="${TAILOR_BUILD_PARALLEL:-2}"
mkdir -p "$(dirname "$bin")"
tmp="$bin.partial.$$"
start=$(date +%s)
echo "building Goldilocks from $src -> $bin (nice -n 19, -p $par)" >&2
# -mod=readonly: the source directory may be read-only (CI's copy of shared/ is); the modules it
# needs come from the Go module proxy into the module cache, checked against its go.sum.
(cd "$src" && GOFLAGS=-mod=readonly GOMAXPROCS="$par" GOTOOLCHAIN=local CGO_ENABLED=0 \
  nice -n 19 "$go_bin" build -p "$par" -trimpath -ldflags "-s -w -X main.version=lane-$key" -o "$tmp" .)
mv -f "$tmp" "$bin"
echo "built Goldilocks in $(( $(date +%s) - start )) s ($(du -h "$bin" | cut -f1))" >&2
echo "$bin"
