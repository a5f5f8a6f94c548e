#!/usr/bin/env bash
# Builds krew (the kubectl plugin manager, sigs.k8s.io/krew) once from the Go module proxy, as test
# infrastructure for `npm run test:krew`: never part of the product, never committed.
# Usage: build-krew.sh [--check]   (--check builds nothing: exit 0 and the path when cached, 3 when not)
# Environment: TAILOR_TOOLS_CACHE (default /var/cache/tailor-tools), GO (default go).
set -euo pipefail
KREW_VERSION=v0.4.3
bin_dir="${TAILOR_TOOLS_CACHE:-/var/cache/tailor-tools}/bin"
krew="$bin_dir/krew"
stamp="$bin_dir/.krew-version"
cached() { [[ -x "$krew" && "$(cat "$stamp" 2>/dev/null)" == "$KREW_VERSION" ]]; }
if [[ "${1:-}" == "--check" ]]; then
  if cached; then echo "$krew"; exit 0; fi
  echo "krew $KREW_VERSION is not cached ($krew); build it once: test/krew/build-krew.sh"
  exit 3
fi
if cached; then echo "$krew"; exit 0; fi
go_bin="${GO:-go}"
command -v "$go_bin" >/dev/null || { echo "build-krew.sh: Go is needed to build krew (set GO=/path/to/go)" >&2; exit 4; }
mkdir -p "$bin_dir"
GOBIN="$bin_dir" GOFLAGS=-mod=mod "$go_bin" install "sigs.k8s.io/krew/cmd/krew@$KREW_VERSION"
echo "$KREW_VERSION" > "$stamp"
echo "$krew"
