#!/usr/bin/env bash
# Builds, on a fresh machine, every cache `.ci/run`'s slower lanes and the chaos lane use, so that
# CI runs them instead of saying SKIPPED. CI never builds (a cold build takes about an hour); run this
# once as root after the machine is new. Everything cached is reused: a second run builds nothing.
#
# Two chains run side by side (Go builds are CPU-bound, image builds mostly wait on the network):
#   go:     the lane's Kubernetes (v1.35.4, then v1.37.2) and etcd, kube-state-metrics, the
#           conformance suite and its images, upstream VPA v1.8.1 and its images, Goldilocks, Helm,
#           krew, Thanos, Cortex;
#   images: the lane's Debian packages and Prometheus, the lane's two images, Tailor's image of
#           this checkout.
# Third-party sources come from beside the clone (../shared/upstream/{vpa-e2e,goldilocks}) or from
# TAILOR_VPA_E2E_SRC / TAILOR_GOLDILOCKS_SRC; without them those steps say SKIPPED.
# Usage: sudo test/warm-caches.sh [LOG_DIR]   (each chain logs to LOG_DIR/warm-<chain>.log; default /tmp)
set -uo pipefail
cd "$(dirname "$0")/.."
[[ $EUID -eq 0 ]] || { echo "warm-caches.sh: run as root (the lane's builds and images need it)" >&2; exit 2; }
log_dir="${1:-/tmp}"
mkdir -p "$log_dir"
vpa_e2e="${TAILOR_VPA_E2E_SRC:-}"
[[ -z "$vpa_e2e" && -d ../shared/upstream/vpa-e2e ]] && vpa_e2e="$(cd ../shared/upstream/vpa-e2e && pwd)"
goldilocks="${TAILOR_GOLDILOCKS_SRC:-}"
[[ -z "$goldilocks" && -d ../shared/upstream/goldilocks ]] && goldilocks="$(cd ../shared/upstream/goldilocks && pwd)"

# step NAME CMD...: runs one step, timed; a failed step is reported and the chain goes on.
step() {
  local name="$1" start rc
  shift
  start=$(date +%s)
  echo "== $name: $*"
  "$@"
  rc=$?
  echo "== $name: exit $rc after $(($(date +%s) - start)) s"
}

go_chain() {
  step kubernetes-v1.35.4 test/real-cluster/build.sh
  step kube-state-metrics test/real-cluster/build.sh kube-state-metrics
  if [[ -n "$vpa_e2e" ]]; then
    step conformance env TAILOR_VPA_E2E_SRC="$vpa_e2e" test/conformance/build.sh
  else
    echo "== conformance: SKIPPED: no upstream e2e source (TAILOR_VPA_E2E_SRC or ../shared/upstream/vpa-e2e)"
  fi
  step upstream-vpa test/real-cluster/build-upstream-vpa.sh
  step upstream-vpa-images test/conformance/build-upstream.sh
  step kubernetes-v1.37.2 env TAILOR_KUBERNETES_VERSION=v1.37.2 test/real-cluster/build.sh
  if [[ -n "$goldilocks" ]]; then
    step goldilocks env TAILOR_GOLDILOCKS_SRC="$goldilocks" test/real-cluster/build-goldilocks.sh
  else
    echo "== goldilocks: SKIPPED: no Goldilocks source (TAILOR_GOLDILOCKS_SRC or ../shared/upstream/goldilocks)"
  fi
  step helm test/helm/build-helm.sh
  step krew test/krew/build-krew.sh
  step thanos test/thanos/build-thanos.sh
  step cortex test/cortex/build-cortex.sh
}

images_chain() {
  step debian-packages apt-get install -y -qq --no-install-recommends containerd runc buildah catatonit \
    busybox-static socat containernetworking-plugins prometheus openssl curl iproute2 procps mmdebstrap
  step lane-images test/real-cluster/images.sh
  step tailor-image test/real-cluster/image.sh
}

go_chain >"$log_dir/warm-go.log" 2>&1 &
go_pid=$!
images_chain >"$log_dir/warm-images.log" 2>&1 &
images_pid=$!
wait "$go_pid" "$images_pid"
grep -h '^== .*\(exit\|SKIPPED\)' "$log_dir/warm-images.log" "$log_dir/warm-go.log"
