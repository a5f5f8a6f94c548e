#!/usr/bin/env bash
# Builds (once) upstream's VPA v1.8.1 (recommender, updater, admission-controller) and metrics-server,
# the other side of the side-by-side comparison (docs/comparison-upstream-vpa.md), and caches them
# outside the checkout keyed by version. Test infrastructure only: never run by CI (a cold build
# takes long); the comparison script fails when they are not cached.
#
# `go install <package>@<version>` refuses the VPA module (its go.mod has `exclude` directives), and a
# main package cannot be imported from a module of our own; so each module is downloaded as published
# (`go mod download`) and its main package built inside it, with its own go.mod and go.sum.
#
# Usage: test/real-cluster/build-upstream-vpa.sh [--check] [component...]
#   components: vpa-recommender vpa-updater vpa-admission-controller metrics-server (default: all)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.sh
source "$here/versions.sh"

check_only=0
if [[ "${1:-}" == "--check" ]]; then check_only=1; shift; fi
components=("$@")
if [[ ${#components[@]} -eq 0 ]]; then components=("${UPSTREAM_COMPONENTS[@]}"); fi

# shellcheck source=build-cache.sh
source "$here/build-cache.sh"
build_cache_prepare build-upstream-vpa.sh upstream_binary "${UPSTREAM_COMPONENTS[*]}" .build-upstream.lock "$check_only" "${components[@]}"
par="${TAILOR_BUILD_PARALLEL:-2}"
export GOMAXPROCS="$par" GOTOOLCHAIN=local CGO_ENABLED=0 GOFLAGS=

for c in "${missing[@]}"; do
  out="$(upstream_binary "$c")"
  [[ -x "$out" ]] && continue
  read -r mod pkg <<< "$(upstream_package "$c")"
  mkdir -p "$(dirname "$out")"
  tmp="$out.partial.$$"
  start=$(date +%s)
  echo "building $c ($mod, ./$pkg) -> $out (nice -n 10, -p $par)"
  dir="$(cd / && "$go_bin" mod download -json "$mod" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
  [[ -d "$dir" ]] || { echo "build-upstream-vpa.sh: go mod download $mod gave no directory" >&2; exit 6; }
  (cd "$dir" && GOFLAGS=-mod=readonly nice -n 10 "$go_bin" build -p "$par" -trimpath -ldflags "-s -w" -o "$tmp" "./$pkg")
  mv -f "$tmp" "$out"
  # The comparison installs upstream's own CRDs, released with the same version.
  if [[ -f "$dir/deploy/vpa-v1-crd-gen.yaml" ]]; then cp -f "$dir/deploy/vpa-v1-crd-gen.yaml" "$(dirname "$out")/"; fi
  echo "built $c in $(( $(date +%s) - start )) s ($(du -h "$out" | cut -f1))"
done
