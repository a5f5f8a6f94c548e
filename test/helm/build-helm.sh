#!/usr/bin/env bash
# Builds (once) the Helm CLI from the Go module proxy and caches it outside the checkout:
#   ${TAILOR_TOOLS_CACHE:-/var/cache/tailor-tools}/bin/helm   ($HOME/.cache/tailor-tools when
#   /var/cache is not writable and TAILOR_TOOLS_CACHE is not set)
# Helm is test infrastructure only (docs/helm.md): `npm run test:helm` (test/helm/chart.check.ts)
# lints and renders charts/tailor with it, and the real-cluster lane installs the chart with it
# (test/helm/chart.lane.ts). Nothing in Tailor itself runs or ships it.
#
# Usage: test/helm/build-helm.sh           build it when it is not cached; prints the binary's path last
#        test/helm/build-helm.sh --check   build nothing; exit 0 and print the path when it is cached,
#                                          3 when it is not (says so)
#        test/helm/build-helm.sh --path    print the path where it is (or would be) cached; exit 0
# Exit 4: no Go toolchain; 5: another build is running; 6: the build failed.
# Environment: TAILOR_TOOLS_CACHE, GO, TAILOR_BUILD_PARALLEL.
set -euo pipefail

# v4.3.2: the newest helm.sh/helm/v4 the Go module proxy serves here (`go list -m -versions
# helm.sh/helm/v4`). Changing it rebuilds once: the cached binary's version is checked, not only its presence.
HELM_MODULE=helm.sh/helm/v4
HELM_VERSION=v4.3.2

mode="${1:-build}"
case "$mode" in build | --check | --path) ;; *) echo "usage: $0 [--check|--path]" >&2; exit 2 ;; esac

cache_root() {
  if [[ -n "${TAILOR_TOOLS_CACHE:-}" ]]; then echo "$TAILOR_TOOLS_CACHE"; return; fi
  local sys=/var/cache/tailor-tools
  if [[ -d "$sys" && -w "$sys" ]] || { [[ ! -e "$sys" ]] && [[ -w /var/cache ]]; }; then echo "$sys"; return; fi
  # Already built under /var/cache by someone with rights there: use it read-only.
  if [[ -x "$sys/bin/helm" ]]; then echo "$sys"; return; fi
  echo "${HOME:-/tmp}/.cache/tailor-tools"
}
cache="$(cache_root)"
bin="$cache/bin/helm"

# cached: the binary is there and is the pinned version (a stale one is rebuilt, never used).
cached() {
  [[ -x "$bin" ]] || return 1
  local v
  v="$("$bin" version --template '{{.Version}}' 2>/dev/null)" || return 1
  [[ "$v" == "$HELM_VERSION" ]]
}

if [[ "$mode" == --path ]]; then echo "$bin"; exit 0; fi
if cached; then echo "$bin"; exit 0; fi
if [[ "$mode" == --check ]]; then
  if [[ -x "$bin" ]]; then
    echo "helm $HELM_VERSION is not cached ($bin is another version); build it once: test/helm/build-helm.sh (a few minutes of CPU)"
  else
    echo "helm $HELM_VERSION is not cached ($bin); build it once: test/helm/build-helm.sh (a few minutes of CPU)"
  fi
  exit 3
fi

go_bin=""
if [[ -n "${GO:-}" ]]; then go_bin="$(command -v "$GO" || true)"
elif command -v go > /dev/null; then go_bin="$(command -v go)"
elif [[ -x /usr/local/go/bin/go ]]; then go_bin=/usr/local/go/bin/go
fi
[[ -n "$go_bin" ]] || { echo "build-helm.sh: Go is needed to build helm and was not found (set GO=/path/to/go)" >&2; exit 4; }

mkdir -p "$cache/bin"
exec 9> "$cache/.build-helm.lock"
flock -n 9 || { echo "build-helm.sh: another build is running (lock $cache/.build-helm.lock); wait for it and run again" >&2; exit 5; }
if cached; then echo "$bin"; exit 0; fi  # built meanwhile by another run

par="${TAILOR_BUILD_PARALLEL:-2}"
start=$(date +%s)
echo "building helm $HELM_VERSION ($HELM_MODULE/cmd/helm) -> $bin (nice -n 19, -p $par)" >&2
# Built into a scratch GOBIN and moved into place, so a failed or interrupted build never leaves a
# half-written helm where --check would find it. cd /: `go install pkg@version` ignores any go.mod.
# The -X sets the full version as helm's Makefile does (its source says only "v4.3"), which is
# what cached() compares.
tmp="$cache/bin.partial.$$"
rm -rf "$tmp"
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
if ! (cd / && GOBIN="$tmp" GOFLAGS= GOMAXPROCS="$par" GOTOOLCHAIN=local CGO_ENABLED=0 \
  nice -n 19 "$go_bin" install -p "$par" -trimpath -ldflags "-s -w -X $HELM_MODULE/internal/version.version=$HELM_VERSION" \
  "$HELM_MODULE/cmd/helm@$HELM_VERSION"); then
  echo "build-helm.sh: go install $HELM_MODULE/cmd/helm@$HELM_VERSION failed" >&2
  exit 6
fi
mv -f "$tmp/helm" "$bin"
echo "built helm $HELM_VERSION in $(( $(date +%s) - start )) s ($(du -h "$bin" | cut -f1))" >&2
echo "$bin"
