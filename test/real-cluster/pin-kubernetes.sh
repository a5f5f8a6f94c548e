#!/usr/bin/env bash
# Pins a Kubernetes version for the real-cluster lane: writes build/<version>/go.mod, which requires
# k8s.io/kubernetes at that version and replaces each of its staging modules (k8s.io/api, client-go,
# kubelet, ...; k8s.io/kubernetes' own go.mod points them at ./staging/src) with the matching
# v0.<minor>.<patch> release, then resolves the four components' imports so go.mod and go.sum list
# everything the build needs (checked against the Go checksum database). Needs the Go module proxy;
# builds nothing (build.sh does, with TAILOR_KUBERNETES_VERSION=<version>).
#
# Usage: test/real-cluster/pin-kubernetes.sh v1.37.2
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
version="${1:-}"
[[ "$version" =~ ^v1\.([0-9]+)\.([0-9]+)$ ]] || { echo "usage: $0 v1.<minor>.<patch>" >&2; exit 2; }
staging="v0.${BASH_REMATCH[1]}.${BASH_REMATCH[2]}"
export TAILOR_KUBERNETES_VERSION="$version"
# shellcheck source=versions.sh
source "$here/versions.sh"
go_bin="$(lane_go)" || { echo "pin-kubernetes.sh: Go is needed (set GO=/path/to/go)" >&2; exit 4; }
export GOFLAGS=-mod=mod GOTOOLCHAIN=local CGO_ENABLED=0

dir="$here/build/$version"
mkdir -p "$dir"
upstream_mod="$(cd "$dir" && "$go_bin" mod download -json "k8s.io/kubernetes@$version" | sed -n 's/^\s*"GoMod": "\(.*\)",$/\1/p')"
[[ -f "$upstream_mod" ]] || { echo "pin-kubernetes.sh: the Go module proxy did not serve k8s.io/kubernetes@$version" >&2; exit 3; }
{
  echo "module tailor.local/real-cluster/build"
  echo
  grep -m1 '^go ' "$upstream_mod"
  echo
  echo "require k8s.io/kubernetes $version"
  echo
  echo "replace ("
  grep -E '^\s*k8s\.io/[a-z0-9-]+ => \./staging/src/' "$upstream_mod" | awk -v s="$staging" '{print "\t" $1 " => " $1 " " s}'
  echo ")"
} > "$dir/go.mod"
rm -f "$dir/go.sum"
(cd "$dir" && "$go_bin" list -deps k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler k8s.io/kubernetes/cmd/kubelet > /dev/null)

# etcd for this version (versions.sh picks it), if not pinned yet.
etcd_dir="$here/build-etcd/$ETCD_VERSION"
if [[ ! -f "$etcd_dir/go.mod" ]]; then
  mkdir -p "$etcd_dir"
  printf 'module tailor.local/real-cluster/build-etcd\n\n%s\n\nrequire go.etcd.io/etcd/server/v3 %s\n' "$(grep -m1 '^go ' "$upstream_mod")" "$ETCD_VERSION" > "$etcd_dir/go.mod"
  (cd "$etcd_dir" && "$go_bin" list -deps go.etcd.io/etcd/server/v3 > /dev/null)
fi
echo "pinned Kubernetes $version in $dir (etcd $ETCD_VERSION in $etcd_dir); build it: TAILOR_KUBERNETES_VERSION=$version test/real-cluster/build.sh"
