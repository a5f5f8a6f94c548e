#!/usr/bin/env bash
# The conformance lane: upstream VPA's own e2e suite against Tailor (or upstream VPA itself) on the real-cluster lane
# (docs/conformance.md). Builds the suite and its images once (build.sh, cached), the lane's binaries
# and Tailor's image of this checkout, brings the lane's cluster up (or uses the one that is up),
# imports the images, runs each suite with only the components upstream deploys for it
# (run-suites.ts), and tears down what it brought up. Says SKIPPED and exits 0 when the suite's
# source is not given.
# Usage: npm run test:conformance [suite...]   (recommender updater admission-controller actuation full-vpa)
# Environment: TAILOR_VPA_E2E_SRC (the suite's source: upstream's vertical-pod-autoscaler/test with a
# go.mod that resolves through the Go module proxy), TAILOR_CONFORMANCE_RESULTS (report directory,
# default /var/tmp/tailor-conformance/<time>), TAILOR_CONFORMANCE_SLOW=0 (skip [Slow] specs),
# TAILOR_CONFORMANCE_OFF_BY_DEFAULT=1 (run [Feature:OffByDefault] specs too), TAILOR_CONFORMANCE_FOCUS
# (an extra ginkgo focus), TAILOR_CLUSTER_NO_BUILD=1 (fail instead of building),
# TAILOR_CONFORMANCE_AUTOSCALER=upstream (run the suite against upstream VPA v1.8.1 itself instead of
# Tailor: its own deploy/ manifests in kube-system, images from the binaries of
# ../real-cluster/build-upstream-vpa.sh made by build-upstream.sh, metrics-server on this machine;
# the report's default directory is then /var/tmp/tailor-conformance/upstream-<time>).
set -euo pipefail
conformance_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
lane="$conformance_dir/../real-cluster"
# shellcheck source=../real-cluster/lane-env.sh
source "$lane/lane-env.sh"
# shellcheck source=conformance-env.sh
source "$conformance_dir/conformance-env.sh"

if ! src="$(conformance_suite_src 2>&1)"; then echo "conformance: SKIPPED: $src"; exit 0; fi
autoscaler="${TAILOR_CONFORMANCE_AUTOSCALER:-tailor}"
case "$autoscaler" in
  tailor | upstream) ;;
  *) lane_die "TAILOR_CONFORMANCE_AUTOSCALER=$autoscaler: use tailor (the default) or upstream" ;;
esac
export TAILOR_VPA_E2E_SRC="$src"
[[ $EUID -eq 0 ]] || lane_die "the conformance lane must run as root (it runs the real-cluster lane)"
command -v kubectl >/dev/null || lane_die "kubectl is needed on PATH (Tailor is installed with kubectl apply -k)"
# One user of the lane's cluster at a time (compare-upstream.sh takes the same lock).
exec 8> /run/tailor-lane.lock
flock -w "${TAILOR_LOCK_WAIT:-3600}" 8 || lane_die "another lane run holds /run/tailor-lane.lock"

if [[ "${TAILOR_CLUSTER_NO_BUILD:-}" == 1 ]]; then
  why="$("$conformance_dir/build.sh" --check)" || lane_die "$why and TAILOR_CLUSTER_NO_BUILD=1"
  if [[ "$autoscaler" == upstream ]]; then
    why="$("$lane/build-upstream-vpa.sh" --check)" || lane_die "$why and TAILOR_CLUSTER_NO_BUILD=1"
    why="$("$conformance_dir/build-upstream.sh" --check)" || lane_die "$why and TAILOR_CLUSTER_NO_BUILD=1"
  else
    why="$("$lane/image.sh" --check)" || lane_die "$why and TAILOR_CLUSTER_NO_BUILD=1"
  fi
else
  "$conformance_dir/build.sh"
  if [[ "$autoscaler" == upstream ]]; then
    "$lane/build-upstream-vpa.sh" || lane_die "building upstream VPA's binaries failed (above)"
    "$conformance_dir/build-upstream.sh" || lane_die "making upstream VPA's images failed (above)"
  else
    "$lane/image.sh" --check >/dev/null || "$lane/image.sh" >/dev/null || lane_die "building Tailor's image failed (above)"
  fi
fi
if [[ "$autoscaler" == upstream ]]; then
  # Upstream's own manifests: deploy/ of the VPA module as the Go module proxy serves it (read in
  # the module cache, never copied into this repository).
  deploy_dir="$(upstream_deploy_dir)" || lane_die "$deploy_dir"
fi

results_prefix=""
[[ "$autoscaler" == upstream ]] && results_prefix="upstream-"
results="${TAILOR_CONFORMANCE_RESULTS:-/var/tmp/tailor-conformance/$results_prefix$(date -u +%Y%m%dT%H%M%SZ)}"
mkdir -p "$results"
# The cluster's own logs (API server, kubelets, containerd) go beside the report, so a failed spec
# can be read after the cluster is gone (down.sh removes $LANE_LOGS).
keep_cluster_logs() { [[ -d "$LANE_LOGS" ]] && cp -r "$LANE_LOGS" "$results/cluster-logs" 2>/dev/null; true; }
if [[ -e "$LANE_STATE" ]]; then
  lane_log "using the cluster that is up ($LANE_STATE); it stays up"
  trap keep_cluster_logs EXIT
else
  trap 'keep_cluster_logs; "$lane/down.sh"' EXIT
  "$lane/up.sh"
fi

# The specs' images, under the names they use, into each node's containerd.
for n in $(seq 1 "$LANE_NODES"); do
  for name in "${CONFORMANCE_IMAGES[@]}"; do
    ctr --address "$(node_containerd_sock "$n")" -n k8s.io images import "$(conformance_image_tar "$name")" >/dev/null
  done
done
if [[ "$autoscaler" == upstream ]]; then
  # Upstream's images, under the names its manifests (and the suite's NewVPADeployment) use.
  import_upstream_images
  lane_log "images imported into $LANE_NODES node(s); upstream VPA $UPSTREAM_VPA_VERSION's ${CONFORMANCE_UPSTREAM_IMAGES[*]}; its manifests $deploy_dir"
  export TAILOR_CONFORMANCE_UPSTREAM_DEPLOY="$deploy_dir" TAILOR_CONFORMANCE_UPSTREAM_IMAGES="${CONFORMANCE_UPSTREAM_IMAGES[*]}" \
    TAILOR_CONFORMANCE_METRICS_SERVER="$(upstream_binary metrics-server)"
else
  image="$("$lane/image.sh" --import | tail -n 1)"
  lane_log "images imported into $LANE_NODES node(s); Tailor's image $image"
  export TAILOR_CONFORMANCE_IMAGE="$image"
fi

cd "$conformance_dir/../.."
TAILOR_CONFORMANCE_SUITE="$(conformance_suite_binary "$src")" TAILOR_CONFORMANCE_RESULTS="$results" \
  TAILOR_CONFORMANCE_AUTOSCALER="$autoscaler" TAILOR_CLUSTER_KUBECONFIG="$LANE_KUBECONFIG" TAILOR_CLUSTER_STATE="$LANE_STATE" \
  node --import tsx "$conformance_dir/run-suites.ts" "$@"
