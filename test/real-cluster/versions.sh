# shellcheck shell=bash disable=SC2034
# Pinned versions and cache layout of the real-cluster lane (sourced by the lane's scripts).
# Changing a version changes the cache key, so the next run builds the new binaries once.
# Kubernetes: TAILOR_KUBERNETES_VERSION picks one of the versions pinned under build/<version>/ (a
# go.mod and go.sum each, written by pin-kubernetes.sh); the default is the first. etcd follows the
# minor version the way Kubernetes' own build/dependencies.yaml does (1.35 and 1.36: etcd 3.6; 1.37:
# 3.7), at the newest patch the Go module proxy serves here.
LANE_KUBERNETES_VERSIONS=(v1.35.4 v1.36.3 v1.37.2)
KUBERNETES_VERSION="${TAILOR_KUBERNETES_VERSION:-${LANE_KUBERNETES_VERSIONS[0]}}"
if [[ ! "$KUBERNETES_VERSION" =~ ^v([0-9]+)\.([0-9]+)\.([0-9]+)$ ]]; then
  echo "TAILOR_KUBERNETES_VERSION=$KUBERNETES_VERSION is not a version like v1.36.3 (pinned: ${LANE_KUBERNETES_VERSIONS[*]})" >&2
  exit 2
fi
KUBERNETES_VERSION_MAJOR="${BASH_REMATCH[1]}"
KUBERNETES_VERSION_MINOR="${BASH_REMATCH[2]}"
if (( KUBERNETES_VERSION_MINOR >= 37 )); then ETCD_VERSION=v3.7.3; else ETCD_VERSION=v3.6.16; fi
# kube-state-metrics (not part of cluster:up; `build.sh kube-state-metrics`, run by ksm.sh). v2.13.0:
# the newest release the Go module proxy and checksum database serve here.
KSM_VERSION=v2.13.0
LANE_CACHE="${TAILOR_CLUSTER_CACHE:-/var/cache/tailor-real-cluster}"
LANE_COMPONENTS=(etcd kube-apiserver kubelet kube-scheduler kube-controller-manager)

# lane_binary COMPONENT: the cached path of a component's binary.
lane_binary() {
  case "$1" in
    etcd) echo "$LANE_CACHE/etcd-$ETCD_VERSION/etcd" ;;
    kube-state-metrics) echo "$LANE_CACHE/kube-state-metrics-$KSM_VERSION/kube-state-metrics" ;;
    kube-apiserver | kube-controller-manager | kube-scheduler | kubelet) echo "$LANE_CACHE/kubernetes-$KUBERNETES_VERSION/$1" ;;
    *) return 1 ;;
  esac
}

# lane_go: the Go toolchain to build with ($GO, else go on PATH, else /usr/local/go/bin/go).
lane_go() {
  if [[ -n "${GO:-}" ]]; then command -v "$GO" && return 0; return 1; fi
  command -v go && return 0
  [[ -x /usr/local/go/bin/go ]] && echo /usr/local/go/bin/go && return 0
  return 1
}

# Upstream's VPA and metrics-server, for the side-by-side comparison (build-upstream-vpa.sh).
UPSTREAM_VPA_VERSION=v1.8.1
METRICS_SERVER_VERSION=v0.9.0
UPSTREAM_COMPONENTS=(vpa-recommender vpa-updater vpa-admission-controller metrics-server)

# upstream_binary COMPONENT: the cached path of an upstream component's binary.
upstream_binary() {
  case "$1" in
    vpa-recommender | vpa-updater | vpa-admission-controller) echo "$LANE_CACHE/vertical-pod-autoscaler-$UPSTREAM_VPA_VERSION/$1" ;;
    metrics-server) echo "$LANE_CACHE/metrics-server-$METRICS_SERVER_VERSION/metrics-server" ;;
    *) return 1 ;;
  esac
}

# upstream_package COMPONENT: "module@version package-dir" of the main package that builds it.
upstream_package() {
  local vpa=k8s.io/autoscaler/vertical-pod-autoscaler@$UPSTREAM_VPA_VERSION
  case "$1" in
    vpa-recommender) echo "$vpa pkg/recommender" ;;
    vpa-updater) echo "$vpa pkg/updater" ;;
    vpa-admission-controller) echo "$vpa pkg/admission-controller" ;;
    metrics-server) echo "sigs.k8s.io/metrics-server@$METRICS_SERVER_VERSION cmd/metrics-server" ;;
    *) return 1 ;;
  esac
}
