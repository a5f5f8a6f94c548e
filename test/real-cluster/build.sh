#!/usr/bin/env bash
# Builds (once) the binaries of the real-cluster lane and caches them outside the checkout, keyed by
# version: kube-apiserver, kube-controller-manager, kube-scheduler and kubelet (upstream's
# k8s.io/kubernetes/cmd/<component>, unchanged) from the module pinned in build/<version>/, etcd
# (go.etcd.io/etcd/server/v3's main) from build-etcd/<etcd version>/; on request
# (`build.sh kube-state-metrics`) kube-state-metrics from build-ksm/. A binary already in the cache is
# reused. TAILOR_KUBERNETES_VERSION picks the Kubernetes version (versions.sh).
#
# Usage: test/real-cluster/build.sh [--check] [component...]
#   --check   build nothing; exit 0 when every requested binary is cached, 3 otherwise (lists them).
# Environment: TAILOR_CLUSTER_CACHE (default /var/cache/tailor-real-cluster), GO (default: go on PATH,
# else /usr/local/go/bin/go), TAILOR_BUILD_PARALLEL (go build -p and GOMAXPROCS, default 2).
# Builds run one at a time under `nice -n 19` so a shared machine stays usable.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=versions.sh
source "$here/versions.sh"

check_only=0
if [[ "${1:-}" == "--check" ]]; then check_only=1; shift; fi
components=("$@")
if [[ ${#components[@]} -eq 0 ]]; then components=("${LANE_COMPONENTS[@]}"); fi

# shellcheck source=build-cache.sh
source "$here/build-cache.sh"
module_dir="$here/build/$KUBERNETES_VERSION"
if [[ ! -f "$module_dir/go.mod" ]]; then
  echo "build.sh: Kubernetes $KUBERNETES_VERSION is not pinned (no $module_dir/go.mod; pinned: ${LANE_KUBERNETES_VERSIONS[*]}); pin it once with test/real-cluster/pin-kubernetes.sh $KUBERNETES_VERSION" >&2
  exit 2
fi
etcd_dir="$here/build-etcd/$ETCD_VERSION"
build_cache_prepare build.sh lane_binary "${LANE_COMPONENTS[*]} kube-state-metrics" .build.lock "$check_only" "${components[@]}"
par="${TAILOR_BUILD_PARALLEL:-2}"
export GOFLAGS=-mod=mod GOMAXPROCS="$par" GOTOOLCHAIN=local CGO_ENABLED=0
k8s_ldflags="-s -w -X k8s.io/component-base/version.gitVersion=${KUBERNETES_VERSION} -X k8s.io/component-base/version.gitMajor=${KUBERNETES_VERSION_MAJOR} -X k8s.io/component-base/version.gitMinor=${KUBERNETES_VERSION_MINOR} -X k8s.io/component-base/version.gitTreeState=clean"

for c in "${missing[@]}"; do
  out="$(lane_binary "$c")"
  [[ -x "$out" ]] && continue  # built meanwhile by another run
  mkdir -p "$(dirname "$out")"
  tmp="$out.partial.$$"
  start=$(date +%s)
  echo "building $c -> $out (nice -n 19, -p $par; a cold build takes ~20 min on a busy 2-core machine)"
  case "$c" in
    etcd)
      (cd "$etcd_dir" && nice -n 19 "$go_bin" build -p "$par" -trimpath -ldflags "-s -w" -o "$tmp" go.etcd.io/etcd/server/v3) ;;
    kube-state-metrics)
      (cd "$here/build-ksm" && nice -n 19 "$go_bin" build -p "$par" -trimpath -ldflags "-s -w -X github.com/prometheus/common/version.Version=${KSM_VERSION}" -o "$tmp" ./kube-state-metrics) ;;
    *)
      (cd "$module_dir" && nice -n 19 "$go_bin" build -p "$par" -trimpath -ldflags "$k8s_ldflags" -o "$tmp" "k8s.io/kubernetes/cmd/$c") ;;
  esac
  mv -f "$tmp" "$out"
  echo "built $c in $(( $(date +%s) - start )) s ($(du -h "$out" | cut -f1))"
done
